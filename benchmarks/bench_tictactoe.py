"""Solve tic-tac-toe from the empty board: gametree vs easyAI, OpenSpiel and aima-python.

    python benchmarks/setup_peers.py          # once: the peers' own environment
    python benchmarks/bench_tictactoe.py      # prints the table (see --help)

Every contender proves the game a draw (aima-python's search returns only a move, which is
checked to keep the draw). Moves are cells 0-8, row by row from the top left.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from gametree import registry
from gametree.result import SearchResult
from harness import (
    Row,
    answer_after_move,
    answer_from_result,
    check_answers,
    check_moves,
    chosen_algorithm,
    chosen_peers,
    measure_peer,
    parser,
    run_main,
    solved_reference,
)
from measure import Answer

TASK = "tictactoe"
PEERS = {
    "easyai": "easyAI Negamax",
    "easyai-tt": "easyAI Negamax + table",
    "openspiel": "OpenSpiel alpha_beta_search",
    "aima": "aima-python alpha_beta_search",
}
"""The peers measured, by worker name, with the name the table shows."""


def answer_of(result: SearchResult[Any]) -> Answer:
    """gametree's answer; its tic-tac-toe moves already are cells 0-8 from the top left."""
    return answer_from_result(result, int)


def body(options: argparse.Namespace) -> list[tuple[str, Row, list[Row]]]:
    """Measure every contender and check their answers."""
    algorithm = chosen_algorithm(options.algorithm)
    peers = chosen_peers(options.peers, list(PEERS))
    game = registry.make("tictactoe")
    reference = solved_reference(options, algorithm, lambda: registry.make("tictactoe"),
                                 answer_of)
    others = [Row(PEERS[peer], measure_peer(TASK, peer, repeat=options.repeat,
                                            budget=options.budget))
              for peer in peers]
    check_answers(reference, others)
    check_moves(reference, others,
                answer_after_move(game, algorithm=algorithm, depth=None, answer_of=answer_of))
    return [("Tic-tac-toe, solved from the empty board", reference, others)]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; exit 0, 1 if the answers differ, 2 if it cannot run."""
    command = parser(__doc__.splitlines()[0], repeat=15, budget=10.0, peers=list(PEERS),
                     compiled=True)
    return run_main(body, command, argv)


if __name__ == "__main__":
    sys.exit(main())
