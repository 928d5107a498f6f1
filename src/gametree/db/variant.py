"""What names a game's variant for a solution database, without the database: its fingerprint
(which a database records, and which an opening book is found by) and its description.
Apart from :mod:`gametree.db.store` so that a search can ask whether a book covers its game
without importing SQLite (:mod:`gametree.db.books`)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from ..game import Game


def fingerprint(game: Game[Any, Any]) -> str:
    """A digest of the game's class and plain settings (numbers, strings, tuples: board size,
    rows, rules), so that a database is never used for another variant of a game."""
    parts = [f"{type(game).__module__}.{type(game).__qualname__}"]
    for name, value in sorted(vars(game).items()):
        if not name.startswith("_") and isinstance(value, (bool, int, str, tuple, frozenset)):
            parts.append(f"{name}={value!r}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def describe_variant(game: str, options: Mapping[str, Any]) -> str:
    """``connect4 --height 4 --width 4``: a variant as the command line writes it."""
    words = [game]
    for name, value in sorted(options.items()):
        flag = f"--{name.replace('_', '-')}"
        if value is True:
            words.append(flag)
        elif value is False or value is None:
            continue
        elif isinstance(value, (list, tuple)):
            words.append(f"{flag} {','.join(map(str, value))}")
        else:
            words.append(f"{flag} {value}")
    return " ".join(words)


__all__ = ["describe_variant", "fingerprint"]
