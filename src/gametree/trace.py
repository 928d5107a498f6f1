"""Search traces: the events a search emits, and a log formatter in the style of seed 004.

A search never prints. When given a :class:`Tracer`, it reports what it does as
:class:`TraceEvent` values — entering a node, trying a move, scoring it, raising alpha or
lowering beta, pruning the remaining moves, valuing a leaf, finishing a node. Front-ends turn
the events into whatever they need: :func:`format_log` writes the indented text log of seed
004's Sticks game, :meth:`TraceEvent.as_dict` gives JSON-ready dicts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any, Generic, Literal, Protocol, TypeVar

from .game import Game, Probability
from .values import (
    Expected,
    Value,
    exact_text,
    for_player,
    format_bound,
    format_value,
    number_text,
    outcome_of,
)

S = TypeVar("S")
M = TypeVar("M")

EventKind = Literal["enter", "try", "scored", "alpha", "beta", "prune", "leaf", "done", "table",
                    "iteration"]
Role = Literal["MAX", "MIN", "CHANCE"]
LeafKind = Literal["win", "loss", "draw", "heuristic"]


def leaf_kind(utility: Value, root_player: int) -> LeafKind:
    """How a finished game ends for the root's player: ``win``, ``loss`` or ``draw``."""
    return outcome_of(for_player(utility, root_player))


@dataclass(frozen=True)
class TraceEvent:
    """One step of a search, with everything already turned into text or numbers.

    Values are seen as the algorithm sees them: from MAX (the player to move at the root) in the
    MAX/MIN algorithms, from the side to move at the node in negamax.
    """

    kind: EventKind
    """``enter`` a node, ``try`` a move, move ``scored``, ``alpha`` raised, ``beta`` lowered,
    remaining moves ``prune``-d, ``leaf`` valued, node ``done``; searches with a
    transposition table also emit ``table`` (a node valued from the table) and iterative
    deepening emits ``iteration`` (an iteration starts; :attr:`value` is its depth)."""

    ply: int
    """Distance of the node from the root (the root is 0)."""

    role: Role
    """``MAX`` for the root player's nodes, ``MIN`` for the opponent's, ``CHANCE`` where chance
    moves (expectiminimax)."""

    node: str | None = None
    """The node's label, when the game names its states (explicit trees do)."""

    move: str | None = None
    """The move tried or scored (``try``, ``scored``, ``done``: the best move)."""

    value: Expected | None = None
    """The value scored, the leaf value, the node's final value, or the new alpha / beta (an
    exact :class:`~fractions.Fraction` where expectiminimax keeps one)."""

    alpha: Expected | None = None
    """Alpha after the step (alpha-beta searches only)."""

    beta: Expected | None = None
    """Beta after the step (alpha-beta searches only)."""

    skipped: tuple[str, ...] = ()
    """The moves a ``prune`` event leaves unsearched."""

    leaf: LeafKind | None = None
    """For ``leaf`` events: a finished game (``win``/``loss``/``draw`` for the root player) or a
    ``heuristic`` estimate."""

    probability: str | None = None
    """At a chance node, the probability of the outcome tried or scored, as text (``1/6``,
    ``0.9``)."""

    def as_dict(self, *, by_distance: bool = True) -> dict[str, Any]:
        """The event as a JSON-ready dict; infinite bounds become ``"-inf"``/``"+inf"``.

        ``value_text``, ``alpha_text`` and ``beta_text`` give the numbers in words as the log
        writes them (``win in 3``, ``-inf``, ``12``; ``None`` where there is no number), read
        with distance scoring unless ``by_distance`` is false. An iteration's value is its
        depth, and its text says so (``depth 3``)."""
        data = asdict(self)
        data["skipped"] = list(self.skipped)
        for name in ("alpha", "beta"):
            bound = data[name]
            data[f"{name}_text"] = None if bound is None else _bound_text(
                bound, by_distance=by_distance)
            if isinstance(bound, float) and bound in (float("inf"), float("-inf")):
                data[name] = format_bound(bound)
        for name in ("value", "alpha", "beta"):
            if isinstance(data[name], Fraction):  # exact expected values: a float beside text
                data[f"{name}_exact"] = str(data[name])
                data[name] = float(data[name])
        if self.value is None:
            data["value_text"] = None
        elif self.kind == "iteration":
            data["value_text"] = f"depth {int(self.value)}"
        else:
            data["value_text"] = _value_text(self.value, by_distance=by_distance)
        return data


S_contra = TypeVar("S_contra", contravariant=True)


class NodeLabels(Protocol[S_contra]):
    """A game that can name its states (explicit trees name their nodes ``A``, ``B``, ...).

    Tracers use ``node_label`` when the game has it, so logs name nodes as the text does.
    """

    def node_label(self, state: S_contra) -> str:
        """The label of ``state``."""
        ...


MAX_EVENTS = 2_000_000
"""The most events a tracer records by default (about 400 MB): a trace is read by a person,
and longer ones only fill the memory."""


class TraceTooLongError(ValueError):
    """A traced search made more events than its tracer keeps."""


class Tracer(Generic[S, M]):
    """Collects the events of one search and optionally forwards each one as it happens.

    Searches call the methods below; a tracer that is not :attr:`enabled` ignores them, so an
    untraced search pays almost nothing.
    """

    def __init__(
        self,
        game: Game[Any, Any] | None = None,
        *,
        on_event: Callable[[TraceEvent], None] | None = None,
        keep: bool = True,
        max_events: int | None = MAX_EVENTS,
    ) -> None:
        """``keep``: remember the events in :attr:`events`; ``on_event``: also hand each one
        over as it happens; ``max_events``: stop the search with :class:`TraceTooLongError`
        after that many (``None``: no limit)."""
        self.enabled = game is not None
        self._left = self._limit = max_events
        self._game = game
        label = getattr(game, "node_label", None)
        self._label: Callable[[Any], str] | None = label if callable(label) else None
        self._on_event = on_event
        self._keep = keep
        self.events: list[TraceEvent] = []

    @classmethod
    def off(cls) -> Tracer[Any, Any]:
        """A tracer that records nothing."""
        return cls(None)

    # -- what searches call ------------------------------------------------------------------

    def enter(self, state: S, ply: int, role: Role, alpha: Expected | None = None,
              beta: Expected | None = None) -> None:
        """The search starts valuing ``state``."""
        if self.enabled:
            self._emit(TraceEvent("enter", ply, role, self._node(state), alpha=alpha, beta=beta))

    def try_move(self, state: S, ply: int, role: Role, move: M) -> None:
        """The search is about to play ``move`` in ``state``."""
        if self.enabled:
            self._emit(TraceEvent("try", ply, role, self._node(state), self._move(state, move)))

    def scored(self, state: S, ply: int, role: Role, move: M, value: Expected,
               alpha: Expected | None = None, beta: Expected | None = None) -> None:
        """``move`` came back with ``value``; ``alpha``/``beta`` are the window afterwards."""
        if self.enabled:
            self._emit(TraceEvent("scored", ply, role, self._node(state), self._move(state, move),
                                  value, alpha, beta))

    def try_outcome(self, state: S, ply: int, outcome: M, probability: Probability,
                    alpha: Expected | None = None, beta: Expected | None = None) -> None:
        """At the chance node ``state`` the search follows ``outcome`` (of ``probability``);
        ``alpha``/``beta``: the window the outcome is searched with (Star1/Star2)."""
        if self.enabled:
            self._emit(TraceEvent("try", ply, "CHANCE", self._node(state),
                                  self._move(state, outcome), alpha=alpha, beta=beta,
                                  probability=probability_text(probability)))

    def outcome_scored(self, state: S, ply: int, outcome: M, probability: Probability,
                       value: Expected, alpha: Expected | None = None,
                       beta: Expected | None = None) -> None:
        """``outcome`` (of ``probability``) came back with ``value``."""
        if self.enabled:
            self._emit(TraceEvent("scored", ply, "CHANCE", self._node(state),
                                  self._move(state, outcome), value, alpha, beta,
                                  probability=probability_text(probability)))

    def alpha_raised(self, state: S, ply: int, role: Role, alpha: Expected,
                     beta: Expected) -> None:
        """Alpha went up to ``alpha``."""
        if self.enabled:
            self._emit(TraceEvent("alpha", ply, role, self._node(state), value=alpha,
                                  alpha=alpha, beta=beta))

    def beta_lowered(self, state: S, ply: int, role: Role, alpha: Expected,
                     beta: Expected) -> None:
        """Beta went down to ``beta``."""
        if self.enabled:
            self._emit(TraceEvent("beta", ply, role, self._node(state), value=beta,
                                  alpha=alpha, beta=beta))

    def pruned(self, state: S, ply: int, role: Role, skipped: Sequence[M], alpha: Expected,
               beta: Expected) -> None:
        """The moves in ``skipped`` will not be searched (alpha >= beta)."""
        if self.enabled:
            texts = tuple(self._move(state, move) for move in skipped)
            self._emit(TraceEvent("prune", ply, role, self._node(state), alpha=alpha, beta=beta,
                                  skipped=texts))

    def leaf(self, state: S, ply: int, role: Role, value: Value, kind: LeafKind) -> None:
        """``state`` was valued without looking further."""
        if self.enabled:
            self._emit(TraceEvent("leaf", ply, role, self._node(state), value=value, leaf=kind))

    def table(self, state: S, ply: int, role: Role, value: Value, alpha: Value,
              beta: Value) -> None:
        """``state`` was valued from the transposition table, searched with (alpha, beta).

        ``value >= beta`` means "at least ``value``", ``value <= alpha`` "at most ``value``";
        inside the window the value is exact.
        """
        if self.enabled:
            self._emit(TraceEvent("table", ply, role, self._node(state), value=value,
                                  alpha=alpha, beta=beta))

    def iteration(self, depth: int) -> None:
        """An iteration of iterative deepening to ``depth`` plies starts."""
        if self.enabled:
            self._emit(TraceEvent("iteration", 0, "MAX", value=depth))

    def done(self, state: S, ply: int, role: Role, value: Expected, best: M | None) -> None:
        """The search finished ``state`` with ``value`` (``best``: the move that gave it)."""
        if self.enabled:
            move = None if best is None else self._move(state, best)
            self._emit(TraceEvent("done", ply, role, self._node(state), move, value))

    # -- helpers -----------------------------------------------------------------------------

    def _emit(self, event: TraceEvent) -> None:
        if self._left is not None:
            if self._left == 0:
                raise TraceTooLongError(
                    f"the trace goes past {self._limit:,} events, more than it "
                    f"keeps: trace a smaller search (a smaller --depth or position)")
            self._left -= 1
        if self._keep:
            self.events.append(event)
        if self._on_event is not None:
            self._on_event(event)

    def _node(self, state: S) -> str | None:
        return None if self._label is None else self._label(state)

    def _move(self, state: S, move: M) -> str:
        assert self._game is not None
        return self._game.format_move(state, move)


def format_event(event: TraceEvent, *, by_distance: bool = True) -> str | None:
    """One event as a line of seed 004's log, or ``None`` for events the log leaves out.

    ``enter``, ``alpha`` and ``beta`` events are not printed: the window they change is shown on
    every ``Move scored`` line, as in the seed.
    """
    indent = "  " * event.ply
    top = "TOP " if event.ply == 0 else ""
    name = f" {event.node}" if event.node else ""
    head = f"{indent}{top}{event.role} node{name}..."

    def val(value: Expected | None) -> str:
        return "?" if value is None else _value_text(value, by_distance=by_distance)

    def window() -> str:
        if event.alpha is None or event.beta is None:
            return ""
        return f" ( A = {_bound_text(event.alpha, by_distance=by_distance)} : B = " \
               f"{_bound_text(event.beta, by_distance=by_distance)} )"

    chance = f" (p = {event.probability})" if event.probability is not None else ""
    if event.kind == "try":
        what = "Outcome" if event.role == "CHANCE" else "Move"
        return f"{head} Try {what} : {event.move}{chance}"
    if event.kind == "scored":
        what = "Outcome" if event.role == "CHANCE" else "Move"
        return f"{head} {what} scored : {val(event.value)}{chance}{window()}"
    if event.kind == "prune":
        return f"{head} Prune : {', '.join(event.skipped)}{window()}"
    if event.kind == "leaf":
        word = {"win": "WIN", "loss": "LOSE", "draw": "DRAW", "heuristic": "EVAL"}[
            event.leaf or "heuristic"
        ]
        return f"{head} {word} ... {val(event.value)}"
    if event.kind == "table":
        relation = ""
        if event.alpha is not None and event.beta is not None:
            if event.value is not None and event.value >= event.beta:
                relation = ">= "
            elif event.value is not None and event.value <= event.alpha:
                relation = "<= "
        return f"{head} TABLE ... {relation}{val(event.value)}{window()}"
    if event.kind == "iteration":
        depth = "?" if event.value is None else str(int(event.value))
        return f"Iteration: depth {depth}"
    if event.kind == "done":
        if event.ply == 0:
            best = f" (move {event.move})" if event.move is not None else ""
            return f"{head} DONE!!! Best Score = {val(event.value)}{best}"
        if event.role == "CHANCE":
            return f"{head} Expected score = {val(event.value)}"
        return f"{head} Final score = {val(event.value)}"
    return None




def _value_text(value: Expected, *, by_distance: bool) -> str:
    """A value in a log: an exact expected value as its number, else :func:`format_value`."""
    if isinstance(value, Fraction):
        return exact_text(value)
    return format_value(value, by_distance=by_distance)


def _bound_text(value: Expected, *, by_distance: bool) -> str:
    if isinstance(value, Fraction):
        return exact_text(value)
    return format_bound(value, by_distance=by_distance)


def probability_text(probability: Probability) -> str:
    """A probability as the log writes it: ``1/6`` for a fraction, ``0.9`` for a float."""
    if isinstance(probability, Fraction):
        return str(probability)
    return number_text(probability)


def format_log(events: Iterable[TraceEvent], *, by_distance: bool = True) -> str:
    """The whole trace as seed 004's indented log (one line per printed event)."""
    lines = (format_event(event, by_distance=by_distance) for event in events)
    return "\n".join(line for line in lines if line is not None)
