"""gametree.check_game and ``gametree check``: every built-in game passes, and each kind of
broken game is caught with a problem that names the method at fault."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, cast

import pytest

from gametree import CheckReport, Game, GameTree, IllegalMoveError, check_game
from gametree.check import CHECKS, Finding
from gametree.compiled import ONGOING, Kernel, KernelGame
from gametree.compiled.form import CompiledForm, NotACompiledFormError, compiled_form_of
from gametree.compiled.kernel import SEVERAL_REPLIES
from gametree.games import connect4_kernel
from gametree.games.connect4 import ConnectFour
from gametree.games.tictactoe import MNKGame
from gametree.registry import GameSpec, games, make
from gametree.values import Value

from .cli_support import run

HeapState = tuple[int, int]


class Heap(Game[HeapState, int]):
    """A well-behaved base: a heap of counters, take 1, 2 or 3; who cannot take loses."""

    name = "heap"

    def __init__(self, heap: int = 7) -> None:
        self.heap = heap

    def initial_state(self) -> Any:
        return (self.heap, 0)

    def to_move(self, state: Any) -> int:
        return int(state[1])

    def moves(self, state: Any) -> Sequence[int]:
        return [take for take in (1, 2, 3) if take <= state[0]]

    def play(self, state: Any, move: int) -> Any:
        return (state[0] - move, 1 - state[1])

    def outcome(self, state: Any) -> Value | None:
        if state[0] > 0:
            return None
        return -1 if state[1] == 0 else 1


def problems(report: CheckReport, check: str | None = None) -> list[Finding]:
    """The report's findings (of one check)."""
    return [finding for finding in report.findings if check is None or finding.check == check]


def only_problem(report: CheckReport) -> Finding:
    """The one finding of a report that must have exactly one."""
    assert len(report.findings) == 1, report.text()
    return report.findings[0]


def status_of(report: CheckReport, check: str) -> str:
    return next(summary.status for summary in report.checks if summary.name == check)


# -- the built-in games pass -------------------------------------------------------------------


BUILT_IN_OPTIONS: dict[str, dict[str, Any]] = {"tree": {"leaves": "3 5 2 9 12 5 23 23"}}
"""Options for the built-in games that have no default (a tree needs its leaves)."""


BUILT_IN_PLAYOUTS: dict[str, int] = {"chess": 2}
"""Fewer playouts for games whose random games are long: a random game of chess has hundreds
of plies, and each of their thirty-odd moves is played and written (slow-marked: seconds)."""


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.slow) if name in BUILT_IN_PLAYOUTS else name
    for name in games()])
def test_every_built_in_game_passes(name: str) -> None:
    game = make(name, **BUILT_IN_OPTIONS.get(name, {}))
    report = check_game(game, playouts=BUILT_IN_PLAYOUTS.get(name, 40), compiled=False)
    assert report.passed, report.text()
    assert report.states > 1 and report.moves > 0
    assert [summary.name for summary in report.checks] == list(CHECKS)
    assert status_of(report, "players") == "ok"
    assert status_of(report, "values") == "skip"


@pytest.mark.parametrize("game", [
    MNKGame(),
    # ~60 s of processor time beyond its kernel's compile (the Python tier's exact 4x4 values):
    # in the whole suite only; tic-tac-toe checks the same code in the core.
    pytest.param(ConnectFour(4, 4), marks=pytest.mark.slow)], ids=["tictactoe", "connect4-4x4"])
def test_kernel_agrees_with_its_game_on_both_tiers(game: Game[Any, Any]) -> None:
    report = check_game(game, playouts=30, searches=4)
    assert report.passed, report.text()
    assert status_of(report, "kernel") == "ok" and status_of(report, "values") == "ok"
    values = next(summary for summary in report.checks if summary.name == "values")
    assert "4 depth-2 searches" in values.summary


def test_same_seed_same_report_and_another_seed_other_playouts() -> None:
    first = check_game(MNKGame(), seed=5, playouts=20, compiled=False)
    assert first.to_dict() == check_game(MNKGame(), seed=5, playouts=20, compiled=False).to_dict()
    other = check_game(MNKGame(), seed=6, playouts=20, compiled=False)
    assert other.states != first.states


def test_a_tree_may_have_horizons_a_real_game_may_not() -> None:
    tree = GameTree.from_leaves("3 5 2 9")
    report = check_game(tree, playouts=10)
    assert report.passed and any("horizons" in note for note in report.notes)
    assert status_of(report, "kernel") == "skip"

    class Horizon(Heap):
        def outcome(self, state: Any) -> Value | None:
            return None  # forgot the end: heap 0 has no moves and no result

    finding = only_problem(check_game(Horizon(), playouts=10))
    assert (finding.check, finding.method) == ("moves", "outcome")
    assert "without moves" in finding.message and finding.state is not None
    assert check_game(Horizon(), playouts=10, horizons=True).passed
    assert not check_game(tree, playouts=10, horizons=False).passed


class LongHeap(Heap):
    """Takes of 1 or 2 from a heap of 2000, the last move kept in the state, so that states
    share keys: games deeper than Python's recursion limit lets the reference search go."""

    def __init__(self) -> None:
        super().__init__(2000)

    def initial_state(self) -> Any:
        return (self.heap, 0, 0)

    def moves(self, state: Any) -> Sequence[int]:
        return [take for take in (1, 2) if take <= state[0]]

    def play(self, state: Any, move: int) -> Any:
        return (state[0] - move, 1 - state[1], move)

    def key(self, state: Any) -> Any:
        return state[:2]


def test_a_game_too_deep_to_search_exactly_is_compared_at_a_depth() -> None:
    report = check_game(LongHeap(), playouts=3, max_plies=3000)
    assert report.passed, report.text()
    key = next(summary for summary in report.checks if summary.name == "key")
    assert "0 exact and " in key.summary and "0 depth-2" not in key.summary


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="playouts"):
        check_game(Heap(), playouts=0)
    with pytest.raises(ValueError, match="max_plies"):
        check_game(Heap(), max_plies=True)


# -- each broken game is caught ----------------------------------------------------------------


class PlayersOneAndTwo(Heap):
    def to_move(self, state: Any) -> int:
        return int(state[1]) + 1


class BoolPlayers(Heap):
    def to_move(self, state: Any) -> int:
        return bool(state[1])


class ListStates(Heap):
    def initial_state(self) -> Any:
        return [self.heap, 0]

    def play(self, state: Any, move: int) -> Any:
        return [state[0] - move, 1 - state[1]]


class Counters:
    """A hashable but mutable state (what a game should never hand out)."""

    def __init__(self, heap: int, player: int) -> None:
        self.heap, self.player = heap, player

    def __getitem__(self, index: int) -> int:
        return (self.heap, self.player)[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counters) and (self.heap, self.player) == (other.heap,
                                                                            other.player)

    def __hash__(self) -> int:
        return hash((self.heap, self.player))

    def __repr__(self) -> str:
        return f"Counters({self.heap}, {self.player})"


class MutatingPlay(Heap):
    def initial_state(self) -> Any:
        return Counters(self.heap, 0)

    def play(self, state: Any, move: int) -> Any:
        state.heap -= move  # changes the state it was given
        state.player = 1 - state.player
        return Counters(state.heap, state.player)


class RandomPlay(Heap):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def to_move(self, state: Any) -> int:
        return int(state[1])

    def play(self, state: Any, move: int) -> Any:
        self.calls += 1
        return (state[0] - move, 1 - state[1], self.calls % 2)  # a coin in the state


class KeyWithoutPlayer(Heap):
    def key(self, state: Any) -> Any:
        return state[0]


class KeyMergingValues(Heap):
    def key(self, state: Any) -> Any:
        return (state[0] // 2, state[1])  # heaps 4 and 5 differ: a loss and a win


class RandomKey(Heap):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def key(self, state: Any) -> Any:
        self.calls += 1
        return (state, self.calls)


class BadRoundTrip(Heap):
    def parse_move(self, state: Any, text: str) -> int:
        return int(text) % 3 + 1  # reads "1" as 2


class RefusesOwnText(Heap):
    def format_move(self, state: Any, move: int) -> str:
        return f"take {move}"  # the default parse_move accepts it; this one does not

    def parse_move(self, state: Any, text: str) -> int:
        if not text.isdigit():
            raise IllegalMoveError(f"{text!r} is not a number")
        return int(text)


class NonsenseCrashes(Heap):
    def parse_move(self, state: Any, text: str) -> int:
        return int(text)  # ValueError for text that is not a number


class WordOutcome(Heap):
    def outcome(self, state: Any) -> Any:
        if state[0] > 0:
            return None
        return "loss" if state[1] == 0 else "win"


class BoolOutcome(Heap):
    def outcome(self, state: Any) -> Any:
        return None if state[0] > 0 else state[1] == 1


class NanEvaluate(Heap):
    def evaluate(self, state: Any) -> Value:
        return float("nan")


class HugeEvaluate(Heap):
    def evaluate(self, state: Any) -> Value:
        return 10**9


class MovesAfterTheEnd(Heap):
    def moves(self, state: Any) -> Sequence[int]:
        return [1] if state[0] == 0 else super().moves(state)

    def play(self, state: Any, move: int) -> Any:
        return (max(0, state[0] - move), 1 - state[1])


class DuplicateMoves(Heap):
    def moves(self, state: Any) -> Sequence[int]:
        legal = list(super().moves(state))
        return legal + legal[:1]


class SetMoves(Heap):
    def moves(self, state: Any) -> Any:
        return set(super().moves(state))


class BadOrder(Heap):
    def order_moves(self, state: Any, moves: Sequence[int]) -> Sequence[int]:
        return list(moves)[1:]


class Endless(Heap):
    def moves(self, state: Any) -> Sequence[int]:
        return [1]

    def play(self, state: Any, move: int) -> Any:
        return (state[0] + 1, 1 - state[1])

    def outcome(self, state: Any) -> Value | None:
        return None


class Cycling(Endless):
    def play(self, state: Any, move: int) -> Any:
        return (state[0], 1 - state[1])


class RaisingMoves(Heap):
    def moves(self, state: Any) -> Sequence[int]:
        if state[0] == 3:
            raise KeyError("no moves for 3")
        return super().moves(state)


class RaisingEvaluate(Heap):
    def evaluate(self, state: Any) -> Value:
        return 1 / 0


class RaisingStart(Heap):
    def initial_state(self) -> Any:
        raise RuntimeError("no start")


class RaisingRender(Heap):
    def render(self, state: Any) -> str:
        raise TypeError("cannot draw")


BROKEN: list[tuple[Game[Any, Any], str, str, str]] = [
    (PlayersOneAndTwo(), "players", "to_move", "returned 2"),
    (BoolPlayers(), "players", "to_move", "(bool)"),
    (ListStates(), "states", "initial_state", "list, which is not hashable"),
    (ListStates(), "states", "play", "list, which is not hashable"),
    (MutatingPlay(), "play", "play", "changed the state it was given"),
    (RandomPlay(), "play", "play", "play must give the same state every time"),
    (KeyWithoutPlayer(), "key", "key", "same player to move"),
    (KeyMergingValues(), "key", "key", "exact values differ"),
    (RandomKey(), "key", "key", "must depend only on the state"),
    (BadRoundTrip(), "text", "parse_move", "parse_move(state, format_move(state, move)) == move"),
    (RefusesOwnText(), "text", "parse_move", "refused 'take 1'"),
    (NonsenseCrashes(), "text", "parse_move", "expected IllegalMoveError"),
    (WordOutcome(), "outcome", "outcome", "returned 'loss' (str)"),
    (BoolOutcome(), "outcome", "outcome", "returned False (bool)"),
    (NanEvaluate(), "evaluate", "evaluate", "returned nan"),
    (HugeEvaluate(), "evaluate", "evaluate", "within ±500000"),
    (MovesAfterTheEnd(), "moves", "moves", "though the game is over"),
    (DuplicateMoves(), "moves", "moves", "more than once"),
    (SetMoves(), "moves", "moves", "returned a set"),
    (BadOrder(), "moves", "order_moves", "the same moves, reordered"),
    (Endless(), "length", "outcome", "had not ended after 50 plies"),
    (RaisingMoves(), "moves", "moves", "raised KeyError"),
    (RaisingEvaluate(), "evaluate", "evaluate", "raised ZeroDivisionError: division by zero"),
    (RaisingStart(), "states", "initial_state", "raised RuntimeError: no start"),
    (RaisingRender(), "text", "render", "raised TypeError: cannot draw"),
]


@pytest.mark.parametrize(("game", "check", "method", "fragment"), BROKEN,
                         ids=[f"{type(case[0]).__name__}-{case[2]}" for case in BROKEN])
def test_broken_game_is_caught(game: Game[Any, Any], check: str, method: str,
                               fragment: str) -> None:
    report = check_game(game, playouts=30, max_plies=50)
    assert not report.passed
    found = [finding for finding in problems(report, check) if finding.method == method]
    assert found, report.text()
    assert fragment in found[0].message, found[0].text()
    assert status_of(report, check) == "FAIL"
    assert f"{method}: " in report.text()


def test_a_finding_says_where_and_how_often() -> None:
    report = check_game(PlayersOneAndTwo(), playouts=30)
    finding = only_problem(report)
    assert 1 < finding.count < report.states  # player 1's states only, first one described
    assert finding.line is not None and len(finding.line) == 1
    take = int(finding.line[0])
    assert finding.state == repr((7 - take, 1))  # the default render: the repr
    assert finding.where() == f"after {take}: ({7 - take}, 1)"
    assert finding.text() == ("to_move: returned 2 (int); expected the int 0 (the first player) "
                              f"or 1 (seen {finding.count} times) -- {finding.where()}")


def test_a_game_that_cannot_start_skips_every_check() -> None:
    report = check_game(RaisingStart())
    assert only_problem(report).method == "initial_state"
    assert [summary.status for summary in report.checks if summary.name != "states"] == \
           ["skip"] * (len(CHECKS) - 1)


def test_a_cycling_game_is_noted_and_reported_endless() -> None:
    report = check_game(Cycling(), playouts=5, max_plies=50)
    assert only_problem(report).check == "length"
    assert any("came back to a position" in note for note in report.notes)


def test_a_state_never_seen_twice_is_checked_each_time_only_once() -> None:
    report = check_game(ListStates(), playouts=3)
    found = [finding for finding in report.findings if finding.method == "play"]
    assert len(found) == 1 and found[0].count > 1  # one finding, counted


class Weird:
    """A state class for games whose states misbehave in the ways below."""

    def __init__(self, heap: int, player: int) -> None:
        self.heap, self.player = heap, player

    def __getitem__(self, index: int) -> int:
        return (self.heap, self.player)[index]


class HashRaises(Weird):
    def __hash__(self) -> int:
        raise ValueError("no hash")


class EqRaises(Weird):
    def __hash__(self) -> int:
        return hash((self.heap, self.player))

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")


class ReprRaises(Weird):
    def __hash__(self) -> int:
        return hash((self.heap, self.player))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Weird) and (self.heap, self.player) == (other.heap,
                                                                         other.player)

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class CannotCopy(ReprRaises):
    def __repr__(self) -> str:
        return "CannotCopy"

    def __reduce__(self) -> Any:
        raise RuntimeError("no pickle")

    def __deepcopy__(self, memo: Any) -> Any:
        raise RuntimeError("no copy")


def with_states(kind: type[Weird]) -> Game[Any, Any]:
    class WeirdStates(Heap):
        def initial_state(self) -> Any:
            return kind(7, 0)

        def play(self, state: Any, move: int) -> Any:
            return kind(state[0] - move, 1 - state[1])

    return WeirdStates()


def returning(method: str, value: Any) -> Game[Any, Any]:
    game = Heap()
    setattr(game, method, lambda *args: value)
    return game


def raising(method: str, error: Exception) -> Game[Any, Any]:
    def fail(*args: Any) -> Any:
        raise error

    game = Heap()
    setattr(game, method, fail)
    return game


METHODS = ("initial_state", "to_move", "moves", "play", "outcome", "evaluate", "key",
           "order_moves", "format_move", "parse_move", "render", "compiled_form")

PATHOLOGICAL: list[Game[Any, Any]] = [
    *(with_states(kind) for kind in (HashRaises, EqRaises, ReprRaises)),
    *(returning(method, value) for method in METHODS
      for value in (None, object(), [1, [2]], "x", float("inf"))),
    *(raising(method, error) for method in METHODS
      for error in (RecursionError("deep"), ZeroDivisionError("zero"))),
]


@pytest.mark.parametrize("game", PATHOLOGICAL)
def test_the_checker_survives_any_broken_game(game: Game[Any, Any]) -> None:
    report = check_game(game, playouts=5, max_plies=20, compiled=False)
    assert report.text()  # whatever the game does, a report comes back
    json.dumps(report.to_dict())


def test_states_that_cannot_be_copied_are_checked_without_copies() -> None:
    report = check_game(with_states(CannotCopy), playouts=5, compiled=False)
    assert report.passed, report.text()


def test_a_play_that_returns_nothing_is_named() -> None:
    report = check_game(returning("play", None), playouts=5)
    found = [finding for finding in problems(report, "states") if finding.method == "play"]
    assert found and "returned None" in found[0].message


# -- kernels that disagree with their game -----------------------------------------------------


def kernel_to_move(state: Any) -> int:
    return int(state[1])


def kernel_moves(state: Any, out: Any) -> int:
    count = 0
    for take in (1, 2, 3):
        if take <= state[0]:
            out[count] = take
            count += 1
    return count


def kernel_moves_backwards(state: Any, out: Any) -> int:
    count = 0
    for take in (3, 2, 1):
        if take <= state[0]:
            out[count] = take
            count += 1
    return count


def kernel_play(state: Any, move: int) -> Any:
    return (state[0] - move, 1 - state[1])


def kernel_outcome(state: Any) -> int:
    if state[0] > 0:
        return ONGOING
    return -1 if state[1] == 0 else 1


def kernel_outcome_draw(state: Any) -> int:
    return ONGOING if state[0] > 0 else 0


def kernel_evaluate(state: Any) -> int:
    return 5


def heap_kernel(**replaced: Callable[..., Any]) -> Kernel:
    functions: dict[str, Callable[..., Any]] = {
        "to_move": kernel_to_move, "moves": kernel_moves, "play": kernel_play,
        "outcome": kernel_outcome}
    functions.update(replaced)
    return Kernel.from_functions("test heap", initial_state=(7, 0), max_moves=3, max_plies=20,
                                 functions=functions)


def same(state: Any) -> Any:
    return state


def same_move(state: Any, move: int) -> int:
    return move


class HeapWithKernel(Heap):
    """The heap game paired with a kernel that may not be the same game."""

    def __init__(self, kernel: Kernel) -> None:
        super().__init__()
        self.kernel = kernel

    def compiled_form(self) -> CompiledForm[Any, Any]:
        return CompiledForm(game=self, kernel=self.kernel, encode=same, decode_move=same_move)


def test_a_kernel_that_is_the_same_game_passes() -> None:
    report = check_game(HeapWithKernel(heap_kernel()), compiled=False)
    assert report.passed, report.text()
    assert status_of(report, "kernel") == "ok"
    values = next(summary for summary in report.checks if summary.name == "values")
    assert values.status == "skip" and "--no-compiled" in values.summary


@pytest.mark.parametrize(("replaced", "method", "fragment"), [
    ({"moves": kernel_moves_backwards}, "kernel moves", "the same moves in another order: "
                                                        "[3, 2, 1] against the game's [1, 2, 3]"),
    ({"outcome": kernel_outcome_draw}, "kernel outcome", "gives the outcome 0, the game the "
                                                         "outcome -1"),
    ({"evaluate": kernel_evaluate}, "kernel evaluate", "gives 5, the game's evaluate 0"),
    ({"to_move": lambda state: 0}, "kernel to_move", "says player 0 moves, the game says 1"),
    ({"play": lambda state, move: (state[0] - move, state[1])}, "kernel play",
     "after 1 the kernel's state is (6, 0), which encodes no position met, the game's next "
     "position is (6, 1) (encoded: (6, 1))"),
], ids=["move order", "outcome", "evaluate", "to_move", "play"])
def test_a_kernel_that_differs_from_its_game_is_caught(
        replaced: dict[str, Callable[..., Any]], method: str, fragment: str) -> None:
    report = check_game(HeapWithKernel(heap_kernel(**replaced)), compiled=False)
    found = [finding for finding in problems(report, "kernel") if finding.method == method]
    assert found, report.text()
    assert fragment in found[0].message, found[0].text()


def test_a_kernel_state_is_shown_as_the_position_it_encodes() -> None:
    class Drawn(HeapWithKernel):
        def render(self, state: Any) -> str:
            return f"{state[0]} left, {'AB'[state[1]]} to move"

    always_one = Drawn(heap_kernel(play=lambda state, move: (state[0] - 1, 1 - state[1])))
    found = [finding for finding in problems(check_game(always_one, compiled=False), "kernel")
             if finding.method == "kernel play"]
    assert found and found[0].message == (
        "after 2 the kernel's state is 6 left, B to move (encoded: (6, 1)), the game's next "
        "position is 5 left, B to move (encoded: (5, 1))")


class RememberingHeap(HeapWithKernel):
    """The heap game whose state also keeps the last move taken; its key forgets it, so
    positions reached by different moves are one: its kernel has no key."""

    def initial_state(self) -> Any:
        return (self.heap, 0, 0)

    def play(self, state: Any, move: int) -> Any:
        return (state[0] - move, 1 - state[1], move)

    def key(self, state: Any) -> Any:
        return state[:2]


def remembering_play(state: Any, move: int) -> Any:
    return (state[0] - move, 1 - state[1], move)


def test_a_game_key_that_its_kernel_lacks_is_a_warning() -> None:
    kernel = Kernel.from_functions(
        "test remembering heap", initial_state=(7, 0, 0), max_moves=3, max_plies=20,
        functions={"to_move": kernel_to_move, "moves": kernel_moves, "play": remembering_play,
                   "outcome": kernel_outcome})
    report = check_game(RememberingHeap(kernel), compiled=False)
    assert report.passed, report.text()
    assert len(report.warnings) == 1
    assert "but its kernel has no key: the compiled tier never calls the Python key, so it " \
        "keeps no transposition table at all (its state is a tuple)" in report.warnings[0]
    assert f"warning: {report.warnings[0]}" in report.text().splitlines()
    assert report.to_dict()["warnings"] == list(report.warnings)
    keyed = Kernel.from_functions(
        "test remembering heap", initial_state=(7, 0, 0), max_moves=3, max_plies=20,
        functions={"to_move": kernel_to_move, "moves": kernel_moves, "play": remembering_play,
                   "outcome": kernel_outcome, "key": remembering_key})
    assert check_game(RememberingHeap(keyed), compiled=False).warnings == ()


def remembering_key(state: Any) -> int:
    return int(2 * state[0] + state[1])


def halved_key(state: Any) -> int:
    return int(2 * (state[0] // 2) + state[1])  # wrong: heaps of 4 and 5 have different values


@pytest.mark.slow
def test_a_wrong_kernel_key_is_named_when_the_values_differ() -> None:
    report = check_game(HeapWithKernel(heap_kernel(key=halved_key)))
    found = problems(report, "values")
    assert found, report.text()
    assert "; the kernel's key is at fault: it gives" in found[0].message
    assert "the same key" in found[0].message and "the number of moves" in found[0].message


@pytest.mark.slow
def test_compiled_values_that_differ_from_the_python_tiers_are_caught() -> None:
    # The kernel's heuristic is not the game's (the rules check says so too): the compiled
    # engine's depth-limited values differ from the Python tier's. Compiles a kernel no core
    # test uses: in the whole suite only.
    report = check_game(HeapWithKernel(heap_kernel(evaluate=kernel_evaluate)))
    found = problems(report, "values")
    assert [finding.method for finding in found] == ["compiled engine"], report.text()
    assert "the depth-2 value is 5 on the compiled tier, 0 on the Python tier" in \
        found[0].message


def test_a_kernel_game_is_its_own_kernel() -> None:
    report = check_game(KernelGame(heap_kernel()), compiled=False)
    assert report.passed and status_of(report, "kernel") == "ok"


def test_a_game_without_a_kernel_for_its_options_gets_a_note() -> None:
    report = check_game(MNKGame(8, 8, 5), playouts=2, compiled=False)
    assert report.passed
    assert status_of(report, "kernel") == "skip"
    assert any("no kernel for these options" in note and "62 cells" in note
               for note in report.notes)


def test_a_compiled_form_that_raises_is_a_problem() -> None:
    class BrokenForm(Heap):
        def compiled_form(self) -> CompiledForm[Any, Any]:
            raise RuntimeError("oops")

    finding = only_problem(check_game(BrokenForm(), compiled=False))
    assert (finding.check, finding.method) == ("kernel", "compiled_form")


def test_a_compiled_form_that_is_not_one_is_a_problem() -> None:
    class WrongForm(Heap):
        def compiled_form(self) -> Any:
            return "a kernel, honestly"

    finding = only_problem(check_game(WrongForm(), compiled=False))
    assert (finding.check, finding.method) == ("kernel", "compiled_form")
    assert "returned a str; expected a gametree.compiled.form.CompiledForm" in finding.message


def test_compiled_form_of_gives_the_form_or_why_there_is_none() -> None:
    game = HeapWithKernel(heap_kernel())
    form = compiled_form_of(game)
    assert isinstance(form, CompiledForm) and form.game is game
    assert compiled_form_of(game) is form  # kept per game

    assert compiled_form_of(Heap()) == "heap has no compiled form"
    reason = compiled_form_of(MNKGame(8, 8, 5))
    assert isinstance(reason, str) and "62 cells" in reason

    class WrongForm(Heap):
        def compiled_form(self) -> Any:
            return 42

    with pytest.raises(NotACompiledFormError, match="heap: compiled_form\\(\\) returned a int"):
        compiled_form_of(WrongForm())


# -- the command line --------------------------------------------------------------------------


def register_broken(monkeypatch: pytest.MonkeyPatch, name: str, game: Game[Any, Any]) -> None:
    """Register ``game`` for this test only (other tests compare the registry with the
    built-in games)."""
    spec = GameSpec(name=name, summary="a broken game for the checker's tests",
                    notation="the number to take", build=lambda: game)
    monkeypatch.setitem(cast(dict[str, GameSpec], games()), name, spec)


def test_cli_passes_a_built_in_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "check", "bones", "--playouts", "20", "--no-compiled")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("checked bones: 20 random playouts from the start (seed 0)")
    assert lines[-1] == "passed: no problems found"
    assert any(line.startswith("skip  values") and "--no-compiled" in line for line in lines)


def test_cli_reports_each_problem_on_its_own_line_and_exits_1(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    register_broken(monkeypatch, "check-test-players", PlayersOneAndTwo())
    status, out, _ = run(capsys, "check", "check-test-players", "--no-compiled")
    assert status == 1
    assert "FAIL  players" in out
    assert any(line.strip().startswith("- to_move: returned 2") for line in out.splitlines())
    assert out.splitlines()[-1] == "failed: 1 problem found"


def test_cli_json(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    register_broken(monkeypatch, "check-test-outcome", WordOutcome())
    status, out, _ = run(capsys, "check", "check-test-outcome", "--json", "--seed", "3",
                         "--playouts", "10")
    assert status == 1
    document = json.loads(out)
    assert document["game"] == "check-test-outcome" and document["passed"] is False
    assert document["seed"] == 3 and document["playouts"] == 10
    assert [finding["method"] for finding in document["findings"]] == ["outcome"]
    assert {check["name"] for check in document["checks"]} == set(CHECKS)


def test_cli_passes_game_options_and_max_plies(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "check", "nim", "--rows", "1,2", "--playouts", "5",
                         "--no-compiled", "--max-plies", "2")
    assert status == 1
    assert "had not ended after 2 plies" in out


@pytest.mark.parametrize("args", [
    ("check", "bones", "--playouts", "0"),
    ("check", "no-such-game"),
    ("check", "tree"),  # a tree needs its leaves
    ("check", "bones", "--heap", "x"),
])
def test_cli_bad_usage_exits_2(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2 and out == "" and "error" in err


class ConnectFourWithKernel(ConnectFour):
    """Connect Four 4x4 paired with its kernel, one of whose rules is replaced."""

    def __init__(self, **replaced: Callable[..., Any]) -> None:
        super().__init__(4, 4)
        rules = dict(connect4_kernel.kernel(4, 4).python_rules())
        rules.update(replaced)
        self.kernel = Kernel.from_functions("Connect Four 4x4, a rule replaced",
                                            initial_state=(0, 0, 0), max_moves=4,
                                            max_plies=16, functions=rules,
                                            winner_moves_last=True)

    def compiled_form(self) -> CompiledForm[Any, Any]:
        form = connect4_kernel.compiled_form(ConnectFour(4, 4))
        return CompiledForm(game=self, kernel=self.kernel, encode=form.encode,
                            decode_move=form.decode_move, moves_need_state=False)


def several_replies(state: Any) -> int:
    return SEVERAL_REPLIES


def test_a_forced_reply_that_is_not_the_kernels_non_losing_moves_is_caught() -> None:
    # Right where there is a choice (the initial state, which the kernel's own rules check
    # runs), wrong where there is one reply or none: the engine would search on where the
    # line is forced, and play out no line it should.
    right = check_game(ConnectFourWithKernel(), compiled=False)
    assert right.passed, right.text()
    assert "its forced_reply says what its non_losing_moves says" in right.text()
    report = check_game(ConnectFourWithKernel(forced_reply=several_replies), compiled=False)
    found = [finding for finding in problems(report, "kernel")
             if finding.method == "kernel forced_reply"]
    assert found, report.text()
    assert "where non_losing_moves gives" in found[0].message
