"""A damaged, unreadable, read-only or full kernel cache never breaks a command (issue 12).

Every test runs ``gametree`` as a real process on a cache directory of its own, with real files
and real numba: one line on standard error says what was wrong, the answer is the right one,
the exit status is 0, and nothing is left in the temporary directory (``TMPDIR`` is the test's
own). The Game of Bones is compiled once for the module (:func:`compiled`); each test works on
a copy of that cache, and the tests that must compile again cost one compile each.

Two tests need a file system that refuses writes:

* a read-only cache: its files are made read-only (``chmod a-w``). Root writes through
  permissions, so as root the ``gametree`` process runs without the capability that allows it
  (``setpriv --bounding-set -dac_override,-dac_read_search``); the test is skipped only where
  that is impossible too.
* a full disk: where this process may mount file systems (``unshare --mount`` and ``mount -t
  tmpfs``: root with CAP_SYS_ADMIN), the cache is a tiny tmpfs, in a mount namespace of the
  ``gametree`` process's own; elsewhere the disk is simulated at the file-writing boundary: in
  the ``gametree`` process, a file opened for writing under the cache refuses every byte with
  ``ENOSPC``, as a full disk does.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import random
import re
import shutil
import stat
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from gametree.compiled import numbacache
from gametree.compiled.cache import (
    MODULE_PREFIX,
    SLUG_LENGTH,
    check_files,
    machine_code,
    module_name,
    write_manifest,
)
from gametree.compiled.cache_contents import cache_info

NAME = "bones 1,2,3"
SOLVE = ("solve", "bones", "--heap", "7", "--json")


def gametree(cache: Path, *args: str, prefix: tuple[str, ...] = (),
             python: tuple[str, ...] = ("-m", "gametree")) -> subprocess.CompletedProcess[str]:
    """``gametree ARGS`` as a new process on the cache ``cache``, with the temporary directory
    ``temporary(cache)``."""
    environment = dict(os.environ, GAMETREE_CACHE_DIR=str(cache),
                       TMPDIR=str(temporary(cache)))
    return subprocess.run([*prefix, sys.executable, *python, *args], capture_output=True,
                          text=True, env=environment, timeout=600, check=False)


def temporary(cache: Path) -> Path:
    """The temporary directory of the processes using ``cache`` (it must stay empty)."""
    return cache.parent / "tmp"


def answer(stdout: str) -> dict[str, Any]:
    """A JSON result without its statistics (the time differs from run to run)."""
    document: dict[str, Any] = json.loads(stdout)
    document.pop("stats")
    return document


@dataclass(frozen=True)
class Compiled:
    """A cache holding the compiled Game of Bones, and the answer of its first run."""

    cache: Path
    answer: dict[str, Any]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Compiled:
    cache = tmp_path_factory.mktemp("compiled") / "cache"
    temporary(cache).mkdir()
    first = gametree(cache, *SOLVE)
    assert first.returncode == 0, first.stderr
    assert first.stderr == f"gametree: compiling the {NAME} kernel (once; cached in {cache})...\n"
    return Compiled(cache, answer(first.stdout))


def copy(compiled: Compiled, tmp_path: Path) -> Path:
    """A copy of the compiled cache (modification times kept, as numba may stamp them)."""
    cache = tmp_path / "cache"
    shutil.copytree(compiled.cache, cache)
    temporary(cache).mkdir()
    return cache


def fresh(tmp_path: Path) -> Path:
    """An empty cache directory (not created yet) and its temporary directory."""
    cache = tmp_path / "cache"
    temporary(cache).mkdir(parents=True)
    return cache


def module_of(cache: Path) -> Path:
    [module] = (cache / "kernels").glob(f"{MODULE_PREFIX}*.py")
    return module


def files(cache: Path) -> list[Path]:
    """Every file of the kernel cache."""
    return sorted(path for path in (cache / "kernels").rglob("*") if path.is_file())


def snapshot(cache: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``cache`` with its size and modification time."""
    return {str(path): (path.stat().st_size, path.stat().st_mtime_ns)
            for path in cache.rglob("*")}


def assert_loads_silently(compiled: Compiled, cache: Path) -> None:
    """A process on ``cache`` says nothing (compiles nothing) and answers right."""
    again = gametree(cache, *SOLVE)
    assert (again.returncode, again.stderr) == (0, "")
    assert answer(again.stdout) == compiled.answer
    [kernel] = cache_info(cache).kernels
    assert kernel.ready


# -- damaged: found before numba reads it, compiled again in place ----------------------------


def truncate(cache: Path) -> str:
    for path in files(cache):
        path.write_bytes(path.read_bytes()[:path.stat().st_size // 2])
    return "its engine module was changed"


def garble(cache: Path) -> str:
    generator = random.Random(12)
    for path in files(cache):
        path.write_bytes(generator.randbytes(max(path.stat().st_size, 16)))
    return "its engine module was changed"


def delete(cache: Path) -> str:
    listed = machine_code(module_of(cache))
    for path in listed[::3]:
        path.unlink()
    return f"{len(listed[::3])} of its {len(listed)} files are missing"


@pytest.mark.slow
@pytest.mark.parametrize("damage", [truncate, garble, delete])
def test_a_damaged_cache_is_said_in_one_line_then_compiled_again(
        damage: Callable[[Path], str], compiled: Compiled, tmp_path: Path) -> None:
    cache = copy(compiled, tmp_path)
    reason = damage(cache)
    second = gametree(cache, *SOLVE)
    assert second.returncode == 0, second.stderr
    assert answer(second.stdout) == compiled.answer
    assert second.stderr.splitlines() == [
        f"gametree: the {NAME} kernel cached in {cache} is damaged ({reason}): compiling it "
        "again..."]
    assert_loads_silently(compiled, cache)  # healed: the third process only loads
    assert list(temporary(cache).iterdir()) == []


@pytest.mark.slow
def test_a_damaged_part_that_escapes_the_check_is_compiled_again(
        compiled: Compiled, tmp_path: Path) -> None:
    # Damaged machine code under a manifest that agrees with it: numba itself fails to read
    # it, and that function alone is compiled again (and its new files enter the manifest).
    # Its image is damaged too (else the solve runs from the image, without numba's file).
    cache = copy(compiled, tmp_path)
    module = module_of(cache)
    [data] = [path for path in machine_code(module) if ".search_root-" in path.name
              and path.suffix == ".nbc"]
    data.write_bytes(b"\x80\x05K" + bytes(100))
    [image] = [path for path in machine_code(module) if ".search_root." in path.name
               and path.suffix == ".native"]
    image.write_bytes(image.read_bytes()[:-100])
    write_manifest(module)
    second = gametree(cache, *SOLVE)
    assert second.returncode == 0, second.stderr
    assert answer(second.stdout) == compiled.answer
    [line] = second.stderr.splitlines()
    assert re.fullmatch(rf"gametree: the {NAME} kernel cached in {re.escape(str(cache))} is "
                        r"damaged \(cannot load search_root: UnpicklingError: .+\): compiling "
                        r"the damaged part again\.\.\.", line), line
    assert_loads_silently(compiled, cache)


@pytest.mark.slow
def test_the_check_names_what_is_wrong(compiled: Compiled, tmp_path: Path) -> None:
    cache = copy(compiled, tmp_path)
    module = module_of(cache)
    source = module.read_text(encoding="utf-8")
    stamp = numbacache.source_stamp(module)

    def problem() -> str | None:
        return check_files(module, source,
                           lambda index: numbacache.index_problem(index, stamp) is None)

    def index_of(function: str) -> Path:
        [index] = [path for path in machine_code(module)
                   if f".{function}-" in path.name and path.suffix == ".nbi"]
        return index

    total = len(machine_code(module))
    assert problem() is None
    # numba adds to an index when it compiles a function for new argument types: accepted.
    index = index_of("status")
    original = index.read_bytes()
    with index.open("rb") as file:
        version = pickle.load(file)
        stamped, overloads = pickle.loads(file.read())
    added = {**overloads, "another signature": next(iter(overloads.values()))}
    index.write_bytes(pickle.dumps(version) + pickle.dumps((stamped, added)))
    assert problem() is None
    index.write_bytes(pickle.dumps(version) + pickle.dumps(("another source", added)))
    assert numbacache.index_problem(index, stamp) == "out of date"
    assert problem() == f"1 of its {total} files is damaged"
    index.write_bytes(original[:40])
    assert (numbacache.index_problem(index, stamp) or "").startswith("unreadable (")
    index.unlink()
    assert problem() == f"1 of its {total} files is missing"
    index.write_bytes(original)
    assert problem() is None
    data = index.with_name(index.name.replace(".nbi", ".1.nbc"))
    data.write_bytes(data.read_bytes()[:-1] + b"?")
    assert problem() == f"1 of its {total} files is damaged"
    index_of("line").unlink()
    assert problem() == f"1 of its {total} files is missing, 1 is damaged"
    marker = module.with_suffix(".ready")
    marker.write_bytes(marker.read_bytes()[:50])
    assert problem() == "its list of files is damaged"
    marker.write_bytes(b"\xff\xfe")
    assert problem() == "its list of files is damaged"
    module.write_text(source + "\n", encoding="utf-8")
    assert problem() == "its engine module was changed"
    module.unlink()
    assert problem() == "its engine module is missing"


@pytest.mark.slow
def test_the_check_reads_only_the_files_changed_since_they_were_listed(
        compiled: Compiled, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = copy(compiled, tmp_path)
    module = module_of(cache)
    source = module.read_text(encoding="utf-8")
    write_manifest(module)  # the copy's sizes and times
    read: list[str] = []
    read_bytes = Path.read_bytes

    def counted(path: Path) -> bytes:
        read.append(path.name)
        return read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", counted)

    def problem() -> str | None:
        read.clear()
        return check_files(module, source, lambda index: False)

    assert problem() is None
    assert read == [module.name]  # the engine module alone: every listed file is as listed
    [data, *_] = [path for path in machine_code(module) if path.suffix == ".nbc"]
    status = data.stat()
    os.utime(data, ns=(status.st_atime_ns, status.st_mtime_ns + 1))
    assert problem() is None  # another time, the same bytes: read, and found whole
    assert read == [module.name, data.name]
    data.write_bytes(read_bytes(data)[:-1] + b"?")
    assert problem() == f"1 of its {len(machine_code(module))} files is damaged"


# -- read-only: used as it is, never written ----------------------------------------------------


def without_root_powers(tree: Path) -> tuple[str, ...]:
    """The command prefix under which a process obeys the file permissions in ``tree``: none,
    unless this is root, who reads and writes through them; then ``setpriv`` takes away the
    capabilities that allow it (the test is skipped where it cannot)."""
    if os.geteuid() != 0:
        return ()
    prefix = ("setpriv", "--bounding-set", "-dac_override,-dac_read_search")
    probe = None
    if shutil.which("setpriv") is not None:
        probe = subprocess.run(
            [*prefix, sys.executable, "-c",
             "import os, sys; print(os.access(sys.argv[1], os.W_OK))", str(tree)],
            capture_output=True, text=True, check=False, timeout=60)
    if probe is None or probe.stdout.strip() != "False":
        pytest.skip("running as root, who reads and writes through file permissions, and "
                    "setpriv cannot take away root's CAP_DAC_OVERRIDE here: no file is "
                    "read-only or unreadable to this test's processes")
    return prefix


@contextlib.contextmanager
def read_only(tree: Path) -> Iterator[tuple[str, ...]]:
    """Make ``tree`` read-only (``chmod a-w``); yields the command prefix under which a
    process cannot write it (:func:`without_root_powers`)."""
    paths = [tree, *tree.rglob("*")]
    for path in paths:
        path.chmod(stat.S_IMODE(path.stat().st_mode) & ~0o222)
    try:
        yield without_root_powers(tree)
    finally:
        for path in paths:
            path.chmod(stat.S_IMODE(path.stat().st_mode) | 0o200)


@pytest.mark.slow
def test_an_unreadable_file_is_damage(compiled: Compiled, tmp_path: Path) -> None:
    cache = copy(compiled, tmp_path)
    [data] = [path for path in machine_code(module_of(cache)) if ".negamax-" in path.name
              and path.suffix == ".nbc"]
    data.chmod(0)
    try:
        prefix = without_root_powers(data)
        second = gametree(cache, *SOLVE, prefix=prefix)
    finally:
        with contextlib.suppress(FileNotFoundError):
            data.chmod(0o644)
    assert second.returncode == 0, second.stderr
    assert answer(second.stdout) == compiled.answer
    total = len(machine_code(module_of(compiled.cache)))
    assert second.stderr.splitlines() == [
        f"gametree: the {NAME} kernel cached in {cache} is damaged (1 of its {total} files is "
        "unreadable (Permission denied)): compiling it again..."]
    assert_loads_silently(compiled, cache)


@pytest.mark.slow
def test_a_read_only_cache_is_used_without_compiling(compiled: Compiled,
                                                     tmp_path: Path) -> None:
    cache = copy(compiled, tmp_path)
    before = snapshot(cache)
    with read_only(cache) as prefix:
        run = gametree(cache, *SOLVE, prefix=prefix)
    assert (run.returncode, run.stderr) == (0, "")
    assert answer(run.stdout) == compiled.answer
    assert snapshot(cache) == before
    assert list(temporary(cache).iterdir()) == []


@pytest.mark.slow
def test_a_damaged_read_only_cache_is_compiled_in_memory(compiled: Compiled,
                                                         tmp_path: Path) -> None:
    cache = copy(compiled, tmp_path)
    reason = delete(cache)
    before = snapshot(cache)
    with read_only(cache) as prefix:
        run = gametree(cache, *SOLVE, prefix=prefix)
    assert run.returncode == 0, run.stderr
    assert answer(run.stdout) == compiled.answer
    assert run.stderr.splitlines() == [
        f"gametree: the {NAME} kernel cached in {cache} is damaged ({reason}) and "
        f"{cache / 'kernels'} cannot be written: compiling it for this process only..."]
    assert snapshot(cache) == before
    assert list(temporary(cache).iterdir()) == []  # compiled in memory: no directory at all


# -- full: compiled for this process only, nothing left behind ----------------------------------


FULL_DISK = textwrap.dedent('''
    """Run gametree on a simulated full disk: below sys.argv[1], files take no bytes."""
    import builtins, errno, io, os, sys

    FULL = os.path.realpath(sys.argv.pop(1)) + os.sep
    _open = io.open


    class Full:
        """A file on a full disk: opened, but every byte written fails with ENOSPC."""

        def __init__(self, file):
            self._file = file

        def write(self, data):
            if len(data):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return 0

        def __enter__(self):
            return self

        def __exit__(self, *exception):
            self._file.close()

        def __getattr__(self, name):
            return getattr(self._file, name)


    def open_(file, mode="r", *args, **kwargs):
        opened = _open(file, mode, *args, **kwargs)
        if (isinstance(file, (str, os.PathLike)) and set(mode) & set("wax+")
                and os.path.realpath(file).startswith(FULL)):
            return Full(opened)
        return opened


    builtins.open = io.open = open_
    sys.argv[0] = "gametree"
    from gametree.cli import run
    run()
''')

TMPFS = textwrap.dedent('''
    cache=$1; size=$2; listing=$3; shift 3
    mkdir -p "$cache" && mount -t tmpfs -o "size=$size" tmpfs "$cache" || exit 99
    "$@"; status=$?
    find "$cache" -type f > "$listing"
    exit $status
''')

UNSHARE = ("unshare", "--mount", "--propagation", "private", "sh", "-c", TMPFS, "sh")


@cache
def can_mount(directory: Path) -> bool:
    """Whether this process may mount a tmpfs in a mount namespace of its own."""
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run([*UNSHARE, str(directory / "probe"), "16k", os.devnull, "true"],
                           capture_output=True, check=False, timeout=60)
    return probe.returncode == 0


def kernel_files(left: list[str]) -> list[str]:
    """The files of ``left`` (paths in a cache) that belong to compiled kernels: all but the
    installed plugins' entry points (:mod:`gametree.entry_points`) and the books' index
    (:mod:`gametree.db.books`), a few hundred bytes each that fit where a kernel does not."""
    return [path for path in left if not Path(path).name.startswith("entry-points-")
            and Path(path).name != "books-index.json"]


def on_a_full_disk(cache: Path, room: int, full: Path) -> tuple[subprocess.CompletedProcess[str],
                                                                list[str]]:
    """``gametree solve`` on the empty cache ``cache``, on a disk with ``room`` KiB free: a
    tmpfs of that size if this process can mount one, else a disk on which ``full`` (a
    directory in ``cache``) has no room. Returns the process and the files left in ``cache``."""
    if can_mount(cache.parent):
        listing = cache.parent / "listing"
        run = gametree(cache, *SOLVE, prefix=(*UNSHARE, str(cache), f"{room}k", str(listing)))
        assert run.returncode != 99, run.stderr
        left = listing.read_text().split()
    else:
        run = gametree(cache, *SOLVE, python=("-c", FULL_DISK, str(full)))
        left = [str(path) for path in cache.rglob("*") if path.is_file()]
    return run, [str(Path(path).relative_to(cache)) for path in left]


@pytest.mark.slow
def test_a_full_disk_compiles_for_this_process_only(compiled: Compiled, tmp_path: Path) -> None:
    cache = fresh(tmp_path)
    run, left = on_a_full_disk(cache, 16, cache)  # not even the engine module fits
    assert run.returncode == 0, run.stderr
    assert answer(run.stdout) == compiled.answer
    assert run.stderr.splitlines() == [
        f"gametree: compiling the {NAME} kernel for this process only (it cannot be saved in "
        f"{cache}: No space left on device)..."]
    assert kernel_files(left) == []
    assert list(temporary(cache).iterdir()) == []


@pytest.mark.slow
def test_a_disk_that_fills_during_the_compile(compiled: Compiled, tmp_path: Path) -> None:
    cache = fresh(tmp_path)
    # The engine module fits, numba's machine code does not.
    run, left = on_a_full_disk(cache, 160, cache / "kernels" / "__pycache__")
    assert run.returncode == 0, run.stderr
    assert answer(run.stdout) == compiled.answer
    assert run.stderr.splitlines() == [
        f"gametree: compiling the {NAME} kernel (once; cached in {cache})...",
        f"gametree: could not save the compiled {NAME} kernel in {cache} (No space left on "
        "device): it is compiled for this process only"]
    assert kernel_files(left) == []  # what was saved is deleted: the next process compiles it
    assert list(temporary(cache).iterdir()) == []


# -- long names ---------------------------------------------------------------------------------


def test_module_names_stay_short_whatever_the_kernel_name() -> None:
    digest = "0123456789abcdef"
    assert module_name("Connect Four 7x6", digest) == f"{MODULE_PREFIX}connect_four_7x6_{digest}"
    assert module_name("misère, «ä»!", digest) == f"{MODULE_PREFIX}mis_re_{digest}"
    assert module_name("???", digest) == f"{MODULE_PREFIX}kernel_{digest}"
    takes = "subtraction " + ",".join(map(str, range(1, 5001)))
    name = module_name(takes, digest)
    assert name.startswith(f"{MODULE_PREFIX}subtraction_1_2_3_4_5_6_7_8_9_10_11_12_")
    assert name.endswith(f"_{digest}") and "__" not in name
    assert len(name) <= len(MODULE_PREFIX) + SLUG_LENGTH + 1 + len(digest)


@pytest.mark.slow
def test_many_or_long_takes_never_give_a_file_name_too_long(tmp_path: Path) -> None:
    cache = fresh(tmp_path)
    takes = ",".join(map(str, range(1, 201)))
    options = ("solve", "subtraction", "--heap", "300", "--takes", takes, "--json")
    run = gametree(cache, *options)
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith("gametree: compiling the subtraction 1,2,3,")
    assert len(run.stderr.splitlines()) == 1
    python = gametree(cache, *options, "--tier", "python")
    assert python.returncode == 0, python.stderr
    compiled_answer, python_answer = answer(run.stdout), answer(python.stdout)
    assert compiled_answer["tier"] == "compiled" and python_answer["tier"] == "python"
    assert compiled_answer["value"] == python_answer["value"]
    assert max(len(path.name.encode()) for path in cache.rglob("*")) < 160
    again = gametree(cache, *options)
    assert (again.returncode, again.stderr) == (0, "")
    # A take larger than any heap can hold is refused with the option, in one line.
    huge = gametree(cache, "solve", "subtraction", "--heap", "30", "--takes", f"1,{10**40}")
    assert huge.returncode == 2 and huge.stdout == ""
    assert len(huge.stderr.splitlines()) == 1 and "argument --takes" in huge.stderr
