"""The ``gametree`` command: list, solve, analyse, trace, count, check, play and replay games;
manage the cache of compiled kernels.

Ctrl-C ends every command within a fraction of a second, on either tier, with exit status 130,
what was printed so far flushed, and one line on standard error (``gametree solve:
interrupted``; ``play`` says instead on standard output that the game was abandoned). Compiled
searches stop for it by themselves (:mod:`gametree.compiled.interrupt`); while numba compiles
or loads a kernel, or a module is imported, which an exception would break, the command ends
at once instead (:func:`~gametree.compiled.interrupt.end_process_on_fragile_sigint`). Only in
the first moments of the process, while Python imports the package before any of this runs,
does Ctrl-C still get Python's own traceback.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence

from ..compiled.build import set_compile_listener
from ..compiled.interrupt import end_process_on_fragile_sigint
from ..compiled.startup import without_blas_probe
from ..frontend import option_error_text
from ..game import GameError
from ..options import OptionError
from ..plugins import add_to_environment
from ..registry import UnknownGameError, broken_games, get, register, spec_at
from .parser import CliParser, narrowed
from .position import with_record_game


def _announce(message: str) -> None:
    """Say on standard error why the command pauses (a kernel is being compiled)."""
    print(f"gametree: {message}", file=sys.stderr, flush=True)


COMMANDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("listing", "add_commands", ("games",)),
    ("searching", "add_commands", ("solve", "analyze", "trace")),
    ("counting", "add_commands", ("count",)),
    ("checking", "add_commands", ("check",)),
    ("play", "add_command", ("play",)),
    ("replaying", "add_command", ("replay",)),
    ("caching", "add_commands", ("cache",)),
    ("serving", "add_command", ("serve",)),
    ("database", "add_commands", ("db",)),
    ("new", "add_command", ("new",)),
    ("matching", "add_command", ("match",)),
    ("uci", "add_command", ("uci",)),
)
"""The command modules of this package, in the order ``gametree --help`` lists their
commands: each module's name, the function that adds its commands to the parser, and the
commands it adds. A module is imported only when one of its commands is wanted."""


def build_parser(words: Sequence[str] | None = None) -> CliParser:
    """The command-line parser: every command and game, or, given the ``words`` of a command
    line, only what that line can reach.

    A command line naming a command (``solve``) gets that command alone (its module imported
    now: the others are not), and, naming a registered game after it (``solve connect4``,
    ``db build connect4``), that game's sub-command alone: the same parse, the same errors and
    help for that line, without building the hundred or so parsers of every command for every
    game (a tenth of a second, and imports, before a short solve). Any other line (no command,
    an unknown one, an option first, no game) gets the full parser, whose errors and help list
    every choice.
    """
    parser = CliParser(
        prog="gametree",
        description="Game-tree search: minimax, alpha-beta, negamax on any registered game.",
        epilog="Run 'gametree COMMAND --help' or 'gametree COMMAND GAME --help' for details.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                       parser_class=CliParser)
    words = list(words or [])
    command = words[0] if words else None
    chosen = [entry for entry in COMMANDS if command in entry[2]] or list(COMMANDS)
    game = _game_word(words) if len(chosen) == 1 else None
    with narrowed(command if len(chosen) == 1 else None, game):
        for module_name, function, _ in chosen:
            module = importlib.import_module(f".{module_name}", __name__)
            getattr(module, function)(subparsers)
    return parser


def _game_word(words: list[str]) -> str | None:
    """The registered game a command line names after its command (``db build GAME``), or
    None."""
    at = 2 if words[0] == "db" else 1
    word = words[at] if len(words) > at else None
    if word is None:
        return None
    try:
        get(word)
    except UnknownGameError:
        return None
    return word


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad usage or input, 130 when
    interrupted)."""
    return _main(argv, at_once=False)


def _main(argv: Sequence[str] | None, *, at_once: bool) -> int:
    """:func:`main`; ``at_once`` (the ``gametree`` process itself) ends the process as soon as
    an interrupted command has said so, without freeing what it built first (an interrupted
    ``count`` holds millions of positions: freeing them one by one takes seconds)."""
    name = "gametree"
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        if words and not words[0].startswith("-"):
            name = f"gametree {words[0]}"
        argv = with_record_game(games_by_path(words))
        for line in broken_games():
            print(f"gametree: warning: {line}", file=sys.stderr)
        args = build_parser(argv).parse_args(argv)
        name = f"gametree {args.command}"
        if sys.stdout is None:  # started with its output closed (``>&-``)
            if sys.stderr is not None:
                print(f"{name}: error: standard output is closed: nowhere to write the "
                      f"answer", file=sys.stderr)
            return 2
        set_compile_listener(_announce)
        # The built-in kernels never call BLAS: numba's SciPy probe (0.3 s of start-up) is
        # skipped for the whole command.
        with end_process_on_fragile_sigint(lambda: _end_now(name)), without_blas_probe():
            status: int = args.run(args)
            if status == 130 and at_once:  # play, interrupted: it has said so already
                _end_now(name, say=False)
            sys.stdout.flush()  # a failing output is reported here, not on the way out
    except OptionError as error:
        print(f"{name}: error: {option_error_text(error, 'cli')}", file=sys.stderr)
        return 2
    except (GameError, ValueError) as error:
        print(f"{name}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        with _sigint_ignored():  # a second Ctrl-C must not cut this short with a traceback
            if at_once:
                _end_now(name)
            _say_interrupted(name)
        return 130
    except BrokenPipeError:
        # The reader of our output went away (``| head``): stop quietly, as Unix tools do,
        # and keep Python from complaining again when it flushes stdout on exit.
        _discard_output()
        return 141
    except OSError as error:  # the output cannot be written (``> /dev/full``), or a file
        _discard_output()
        where = f" ({error.filename})" if error.filename else ""
        print(f"{name}: error: {error.strerror or error}{where}", file=sys.stderr)
        return 2
    return status


def games_by_path(argv: list[str]) -> list[str]:
    """``argv`` with ``--game PATH`` (``path/to/file.py:Factory`` or ``module:Factory``: a game
    that is not installed) replaced by the game's name where a command expects it, the game
    registered (and named in ``$GAMETREE_GAMES`` for the processes the command starts).
    ``serve`` keeps its own ``--game`` (it may be given several times)."""
    if not argv or argv[0] in ("serve", "new"):
        return argv
    words = 2 if argv[0] == "db" else 1  # "solve GAME", "db build GAME"
    rest = list(argv)
    for index, word in enumerate(argv):
        if word == "--game" or word.startswith("--game="):
            path = word.partition("=")[2] if "=" in word else \
                (argv[index + 1] if index + 1 < len(argv) else "")
            if not path:
                raise GameError("--game needs a path: path/to/file.py:Factory or "
                                "module:Factory")
            spec = spec_at(path)
            register(spec)
            add_to_environment(path)
            del rest[index:index + (1 if "=" in word else 2)]
            return [*rest[:words], spec.name, *rest[words:]]
    return argv


def _discard_output() -> None:
    """Send what is left in standard output's buffer nowhere, so that Python does not fail
    again when it flushes the stream on exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _say_interrupted(name: str) -> None:
    """The one line an interrupted command writes on standard error."""
    # On a terminal the line starts after the "^C" the terminal echoed.
    start = "\n" if sys.stderr.isatty() else ""
    print(f"{start}{name}: interrupted", file=sys.stderr, flush=True)


_ending = threading.Lock()


def _end_now(name: str, *, say: bool = True) -> None:
    """End the interrupted process at once (status 130, output flushed, one line unless
    ``say`` is false), freeing nothing first. For Ctrl-C while numba compiles or loads a
    kernel, or a module is imported, which an exception would break (a kernel whose compile
    is cut short is not marked compiled in the cache, so the next use compiles it again: numba
    writes its cache files whole, and the compile lock goes with the process); and for the end
    of an interrupted ``gametree`` process, where nothing is left to do but exit."""
    if not _ending.acquire(blocking=False):
        _ending.acquire()  # the other thread is ending the process: do nothing meanwhile
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    if say:
        with contextlib.suppress(Exception):
            _say_interrupted(name)
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    os._exit(130)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT within the block (in the main thread; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run() -> None:
    """The ``gametree`` console script and ``python -m gametree``: :func:`main`, then exit.

    After a compiled search, the interpreter's own shutdown spends about 0.3 s tearing down
    numba and LLVM — as long as the search of a typical position — or, with the engine run
    from its images without them, about 20 ms (the modules, the table's memory): an eighth of
    a 6x5 board's whole solve. The output is complete by then and the command holds nothing
    else that needs closing (its files are closed by the commands themselves), so the process
    ends at once with the status, output flushed.
    """
    status = _main(None, at_once=True)
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        _discard_output()  # as main does
        status = 141
    except KeyboardInterrupt:  # Ctrl-C while the output drains: stop, as interrupted
        status = 130
    except OSError:  # reported by main already, where the flush failed first
        _discard_output()
        status = 2
    with contextlib.suppress(KeyboardInterrupt):
        if sys.stderr is not None:
            sys.stderr.flush()
    native = sys.modules.get("gametree.compiled.native")
    if "numba" in sys.modules or "llvmlite" in sys.modules or \
            (native is not None and native.loaded()):  # compiled code loaded
        os._exit(status)
    raise SystemExit(status)

