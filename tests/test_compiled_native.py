"""Cached engines run without numba (gametree.compiled.native): the images numba's saves leave
beside its files, loaded by a process that never imports numba, give the searches numba's
dispatchers give (values, best moves, node counts); images that do not fit this machine or
lack a symbol are not used; an engine called often turns to numba's dispatchers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from gametree.cachedir import cache_directory
from gametree.compiled import CompiledEngine, build, native
from gametree.compiled.cache import kernels_directory, module_name
from gametree.games.connect4_kernel import kernel
from gametree.games.tictactoe import MNKGame
from gametree.solvers.retrograde import solve

from .compiled_support import engine_for

BOARD = (4, 4)

SEARCHES = '''
def searches(make):
    """The searches compared: the 4x4 board and another position (values, node counts, best
    move), and the Game of Bones strong and weak; ``make(kernel)`` gives each engine."""
    from gametree.games.connect4_kernel import kernel
    from gametree.games.subtraction import SubtractionGame

    engine = make(kernel(4, 4))
    engine.new_search()
    batch = engine.solve_many([(0, 0, 0), (2, 3, 2)])
    engine.new_search()
    result = engine.search((0, 0, 0))
    scores = []
    for heap in (7, 8):
        game = SubtractionGame(heap, (1, 2, 3), name="bones")
        form = game.compiled_form()
        bones = make(form.kernel)
        start = form.encode(game.initial_state())
        scores += [bones.score(start)[0], bones.score(start, weak=True)[0]]
    return {"scores": scores, "values": [int(v) for v in batch.values],
            "nodes": [int(n) for n in batch.nodes], "value": result.value,
            "best": result.best_move, "search_nodes": result.stats.nodes}
'''
"""The searches compared, run in a new process (:data:`PROBE`) and in this one
(:func:`through_numba`) alike."""

PROBE = SEARCHES + """
import json, sys
from gametree.compiled.engine import CompiledEngine
from gametree.games.connect4_kernel import kernel
first = CompiledEngine(kernel(4, 4), table_bits=16)
for _ in range(int(sys.argv[1])):
    first.moves((0, 0, 0))
made = {first.kernel.name: first}
answer = searches(lambda kernel: made.get(kernel.name) or CompiledEngine(kernel, table_bits=16))
print(json.dumps({"engine": type(first._module).__name__, "numba": "numba" in sys.modules,
                  "numpy": "numpy" in sys.modules, "llvmlite": "llvmlite" in sys.modules,
                  **answer}))
"""


def probe(calls: int = 0) -> dict[str, Any]:
    """The searches in a new process on the run's cache, after ``calls`` calls."""
    done = subprocess.run([sys.executable, "-c", PROBE, str(calls)], capture_output=True,
                          text=True, timeout=300, env=dict(os.environ), check=False)
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def through_numba() -> dict[str, Any]:
    """The same searches in this process, through numba's dispatchers."""
    def promoted(kernel: Any) -> CompiledEngine:
        engine = engine_for(kernel, table_bits=16)
        if isinstance(engine._module, native.NativeEngine):
            engine._module.promote()
        return engine

    namespace: dict[str, Any] = {}
    exec(SEARCHES, namespace)
    answer: dict[str, Any] = namespace["searches"](promoted)
    scores = answer["scores"]
    assert scores[1] == 1 and scores[3] == -1  # weak: win or loss, not a distance
    return answer


def images() -> list[Path]:
    """The 4x4 kernel's images in the run's cache (compiled by now)."""
    engine_for(kernel(*BOARD), table_bits=16)
    source = build._module_source(build._TEMPLATE, kernel(*BOARD).name,
                                  counted=build.ENGINE_COUNTED)
    identity = build._identity(kernel(*BOARD), source)
    assert identity is not None
    name = module_name(kernel(*BOARD).name, identity)
    folder = kernels_directory(cache_directory()) / "__pycache__"
    return sorted(folder.glob(f"{name}.*{native.SUFFIX}"))


def test_a_new_process_searches_from_the_images_without_numba_or_numpy() -> None:
    expected = through_numba()
    found = probe()
    assert found.pop("engine") == "NativeEngine"
    assert (found.pop("numba"), found.pop("numpy")) == (False, False)
    # Opened as shared libraries, where this machine has a linker: not even llvmlite.
    assert found.pop("llvmlite") is (linker() is None)
    assert found == expected


def test_an_engine_called_often_turns_to_numba_with_the_same_answers() -> None:
    expected = through_numba()
    found = probe(calls=native.PROMOTE_AFTER)
    # Promoted: numba's dispatchers from then on, given numpy's views of the same arrays.
    assert (found.pop("numba"), found.pop("numpy"), found.pop("llvmlite")) == (True,) * 3
    found.pop("engine")
    assert found == expected


def test_every_entry_point_the_engine_calls_has_an_image() -> None:
    entries = {path.name.split(".")[1] for path in images()}
    assert {"search_root", "line", "solve_many", "legal_moves", "play", "status",
            "clock"} <= entries


def linker() -> str | None:
    """The system's linker, which makes the images' shared libraries: on every machine CI
    runs on (Debian's binutils, which gcc brings); elsewhere its tests skip."""
    found = shutil.which("ld")
    if found is None and os.environ.get("CI") == "true":
        pytest.fail("CI's machine has no ld: the images' libraries are not tested")
    return found


def needs_linker() -> None:
    if linker() is None:
        pytest.skip("no linker (ld) on this machine: the images get no shared libraries")


def rewrite(path: Path, target: Path, change: Any) -> None:
    """Copy the image ``path`` to ``target`` with its header changed by ``change``, and its
    shared library beside it (as it was)."""
    header, _, code = path.read_bytes().partition(b"\n")
    document = json.loads(header)
    if document["library"] is not None:
        shutil.copy(path.parent / document["library"]["file"], target.parent)
    change(document)
    target.write_bytes(json.dumps(document).encode() + b"\n" + code)


def on_host(change: Any) -> Any:
    """``change`` to a header's machine, made to its library's host as well: a machine that
    differs in that differs for both ways of loading an image."""
    def both(header: dict[str, Any]) -> None:
        change(header["machine"])
        if header["library"] is not None:
            change(header["library"]["host"])
    return both


@pytest.mark.parametrize("change", [
    pytest.param(lambda header: (header["machine"].update(cpu="another"),
                                 header["library"] and header["library"]["host"].update(
                                     processor="another")), id="another-cpu"),
    pytest.param(on_host(lambda machine: machine.update(python=[3, 0])), id="another-python"),
    pytest.param(on_host(lambda machine: machine["settings"].update(NUMBA_OPT="0")),
                 id="other-numba-settings"),
    pytest.param(lambda header: header["imports"].append("gametree_no_such_symbol"),
                 id="a-missing-symbol"),
    pytest.param(lambda header: header.update(sha256="0" * 64), id="damaged-code"),
    pytest.param(lambda header: header.update(format=native.FORMAT + 1), id="another-format"),
    pytest.param(lambda header: header.pop("machine"), id="a-field-missing"),
])
def test_images_that_do_not_fit_are_not_used(tmp_path: Path, change: Any) -> None:
    for path in images():
        rewrite(path, tmp_path / path.name, change)
    module = images()[0].name.split(".")[0]
    assert native.load(tmp_path, module, lambda: None) is None


def module_of(tmp_path: Path, change: Any = lambda header: None) -> str:
    """The 4x4 kernel's images copied into ``tmp_path`` (their headers changed by ``change``)
    with their libraries; the generated module's name."""
    for path in images():
        rewrite(path, tmp_path / path.name, change)
    return images()[0].name.split(".")[0]


def llvm_spied(monkeypatch: pytest.MonkeyPatch, *, allowed: bool) -> list[str]:
    """Record each use of LLVM by the loader (failing it if not ``allowed``)."""
    used: list[str] = []
    for name in ("_llvm", "_machine"):
        real = getattr(native, name)

        def spy(real: Any = real, name: str = name) -> Any:
            used.append(name)
            assert allowed, f"LLVM asked for ({name}) where a library serves"
            return real()
        monkeypatch.setattr(native, name, spy)
    return used


def test_images_with_libraries_load_without_llvm(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    needs_linker()
    module = module_of(tmp_path)
    assert all(json.loads(path.read_bytes().partition(b"\n")[0])["library"]
               for path in tmp_path.glob(f"*{native.SUFFIX}"))
    through_llvm = native.load(images()[0].parent, module, lambda: None)
    assert through_llvm is not None
    llvm_spied(monkeypatch, allowed=False)
    engine = native.load(tmp_path, module, lambda: None)
    assert engine is not None
    assert engine.status((0, 0, 0)) == (0, -(2**62))
    for move in range(4):
        assert engine.play((0, 0, 0), move) == through_llvm.play((0, 0, 0), move)


def spoil_library(tmp_path: Path, how: str) -> None:
    for library in tmp_path.glob("*.so"):
        if how == "damaged":
            data = bytearray(library.read_bytes())
            data[len(data) // 2] ^= 0xFF
            library.write_bytes(bytes(data))
        else:
            library.unlink()


@pytest.mark.parametrize("spoil", ["damaged", "missing", "another-processor"])
def test_a_library_that_does_not_serve_leaves_its_image_to_llvm(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: str) -> None:
    # LLVM's view of the machine is unchanged: the image itself still fits.
    needs_linker()
    def processor(header: dict[str, Any]) -> None:
        if spoil == "another-processor":
            header["library"]["host"].update(processor="another")

    module = module_of(tmp_path, processor)
    if spoil != "another-processor":
        spoil_library(tmp_path, spoil)
    used = llvm_spied(monkeypatch, allowed=True)
    engine = native.load(tmp_path, module, lambda: None)
    assert engine is not None
    assert engine.status((0, 0, 0)) == (0, -(2**62))
    assert "_llvm" in used and "_machine" in used


def test_images_as_written_load() -> None:
    folder = images()[0].parent
    module = images()[0].name.split(".")[0]
    engine = native.load(folder, module, lambda: None)
    assert engine is not None
    assert engine.R_SIZE > 0
    assert engine.status((0, 0, 0)) == (0, -(2**62))  # first player to move, game on


def test_an_entry_point_is_linked_on_its_first_use() -> None:
    # A solve calls the root search alone: the other images wait until they are called.
    folder = images()[0].parent
    module = images()[0].name.split(".")[0]
    engine = native.load(folder, module, lambda: None)
    assert engine is not None
    assert "search_root" in vars(engine)
    assert "status" not in vars(engine) and "play" not in vars(engine)
    assert engine.play((0, 0, 0), 1) == engine.play((0, 0, 0), 1)
    assert "play" in vars(engine) and "status" not in vars(engine)
    assert engine.status((0, 0, 0)) == (0, -(2**62))
    assert engine.link("status")  # linked already: nothing more to do


def test_an_entry_point_whose_image_does_not_link_goes_through_numba(tmp_path: Path) -> None:
    # The root search links, the status's image lacks a symbol: found out on its first call,
    # which then goes to numba's module (here a stand-in that says it was asked).
    def unlinkable(header: dict[str, Any]) -> None:
        if header["entry"] == "status":
            header["imports"].append("gametree_no_such_symbol")

    for path in images():
        rewrite(path, tmp_path / path.name, unlinkable)
    module = images()[0].name.split(".")[0]
    fallback = types.SimpleNamespace(status=lambda state: ("through numba", state))
    engine = native.load(tmp_path, module, lambda: fallback)
    assert engine is not None
    assert engine.status((0, 0, 0)) == ("through numba", (0, 0, 0))
    assert "status" not in engine.native and "search_root" in engine.native


def test_the_undefined_symbols_of_an_object_file() -> None:
    llvm = native._llvm()
    module = llvm.parse_assembly(
        "declare i64 @gametree_elsewhere(i64)\n"
        "define i64 @here(i64 %x) {\n"
        "  %y = call i64 @gametree_elsewhere(i64 %x)\n"
        "  ret i64 %y\n"
        "}\n")
    machine = llvm.Target.from_default_triple().create_target_machine()
    code = machine.emit_object(module)
    assert native.undefined_symbols(code) == {"gametree_elsewhere"}
    with pytest.raises(ValueError, match="ELF"):
        native.undefined_symbols(b"not an object file")


def test_only_an_engine_gets_images() -> None:
    # The retrograde analysis is another template: it has a function named solve, as the
    # engine has, but it is no engine (nor does numba's save of it fail for the image).
    solve(MNKGame())
    kernels = kernels_directory(cache_directory())
    [module] = [path.stem for path in kernels.glob("*.py")
                if "retrograde analysis" in path.read_text().splitlines()[0]
                and "tic-tac-toe" in path.read_text().splitlines()[0]]
    files = [path.name for path in (kernels / "__pycache__").iterdir()
             if path.name.startswith(f"{module}.")]
    assert any(".solve-" in name for name in files), "the retrograde analysis is cached"
    assert not [name for name in files if name.endswith(native.SUFFIX)]


THREADED = """
import json, sys
from gametree.games.connect4_kernel import kernel
from gametree.compiled.engine import CompiledEngine
engine = CompiledEngine(kernel(5, 4), table_bits=16, threads=2)
result = engine.search((0, 0, 0))
print(json.dumps({"numba": "numba" in sys.modules, "numpy": "numpy" in sys.modules,
                  "value": result.value, "best": result.best_move}))
"""


def test_a_threaded_solve_runs_from_the_images_without_numba_or_numpy() -> None:
    one = CompiledEngine(kernel(5, 4), table_bits=16, threads=2)
    one._load_threads()  # compiled (and saved, with images) if the cache lacks them
    alone = engine_for(kernel(5, 4), table_bits=16)
    alone.new_search()
    expected = alone.search((0, 0, 0))
    done = subprocess.run([sys.executable, "-c", THREADED], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ), check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"numba": False, "numpy": False,
                                       "value": expected.value, "best": expected.best_move}


def test_an_object_file_that_is_not_elf_gets_no_image(tmp_path: Path) -> None:
    # macOS and Windows objects: the images are for Linux's alone (numba's save goes on).
    from numba.core import types  # noqa: PLC0415 - numba, as where numba saves

    native.export(tmp_path, "module", "clock", argument_types=(), return_type=types.int64,
                  symbol="clock", code=b"\xcf\xfa\xed\xfe" + bytes(64),
                  constants={"R_SIZE": 1}, nogil=False)
    assert list(tmp_path.iterdir()) == []


CACHED_ONCE_LOADED = """
import json, os, sys, tempfile
from gametree.compiled import build
from gametree.cachedir import CACHE_ENV
from gametree.compiled.engine import CompiledEngine
from gametree.games.connect4_kernel import kernel
engine = CompiledEngine(kernel(4, 4), table_bits=16)
loaded = type(engine._module).__name__
os.environ[CACHE_ENV] = tempfile.mkdtemp()  # a cache that holds nothing
print(json.dumps({"engine": loaded, "cached": build.engine_cached(kernel(4, 4))}))
"""


def test_an_engine_loaded_from_its_images_counts_as_cached_whatever_the_cache_holds() -> None:
    # A server asks engine_cached before a search: an engine this process has from its
    # images needs no compile, even when the cache it came from is gone or another is set.
    images()  # compiled, with images, in the run's cache
    done = subprocess.run([sys.executable, "-c", CACHED_ONCE_LOADED], capture_output=True,
                          text=True, timeout=300, env=dict(os.environ), check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"engine": "NativeEngine", "cached": True}
