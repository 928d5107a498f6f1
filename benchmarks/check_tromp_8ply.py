"""A 7x6 Connect Four book to 8 plies against John Tromp's database of the same positions.

John Tromp's "Connect-4 opening database" (UCI Machine Learning Repository, donated 1995;
67,557 positions) holds "all legal 8-ply positions in the game of connect-4 in which neither
player has won yet, and in which the next move is not forced", each with its game-theoretical
value for the first player. Its description publishes the class distribution: **44,473 wins,
16,635 losses and 6,449 draws** for the first player (the player to move after 8 plies).

This script counts the same positions from a book that ``gametree db build connect4 --plies 8``
built, and prints their values beside his::

    gametree db build connect4 --plies 8 --db c4-7x6-p8.db --workers 2
    python benchmarks/check_tromp_8ply.py --db c4-7x6-p8.db

Every position 8 plies from the empty board is enumerated; kept are those where neither player
has four, the player to move cannot win at once and the opponent has no cell where it would win
at once (a move the player to move would be forced to block), each pair of mirror images once:
67,557 positions, his database's number (counted apart, mirror images make 134,934). Each kept
position's value is the book's row. The exit status is 1 if a position has no row or if a count
differs from his, 2 (with one line) if the file is not a 7x6 Connect Four database.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from gametree.db.store import Database, DatabaseError
from gametree.games import connect4_kernel
from gametree.games.connect4 import C4State, ConnectFour

TROMP_COUNTS = {"win": 44_473, "loss": 16_635, "draw": 6_449}
"""The published class distribution of the UCI Connect-4 data set (67,557 positions), for the
first player."""

PLIES = 8


def positions(game: ConnectFour, plies: int) -> set[C4State]:
    """Every position ``plies`` moves from the empty board, games already won left out."""
    layer = {game.initial_state()}
    for _ in range(plies):
        layer = {child for state in layer for move in game.moves(state)
                 if not (child := game.play(state, move))[2]}
    return layer


CAN_WIN_NEXT = connect4_kernel.rules(width=7, height=6)["can_win_next"]
"""The kernel's own test, as plain Python: can the player to move in a kernel state complete
four with one stone dropped now?"""


def not_forced(state: C4State) -> bool:
    """Neither a win for the player to move nor a threat it must block."""
    current, mask, played = connect4_kernel.encode(state)
    return not CAN_WIN_NEXT((current, mask, played)) and \
        not CAN_WIN_NEXT((current ^ mask, mask, played))


def main(argv: list[str] | None = None) -> int:
    """Count the book's values of Tromp's positions and compare them with his counts."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, required=True, help="a 7x6 book to 8 plies or more")
    args = parser.parse_args(argv)
    game = ConnectFour(7, 6)
    counts: Counter[str] = Counter()
    missing = 0
    try:
        book = Database.open(args.db)
    except DatabaseError as error:
        print(f"check_tromp_8ply: {error}", file=sys.stderr)
        return 2
    with book:
        if book.game_name != "connect4" or book.game_options != {"width": 7, "height": 6}:
            print(f"check_tromp_8ply: {args.db} holds {book.variant}, not 7x6 Connect Four",
                  file=sys.stderr)
            return 2
        kept = {game.key(state) for state in positions(game, PLIES) if not_forced(state)}
        for key in kept:
            row = book.get(key)
            if row is None:
                missing += 1
                continue
            counts[{1: "win", 0: "draw", -1: "loss"}[row.value]] += 1
    print(f"{len(kept):,} positions 8 plies in, not won and not forced, mirror images once "
          f"(Tromp: {sum(TROMP_COUNTS.values()):,}); without a row in the book: {missing:,}")
    print("| first player | the book | Tromp's database |")
    print("| --- | --- | --- |")
    for label, theirs in TROMP_COUNTS.items():
        print(f"| {label} | {counts[label]:,} | {theirs:,} |")
    same = missing == 0 and all(counts[label] == theirs for label, theirs in TROMP_COUNTS.items())
    print("the same counts" if same else "the counts differ")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
