"""What a search returns: the chosen move, its value, every root move's value, the line, counts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, Literal, TypeVar

from .game import Game
from .values import Bound as ValueBound
from .values import (
    Expected,
    Outcome,
    Value,
    ValueKind,
    fraction_text,
    mate_in,
    plies_text,
    plies_to_result,
    read_expected,
    read_value,
    win_probability,
)

M = TypeVar("M")

Bound = ValueBound
"""How a value relates to the true one: ``exact``, or a ``lower`` or ``upper`` bound on it."""

Tier = Literal["python", "compiled"]
"""Where a search ran: on the game's Python form, or on its compiled (numba) form."""

Source = Literal["search", "database", "book"]
"""Where an answer came from: a ``search``, a solution ``database`` the caller gave, or an
installed opening ``book`` (:mod:`gametree.books`); the last two searched nothing."""

StopReason = Literal["depth", "end", "proven", "time", "nodes", "stop"]
"""Why a search ended: the ``depth`` asked for was reached, every line reached the ``end`` of
the game, the result was ``proven`` early, the ``time`` or ``nodes`` budget ran out, or the
caller's ``stop`` signal was set (:class:`gametree.limits.StopSignal`)."""


@dataclass(slots=True, unsafe_hash=True)
class MoveValue(Generic[M]):
    """The value of one root move, seen from the player to move at the root.

    A value: searches never change one after returning it (it is hashable, compared by its
    fields). It is not frozen only because a frozen dataclass costs a microsecond to build, and
    a search builds one per root move."""

    move: M
    """The move."""

    value: Value
    """Its value, or a bound on it when alpha-beta pruned the rest of its subtree."""

    bound: Bound = "exact"
    """How :attr:`value` relates to the move's value at the depth searched: ``exact`` (it is
    that value); ``upper`` when that value is at most :attr:`value` (the move was refuted and
    its search stopped early); ``lower`` when it is at least :attr:`value`."""

    depth: int | None = None
    """``None`` when :attr:`value` is the game's own (proven: no heuristic estimate behind
    it); else the depth in plies it was searched to, with the game's heuristic at that depth
    (a depth-limited value, which deeper searches may change)."""

    fraction: Fraction | None = None
    """In a game with chance, :attr:`value` as an exact fraction where the probabilities and
    utilities behind it are exact (:attr:`value` is then its nearest float)."""

    @property
    def exact(self) -> bool:
        """True if :attr:`value` is the move's proven value: not a bound, not depth-limited."""
        return self.bound == "exact" and self.depth is None

    @property
    def expected(self) -> Expected:
        """:attr:`fraction` where there is one, else :attr:`value`."""
        return self.value if self.fraction is None else self.fraction


@dataclass(slots=True)
class SearchStats:
    """Counters of the work a search did, the same for every algorithm and tier.

    Node counts are deterministic (the same search from the same state always counts the
    same); time is not.
    """

    nodes: int = 0
    """States visited (the root included)."""

    leaves: int = 0
    """States valued without looking further: finished games and heuristic estimates."""

    evaluations: int = 0
    """The subset of :attr:`leaves` valued by the heuristic (not a finished game)."""

    cutoffs: int = 0
    """Times alpha-beta stopped searching a node's remaining moves."""

    first_move_cutoffs: int = 0
    """The subset of :attr:`cutoffs` caused by the first move tried: a measure of how well
    moves were ordered (with good ordering, above 90% of the cut-offs)."""

    table_hits: int = 0
    """Positions valued straight from the transposition table (0 without a table)."""

    table_entries: int = 0
    """Positions in the transposition table after the search (0 without a table)."""

    iterations: int = 1
    """Completed iterations of iterative deepening (1 for a single search)."""

    depth_reached: int = 0
    """The depth of the deepest completed iteration in plies; for a search to the end of the
    game, the deepest ply any line reached."""

    stopped_by: Literal["time", "nodes", "stop"] | None = None
    """``time`` or ``nodes`` when a budget ended the search, ``stop`` when the caller's stop
    signal did (the answer is then that of the deepest completed iteration), else ``None``."""

    seconds: float = 0.0
    """Wall-clock time of the search."""

    threads: int = 1
    """Threads that searched (the compiled tier's ``threads`` option). With more than one, the
    counters are summed over the threads and vary from run to run; the value does not."""

    def as_dict(self) -> dict[str, Any]:
        """The counters as a JSON-ready dict (``seconds`` rounded to microseconds)."""
        # Field by field: ``dataclasses.asdict`` copies recursively and costs about 15 µs, as
        # much as a small compiled search (one JSON line per position of a --moves-file).
        return {
            "nodes": self.nodes, "leaves": self.leaves, "evaluations": self.evaluations,
            "cutoffs": self.cutoffs, "first_move_cutoffs": self.first_move_cutoffs,
            "table_hits": self.table_hits, "table_entries": self.table_entries,
            "iterations": self.iterations, "depth_reached": self.depth_reached,
            "stopped_by": self.stopped_by, "seconds": round(self.seconds, 6),
            "threads": self.threads,
        }


@dataclass(slots=True)
class SearchResult(Generic[M]):
    """The answer of a search from one root state.

    A result is a value: searches never change one after returning it, and front-ends that
    need it altered make a copy (:func:`dataclasses.replace`). (It is not frozen only because
    a frozen dataclass costs microseconds to build, which a search of a small position feels.)

    :attr:`value` is seen from the player to move at the root. When the search proved the
    result, :attr:`outcome` says ``win``, ``draw`` or ``loss`` (for that player) and, under
    distance scoring, :attr:`plies` says in how many plies.
    """

    best_move: M | None
    """The move chosen (``None`` if the root is finished or has no moves)."""

    value: Value
    """The root's value for the player to move."""

    moves: tuple[MoveValue[M], ...]
    """Every root move that was searched, in move order, with its value or bound."""

    pv: tuple[M, ...]
    """The principal variation: the best line for both sides, starting with :attr:`best_move`."""

    stats: SearchStats
    """What the search cost."""

    algorithm: str
    """Which algorithm produced this result (``minimax``, ``alphabeta``, ``negamax`` or
    ``engine``)."""

    tier: Tier = "python"
    """Where the search ran: ``python`` (the game's Python form) or ``compiled``."""

    depth: int | None = None
    """The depth limit in plies, or ``None`` for a search to the end of the game."""

    by_distance: bool = True
    """Whether wins and losses were scored by their distance (see :mod:`gametree.values`)."""

    outcome: Outcome | None = None
    """The proven result for the player to move, or ``None`` if the search could not prove it."""

    plies: int | None = None
    """How many plies the proven win or loss takes with best play (distance scoring only)."""

    exhaustive: bool = False
    """True if no heuristic estimate entered the reported values: each is a game result, so
    a 0 is a proven draw (in plain mode, every sign is proven)."""

    complete: bool = False
    """True if no line was cut off by the depth limit: deeper searches would find the same
    values (they are the game's own, or an explicit tree's leaf values). The engine does not
    generate moves at the depth limit, so it counts a leaf of an explicit tree met exactly
    there as cut (it says so one ply deeper)."""

    weak: bool = False
    """True for a weak solve: only win, draw or loss was proven, and values are 1, 0 and -1
    (:attr:`by_distance` is then false). The line is then only the best move."""

    chance: bool = False
    """True for a game with chance: values are expected utilities on the game's own scale
    (:attr:`by_distance` is false); :attr:`outcome` and :attr:`plies` are given only when the
    line found to the end of the game has no chance move in it."""

    fraction: Fraction | None = None
    """With :attr:`chance`: :attr:`value` as an exact fraction, where it is one."""

    source: Source = "search"
    """Where the answer came from: ``search``, or (with zero statistics: nothing was searched)
    a solution ``database`` given to the search, or an installed opening ``book``."""

    @property
    def expected(self) -> Expected:
        """:attr:`fraction` where there is one, else :attr:`value`."""
        return self.value if self.fraction is None else self.fraction

    @property
    def exact(self) -> bool:
        """True if every root move's value is exact: proven, and not only a bound."""
        return all(entry.exact for entry in self.moves)

    @property
    def mate(self) -> int | None:
        """A proven win or loss in moves, signed as UCI's ``score mate N``
        (:func:`gametree.values.mate_in`): ``3`` when the player to move mates in 3 of its
        moves, ``-2`` when it is mated after 2 moves of the other; ``None`` when the result
        is not a proven win or loss scored by distance."""
        if self.outcome not in ("win", "loss") or not self.by_distance or self.chance:
            return None
        return mate_in(self.value)

    def _flags(self, *, root: bool) -> tuple[bool, bool]:
        """``(exhaustive, complete)`` for the words of a value of this result.

        The values are exact numbers (``complete``) if no line was cut by a depth limit, which
        a search to the end (no depth) never does; they are game results (``exhaustive``) if
        besides no estimate entered the search. The root is a game result whenever the search
        proved it, whatever its counters say (a proven draw); its moves then still need the
        counters."""
        complete = self.complete or self.depth is None
        exhaustive = self.exhaustive and complete
        return exhaustive or (root and self.outcome is not None), complete

    def value_text(self, *, units: bool = False) -> str:
        """:attr:`value` in words (:func:`gametree.values.read_value`): ``win in 3``,
        ``draw``, ``loss in 4``, ``estimate +7`` (a depth limit cut the search), the number
        (an exact score that is no game result), ``win``/``draw``/``loss`` for a weak solve;
        ``units`` spells distances out (``win in 3 plies``)."""
        return self._read(self.expected, "exact", root=True, units=units)[1]

    def value_kind(self) -> ValueKind:
        """What :attr:`value` is: ``win``, ``loss``, ``draw`` (proven), ``estimate`` or
        ``score`` (see :data:`gametree.values.ValueKind`)."""
        return self._read(self.expected, "exact", root=True)[0]

    def move_text(self, entry: MoveValue[M], *, units: bool = False) -> str:
        """A root move's value in words, ``at most ...``/``at least ...`` when it is only a
        bound; ``units`` spells distances out (``win in 3 plies``)."""
        return self._read(entry.expected, entry.bound, root=False, units=units)[1]

    def move_kind(self, entry: MoveValue[M]) -> ValueKind:
        """What a root move's value (or its bound) is, as :meth:`move_text` words it."""
        return self._read(entry.expected, entry.bound, root=False)[0]

    def reading(self, *, root_only: bool = False, depth: int | None = None,
                cause: str | None = None) -> Reading:
        """What this result's values are (:class:`Reading`): exact, looked up, or heuristic at
        a depth and why. ``root_only`` reads the root's value alone (not every move's);
        ``depth`` (default: the depth reached) and ``cause`` (default: the search's limit) say
        more where the caller knows it, e.g. an opponent's level."""
        if self.source != "search":
            where = "opening book" if self.source == "book" else "database"
            return Reading(f"exact, from the {where}", "",
                           f"proven values looked up in the {where}: no position was searched")
        kinds = [self.value_kind()]
        if not root_only:
            kinds += [self.move_kind(entry) for entry in self.moves]
        if "estimate" not in kinds:
            found = "win, draw or loss only" if self.weak else "no heuristic estimate entered " \
                "any value"
            return Reading("exact", "", f"searched to the end of the game: {found}")
        reached_depth = self.stats.depth_reached if depth is None else depth
        if cause is None:
            stopped = self.stats.stopped_by
            cause = ("its time ran out" if stopped == "time"
                     else "its node budget ran out" if stopped == "nodes"
                     else f"the depth was limited to {plies_text(self.depth)}"
                     if self.depth is not None else "the search stopped short")
        return Reading(
            f"heuristic, depth {reached_depth}", cause,
            f"{cause} before the end of the game, so the values are the game's estimates of "
            f"the positions {plies_text(reached_depth)} ahead, not proven results (a win or loss "
            "found within that depth is still exact)")

    def move_reading(self, entry: MoveValue[M]) -> str:
        """What one root move's value is: the words of :meth:`reading` for that value alone,
        or ``a bound`` (alpha-beta's, ``docs/json.md``)."""
        if self.source != "search":
            return self.reading().words
        if self.move_kind(entry) == "estimate":
            depth = self.stats.depth_reached if entry.depth is None else entry.depth
            return f"heuristic, depth {depth}"
        return "exact" if entry.bound == "exact" else "a bound"

    def _read(self, value: Expected, bound: Bound, *, root: bool,
              units: bool = False) -> tuple[ValueKind, str]:
        exhaustive, complete = self._flags(root=root)
        if self.chance:
            result = (self.outcome, self.plies) if root else (None, None)
            return read_expected(value, line_result=result, complete=complete, bound=bound,
                                 units=units)
        plain = float(value) if isinstance(value, Fraction) else value
        return read_value(plain, by_distance=self.by_distance, exhaustive=exhaustive,
                          complete=complete, weak=self.weak, bound=bound, units=units)

    def to_dict(self, game: Game[Any, M], root: Any) -> dict[str, Any]:
        """The result as the documented JSON object (``docs/json.md``).

        ``game`` and ``root`` (the state searched) turn moves into their texts; the principal
        variation is written move by move from the states it passes through.
        """
        pv = game.format_line(root, self.pv)
        moves = []
        for entry in self.moves:
            kind, text = self._read(entry.expected, entry.bound, root=False)
            moves.append({"move": game.format_move(root, entry.move), "value": entry.value,
                          "exact": entry.exact, "bound": entry.bound, "depth": entry.depth,
                          "value_text": text, "value_kind": kind,
                          "reading": self.move_reading(entry)})
            if self.chance:
                moves[-1]["value_fraction"] = fraction_text(entry.fraction)
        value_kind, value_text = self._read(self.expected, "exact", root=True)
        chance = {"chance": True, "value_fraction": fraction_text(self.fraction),
                  "win_probability": win_probability(self.value, game.value_bounds())} \
            if self.chance else {}
        return {
            "algorithm": self.algorithm,
            "tier": self.tier,
            "value": self.value,
            "value_text": value_text,
            "value_kind": value_kind,
            "outcome": self.outcome,
            "plies": self.plies,
            "best_move": None if self.best_move is None else game.format_move(root, self.best_move),
            "moves": moves,
            "pv": pv,
            "depth": self.depth,
            "distance_scoring": self.by_distance,
            "weak": self.weak,
            **chance,
            "source": self.source,
            "reading": self.reading().as_dict(),
            "stats": self.stats.as_dict(),
        }


def depth_limited(moves: tuple[MoveValue[M], ...], depth: int, *, final: bool,
                  by_distance: bool) -> tuple[MoveValue[M], ...]:
    """``moves`` as a search to ``depth`` plies found them, each marked with that depth
    (:attr:`MoveValue.depth`) unless its value is proven: every value of a ``final`` search is
    (no heuristic estimate entered it, or no line was cut at the depth limit, so deeper
    searches find the same), and under distance scoring so is a win or loss within ``depth``
    plies (the search saw every line that short). ``moves`` itself when nothing needs
    marking."""
    if final:
        return moves
    marked = []
    changed = False
    for entry in moves:
        plies = plies_to_result(entry.value) if by_distance else None
        if entry.depth is None and (plies is None or plies > depth):
            marked.append(MoveValue(entry.move, entry.value, entry.bound, depth))
            changed = True
        else:
            marked.append(entry)
    return tuple(marked) if changed else moves


@dataclass(frozen=True, slots=True)
class Reading:
    """What a search's values are, in words: the one wording of "exact" and "heuristic, depth
    N" that the terminal, the command line and the pages show (``reading`` in the JSON)."""

    words: str
    """``exact``, ``exact, from the opening book``, ``exact, from the database`` or
    ``heuristic, depth N``."""

    cause: str
    """Why the values are heuristic, briefly (``its time ran out``); empty for exact ones."""

    why: str
    """What the words mean, as a sentence for a reader who asks."""

    def __str__(self) -> str:
        return f"{self.words}: {self.cause}" if self.cause else self.words

    def as_dict(self) -> dict[str, str]:
        """The JSON form: ``{"words", "cause", "why"}``."""
        return {"words": self.words, "cause": self.cause, "why": self.why}


@dataclass(slots=True)
class Iteration(Generic[M]):
    """One report of iterative deepening (:func:`gametree.iterate`,
    :meth:`gametree.engine.Engine.iterate`, :meth:`gametree.compiled.CompiledEngine.iterate`):
    the result of one depth.

    Values are seen from the player to move at the root. Counts and times are for the whole
    search so far (all iterations), so a front-end can print them as a progress line.
    """

    depth: int
    """The depth of this iteration in plies (for a search straight to the end of the game,
    without iterative deepening, the deepest ply it reached)."""

    value: Value
    """The root's value at this depth (a lower bound when :attr:`bound` is ``lower``)."""

    best_move: M | None
    """The best move at this depth (``None`` if the root is finished or has no moves)."""

    pv: tuple[M, ...]
    """The principal variation, starting with :attr:`best_move`."""

    moves: tuple[MoveValue[M], ...]
    """Every root move with its value or bound at this depth, in the game's move order
    (depth-limited values marked with their depth: :attr:`MoveValue.depth`)."""

    nodes: int
    """Positions visited so far."""

    seconds: float
    """Time since the search started."""

    table_entries: int
    """Positions in the transposition table (0 without a table)."""

    table_hits: int
    """Positions valued straight from the table so far."""

    bound: Bound = "exact"
    """``exact``; ``lower`` for the report of an unfinished iteration that proved a better move
    than the previous one before its budget ran out (its value is then a lower bound)."""

    finished: bool = True
    """False only for that last report of an unfinished iteration."""

    complete: bool = False
    """True if every line reached the end of the game: deeper iterations cannot change it."""

    outcome: Outcome | None = None
    """The proven result for the player to move, if this iteration proves one."""

    plies: int | None = None
    """The distance of a proven win or loss in plies (distance scoring only)."""

    @property
    def nodes_per_second(self) -> float:
        """The search speed so far."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def proven(self) -> bool:
        """True if this iteration proves the game's result from the root."""
        return self.outcome is not None

    @property
    def mate(self) -> int | None:
        """This iteration's proven win or loss in moves, signed as UCI's ``score mate N``
        (:attr:`SearchResult.mate`); ``None`` when it proves none."""
        if self.outcome not in ("win", "loss") or self.plies is None:
            return None
        return mate_in(self.value)


@dataclass(frozen=True, slots=True)
class SolveProgress:
    """How a long solve to the end of the game goes (the compiled tier; see
    :meth:`gametree.compiled.CompiledEngine.run_search` and :func:`gametree.search`'s
    ``progress``). Values are on the engine's scale, seen from the player to move at the
    root (:func:`gametree.values.read_value` puts them in words)."""

    windows: int
    """The null-window searches of the root begun so far (0: none yet, or a game whose
    solve searches with one full window: the next three fields are then ``None``)."""

    lower: Value | None
    """The root's value is at least this (what the windows before the current one proved)."""

    upper: Value | None
    """... and at most this."""

    testing: Value | None
    """The current window asks whether the value is above this."""

    nodes: int
    """Positions searched so far (summed over the threads)."""

    table_entries: int
    """Positions held in the transposition table (summed over the threads' counts)."""

    seconds: float
    """Seconds since the solve began."""

    @property
    def rate(self) -> float:
        """Positions searched a second so far."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


ProgressListener = Callable[[SolveProgress], object]
"""Who hears a long solve's progress: called with a :class:`SolveProgress` about ten times a
second, from the thread that started the solve."""
