"""Where the human's lines come from: a terminal with line editing, or any text stream.

Both kinds answer :meth:`LineSource.read` with the next line, or ``None`` at the end of input,
so the session does not care whether a person is typing or a script is piping moves in.
"""

from __future__ import annotations

import contextlib
import re
from typing import Protocol, TextIO

_COLOR_CODE = re.compile("(\x1b\\[[0-9;]*m)")


class LineSource(Protocol):
    """Gives the session the human's input one line at a time."""

    def read(self, prompt: str) -> str | None:
        """Show ``prompt`` and return the next line without its newline; ``None`` at the end."""
        ...


class StreamLines:
    """Lines read from a text stream (a pipe, a file, a ``StringIO`` in tests).

    The prompt is written to ``output``. A piped line is not echoed by any terminal, so with
    ``echo`` the line is written after the prompt: a transcript then reads like the session a
    person would have seen (``your move> 1,1``).
    """

    def __init__(self, source: TextIO, output: TextIO, *, echo: bool = True) -> None:
        self._source = source
        self._output = output
        self._echo = echo

    def read(self, prompt: str) -> str | None:
        """Write the prompt, then read one line from the stream."""
        self._output.write(prompt)
        self._output.flush()
        line = self._source.readline()
        if not line:
            self._output.write("\n")
            return None
        line = line.rstrip("\r\n")
        if self._echo:
            self._output.write(line + "\n")
        return line


class TerminalLines:
    """Lines typed at a terminal, with line editing and history when ``readline`` exists."""

    def __init__(self) -> None:
        # Importing readline is what turns on editing and history for input().
        self._readline = False
        with contextlib.suppress(ImportError):  # Windows has no readline
            import readline  # noqa: F401, PLC0415

            self._readline = True

    def read(self, prompt: str) -> str | None:
        """Read a line with :func:`input`; Ctrl-D gives ``None`` (Ctrl-C raises as usual)."""
        if self._readline:
            # readline must be told which characters take no room on the screen, or a
            # coloured prompt makes it misplace the cursor when the line is edited.
            prompt = _COLOR_CODE.sub("\x01\\1\x02", prompt)
        try:
            return input(prompt)
        except EOFError:
            print()
            return None
