"""The on-disk cache of compiled kernels: where it is, its files, whether a kernel's are whole,
and the lock that lets only one process compile a kernel at a time (what is in it, and emptying
it: :mod:`gametree.compiled.cache_contents`).

Every compiled kernel is a generated engine module in the cache's ``kernels`` directory
(:mod:`gametree.compiled.build`) with a few files beside it, all named after the module (a
kernel's retrograde analysis, :mod:`gametree.solvers.retrograde`, is one more such module, with a
digest of its own)::

    kernels/_gametree_engine_<kernel>_<digest>.py      the generated module (first line: its title)
    kernels/_gametree_engine_<kernel>_<digest>.ready   written once every entry point is compiled
    kernels/_gametree_engine_<kernel>_<digest>.lock    held while a process compiles the kernel
    kernels/__pycache__/_gametree_engine_<kernel>_<digest>.*   numba's machine code (and index)

``<kernel>`` is the kernel's name made safe for a file name and cut to :data:`SLUG_LENGTH`
characters, so that the files' names stay short (every name is well within the 255 bytes file
systems allow) whatever the kernel's name; the digest tells kernels apart.

The ``.ready`` marker is a *manifest*: the names of numba's files at the end of the compile and
the CRC-32 of each (the checksum of zip files: it catches truncated, garbled or replaced files
in a fraction of a millisecond), so that a later process can tell a complete cache from a
damaged one (:func:`check_files`) before numba reads a byte of it.

This module only handles files: it never imports numba, so ``gametree cache info`` and
``gametree cache clear`` start at once.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..cachedir import cache_directory

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX (Windows): compiles are not coordinated
    fcntl = None  # type: ignore[assignment]

KERNELS = "kernels"
"""The subdirectory of the cache directory that holds the compiled kernels (and nothing else)."""

MODULE_PREFIX = "_gametree_engine_"
"""How the name of every generated engine module (and every file beside it) begins."""

READY_SUFFIX = ".ready"
LOCK_SUFFIX = ".lock"

SLUG_LENGTH = 40
"""The most characters of the kernel's name that a generated module's name keeps."""

MANIFEST_FORMAT = 1
"""The version of the ``.ready`` manifest's layout."""

HEADER = "# gametree: the compiled engine of the kernel "
"""The generated module's first line: this text, then the kernel's name as a Python string."""



def kernels_directory(cache: Path | None = None) -> Path:
    """The ``kernels`` directory of ``cache`` (default: :func:`cache_directory`)."""
    return (cache_directory() if cache is None else cache) / KERNELS


def header(title: str) -> str:
    """The first line of a module generated for a kernel: its ``title``, the kernel's name
    (and for a module other than the engine, what it does), as ``gametree cache info`` lists
    it."""
    return f"{HEADER}{title!r}\n"


def module_name(kernel_name: str, tag: str) -> str:
    """The name of the engine module generated for the kernel ``kernel_name`` with the digest
    ``tag``: ``_gametree_engine_connect4_7x6_<digest>``. The kernel's part keeps ASCII letters
    and digits (other runs of characters become one ``_``) and at most :data:`SLUG_LENGTH` of
    them, so the name is short whatever the kernel's name (a subtraction game with a hundred
    takes has them all in its name)."""
    slug = re.sub(r"[^a-z0-9]+", "_", kernel_name.lower()).strip("_")
    slug = slug[:SLUG_LENGTH].rstrip("_") or "kernel"
    return f"{MODULE_PREFIX}{slug}_{tag}"


# -- files ------------------------------------------------------------------------------------


def unlink_file(file: Path) -> str | None:
    """Delete ``file`` (already gone is fine); what went wrong (``path: reason``), if anything."""
    try:
        file.unlink()
    except FileNotFoundError:
        pass
    except OSError as error:
        return f"{file}: {error.strerror or error}"
    return None


def files_in(directory: Path) -> list[Path]:
    """The regular files (and symbolic links) directly in ``directory``; none if it is absent."""
    try:
        entries = list(directory.iterdir())
    except OSError:
        return []
    return [entry for entry in entries if entry.is_symlink() or entry.is_file()]


def belongs_to(file: Path, module: str) -> bool:
    """True if ``file`` is one of the generated ``module``'s own files (not another kernel's
    whose name merely starts the same: the digest ends a module name, then comes a dot)."""
    return file.name.startswith(f"{module}.")


# -- a kernel's files: complete or damaged ---------------------------------------------------


def machine_code(module: Path) -> list[Path]:
    """numba's files for the generated module at ``module`` (in the ``__pycache__`` beside
    it), without the temporary files of a save in progress."""
    return sorted(file for file in files_in(module.parent / "__pycache__")
                  if belongs_to(file, module.stem) and ".tmp." not in file.name)


def write_manifest(module: Path) -> None:
    """Mark the kernel of the generated module ``module`` ready: its ``.ready`` manifest names
    numba's files for it, with the CRC-32 of each, and each one's size, modification time and
    status change time as read before the CRC (:func:`check_files` then reads only a file
    where one of them changed: any write, ``chmod`` or copy changes the last). Raises
    ``OSError`` if it cannot be written; a reader never sees half of it."""
    files: dict[str, int] = {}
    stats: dict[str, list[int]] = {}
    for file in machine_code(module):
        status = file.stat()
        files[file.name] = zlib.crc32(file.read_bytes())
        stats[file.name] = [status.st_size, status.st_mtime_ns, status.st_ctime_ns]
    text = json.dumps({"format": MANIFEST_FORMAT, "files": files, "stats": stats}, indent=0,
                      sort_keys=True)
    marker = module.with_suffix(READY_SUFFIX)
    temporary = module.with_suffix(f".{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(marker)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def _manifest(module: Path) -> tuple[dict[str, int], dict[str, Any]] | str:
    """The files the ``.ready`` manifest of ``module`` lists (their checksums, and the sizes
    and times of those it has them for), or what is wrong with it."""
    try:
        text = module.with_suffix(READY_SUFFIX).read_text(encoding="utf-8")
    except OSError as error:
        return f"its list of files cannot be read ({error.strerror or error})"
    except UnicodeDecodeError:
        text = ""
    with contextlib.suppress(ValueError):
        document = json.loads(text)
        files = document.get("files") if isinstance(document, dict) else None
        if (document.get("format") == MANIFEST_FORMAT and isinstance(files, dict)
                and all(isinstance(name, str) and belongs_to(Path(name), module.stem)
                        and "/" not in name and isinstance(checksum, int)
                        for name, checksum in files.items())):
            stats = document.get("stats")
            return files, stats if isinstance(stats, dict) else {}
    return "its list of files is damaged"


def check_files(module: Path, source: str,
                accept_index: Callable[[Path], bool]) -> str | None:
    """What is wrong with the cached kernel of the generated module ``module``, in a few words
    for a one-line message (``3 of its 36 files are missing``), or None if it is intact: the
    module holds ``source``, its manifest is whole, and every file it lists is there with its
    checksum (a file whose size and times are those listed is taken as it was, unread) —
    except that numba adds to an index file when it compiles a function for new argument
    types, so an index file whose checksum changed is asked about: ``accept_index`` reads it
    as numba would (:func:`gametree.compiled.numbacache.index_problem`)."""
    try:
        written = module.read_bytes()
    except FileNotFoundError:
        return "its engine module is missing"
    except OSError as error:
        return f"its engine module cannot be read ({error.strerror or error})"
    if written != source.encode("utf-8"):
        return "its engine module was changed"
    listed = _manifest(module)
    if isinstance(listed, str):
        return listed
    files, stats = listed
    folder = module.parent / "__pycache__"
    missing = changed = 0
    unreadable: list[str] = []
    for name, checksum in files.items():
        path = folder / name
        try:
            status = path.stat()
            if stats.get(name) == [status.st_size, status.st_mtime_ns, status.st_ctime_ns]:
                continue  # as it was when listed (about 3 MB a kernel not read at each start)
            data = path.read_bytes()
        except FileNotFoundError:
            missing += 1
            continue
        except OSError as error:
            unreadable.append(error.strerror or str(error))
            continue
        if zlib.crc32(data) != checksum and not (path.suffix == ".nbi" and accept_index(path)):
            changed += 1
    problems = [f"{number} {'is' if number == 1 else 'are'} {state}"
                for number, state in ((missing, "missing"), (changed, "damaged"),
                                      (len(unreadable), "unreadable")) if number]
    if unreadable:
        problems[-1] += f" ({unreadable[0]})"
    if problems:
        first, _, state = problems[0].partition(" ")
        problems[0] = f"{first} of its {len(files)} files {state}"
        return ", ".join(problems)
    return None


def discard(module: Path) -> list[str]:
    """Delete the files of the generated module ``module`` (its lock file stays: the caller
    may hold it): the ``.ready`` marker first, so that no process trusts what remains. Returns
    what could not be deleted (``path: reason``)."""
    failed = []
    folder = module.parent
    others = [file for file in files_in(folder) + files_in(folder / "__pycache__")
              if belongs_to(file, module.stem)
              and file.suffix not in (READY_SUFFIX, LOCK_SUFFIX)]
    for file in [module.with_suffix(READY_SUFFIX), *others]:
        problem = unlink_file(file)
        if problem is not None:
            failed.append(problem)
    return failed


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
