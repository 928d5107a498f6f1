"""Solve misère Nim exactly (rows 1,3,5,7): gametree vs OpenSpiel and easyAI.

    python benchmarks/setup_peers.py      # once: the peers' own environment
    python benchmarks/bench_nim.py        # prints the table (see --help)

Whoever takes the last stick loses. The player to move loses 1,3,5,7 in 15 plies with best play
(the loser delays as long as possible). Every contender must prove the loss; easyAI without its
table claims a distance that must be exact, easyAI with its table claims one that is reported
when wrong, OpenSpiel claims none. Moves are ``[row, sticks]`` with rows counted from 0.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from gametree import registry
from gametree.result import SearchResult
from harness import (
    BenchmarkError,
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

TASK = "nim"
PEERS = {
    "openspiel": "OpenSpiel alpha_beta_search",
    "easyai": "easyAI Negamax",
    "easyai-tt": "easyAI Negamax + table",
}
"""The peers measured, by worker name, with the name the table shows."""

EXACT_DISTANCE = ("easyAI Negamax",)
"""Peers whose claimed distance must equal gametree's (easyAI without a table is exact)."""


def answer_of(result: SearchResult[Any]) -> Answer:
    """gametree's answer; its Nim moves are ``(row, sticks)`` with rows from 0."""
    return answer_from_result(result, list)


def parse_rows(text: str) -> tuple[int, ...]:
    """``1,3,5,7`` as stick counts."""
    try:
        rows = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected stick counts like 1,3,5,7, got {text!r}") from None
    if not rows or min(rows) < 1:
        raise argparse.ArgumentTypeError(f"every row needs at least one stick, got {text!r}")
    return rows


def body(options: argparse.Namespace) -> list[tuple[str, Row, list[Row]]]:
    """Measure every contender and check their answers."""
    algorithm = chosen_algorithm(options.algorithm)
    peers = chosen_peers(options.peers, list(PEERS))
    rows = options.rows
    try:
        game = registry.make("nim", rows=rows, misere=True)
    except registry.GameOptionError as error:
        raise BenchmarkError(str(error)) from None
    reference = solved_reference(options, algorithm,
                                 lambda: registry.make("nim", rows=rows, misere=True), answer_of)
    piles = ["--piles", ",".join(str(row) for row in rows)]
    others = [Row(PEERS[peer], measure_peer(TASK, peer, repeat=options.repeat,
                                            budget=options.budget, arguments=piles))
              for peer in peers]
    check_answers(reference, others, trust_plies=EXACT_DISTANCE)
    check_moves(reference, others,
                answer_after_move(game, algorithm=algorithm, depth=None, answer_of=answer_of))
    title = f"Misère Nim {','.join(str(row) for row in rows)}, solved exactly"
    return [(title, reference, others)]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; exit 0, 1 if the answers differ, 2 if it cannot run."""
    command = parser(__doc__.splitlines()[0], repeat=9, budget=60.0, peers=list(PEERS),
                     compiled=True)
    command.add_argument("--rows", type=parse_rows, default=(1, 3, 5, 7), metavar="1,3,5,7",
                         help="sticks in each row (default 1,3,5,7)")
    return run_main(body, command, argv)


if __name__ == "__main__":
    sys.exit(main())
