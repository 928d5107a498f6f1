"""The engine's inner loop: fail-soft negamax alpha-beta with table, ordering and PVS.

This is the code every node goes through, so it is written for speed: one closure whose
game methods, table and counters are local variables (no attribute look-ups, no objects
made per node besides the game's own states, no copies). :mod:`gametree.engine.traced` is the
same algorithm written plainly with trace events; tests check that both visit the same nodes.

Conventions (those of :mod:`gametree.reference.negamax`):

* ``negamax(state, player, ply, depth, alpha, beta)`` values ``state`` for ``player``, the
  player to move there, ``ply`` plies below the root, looking ``depth`` plies further.
* A finished game is worth ``WIN - ply`` to the winner under distance scoring (the game's
  utility otherwise); a state at depth 0 is worth the game's heuristic estimate.
* If a move leaves the same player to move, the child's value and window are not negated.
* Fail-soft: the value returned may lie outside ``(alpha, beta)``; if it is ``<= alpha`` it is
  an upper bound on the true value, if ``>= beta`` a lower bound, otherwise exact.

**Principal variation search** (PVS, on by default): after the first move, each move is first
searched with a null window ``(a, a⁺)`` — ``a⁺`` is the next float above ``a``, so the window
is empty whatever the values' type — which only answers "is it better than ``a``?". Only if it
is, the move is searched again with the full window. With good ordering the first move is
usually best and the cheap tests pay for the rare re-searches.

Two counters make the table sound across iterative deepening:

* ``cuts`` counts nodes cut off by the depth limit (and table entries that were). A node whose
  subtree had none is *complete*: its value holds at any depth and is stored as
  :data:`~gametree.engine.table.COMPLETE`.
* ``guesses`` counts heuristic estimates (and table entries that used one). A value without
  any is a proof; only such a search may call a draw proven.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from math import inf, nextafter
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..game import Game
from ..values import HEURISTIC_LIMIT, PROVEN, WIN, Value, checked_heuristic
from .ordering import MoveOrder
from .table import (
    BOUND_MASK,
    COMPLETE,
    EXACT,
    HEURISTIC,
    LOWER,
    UPPER,
    Entry,
    TranspositionTable,
    proven_bound,
)

if TYPE_CHECKING:
    from ..limits import StopSignal

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

CHECK_EVERY = 1024
"""Nodes between two looks at the clock (about a millisecond of search or less in a game with
cheap moves); the engine checks more often in a game whose nodes are slow
(:func:`check_interval`)."""

CHECK_SECONDS = 0.002
"""The longest stretch of search between two looks at the clock and the stop signal, in a
game whose nodes are slow (a chess position through python-chess costs tens of
microseconds: 1024 of them would let a search overrun its deadline by tens of
milliseconds)."""


FIRST_CHECK_EVERY = 16
"""Nodes between two looks at the stop signal in a search's first iteration, before its speed
is known (a look costs a fraction of a node, and 16 chess nodes a millisecond or two)."""


def check_interval(nodes: int, seconds: float) -> int:
    """Nodes between two checks of the budgets for a search that visited ``nodes`` in
    ``seconds``: about :data:`CHECK_SECONDS` worth, at most :data:`CHECK_EVERY`."""
    if seconds <= 0:
        return CHECK_EVERY
    return max(1, min(CHECK_EVERY, int(nodes / seconds * CHECK_SECONDS)))

Negamax = Callable[[Any, int, int, int, Value, Value], Value]
"""The signature of the search function: ``(state, player, ply, depth, alpha, beta)``."""

COUNTERS = ("nodes", "leaves", "evaluations", "cutoffs", "first_cutoffs", "probes", "hits",
            "stores", "kept", "researches", "cuts", "guesses", "deepest")
"""The counters a searcher keeps, in the order :meth:`Searcher.counters` returns them (``probes``:
table look-ups; ``cuts``: nodes the depth limit cut; ``guesses``: heuristic estimates;
``deepest``: the deepest ply reached)."""


class SearchStopped(Exception):  # noqa: N818 -- a signal that a budget ran out, not an error
    """Raised inside a search when its node or time budget runs out, or its stop signal is
    set.

    Nothing is half-written when it propagates: the table is only written when a node's
    search has finished, so the table stays consistent and the engine reusable.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        """``"nodes"`` or ``"time"``: which budget ran out; ``"stop"``: the stop signal."""


def estimate_of(game: Game[Any, Any], state: Any) -> Value:
    """The game's heuristic estimate of ``state`` (for player 0), checked like the reference."""
    return checked_heuristic(game.evaluate(state))


def key_function(game: Game[Any, Any]) -> Callable[[Any], Hashable] | None:
    """``game.key`` if the game overrides it, else ``None`` (the state is its own key)."""
    return game.key if type(game).key is not Game.key else None


def noisy_function(game: Game[Any, Any]) -> Callable[[Any], Any] | None:
    """``game.noisy_moves`` if the game overrides it (it is searched with a quiescence search
    at the depth limit), else ``None`` (a state at the depth limit is valued by ``evaluate``)."""
    return game.noisy_moves if getattr(type(game), "noisy_moves", Game.noisy_moves) \
        is not Game.noisy_moves else None


class Searcher(Generic[S, M]):
    """One search's inner loop and counters, built for one game, table and move order.

    :attr:`negamax` is the search function. The counters start at zero; :meth:`counters`
    reads them. Limits are set with :meth:`limit`; when one is reached :attr:`negamax` raises
    :class:`SearchStopped`.
    """

    negamax: Negamax
    counters: Callable[[], tuple[int, ...]]
    tally: Callable[[], tuple[int, int, int, int, int]]
    limit: Callable[[int | None, float | None, StopSignal | None, int], None]
    reset: Callable[[int, bool], None]

    def __init__(  # noqa: PLR0915 -- one closure, so that the inner loop's names are local
        self, game: Game[S, M], table: TranspositionTable | None, order: MoveOrder[S, M], *,
        by_distance: bool, pvs: bool,
    ) -> None:
        outcome = game.outcome
        moves_of = game.moves
        play = game.play
        to_move = game.to_move
        evaluate = game.evaluate
        key_of = key_function(game)
        noisy = noisy_function(game)
        hint = order.hint
        use_killers = order.use_killers
        killers = order.killers
        use_history = order.use_history
        history = order.history
        table_on = table is not None
        entries: dict[Hashable, Entry] = table.entries if table is not None else {}
        get = entries.get
        capacity = table.capacity if table is not None else 0
        sweep = table.sweep if table is not None else None
        generation = table.generation if table is not None else 0
        full_always = not pvs
        limit_value = HEURISTIC_LIMIT
        solving = False  # an exact solve takes every complete entry (table.answers)

        nodes = leaves = evaluations = cutoffs = first_cutoffs = 0
        hits = stores = kept = researches = cuts = guesses = deepest = horizons = 0
        next_check = CHECK_EVERY
        node_limit: int | None = None
        deadline: float | None = None
        stop: StopSignal | None = None
        every = CHECK_EVERY

        def check() -> None:
            """Called every ``every`` nodes and at the node limit: stop if due."""
            nonlocal next_check, nodes
            if node_limit is not None and nodes > node_limit:
                nodes -= 1  # this node will not be searched
                raise SearchStopped("nodes")
            if deadline is not None and time.perf_counter() >= deadline:
                nodes -= 1
                raise SearchStopped("time")
            if stop is not None and stop.is_set():
                nodes -= 1
                raise SearchStopped("stop")
            next_check = nodes + every
            if node_limit is not None and next_check > node_limit + 1:
                next_check = node_limit + 1

        def limit(max_nodes: int | None, until: float | None, signal: StopSignal | None,
                  interval: int) -> None:
            """Stop after ``max_nodes`` nodes in all, at ``until`` (``time.perf_counter``), or
            once ``signal`` is set, looking every ``interval`` nodes (:func:`check_interval`)."""
            nonlocal node_limit, deadline, next_check, stop, every
            node_limit, deadline, stop, every = max_nodes, until, signal, interval
            next_check = nodes + 1

        def estimate(state: Any, player: int) -> Value:
            value = evaluate(state)
            try:
                usable = value.__class__ is not bool and -limit_value <= value <= limit_value
            except TypeError:
                usable = False
            if not usable:
                checked_heuristic(value)  # raises the reference's ValueError
            return -value if player else value

        def quiesce(state: Any, player: int, ply: int, alpha: Value, beta: Value) -> Value:
            """The quiescence search of a state at the depth limit (a game with noisy moves):
            ``player`` may stand pat on the game's estimate or play a noisy move, whose
            children are searched the same way; fail-soft. Every position it values counts as
            a node, a leaf and an evaluation."""
            nonlocal nodes, leaves, evaluations
            best = estimate(state, player)
            if best >= beta:
                return best
            if best > alpha:  # noqa: PLR1730 -- cheaper than max()
                alpha = best
            child_ply = ply + 1
            for move in noisy(state):  # type: ignore[misc]
                child = play(state, move)
                mover = to_move(child)
                nodes += 1
                if nodes >= next_check:
                    check()
                leaves += 1
                utility = outcome(child)
                if utility is not None:  # seen from ``player``, as negamax would give it
                    if player:
                        utility = -utility
                    value = utility if not by_distance else WIN - child_ply if utility > 0 \
                        else child_ply - WIN if utility < 0 else 0
                else:
                    evaluations += 1
                    if mover == player:
                        value = quiesce(child, mover, child_ply, alpha, beta)
                    else:
                        value = -quiesce(child, mover, child_ply, -beta, -alpha)
                if value > best:
                    best = value
                    if value > alpha:
                        if value >= beta:
                            break
                        alpha = value
            return best

        def negamax(  # noqa: PLR0915 -- the inner loop, kept in one piece for speed
            state: Any, player: int, ply: int, depth: int, alpha: Value, beta: Value,
        ) -> Value:
            nonlocal nodes, leaves, evaluations, cutoffs, first_cutoffs, hits, stores, kept
            nonlocal researches, cuts, guesses, deepest, horizons
            nodes += 1
            if nodes >= next_check:
                check()
            utility = outcome(state)
            if utility is not None:
                leaves += 1
                if ply > deepest:  # noqa: PLR1730 -- cheaper than calling max() per leaf
                    deepest = ply
                if player:
                    utility = -utility
                if by_distance:
                    if utility > 0:
                        return WIN - ply
                    if utility < 0:
                        return ply - WIN
                    return 0
                return utility
            if depth <= 0:
                leaves += 1
                if ply > deepest:  # noqa: PLR1730 -- cheaper than calling max() per leaf
                    deepest = ply
                evaluations += 1
                guesses += 1
                cuts += 1
                if noisy is not None:
                    return quiesce(state, player, ply, alpha, beta)
                return estimate(state, player)

            tt_move = None
            entry = None
            key: Hashable = None
            if table_on:
                key = state if key_of is None else key_of(state)
                entry = get(key)
                if entry is not None:
                    stored_depth, flags, value, tt_move, _generation = entry
                    # table.answers and table.proven_bound, written out
                    if stored_depth == depth or (stored_depth >= COMPLETE and (
                            solving or depth >= stored_depth - COMPLETE)):
                        # The entry's lines reach this far below: part of this node's reach.
                        reached = ply + (stored_depth - COMPLETE if stored_depth >= COMPLETE
                                         else stored_depth)
                        if by_distance:
                            if value >= PROVEN:
                                value -= ply
                            elif value <= -PROVEN:
                                value += ply
                        bound = flags & BOUND_MASK
                        if bound == EXACT or (value >= beta if bound == LOWER else value <= alpha):
                            hits += 1
                            if reached > deepest:  # noqa: PLR1730 -- cheaper than max()
                                deepest = reached
                            if stored_depth < COMPLETE:
                                cuts += 1
                            if flags & HEURISTIC:
                                guesses += 1
                            return value
                    elif by_distance and (value >= PROVEN or value <= -PROVEN):
                        proven = proven_bound(value, flags, depth)
                        if proven is not None:  # a proof: no cut, no guess, at any depth
                            reached = ply + int(WIN - abs(proven))  # where its result lies
                            proven = proven - ply if proven > 0 else proven + ply
                            if proven >= beta if proven > 0 else proven <= alpha:
                                hits += 1
                                if reached > deepest:  # noqa: PLR1730 -- cheaper than max()
                                    deepest = reached
                                return proven

            legal = moves_of(state)
            if not legal:  # a horizon: no moves, yet the game does not call it finished
                leaves += 1
                horizons += 1
                if ply > deepest:  # noqa: PLR1730 -- cheaper than calling max() per leaf
                    deepest = ply
                evaluations += 1
                guesses += 1
                return estimate(state, player)
            # Stage 1: the table move alone, before anything else is computed. Stage 2: the
            # other moves in order (the same order as MoveOrder.order, written out here).
            if tt_move is not None and tt_move in legal:
                todo: Any = (tt_move,)
                staged = True
            else:
                tt_move = None
                todo = None
                staged = False

            cuts_before = cuts
            guesses_before = guesses
            # ``deepest`` measures this node's subtree now (restored below): how deep its
            # lines reach is the height a complete entry records.
            deepest_above = deepest
            deepest = ply
            best: Value = -inf
            best_move = None
            a = alpha
            a_up: Value | None = None  # nextafter(a, inf), worked out when first needed
            first = full = True
            child_ply = ply + 1
            child_depth = depth - 1
            # Children at depth 0 come back exact: a null-window test would only be repeated.
            full_window = full_always or child_depth <= 0
            while True:
                if todo is None:
                    ordered = legal if hint is None else hint(state, legal)
                    if use_history and len(ordered) > 1:
                        ordered = sorted(ordered, key=history[player].__getitem__, reverse=True)
                    todo = ordered
                    if tt_move is not None:  # searched already
                        todo = list(ordered)
                        todo.remove(tt_move)
                    if use_killers and ply < len(killers):
                        # The killers go to the front, the newest first (list operations
                        # in C: cheaper than building the list again).
                        killer, second = killers[ply]
                        if second is not None and second != tt_move and second in todo:
                            if todo is ordered:
                                todo = list(ordered)
                            todo.remove(second)
                            todo.insert(0, second)
                        if killer is not None and killer != tt_move and killer in todo:
                            if todo is ordered:
                                todo = list(ordered)
                            todo.remove(killer)
                            todo.insert(0, killer)
                for move in todo:
                    child = play(state, move)
                    mover = to_move(child)
                    if full:
                        if mover == player:
                            value = negamax(child, mover, child_ply, child_depth, a, beta)
                        else:
                            value = -negamax(child, mover, child_ply, child_depth, -beta, -a)
                    else:
                        if a_up is None:
                            a_up = nextafter(a, inf)
                        if mover == player:
                            value = negamax(child, mover, child_ply, child_depth, a, a_up)
                            if a < value < beta:
                                researches += 1
                                value = negamax(child, mover, child_ply, child_depth, a, beta)
                        else:
                            value = -negamax(child, mover, child_ply, child_depth, -a_up, -a)
                            if a < value < beta:
                                researches += 1
                                value = -negamax(child, mover, child_ply, child_depth, -beta,
                                                 -a)
                    if value > best:
                        best = value
                        best_move = move
                        if value > a:
                            if value >= beta:
                                cutoffs += 1
                                if first:
                                    first_cutoffs += 1
                                # MoveOrder.cutoff, written out.
                                if use_killers and move != tt_move:
                                    while len(killers) <= ply:
                                        killers.append([None, None])
                                    slot = killers[ply]
                                    if slot[0] != move:
                                        slot[1] = slot[0]
                                        slot[0] = move
                                if use_history:
                                    history[player][move] += depth * depth
                                break
                            a = value
                            a_up = None
                    first = False
                    full = full_window
                else:
                    if staged:
                        staged = False
                        todo = None
                        continue
                break

            reach = deepest
            if deepest_above > deepest:  # noqa: PLR1730 -- cheaper than max()
                deepest = deepest_above
            if table_on:
                if best <= alpha:
                    flags = UPPER
                elif best >= beta:
                    flags = LOWER
                else:
                    flags = EXACT
                if guesses != guesses_before:
                    flags |= HEURISTIC
                # A complete entry records the height of its subtree: it answers probes at
                # least that deep (and any probe of an exact solve).
                stored_depth = depth if cuts != cuts_before else COMPLETE + reach - ply
                value = best
                if by_distance:
                    if value >= PROVEN:
                        value += ply
                    elif value <= -PROVEN:
                        value -= ply
                # The replacement policy (table.keeps_old), inline.
                if entry is not None and entry[4] == generation and (
                    entry[0] > stored_depth or (
                        entry[0] == stored_depth and not entry[1] & BOUND_MASK
                        and flags & BOUND_MASK)):
                    kept += 1
                else:
                    if len(entries) >= capacity and key not in entries:
                        sweep()  # type: ignore[misc]
                    entries[key] = (stored_depth, flags, value, best_move, generation)
                    stores += 1
            return best

        def counters() -> tuple[int, ...]:
            """Every counter, in the order of :data:`COUNTERS`."""
            # Every look-up ends in a hit, a horizon, or a store (written or kept).
            return (nodes, leaves, evaluations, cutoffs, first_cutoffs,
                    hits + stores + kept + horizons if table_on else 0, hits, stores, kept,
                    researches, cuts, guesses, deepest)

        def tally() -> tuple[int, int, int, int, int]:
            """``(nodes, hits, cuts, guesses, deepest)``: what the engine reads between
            iterations (cheaper than :func:`counters`)."""
            return nodes, hits, cuts, guesses, deepest

        def reset(new_generation: int, exact_solve: bool) -> None:
            """Start a new search: every counter back to zero, no limits, the table's new
            ``generation`` for the entries stored from now on; ``exact_solve`` when the search
            is an exact solve (its probes then take every complete entry)."""
            nonlocal nodes, leaves, evaluations, cutoffs, first_cutoffs, hits, stores, kept
            nonlocal researches, cuts, guesses, deepest, horizons, generation, node_limit
            nonlocal deadline, next_check, solving, stop, every
            nodes = leaves = evaluations = cutoffs = first_cutoffs = 0
            hits = stores = kept = researches = cuts = guesses = deepest = horizons = 0
            generation = new_generation
            solving = exact_solve
            node_limit = deadline = stop = None
            next_check = every = CHECK_EVERY

        def count_root() -> None:
            """Count the root itself as a visited node (the root loop lives in the engine)."""
            nonlocal nodes
            nodes += 1
            if nodes >= next_check:
                check()

        self.negamax = negamax
        self.counters = counters
        self.tally = tally
        self.limit = limit
        self.reset = reset
        self.count_root = count_root
