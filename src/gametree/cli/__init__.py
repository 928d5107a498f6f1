"""The ``gametree`` command: list, solve, analyse, trace, count, check and play games; manage
the cache of compiled kernels."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from ..compiled.build import set_compile_listener
from ..compiled.startup import without_blas_probe
from ..game import GameError
from ..options import OptionError
from . import caching, checking, counting, listing, play, searching
from .parser import CliParser

FLAGS = {
    "algorithm": "--algorithm", "depth": "--depth", "time": "--time", "nodes": "--nodes",
    "weak": "--weak", "exact_root": "--exact", "seed": "--seed", "tier": "--tier",
    "fail_hard": "--fail-hard", "tuning": "engine tuning", "compiled": "--tier compiled",
}
"""The command line's names of the search options, for :class:`OptionError` messages."""


def _announce(message: str) -> None:
    """Say on standard error why the command pauses (a kernel is being compiled)."""
    print(f"gametree: {message}", file=sys.stderr, flush=True)


def build_parser() -> CliParser:
    """The full command-line parser, every command and game included."""
    parser = CliParser(
        prog="gametree",
        description="Game-tree search: minimax, alpha-beta, negamax on any registered game.",
        epilog="Run 'gametree COMMAND --help' or 'gametree COMMAND GAME --help' for details.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                       parser_class=CliParser)
    listing.add_commands(subparsers)
    searching.add_commands(subparsers)
    counting.add_commands(subparsers)
    checking.add_commands(subparsers)
    play.add_command(subparsers)
    caching.add_commands(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad usage or input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if sys.stdout is None:  # started with its output closed (``>&-``)
        if sys.stderr is not None:
            print(f"gametree {args.command}: error: standard output is closed: nowhere to "
                  f"write the answer", file=sys.stderr)
        return 2
    set_compile_listener(_announce)
    try:
        # The built-in kernels never call BLAS: numba's SciPy probe (0.3 s of start-up) is
        # skipped for the whole command.
        with without_blas_probe():
            status: int = args.run(args)
            sys.stdout.flush()  # a failing output is reported here, not on the way out
    except OptionError as error:
        print(f"gametree {args.command}: error: {error.text(FLAGS)}", file=sys.stderr)
        return 2
    except (GameError, ValueError) as error:
        print(f"gametree {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of our output went away (``| head``): stop quietly, as Unix tools do,
        # and keep Python from complaining again when it flushes stdout on exit.
        _discard_output()
        return 141
    except OSError as error:  # the output cannot be written (``> /dev/full``), or a file
        _discard_output()
        where = f" ({error.filename})" if error.filename else ""
        print(f"gametree {args.command}: error: {error.strerror or error}{where}",
              file=sys.stderr)
        return 2
    return status


def _discard_output() -> None:
    """Send what is left in standard output's buffer nowhere, so that Python does not fail
    again when it flushes the stream on exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def run() -> None:
    """The ``gametree`` console script and ``python -m gametree``: :func:`main`, then exit.

    After a compiled search, the interpreter's own shutdown spends about 0.3 s tearing down
    numba and LLVM — as long as the search of a typical position. The output is complete by
    then and the command holds nothing else that needs closing (its files are closed by the
    commands themselves), so the process ends at once with the status, output flushed.
    """
    status = main()
    if "numba" in sys.modules:
        try:
            if sys.stdout is not None:
                sys.stdout.flush()
        except BrokenPipeError:
            status = 141
        except OSError:
            status = 2
        if sys.stderr is not None:
            sys.stderr.flush()
        os._exit(status)
    raise SystemExit(status)

