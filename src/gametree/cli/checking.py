"""The ``check`` command: check a registered game against the Game contract.

Exit status: 0 when the game passes, 1 when problems were found (each printed on its own line),
2 for bad usage (as every command).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..registry import get
from .parser import CliParser, add_game_commands, game_options, positive_int


def run_check(args: argparse.Namespace) -> int:
    """``gametree check``: random playouts that check the game (and its kernel)."""
    game = get(args.game).make(**game_options(args))
    if args.compiled:
        from ..compiled import set_compile_listener  # noqa: PLC0415 - only when compiling

        set_compile_listener(lambda message: print(f"gametree: {message}", file=sys.stderr,
                                                   flush=True))
    from ..compiled.startup import without_blas_probe  # noqa: PLC0415 - imports no numba

    # Kernels never call BLAS: skip numba's SciPy probe (0.3 s of start-up), as solve does.
    with without_blas_probe():
        from ..check import check_game  # noqa: PLC0415 - heavy, and only this command uses it

        report = check_game(game, playouts=args.playouts, seed=args.seed,
                            max_plies=args.max_plies, compiled=args.compiled,
                            horizons=True if args.allow_horizons else None)
    if args.json:
        fields = report.to_dict()
        del fields["game"]  # the name the game is registered under, as the command names it
        print(json.dumps({"game": args.game, "options": game_options(args), **fields}))
    else:
        print(report.text())
    return 0 if report.passed else 1


def add_commands(subparsers: Any) -> None:
    """Register ``check``."""
    common = CliParser(add_help=False)
    common.add_argument("--playouts", type=positive_int, default=100, metavar="N",
                        help="random games to play from the start (default: 100)")
    common.add_argument("--seed", type=int, default=0, metavar="N",
                        help="seed of the random playouts: the same seed gives the same report "
                             "(default: 0)")
    common.add_argument("--max-plies", type=positive_int, default=1000, metavar="N",
                        help="report a game that has not ended after N plies (default: 1000)")
    common.add_argument("--no-compiled", dest="compiled", action="store_false",
                        help="do not run the compiled engine (the first run compiles the "
                             "kernel, which takes seconds); the kernel's rules are still "
                             "compared with the game's")
    common.add_argument("--allow-horizons", action="store_true",
                        help="accept states without moves whose outcome is None (leaves "
                             "valued by evaluate); allowed for explicit trees anyway")
    common.add_argument("--json", action="store_true",
                        help="print one JSON object instead of text")
    command = subparsers.add_parser(
        "check", help="check a game against the Game contract by random playouts",
        description="Play random games from the start and check every promise of the Game "
                    "contract on every state met: players 0 and 1, hashable states that no "
                    "method changes, moves empty exactly when the game is over, numeric "
                    "outcomes, evaluate within range, key consistent with values, "
                    "parse_move(format_move(move)) == move. For a game with a kernel, check "
                    "that the kernel agrees with the game: moves in the same order, outcomes, "
                    "values on both tiers. Exit status: 0 when the game passes, 1 when "
                    "problems were found, 2 for bad usage.")
    add_game_commands(command, common)
    command.set_defaults(run=run_check)
