"""Running the ``gametree`` command in tests: in this process, or as a real process."""

from __future__ import annotations

import re
import subprocess
import sys

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
