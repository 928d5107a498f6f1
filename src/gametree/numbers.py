"""Whole numbers as people type them: ASCII digits only.

Python's ``int()`` also reads other scripts' digits (the fullwidth ``"\\uff14\\uff14"`` is 44),
underscores (``"1_0"``) and surrounding spaces; ``str.isdigit`` accepts superscripts that
``int()`` then refuses. Moves, options and files are written with the digits 0-9, so every
number a user types is read here, and anything else is refused with the same message
everywhere.
"""

from __future__ import annotations

import re

WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
"""A whole number as gametree reads it: an optional sign, then the digits 0-9."""

LONGEST = 30
"""The most digits a number may have (larger numbers are surely mistakes, and Python's
``int`` of a very long text costs time)."""


def is_digits(text: str) -> bool:
    """True if ``text`` is one or more of the digits 0-9 and nothing else."""
    return text.isascii() and text.isdigit()


def whole_number(text: str) -> int:
    """``text`` (spaces around it allowed) as an int; :class:`ValueError` unless it is an
    optional sign and up to :data:`LONGEST` digits 0-9."""
    stripped = text.strip()
    if WHOLE_NUMBER.fullmatch(stripped) is None or len(stripped.lstrip("+-")) > LONGEST:
        raise ValueError(f"expected a whole number written with the digits 0-9, got {text!r}")
    return int(stripped)
