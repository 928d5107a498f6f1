"""The ``solve``, ``analyze`` and ``trace`` commands: search a position and report.

Every search goes through the search service (:func:`gametree.search`) with one
:class:`~gametree.SearchOptions` made from the command line once per command; the service
chooses the tier.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import shutil
import sys
import time
from collections.abc import Iterator
from typing import Any

from ..algorithms import DEFAULT_ALGORITHM
from ..frontend import TRACE_ALGORITHM, options_type, trace_options
from ..game import Game, GameError
from ..options import SearchOptions
from ..registry import GameSpec, get, play_moves
from ..result import SearchResult, SolveProgress
from ..service import search
from ..trace import Tracer, format_log
from .parser import (
    CliParser,
    add_game_commands,
    add_search_options,
    fail,
    game_options,
    search_values,
    wanted,
)
from .position import add_record_option, game_and_position
from .report import end_text, position_text, progress_text, result_text


def search_options(args: argparse.Namespace, *, exact_root: bool = False) -> SearchOptions:
    """The command line's search options as one :class:`SearchOptions` (checked here: a bad
    combination ends the command with a one-line error)."""
    values = search_values(args)
    values["exact_root"] = values["exact_root"] or exact_root
    return options_type()(**values)


def _report(args: argparse.Namespace, *, exact_root: bool, analysis: bool) -> int:
    """Search the position on the command line and print the result as text or JSON."""
    if getattr(args, "moves_file", None) is not None:
        if args.record is not None:
            raise ValueError("--moves-file gives its own positions: leave out --record")
        return _run_moves_file(args, exact_root=exact_root)
    spec = get(args.game)
    options = search_options(args, exact_root=exact_root)
    game, state = game_and_position(args)
    meter = None if args.json or not sys.stdout.isatty() else ProgressMeter()
    with _database(args, game) as database:
        try:
            result = search(game, state, options, database=database, progress=meter)
        finally:
            if meter is not None:
                meter.clear()
    if args.json:
        document = spec.result_json(game, state, result)
        if args.db:
            document["database"] = {"file": args.db, "hit": result.algorithm == "database"}
        print(json.dumps(document))
    else:
        print(position_text(game, state))
        print()
        print(result_text(game, state, result, analysis=analysis))
        _print_extras(spec, game, state, result)
        played = len(spec.split_moves(args.moves)) if args.moves else 0
        end = end_text(game, state, result, played)
        if end is not None:
            print(end)
        if result.source == "database":
            print(f"from database {args.db}: no search")
        elif result.source == "book":
            print("from the opening book: no search (--no-book searches)")
    return 0


class ProgressMeter:
    """A long solve's progress on the terminal: one line on standard error, rewritten at most
    :data:`REFRESH` times a second, once the solve has taken :data:`QUIET_FOR` seconds (a
    quick one shows nothing)."""

    def __init__(self) -> None:
        self.shown = 0.0
        self.width = 0

    def __call__(self, progress: SolveProgress) -> None:
        """Show ``progress`` (called by the search about ten times a second)."""
        if progress.seconds < QUIET_FOR or progress.seconds - self.shown < 1 / REFRESH:
            return
        self.shown = progress.seconds
        text = progress_text(progress)
        columns = shutil.get_terminal_size().columns - 1
        text = text[:columns]
        sys.stderr.write("\r" + text.ljust(self.width))
        sys.stderr.flush()
        self.width = len(text)

    def clear(self) -> None:
        """Take the line away (the solve is over, or was stopped)."""
        if self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
            self.width = 0


QUIET_FOR = 0.5
"""Seconds a solve runs before its progress is shown."""

REFRESH = 4
"""The most times a second the progress line is rewritten."""


@contextlib.contextmanager
def _database(args: argparse.Namespace, game: Game[Any, Any]) -> Iterator[Any]:
    """The database of ``--db FILE`` opened for ``game`` (``None`` without ``--db``): the
    search service probes it first (a wrong file is refused in one line)."""
    if not args.db:
        yield None
        return
    from ..db.answer import SolutionDatabase  # noqa: PLC0415 - only with --db

    with SolutionDatabase(args.db, game) as database:
        yield database


def _print_extras(spec: GameSpec, game: Game[Any, Any], state: Any,
                  result: SearchResult[Any]) -> None:
    """The game's extra result fields (Connect Four's Pons score) as ``name: value`` lines."""
    if spec.extra_json is None:
        return
    missing = "not computed (a weak solve proves only win, draw or loss)" if result.weak \
        else "not proven"
    for name, value in spec.extra_json(game, state, result).items():
        print(f"{name}: {missing if value is None else value}")


def _moves_file_lines(path: str) -> Iterator[tuple[int, str]]:
    """The numbered lines of a moves file (``-``: standard input), read one at a time so that
    memory stays flat and the first answer comes at once, whatever the file's length. A UTF-8
    byte order mark is skipped."""
    try:
        handle = (io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig") if path == "-"
                  else open(path, encoding="utf-8-sig"))  # noqa: SIM115 - closed below
    except OSError as error:
        fail(f"cannot read moves file {path!r}: {error.strerror or error}")
    with handle:
        number = 0
        while True:
            try:
                line = handle.readline(_LONGEST_LINE + 1)
            except (OSError, UnicodeDecodeError) as error:
                reason = getattr(error, "strerror", None) or str(error)
                fail(f"cannot read moves file {path!r} after line {number}: {reason}")
            if not line:
                return
            number += 1
            if len(line) > _LONGEST_LINE and not line.endswith("\n"):
                fail(f"{path} line {number}: longer than {_LONGEST_LINE} characters")
            yield number, line


_LONGEST_LINE = 100_000
"""The longest line a moves file may have (characters): a line is read whole before it is
checked, so this bounds the memory a line can take."""


def _agrees(expected: dict[str, Any], document: dict[str, Any],
            result: SearchResult[Any]) -> bool:
    """Whether a result agrees with a moves file's expected values. A weak solve proves only
    the sign of the value, so an expected score is compared by its sign."""
    if result.weak:
        return all(isinstance(value, int) and (value > 0) - (value < 0) == result.value
                   for value in expected.values())
    return all(document.get(name) == value for name, value in expected.items())


def _run_moves_file(args: argparse.Namespace, *, exact_root: bool) -> int:
    """One search per position of ``--moves-file``, one JSON line out per position, each
    printed as soon as it is known. A bad line ends the run with a message naming it."""
    if args.moves:
        fail("give either --moves or --moves-file, not both")
    spec = get(args.game)
    options = search_options(args, exact_root=exact_root)
    game = spec.make(**game_options(args))
    path = args.moves_file
    # Someone may be waiting for each answer (a terminal, or a program feeding standard input
    # line by line): flush every line then. Otherwise at most every FLUSH_EVERY seconds: a
    # flush per line costs more than some searches.
    eager = path == "-" or sys.stdout.isatty()
    flushed = -math.inf
    with _database(args, game) as database:
        for number, line in _moves_file_lines(path):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                moves, expected = spec.read_line(line.rstrip("\r\n"))
                state = play_moves(game, spec.split_moves(moves))
            except (GameError, ValueError) as error:
                fail(f"{path} line {number}: {error}")
            result = search(game, state, options, database=database)
            document: dict[str, Any] = {"line": number, "position": moves}
            document.update(spec.result_json(game, state, result))
            if args.db:
                document["database"] = {"file": args.db,
                                        "hit": result.algorithm == "database"}
            if expected:
                document["expected"] = expected
                document["agrees"] = _agrees(expected, document, result)
            print(_encode(document))
            if eager or time.monotonic() - flushed >= FLUSH_EVERY:
                sys.stdout.flush()
                flushed = time.monotonic()
    return 0


FLUSH_EVERY = 0.1
"""Seconds between flushes of ``--moves-file`` answers read from a file (not from standard
input): the first answer comes at once, the next within this time."""

_encode = json.JSONEncoder(check_circular=False).encode
"""``json.dumps`` for documents built here (no cycles to look for: two microseconds a line)."""


def run_solve(args: argparse.Namespace) -> int:
    """``gametree solve``: the value of a position and the best move."""
    return _report(args, exact_root=False, analysis=False)


def run_analyze(args: argparse.Namespace) -> int:
    """``gametree analyze``: the exact value of every legal move."""
    return _report(args, exact_root=True, analysis=True)


def run_trace(args: argparse.Namespace) -> int:
    """``gametree trace``: the search's log, step by step."""
    spec = get(args.game)
    game, state = game_and_position(args)
    options = trace_options(game, search_options(args))
    tracer: Tracer[Any, Any] = Tracer(game)
    result = search(game, state, options, tracer=tracer)
    if args.json:
        document = spec.result_json(game, state, result)
        document["events"] = [event.as_dict(by_distance=args.by_distance)
                              for event in tracer.events]
        print(json.dumps(document))
    else:
        print(position_text(game, state))
        print()
        print(f"trace of {_described(options)}:")
        print(format_log(tracer.events, by_distance=args.by_distance))
        print(result_text(game, state, result))
        _print_extras(spec, game, state, result)
    return 0


def _described(options: SearchOptions) -> str:
    """The algorithm a trace shows, in a few words (``alphabeta, fail-soft, to depth 2``)."""
    words = [options.algorithm]
    if options.algorithm == "alphabeta":
        words.append("fail-soft" if options.fail_soft else "fail-hard")
    words.append("to the end" if options.depth is None else f"to depth {options.depth}")
    return ", ".join(words)


def add_commands(subparsers: Any) -> None:
    """Register ``solve``, ``analyze`` and ``trace``."""
    commands = (
        ("solve", run_solve, "value a position and choose the best move",
         "Search a position (by default the start) and print its value, the best move, the "
         "principal variation and the value of every root move."),
        ("analyze", run_analyze, "the exact value of every legal move",
         "Search every legal move with a full window and print each one's exact value "
         "(seed 000's \"Score for move i\")."),
        ("trace", run_trace, "print the search step by step (seed 004's log)",
         "Print every step of the search as an indented log in the style of seed 004's Sticks "
         "game: moves tried, scores, alpha and beta, pruned branches. The search is "
         f"{TRACE_ALGORITHM} (seed 004's; expectiminimax for a game with chance) unless "
         "--algorithm names another. Use --depth to "
         "keep it short, --json for the events as data."),
    )
    for name, run, summary, description in commands:
        if not wanted(name):
            continue
        common = CliParser(add_help=False)
        default = TRACE_ALGORITHM if run is run_trace else DEFAULT_ALGORITHM
        add_search_options(common, default_algorithm=default)
        if run is not run_trace:
            common.add_argument(
                "--moves-file", metavar="FILE",
                help="search every position in FILE ('-': standard input), one moves text "
                     "per line (Connect Four: Pons' 'moves score' lines), and print one JSON "
                     "line per position as soon as it is solved, with the expected values and "
                     "whether they agree (a weak solve: by sign)")
        if run is not run_trace:
            common.add_argument(
                "--db", metavar="FILE",
                help="answer at once from this solution database when it stores the position "
                     "or its symmetric twin (gametree db build), --moves-file lines included; "
                     "search otherwise")
        add_record_option(common)
        command = subparsers.add_parser(name, help=summary, description=description)
        add_game_commands(command, common)
        command.set_defaults(run=run)
