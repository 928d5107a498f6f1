"""Connect Four, one decision from the empty 7x6 board: gametree vs easyAI and OpenSpiel.

Depths 8 and 10, with the shared centre-weighted heuristic; easyAI's Negamax uses its table.

    python benchmarks/setup_peers.py        # once: the peers' own environment
    python benchmarks/bench_connect4.py     # prints one table per depth (see --help)

Every contender values the leaves with ``heuristics.py`` (each reading its own board format,
checked against the shared function before measuring) and must find the same root value; a
move that differs from gametree's is searched again by gametree to check that it is as good.
Moves are columns 0-6 from the left.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from gametree.games.connect4 import C4State, ConnectFour
from gametree.result import SearchResult
from gametree.values import Value
from harness import (
    BenchmarkError,
    Row,
    answer_after_move,
    answer_from_result,
    check_answers,
    check_moves,
    chosen_algorithm,
    chosen_peers,
    measure_gametree,
    measure_peer,
    parser,
    run_main,
)
from heuristics import CENTRE_WEIGHTS, COLUMNS, ROWS, centre_score
from measure import Answer

TASK = "connect4"
PEERS = {
    "easyai-tt": "easyAI Negamax + table",
    "openspiel": "OpenSpiel alpha_beta_search",
}
"""The peers measured, by worker name, with the name the table shows."""

CHECK_COLUMNS = (3, 3, 2, 4, 4, 0, 6, 3, 5, 1, 1, 2)
"""Columns played to check that a side's estimate equals the shared one along the way."""


class SharedHeuristicConnectFour(ConnectFour):
    """gametree's 7x6 Connect Four with ``evaluate`` replaced by the shared heuristic.

    Only :meth:`evaluate` changes: the rules, the move order (centre columns first) and the
    table key are the game's own. The estimate is computed on gametree's bitboards (bit
    ``col * (height + 1) + row``, row 0 at the bottom, as ``gametree.games.connect4``
    documents it), grouping cells of equal weight into one mask each.
    """

    def __init__(self) -> None:
        super().__init__(COLUMNS, ROWS)
        groups: dict[int, int] = {}
        for row, weights in enumerate(CENTRE_WEIGHTS):
            for col, weight in enumerate(weights):
                groups[weight] = groups.get(weight, 0) | 1 << (col * (ROWS + 1) + row)
        self.weight_groups = tuple(sorted(groups.items()))

    def evaluate(self, state: C4State) -> Value:
        """The shared centre-weighted estimate, seen from player 0 (X)."""
        x_stones = self.stones(state, 0)
        o_stones = state[1] ^ x_stones
        return sum(weight * ((x_stones & cells).bit_count() - (o_stones & cells).bit_count())
                   for weight, cells in self.weight_groups)


def check_heuristic(game: SharedHeuristicConnectFour) -> None:
    """Make sure gametree's estimate equals the shared function along a game."""
    grid = [[-1] * COLUMNS for _ in range(ROWS)]
    state = game.initial_state()
    for number, col in enumerate(CHECK_COLUMNS):
        row = sum(1 for line in grid if line[col] != -1)
        grid[row][col] = number % 2
        state = game.play(state, col)
        expected = centre_score([cell for line in grid for cell in line], 0, 1)
        if game.evaluate(state) != expected:
            raise BenchmarkError("gametree's Connect Four estimate differs from the shared "
                                 f"heuristic after columns {CHECK_COLUMNS[:number + 1]}")


def answer_of(result: SearchResult[Any]) -> Answer:
    """gametree's answer; its Connect Four moves are columns from 0."""
    return answer_from_result(result, int)


def parse_depths(text: str) -> tuple[int, ...]:
    """``8,10`` as search depths."""
    try:
        depths = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected depths like 8,10, got {text!r}") from None
    if not depths or min(depths) < 1:
        raise argparse.ArgumentTypeError(f"depths must be at least 1, got {text!r}")
    return depths


def body(options: argparse.Namespace) -> list[tuple[str, Row, list[Row]]]:
    """Measure every contender at every depth and check their answers."""
    algorithm = chosen_algorithm(options.algorithm)
    peers = chosen_peers(options.peers, list(PEERS))
    game = SharedHeuristicConnectFour()
    check_heuristic(game)
    tables = []
    for depth in options.depths:
        reference = Row(f"gametree ({algorithm})", measure_gametree(
            SharedHeuristicConnectFour, algorithm=algorithm, depth=depth, answer_of=answer_of,
            repeat=options.repeat, budget=options.budget))
        others = [Row(PEERS[peer], measure_peer(TASK, peer, repeat=options.repeat,
                                                budget=options.budget,
                                                arguments=["--depth", str(depth)]))
                  for peer in peers]
        check_answers(reference, others)
        check_moves(reference, others, answer_after_move(
            game, algorithm=algorithm, depth=depth, answer_of=answer_of))
        tables.append((f"Connect Four 7x6, one decision from the empty board, depth {depth}",
                       reference, others))
    return tables


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; exit 0, 1 if the answers differ, 2 if it cannot run."""
    command = parser(__doc__.splitlines()[0], repeat=9, budget=30.0, peers=list(PEERS))
    command.add_argument("--depths", type=parse_depths, default=(8, 10), metavar="8,10",
                         help="search depths in plies, one table each (default 8,10)")
    return run_main(body, command, argv)


if __name__ == "__main__":
    sys.exit(main())
