"""Solving a whole board as a job of its own: ``--table-memory`` (declared once, sized by the
engine), progress between the root's null windows, Ctrl-C on a watched solve, the end move."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from typing import Any

import pytest

from gametree import SearchOptions, search
from gametree.compiled.engine import ENTRY_BYTES, table_bits_for
from gametree.options import OptionError, bytes_text, declared_options, parse_bytes
from gametree.registry import make
from gametree.result import SolveProgress

from .cli_support import run


def test_table_memory_reads_units_and_becomes_the_largest_table_that_fits() -> None:
    assert parse_bytes("64MiB") == 64 * 2**20
    assert parse_bytes(" 1 GiB ") == parse_bytes("1g") == 2**30
    assert parse_bytes("1.5GB") == 1_500_000_000
    assert parse_bytes("4096") == 4096
    for bad in ("", "MiB", "1 XB", "-1GiB", "1e9"):
        with pytest.raises(ValueError, match="number of bytes such as 64MiB"):
            parse_bytes(bad)
    assert table_bits_for(64 * 2**20) == 22  # the default table
    assert table_bits_for(2**30) == 26
    assert table_bits_for(100 * 2**20) == 22  # a power of two: the largest that fits
    assert table_bits_for(2**30 - 1) == 25
    assert table_bits_for(1) == 8 and table_bits_for(2**40) == 30  # the engine's range
    assert (2 ** table_bits_for(3 * 2**29)) * ENTRY_BYTES <= 3 * 2**29
    assert bytes_text(2**30) == "1 GiB"


def test_table_memory_is_one_declared_option_of_the_compiled_tier() -> None:
    (declaration,) = [item for item in declared_options() if item.name == "table_memory"]
    assert (declaration.flag, declaration.kind, declaration.web) == ("--table-memory", "bytes",
                                                                     False)
    assert SearchOptions(table_memory=2**30).table_memory == 2**30
    with pytest.raises(ValueError, match="table_memory must be a number of bytes from 4 KiB"):
        SearchOptions(table_memory=100)
    with pytest.raises(OptionError, match="needs the compiled tier"):
        SearchOptions(table_memory=2**20, tier="python")
    with pytest.raises(OptionError, match="needs the compiled engine, not minimax"):
        SearchOptions(table_memory=2**20, algorithm="minimax")


def test_the_command_line_takes_table_memory_and_refuses_a_bad_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "solve", "tictactoe", "--table-memory", "lots")
    assert status == 2 and "--table-memory: expected a number of bytes" in err
    status, _, err = run(capsys, "solve", "tictactoe", "--table-memory", "1KiB")
    assert status == 2 and "expected a number of bytes from 4 KiB to 16 GiB" in err


@pytest.mark.slow  # compiles the 6x5 kernel's threaded entry points, solves it twice
def test_progress_reports_the_windows_of_the_very_search_that_runs() -> None:
    game = make("connect4", width=6, height=5)  # a second or more of solving (1 M nodes)
    heard: list[SolveProgress] = []
    watched = search(game, progress=heard.append, table_memory=2**24)
    plain = search(game, table_memory=2**24)
    # The same search (one thread, the same table size): the same answer and node count.
    assert (watched.value, watched.best_move, watched.stats.nodes) == \
        (plain.value, plain.best_move, plain.stats.nodes)
    assert heard, "a solve of a second is heard from"
    for report in heard:
        assert report.seconds > 0 and report.nodes <= watched.stats.nodes
        if report.windows:
            assert report.lower is not None and report.upper is not None
            assert report.lower <= watched.value <= report.upper
    assert [report.nodes for report in heard] == sorted(report.nodes for report in heard)
    assert [report.windows for report in heard] == sorted(report.windows for report in heard)
    assert search(game, depth=3, progress=heard.append).depth == 3  # not a solve: not heard


@pytest.mark.slow  # a real process on a terminal, a solve of seconds
def test_a_whole_board_shows_progress_on_a_terminal_and_stops_at_once_for_ctrl_c() -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: gametree on the terminal
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execvp(sys.executable, [sys.executable, "-m", "gametree", "solve", "connect4",
                                   "--width", "7", "--height", "5", "--no-book"])
    seen = _read_until(fd, b"/s", 600)
    assert b"window" in seen and b"positions" in seen and b"/s" in seen
    os.kill(pid, signal.SIGINT)
    stopped = time.monotonic()
    rest = _read_until(fd, b"interrupted", 30)
    _, status = os.waitpid(pid, 0)
    assert time.monotonic() - stopped < 15  # ignored, it would run on for a minute
    assert os.waitstatus_to_exitcode(status) == 130
    assert b"gametree solve: interrupted" in rest and b"Traceback" not in seen + rest


def test_nothing_extra_when_standard_output_is_not_a_terminal() -> None:
    done = subprocess.run([sys.executable, "-m", "gametree", "solve", "tictactoe"],
                          capture_output=True, text=True, timeout=300, check=True)
    assert "window" not in done.stderr and "positions" not in done.stderr
    assert done.stdout.rstrip().splitlines()[-1] == "with best play: a draw"


def _read_until(fd: int, wanted: bytes, seconds: float) -> bytes:
    """What the terminal shows until ``wanted`` appears (or the time is up, or it closes)."""
    seen = b""
    deadline = time.monotonic() + seconds
    while wanted not in seen and time.monotonic() < deadline:
        ready: Any = select.select([fd], [], [], 0.1)[0]
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen
