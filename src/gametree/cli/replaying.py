"""The ``replay`` command: step through a game record with the engine's value of each move."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..records import read_record, record_game
from .parser import fail, positive_int, positive_seconds

DEFAULT_TIME = 1.0
"""Seconds the engine spends on each position unless told otherwise."""

DESCRIPTION = (
    "Step through a game record (docs/records.md; gametree play --save writes one): each move "
    "with the board after it, the engine's value of the move played and of its best move for "
    "the player who moved, and the mistakes marked (moves that changed the game's proven "
    "outcome: a win let go to a draw or a loss, a draw to a loss). On a terminal it waits "
    "after each move (Enter: next, b: back, q: quit); otherwise it prints every move and a "
    f"summary. The engine values each position for up to {DEFAULT_TIME:g} s unless told "
    "otherwise (small games are solved at once)."
)


def run_replay(args: argparse.Namespace) -> int:
    """``gametree replay FILE``; returns the exit status."""
    from ..play import SearchOpponent, Style, TerminalLines, wants_color  # noqa: PLC0415
    from ..play.replay import Replay  # noqa: PLC0415

    record = read_record(args.file)
    _spec, game, states = record_game(record)
    if args.perfect and (args.depth is not None or args.time is not None):
        fail("--perfect searches to the end: it cannot be combined with --depth or --time")
    time = None if args.perfect else args.time if args.time is not None else \
        None if args.depth is not None else DEFAULT_TIME
    opponent = SearchOpponent(depth=args.depth, time_per_move=time, tier=args.tier)
    opponent.prepare(game)
    interactive = sys.stdin is not None and sys.stdin.isatty() and sys.stdout.isatty()
    replay = Replay(game, record, states, opponent, sys.stdout,
                    lines=TerminalLines() if interactive else None,
                    style=Style(wants_color(args.color, sys.stdout)))
    return replay.run()


def add_command(subparsers: Any) -> None:
    """Register ``replay``."""
    command = subparsers.add_parser("replay", help="step through a game record, mistakes "
                                    "marked", description=DESCRIPTION)
    command.add_argument("file", metavar="FILE", help="the game record (JSON)")
    command.add_argument("--time", type=positive_seconds, metavar="SECONDS",
                         help=f"think about each position this long (default: "
                              f"{DEFAULT_TIME:g} unless --depth or --perfect is given)")
    command.add_argument("--depth", type=positive_int, metavar="N",
                         help="look N plies ahead from each position")
    command.add_argument("--perfect", action="store_true",
                         help="search each position to the end of the game (small games)")
    command.add_argument("--tier", choices=("auto", "python", "compiled"), default="auto",
                         help="where the engine searches (default: auto)")
    command.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                         help="colour the output: auto (default) colours a terminal")
    command.set_defaults(run=run_replay)
