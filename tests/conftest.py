"""The test run's set-up: its own kernel cache, no clock in Hypothesis, and how many processes.

**A kernel cache per run.** At the start of a run, ``GAMETREE_CACHE_DIR`` is pointed at a new,
empty directory for the whole run, so every kernel the tests need is compiled by this run from
this checkout, and the processes the tests start (the ``gametree`` command) inherit it. A
``GAMETREE_CACHE_DIR`` already set in the environment is *not* used: that cache may hold machine
code from an older run or an older checkout, and a run (CI's above all) must pass from a cold
cache. To share a cache between runs on purpose, say while working on one compiled test, name it:
``pytest --kernel-cache=DIR``. Write it with ``=``: pytest looks for its configuration before it
knows this option, so a separate ``DIR`` is taken for a test path, and a run that names no
files then finds neither ``pyproject.toml`` nor this file ("unrecognized arguments"). A test
that means to use another directory sets ``GAMETREE_CACHE_DIR`` itself (``monkeypatch.setenv``,
or the environment of a process it starts), as ``test_compiled_cache.py`` does. With
pytest-xdist, the controlling process makes the directory and hands it to its workers, so a
kernel is compiled once per run, not once per worker. The directory is removed at the end of
the run.

**No installed book.** ``GAMETREE_BOOKS`` is set empty for the run, so no opening book the
user installed answers a test's search (tests of books name their own directory).

**Hypothesis without a clock.** The suite's profile has no deadline and no "too slow" health
check: both fail a test on wall-clock time, which a loaded machine decides.

**Two processes for the whole suite.** ``pyproject.toml`` asks for ``--numprocesses auto``,
which this file answers: two workers (on a machine with at least two cores) when the run
collects whole directories (``pytest``, ``pytest tests``), one process (no workers) when it
names files or tests (``pytest tests/test_tree.py``), whose few seconds of tests would wait
longer for two workers to start than they run. ``-n 0`` or ``-n 2`` on the command line, or
``PYTEST_XDIST_AUTO_NUM_WORKERS``, decide instead.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

CACHE_ENV = "GAMETREE_CACHE_DIR"  # gametree.cachedir.CACHE_ENV, without importing it here
BOOKS_ENV = "GAMETREE_BOOKS"  # gametree.db.books.BOOKS_ENV
WORKER_KEY = "gametree_kernel_cache"
"""The run's cache directory, as the controlling process hands it to xdist workers."""

WORKERS = 2
"""Workers for a whole-suite run: the project's machines and CI have two cores."""

settings.register_profile("gametree", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gametree")


class _Cache:
    """The run's kernel cache and what to undo at the end."""

    def __init__(self, directory: Path, *, created: bool, previous: str | None) -> None:
        self.directory = directory
        self.created = created  # made for this run: removed at the end
        self.previous = previous  # the caller's GAMETREE_CACHE_DIR, restored at the end


_CACHE = pytest.StashKey[_Cache]()


def _deliver_ctrl_c() -> None:
    """Let SIGINT in when the run was started with it ignored (a shell's background job, some
    CI runners): Python keeps an inherited "ignore", and so would every process a test starts,
    so the tests of Ctrl-C could not interrupt anything. A Python handler is reset by ``exec``:
    processes started from here get the default action, which Python turns into
    KeyboardInterrupt."""
    import signal  # noqa: PLC0415

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--kernel-cache", metavar="DIR", default=None,
        help="compile gametree kernels into DIR and keep them for later runs; write it "
             "--kernel-cache=DIR (default: a new directory for each run, removed at its end; "
             "$GAMETREE_CACHE_DIR is not used)")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    _deliver_ctrl_c()
    previous = os.environ.get(CACHE_ENV)
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    chosen: str | None = config.getoption("--kernel-cache")
    if workerinput is not None and WORKER_KEY in workerinput:  # an xdist worker: the run's
        cache = _Cache(Path(workerinput[WORKER_KEY]), created=False, previous=previous)
    elif chosen is not None:
        directory = Path(chosen).expanduser().resolve()
        directory.mkdir(parents=True, exist_ok=True)
        cache = _Cache(directory, created=False, previous=previous)
    else:
        directory = Path(tempfile.mkdtemp(prefix="gametree-test-kernels-"))
        cache = _Cache(directory, created=True, previous=previous)
    config.stash[_CACHE] = cache
    os.environ[CACHE_ENV] = str(cache.directory)
    # No installed opening book answers a test's search (the user's would change node counts
    # and algorithms): a test of books names its own directory (tests/test_books.py).
    os.environ[BOOKS_ENV] = ""


def pytest_unconfigure(config: pytest.Config) -> None:
    cache = config.stash.get(_CACHE, None)
    if cache is None:
        return
    if cache.previous is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = cache.previous
    if cache.created:
        shutil.rmtree(cache.directory, ignore_errors=True)
    os.environ.pop(BOOKS_ENV, None)


def pytest_report_header(config: pytest.Config) -> str:
    cache = config.stash[_CACHE]
    how = ("new for this run" if cache.created
           else "--kernel-cache: kept, and maybe compiled by an earlier run")
    line = f"gametree kernel cache: {cache.directory} ({how})"
    if cache.previous is not None and cache.previous != str(cache.directory):
        line += f"; {CACHE_ENV}={cache.previous} of the environment is not used"
    return line


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist: each worker uses the controlling process's cache directory."""
    node.workerinput[WORKER_KEY] = str(node.config.stash[_CACHE].directory)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """pytest-xdist, ``-n auto``: two workers for whole directories, none for chosen tests."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own answer reads it
    if (os.cpu_count() or 1) < WORKERS:
        return 0
    whole = config.args_source == pytest.Config.ArgsSource.TESTPATHS or all(
        Path(arg).is_dir() for arg in config.args)
    return WORKERS if whole else 0


@pytest.fixture(autouse=True)
def _sigint_handler_kept() -> Any:
    """Every test leaves SIGINT's handler as it found it: a handler left behind (one that does
    not raise) would make a later Ctrl-C test's search go on for ever."""
    import signal  # noqa: PLC0415

    before = signal.getsignal(signal.SIGINT)
    yield
    after = signal.getsignal(signal.SIGINT)
    if after is not before:
        signal.signal(signal.SIGINT, before)
        pytest.fail(f"the test left SIGINT's handler changed: {before!r} -> {after!r}")
