"""Running the ``gametree`` command in tests: in this process, or as a real process."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gametree.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``gametree ARGV`` in this process: (exit status, standard output, standard error)."""
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def gametree(*args: str, typed: str = "", env: dict[str, str] | None = None,
             timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -m gametree ARGS`` as a real process, ``typed`` piped to its standard input."""
    return subprocess.run([sys.executable, "-m", "gametree", *args], input=typed,
                          capture_output=True, text=True, timeout=timeout, check=False,
                          env=env)


def own_tests(directory: Path, env: dict[str, str],
              cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m pytest -q DIRECTORY`` as a real process in ``cwd``: the suite of a project
    of its own (a generated game, an example plugin). Options this suite was given
    through ``PYTEST_ADDOPTS`` (``--kernel-cache``, ``-n``) are not passed on: that project's
    pytest does not know them and would stop at "unrecognized arguments"."""
    own_env = {name: value for name, value in env.items() if name != "PYTEST_ADDOPTS"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(directory)], capture_output=True, text=True, env=own_env,
                          cwd=cwd, timeout=900, check=False)


COMPILE_NOTICE = re.compile(
    r"^gametree: (compiling the .+ kernel(?:'s retrograde analysis)? \(.+\)"
    r"|waiting for another process to finish compiling the .+ kernel"
    r"(?:'s retrograde analysis)?)\.\.\.$", re.M)
"""The line a process writes to standard error before it compiles a kernel, or a kernel's
retrograde analysis (once per cache), or while it waits for another process compiling the
same (tests run in parallel)."""


def without_compile_notice(stderr: str) -> str:
    """``stderr`` less the compile notice: whether a test's process is the run's first to need
    a kernel depends on which tests ran before it (and, in parallel, on which ran at once)."""
    return COMPILE_NOTICE.sub("", stderr).strip("\n")
