"""From command-line arguments to a game and a position, shared by every command: the game's
options and ``--moves``, or a game record (``--record FILE``, docs/records.md)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..frontend import game_options as read_game_options
from ..game import Game
from ..registry import get, play_line
from .parser import game_options

if TYPE_CHECKING:
    from ..records import GameRecord

RECORD_COMMANDS = ("solve", "analyze", "trace", "count", "play")
"""The commands that take ``--record FILE`` (and ``play`` ``--load FILE``) in place of the
game's name."""

RECORD_FLAGS = ("--record", "--load")
"""The options that name a game record."""


def add_record_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--record FILE``: start from a game record's position (its game, options, moves)."""
    parser.add_argument("--record", metavar="FILE",
                        help="start from the position of this game record (docs/records.md): "
                             "its game, options and moves; the game's name may be left out "
                             "(gametree solve --record game.json)")


def with_record_game(argv: Sequence[str]) -> list[str]:
    """``argv`` with the game's name put in after the command when ``--record FILE`` (or
    ``play --load FILE``) names a record and no game is given: ``solve --record g.json`` is
    read as ``solve connect4 --record g.json``."""
    words = list(argv)
    if len(words) < 2 or words[0] not in RECORD_COMMANDS or not words[1].startswith("-"):
        return words
    for index, word in enumerate(words):
        for flag in RECORD_FLAGS:
            if word == flag and index + 1 < len(words):
                path = words[index + 1]
            elif word.startswith(flag + "="):
                path = word[len(flag) + 1:]
            else:
                continue
            from ..records import read_record  # noqa: PLC0415 - with a record only

            return [words[0], read_record(path).game, *words[1:]]
    return words


@dataclass(frozen=True)
class Start:
    """Where a command starts: the game, the moves played from its start (their positions),
    and the record they came from, if any."""

    game: Game[Any, Any]
    """The game, with its options."""

    options: dict[str, Any]
    """The game's option values (those given; the others are the defaults)."""

    states: list[Any]
    """The first position, then the position after each move played (``--moves`` or the
    record's): the command starts from the last."""

    moves: list[Any]
    """The moves played, one fewer than :attr:`states`."""

    record: GameRecord | None = None
    """The game record given (``--record`` or ``--load``), else ``None``."""

    @property
    def values(self) -> list[dict[str, Any] | None]:
        """The engine's value before each move, as the record holds them (none without)."""
        return list(self.record.values) if self.record else [None] * len(self.moves)

    @property
    def state(self) -> Any:
        """The position the command starts from."""
        return self.states[-1]


def game_and_position(args: argparse.Namespace) -> tuple[Game[Any, Any], Any]:
    """Build the game named on the command line and play ``--moves`` (or a record's moves) from
    its start."""
    start = starting_point(args)
    return start.game, start.state


def starting_point(args: argparse.Namespace) -> Start:
    """:func:`game_and_position` with every position on the way and the record, if any."""
    path = getattr(args, "record", None) or getattr(args, "load", None)
    if path is not None:
        return _from_record(args, path)
    spec = get(args.game)
    options = game_options(args)
    game = spec.make(**options)
    moves = getattr(args, "moves", None)
    return _played(game, options, spec.split_moves(moves) if moves else [])


def _played(game: Game[Any, Any], options: dict[str, Any], texts: list[str],
            record: GameRecord | None = None) -> Start:
    """The start after the moves ``texts`` (raises naming a move that cannot be played)."""
    play_line(game, texts)  # a move that cannot be played is named by its number in the line
    states, moves = [game.initial_state()], []
    for text in texts:
        state, move = play_line(game, [text], states[-1])
        states.append(state)
        moves.append(move)
    return Start(game, options, states, moves, record)


def _from_record(args: argparse.Namespace, path: str) -> Start:
    """The start a game record gives; the command line may repeat its game and options but
    not contradict them, and gives no ``--moves`` of its own."""
    if getattr(args, "record", None) and getattr(args, "load", None):
        raise ValueError("give --record (start from a record) or --load (resume a game), "
                         "not both")
    from ..records import read_record, record_game  # noqa: PLC0415 - 2 ms of every start

    record = read_record(path)
    if record.game != args.game:
        raise ValueError(f"{path} is a game of {record.game}, not {args.game}")
    if getattr(args, "moves", None):
        raise ValueError(f"{path} gives the moves: leave out --moves")
    spec, game, _ = record_game(record)
    recorded = read_game_options(spec, record.options)
    for option in spec.options:
        given = getattr(args, f"game_{option.name}", option.default)
        value = recorded.get(option.name, option.default)
        if given not in (option.default, value):
            flag = f"--{option.name.replace('_', '-')}"
            raise ValueError(f"{path} plays {spec.name} with {option.name} {value!r}; "
                             f"{flag} {given!r} disagrees (leave it out)")
    return _played(game, recorded, record.moves, record)
