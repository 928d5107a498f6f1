"""Mistakes in a kernel's rules end in one KernelError that names the rule and the fix, before
(or instead of) numba's long traceback; the compile notice comes before anything compiles.

Each kernel here is a throw-away variant of the Game of Bones (a heap, take 1 to 3, whoever
cannot take loses) with one rule broken. Mistakes the plain Python rules show on the initial
state cost no compiling; the others compile a rule or two (a fraction of a second each).
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FunctionType
from typing import Any

import numba
import numpy as np
import pytest

from gametree.compiled import (
    ONGOING,
    CompiledEngine,
    Kernel,
    KernelError,
    authoring,
    plain,
    set_compile_listener,
)
from gametree.compiled.adapter import KernelGame
from gametree.registry import GameSpec, games

from . import compiled_support
from .cli_support import run
from .exact import node_value


def to_move(state: Any) -> Any:
    return state[1]


def moves(state: Any, out: Any) -> Any:
    count = 0
    for take in (1, 2, 3):
        if take <= state[0]:
            out[count] = take
            count += 1
    return count


def play(state: Any, move: Any) -> Any:
    return (state[0] - move, 1 - state[1])


def outcome(state: Any) -> Any:
    if state[0] > 0:
        return ONGOING
    return -1 if state[1] == 0 else 1


RULES: dict[str, Callable[..., Any]] = {
    "to_move": to_move, "moves": moves, "play": play, "outcome": outcome}


def helper(heap: Any) -> Any:
    """A plain helper: fine in Python, unknown to numba."""
    return heap - 1


def play_with_plain_helper(state: Any, move: Any) -> Any:
    return (helper(state[0]) - move + 1, 1 - state[1])


def moves_without_return(state: Any, out: Any) -> Any:
    count = 0
    for take in (1, 2, 3):
        if take <= state[0]:
            out[count] = take
            count += 1


def outcome_falling_off_the_end(state: Any) -> Any:
    if state[0] > 0:
        return ONGOING
    if state[1] == 0:
        return -1


def moves_without_out(state: Any) -> Any:
    return 0


def play_without_move(state: Any) -> Any:
    return state


def play_adding_text(state: Any, move: Any) -> Any:
    return (state[0] - move + "1", 1 - state[1])


def play_growing_the_state(state: Any, move: Any) -> Any:
    return (state[0] - move, 1 - state[1], 0)


def moves_overflowing(state: Any, out: Any) -> Any:
    count = 0
    for take in (1, 2, 3, 4):
        out[count] = take
        count += 1
    return count


TAKES = [1, 2, 3]


def moves_from_a_list(state: Any, out: Any) -> Any:
    count = 0
    for take in TAKES:
        if take <= state[0]:
            out[count] = take
            count += 1
    return count


def bones(name: str, **changed: Callable[..., Any]) -> Kernel:
    """The Game of Bones from plain functions, with some rules replaced."""
    return Kernel.from_functions(f"broken bones {name}", initial_state=(10, 0), max_moves=3,
                                 max_plies=64, functions=dict(RULES, **changed),
                                 winner_moves_last=True)


def bones_rules(*, jit: Callable[..., Any] = plain, forget: bool = False,
                inline: bool = False) -> dict[str, Any]:
    """A rules factory; with ``forget`` its helper is not decorated with ``jit``; with
    ``inline`` its helper and moves are given numba's options first, as a factory marks the
    functions the search calls for every move (connect4_kernel does)."""
    marked: Callable[..., Any] = jit(inline="always") if inline else jit

    def fits(take: int, heap: int) -> bool:
        return take <= heap

    if not forget:
        fits = marked(fits)

    @marked
    def factory_moves(state: Any, out: Any) -> Any:
        count = 0
        for take in (1, 2, 3):
            if fits(take, state[0]):
                out[count] = take
                count += 1
        return count

    return {"to_move": jit(to_move), "moves": factory_moves, "play": jit(play),
            "outcome": jit(outcome)}


@pytest.fixture(autouse=True)
def notices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The compile listener's messages; each test has its own empty cache."""
    monkeypatch.setenv("GAMETREE_CACHE_DIR", str(tmp_path / "cache"))
    heard: list[str] = []
    set_compile_listener(heard.append)
    yield heard
    set_compile_listener(None)


def error_of(kernel: Kernel) -> str:
    """The one-line message of the KernelError that building the kernel's engine raises."""
    with pytest.raises(KernelError) as raised:
        CompiledEngine(kernel, table_bits=8)
    message = str(raised.value)
    assert "\n" not in message
    assert raised.value.__suppress_context__ or raised.value.__context__ is None
    return message


def cached_files(tmp_path: Path) -> list[str]:
    kernels = tmp_path / "cache" / "kernels"
    return sorted(path.name for path in kernels.rglob("*")) if kernels.exists() else []


# -- mistakes the plain rules show at once (nothing is compiled, nothing announced) ------------


def test_a_rule_that_returns_none(notices: list[str], tmp_path: Path) -> None:
    message = error_of(bones("none", moves=moves_without_return))
    assert message.startswith("kernel broken bones none: the rule moves returned None on the "
                              "initial state (10, 0): it must write the legal moves into out[0]")
    assert "is a return statement missing?" in message
    assert "(test_compiled_authoring.py, line " in message
    assert notices == []  # found before anything was compiled or announced
    assert cached_files(tmp_path) == []


@pytest.mark.parametrize(("rule", "function", "wanted", "mine"), [
    ("moves", moves_without_out, "(state, out)", "(state)"),
    ("play", play_without_move, "(state, move)", "(state)"),
])
def test_a_rule_with_the_wrong_parameters(notices: list[str], rule: str,
                                          function: FunctionType, wanted: str,
                                          mine: str) -> None:
    message = error_of(bones(f"{rule} parameters", **{rule: function}))
    assert message.startswith(f"kernel broken bones {rule} parameters: the rule {rule} must "
                              f"take {wanted}, yours takes {mine}: {rule} must ")
    line = function.__code__.co_firstlineno
    assert message.endswith(f"(test_compiled_authoring.py, line {line})")
    assert notices == []


def test_wrong_values_on_the_initial_state() -> None:
    assert "the rule to_move returned 2 on the initial state (10, 0): it must return the " \
           "player to move, 0 or 1" in error_of(bones("mover", to_move=lambda state: 2))
    assert "the rule play returned (9, 1, 0) on the initial state (10, 0): it must return " \
           "the state after the move, a tuple of 2 integers like the initial state" in \
           error_of(bones("shape", play=play_growing_the_state))
    assert "the rule evaluate returned 0.5 on the initial state" in error_of(
        bones("evaluate", evaluate=lambda state: 0.5))


def test_a_rule_that_fails_in_python_says_where() -> None:
    message = error_of(bones("overflow", moves=moves_overflowing))
    line = moves_overflowing.__code__.co_firstlineno + 3  # out[count] = take
    assert message == (
        "kernel broken bones overflow: the rule moves failed on the initial state (10, 0) "
        "with IndexError: index 3 is out of bounds for axis 0 with size 3 "
        f"(test_compiled_authoring.py, line {line}); out has max_moves = 3 slots: is max_moves "
        "large enough?")
    assert "TypeError: unsupported operand" in error_of(bones("text", play=play_adding_text))


# -- mistakes only numba finds: each rule compiled alone -------------------------------------


def test_a_rule_calling_a_plain_helper(notices: list[str], tmp_path: Path) -> None:
    message = error_of(bones("helper", play=play_with_plain_helper))
    line = play_with_plain_helper.__code__.co_firstlineno + 1
    assert message == (
        "kernel broken bones helper: the rule play calls helper, a plain Python function that "
        "is not compiled: decorate helper with @numba.njit "
        f"(test_compiled_authoring.py, line {line})")
    # The notice came first (compiling had started), and the failed kernel left nothing.
    assert len(notices) == 1 and notices[0].startswith("compiling the broken bones helper")
    assert cached_files(tmp_path) == []


def play_with_a_module_helper(state: Any, move: Any) -> Any:
    return (compiled_support.heap_after(state[0], move), 1 - state[1])


def test_a_rule_calling_a_plain_helper_of_a_module() -> None:
    message = error_of(bones("module helper", play=play_with_a_module_helper))
    line = play_with_a_module_helper.__code__.co_firstlineno + 1
    assert message == (
        "kernel broken bones module helper: the rule play calls tests.compiled_support."
        "heap_after, a plain Python function that is not compiled: decorate heap_after with "
        f"@numba.njit in tests.compiled_support (test_compiled_authoring.py, line {line})")


def test_a_factory_helper_without_jit() -> None:
    kernel = Kernel.from_factory("broken bones factory", bones_rules, initial_state=(10, 0),
                                 max_moves=3, max_plies=64, parameters={"forget": True})
    message = error_of(kernel)
    assert message.startswith("kernel broken bones factory: the rule moves calls fits, a plain "
                              "Python function that is not compiled: decorate fits with @jit "
                              "(the rules factory's jit argument), as the rules are (")


def test_a_compiled_rule_that_returns_none() -> None:
    message = error_of(bones("compiled none", moves=numba.njit(moves_without_return)))
    assert message.startswith("kernel broken bones compiled none: the rule moves never returns "
                              "a value (None): it must write the legal moves into out[0], ")
    assert "is a return statement missing?" in message


def test_a_rule_that_returns_none_on_some_path() -> None:
    # The initial state is not finished, so only the compiled type shows the missing return.
    message = error_of(bones("path", outcome=outcome_falling_off_the_end))
    line = outcome_falling_off_the_end.__code__.co_firstlineno
    assert message == (
        "kernel broken bones path: the rule outcome returns None on some path (one that ends "
        "without a return statement): it must return ONGOING while the game goes on, else the "
        "result for player 0 (+1, -1 or 0) on every path "
        f"(test_compiled_authoring.py, line {line})")


def test_other_typing_errors_name_the_rule_with_numbas_first_line() -> None:
    message = error_of(bones("typing", play=numba.njit(play_adding_text)))
    line = play_adding_text.__code__.co_firstlineno + 1
    assert message.startswith("kernel broken bones typing: the rule play cannot be compiled: "
                              "No implementation of function Function(<built-in function add>) "
                              "found for signature: add(int64, ")
    assert message.endswith(f"(test_compiled_authoring.py, line {line})")
    shape = error_of(bones("compiled shape", play=numba.njit(play_growing_the_state)))
    assert "the rule play returns Tuple(int64, int64, " in shape
    assert "it must return the state after the move, a tuple of 2 integers" in shape


def moves_from_a_new_array(state: Any, out: Any) -> Any:
    takes = np.arange(1, 4)
    count = 0
    for take in takes:
        if take <= state[0]:
            out[count] = take
            count += 1
    return count


def test_a_rule_that_allocates() -> None:
    # The engine's rules are compiled without numba's reference counting: the search never
    # allocates. An array made inside a rule is refused by name, not with numba's complaint.
    message = error_of(bones("allocating", moves=moves_from_a_new_array))
    line = moves_from_a_new_array.__code__.co_firstlineno
    assert message == (
        "kernel broken bones allocating: the rule moves allocates memory (it makes a numpy "
        "array, a list or a string while it runs), which the compiled engine does not allow: "
        "it compiles the rules without numba's reference counting, as it searches without "
        "allocating; write into the buffer it passes (out) or use tuples "
        f"(test_compiled_authoring.py, line {line})")


def test_a_rule_reading_a_list() -> None:
    message = error_of(bones("list", moves=moves_from_a_list))
    assert message.startswith("kernel broken bones list: the rule moves reads TAKES, a list, "
                              "which compiled code cannot use: make it a tuple")


# -- a right kernel ------------------------------------------------------------------------


@pytest.mark.slow
def test_a_right_kernel_compiles_after_one_notice(notices: list[str], tmp_path: Path) -> None:
    kernel = Kernel.from_factory("right bones", bones_rules, initial_state=(10, 0),
                                 max_moves=3, max_plies=64, winner_moves_last=True)
    engine = CompiledEngine(kernel, table_bits=8)
    cache = tmp_path / "cache"
    assert notices == [f"compiling the right bones kernel (once; cached in {cache})..."]
    for heap in range(9):
        assert engine.score((heap, 0))[0] == node_value(KernelGame(kernel), (heap, 0), {})


def test_a_factory_may_give_numbas_options_first() -> None:
    # plain ignores them; the engine's jit hands them to numba, whose search is then right.
    kernel = Kernel.from_factory("inlined bones", bones_rules, initial_state=(10, 0),
                                 max_moves=3, max_plies=64, parameters={"inline": True},
                                 winner_moves_last=True)
    assert plain(inline="always") is plain
    python_moves = kernel.python_rules()["moves"]
    assert not hasattr(python_moves, "targetoptions")
    engine = CompiledEngine(kernel, table_bits=8)
    assert engine._module.k_moves.targetoptions["inline"] == "always"
    for heap in range(9):
        assert engine.score((heap, 0))[0] == node_value(KernelGame(kernel), (heap, 0), {})


def test_the_command_line_says_it_in_one_line(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    game = KernelGame(bones("cli", play=play_with_plain_helper))
    monkeypatch.setitem(games(), "broken-bones", GameSpec(
        name="broken-bones", summary="bones with a broken play", notation="bones to take",
        build=lambda: game))
    status, out, err = run(capsys, "solve", "broken-bones", "--tier", "compiled")
    assert status == 2 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith("gametree: compiling the broken bones cli kernel")
    assert lines[1:] == [
        "gametree solve: error: kernel broken bones cli: the rule play calls helper, a plain "
        "Python function that is not compiled: decorate helper with @numba.njit "
        f"(test_compiled_authoring.py, line {play_with_plain_helper.__code__.co_firstlineno + 1})"]


def test_what_escapes_the_rule_checks_still_names_the_rule(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the rule-by-rule compile, numba meets the helper while compiling the engine.
    monkeypatch.setattr(authoring, "check_compiled_rules", lambda kernel, bound: None)
    message = error_of(bones("escaped", play=play_with_plain_helper))
    assert message.startswith("kernel broken bones escaped: the rule play calls helper, a plain "
                              "Python function that is not compiled: decorate helper with ")


def test_an_uncached_kernel_that_fails_leaves_no_temporary_directory(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(Kernel, "identity", lambda self: None)  # as if typed at the prompt
    monkeypatch.setenv("TMPDIR", str(tmp_path / "temporary"))
    (tmp_path / "temporary").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    message = error_of(bones("uncached", play=play_with_plain_helper))
    assert "the rule play calls helper" in message
    assert list((tmp_path / "temporary").iterdir()) == []


def test_a_compile_is_logged_before_it_starts(caplog: pytest.LogCaptureFixture) -> None:
    # Without a front-end listening (a program calling check_game or search), the notice is a
    # warning of the gametree.compiled logger, which Python prints by default; with one (the
    # command line prints it), information.
    from gametree.compiled import build  # noqa: PLC0415

    heard: list[str] = []
    caplog.set_level(logging.INFO, logger="gametree.compiled")
    build.set_compile_listener(None)
    try:
        build.notify("compiling the test kernel (once)...")
        build.set_compile_listener(heard.append)
        build.notify("compiling the test kernel again...")
    finally:
        build.set_compile_listener(None)
    assert [(record.levelno, record.getMessage()) for record in caplog.records] == [
        (logging.WARNING, "gametree: compiling the test kernel (once)..."),
        (logging.INFO, "gametree: compiling the test kernel again...")]
    assert heard == ["compiling the test kernel again..."]
