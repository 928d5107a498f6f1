"""Argument parsing for the ``gametree`` command: one-line errors, games as sub-commands."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from ..algorithms import ALGORITHMS
from ..numbers import whole_number
from ..options import MAX_THREADS
from ..registry import GameOption, GameSpec, games

GAME_PREFIX = "game_"
"""Namespace attributes holding game options are called ``game_<option>``."""


class CliParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, exit code 2, and never a traceback."""

    def error(self, message: str) -> NoReturn:
        """Print ``prog: error: message`` on one line and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _option_type(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """Wrap a game option's parser so that its ``ValueError`` text reaches the user."""

    def convert(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return convert


def non_negative_int(text: str) -> int:
    """An argparse type: a whole number >= 0."""
    try:
        value = whole_number(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
    return value


def _seconds(text: str, *, allow_zero: bool) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        wanted = "a number of seconds >= 0" if allow_zero else "a positive number of seconds"
        raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}")
    return value


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds > 0."""
    return _seconds(text, allow_zero=False)


def non_negative_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds >= 0."""
    return _seconds(text, allow_zero=True)


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1."""
    value = non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {text!r}")
    return value


def thread_count(text: str) -> int:
    """An argparse type: a number of threads within 0..MAX_THREADS, or ``auto`` (0: every
    core)."""
    if text.strip().lower() == "auto":
        return 0
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of threads or 'auto', got {text!r}") from None
    if not 0 <= value <= MAX_THREADS:
        raise argparse.ArgumentTypeError(
            f"expected a number of threads within 0..{MAX_THREADS} or 'auto', got {text!r}")
    return value


def add_search_options(parser: argparse.ArgumentParser, *, default_algorithm: str) -> None:
    """The options every searching command shares."""
    group = parser.add_argument_group("search")
    group.add_argument("--algorithm", choices=list(ALGORITHMS), default=default_algorithm,
                       help=f"search algorithm (default: {default_algorithm})")
    group.add_argument("--depth", type=non_negative_int, metavar="N",
                       help="look N plies ahead, then use the game's heuristic "
                            "(default: search to the end of the game)")
    group.add_argument("--time", type=positive_seconds, metavar="SECONDS",
                       help="think at most this long, then answer with the deepest search "
                            "completed (with or without --depth; the reference algorithms "
                            "keep it approximately, by iterative deepening)")
    group.add_argument("--nodes", type=positive_int, metavar="N",
                       help="engine only: visit at most about N positions, then answer with "
                            "the deepest search completed")
    group.add_argument("--no-distance", dest="by_distance", action="store_false",
                       help="plain values: do not score wins and losses by their distance "
                            "(reproduces the seeds' numbers)")
    group.add_argument("--fail-hard", dest="fail_soft", action="store_false",
                       help="alphabeta only: return window bounds at pruned nodes "
                            "(seed 004's pseudo-code) instead of the best value seen")
    group.add_argument("--exact", dest="exact_root", action="store_true",
                       help="search every root move with a full window so that every "
                            "move's value is exact, not a bound")
    group.add_argument("--seed", type=int, metavar="N",
                       help="break ties between equally good moves at random from seed N")
    group.add_argument("--tier", choices=("auto", "python", "compiled"), default="auto",
                       help="python: search the game's Python form; compiled: its compiled "
                            "(numba) form; auto (default): compiled when the game has one and "
                            "the search is the engine's, untraced")
    group.add_argument("--weak", action="store_true",
                       help="prove only win, draw or loss (faster on the compiled tier)")
    group.add_argument("--threads", type=thread_count, default=1, metavar="N",
                       help="compiled tier: solve with N threads sharing one table (auto or "
                            "0: every core; default 1); the value is the same, faster on a "
                            "hard position")
    parser.add_argument("--moves", metavar="\"M M ...\"",
                        help="start from the position after these moves")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object (see docs/json.md) instead of text")


def option_default_text(option: GameOption) -> str | None:
    """An option's default as it would be typed (``1,3,5,7``), or ``None`` if it has none."""
    value = option.default
    if option.flag or value is None:
        return None
    if isinstance(value, (tuple, list)):
        return ",".join(str(item) for item in value)
    return str(value)


def add_game_commands(
    command: argparse.ArgumentParser,
    parent: CliParser,
    specs: dict[str, GameSpec] | None = None,
) -> None:
    """Give ``command`` one sub-command per game, each with the game's options and ``parent``'s."""
    subparsers = command.add_subparsers(dest="game", metavar="GAME", required=True,
                                        parser_class=CliParser)
    for spec in (specs or dict(games())).values():
        game_parser = subparsers.add_parser(
            spec.name, help=spec.summary, parents=[parent],
            description=f"{spec.name}: {spec.summary}. Moves: {spec.notation}.",
        )
        group = game_parser.add_argument_group(f"{spec.name} options")
        for option in spec.options:
            flag = f"--{option.name.replace('_', '-')}"
            dest = GAME_PREFIX + option.name
            if option.flag:
                group.add_argument(flag, dest=dest, action="store_true", help=option.help)
            else:
                shown = option_default_text(option)
                default_text = "" if shown is None else f" (default: {shown})"
                group.add_argument(flag, dest=dest, type=_option_type(option.parse),
                                   metavar=option.metavar, default=option.default,
                                   help=option.help + default_text)


def game_options(namespace: argparse.Namespace) -> dict[str, Any]:
    """The game options found in a parsed namespace, by option name."""
    return {
        name[len(GAME_PREFIX):]: value
        for name, value in vars(namespace).items()
        if name.startswith(GAME_PREFIX)
    }


def fail(message: str) -> NoReturn:
    """Stop the command with a one-line error and exit status 2."""
    print(f"gametree: error: {message}", file=sys.stderr)
    raise SystemExit(2)
