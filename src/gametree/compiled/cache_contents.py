"""What is in the cache of compiled kernels (:mod:`gametree.compiled.cache`), and emptying it:
``gametree cache info`` and ``gametree cache clear``. Kept apart from the cache's files and
checks, which every compiled search needs: these are only for the cache commands.

Like that module, this one never imports numba.
"""

from __future__ import annotations

import ast
import contextlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cachedir import cache_directory
from .cache import (
    HEADER,
    LOCK_SUFFIX,
    MODULE_PREFIX,
    READY_SUFFIX,
    CompileLock,
    belongs_to,
    files_in,
    kernels_directory,
    unlink_file,
)

HEADER_LINE = re.compile(re.escape(HEADER) + r"(?P<name>'.*'|\".*\")\s*$")
"""The generated module's first line (:data:`gametree.compiled.cache.HEADER`), read back."""


def _size(path: Path) -> int:
    try:
        return path.lstat().st_size
    except OSError:  # removed meanwhile
        return 0


@dataclass(frozen=True)
class CachedKernel:
    """One compiled kernel in the cache."""

    name: str
    """The kernel's name (``connect4 7x6``), as the generated module's first line gives it."""

    module: str
    """The generated module's name: ``_gametree_engine_<kernel>_<digest>``."""

    ready: bool
    """True once every entry point was compiled and saved: later processes only load it.
    False while a process compiles it, or if a compile failed or was interrupted."""

    size: int
    """Bytes on disk: the module, its markers and numba's machine code."""

    files: tuple[Path, ...] = field(repr=False)
    """Every file that belongs to it."""

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {"name": self.name, "module": self.module, "ready": self.ready,
                "bytes": self.size, "files": len(self.files)}


@dataclass(frozen=True)
class CacheInfo:
    """What :func:`cache_info` reports."""

    directory: Path
    """The cache directory (compiled kernels are in its ``kernels`` subdirectory)."""

    kernels: tuple[CachedKernel, ...]
    """The compiled kernels, by name."""

    size: int
    """Bytes on disk of everything in the ``kernels`` directory (stray files included)."""

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {"directory": str(self.directory), "kernels": [k.as_dict() for k in self.kernels],
                "total_bytes": self.size}


def _kernel_name(module: Path) -> str:
    """The kernel's name from the module's first line, else the file name's kernel part."""
    with contextlib.suppress(OSError, UnicodeDecodeError):
        with module.open(encoding="utf-8") as source:
            first = source.readline()
        found = HEADER_LINE.match(first)
        if found:
            with contextlib.suppress(ValueError, SyntaxError):
                name = ast.literal_eval(found.group("name"))
                if isinstance(name, str):
                    return name
    stem = module.stem[len(MODULE_PREFIX):]
    return stem.rpartition("_")[0] or stem


def cached_kernels(cache: Path | None = None) -> list[CachedKernel]:
    """The compiled kernels in ``cache`` (default: :func:`cache_directory`), by name."""
    directory = kernels_directory(cache)
    files = files_in(directory) + files_in(directory / "__pycache__")
    ours = [file for file in files if file.name.startswith(MODULE_PREFIX)]
    modules = sorted({file.name.partition(".")[0] for file in ours})
    found = []
    for module in modules:
        belonging = tuple(sorted(file for file in ours if belongs_to(file, module)))
        source = directory / f"{module}.py"
        found.append(CachedKernel(
            name=_kernel_name(source), module=module,
            ready=(directory / f"{module}{READY_SUFFIX}").exists() and source.exists(),
            size=sum(_size(file) for file in belonging), files=belonging))
    return sorted(found, key=lambda kernel: (kernel.name.casefold(), kernel.module))


def cache_info(cache: Path | None = None) -> CacheInfo:
    """Where the cache is, the kernels compiled in it and the space they take."""
    directory = cache_directory() if cache is None else cache
    kernels = tuple(cached_kernels(directory))
    folder = kernels_directory(directory)
    total = sum(_size(file) for file in files_in(folder) + files_in(folder / "__pycache__"))
    return CacheInfo(directory=directory, kernels=kernels, size=total)


@dataclass(frozen=True)
class Cleared:
    """What :func:`clear_cache` did."""

    directory: Path
    """The cache directory."""

    removed: tuple[CachedKernel, ...]
    """The kernels deleted."""

    freed: int
    """Bytes freed."""

    busy: tuple[CachedKernel, ...] = ()
    """Kernels left alone because another process is compiling them right now."""

    failed: tuple[str, ...] = ()
    """Why some files could not be deleted (``path: reason``); their kernels stay listed."""

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {"directory": str(self.directory),
                "removed": [kernel.as_dict() for kernel in self.removed],
                "freed_bytes": self.freed, "busy": [kernel.as_dict() for kernel in self.busy],
                "failed": list(self.failed)}


def clear_cache(cache: Path | None = None) -> Cleared:
    """Delete the compiled kernels of ``cache`` (default: :func:`cache_directory`).

    Only the files of generated engine modules in the cache's ``kernels`` directory (and its
    ``__pycache__``) are deleted, then those two directories if nothing else is left in them:
    whatever else is there, or anywhere else, stays. A kernel that another process is
    compiling at this moment is left alone (it is listed in :attr:`Cleared.busy`). Safe when
    the directory does not exist; a file that cannot be deleted is reported in
    :attr:`Cleared.failed`, not raised.
    """
    directory = cache_directory() if cache is None else cache
    folder = kernels_directory(directory)
    removed, busy, failed = [], [], []
    freed = 0
    for kernel in cached_kernels(directory):
        lock = CompileLock(folder / f"{kernel.module}{LOCK_SUFFIX}")
        if not lock.acquire(blocking=False):
            busy.append(kernel)
            continue
        complete = True
        try:
            # The lock file last (taking the lock may just have created it).
            for file in [*(f for f in kernel.files if f != lock.path), lock.path]:
                size = _size(file)  # 0 once gone: a file removed meanwhile frees nothing here
                problem = unlink_file(file)
                if problem is None:
                    freed += size
                else:
                    failed.append(problem)
                    complete = False
        finally:
            lock.release()
        if complete:
            removed.append(kernel)
    for empty in (folder / "__pycache__", folder):
        with contextlib.suppress(OSError):  # absent, or not empty: it stays
            empty.rmdir()
    return Cleared(directory=directory, removed=tuple(removed), freed=freed, busy=tuple(busy),
                   failed=tuple(failed))


def format_size(size: int) -> str:
    """A size in bytes for people: ``812 bytes``, ``46.2 KiB``, ``1.6 MiB``."""
    if size < 1024:
        return f"{size} bytes" if size != 1 else "1 byte"
    value = float(size)
    for unit in ("KiB", "MiB", "GiB"):
        value /= 1024
        if value < 1024 or unit == "GiB":
            break
    return f"{value:.1f} {unit}"


__all__ = ["CacheInfo", "CachedKernel", "Cleared", "cache_info", "cached_kernels",
           "clear_cache", "format_size"]
