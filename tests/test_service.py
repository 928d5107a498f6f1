"""The search service: one entry point for both tiers, the same answer whatever ran before.

Searches are checked against fresh searches (and the reference algorithms) after other
searches of other modes, games and kernels, on the same engine, session and thread, or on
several threads at once.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import threading
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

import gametree
from gametree import ContractError, EngineTuning, Game, SearchOptions, SearchSession, search
from gametree.compiled import ONGOING, CompiledEngine, Kernel, KernelGame
from gametree.engine import Engine
from gametree.games.connect4 import ConnectFour, pons_score, read_pons_line, split_moves
from gametree.games.nim import Nim
from gametree.games.tictactoe import MNKGame
from gametree.options import OptionError, TierChoice
from gametree.registry import make, play_moves
from gametree.result import SearchResult, SearchStats

from .cli_support import run
from .pons import pons_file

ROOT = Path(__file__).resolve().parent.parent

MODES: list[dict[str, Any]] = [
    {},
    {"by_distance": False},
    {"weak": True},
    {"depth": 3},
    {"depth": 3, "by_distance": False},
    {"exact_root": True},
    {"exact_root": True, "by_distance": False},
    {"depth": 2, "exact_root": True},
]
"""Scoring modes a table must keep apart: distance or plain, strong or weak, exact or
depth-limited, every root move exact or not."""


def answer(result: SearchResult[Any]) -> tuple[Any, ...]:
    """What a search says about a position (not what it cost)."""
    return (result.value, result.best_move, result.outcome, result.plies, result.pv,
            tuple((entry.move, entry.value, entry.bound) for entry in result.moves),
            result.by_distance, result.weak, result.depth)


def truth(game: Game[Any, Any], state: Any, mode: dict[str, Any],
          tier: str) -> dict[Any, float]:
    """Every root move's exact value in ``mode`` (a weak mode's: the sign of the strong one)."""
    strong = {name: value for name, value in mode.items() if name != "weak"}
    exact = search(game, state, tier=tier, **{**strong, "exact_root": True})
    if mode.get("weak"):
        return {entry.move: (entry.value > 0) - (entry.value < 0) for entry in exact.moves}
    return {entry.move: entry.value for entry in exact.moves}


def assert_true_to(result: SearchResult[Any], fresh: SearchResult[Any],
                   values: dict[Any, float]) -> None:
    """``result`` (from a search that kept a table) says what a fresh search says: the same
    value and proof, an optimal move, and only true bounds. Which of several equally good
    moves it picks, and how tight its bounds are, may depend on what its table held."""
    assert (result.value, result.outcome, result.plies, result.depth, result.by_distance,
            result.weak) == (fresh.value, fresh.outcome, fresh.plies, fresh.depth,
                             fresh.by_distance, fresh.weak)
    assert values[result.best_move] == result.value and result.pv[0] == result.best_move
    for entry in result.moves:
        true = values[entry.move]
        assert {"exact": true == entry.value, "upper": true <= entry.value,
                "lower": true >= entry.value}[entry.bound], entry


def tictactoe_after(moves: str) -> tuple[MNKGame, Any]:
    game = MNKGame()
    return game, play_moves(game, moves.split())


def test_the_issue_s_reproduction_of_mixed_modes() -> None:
    game, state = tictactoe_after("0,0 0,1")
    for tier in ("compiled", "python"):
        session: SearchSession[Any, Any] = SearchSession(game, tier=tier)
        session.search(state)
        assert session.search(state, by_distance=False).value == 10  # not 999995
        session.search(state, by_distance=False)
        again = session.search(state)
        assert (again.outcome, again.plies) == ("win", 5)  # not a draw


@pytest.mark.parametrize("tier", ["python", "compiled"])
def test_a_session_never_mixes_scoring_modes(tier: str) -> None:
    game, state = tictactoe_after("0,0 1,1 2,2")
    fresh = [search(game, state, tier=tier, **mode) for mode in MODES]
    values = [truth(game, state, mode, tier) for mode in MODES]
    with SearchSession(game, tier=tier) as session:
        # every mode after every other (each ordered pair), then a few whole sequences
        for first, second in itertools.permutations(range(len(MODES)), 2):
            session.search(state, **MODES[first])
            found = session.search(state, **MODES[second])
            assert_true_to(found, fresh[second], values[second])
        for order in (list(range(len(MODES))), *[random.Random(seed).sample(
                range(len(MODES)), len(MODES)) for seed in range(3)]):
            for index in order:
                assert_true_to(session.search(state, **MODES[index]), fresh[index],
                               values[index])


def test_a_one_shot_search_is_the_same_whatever_ran_before() -> None:
    """gametree.search starts from nothing: every field but the time repeats exactly."""
    game, state = tictactoe_after("0,0 1,1")

    def everything(result: SearchResult[Any]) -> tuple[Any, ...]:
        return (*answer(result), {**result.stats.as_dict(), "seconds": 0})

    for tier in ("python", "compiled"):
        first = [everything(search(game, state, tier=tier, **mode)) for mode in MODES]
        for mode in MODES:  # other searches of this game, then of other games and sizes
            search(game, state, tier=tier, **mode)
            search(ConnectFour(4, 4), tier=tier, **{**mode, "depth": 4}) if "weak" not in mode \
                else search(Nim((2, 3, 4)), tier=tier, **mode)
        assert [everything(search(game, state, tier=tier, **mode)) for mode in MODES] == first


def test_a_new_session_starts_from_what_it_searches_itself() -> None:
    """A session takes a pooled engine that another search or session has just filled: its
    first search still counts what a one-shot search counts, on both tiers."""
    game, state = tictactoe_after("0,0")
    for tier in ("python", "compiled"):
        fresh = search(game, state, tier=tier)
        with SearchSession(game, tier=tier) as earlier:
            earlier.search(state)
            earlier.search(game.play(state, game.moves(state)[1]))
        with SearchSession(game, tier=tier) as session:
            first = session.search(state)
            again = session.search(state)
        assert {**first.stats.as_dict(), "seconds": 0} == {**fresh.stats.as_dict(), "seconds": 0}
        assert again.stats.nodes < first.stats.nodes  # and then it learns from itself


def test_a_compiled_engine_never_mixes_scoring_modes() -> None:
    """The same on the compiled engine itself, whose table outlives its searches."""
    game, state = tictactoe_after("0,0 1,1 2,2")
    form = game.compiled_form()
    assert form is not None
    kernel_state = form.encode(state)
    engine = CompiledEngine(form.kernel, table_bits=12)

    fresh = [engine.search(kernel_state, fresh=True, **mode) for mode in MODES]
    values = [{form.encode(game.play(state, move)): value
               for move, value in truth(game, state, mode, "compiled").items()}
              for mode in MODES]
    for first, second in itertools.permutations(range(len(MODES)), 2):
        engine.search(kernel_state, **MODES[first])
        found = engine.search(kernel_state, **MODES[second])
        children = {form.encode(game.play(state, entry.move)): entry.move
                    for entry in found.moves}
        assert_true_to(found, fresh[second], {children[child]: value for child, value
                                              in values[second].items()})


def test_the_python_engine_never_mixes_what_it_stored() -> None:
    """One Python engine (one scoring mode by construction): weak, strong, exact and
    depth-limited searches in every order agree with fresh engines."""
    game, state = tictactoe_after("0,0 1,1 2,2")
    modes = [mode for mode in MODES if "by_distance" not in mode]
    engine = Engine(game)
    fresh = [Engine(game).search(state, **mode) for mode in modes]
    values = [truth(game, state, mode, "python") for mode in modes]
    for first, second in itertools.permutations(range(len(modes)), 2):
        engine.search(state, **modes[first])
        assert_true_to(engine.search(state, **modes[second]), fresh[second], values[second])


@pytest.mark.parametrize("options", [
    {}, {"depth": 3}, {"time": 30.0}, {"nodes": 100}, {"weak": True}, {"exact_root": True},
    {"seed": 3},
])
def test_both_tiers_report_the_same_statistics(options: dict[str, Any]) -> None:
    game, state = tictactoe_after("1,1")
    python = search(game, state, tier="python", **options)
    compiled = search(game, state, tier="compiled", **options)
    assert (python.tier, compiled.tier) == ("python", "compiled")
    assert python.stats.as_dict().keys() == compiled.stats.as_dict().keys()
    assert list(python.stats.as_dict()) == [field.name for field in fields(SearchStats)]
    assert python.to_dict(game, state).keys() == compiled.to_dict(game, state).keys()
    if "nodes" not in options and "depth" not in options:  # (depth: threat hooks see further)
        assert (python.value, python.outcome, python.plies) == (
            compiled.value, compiled.outcome, compiled.plies)


def test_weak_is_no_slower_than_strong_and_reports_the_proven_win(
        capsys: pytest.CaptureFixture[str]) -> None:
    documents = {}
    for flags in ((), ("--weak",)):
        status, out, _ = run(capsys, "solve", "connect4", "--moves", "4455", "--json", *flags)
        assert status == 0
        documents[flags] = json.loads(out)
    strong, weak = documents[()], documents[("--weak",)]
    assert weak["stats"]["nodes"] <= strong["stats"]["nodes"]
    assert (weak["outcome"], weak["value"], weak["weak"]) == ("win", 1, True)
    assert weak["best_move"] in {entry["move"] for entry in strong["moves"]
                                 if entry["value"] == strong["value"]}
    status, out, _ = run(capsys, "solve", "connect4", "--moves", "4455", "--weak")
    assert status == 0 and "value win" in out and "not proven" not in out


@pytest.mark.parametrize("game, moves", [
    (ConnectFour(), "4455"), (ConnectFour(), "44455554221"), (ConnectFour(), "444555542"),
    (ConnectFour(4, 4), "2233"), (ConnectFour(4, 4), "1"), (MNKGame(), "1,1 0,0"),
    (MNKGame(), "0,0 1,1 0,1"),
], ids=lambda value: getattr(value, "name", value))
def test_weak_agrees_with_strong_on_both_tiers(game: Game[Any, Any], moves: str) -> None:
    state = play_moves(game, game_moves(game, moves))
    strong = search(game, state)
    small = not isinstance(game, ConnectFour) or game.width < 7  # the Python tier is slow
    for tier in ("compiled", "python") if small else ("compiled",):
        weak = search(game, state, weak=True, tier=tier)
        assert weak.outcome == strong.outcome and weak.weak and weak.plies is None, tier
        assert weak.value == (strong.value > 0) - (strong.value < 0)
        # its move keeps the result: what the opponent gets after it is the opposite
        child = game.play(state, weak.best_move)
        after = search(game, child)
        mover = 1 if game.to_move(child) == game.to_move(state) else -1
        assert mover * ((after.value > 0) - (after.value < 0)) == weak.value


@pytest.mark.parametrize("game, moves, tier", [
    (ConnectFour(), "444555542", "compiled"), (ConnectFour(4, 4), "2233", "compiled"),
    (ConnectFour(4, 4), "2233", "python"), (MNKGame(), "1,1 0,0", "python"),
], ids=lambda value: getattr(value, "name", value))
def test_a_search_without_the_line_answers_the_same_and_searches_less(
        game: Game[Any, Any], moves: str, tier: TierChoice) -> None:
    state = play_moves(game, game_moves(game, moves))
    for options in (SearchOptions(tier=tier, book=False), SearchOptions(tier=tier, seed=3),
                    SearchOptions(tier=tier, depth=4), SearchOptions(tier=tier, nodes=5000)):
        whole = search(game, state, options)
        bare = search(game, state, options, line=False)
        assert (bare.value, bare.best_move, bare.moves, bare.outcome, bare.plies) == \
            (whole.value, whole.best_move, whole.moves, whole.outcome, whole.plies)
        assert bare.pv == (whole.best_move,) and bare.stats.nodes <= whole.stats.nodes
        if not options.budgeted:
            assert len(whole.pv) > 1
    reports = list(gametree.iterate(game, state, SearchOptions(tier=tier, depth=3, line=False)))
    assert reports and all(report.pv == (report.best_move,) for report in reports)
    if tier == "compiled":  # the line's confirming searches are left out
        solved = SearchOptions(tier=tier, book=False)
        assert search(game, state, solved, line=False).stats.nodes < \
            search(game, state, solved).stats.nodes


def test_only_the_engine_takes_line_false() -> None:
    with pytest.raises(OptionError, match="line"):
        SearchOptions(algorithm="alphabeta", line=False)


def game_moves(game: Game[Any, Any], moves: str) -> list[str]:
    return split_moves(moves) if isinstance(game, ConnectFour) else moves.split()


def test_a_batch_takes_the_game_s_own_states_and_encodes_them() -> None:
    game = ConnectFour()
    lines = pons_file("L1_R1").read_text().splitlines()[:10]
    positions = [read_pons_line(line) for line in lines]
    states = [play_moves(game, split_moves(moves)) for moves, _ in positions]
    batch = gametree.solve_batch(game, states, table_bits=16)
    for (moves, expected), state, value in zip(positions, states, batch.values, strict=True):
        result = search(game, state)
        assert value == result.value, moves
        assert pons_score(game, state, result) == expected["score"]
    # A Python-tier state is not a kernel state: the engine refuses it instead of misreading
    # (position, mask, False) as a position with no stone played.
    form = game.compiled_form()
    assert form is not None
    engine = CompiledEngine(form.kernel, table_bits=12)
    with pytest.raises(ValueError, match="not a state of the Connect Four 7x6 kernel"):
        engine.score(states[0])
    with pytest.raises(ValueError, match="compiled_form"):
        engine.solve_many(states)
    assert engine.score(form.encode(states[0]))[0] == batch.values[0]


def test_searches_from_several_threads_give_the_sequential_answers() -> None:
    tasks: list[tuple[Game[Any, Any], Any, dict[str, Any]]] = []
    # (kernels the core suite compiles anyway: a game of its own would add a compile)
    games: list[Game[Any, Any]] = [MNKGame(), ConnectFour(4, 4), Nim((2, 3, 4)),
                                   Nim((1, 3, 5, 7), misere=True), make("bones", heap=13)]
    for game in games:
        rng = random.Random(len(tasks))
        state = game.initial_state()
        for _ in range(rng.randrange(2, 5)):
            state = game.play(state, rng.choice(list(game.moves(state))))
        for mode in ({}, {"by_distance": False}, {"depth": 2}, {"tier": "python"}):
            tasks.append((game, state, mode))
    expected = [answer(search(game, state, **mode)) for game, state, mode in tasks]
    failures: list[str] = []

    def worker(seed: int) -> None:
        order = random.Random(seed).sample(range(len(tasks)), len(tasks))
        for index in order * 2:
            game, state, mode = tasks[index]
            if answer(search(game, state, **mode)) != expected[index]:
                failures.append(f"{game.name} {mode}")

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_the_tier_is_chosen_by_the_service() -> None:
    assert gametree.tier_for(MNKGame()) == "compiled"
    assert gametree.tier_for(MNKGame(), tier="python") == "python"
    assert gametree.tier_for(MNKGame(), algorithm="alphabeta") == "python"
    assert gametree.tier_for(MNKGame(), tuning=EngineTuning(window="mtdf")) == "python"
    tree = gametree.GameTree.from_leaves("3 5 2 9")
    assert gametree.tier_for(tree) == "python"
    with pytest.raises(OptionError, match=r"tier='compiled': .*no compiled form"):
        gametree.tier_for(tree, tier="compiled")
    with pytest.raises(OptionError, match=r"tier='compiled': .*90 bits"):
        search(ConnectFour(9, 9), tier="compiled")
    traced = search(MNKGame(), tictactoe_after("0,0 1,1 2,2 0,2 2,0")[1],
                    tracer=gametree.Tracer(MNKGame()))
    assert traced.tier == "python"


def test_options_are_checked_once_with_reasons() -> None:
    with pytest.raises(OptionError, match="weak needs the engine, not minimax"):
        SearchOptions(algorithm="minimax", weak=True)
    with pytest.raises(OptionError, match="weak proves the result of the game"):
        SearchOptions(weak=True, depth=3)
    with pytest.raises(ValueError, match="depth"):
        SearchOptions(depth=-1)
    with pytest.raises(ValueError, match="tier must be one of"):
        SearchOptions(tier="gpu")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="table_bits"):
        EngineTuning(table_bits=40)
    options = SearchOptions(depth=2)
    assert search(MNKGame(), options=options).depth == 2
    assert search(MNKGame(), options=options, depth=1).depth == 1  # changed for one call


def test_a_depth_beyond_the_game_is_a_search_to_the_end_on_both_tiers() -> None:
    game, state = tictactoe_after("1,1 0,0")
    exact = search(game, state)
    for tier in ("python", "compiled"):
        deep = search(game, state, depth=251, tier=tier)
        assert (deep.value, deep.outcome) == (exact.value, exact.outcome), tier


class OneTwo(Game[tuple[int, int], int]):
    """Take 1 or 2; the players are numbered 1 and 2 (a contract violation)."""

    def initial_state(self) -> tuple[int, int]:
        return (4, 1)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def moves(self, state: tuple[int, int]) -> list[int]:
        return [take for take in (1, 2) if take <= state[0]]

    def play(self, state: tuple[int, int], move: int) -> tuple[int, int]:
        return (state[0] - move, 3 - state[1])

    def outcome(self, state: tuple[int, int]) -> int | None:
        return None if state[0] else (1 if state[1] == 2 else -1)


class ListStates(Game[Any, int]):
    """Take 1 or 2, with states as lists (unhashable: a contract violation)."""

    def initial_state(self) -> Any:
        return [4, 0]

    def to_move(self, state: Any) -> int:
        return int(state[1])

    def moves(self, state: Any) -> list[int]:
        return [take for take in (1, 2) if take <= state[0]]

    def play(self, state: Any, move: int) -> Any:
        return [state[0] - move, 1 - state[1]]

    def outcome(self, state: Any) -> int | None:
        return None if state[0] else (-1 if state[1] == 0 else 1)


class Endless(Game[int, int]):
    """A game that goes round in circles and never ends (a contract violation)."""

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return state % 2

    def moves(self, state: int) -> list[int]:
        return [1]

    def play(self, state: int, move: int) -> int:
        return (state + move) % 4

    def outcome(self, state: int) -> int | None:
        return None


@pytest.mark.parametrize("algorithm", ["engine", "minimax", "alphabeta", "negamax"])
def test_contract_violations_are_named_not_misread(algorithm: str) -> None:
    with pytest.raises(ContractError, match=r"OneTwo\.to_move returned [12].*numbered 0"):
        search(OneTwo(), algorithm=algorithm)
    if algorithm == "engine":  # only a table needs hashing
        with pytest.raises(ContractError, match=r"ListStates: the state .* is not hashable"):
            search(ListStates(), algorithm=algorithm)


@pytest.mark.parametrize("options", [{}, {"time": 5.0}, {"algorithm": "minimax"},
                                     {"algorithm": "alphabeta", "time": 5.0}])
def test_a_game_that_never_ends_is_named_not_valued(options: dict[str, Any]) -> None:
    with pytest.raises(ContractError, match=r"Endless: the game never ends.*repeats"):
        search(Endless(), **options)


FRONT_ENDS = [*sorted((ROOT / "src" / "gametree" / "cli").glob("*.py")),
              *sorted((ROOT / "src" / "gametree" / "play").glob("*.py")),
              *sorted((ROOT / "benchmarks").glob("*.py"))]


@pytest.mark.parametrize("path", FRONT_ENDS, ids=lambda path: path.name)
def test_front_ends_search_through_the_service_only(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"\b(Compiled)?Engine\(", text)
    assert not re.search(r"gametree\.(engine|compiled)\.engine\b|from \.\.engine import|"
                         r"from \.\.compiled\.engine import|compiled\.form import", text)


def endless_rules(jit: Callable[..., Any]) -> dict[str, Any]:
    """A kernel that goes round in circles, claiming its games last at most 10 plies."""

    @jit
    def to_move(state: Any) -> Any:
        return state % 2

    @jit
    def moves(state: Any, out: Any) -> Any:
        out[0] = 1
        return 1

    @jit
    def play(state: Any, move: Any) -> Any:
        return (state + move) % 4

    @jit
    def outcome(state: Any) -> Any:
        return ONGOING

    return {"to_move": to_move, "moves": moves, "play": play, "outcome": outcome}


@pytest.mark.slow  # compiles a kernel no other test uses
def test_a_kernel_whose_games_outlast_its_max_plies_is_named() -> None:
    kernel = Kernel.from_factory("endless", endless_rules, initial_state=0, max_moves=1,
                                 max_plies=10)
    with pytest.raises(ContractError, match="kernel endless: a game went on past max_plies"):
        search(KernelGame(kernel), tier="compiled")
