"""Compiled code is cached on disk: a second process does not compile again, says nothing
about compiling, and a changed kernel is compiled afresh (never stale machine code).

Each test runs fresh processes against an empty cache directory, so each compiles a small
kernel once or twice (a few seconds each on CI's machine).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gametree.compiled import ONGOING, Kernel
from gametree.compiled.adapter import KernelGame

from .exact import node_value

KERNEL_MODULE = '''
"""A throw-away kernel: a heap of counters, take 1 to {top}; who cannot take loses."""
from gametree.compiled import ONGOING, Kernel


def to_move(state):
    return state[1]


def moves(state, out):
    count = 0
    for take in range(1, {top} + 1):
        if take <= state[0]:
            out[count] = take
            count += 1
    return count


def play(state, move):
    return (state[0] - move, 1 - state[1])


def outcome(state):
    if state[0] > 0:
        return ONGOING
    return -1 if state[1] == 0 else 1


KERNEL = Kernel.from_functions(
    "throw-away take-{top}", initial_state=(10, 0), max_moves={top}, max_plies=64,
    functions={{"to_move": to_move, "moves": moves, "play": play, "outcome": outcome}},
    winner_moves_last=True)
'''

SCRIPT = textwrap.dedent('''
    import sys
    sys.path.insert(0, sys.argv[1])
    from gametree.compiled import CompiledEngine, set_compile_listener
    import heap_kernel
    set_compile_listener(lambda message: print(message, file=sys.stderr))
    engine = CompiledEngine(heap_kernel.KERNEL)
    print(engine.score((int(sys.argv[2]), 0))[0])
    # numba's typing and lowering registries (numpy's functions...): a compile loads them,
    # loading machine code from the cache does not need them (a fifth of a second).
    print("registries" if "numba.np.arraymath" in sys.modules else "no registries")
''')


def run_script(tmp_path: Path, cache: Path, heap: int) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ, GAMETREE_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), str(heap)],
                          capture_output=True, text=True, env=environment, check=True,
                          timeout=600)


def expected_value(module: Path, heap: int) -> str:
    """The value the Python tier gives the heap, from the kernel module's plain functions."""
    spec = importlib.util.spec_from_file_location(f"heap_kernel_{module.stat().st_size}", module)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return str(node_value(KernelGame(loaded.KERNEL), (heap, 0), {}))


@pytest.mark.slow
def test_second_process_loads_from_the_cache_and_a_changed_kernel_recompiles(
        tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    module = tmp_path / "heap_kernel.py"
    module.write_text(KERNEL_MODULE.format(top=3))
    first = run_script(tmp_path, cache, 8)
    assert "compiling the throw-away take-3 kernel" in first.stderr
    assert first.stdout.splitlines() == [expected_value(module, 8), "registries"]
    assert first.stdout.split()[0].startswith("-")  # 8 is a multiple of 4: a loss
    second = run_script(tmp_path, cache, 9)
    assert second.stderr == ""  # loaded from the cache: nothing to announce
    assert second.stdout.splitlines() == [expected_value(module, 9), "no registries"]
    cached = sorted(path.name for path in (cache / "kernels").glob("*.py"))
    assert len(cached) == 1 and list((cache / "kernels" / "__pycache__").glob("*.nbc"))
    # Same file name, new rules: take up to 4. numba alone would keep the old machine code
    # (it only watches the file of the compiled function, not the kernel's); gametree
    # generates a new engine module and compiles it.
    module.write_text(KERNEL_MODULE.format(top=4))
    third = run_script(tmp_path, cache, 8)
    assert "compiling the throw-away take-4 kernel" in third.stderr
    assert third.stdout.splitlines() == [expected_value(module, 8), "registries"]
    assert not third.stdout.startswith("-")  # with takes 1-4, a heap of 8 is won
    assert len(list((cache / "kernels").glob("*.py"))) == 2


MIXED_SCRIPT = textwrap.dedent('''
    import importlib.util, sys
    from gametree.compiled import CompiledEngine

    def kernel(path):
        spec = importlib.util.spec_from_file_location(path.rpartition("/")[2][:-3], path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module.KERNEL

    cached = CompiledEngine(kernel(sys.argv[1]))  # loaded from the cache
    values = [cached.score((heap, 0))[0] for heap in (8, 9)]
    loaded = "numba.np.arraymath" in sys.modules
    fresh = CompiledEngine(kernel(sys.argv[2]))  # compiled in this process afterwards
    values += [fresh.score((heap, 0))[0] for heap in (8, 9)]
    values += [cached.score((heap, 0))[0] for heap in (10, 11)]
    print(*values, loaded)
''')


@pytest.mark.slow
def test_a_process_that_loaded_a_kernel_compiles_another_alike(tmp_path: Path) -> None:
    # A kernel loaded from the cache leaves numba's registries unloaded; a compile later in
    # the same process loads them itself: every value is the Python tier's.
    cache = tmp_path / "cache"
    three, four = tmp_path / "heap_three.py", tmp_path / "heap_four.py"
    three.write_text(KERNEL_MODULE.format(top=3))
    four.write_text(KERNEL_MODULE.format(top=4))
    environment = dict(os.environ, GAMETREE_CACHE_DIR=str(cache))
    warm = ("import sys; sys.path.insert(0, sys.argv[1]); import heap_three; "
            "from gametree.compiled import CompiledEngine; CompiledEngine(heap_three.KERNEL)")
    subprocess.run([sys.executable, "-c", warm, str(tmp_path)], capture_output=True, text=True,
                   env=environment, check=True, timeout=600)
    run = subprocess.run([sys.executable, "-c", MIXED_SCRIPT, str(three), str(four)],
                         capture_output=True, text=True, env=environment, check=True,
                         timeout=600)
    assert "compiling the throw-away take-4 kernel" in run.stderr
    assert "take-3" not in run.stderr
    expected = [expected_value(three, 8), expected_value(three, 9), expected_value(four, 8),
                expected_value(four, 9), expected_value(three, 10), expected_value(three, 11)]
    assert run.stdout.split() == [*expected, "False"]


@pytest.mark.slow
def test_cli_announces_compilation_once(tmp_path: Path) -> None:
    environment = dict(os.environ, GAMETREE_CACHE_DIR=str(tmp_path))
    command = [sys.executable, "-m", "gametree", "solve", "bones", "--heap", "7", "--json"]
    first = subprocess.run(command, capture_output=True, text=True, env=environment,
                           check=True, timeout=600)
    assert first.stderr.startswith("gametree: compiling the bones 1,2,3 kernel")
    assert '"tier": "compiled"' in first.stdout
    second = subprocess.run(command, capture_output=True, text=True, env=environment,
                            check=True, timeout=600)
    assert second.stderr == "" and second.stdout == first.stdout.replace(
        _seconds(first.stdout), _seconds(second.stdout))


def _seconds(document: str) -> str:
    """The ``"seconds": ...`` field of a JSON result (the one part that differs by run)."""
    found = re.search(r'"seconds": [^,}]*', document)
    assert found is not None
    return found.group()


STARTUP_SCRIPT = textwrap.dedent('''
    import importlib.util, sys
    sys.path.insert(0, sys.argv[1])
    from gametree.compiled import CompiledEngine
    from gametree.compiled.startup import without_blas_probe
    import heap_kernel
    with without_blas_probe():
        engine = CompiledEngine(heap_kernel.KERNEL)
    import numba.np.arraymath
    print(engine.score((8, 0))[0], numba.np.arraymath._HAVE_BLAS, "scipy.linalg" in sys.modules)
    if importlib.util.find_spec("scipy") is not None:
        import scipy.linalg  # still importable once the block is over
        print(scipy.linalg.__name__)
''')


@pytest.mark.slow
def test_start_up_without_the_blas_probe_leaves_scipy_importable(tmp_path: Path) -> None:
    module = tmp_path / "heap_kernel.py"
    module.write_text(KERNEL_MODULE.format(top=3))
    environment = dict(os.environ, GAMETREE_CACHE_DIR=str(tmp_path / "cache"))
    run = subprocess.run([sys.executable, "-c", STARTUP_SCRIPT, str(tmp_path)],
                         capture_output=True, text=True, env=environment, check=True,
                         timeout=600)
    lines = run.stdout.split("\n")
    assert lines[0].split() == [expected_value(module, 8), "False", "False"]
    assert lines[1:] in (["scipy.linalg", ""], [""])


WEIGHTS = {"table": (1, 2, 3)}
"""Data computed outside a kernel's file, as Connect Four's weights are in connect4.py."""


def _weighted_rules(jit: Callable[..., Any]) -> dict[str, Any]:
    table = WEIGHTS["table"]

    def to_move(state: Any) -> Any:
        return state[1]

    def moves(state: Any, out: Any) -> Any:
        out[0] = 1
        return 1 if state[0] > 0 else 0

    def play(state: Any, move: int) -> Any:
        return (state[0] - move, 1 - state[1])

    def outcome(state: Any) -> Any:
        return ONGOING if state[0] > 0 else table[state[1]]

    return {name: jit(function) for name, function in [
        ("to_move", to_move), ("moves", moves), ("play", play), ("outcome", outcome)]}


def test_identity_changes_with_the_data_the_rules_capture() -> None:
    def kernel() -> Kernel:
        return Kernel.from_factory("weighted", _weighted_rules, initial_state=(3, 0),
                                   max_moves=1, max_plies=8)

    before, again = kernel().identity(), kernel().identity()
    WEIGHTS["table"] = (1, 5, 3)
    try:
        changed = kernel().identity()
    finally:
        WEIGHTS["table"] = (1, 2, 3)
    assert before is not None and before == again
    assert changed is not None and changed != before  # same sources, other constants


WAITING_SCRIPT = textwrap.dedent('''
    import os, sys, time
    sys.path.insert(0, sys.argv[1])
    from gametree.compiled import CompiledEngine, set_compile_listener
    import heap_kernel
    signals, role, heap = sys.argv[2], sys.argv[3], int(sys.argv[4])

    def signal(name):
        open(os.path.join(signals, name), "w").close()

    def listen(message):
        print(message, file=sys.stderr, flush=True)
        if message.startswith("compiling") and role == "first":
            # Holding the kernel's compile lock: stay here until the test says go.
            signal("first is compiling")
            while not os.path.exists(os.path.join(signals, "go")):
                time.sleep(0.01)
        if message.startswith("waiting"):
            signal("second is waiting")

    set_compile_listener(listen)
    engine = CompiledEngine(heap_kernel.KERNEL)
    print(engine.score((heap, 0))[0])
''')


def _await(signal: Path, process: subprocess.Popen[str]) -> None:
    """Wait until ``process`` has made the file ``signal`` (fail if it ends first)."""
    while not signal.exists():
        assert process.poll() is None, process.communicate()
        time.sleep(0.01)


@pytest.mark.slow
def test_a_process_waits_for_another_ones_compile_then_loads_it(tmp_path: Path) -> None:
    module = tmp_path / "heap_kernel.py"
    module.write_text(KERNEL_MODULE.format(top=3))
    signals = tmp_path / "signals"
    signals.mkdir()
    environment = dict(os.environ, GAMETREE_CACHE_DIR=str(tmp_path / "cache"))

    def start(role: str, heap: int) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-c", WAITING_SCRIPT, str(tmp_path), str(signals), role,
             str(heap)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=environment)

    first = start("first", 8)
    try:
        _await(signals / "first is compiling", first)
        second = start("second", 9)
        try:
            _await(signals / "second is waiting", second)
        finally:
            (signals / "go").touch()
            second_out, second_err = second.communicate(timeout=600)
    finally:
        first_out, first_err = first.communicate(timeout=600)
    assert first.returncode == 0 and second.returncode == 0, first_err + second_err
    assert first_err.startswith("compiling the throw-away take-3 kernel (once; cached in ")
    # The second process said why it paused, compiled nothing, and loaded the first's code.
    assert second_err.splitlines() == [
        "waiting for another process to finish compiling the throw-away take-3 kernel..."]
    assert first_out.split() == [expected_value(module, 8)]
    assert second_out.split() == [expected_value(module, 9)]
    # A kernel in the cache is loaded without checking its rules again (no start-up cost).
    third = subprocess.run([sys.executable, "-c", UNCHECKED + SCRIPT, str(tmp_path), "7"],
                           capture_output=True, text=True, env=environment, check=True,
                           timeout=600)
    assert third.stderr == ""
    assert third.stdout.splitlines() == [expected_value(module, 7), "no registries"]


UNCHECKED = textwrap.dedent('''
    from gametree.compiled import authoring

    def refuse(*arguments):
        raise AssertionError("the rules were checked again")

    authoring.check_python_rules = authoring.check_compiled_rules = refuse
''')
