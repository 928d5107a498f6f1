"""The contract checker: random playouts that test, on every state met, each promise of the
Game contract the searches rely on (see :mod:`gametree.check`)."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..game import CHANCE, Game, IllegalMoveError
from ..games.tree import GameTree
from ..reference import alphabeta, expectiminimax
from ..values import HEURISTIC_LIMIT, Value, format_value
from ._base import (
    _RAISED,
    STATE_TEXT_LIMIT,
    _as_list,
    _copy_or,
    _equal,
    _error_text,
    _fingerprint,
    _hash_or_none,
    _is_player,
    _line_text,
    _Node,
    _number_problem,
    _overrides,
    _Position,
    _shortened,
    _shown,
    _unpickled,
)
from .kernel import VALUE_DEPTH, check_kernel
from .report import CHECKS, CheckReport, CheckSummary, Finding
from .searches import _Budgeted, _GameRaisedError, _OverBudgetError

NONSENSE: Final = "no such move ?!"
"""Text that names no move in any game: ``parse_move`` must refuse it."""


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
    check_kernel(checker, compiled=compiled)
    return checker.report(playouts)



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
        self.warnings: list[str] = []
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
        if self.game.has_chance and player == CHANCE and player.__class__ is int:
            self.check_chance(position)
            return player
        if player is not _RAISED and not _is_player(player):
            self.fail("players", "to_move", "not 0 or 1",
                      f"returned {_shown(player)} ({type(player).__name__}); expected the int 0 "
                      "(the first player) or 1", position)
        return player

    def check_chance(self, position: _Position) -> None:
        """At a chance state: ``chance_outcomes`` gives the moves, in order, with positive
        probabilities that sum to 1, and ``turn`` is 0 or 1."""
        state = position.state
        outcomes = self.call("players", "chance_outcomes", position, self.game.chance_outcomes,
                             state)
        moves = self.call("players", "moves", position, self.game.moves, state)
        if outcomes is _RAISED or moves is _RAISED:
            return
        try:
            pairs = [(outcome, probability) for outcome, probability in outcomes]
            total = sum(probability for _, probability in pairs)
            positive = all(probability > 0 for _, probability in pairs)
        except Exception:
            pairs, total, positive = [], 0, False
        if not pairs or not positive or abs(total - 1) > 1e-9:
            self.fail("players", "chance_outcomes", "not a distribution",
                      f"returned {_shown(outcomes)}; expected (outcome, probability) pairs "
                      "with positive probabilities that sum to 1", position)
        elif [outcome for outcome, _ in pairs] != list(moves):
            self.fail("players", "chance_outcomes", "not the moves",
                      "gives other outcomes (or another order) than moves: at a chance state "
                      "the moves are the outcomes, in the same order", position)
        turn = self.call("players", "turn", position, self.game.turn, state)
        if turn is not _RAISED and not _is_player(turn):
            self.fail("players", "turn", "not 0 or 1",
                      f"returned {_shown(turn)} at a chance state; expected the player (0 or "
                      "1) whose turn it is", position)

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
            search = expectiminimax if self.game.has_chance else alphabeta
            return search(budgeted, position.state, depth=depth).value
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
                           notes=tuple(self.notes), warnings=tuple(self.warnings))

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
            "players": f"{counts['players']} states: to_move is the int 0 or 1" + (
                " (or CHANCE, where chance_outcomes gives the moves with probabilities "
                "summing to 1)" if self.game.has_chance else ""),
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
                      "moves (in order), outcome, evaluate and next states" + (
                          f"; its forced_reply says what its non_losing_moves says at the "
                          f"{values['forced replies']} states where the mover cannot win at "
                          f"once" if values["forced replies"] else ""),
            "values": f"{values['tiers exact']} exact and {values['tiers limited']} "
                      f"depth-{VALUE_DEPTH} searches: the compiled engine's values equal the "
                      "Python tier's" + (f"; the kernel's upper_bound held at the "
                                         f"{values['upper bounds']} exact positions it bounds"
                                         if values["upper bounds"] else ""),
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



__all__ = ["NONSENSE", "check_game"]
