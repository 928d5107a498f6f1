"""Running the ``gametree`` command in tests: in this process, or as a real process."""

from __future__ import annotations

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
