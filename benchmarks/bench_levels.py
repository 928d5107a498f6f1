"""Opponents with a level, measured: each level's score against perfect play (level 10) and
against the next level up, with 95% intervals, at tic-tac-toe and Connect Four 5x4.

    python benchmarks/bench_levels.py                       # the tables of docs/benchmarks.md
    python benchmarks/bench_levels.py --only connect4       # one game's table
    python benchmarks/bench_levels.py --games 20 --c4-games 10   # a quicker look

A game scores 1 for a win, 0.5 for a draw, 0 for a loss; the level measured takes the first
move in every other game. Each game has a seed of its own (the game's number), so the games
differ and the whole table is reproducible. The searches are the ones the terminal and the web
run (``SearchOpponent(level=...)`` through the search service, on the compiled tier when the
game has one); level 10 searches to the end of the game. Under each table, the neighbours the
games cannot tell apart: levels whose intervals against level 10 overlap, and levels whose
interval against the next level up reaches 0.5.
"""

from __future__ import annotations

import argparse
import time
from itertools import pairwise
from typing import Any

from gametree import registry
from gametree.levels import HIGHEST, LOWEST
from gametree.options import TierChoice
from gametree.play import SearchOpponent
from gametree.play.match import Score, series

GAMES: tuple[tuple[str, str, dict[str, Any], str], ...] = (
    ("tic-tac-toe", "tictactoe", {}, "games"),
    ("Connect Four 5x4", "connect4", {"width": 5, "height": 4}, "c4_games"),
)
"""The games measured: a title, the registry name, its options, and the option giving the
number of games per pairing."""

GAMES_TTT = GAMES_C4 = 300
"""Games per pairing by default: enough for most neighbours' 95% intervals against level 10 to
separate (against level 10 a level's games are draws or losses, so half an interval is at
most 0.028), in about ten minutes a game on two busy cores."""


def _cell(score: Score) -> str:
    low, high = score.interval()
    return f"{score.mean:.2f} [{low:.2f}, {high:.2f}]"


def measure(name: str, options: dict[str, Any], games: int, tier: TierChoice
            ) -> list[tuple[int, Score, Score | None]]:
    """Each level's score against level 10 and against the next level up."""
    game = registry.make(name, **options)
    SearchOpponent(tier=tier).prepare(game)  # a kernel compiles before the clock, not in it

    def pair(mine: int, theirs: int) -> Any:
        return lambda number: (SearchOpponent(level=mine, seed=number, tier=tier),
                               SearchOpponent(level=theirs, seed=number, tier=tier))

    rows = []
    for level in range(LOWEST, HIGHEST + 1):
        perfect = series(game, pair(level, HIGHEST), games)
        above = series(game, pair(level, level + 1), games) if level < HIGHEST else None
        rows.append((level, perfect, above))
    return rows


def apart(rows: list[tuple[int, Score, Score | None]]) -> tuple[list[str], list[str]]:
    """Where the table cannot yet tell neighbours apart: the pairs of levels whose intervals
    against level 10 overlap, and the levels whose interval against the next level up reaches
    0.5 (an even match as far as the games can show)."""
    overlapping = [f"{low}-{low + 1}" for (low, below, _), (_, above, _) in pairwise(rows)
                   if below.interval()[1] >= above.interval()[0]]
    even = [str(level) for level, _, up in rows if up is not None and up.interval()[1] >= 0.5]
    return overlapping, even


def main() -> None:
    """Print one table per game (Markdown), with the neighbours it cannot tell apart."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES_TTT,
                        help=f"games per pairing at tic-tac-toe (default {GAMES_TTT})")
    parser.add_argument("--c4-games", type=int, default=GAMES_C4,
                        help=f"games per pairing at Connect Four 5x4 (default {GAMES_C4})")
    parser.add_argument("--tier", choices=("auto", "python", "compiled"), default="auto")
    parser.add_argument("--only", choices=[name for _, name, _, _ in GAMES],
                        help="measure one game only")
    args = parser.parse_args()
    for title, name, options, count in GAMES:
        if args.only not in (None, name):
            continue
        games = getattr(args, count)
        started = time.perf_counter()
        rows = measure(name, options, games, args.tier)
        seconds = time.perf_counter() - started
        print(f"### {title}: {games} games per pairing ({seconds:.0f} s)\n")
        print("| level | against level 10 | against the next level up |")
        print("| --- | --- | --- |")
        for level, perfect, above in rows:
            print(f"| {level} | {_cell(perfect)} | {'' if above is None else _cell(above)} |")
        overlapping, even = apart(rows)
        print(f"\nIntervals against level 10 that overlap: {', '.join(overlapping) or 'none'}; "
              f"against the next level up, intervals reaching 0.5: {', '.join(even) or 'none'}.\n")


if __name__ == "__main__":
    main()
