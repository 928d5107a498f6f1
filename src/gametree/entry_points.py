"""The entry points that installed distributions declare, remembered from one process to the
next.

Finding them means reading the metadata of every installed distribution through
:mod:`importlib.metadata`, whose import and scan take about 20 ms: on every command, for the
plugins' games. What a scan found is kept (:mod:`gametree.remembered`) in the cache directory
(:func:`gametree.cachedir.cache_directory`, once a compiled kernel has made it) with a digest
of where the metadata lies: ``sys.path``, and in each of its directories the names and
modification times of the distributions' metadata directories (``*.dist-info``,
``*.egg-info``), which is where :mod:`importlib.metadata` looks. Installing, upgrading or
removing a distribution (pip, an editable install) creates or deletes one of those, and the
next process scans again; the stamp costs about a millisecond. (A file edited by hand inside
an installed distribution's metadata is not seen until the distribution is installed
again.) The file keeps the scans of the last few paths (:data:`KEPT`): ``sys.path`` starts
with the script's directory or the current one, so ``gametree`` and ``python -m gametree``,
or one command run from two directories, each find their own.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .cachedir import cache_directory
from .remembered import KEPT, recall, remember

FILE_FORMAT = 2
"""The version of the cache file's layout (:mod:`gametree.remembered`'s, each scan a list of
``[name, value, source]``)."""


@dataclass(frozen=True)
class Declared:
    """One entry point of a group, as an installed distribution declares it."""

    name: str
    value: str
    """What it names: ``module:attribute``."""
    source: str
    """Where it comes from, for messages: ``plugin NAME VERSION (module:attribute)``."""

    def load(self, group: str) -> Any:
        """Import what the entry point names (what :meth:`importlib.metadata.EntryPoint.load`
        does: it is the one that does it)."""
        from importlib.metadata import EntryPoint  # noqa: PLC0415 - only when there is one

        return EntryPoint(self.name, self.value, group).load()


def declared(group: str) -> list[Declared]:
    """The entry points of ``group`` that the installed distributions declare, by name: from
    the cache when ``sys.path``'s entries are as they were at the last scan, else scanned (and
    the cache written, when it can be)."""
    cache = _cache_file(group)
    stamp = _path_stamp()
    kept = recall(cache, FILE_FORMAT)
    found = _decoded(kept.get(stamp))
    if found is None:
        found = _scan(group)
        remember(cache, FILE_FORMAT, stamp,
                 [[entry.name, entry.value, entry.source] for entry in found], kept)
    return found


def _cache_file(group: str) -> Path:
    return cache_directory() / f"entry-points-{group}.json"


_METADATA = (".dist-info", ".egg-info")


def _path_stamp() -> str:
    """A digest of ``sys.path`` and, in each of its directories, the distributions' metadata
    directories by name and modification time (a zip file on the path: its own time)."""
    digest = hashlib.sha256()
    for entry in sys.path:
        digest.update(f"\0{entry}\0".encode("utf-8", "surrogateescape"))
        where = entry or os.curdir
        try:
            names = sorted(name for name in os.listdir(where)
                           if name.lower().endswith(_METADATA))
        except NotADirectoryError:  # a zip file: its own time
            names, where = [os.path.basename(where)], os.path.dirname(where) or os.curdir
        except OSError:
            continue
        for name in names:
            with contextlib.suppress(OSError):
                modified = os.stat(os.path.join(where, name)).st_mtime_ns
                digest.update(f"{name}\0{modified}\0".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _scan(group: str) -> list[Declared]:
    from importlib.metadata import entry_points  # noqa: PLC0415 - 20 ms: on a change only

    found = []
    for entry in sorted(entry_points(group=group), key=lambda entry: entry.name):
        distribution = getattr(entry, "dist", None)
        owner = f"{distribution.name} {distribution.version} " if distribution is not None \
            else ""
        found.append(Declared(entry.name, entry.value, f"plugin {owner}({entry.value})"))
    return found


def _decoded(scan: Any) -> list[Declared] | None:
    """A kept scan's entry points, or None if there is none (or it is not one of ours)."""
    try:
        return None if scan is None else [Declared(str(name), str(value), str(source))
                                          for name, value, source in scan]
    except (ValueError, TypeError):
        return None


__all__ = ["KEPT", "Declared", "declared"]
