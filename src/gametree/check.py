"""Checking a game against the Game contract: random playouts that test every promise.

:func:`check_game` plays random games from the initial state and checks, on every state it
meets, what the searches rely on (see :class:`gametree.Game` and ``docs/contract.md``):

* ``players`` — :meth:`~gametree.Game.to_move` is the ``int`` 0 or 1, finished states too;
* ``states`` — states are hashable, equal to a copy of themselves (with the same hash), and
  no method of the game changes them;
* ``moves`` — a sequence of distinct hashable moves, the same when asked again, empty exactly
  when the game is over; :meth:`~gametree.Game.order_moves` only reorders them;
* ``outcome`` — ``None`` or a finite real number (not a ``bool``);
* ``evaluate`` — a finite number within ``±HEURISTIC_LIMIT`` on unfinished states;
* ``play`` — leaves its input unchanged and returns a hashable state, the same one when the
  move is played again (every legal move of every state met is played);
* ``key`` — hashable, the same for equal states; states that share a key have the same player
  to move and the same value (exact when the rest of the game is small, else depth-limited);
* ``text`` — ``parse_move(state, format_move(state, move)) == move`` for every legal move,
  text that names no move is refused with :class:`~gametree.IllegalMoveError`, and
  :meth:`~gametree.Game.render` returns text;
* ``length`` — every playout ends within ``max_plies``;
* ``kernel`` — for a game with a compiled form, the kernel's rules (run as plain Python)
  give the same player to move, the same moves in the same order, the same outcome, evaluation
  and successor states;
* ``values`` — the compiled engine's values equal the Python tier's: exact values on positions
  near the end of a game, depth-limited ones elsewhere.

A state with no moves whose outcome is ``None`` is a *horizon* (the search values it with
``evaluate``). The contract allows it for explicit trees, whose numeric leaves are horizons,
and asks real games to give every state without moves an outcome: so horizons are a problem
(of ``outcome``) except in a :class:`gametree.GameTree` or when ``horizons=True``.

The checker never fails on a broken game: an exception raised by one of the game's methods is
a problem that names the method. The same seed gives the same report.
"""

from __future__ import annotations

import copy
import math
import pickle
import random
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from numbers import Real
from typing import TYPE_CHECKING, Any, Final

from .game import Game, IllegalMoveError
from .games.tree import GameTree
from .reference import alphabeta
from .service import search
from .values import HEURISTIC_LIMIT, Value, format_value, plies_to_result

if TYPE_CHECKING:
    from .compiled.adapter import KernelGame
    from .compiled.form import CompiledForm
    from .result import MoveValue, SearchResult

CHECKS: Final = ("players", "states", "moves", "outcome", "evaluate", "play", "key", "text",
                 "length", "kernel", "values")
"""The checks, in the order a report lists them."""

VALUE_DEPTH: Final = 2
"""The depth of the depth-limited searches whose values are compared."""

NEAR_END: Final = (8, 4, 2, 0)
"""How many plies before the end of a playout the exact comparisons try positions, in turn
(the first whose exact search fits in the node budget is taken)."""

NONSENSE: Final = "no such move ?!"
"""Text that names no move in any game: ``parse_move`` must refuse it."""

STATE_TEXT_LIMIT: Final = 120
"""The longest rendering of a state that a finding quotes."""

LINE_TEXT_LIMIT: Final = 24
"""The most moves of a line that a finding's text shows (its JSON has them all)."""

ERROR_TEXT_LIMIT: Final = 200
"""The longest exception message that a finding quotes."""

_RAISED: Final[Any] = object()
"""What a guarded call returns when the game's method raised (the finding is recorded)."""


@dataclass(frozen=True)
class Finding:
    """One problem found: the method at fault, what was wrong, and where."""

    check: str
    """The check that found it (one of :data:`CHECKS`)."""

    method: str
    """The method at fault (``to_move``, ``play``; ``kernel moves`` for the kernel's)."""

    message: str
    """What happened and what was expected."""

    state: str | None = None
    """The state where it happened, drawn by ``render`` on one line (shortened)."""

    line: tuple[str, ...] | None = None
    """The moves that lead there from the initial state (``()``: the initial state itself)."""

    count: int = 1
    """How many times the same problem was seen (only the first is described)."""

    def where(self) -> str:
        """``at the start: <state>`` or ``after 1 3: <state>``; empty if no state is known.

        A line of more than :data:`LINE_TEXT_LIMIT` moves is shortened (:meth:`to_dict` keeps
        all of it).
        """
        if self.line is None:
            return ""
        place = "at the start" if not self.line else f"after {_line_text(self.line)}"
        return place if self.state is None else f"{place}: {self.state}"

    def text(self) -> str:
        """The finding on one line."""
        where = self.where()
        seen = f" (seen {self.count} times)" if self.count > 1 else ""
        return f"{self.method}: {self.message}{seen}" + (f" -- {where}" if where else "")

    def to_dict(self) -> dict[str, Any]:
        """The finding as a JSON-ready dict."""
        return {"check": self.check, "method": self.method, "message": self.message,
                "state": self.state, "line": None if self.line is None else list(self.line),
                "count": self.count}


@dataclass(frozen=True)
class CheckSummary:
    """What one check looked at, and how it went."""

    name: str
    """The check (one of :data:`CHECKS`)."""

    status: str
    """``ok``, ``FAIL`` (it found problems) or ``skip`` (it could not run; :attr:`summary`
    says why)."""

    summary: str
    """What was checked and how many states, moves or positions."""

    problems: int
    """How many distinct problems it found."""

    def to_dict(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict."""
        return {"name": self.name, "status": self.status, "summary": self.summary,
                "problems": self.problems}


@dataclass(frozen=True)
class CheckReport:
    """The result of :func:`check_game`: a summary per check, the problems found, notes."""

    game: str
    """The game's :attr:`~gametree.Game.name`."""

    seed: int
    """The seed of the random playouts (the same seed gives the same report)."""

    playouts: int
    """Random games played from the initial state."""

    max_plies: int
    """The longest playout allowed before the game is called endless."""

    states: int
    """Distinct states checked."""

    moves: int
    """Moves played (every legal move of every state checked)."""

    checks: tuple[CheckSummary, ...]
    """One summary per check, in the order of :data:`CHECKS`."""

    findings: tuple[Finding, ...]
    """Every problem found, each described once with the number of times it was seen."""

    notes: tuple[str, ...] = ()
    """Remarks that are not problems (a check skipped, horizons in an explicit tree)."""

    @property
    def passed(self) -> bool:
        """True if no problem was found."""
        return not self.findings

    def text(self) -> str:
        """The report as lines of text: a header, a line per check followed by its findings,
        the notes, and a verdict."""
        lines = [f"checked {self.game}: {self.playouts} random playouts from the start "
                 f"(seed {self.seed}), {self.states} states, {self.moves} moves"]
        for summary in self.checks:
            lines.append(f"{summary.status:<4}  {summary.name:<8}  {summary.summary}")
            lines.extend(f"      - {finding.text()}" for finding in self.findings
                         if finding.check == summary.name)
        lines.extend(f"note: {note}" for note in self.notes)
        if self.passed:
            lines.append("passed: no problems found")
        else:
            count = len(self.findings)
            lines.append(f"failed: {count} problem{'s' if count != 1 else ''} found")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready dict."""
        return {"game": self.game, "passed": self.passed, "seed": self.seed,
                "playouts": self.playouts, "max_plies": self.max_plies, "states": self.states,
                "moves": self.moves, "checks": [summary.to_dict() for summary in self.checks],
                "findings": [finding.to_dict() for finding in self.findings],
                "notes": list(self.notes)}


def check_game(
    game: Game[Any, Any],
    *,
    playouts: int = 100,
    seed: int = 0,
    max_plies: int = 1000,
    compiled: bool = True,
    horizons: bool | None = None,
    searches: int = 8,
    search_nodes: int = 5000,
) -> CheckReport:
    """Check ``game`` against the Game contract by random playouts; see the module docs.

    Args:
        game: the game to check.
        playouts: random games to play from the initial state.
        seed: the seed of every random choice (the same seed gives the same report).
        max_plies: a playout that has not ended after this many plies is reported as a game
            that never ends.
        compiled: also compare the compiled engine's values with the Python tier's (for a game
            with a compiled form); the first run compiles the kernel, which takes seconds.
            ``False`` still compares the kernel's rules, run as plain Python.
        horizons: whether states without moves whose outcome is ``None`` are allowed; ``None``
            (the default) allows them in a :class:`gametree.GameTree` only.
        searches: how many positions each value comparison searches (states sharing a key;
            the two tiers exactly and depth-limited).
        search_nodes: the most states one Python-tier search may expand; a position whose
            search would take more is not compared exactly.

    Returns:
        A :class:`CheckReport`; ``report.passed`` is true when no problem was found.
    """
    for label, number in (("playouts", playouts), ("max_plies", max_plies),
                          ("searches", searches), ("search_nodes", search_nodes)):
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ValueError(f"{label} must be a positive integer, got {number!r}")
    allow_horizons = isinstance(game, GameTree) if horizons is None else horizons
    checker = _Checker(game, seed=seed, max_plies=max_plies, horizons=allow_horizons,
                       searches=searches, search_nodes=search_nodes)
    checker.play_out(playouts)
    checker.check_key_values()
    checker.check_kernel(compiled=compiled)
    return checker.report(playouts)


# -- searching the two tiers -------------------------------------------------------------------


def _tier_search(game: Game[Any, Any], state: Any, *, form: CompiledForm[Any, Any] | None,
                 depth: int | None) -> SearchResult[Any]:
    """Search ``state`` with every root move valued exactly: with the compiled engine on
    ``form``'s kernel when ``form`` is given, else on the Python tier (the engine).

    The one place this module runs either tier's search.
    """
    if form is not None:
        return search(form.game, state, depth=depth, exact_root=True, tier="compiled")
    return search(game, state, depth=depth, exact_root=True, tier="python")


class _OverBudgetError(Exception):
    """A search expanded more states than its budget allows."""


class _GameRaisedError(Exception):
    """One of the game's methods raised during a search."""

    def __init__(self, method: str, error: Exception) -> None:
        super().__init__(method, error)
        self.method = method
        self.error = error


class _Budgeted(Game[Any, Any]):
    """The game under check as searches see it: expanding more than ``budget`` states stops
    the search (:class:`_OverBudgetError`), and an exception of the game's names its method
    (:class:`_GameRaisedError`)."""

    def __init__(self, game: Game[Any, Any], budget: int) -> None:
        self.game = game
        self.name = game.name
        self.player_names = game.player_names
        self.budget = budget
        self.expanded = 0

    def _call(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self.game, method)(*args)
        except RecursionError:
            raise  # the search went too deep: not the method's fault
        except Exception as error:
            raise _GameRaisedError(method, error) from error

    def initial_state(self) -> Any:
        """The game's."""
        return self._call("initial_state")

    def to_move(self, state: Any) -> int:
        """The game's."""
        player: int = self._call("to_move", state)
        return player

    def moves(self, state: Any) -> Sequence[Any]:
        """The game's, counted against the budget."""
        self.expanded += 1
        if self.expanded > self.budget:
            raise _OverBudgetError
        moves: Sequence[Any] = self._call("moves", state)
        return moves

    def play(self, state: Any, move: Any) -> Any:
        """The game's."""
        return self._call("play", state, move)

    def outcome(self, state: Any) -> Value | None:
        """The game's."""
        utility: Value | None = self._call("outcome", state)
        return utility

    def evaluate(self, state: Any) -> Value:
        """The game's."""
        estimate: Value = self._call("evaluate", state)
        return estimate

    def key(self, state: Any) -> Hashable:
        """The game's."""
        key: Hashable = self._call("key", state)
        return key

    def order_moves(self, state: Any, moves: Sequence[Any]) -> Sequence[Any]:
        """The game's."""
        ordered: Sequence[Any] = self._call("order_moves", state, moves)
        return ordered


# -- the playouts ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Position:
    """A state met in a playout and the texts of the moves that lead to it."""

    state: Any
    line: tuple[str, ...]


@dataclass
class _Node:
    """What the checks learnt about a state (kept, so a state met again is not re-checked).

    ``_RAISED`` stands for what a method could not give because it raised.
    """

    position: _Position
    player: Any
    outcome: Any
    moves: list[Any] = field(default_factory=list)
    """The legal moves (none once the game is over)."""

    estimate: Any = None
    """``evaluate``'s estimate of an unfinished state."""

    children: list[Any] = field(default_factory=list)
    """The state after each of :attr:`moves`, in the same order."""

    texts: list[str] = field(default_factory=list)
    """Each of :attr:`moves` as text."""

    def playable(self) -> list[int]:
        """The indexes of the moves that ``play`` could play."""
        return [index for index, child in enumerate(self.children) if child is not _RAISED]


@dataclass
class _Problem:
    """A problem being collected: the first occurrence, and how often it was seen."""

    finding: Finding
    count: int = 1


class _Checker:
    """One run of the checks on one game: the playouts, their findings and counters."""

    def __init__(self, game: Game[Any, Any], *, seed: int, max_plies: int, horizons: bool,
                 searches: int, search_nodes: int) -> None:
        self.game = game
        self.seed = seed
        self.max_plies = max_plies
        self.horizons = horizons
        self.searches = searches
        self.search_nodes = search_nodes
        self.rng = random.Random(seed)
        self.problems: dict[tuple[str, str, str], _Problem] = {}
        self.notes: list[str] = []
        self.counts: Counter[str] = Counter()
        self.skipped: dict[str, str] = {}
        self.nodes: dict[Any, _Node] = {}
        self.unhashed: list[_Node] = []
        """Nodes of unhashable states (never found again, so they are checked each time)."""
        self.playout_lines: list[list[_Node]] = []
        self.by_key: dict[Any, _Node] = {}
        self.key_pairs: list[tuple[_Node, _Node]] = []
        self.horizon_count = 0
        self.repeated = False
        self.longest = 0
        self.value_counts: Counter[str] = Counter()
        self.custom_key = _overrides(game, "key")
        self.custom_order = _overrides(game, "order_moves")

    # -- recording ---------------------------------------------------------------------------

    def fail(self, check: str, method: str, problem: str, message: str,
             at: _Position | None = None) -> None:
        """Record a problem; the same ``problem`` of the same method is described once."""
        key = (check, method, problem)
        known = self.problems.get(key)
        if known is not None:
            known.count += 1
            return
        state = None if at is None else self.state_text(at.state)
        line = None if at is None else at.line
        self.problems[key] = _Problem(Finding(check, method, message, state, line))

    def note(self, text: str) -> None:
        """Record a remark (once)."""
        if text not in self.notes:
            self.notes.append(text)

    def call(self, check: str, method: str, at: _Position | None,
             function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)``, or :data:`_RAISED` after recording what it raised."""
        try:
            return function(*args)
        except Exception as error:
            self.fail(check, method, f"raised {type(error).__name__}",
                      f"raised {_error_text(error)}", at)
            return _RAISED

    def state_text(self, state: Any) -> str:
        """``state`` drawn by ``render`` on one line, shortened (``repr`` if render fails)."""
        try:
            text = self.game.render(state)
            if not isinstance(text, str):
                text = repr(state)
        except Exception:
            try:
                text = repr(state)
            except Exception:
                text = f"<{type(state).__name__} that cannot be shown>"
        return _shortened(" / ".join(part.strip() for part in text.splitlines() if part.strip()),
                          STATE_TEXT_LIMIT)

    def move_text(self, state: Any, move: Any) -> str:
        """The move as ``format_move`` writes it, else its ``repr`` (never raises)."""
        try:
            text = self.game.format_move(state, move)
        except Exception:
            text = None
        if isinstance(text, str) and text:
            return text
        try:
            return repr(move)
        except Exception:
            return f"<{type(move).__name__}>"

    # -- playouts ----------------------------------------------------------------------------

    def play_out(self, playouts: int) -> None:
        """Play ``playouts`` random games from the initial state, checking every state met."""
        start = self.call("states", "initial_state", None, self.game.initial_state)
        if start is _RAISED:
            self.skipped.update(dict.fromkeys(CHECKS, "initial_state raised"))
            return
        self.check_state(_Position(start, ()), "initial_state")
        for _ in range(playouts):
            self.playout_lines.append(self.playout(start))

    def playout(self, start: Any) -> list[_Node]:
        """One random game from ``start``: the nodes met, in order."""
        position = _Position(start, ())
        met: list[_Node] = []
        seen: set[Any] = set()
        while True:
            node = self.node(position)
            met.append(node)
            self.note_repetition(position, seen)
            playable = node.playable()
            if not playable:
                break
            if len(met) > self.max_plies:
                self.fail("length", "outcome", "endless",
                          f"the game had not ended after {self.max_plies} plies (outcome stays "
                          "None and there are always moves): a game must end; give a larger "
                          "max_plies (--max-plies) if it is this long", position)
                break
            index = playable[self.rng.randrange(len(playable))]
            position = _Position(node.children[index], (*position.line, node.texts[index]))
        self.counts["length"] += 1
        self.longest = max(self.longest, len(met) - 1)
        return met

    def note_repetition(self, position: _Position, seen: set[Any]) -> None:
        """Note (once) a playout that comes back to a state it has been in."""
        try:
            if position.state in seen and not self.repeated:
                self.repeated = True
                self.note("a playout came back to a position it had been in (after "
                          f"{_line_text(position.line)}): the game can go on forever, and a "
                          "search without a depth limit may not end")
            seen.add(position.state)
        except Exception:
            pass  # unhashable (or a raising __eq__): reported by the states check

    def node(self, position: _Position) -> _Node:
        """The checked node of ``position``'s state (checked now if it is new)."""
        try:
            known = self.nodes.get(position.state)
        except Exception:  # unhashable, or a raising __hash__ or __eq__
            known = None
        if known is not None:
            return known
        node = self.visit(position)
        try:
            self.nodes[position.state] = node
        except Exception:
            self.unhashed.append(node)
        return node

    # -- one state ---------------------------------------------------------------------------

    def visit(self, position: _Position) -> _Node:
        """Run every per-state check on a state met for the first time."""
        watch = _Watch(self, position)
        node = _Node(position, self.check_player(position), None)
        watch.unchanged("to_move")
        node.outcome = self.check_outcome(position)
        watch.unchanged("outcome")
        node.moves = self.check_moves(position, node.outcome)
        watch.unchanged("moves")
        if node.outcome is None:
            node.estimate = self.check_evaluate(position)
            watch.unchanged("evaluate")
        self.check_key(node)
        watch.unchanged("key")
        self.check_text(position, node.moves)
        watch.unchanged("format_move, parse_move or render")
        for move in node.moves:
            self.check_play(node, move, watch)
        return node

    def check_play(self, node: _Node, move: Any, watch: _Watch) -> None:
        """Play ``move`` (twice: the same state must come out) and check the new state."""
        position = node.position
        child = self.call("play", "play", position, self.game.play, position.state, move)
        unchanged = watch.unchanged("play", check="play")
        node.children.append(child)
        node.texts.append(self.move_text(position.state, move))
        self.counts["play"] += 1
        if child is _RAISED:
            return
        child_position = _Position(child, (*position.line, node.texts[-1]))
        self.check_state(child_position, "play")
        again = self.call("play", "play", position, self.game.play, position.state, move)
        if (unchanged and watch.unchanged("play", check="play") and again is not _RAISED
                and not _equal(again, child) and _equal(_copy_or(child), child)):
            self.fail("play", "play", "not deterministic",
                      f"gave {self.state_text(again)!r} the second time the move "
                      f"{node.texts[-1]} was played from this state (the first time: the "
                      "state shown); play must give the same state every time", child_position)

    def check_state(self, position: _Position, source: str) -> None:
        """A state from ``source`` (``initial_state`` or ``play``): hashable, equal to a copy."""
        state = position.state
        self.counts["states"] += 1
        if state is None:
            self.fail("states", source, "None",
                      "returned None; expected a state (does it forget to return the new "
                      "state?)", position)
            return
        try:
            code = hash(state)
        except Exception as error:
            self.fail("states", source, "unhashable",
                      f"returned a {type(state).__name__}, which is not hashable "
                      f"({_error_text(error)}): states must be immutable and hashable (a "
                      "tuple, an int, a frozen dataclass)", position)
            return
        try:
            twin = copy.deepcopy(state)
        except Exception:
            return  # searches never copy states: nothing to compare with
        same = self.call("states", f"{type(state).__name__}.__eq__", position,
                         lambda: bool(twin == state))
        if same is _RAISED:
            return
        if not same:
            self.fail("states", source, "unequal copy",
                      f"returned a {type(state).__name__} that a copy of it does not equal: "
                      "tables could never find the position again (define __eq__ and "
                      "__hash__, or use a tuple or a frozen dataclass)", position)
        elif _hash_or_none(twin) != code:
            self.fail("states", source, "hash of copy",
                      f"returned a {type(state).__name__} whose copy, though equal, has "
                      "another hash", position)

    def check_player(self, position: _Position) -> Any:
        """``to_move`` is the int 0 or 1."""
        self.counts["players"] += 1
        player = self.call("players", "to_move", position, self.game.to_move, position.state)
        if player is not _RAISED and not _is_player(player):
            self.fail("players", "to_move", "not 0 or 1",
                      f"returned {_shown(player)} ({type(player).__name__}); expected the int 0 "
                      "(the first player) or 1", position)
        return player

    def check_outcome(self, position: _Position) -> Any:
        """``outcome`` is None or a finite real number."""
        self.counts["outcome"] += 1
        outcome = self.call("outcome", "outcome", position, self.game.outcome, position.state)
        if outcome is None or outcome is _RAISED:
            return outcome
        problem = _number_problem(outcome)
        if problem is not None:
            self.fail("outcome", "outcome", problem,
                      f"returned {_shown(outcome)} ({type(outcome).__name__}); expected None while "
                      "the game goes on, else a finite number: the result for player 0",
                      position)
        return outcome

    def check_moves(self, position: _Position, outcome: Any) -> list[Any]:
        """``moves``: a sequence of distinct hashable moves, stable, empty exactly at the end.

        Returns the moves (as a list) that the playout may continue with.
        """
        self.counts["moves"] += 1
        state = position.state
        moves = self.call("moves", "moves", position, self.game.moves, state)
        if moves is _RAISED:
            return []
        if not isinstance(moves, Sequence) or isinstance(moves, (str, bytes)):
            self.fail("moves", "moves", "not a sequence",
                      f"returned a {type(moves).__name__}; expected a sequence (a list or a "
                      "tuple): the searches index and slice it", position)
            try:
                moves = list(moves)
            except Exception:
                return []
        listed = list(moves)
        hashable = self.check_move_items(position, listed)
        again = self.call("moves", "moves", position, self.game.moves, state)
        if again is not _RAISED and not _equal(_as_list(again), listed):
            self.fail("moves", "moves", "unstable",
                      "gave different moves when asked again about the same state; the order "
                      "of moves decides ties, so it must not change", position)
        self.check_end(position, outcome, listed)
        if hashable and listed and self.custom_order:
            self.check_order(position, listed)
        return listed if outcome is None or outcome is _RAISED else []

    def check_move_items(self, position: _Position, moves: list[Any]) -> bool:
        """Every move hashable and none twice; False if some move is unhashable."""
        try:
            counts = Counter(moves)
        except Exception as error:
            self.fail("moves", "moves", "unhashable move",
                      f"returned an unhashable move ({_error_text(error)}): moves must be "
                      "hashable (an int, a tuple, a string)", position)
            return False
        repeated = [move for move, times in counts.items() if times > 1]
        if repeated:
            self.fail("moves", "moves", "duplicate",
                      f"listed {_shown(repeated[0])} more than once; each legal move once",
                      position)
        return True

    def check_end(self, position: _Position, outcome: Any, moves: list[Any]) -> None:
        """Moves are empty exactly when the game is over (a horizon is allowed in a tree)."""
        if outcome is _RAISED:
            return
        if outcome is not None and moves:
            self.fail("moves", "moves", "moves after the end",
                      f"returned {len(moves)} moves though the game is over (outcome "
                      f"{_shown(outcome)}); expected none once the game is over", position)
        elif outcome is None and not moves:
            self.horizon_count += 1
            if not self.horizons:
                self.fail("moves", "outcome", "horizon",
                          "returned None for a state without moves: the game stops here "
                          "without a result (a 'horizon', valued by evaluate, as the "
                          "numeric leaves of an explicit tree are); a real game should give "
                          "every state without moves an outcome (allow horizons with "
                          "horizons=True / --allow-horizons)", position)

    def check_order(self, position: _Position, moves: list[Any]) -> None:
        """``order_moves`` returns the same moves, reordered."""
        ordered = self.call("moves", "order_moves", position, self.game.order_moves,
                            position.state, tuple(moves))
        if ordered is _RAISED:
            return
        try:
            same = Counter(ordered) == Counter(moves)
        except Exception:
            same = False
        if not same:
            self.fail("moves", "order_moves", "not a reordering",
                      f"returned {_shown(ordered, 80)} for the moves {_shown(moves, 80)}; "
                      "expected the same moves, reordered",
                      position)

    def check_evaluate(self, position: _Position) -> Any:
        """``evaluate`` is a finite number within ±HEURISTIC_LIMIT on an unfinished state;
        returns it (``_RAISED`` if it raised)."""
        self.counts["evaluate"] += 1
        estimate = self.call("evaluate", "evaluate", position, self.game.evaluate,
                             position.state)
        if estimate is _RAISED:
            return estimate
        problem = _number_problem(estimate)
        if problem is None and abs(estimate) > HEURISTIC_LIMIT:
            problem = "out of range"
        if problem is not None:
            self.fail("evaluate", "evaluate", problem,
                      f"returned {_shown(estimate)}; expected a finite number within "
                      f"±{HEURISTIC_LIMIT} (gametree.values.HEURISTIC_LIMIT), so that no "
                      "estimate is taken for a proven result", position)
        return estimate

    def check_key(self, node: _Node) -> None:
        """``key``: hashable, the same when asked again and for a copy; collect key sharers."""
        self.counts["key"] += 1
        position = node.position
        state = position.state
        key = self.call("key", "key", position, self.game.key, state)
        if key is _RAISED:
            return
        if _hash_or_none(key) is None:
            if self.custom_key:  # (the default key is the state: the states check said it)
                self.fail("key", "key", "unhashable",
                          f"returned a {type(key).__name__}, which is not hashable", position)
            return
        again = self.call("key", "key", position, self.game.key, _copy_or(state))
        if again is not _RAISED and not _equal(again, key):
            self.fail("key", "key", "unstable",
                      f"gave {_shown(key)} and then {_shown(again)} for the same state (or a "
                      "copy of it); a key must depend only on the state", position)
        if self.custom_key and _is_player(node.player):
            self.collect_key_sharer(node, key)

    def collect_key_sharer(self, node: _Node, key: Any) -> None:
        """Remember the first state of each key; another state with the same key must have
        the same player to move (checked here) and value (:meth:`check_key_values`)."""
        position, player = node.position, node.player
        try:
            first = self.by_key.setdefault(key, node)
        except Exception:
            return  # a key whose __eq__ raises: the unstable-key check shows it
        if first is node or _equal(first.position.state, position.state):
            return
        if first.player != player:
            self.fail("key", "key", "player differs",
                      f"gives {_shown(key)} both here (player {player} to move) "
                      f"and to the state after {' '.join(first.position.line) or 'no moves'} "
                      f"(player {first.player} to move): states sharing a key must have the "
                      "same player to move", position)
        else:
            self.key_pairs.append((first, node))

    def check_text(self, position: _Position, moves: list[Any]) -> None:
        """``format_move``/``parse_move`` round trip, nonsense refused, ``render`` gives text."""
        state = position.state
        rendered = self.call("text", "render", position, self.game.render, state)
        if rendered is not _RAISED and not isinstance(rendered, str):
            self.fail("text", "render", "not text",
                      f"returned a {type(rendered).__name__}; expected a str", position)
        for move in moves:
            self.check_round_trip(position, move)
        self.check_nonsense(position)

    def check_round_trip(self, position: _Position, move: Any) -> None:
        """``parse_move(state, format_move(state, move)) == move``."""
        self.counts["text"] += 1
        state = position.state
        text = self.call("text", "format_move", position, self.game.format_move, state, move)
        if text is _RAISED:
            return
        if not isinstance(text, str):
            self.fail("text", "format_move", "not text",
                      f"returned {_shown(text)} ({type(text).__name__}) for the move "
                      f"{_shown(move)}; expected a str", position)
            return
        try:
            back = self.game.parse_move(state, text)
        except IllegalMoveError as error:
            self.fail("text", "parse_move", "refused own text",
                      f"refused {text!r}, the text format_move gives the legal move "
                      f"{_shown(move)} ({_error_text(error)})", position)
            return
        except Exception as error:
            self.fail("text", "parse_move", f"raised {type(error).__name__}",
                      f"raised {_error_text(error)} reading {text!r}", position)
            return
        if not _equal(back, move):
            self.fail("text", "parse_move", "round trip",
                      f"read {text!r} (format_move's text for the move {_shown(move)}) as "
                      f"{_shown(back)}; expected parse_move(state, format_move(state, move)) "
                      "== move", position)

    def check_nonsense(self, position: _Position) -> None:
        """Text that names no move is refused with IllegalMoveError (what the terminal player
        shows before asking again), not another exception."""
        try:
            move = self.game.parse_move(position.state, NONSENSE)
        except IllegalMoveError:
            return
        except Exception as error:
            self.fail("text", "parse_move", "nonsense raised",
                      f"raised {_error_text(error)} for the text {NONSENSE!r}; expected "
                      "IllegalMoveError with a reason a person can act on", position)
            return
        self.fail("text", "parse_move", "nonsense accepted",
                  f"read the text {NONSENSE!r} as the move {_shown(move)}; expected "
                  "IllegalMoveError", position)

    # -- states sharing a key ----------------------------------------------------------------

    def check_key_values(self) -> None:
        """States sharing a key have the same value: exact when both searches fit in the node
        budget, else at depth :data:`VALUE_DEPTH`."""
        pairs = self.key_pairs
        if len(pairs) > self.searches:
            pairs = random.Random(self.seed).sample(pairs, self.searches)
        for first, other in pairs:
            compared = self.compare_pair(first, other)
            if compared is not None:
                self.value_counts[compared] += 1

    def compare_pair(self, first: _Node, other: _Node) -> str | None:
        """Compare two states' values; returns ``exact``, ``limited``, or None if no search
        fitted the budget."""
        for depth in (None, VALUE_DEPTH):
            values = [self.reference_value(node.position, depth) for node in (first, other)]
            if values[0] is None or values[1] is None:
                continue
            if values[0] != values[1]:
                kind = "exact values" if depth is None else f"depth-{depth} values"
                self.fail("key", "key", "value differs",
                          f"gives this state and the state after "
                          f"{' '.join(first.position.line) or 'no moves'} the same key, but "
                          f"their {kind} differ ({format_value(values[1])} here, "
                          f"{format_value(values[0])} there, for the player to move): states "
                          "sharing a key must have the same value", other.position)
            return "exact" if depth is None else "limited"
        return None

    def reference_value(self, position: _Position, depth: int | None) -> Value | None:
        """The reference alpha-beta value of ``position`` (for its player to move), or None
        if the search would expand more than the node budget or the game raised."""
        budgeted = _Budgeted(self.game, self.search_nodes)
        try:
            return alphabeta(budgeted, position.state, depth=depth).value
        except (_OverBudgetError, RecursionError):  # too large, or too deep, to search
            return None
        except _GameRaisedError as raised:
            self.fail("key", raised.method, f"raised {type(raised.error).__name__} in search",
                      f"raised {_error_text(raised.error)} while the reference alpha-beta "
                      "searched from here", position)
        except Exception as error:
            self.fail("key", "(search)", f"search raised {type(error).__name__}",
                      f"the reference alpha-beta stopped with {_error_text(error)} searching "
                      "from here", position)
        return None

    # -- the kernel --------------------------------------------------------------------------

    def check_kernel(self, *, compiled: bool) -> None:
        """Compare the game with its kernel: rules on every state met, then values."""
        form = self.compiled_form()
        if form is None:
            return
        from .compiled.adapter import KernelGame  # noqa: PLC0415 - only for games with kernels

        try:
            kernel_game = KernelGame(form.kernel)
        except Exception as error:
            self.fail("kernel", "kernel", f"raised {type(error).__name__}",
                      f"its rules could not be loaded: {_error_text(error)}")
            self.skipped["values"] = "the kernel's rules could not be loaded"
            return
        _KernelComparison(self, form, kernel_game).compare_rules(self.all_nodes())
        if not compiled:
            self.skipped["values"] = ("the compiled engine was not run (compiled=False, "
                                      "--no-compiled)")
            return
        _ValueComparison(self, form).run()

    def compiled_form(self) -> CompiledForm[Any, Any] | None:
        """The game's compiled form, or None (with the reason in the skipped checks)."""
        from .compiled.form import CompiledForm  # noqa: PLC0415 - cheap, imports no numba

        try:
            form = self.game.compiled_form()
        except ValueError as error:  # KernelError included: not for these options
            self.note(f"no kernel for these options: {_error_text(error)}")
            form = None
            reason = "no kernel for these options"
        except Exception as error:
            self.fail("kernel", "compiled_form", f"raised {type(error).__name__}",
                      f"raised {_error_text(error)}; expected a CompiledForm, None, or a "
                      "ValueError (KernelError) for options the kernel cannot hold")
            form = None
            reason = "compiled_form raised"
        else:
            reason = "the game has no compiled form"
            if form is not None and not isinstance(form, CompiledForm):
                self.fail("kernel", "compiled_form", "not a form",
                          f"returned a {type(form).__name__}; expected a "
                          "gametree.compiled.form.CompiledForm or None")
                form = None
                reason = "compiled_form returned no CompiledForm"
        if form is None:
            self.skipped.setdefault("kernel", reason)
            self.skipped.setdefault("values", reason)
        return form

    def all_nodes(self) -> list[_Node]:
        """Every node checked, in the order first met."""
        return [*self.nodes.values(), *self.unhashed]

    # -- the report --------------------------------------------------------------------------

    def report(self, playouts: int) -> CheckReport:
        """The report of everything checked so far."""
        if self.horizon_count and self.horizons:
            self.note(f"{self.horizon_count} states without moves have no outcome: horizons, "
                      "valued by evaluate (allowed for explicit trees)")
        findings = tuple(
            Finding(problem.finding.check, problem.finding.method, problem.finding.message,
                    problem.finding.state, problem.finding.line, problem.count)
            for problem in self.problems.values())
        ordered = tuple(sorted(findings, key=lambda finding: CHECKS.index(finding.check)))
        summaries = tuple(self.summary(name, ordered) for name in CHECKS)
        return CheckReport(game=str(self.game.name), seed=self.seed, playouts=playouts,
                           max_plies=self.max_plies, states=self.counts["players"],
                           moves=self.counts["play"], checks=summaries, findings=ordered,
                           notes=tuple(self.notes))

    def summary(self, name: str, findings: tuple[Finding, ...]) -> CheckSummary:
        """One check's line: what it looked at, and its status."""
        problems = sum(1 for finding in findings if finding.check == name)
        if name in self.skipped and not problems:
            return CheckSummary(name, "skip", self.skipped[name], 0)
        return CheckSummary(name, "FAIL" if problems else "ok", self.describe(name), problems)

    def describe(self, name: str) -> str:
        """What check ``name`` looked at, with its counts."""
        counts, values = self.counts, self.value_counts
        descriptions = {
            "players": f"{counts['players']} states: to_move is the int 0 or 1",
            "states": f"{counts['states']} states from initial_state and play: hashable, "
                      "equal to a copy of themselves, unchanged by the game's methods",
            "moves": f"{counts['moves']} states: distinct hashable moves, the same when asked "
                     "again, none exactly when the game is over",
            "outcome": f"{counts['outcome']} states: outcome is None or a finite number",
            "evaluate": f"{counts['evaluate']} unfinished states: evaluate is a number within "
                        f"±{HEURISTIC_LIMIT}",
            "play": f"{counts['play']} moves played: the state played from is unchanged, the "
                    "new state hashable and the same when played again",
            "key": self.describe_keys(),
            "text": f"{counts['text']} moves: parse_move(format_move(move)) == move; nonsense "
                    "refused with IllegalMoveError; render gives text",
            "length": f"{counts['length']} playouts, the longest {self.longest} plies: every "
                      f"game ends within {self.max_plies} plies",
            "kernel": f"{counts['kernel']} states: the kernel gives the same player to move, "
                      "moves (in order), outcome, evaluate and next states",
            "values": f"{values['tiers exact']} exact and {values['tiers limited']} "
                      f"depth-{VALUE_DEPTH} searches: the compiled engine's values equal the "
                      "Python tier's",
        }
        return descriptions[name]

    def describe_keys(self) -> str:
        """The key check's line."""
        text = f"{self.counts['key']} states: key hashable, the same for equal states"
        if not self.custom_key:
            return text + " (the default key: the state itself)"
        exact, limited = self.value_counts["exact"], self.value_counts["limited"]
        return (f"{text}; {len(self.key_pairs)} states share a key with another: same player "
                f"to move, same value ({exact} exact and {limited} depth-{VALUE_DEPTH} values "
                "compared)")


class _Watch:
    """Notices a change to a state while the game's methods are called on it, and blames the
    method called last."""

    def __init__(self, checker: _Checker, position: _Position) -> None:
        self.checker = checker
        self.position = position
        self.before = _fingerprint(position.state)

    def unchanged(self, method: str, *, check: str = "states") -> bool:
        """Record a problem of ``method`` if the state changed since the last look; True if
        it did not (or cannot be watched)."""
        if self.before is None:
            return True
        now = _fingerprint(self.position.state)
        if now == self.before:
            return True
        self.checker.fail(check, method, "changed its input",
                          "changed the state it was given; states are values that the "
                          "searches keep in tables: return a new state instead",
                          _Position(_unpickled(self.before, self.position.state),
                                    self.position.line))
        self.before = now
        return False


class _KernelComparison:
    """The kernel's rules, run as plain Python, against the game's on the states met."""

    def __init__(self, checker: _Checker, form: CompiledForm[Any, Any],
                 kernel_game: KernelGame) -> None:
        self.checker = checker
        self.form = form
        self.kernel = kernel_game

    def compare_rules(self, nodes: list[_Node]) -> None:
        """Compare player, outcome, moves, evaluation and next states on every node."""
        for node in nodes:
            if node.player is _RAISED or node.outcome is _RAISED:
                continue
            self.checker.counts["kernel"] += 1
            self.compare_node(node)

    def kernel_call(self, method: str, position: _Position, function: Callable[..., Any],
                    *args: Any) -> Any:
        """A call of the kernel side, problems recorded under the kernel check."""
        return self.checker.call("kernel", method, position, function, *args)

    def compare_node(self, node: _Node) -> None:
        """The kernel agrees with the game on one state."""
        position, checker = node.position, self.checker
        encoded = self.kernel_call("compiled_form().encode", position, self.form.encode,
                                   position.state)
        if encoded is _RAISED:
            return
        player = self.kernel_call("kernel to_move", position, self.kernel.to_move, encoded)
        if player is not _RAISED and player != node.player:
            checker.fail("kernel", "kernel to_move", "player differs",
                         f"says player {player} moves, the game says {node.player}", position)
        outcome = self.kernel_call("kernel outcome", position, self.kernel.outcome, encoded)
        if outcome is not _RAISED and not _same_outcome(outcome, node.outcome):
            checker.fail("kernel", "kernel outcome", "outcome differs",
                         f"gives {_outcome_text(outcome)}, the game {_outcome_text(node.outcome)}",
                         position)
        if node.outcome is None:
            self.compare_evaluate(node, encoded)
        kernel_moves = self.compare_moves(node, encoded)
        if kernel_moves is not None:
            self.compare_play(node, encoded, kernel_moves)

    def compare_evaluate(self, node: _Node, encoded: Any) -> None:
        """The kernel's heuristic is the game's."""
        position, ours = node.position, node.estimate
        if _number_problem(ours) is not None:
            return  # the evaluate check has said why
        theirs = self.kernel_call("kernel evaluate", position, self.kernel.evaluate, encoded)
        if theirs is not _RAISED and theirs != ours:
            self.checker.fail("kernel", "kernel evaluate", "evaluate differs",
                              f"gives {theirs}, the game's evaluate {ours}: depth-limited "
                              "values would differ between the tiers", position)

    def compare_moves(self, node: _Node, encoded: Any) -> list[int] | None:
        """The kernel's moves, decoded, are the game's in the same order; returns the kernel
        moves when they agree, else None."""
        position = node.position
        kernel_moves = self.kernel_call("kernel moves", position, self.kernel.moves, encoded)
        if kernel_moves is _RAISED:
            return None
        decoded = [self.kernel_call("compiled_form().decode_move", position,
                                    self.form.decode_move, position.state, move)
                   for move in kernel_moves]
        if any(move is _RAISED for move in decoded):
            return None
        if _equal(decoded, node.moves):
            return list(kernel_moves)
        texts = self.texts(position.state, decoded), self.texts(position.state, node.moves)
        try:
            reordered = Counter(decoded) == Counter(node.moves)
        except Exception:
            reordered = False
        if reordered:
            self.checker.fail("kernel", "kernel moves", "order differs",
                              f"lists the same moves in another order: {texts[0]} against the "
                              f"game's {texts[1]}; both tiers must try moves in the same order "
                              "(it decides ties)", position)
        else:
            self.checker.fail("kernel", "kernel moves", "moves differ",
                              f"gives {texts[0]}, the game {texts[1]}", position)
        return None

    def compare_play(self, node: _Node, encoded: Any, kernel_moves: list[int]) -> None:
        """After each move, the kernel's state is the game's next state, encoded."""
        position = node.position
        for index in node.playable():
            ours = self.kernel_call("compiled_form().encode", position, self.form.encode,
                                    node.children[index])
            theirs = self.kernel_call("kernel play", position, self.kernel.play, encoded,
                                      kernel_moves[index])
            if ours is _RAISED or theirs is _RAISED or _equal(ours, theirs):
                continue
            self.checker.fail("kernel", "kernel play", "next state differs",
                              f"after {node.texts[index]} the kernel's state is "
                              f"{_shown(theirs)}, the game's (encoded) {_shown(ours)}", position)

    def texts(self, state: Any, moves: list[Any]) -> str:
        """Moves as the game writes them: ``[1, 2, 3]``."""
        return "[" + ", ".join(self.checker.move_text(state, move) for move in moves) + "]"


class _ValueComparison:
    """The compiled engine's values against the Python tier's on positions from the
    playouts: exact near the end of a game, depth-limited elsewhere."""

    def __init__(self, checker: _Checker, form: CompiledForm[Any, Any]) -> None:
        self.checker = checker
        self.form = form
        self.broken = False
        self.first_fit = 0
        """The entry of :data:`NEAR_END` whose position last fitted the node budget."""

    def run(self) -> None:
        """Compare exact values, then depth-limited ones."""
        for candidates in self.near_end_positions():
            if self.broken:
                return
            self.compare_exact(candidates)
        if self.form.kernel.has_threat_hooks:
            self.checker.note(
                f"the kernel has threat hooks, with which the compiled engine proves wins and "
                f"losses beyond a depth limit: depth-{VALUE_DEPTH} values are compared where "
                "the Python tier proves a result")
        for position in self.sampled_positions():
            if self.broken:
                return
            if self.compare(position, VALUE_DEPTH):
                self.checker.value_counts["tiers limited"] += 1

    def near_end_positions(self) -> list[list[_Position]]:
        """For each of the first playouts, its unfinished positions :data:`NEAR_END` plies
        before its end (one for each entry; the first position of a shorter playout)."""
        chosen: list[list[_Position]] = []
        for line in self.checker.playout_lines:
            unfinished = [node.position for node in line if _searchable(node)]
            if not unfinished:
                continue
            chosen.append([unfinished[max(0, len(unfinished) - 1 - back)] for back in NEAR_END])
            if len(chosen) == self.checker.searches:
                break
        return chosen

    def sampled_positions(self) -> list[_Position]:
        """Unfinished positions drawn at random (seeded) from every state met."""
        unfinished = [node.position for node in self.checker.all_nodes() if _searchable(node)]
        count = min(self.checker.searches, len(unfinished))
        return random.Random(self.checker.seed).sample(unfinished, count)

    def compare_exact(self, candidates: list[_Position]) -> None:
        """The first candidate whose Python-tier exact search fits the budget is compared.

        The candidates are tried from the distance to the end that fitted last time (the
        farthest at first) towards the end, so searches over the budget are not repeated
        playout after playout.
        """
        tried = None
        for index in range(self.first_fit, len(candidates)):
            position = candidates[index]
            if self.broken:
                return
            if position is tried:
                continue
            tried = position
            if self.compare(position, None):
                self.first_fit = index
                self.checker.value_counts["tiers exact"] += 1
                return

    def compare(self, position: _Position, depth: int | None) -> bool:
        """Search ``position`` on both tiers and compare; False if the Python tier's search
        did not fit the node budget (or failed)."""
        python = self.python_result(position, depth)
        if python is None:
            return False
        try:
            compiled = _tier_search(self.checker.game, position.state, form=self.form,
                                    depth=depth)
        except Exception as error:
            self.broken = True
            self.checker.fail("values", "compiled engine", f"raised {type(error).__name__}",
                              f"searching the compiled form raised {_error_text(error)}",
                              position)
            return False
        self.report_difference(position, depth, python, compiled)
        return True

    def python_result(self, position: _Position, depth: int | None) -> SearchResult[Any] | None:
        """The Python tier's result, or None if over the node budget or the game raised."""
        budgeted = _Budgeted(self.checker.game, self.checker.search_nodes)
        try:
            return _tier_search(budgeted, position.state, form=None, depth=depth)
        except (_OverBudgetError, RecursionError):  # too large, or too deep, to search
            return None
        except _GameRaisedError as raised:
            self.checker.fail("values", raised.method,
                              f"raised {type(raised.error).__name__} in search",
                              f"raised {_error_text(raised.error)} while the Python tier "
                              "searched from here", position)
        except Exception as error:
            self.checker.fail("values", "(search)", f"search raised {type(error).__name__}",
                              f"the Python tier's search stopped with {_error_text(error)}",
                              position)
        return None

    def report_difference(self, position: _Position, depth: int | None,
                          python: SearchResult[Any], compiled: SearchResult[Any]) -> None:
        """Record a problem if the root values or any root move's value differ.

        With threat hooks the compiled engine proves wins and losses beyond a depth limit (an
        immediate win, or no move that saves the game, seen at the horizon), so its
        depth-limited values may rightly differ from the Python tier's: there only the values
        the Python tier proves within the depth are compared.
        """
        kind = "exact" if depth is None else f"depth-{depth}"
        proven_only = depth is not None and self.form.kernel.has_threat_hooks

        def compared(value: Value) -> bool:
            return not proven_only or plies_to_result(value) is not None

        detail: str | None
        if compared(python.value) and python.value != compiled.value:
            detail = (f"the {kind} value is {format_value(compiled.value)} on the compiled "
                      f"tier, {format_value(python.value)} on the Python tier")
        else:
            detail = self.move_difference(position, kind, [
                entry for entry in python.moves if compared(entry.value)], compiled)
        if detail is not None:
            self.checker.fail("values", "compiled engine", f"{kind} values differ",
                              f"{detail}; the kernel and the game must be the same game",
                              position)

    def move_difference(self, position: _Position, kind: str, ours: list[MoveValue[Any]],
                        compiled: SearchResult[Any]) -> str | None:
        """The first of ``ours`` (root moves valued by the Python tier) that the compiled
        tier values otherwise, in words; None if there is none."""
        for entry in ours:
            theirs = next((other.value for other in compiled.moves
                           if _equal(other.move, entry.move)), None)
            if theirs != entry.value:
                text = self.checker.move_text(position.state, entry.move)
                return (f"the {kind} value of the move {text} is {_value_text(theirs)} on the "
                        f"compiled tier, {format_value(entry.value)} on the Python tier")
        return None


# -- small helpers -----------------------------------------------------------------------------


def _overrides(game: Game[Any, Any], method: str) -> bool:
    """True if ``game`` has its own ``method`` rather than :class:`Game`'s default."""
    own = getattr(game, method, None)
    return getattr(own, "__func__", own) is not getattr(Game, method)


def _is_player(player: Any) -> bool:
    """True for the int 0 or 1 (not a bool)."""
    return isinstance(player, int) and not isinstance(player, bool) and player in (0, 1)


def _number_problem(value: Any) -> str | None:
    """Why ``value`` is not a finite real number, or None if it is one."""
    if isinstance(value, bool) or not isinstance(value, Real):
        return "not a number"
    if not math.isfinite(float(value)):
        return "not finite"
    return None


def _same_outcome(kernel: Any, game: Any) -> bool:
    """The kernel's outcome (None or an int) is the game's."""
    if kernel is None or game is None:
        return kernel is None and game is None
    return bool(kernel == game)


def _outcome_text(outcome: Any) -> str:
    return "no outcome (the game goes on)" if outcome is None else f"the outcome {_shown(outcome)}"


def _value_text(value: Value | None) -> str:
    return "no value" if value is None else format_value(value)


def _searchable(node: _Node) -> bool:
    """True for a node worth searching: the game goes on and there are moves."""
    return node.outcome is None and bool(node.moves) and _is_player(node.player)


def _equal(first: Any, second: Any) -> bool:
    """``first == second``, False if comparing raises."""
    try:
        return bool(first == second)
    except Exception:
        return False


def _as_list(moves: Any) -> list[Any] | None:
    try:
        return list(moves)
    except Exception:
        return None


def _hash_or_none(value: Any) -> int | None:
    """``hash(value)``, or None if it cannot be hashed (whatever its ``__hash__`` raises)."""
    try:
        return hash(value)
    except Exception:
        return None


def _shown(value: Any, limit: int = 60) -> str:
    """``repr(value)``, shortened; never raises."""
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return _shortened(text, limit)


def _copy_or(state: Any) -> Any:
    """A deep copy of ``state``, or ``state`` itself if it cannot be copied."""
    try:
        return copy.deepcopy(state)
    except Exception:
        return state


def _fingerprint(state: Any) -> bytes | str | None:
    """Something that changes when ``state`` changes: its pickle, else its repr, else None."""
    try:
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        try:
            return repr(state)
        except Exception:
            return None


def _unpickled(fingerprint: bytes | str, otherwise: Any) -> Any:
    """The state a :func:`_fingerprint` was taken of, as it was then (else ``otherwise``)."""
    if isinstance(fingerprint, bytes):
        try:
            return pickle.loads(fingerprint)  # our own pickle, taken just before
        except Exception:
            pass
    return otherwise


def _error_text(error: BaseException) -> str:
    """``TypeError: message`` on one line, shortened."""
    try:
        first = str(error).strip().splitlines()
    except Exception:
        first = []
    text = f"{type(error).__name__}: {first[0]}" if first else type(error).__name__
    return _shortened(text, ERROR_TEXT_LIMIT)


def _line_text(line: tuple[str, ...]) -> str:
    """The moves of a line, separated by spaces; the middle left out of a long one."""
    if len(line) <= LINE_TEXT_LIMIT:
        return " ".join(line)
    head, tail = line[:LINE_TEXT_LIMIT - 4], line[-4:]
    return f"{' '.join(head)} ... {' '.join(tail)} ({len(line)} moves)"


def _shortened(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
