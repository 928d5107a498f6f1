"""The on-disk cache of compiled kernels: where it is, what is in it, emptying it, and the lock
that lets only one process compile a kernel at a time.

Every compiled kernel is a generated engine module in the cache's ``kernels`` directory
(:mod:`gametree.compiled.build`) with a few files beside it, all named after the module::

    kernels/_gametree_engine_<kernel>_<digest>.py      the generated engine (first line: its kernel)
    kernels/_gametree_engine_<kernel>_<digest>.ready   written once every entry point is compiled
    kernels/_gametree_engine_<kernel>_<digest>.lock    held while a process compiles the kernel
    kernels/__pycache__/_gametree_engine_<kernel>_<digest>.*   numba's machine code (and index)

This module only handles files: it never imports numba, so ``gametree cache info`` and
``gametree cache clear`` start at once.
"""

from __future__ import annotations

import ast
import contextlib
import errno
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX (Windows): compiles are not coordinated
    fcntl = None  # type: ignore[assignment]

CACHE_ENV = "GAMETREE_CACHE_DIR"
"""Environment variable naming the directory for compiled kernels (default: the user's cache
directory, ``~/.cache/gametree``)."""

KERNELS = "kernels"
"""The subdirectory of the cache directory that holds the compiled kernels (and nothing else)."""

MODULE_PREFIX = "_gametree_engine_"
"""How the name of every generated engine module (and every file beside it) begins."""

READY_SUFFIX = ".ready"
LOCK_SUFFIX = ".lock"

HEADER = "# gametree: the compiled engine of the kernel "
"""The generated module's first line: this text, then the kernel's name as a Python string."""

_HEADER_LINE = re.compile(re.escape(HEADER) + r"(?P<name>'.*'|\".*\")\s*$")


def cache_directory() -> Path:
    """Where generated engine modules and numba's machine code are kept: ``$GAMETREE_CACHE_DIR``,
    else ``$XDG_CACHE_HOME/gametree``, else ``~/.cache/gametree``."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gametree"


def kernels_directory(cache: Path | None = None) -> Path:
    """The ``kernels`` directory of ``cache`` (default: :func:`cache_directory`)."""
    return (cache_directory() if cache is None else cache) / KERNELS


def header(kernel_name: str) -> str:
    """The first line of the engine module generated for the kernel ``kernel_name``."""
    return f"{HEADER}{kernel_name!r}\n"


# -- what is in the cache ------------------------------------------------------------------


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


def _size(path: Path) -> int:
    try:
        return path.lstat().st_size
    except OSError:  # removed meanwhile
        return 0


def _files(directory: Path) -> list[Path]:
    """The regular files (and symbolic links) directly in ``directory``; none if it is absent."""
    try:
        entries = list(directory.iterdir())
    except OSError:
        return []
    return [entry for entry in entries if entry.is_symlink() or entry.is_file()]


def _kernel_name(module: Path) -> str:
    """The kernel's name from the module's first line, else the file name's kernel part."""
    with contextlib.suppress(OSError, UnicodeDecodeError):
        with module.open(encoding="utf-8") as source:
            first = source.readline()
        found = _HEADER_LINE.match(first)
        if found:
            with contextlib.suppress(ValueError, SyntaxError):
                name = ast.literal_eval(found.group("name"))
                if isinstance(name, str):
                    return name
    stem = module.stem[len(MODULE_PREFIX):]
    return stem.rpartition("_")[0] or stem


def _belongs_to(file: Path, module: str) -> bool:
    """True if ``file`` is one of the generated ``module``'s own files (not another kernel's
    whose name merely starts the same: the digest ends a module name, then comes a dot)."""
    return file.name.startswith(f"{module}.")


def cached_kernels(cache: Path | None = None) -> list[CachedKernel]:
    """The compiled kernels in ``cache`` (default: :func:`cache_directory`), by name."""
    directory = kernels_directory(cache)
    files = _files(directory) + _files(directory / "__pycache__")
    ours = [file for file in files if file.name.startswith(MODULE_PREFIX)]
    modules = sorted({file.name.partition(".")[0] for file in ours})
    found = []
    for module in modules:
        belonging = tuple(sorted(file for file in ours if _belongs_to(file, module)))
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
    total = sum(_size(file) for file in _files(folder) + _files(folder / "__pycache__"))
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
                size = _size(file)
                try:
                    file.unlink()
                except FileNotFoundError:
                    continue
                except OSError as error:
                    failed.append(f"{file}: {error.strerror or error}")
                    complete = False
                    continue
                freed += size
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


# -- one compile at a time -----------------------------------------------------------------


WAIT_LIMIT = 1800.0
"""The longest a process waits (seconds) for another one's compile of the same kernel before
it compiles the kernel itself (a stuck process must not block others for ever)."""

_POLL_FIRST, _POLL_MOST = 0.02, 0.25


class CompileLock:
    """An exclusive lock on a file beside a generated module, taken while a process compiles
    the kernel, so that another process needing it waits and then loads the machine code
    instead of compiling it a second time.

    ``fcntl.flock`` on POSIX: the operating system releases the lock when the process ends,
    however it ends, so a crashed compile never blocks the others. Where there is no ``flock``
    (Windows), or the file cannot be opened or locked (a read-only or network file system),
    the lock does nothing and every process compiles on its own, as without a lock.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self._held = False

    @property
    def held(self) -> bool:
        """True between a successful :meth:`acquire` and :meth:`release`."""
        return self._held

    def acquire(self, *, blocking: bool = True, limit: float = WAIT_LIMIT,
                on_wait: Callable[[], None] | None = None) -> bool:
        """Take the lock; True if taken (or if locking is unavailable here).

        ``blocking``: wait while another process holds it, up to ``limit`` seconds (then give
        up and return False). ``on_wait`` is called once, before waiting, if there is a wait.
        """
        deadline = time.monotonic() + limit
        pause = _POLL_FIRST
        waited = False
        while True:
            taken = self._try()
            if taken is not False:  # True, or None: locking is unavailable
                self._held = True
                return True
            if not blocking or time.monotonic() >= deadline:
                return False
            if not waited and on_wait is not None:
                on_wait()
            waited = True
            time.sleep(pause)
            pause = min(pause * 2, _POLL_MOST)

    def _try(self) -> bool | None:
        """One attempt: True if locked, False if another process holds it, None if this system
        cannot lock it."""
        if fcntl is None:
            return None
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(fd)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            return None
        # ``gametree cache clear`` deletes lock files (holding them): a lock on a file that is
        # no longer at ``path`` excludes nobody. Try again on the file that is there now.
        try:
            here = os.stat(self.path)
        except OSError:
            here = None
        mine = os.fstat(fd)
        if here is None or (here.st_dev, here.st_ino) != (mine.st_dev, mine.st_ino):
            os.close(fd)
            return self._try()
        self._fd = fd
        return True

    def release(self) -> None:
        """Let the next process in (the lock file stays, for it to lock). Idempotent."""
        self._held = False
        fd, self._fd = self._fd, None
        if fd is not None:
            assert fcntl is not None
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
