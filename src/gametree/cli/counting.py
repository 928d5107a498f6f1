"""The ``count`` command: move sequences and positions depth by depth (a game's "perft")."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..count import CountResult, count
from ..game import Game
from .parser import CliParser, add_game_commands, game_options, non_negative_int
from .position import add_record_option, game_and_position


def count_table(game: Game[Any, Any], result: CountResult) -> str:
    """The counts as an aligned table, one row per depth and a total row."""
    first, second = game.player_names
    header = ("depth", "sequences", "positions", "games ended", f"{first} wins",
              f"{second} wins", "draws")
    rows = [tuple(str(number) for number in (
        entry.depth, entry.sequences, entry.positions, entry.ended, entry.first_wins,
        entry.second_wins, entry.draws)) for entry in result.depths]
    rows.append(("total", str(result.sequences), str(result.positions), str(result.games),
                 str(result.first_wins), str(result.second_wins), str(result.draws)))
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True))
             for row in [header, *rows]]
    lines.insert(1, "  ".join("-" * width for width in widths))
    lines.insert(len(lines) - 1, lines[1])
    return "\n".join(lines)


def summary(result: CountResult, depth: int | None) -> str:
    """One sentence on what the totals mean."""
    if result.complete:
        return (f"to the end of the game: {result.games} possible games, "
                f"{result.positions} distinct positions ({result.seconds:.3f} s)")
    return (f"to depth {depth}: {result.depths[-1].sequences} move sequences of length {depth}, "
            f"{result.positions} distinct positions at depths 0-{depth}; games still going "
            f"at depth {depth} are not followed further ({result.seconds:.3f} s)")


def run_count(args: argparse.Namespace) -> int:
    """``gametree count``: count sequences and positions from the start or ``--moves``."""
    game, state = game_and_position(args)
    result = count(game, state, depth=args.depth)
    if args.json:
        document = {"game": args.game, "options": game_options(args),
                    "moves": args.moves, "depth": args.depth}
        document.update(result.as_dict())
        print(json.dumps(document))
    else:
        print(count_table(game, result))
        print(summary(result, args.depth))
    return 0


def add_commands(subparsers: Any) -> None:
    """Register ``count``."""
    common = CliParser(add_help=False)
    common.add_argument("--depth", type=non_negative_int, metavar="N",
                        help="count up to N plies (default: to the end of the game)")
    common.add_argument("--moves", metavar="\"M M ...\"",
                        help="count from the position after these moves")
    common.add_argument("--json", action="store_true",
                        help="print one JSON object instead of a table")
    add_record_option(common)
    command = subparsers.add_parser(
        "count", help="count move sequences and positions depth by depth (perft)",
        description="For each depth, count the move sequences of that length and the distinct "
                    "positions they reach, how many games end there and how; with no --depth, "
                    "follow every sequence to the end of the game and give the totals (the "
                    "number of possible games). Game developers check their rules this way "
                    "against known figures.")
    add_game_commands(command, common)
    command.set_defaults(run=run_count)
