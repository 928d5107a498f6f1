"""Argument parsing for the ``gametree`` command: one-line errors, games as sub-commands."""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

from ..frontend import game_option_value, option_default_text, options_type
from ..numbers import whole_number
from ..options import SearchOption, declared_options, parse_bytes
from ..registry import GameOption, GameSpec, games, get

GAME_PREFIX = "game_"
"""Namespace attributes holding game options are called ``game_<option>``."""


class CliParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, exit code 2, and never a traceback."""

    def error(self, message: str) -> NoReturn:
        """Print ``prog: error: message`` on one line and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _option_type(option: GameOption) -> Callable[[str], Any]:
    """A game option's argparse type (:func:`gametree.frontend.game_option_value`), its
    ``ValueError`` text reaching the user."""

    def convert(text: str) -> Any:
        try:
            return game_option_value(option, text)
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


def _whole(option: SearchOption) -> Callable[[str], int]:
    """The argparse type of a whole-number search option, from its declaration."""
    named = dict(option.named)
    words = " or ".join(repr(word) for word in named)
    low, high = option.minimum, option.maximum

    def convert(text: str) -> int:
        if text.strip().lower() in named:
            return named[text.strip().lower()]
        try:
            value = whole_number(text)
        except ValueError:
            wanted = f"a number of {option.name} or {words}" if named else "a whole number"
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}") from None
        if (low is not None and value < low) or (high is not None and value > high):
            if named:
                wanted = f"a number of {option.name} within {low}..{high} or {words}"
            elif low is not None and value < low:
                wanted = f"a number >= {low}"
            else:
                wanted = f"a number <= {high:,}"
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}")
        return value

    return convert


def _bytes(option: SearchOption) -> Callable[[str], int]:
    """The argparse type of a search option in bytes (``64MiB``, ``1GiB``), from its
    declaration."""

    def convert(text: str) -> int:
        try:
            value = parse_bytes(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        if not option.allows(value):
            raise argparse.ArgumentTypeError(f"expected {option.range_text()}, got {text!r}")
        return value

    return convert


def add_search_options(parser: argparse.ArgumentParser, *, default_algorithm: str) -> None:
    """The options every searching command shares: one flag per declared search option
    (:func:`gametree.options.declared_options` of :func:`gametree.frontend.options_type`),
    and ``--moves`` and ``--json``."""
    group = parser.add_argument_group("search")
    for option in declared_options(options_type()):
        if option.flag is None:
            continue
        if option.kind == "switch":
            group.add_argument(option.flag, dest=option.name,
                               action="store_false" if option.inverted else "store_true",
                               help=option.help)
        elif option.kind == "choice":
            default = default_algorithm if option.name == "algorithm" else option.default
            group.add_argument(option.flag, dest=option.name, choices=list(option.choices),
                               default=default, help=f"{option.help} (default: {default})"
                               if option.name == "algorithm" else option.help)
        else:
            convert = _whole(option) if option.kind == "whole" else \
                _bytes(option) if option.kind == "bytes" else \
                positive_seconds if option.positive else non_negative_seconds
            group.add_argument(option.flag, dest=option.name, type=convert,
                               default=option.default, metavar=option.metavar,
                               help=option.help)
    parser.add_argument("--moves", metavar="\"M M ...\"",
                        help="start from the position after these moves")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object (see docs/json.md) instead of text")


def search_values(args: argparse.Namespace) -> dict[str, Any]:
    """The declared search options found in a namespace parsed with
    :func:`add_search_options`, by field name."""
    return {option.name: getattr(args, option.name)
            for option in declared_options(options_type()) if option.flag is not None}


_only_game: list[str] = []
"""The game whose sub-commands :func:`add_game_commands` adds alone, while :func:`narrowed`
says so."""
_only_command: list[str] = []
"""The command that a module of several adds alone, while :func:`narrowed` says so."""


@contextlib.contextmanager
def narrowed(command: str | None, game: str | None) -> Iterator[None]:
    """Within this block, a command module adds the command ``command`` alone
    (:func:`wanted`), and :func:`add_game_commands` the sub-command of the game ``game``
    alone (every command, or game, when None): a parser for one command line that names
    them (:func:`gametree.cli.build_parser`)."""
    _only_command[:] = [] if command is None else [command]
    _only_game[:] = [] if game is None else [game]
    try:
        yield
    finally:
        _only_command.clear()
        _only_game.clear()


def wanted(command: str) -> bool:
    """Whether a command module adds ``command`` to the parser being built (see
    :func:`narrowed`)."""
    return not _only_command or _only_command[0] == command


def add_game_commands(
    command: argparse.ArgumentParser,
    parent: CliParser,
    specs: dict[str, GameSpec] | None = None,
) -> None:
    """Give ``command`` one sub-command per game (or only :func:`narrowed`'s), each with the
    game's options and ``parent``'s."""
    subparsers = command.add_subparsers(dest="game", metavar="GAME", required=True,
                                        parser_class=CliParser)
    if specs:
        chosen = specs
    elif _only_game:  # a registered game's name (build_parser made sure)
        chosen = {_only_game[0]: get(_only_game[0])}
    else:
        chosen = dict(games())
    if _only_game and _only_game[0] in chosen:
        chosen = {_only_game[0]: chosen[_only_game[0]]}
    for spec in chosen.values():
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
                group.add_argument(flag, dest=dest, type=_option_type(option),
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
