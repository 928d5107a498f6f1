"""Colours for the terminal, and the rule for when to use them.

Colour is decoration only: every message reads the same without it, so output that is piped,
logged or read by a screen reader loses nothing. It is used only when the output is a
terminal, and never when the ``NO_COLOR`` environment variable is set (https://no-color.org).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal, TextIO

ColorChoice = Literal["auto", "always", "never"]
"""``auto``: colour when the output is a terminal and ``NO_COLOR`` is not set."""

_CODES: dict[str, str] = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "cyan": "36",
}


def wants_color(choice: ColorChoice, output: TextIO,
                environ: Mapping[str, str] | None = None) -> bool:
    """Whether to colour ``output`` for the user's ``--color`` choice."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR", ""):
        return False
    isatty = getattr(output, "isatty", None)
    return bool(isatty is not None and isatty())


class Style:
    """Wraps text in ANSI colour codes, or leaves it alone when colour is off."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def paint(self, text: str, *names: str) -> str:
        """``text`` in the given styles (``"bold"``, ``"red"``, ...) if colour is on."""
        if not self.enabled or not names or not text:
            return text
        codes = ";".join(_CODES[name] for name in names)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def prompt(self, text: str) -> str:
        """A prompt for the human's input."""
        return self.paint(text, "bold")

    def engine(self, text: str) -> str:
        """A line about the computer's move."""
        return self.paint(text, "cyan")

    def error(self, text: str) -> str:
        """A refusal (an illegal move, an unknown command)."""
        return self.paint(text, "red")

    def good(self, text: str) -> str:
        """Good news for the human (a win)."""
        return self.paint(text, "green", "bold")

    def bad(self, text: str) -> str:
        """Bad news for the human (a loss)."""
        return self.paint(text, "red", "bold")

    def note(self, text: str) -> str:
        """Secondary information (search statistics, hints on how to go on)."""
        return self.paint(text, "dim")
