"""The ``play`` command: play any registered game against the computer in the terminal."""

from __future__ import annotations

import argparse
import io
import random
import sys
from typing import Any

from ..algorithms import ALGORITHMS, DEFAULT_ALGORITHM
from ..levels import HIGHEST, LOWEST
from ..records import GameRecord, options_json
from ..registry import get
from .parser import (
    CliParser,
    add_game_commands,
    fail,
    non_negative_seconds,
    positive_int,
    positive_seconds,
)
from .position import add_record_option, starting_point

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
    "--level 1..10 makes the engine weaker (10: its full strength). --save FILE keeps the "
    "game as a record (docs/records.md; in PGN for chess when FILE ends in .pgn), --load "
    "FILE resumes one, --record FILE starts from one's position. When the game ends you may "
    "undo or start a new one. "
    "Exit status: 0 when the game ends, you quit or the input ends; 130 when interrupted; "
    "2 for bad usage."
)


def _level(text: str) -> int:
    """An argparse type: a level from 1 to 10."""
    value = positive_int(text)
    if value > HIGHEST:
        raise argparse.ArgumentTypeError(f"expected a level from {LOWEST} to {HIGHEST}, "
                                         f"got {text!r}")
    return value


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
                               "so that games vary; with --level, the level's choices come "
                               "from it (the same seed plays the same game)")
    strength.add_argument("--level", type=_level, metavar="1..10",
                          help="play weaker: level 1 looks one ply ahead and often errs, "
                               "level 10 plays at full strength (docs/play.md#levels)")
    parser.add_argument("--dice", type=int, metavar="N",
                        help="in a game with chance (pig), roll the dice from seed N, so that "
                             "a game can be played again (default: unseeded)")
    parser.add_argument("--moves", metavar="\"M M ...\"",
                        help="start from the position after these moves")
    records = parser.add_argument_group("game records (docs/records.md)")
    records.add_argument("--save", metavar="FILE",
                         help="keep the game in this record file, written after every move, "
                              "on quit and at the end (JSON; PGN for chess when FILE ends in "
                              ".pgn)")
    records.add_argument("--load", metavar="FILE",
                         help="resume the game saved in this record file: its moves, sides "
                              "and level (and keep saving to it unless --save names another); "
                              "the game's name may be left out")
    add_record_option(records)
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
    begin = starting_point(args)
    game, start = begin.game, begin.states[0]
    loaded = begin.record if args.load else None
    if loaded is not None and (args.watch or args.first is not None):
        fail("--load resumes the game with its own sides: --first and --watch do not apply")
    level = args.level if args.level is not None or loaded is None else loaded.level
    time_per_move, depth = _time_and_depth(args)
    opponent: Any = SearchOpponent(depth=depth, time_per_move=time_per_move,
                                   algorithm=args.algorithm, seed=args.seed, tier=args.tier,
                                   level=level)
    if args.db:
        if level is not None and level < HIGHEST:
            fail("--db plays the database's perfect moves and a level its own weaker ones: "
                 "leave out --db or --level")
        from ..db.answer import SolutionDatabase  # noqa: PLC0415
        from ..play.database import DatabaseOpponent  # noqa: PLC0415

        opponent = DatabaseOpponent(SolutionDatabase(args.db, game), opponent)
    mover = game.turn(begin.state)  # at a chance state: whose turn it is (who rolls)
    human: int | None = None
    if loaded is not None:
        human = _human_of(loaded)
    elif not args.watch:
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
    engine = "gametree" if level is None else f"gametree level {level}"
    players = tuple("you" if side == human else engine for side in (0, 1))
    record = GameRecord(args.game, options_json(get(args.game), begin.options),
                        (players[0], players[1]), level=level)
    played = list(zip(begin.moves, begin.values, strict=True))
    save = args.save if args.save is not None else args.load
    session: PlaySession[Any, Any] = PlaySession(
        game, opponent, human=human, output=sys.stdout, start=start, lines=lines,
        style=Style(wants_color(args.color, sys.stdout)), notation=get(args.game).notation,
        show_thinking=stdout_tty, delay=delay, record=record, save=save, played=played,
        dice=None if args.dice is None else random.Random(args.dice),
    )
    opponent.prepare(game)  # compiled code loads (or compiles) now, not in the first move's time
    return session.run()


def _human_of(record: GameRecord) -> int | None:
    """The side the person plays in a saved game: the player called ``you`` (``None``: the
    engine played both sides)."""
    sides = [side for side, name in enumerate(record.players) if name == "you"]
    if len(sides) > 1:
        fail("the record has two players called 'you': the terminal plays one person against "
             "the engine")
    return sides[0] if sides else None


def add_command(subparsers: Any) -> None:
    """Register ``play`` with one sub-command per game."""
    common = CliParser(add_help=False)
    _add_options(common)
    command = subparsers.add_parser("play", help="play a game against the computer",
                                    description=DESCRIPTION)
    add_game_commands(command, common)
    command.set_defaults(run=run_play)
