"""Builds survive ``kill -9`` and Ctrl-C, and two builders on one file (real processes)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gametree.builder import BuildPlan, BuildRequest, build
from gametree.db.check import export_rows
from gametree.db.store import Database

from .cli_support import gametree, without_compile_notice

pytestmark = pytest.mark.slow  # real builder processes, killed and resumed

BOOK = ["connect4", "--width", "5", "--height", "4", "--plies", "6"]
"""A book whose frontier (3,230 positions at ply 6, 1,626 once mirror images are merged) takes
seconds to solve."""


def builder(path: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "gametree", "db", "build", *BOOK, "--db", str(path),
         "--workers", "1", "--chunk", "4", "--commit-every", "0", "--quiet", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def frontier_rows(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as connection:
            return int(connection.execute(
                "SELECT count(*) FROM positions WHERE kind = 'frontier'").fetchone()[0])
    except sqlite3.Error:  # being created
        return 0


def exported(path: Path) -> list[str]:
    with Database.open(path) as database:
        return list(export_rows(database, "jsonl"))


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The uninterrupted build's export."""
    path = tmp_path_factory.mktemp("db") / "reference.db"
    build(BuildRequest(str(path), "connect4", {"width": 5, "height": 4}, plies=6,
                       plan=BuildPlan(workers=1)))
    return exported(path)


def stop_midway(path: Path, process: subprocess.Popen[str], how: signal.Signals) -> int:
    """Send ``how`` once some frontier positions are stored, before the build ends; the
    number stored by then. (The builder commits after every task of 4 positions: with the
    default of a commit a second, a fast machine solves the whole frontier before the first.)"""
    deadline = time.monotonic() + 240
    while frontier_rows(path) < 200:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    process.send_signal(how)
    process.wait(timeout=60)
    stored = frontier_rows(path)
    assert 200 <= stored < 1626  # stopped in the middle
    return stored


def test_a_build_killed_with_kill_9_resumes_to_the_uninterrupted_database(
        tmp_path: Path, reference: list[str]) -> None:
    path = tmp_path / "book.db"
    process = builder(path)
    stored = stop_midway(path, process, signal.SIGKILL)
    assert process.returncode == -signal.SIGKILL
    with Database.open(path) as database:
        assert database.meta["complete"] == "0"
    resumed = gametree("db", "build", *BOOK, "--db", str(path), "--workers", "1", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert f'"skipped": {stored}' in resumed.stdout
    assert exported(path) == reference
    with Database.open(path) as database:
        # Every frontier position solved exactly once over both runs: nothing twice.
        assert database.solved_total() == 1626
        assert database.meta["complete"] == "1"


def test_ctrl_c_stops_a_build_in_one_line_and_it_resumes(tmp_path: Path,
                                                         reference: list[str]) -> None:
    path = tmp_path / "book.db"
    process = builder(path)
    stop_midway(path, process, signal.SIGINT)
    _, err = process.communicate()
    assert process.returncode == 130
    assert err.strip().splitlines()[-1] == "gametree db: interrupted"
    assert "Traceback" not in err
    resumed = gametree("db", "build", *BOOK, "--db", str(path), "--workers", "1", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    assert exported(path) == reference
    with Database.open(path) as database:
        assert database.solved_total() == 1626


def test_two_builders_on_one_database_never_corrupt_it(tmp_path: Path,
                                                       reference: list[str]) -> None:
    path = tmp_path / "book.db"
    first, second = builder(path), builder(path)
    for process in (first, second):
        _, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
    assert exported(path) == reference
    checked = gametree("db", "check", str(path), "--sample", "20")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert os.path.getsize(path) > 0


TWO_WORKERS = [
    pytest.param([], id="two-threads-one-table"),
    pytest.param(["--threads", "2"], id="two-processes"),
]
"""``--workers 2`` as two threads of the builder over one table (an exact solve on the
compiled tier), and, with ``--threads 2`` given, as two worker processes (the builder and one
forked process) searching each position on two threads."""


@pytest.mark.parametrize("flags", TWO_WORKERS)
def test_ctrl_c_stops_a_two_worker_build_without_waiting_for_its_long_solves(
        tmp_path: Path, flags: list[str]) -> None:
    """Two workers on 7x6 positions that take a minute or more to solve: Ctrl-C stops them
    instead of waiting for their solves (which the next run does again)."""
    path = tmp_path / "c4.db"
    process = subprocess.Popen(
        [sys.executable, "-m", "gametree", "db", "build", "connect4", "--plies", "3",
         "--db", str(path), "--workers", "2", "--quiet", *flags],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while not path.exists() or not _has_run(path):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(3)  # the workers have their first positions by now
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)  # a solve of its frontier takes minutes
    assert process.returncode == 130
    assert err.strip().splitlines()[-1] == "gametree db: interrupted"
    with Database.open(path) as database:
        assert database.meta["complete"] == "0"


def _has_run(path: Path) -> bool:
    try:
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as connection:
            return bool(connection.execute("SELECT count(*) FROM runs").fetchone()[0])
    except sqlite3.Error:
        return False


@pytest.mark.parametrize("flags", TWO_WORKERS)
def test_a_command_line_build_on_two_workers_holds_the_rows_of_one_on_one(
        tmp_path: Path, reference: list[str], flags: list[str]) -> None:
    """On two threads over one table, or on two processes (the command line's pool forks its
    worker: numba not yet imported there, the fork path, which a build inside this test
    process, numba loaded, never takes), the book is row for row the one a single worker
    builds."""
    path = tmp_path / "two.db"
    done = subprocess.run(
        [sys.executable, "-m", "gametree", "db", "build", *BOOK, "--db", str(path),
         "--workers", "2", "--quiet", *flags], capture_output=True, text=True, timeout=600,
        check=False)
    assert done.returncode == 0, done.stderr
    # No warning of a leaked semaphore, no worker's noise (a compile, said once, aside).
    assert without_compile_notice(done.stderr) == ""
    with Database.open(path) as database:
        assert database.solved_total() == 1626  # every frontier position solved once
    assert exported(path) == reference
