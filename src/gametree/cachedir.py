"""Where gametree keeps what it may compute again but would rather not: the compiled kernels
(:mod:`gametree.compiled.cache`) and the installed plugins' entry points
(:mod:`gametree.entry_points`)."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "GAMETREE_CACHE_DIR"
"""Environment variable naming the cache directory (default: the user's cache directory,
``~/.cache/gametree``)."""


def cache_directory() -> Path:
    """The cache directory: ``$GAMETREE_CACHE_DIR``, else ``$XDG_CACHE_HOME/gametree``, else
    ``~/.cache/gametree``."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gametree"
