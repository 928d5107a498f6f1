"""The cache as files: ``gametree cache info`` and ``gametree cache clear``, and the lock that
lets one process compile a kernel while the others wait.

Most tests lay out cache files by hand (no compiling); one compiles a tiny kernel to see a real
entry listed and cleared.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gametree.compiled import ONGOING, CompiledEngine, Kernel
from gametree.compiled.cache import CompileLock, header, kernels_directory
from gametree.compiled.cache_contents import cache_info, clear_cache, format_size

from .cli_support import run

MODULE = "_gametree_engine_toy_0123456789abcdef"
OTHER = "_gametree_engine_toy_2_fedcba9876543210"


def lay_out(cache: Path, module: str, name: str, *, ready: bool, machine_code: int) -> int:
    """A cached kernel's files, by hand: the generated module, its marker and numba's files
    (``machine_code`` bytes). Returns the bytes written."""
    kernels = kernels_directory(cache)
    (kernels / "__pycache__").mkdir(parents=True, exist_ok=True)
    written = 0
    source = kernels / f"{module}.py"
    source.write_text(header(name) + "# the engine\n", encoding="utf-8")
    written += source.stat().st_size
    if ready:
        (kernels / f"{module}.ready").write_text("")
    for suffix, size in ((".negamax-10.py311.nbi", 100), (".negamax-10.py311.1.nbc",
                                                          machine_code)):
        (kernels / "__pycache__" / f"{module}{suffix}").write_bytes(b"x" * size)
        written += size
    return written


def test_info_and_clear_when_there_is_no_cache(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "never made"
    monkeypatch.setenv("GAMETREE_CACHE_DIR", str(cache))
    assert run(capsys, "cache", "info") == (
        0, f"cache directory: {cache}\nno compiled kernels\n", "")
    status, out, _ = run(capsys, "cache", "info", "--json")
    assert status == 0 and json.loads(out) == {"directory": str(cache), "kernels": [],
                                               "total_bytes": 0}
    assert run(capsys, "cache", "clear") == (
        0, f"nothing to remove: no compiled kernels in {cache}\n", "")
    assert not cache.exists()  # clearing made nothing


def test_info_lists_each_kernel_with_its_state_and_size(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMETREE_CACHE_DIR", str(tmp_path))
    first = lay_out(tmp_path, MODULE, "toy 'quoted', misère", ready=True, machine_code=3000)
    second = lay_out(tmp_path, OTHER, "Another toy", ready=False, machine_code=40)
    status, out, _ = run(capsys, "cache", "info", "--json")
    assert status == 0
    document = json.loads(out)
    assert document == {"directory": str(tmp_path), "total_bytes": first + second, "kernels": [
        {"name": "Another toy", "module": OTHER, "ready": False, "bytes": second, "files": 3},
        {"name": "toy 'quoted', misère", "module": MODULE, "ready": True, "bytes": first,
         "files": 4},
    ]}
    status, out, _ = run(capsys, "cache", "info")
    assert status == 0
    assert out.splitlines() == [
        f"cache directory: {tmp_path}",
        "kernel                status      size",
        f"Another toy           incomplete  {format_size(second)}",
        f"toy 'quoted', misère  ready       {format_size(first)}",
        f"total: 2 compiled kernels, {format_size(first + second)}",
        "(incomplete: being compiled now, or its compile was interrupted; the next use "
        "completes it)",
    ]


def test_info_lists_a_kernel_once_with_its_variants(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Three variants of one kernel (its source changed twice), one of them incomplete.
    monkeypatch.setenv("GAMETREE_CACHE_DIR", str(tmp_path))
    sizes = [lay_out(tmp_path, f"_gametree_engine_toy_{digest}", "toy", ready=ready,
                     machine_code=1000)
             for digest, ready in (("0123456789abcdef", True), ("fedcba9876543210", True),
                                   ("00112233445566ff", False))]
    other = lay_out(tmp_path, OTHER, "Another toy", ready=True, machine_code=40)
    status, out, _ = run(capsys, "cache", "info")
    assert status == 0
    assert out.splitlines() == [
        f"cache directory: {tmp_path}",
        "kernel            status        size",
        f"Another toy       ready         {format_size(other)}",
        f"toy (3 variants)  1 incomplete  {format_size(sum(sizes))}",
        f"total: 2 kernels in 4 compiled variants, {format_size(sum(sizes) + other)}",
        "(variants: a kernel compiled again after its source, its parameters or numba "
        "changed; the older ones stay until 'gametree cache clear')",
        "(incomplete: being compiled now, or its compile was interrupted; the next use "
        "completes it)",
    ]


def test_clear_deletes_the_kernels_and_nothing_else(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMETREE_CACHE_DIR", str(tmp_path))
    freed = lay_out(tmp_path, MODULE, "toy", ready=True, machine_code=5000)
    freed += lay_out(tmp_path, OTHER, "toy 2", ready=True, machine_code=10)
    kernels = kernels_directory(tmp_path)
    keep = [tmp_path / "notes.txt", kernels / "README", kernels / "__pycache__" / "other.pyc",
            tmp_path.parent / f"{MODULE}.py"]
    for path in keep:
        path.write_text("not gametree's")
    status, out, _ = run(capsys, "cache", "clear")
    assert status == 0
    assert out == f"removed 2 compiled kernels ({format_size(freed)}) from {kernels}\n"
    assert all(path.read_text() == "not gametree's" for path in keep)
    assert sorted(path.name for path in kernels.rglob("*")) == ["README", "__pycache__",
                                                                 "other.pyc"]
    for path in keep[1:3]:
        path.unlink()
    lay_out(tmp_path, MODULE, "toy", ready=False, machine_code=1)
    run(capsys, "cache", "clear")
    assert not kernels.exists() and (tmp_path / "notes.txt").exists()  # emptied: removed


def test_clear_leaves_a_kernel_that_is_being_compiled(tmp_path: Path) -> None:
    lay_out(tmp_path, MODULE, "toy", ready=False, machine_code=10)
    lay_out(tmp_path, OTHER, "toy 2", ready=True, machine_code=10)
    compiling = CompileLock(kernels_directory(tmp_path) / f"{MODULE}.lock")
    assert compiling.acquire(blocking=False)
    try:
        cleared = clear_cache(tmp_path)
    finally:
        compiling.release()
    assert [kernel.name for kernel in cleared.busy] == ["toy"]
    assert [kernel.name for kernel in cleared.removed] == ["toy 2"]
    assert [kernel.name for kernel in cache_info(tmp_path).kernels] == ["toy"]


def test_clear_reports_files_it_cannot_delete(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMETREE_CACHE_DIR", str(tmp_path))
    lay_out(tmp_path, MODULE, "toy", ready=True, machine_code=10)
    unlink = Path.unlink

    def refusing(path: Path, missing_ok: bool = False) -> None:
        if path.suffix == ".nbc":
            raise PermissionError(13, "Permission denied", str(path))
        unlink(path, missing_ok)

    monkeypatch.setattr(Path, "unlink", refusing)
    status, out, err = run(capsys, "cache", "clear")
    assert status == 1 and err == ""
    nbc = kernels_directory(tmp_path) / "__pycache__" / f"{MODULE}.negamax-10.py311.1.nbc"
    assert out.splitlines() == [f"removed nothing from {kernels_directory(tmp_path)}",
                                f"could not remove {nbc}: Permission denied"]
    assert [path.name for path in kernels_directory(tmp_path).rglob("*")] == [
        "__pycache__", nbc.name]


def test_the_cache_commands_do_not_import_numba(tmp_path: Path) -> None:
    script = ("import sys\nfrom gametree.cli import main\n"
              "main(['cache', 'info']); main(['cache', 'clear'])\n"
              "print('numba' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=dict(os.environ, GAMETREE_CACHE_DIR=str(tmp_path)), check=True,
                          timeout=120)
    assert done.stdout.splitlines()[-1] == "False"


def _tiny_rules(*, jit: Callable[..., Any]) -> dict[str, Any]:
    """A game of four forced moves, ending in a draw."""

    @jit
    def to_move(state: Any) -> Any:
        return state & 1

    @jit
    def moves(state: Any, out: Any) -> Any:
        out[0] = 1
        return 1

    @jit
    def play(state: Any, move: Any) -> Any:
        return state + move

    @jit
    def outcome(state: Any) -> Any:
        return ONGOING if state < 4 else 0

    return {"to_move": to_move, "moves": moves, "play": play, "outcome": outcome}


@pytest.mark.slow
def test_a_compiled_kernel_is_listed_and_cleared(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMETREE_CACHE_DIR", str(tmp_path))
    kernel = Kernel.from_factory("tiny listed", _tiny_rules, initial_state=0, max_moves=1,
                                 max_plies=8)
    assert CompiledEngine(kernel, table_bits=8).score(0)[0] == 0
    [listed] = cache_info(tmp_path).kernels
    assert listed.name == "tiny listed" and listed.ready
    assert any(path.suffix == ".nbc" for path in listed.files)
    cleared = clear_cache(tmp_path)
    assert cleared.removed == (listed,) and cleared.freed == listed.size > 0
    assert not kernels_directory(tmp_path).exists()


# -- the lock ------------------------------------------------------------------------------

HOLDER = textwrap.dedent('''
    import sys, time
    from pathlib import Path
    from gametree.compiled.cache import CompileLock
    lock = CompileLock(Path(sys.argv[1]))
    assert lock.acquire(blocking=False)
    print("held", flush=True)
    time.sleep(600)
''')


def test_the_lock_excludes_other_processes_until_its_holder_dies(tmp_path: Path) -> None:
    path = tmp_path / "kernel.lock"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        mine = CompileLock(path)
        assert not mine.acquire(blocking=False)
        waits: list[str] = []
        assert not mine.acquire(limit=0.05, on_wait=lambda: waits.append("waiting"))
        assert waits == ["waiting"] and not mine.held
    finally:
        holder.send_signal(signal.SIGKILL)  # dies holding it: the system lets go
        holder.wait(timeout=60)
    assert mine.acquire(limit=60)
    mine.release()
    mine.release()  # idempotent


def test_a_lock_whose_file_was_deleted_excludes_nobody(tmp_path: Path) -> None:
    path = tmp_path / "kernel.lock"
    first = CompileLock(path)
    assert first.acquire(blocking=False)
    path.unlink()  # what `gametree cache clear` does, holding the lock
    second = CompileLock(path)
    assert second.acquire(blocking=False)  # locks the new file, not the deleted one
    third = CompileLock(path)
    assert not third.acquire(blocking=False)
    for lock in (first, second):
        lock.release()
    assert third.acquire(blocking=False)
    third.release()
