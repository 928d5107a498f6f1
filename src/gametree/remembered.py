"""What a process found in files that seldom change, kept for the next process: a small JSON
file in the cache directory (:func:`gametree.cachedir.cache_directory`) holding the last few
findings, each under a stamp of the files it was found in (their names, sizes and times).

A process makes the stamp (a few ``stat`` calls), and finds its finding again instead of
reading the files: the installed plugins' entry points (:mod:`gametree.entry_points`), the
installed opening books (:mod:`gametree.db.books`). A file that cannot be read, or is not one
of ours, holds nothing; one that cannot be written is only slower. Nothing is written where
there is no cache directory (a command that reads the cache, such as ``gametree cache info``,
makes none).
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from pathlib import Path
from typing import Any

KEPT = 8
"""The findings a file keeps: the most recently written."""


def recall(file: Path, form: int) -> dict[str, Any]:
    """The findings kept in ``file`` by stamp (oldest first), as JSON values: none if there is
    no such file, or it is not one of format ``form``."""
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
        if document["format"] != form:
            return {}
        return {str(stamp): value for stamp, value in document["scans"]}
    except (OSError, ValueError, KeyError, TypeError):  # none yet, or not one of ours
        return {}


def remember(file: Path, form: int, stamp: str, value: Any, kept: dict[str, Any]) -> None:
    """Keep ``value`` (JSON) under ``stamp`` in ``file``, after the last of the ``kept``
    findings (:func:`recall`'s; one under ``stamp`` itself, which its reader could not use,
    is replaced), if the cache directory is there; whole or not at all, whoever reads it
    meanwhile."""
    if not file.parent.is_dir():
        return
    others = [(old, found) for old, found in kept.items() if old != stamp]
    scans = [*others[1 - KEPT:], (stamp, value)]
    document = {"format": form, "scans": [[old, found] for old, found in scans]}
    temporary = file.with_name(f"{file.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8") as output:
            json.dump(document, output)
        os.replace(temporary, file)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()


__all__ = ["KEPT", "recall", "remember"]
