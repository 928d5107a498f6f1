"""The ``play`` command: play any registered game against the computer in the terminal."""

from __future__ import annotations

import argparse
import io
import random
import sys
from typing import Any

from ..algorithms import ALGORITHMS, DEFAULT_ALGORITHM
from ..registry import get
from .parser import (
    CliParser,
    add_game_commands,
    fail,
    non_negative_seconds,
    positive_int,
    positive_seconds,
)
from .position import game_and_position

DEFAULT_TIME = 3.0
"""Seconds per move when neither ``--depth``, ``--time`` nor ``--perfect`` is given."""

WATCH_DELAY = 0.5
"""Pause between the moves of a watched game when the output is a terminal."""

DESCRIPTION = (
    "Play a game against the computer in the terminal, or watch it play itself. After every "
    "move the board, the player to move and the legal moves are shown. Instead of a move you "
    "can type: help, hint (the engine's suggestion), scores (the value of every legal move), "
    "undo (take back your last move and the reply), board, moves, quit. Moves can also be "
    "piped in, one per line. The engine thinks for up to "
    f"{DEFAULT_TIME:g} s per move unless told otherwise, on the game's compiled form when it "
    "has one (--tier python for the Python tier). With --algorithm alphabeta, negamax "
    "or minimax the budget is kept by iterative deepening and is approximate (an iteration "
    "that has started is finished). "
    "Exit status: 0 when the game ends, you quit or the input ends; 130 when interrupted; "
    "2 for bad usage."
)


MAX_DELAY = 60.0
"""The longest pause between the moves of a watched game (seconds)."""


def _delay(text: str) -> float:
    """An argparse type: a pause from 0 to :data:`MAX_DELAY` seconds."""
    value = non_negative_seconds(text)
    if value > MAX_DELAY:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_DELAY:g} seconds, got {text!r}")
    return value


def _add_options(parser: argparse.ArgumentParser) -> None:
    sides = parser.add_argument_group("players")
    sides.add_argument("--first", choices=("human", "engine"),
                       help="who makes the first move (default: human)")
    sides.add_argument("--watch", action="store_true",
                       help="watch the engine play both sides")
    sides.add_argument("--delay", type=_delay, metavar="SECONDS",
                       help=f"pause between the moves of a watched game, 0 to {MAX_DELAY:g} "
                            f"(default: {WATCH_DELAY:g} on a terminal, 0 otherwise)")
    strength = parser.add_argument_group("engine strength")
    strength.add_argument("--depth", type=positive_int, metavar="N",
                          help="look N plies ahead, then use the game's heuristic; with --time, "
                               "the deepest iteration allowed")
    strength.add_argument("--time", type=positive_seconds, metavar="SECONDS",
                          help="think about this long per move (iterative deepening; default: "
                               f"{DEFAULT_TIME:g} unless --depth or --perfect is given)")
    strength.add_argument("--perfect", action="store_true",
                          help="search every move to the end of the game (perfect play; only "
                               "for small games)")
    strength.add_argument("--algorithm", choices=list(ALGORITHMS), default=DEFAULT_ALGORITHM,
                          help=f"the search the engine uses (default: {DEFAULT_ALGORITHM})")
    strength.add_argument("--tier", choices=("auto", "python", "compiled"), default="auto",
                          help="python: the engine searches the game's Python form; compiled: "
                               "its compiled (numba) form, many times faster; auto (default): "
                               "compiled when the game has one and the algorithm is the engine")
    strength.add_argument("--seed", type=int, metavar="N",
                          help="break ties between equally good moves at random from seed N, "
                               "so that games vary")
    parser.add_argument("--dice", type=int, metavar="N",
                        help="in a game with chance (pig), roll the dice from seed N, so that "
                             "a game can be played again (default: unseeded)")
    parser.add_argument("--moves", metavar="\"M M ...\"",
                        help="start from the position after these moves")
    parser.add_argument("--db", metavar="FILE",
                        help="play from this solution database or opening book where it knows "
                             "the position (at once), and search elsewhere")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour the output: auto (default) colours a terminal unless "
                             "NO_COLOR is set")


def _time_and_depth(args: argparse.Namespace) -> tuple[float | None, int | None]:
    if args.perfect:
        if args.depth is not None or args.time is not None:
            fail("--perfect searches to the end: it cannot be combined with --depth or --time")
        return None, None
    if args.time is None and args.depth is None:
        return DEFAULT_TIME, None
    return args.time, args.depth


def run_play(args: argparse.Namespace) -> int:
    """``gametree play``: one game in the terminal; returns the exit status."""
    # Imported here, not at the top, so that the other commands (and ``gametree --help``)
    # do not load the terminal player.
    from ..play import (  # noqa: PLC0415
        LineSource,
        PlaySession,
        SearchOpponent,
        StreamLines,
        Style,
        TerminalLines,
        wants_color,
    )

    if args.watch and args.first is not None:
        fail("--watch lets the engine play both sides: --first does not apply")
    game, start = game_and_position(args)
    time_per_move, depth = _time_and_depth(args)
    opponent: Any = SearchOpponent(depth=depth, time_per_move=time_per_move,
                                   algorithm=args.algorithm, seed=args.seed, tier=args.tier)
    if args.db:
        from ..db.answer import SolutionDatabase  # noqa: PLC0415
        from ..play.database import DatabaseOpponent  # noqa: PLC0415

        opponent = DatabaseOpponent(SolutionDatabase(args.db, game), opponent)
    mover = game.turn(start)  # at a chance state: whose turn it is (who rolls)
    human: int | None = None
    if not args.watch:
        human = mover if (args.first or "human") == "human" else 1 - mover
    stdin = sys.stdin
    if stdin is None:  # started with its input closed (``<&-``)
        if human is not None:
            fail("standard input is closed: type your moves on it, or --watch the engine "
                 "play itself")
        stdin = io.StringIO()  # a watched game reads nothing
    stdin_tty, stdout_tty = stdin.isatty(), sys.stdout.isatty()
    lines: LineSource = (TerminalLines() if stdin_tty and stdout_tty
                         else StreamLines(stdin, sys.stdout, echo=not stdin_tty))
    delay = args.delay if args.delay is not None else WATCH_DELAY if stdout_tty else 0.0
    session: PlaySession[Any, Any] = PlaySession(
        game, opponent, human=human, output=sys.stdout, start=start, lines=lines,
        style=Style(wants_color(args.color, sys.stdout)), notation=get(args.game).notation,
        show_thinking=stdout_tty, delay=delay,
        dice=None if args.dice is None else random.Random(args.dice),
    )
    opponent.prepare(game)  # compiled code loads (or compiles) now, not in the first move's time
    return session.run()


def add_command(subparsers: Any) -> None:
    """Register ``play`` with one sub-command per game."""
    common = CliParser(add_help=False)
    _add_options(common)
    command = subparsers.add_parser("play", help="play a game against the computer",
                                    description=DESCRIPTION)
    add_game_commands(command, common)
    command.set_defaults(run=run_play)
