"""The ``games`` command: every registered game, its options with their defaults, its moves."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..frontend import games_json, option_default_text
from ..registry import GameOption, GameSpec, games


def option_usage(option: GameOption) -> str:
    """``--rows 1,3,5,7`` or ``--misere``."""
    flag = f"--{option.name.replace('_', '-')}"
    return flag if option.flag else f"{flag} {option.metavar or option.name.upper()}"


def spec_text(spec: GameSpec) -> str:
    """One game as a few lines of text."""
    lines = [f"{spec.name}: {spec.summary}", f"  moves: {spec.notation}"]
    for option in spec.options:
        default = option_default_text(option)
        suffix = f" (default: {default})" if default is not None else ""
        lines.append(f"  {option_usage(option)}: {option.help}{suffix}")
    return "\n".join(lines)


def run_games(args: argparse.Namespace) -> int:
    """``gametree games``: list the games."""
    if args.json:
        print(json.dumps(games_json(games())))
    else:
        print("\n\n".join(spec_text(spec) for spec in games().values()))
    return 0


def add_commands(subparsers: Any) -> None:
    """Register ``games``."""
    command = subparsers.add_parser(
        "games", help="list the games with their options and move notation",
        description="List every registered game: what it is, how moves are written, and its "
                    "options with their defaults.")
    command.add_argument("--json", action="store_true", help="print the list as JSON")
    command.set_defaults(run=run_games)
