"""The transposition table: what the engine remembers about positions it has searched.

Many move orders reach the same position (a *transposition*). The table maps a position's key
(``game.key(state)``, by default the state itself) to what a search of it found:

* the **value**, and whether it is ``EXACT``, a ``LOWER`` bound (the search stopped at a beta
  cut-off: the true value is at least this) or an ``UPPER`` bound (no move reached alpha: the
  true value is at most this);
* the **depth** searched below the position, plus :data:`COMPLETE` when the search reached the
  end of every line it looked at, so that the value holds at any greater depth as well;
* whether a **heuristic** estimate entered the value (only values without one are proofs);
* the **best move** found, tried first when the position comes back;
* the **generation** (which search stored it), used by the replacement policy.

**Same answer, whatever was stored before.** An entry answers a probe only if it was stored by
a search to the same depth, or it is complete and the probe at least as deep (so that a
depth-limited value never depends on which searches ran before); an entry of another depth
gives only what holds at any depth: a win or loss proven within the probing search's horizon
(:func:`proven_bound`). Only an exact solve — whose answer is the game's, whatever its probes
along the way — takes complete entries at any depth (:func:`answers`).

Proven wins and losses are stored *relative to the position* (a win 3 plies below it, not at
ply 12 of some search), so a value read back at another ply keeps its exact distance — the
usual "mate score" adjustment, see :func:`to_table` and :func:`from_table`.

The table is **bounded**: at most :attr:`TranspositionTable.capacity` entries, given as a
number of entries or as megabytes (converted with :data:`BYTES_PER_ENTRY`). Replacement
policy:

* **Same position again**: the new result replaces the stored one, unless the stored one is
  from the current search and deeper, or equally deep and exact while the new one is only a
  bound. (Deeper results are worth more; a bound found with a narrow window is worth less
  than an exact value of the same depth.)
* **New position, table full**: a *sweep* first shrinks the table to three quarters of its
  capacity, dropping the least valuable entries: entries of earlier searches before entries of
  the current one, then shallower before deeper (complete entries last); among equals, the
  oldest stored first. A sweep costs time proportional to the table's size, once every
  ``capacity / 4`` new positions, so storing stays cheap on average.

The engine reads and writes :attr:`TranspositionTable.entries` directly in its inner loop (a
plain ``dict``: the fastest map Python has); everything else should use the methods here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Literal

from ..values import PROVEN, WIN, Value

EXACT = 0
"""Entry flag: the stored value is the position's value (at the stored depth)."""

LOWER = 1
"""Entry flag: the true value is at least the stored value (the search failed high)."""

UPPER = 2
"""Entry flag: the true value is at most the stored value (the search failed low)."""

BOUND_MASK = 3
"""``flags & BOUND_MASK`` is one of :data:`EXACT`, :data:`LOWER`, :data:`UPPER`."""

HEURISTIC = 4
"""Entry flag bit: a heuristic estimate entered the value, so it proves nothing."""

COMPLETE = 1 << 30
"""Added to the depth stored for a position whose search reached the end of every line it
examined: its value holds at that depth and any greater one. Larger than any depth a search
asks for, so ``stored >= COMPLETE`` tells a complete entry."""

BYTES_PER_ENTRY = 240
"""Estimated memory per entry (dict slot, entry tuple, key), for ``megabytes=``.

``python benchmarks/table_memory.py`` measures about 200 bytes with integer keys (tic-tac-toe,
Connect Four) and 320 with small tuple keys (Nim); longer keys cost more."""

DEFAULT_ENTRIES = 1 << 20
"""The default capacity: about a million positions (roughly 250 MB when full)."""

SWEEP_TO = 0.75
"""A sweep shrinks a full table to this fraction of its capacity."""

Entry = tuple[int, int, Value, Any, int]
"""A stored entry: ``(depth, flags, value, best move, generation)``."""


def to_table(value: Value, ply: int) -> Value:
    """A value found at ``ply`` of a search, made relative to its position for storing.

    A win at ply ``p`` (``WIN - p``) seen from a position at ply ``ply`` is a win
    ``p - ply`` plies below that position: ``WIN - (p - ply)``. Other values do not move.
    """
    if value >= PROVEN:
        return value + ply
    if value <= -PROVEN:
        return value - ply
    return value


def from_table(value: Value, ply: int) -> Value:
    """A stored value read back at ``ply`` of a search (the inverse of :func:`to_table`)."""
    if value >= PROVEN:
        return value - ply
    if value <= -PROVEN:
        return value + ply
    return value


BoundName = Literal["exact", "lower", "upper"]
_BOUND_NAMES: dict[int, BoundName] = {EXACT: "exact", LOWER: "lower", UPPER: "upper"}


@dataclass(frozen=True)
class TableEntry:
    """A readable view of one stored entry (see :meth:`TranspositionTable.get`)."""

    value: Value
    """The value relative to the position (a proven win ``WIN - d`` is ``d`` plies below it)."""

    bound: BoundName
    """``exact``, ``lower`` or ``upper``: how :attr:`value` relates to the true value."""

    depth: int | None
    """The depth searched below the position, or ``None`` if the search reached the end."""

    heuristic: bool
    """True if a heuristic estimate entered the value (it is then not a proof)."""

    move: Any
    """The best move found, or ``None``."""

    generation: int
    """The number of the search that stored it."""


@dataclass(frozen=True)
class TableStats:
    """What happened to a table since it was created or cleared."""

    entries: int
    """Positions stored now."""

    capacity: int
    """The most positions it keeps."""

    stores: int
    """Results written (new positions and replacements)."""

    kept: int
    """Results not written because the stored entry was worth more (replacement policy)."""

    sweeps: int
    """Times a full table was shrunk."""

    evicted: int
    """Entries dropped by sweeps."""

    @property
    def fill(self) -> float:
        """The fraction of the capacity in use, from 0 to 1."""
        return self.entries / self.capacity


class TranspositionTable:
    """A bounded map from position keys to search results, shared by successive searches.

    Give the size as ``entries`` (positions) or ``megabytes`` (at most one of them; the default
    is :data:`DEFAULT_ENTRIES`). An engine keeps one table for all its searches, so a game
    played move after move reuses what earlier searches found.
    """

    def __init__(self, entries: int | None = None, *, megabytes: float | None = None) -> None:
        if entries is not None and megabytes is not None:
            raise ValueError("give the table size as entries or as megabytes, not both")
        if megabytes is not None:
            if isinstance(megabytes, bool) or not isinstance(megabytes, (int, float)) or not (
                megabytes > 0
            ):
                raise ValueError(f"megabytes must be a positive number, got {megabytes!r}")
            entries = max(1, int(megabytes * 1_000_000 / BYTES_PER_ENTRY))
        if entries is None:
            entries = DEFAULT_ENTRIES
        if isinstance(entries, bool) or not isinstance(entries, int) or entries < 1:
            raise ValueError(f"a table needs at least 1 entry, got {entries!r}")
        self.capacity: int = entries
        """The most entries the table holds."""
        self.entries: dict[Hashable, Entry] = {}
        """The stored entries by key (read and written directly by the engine's inner loop)."""
        self.generation: int = 0
        """The number of the current search; see :meth:`new_search`."""
        self.stores = 0
        self.kept = 0
        self.sweeps = 0
        self.evicted = 0

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        return f"TranspositionTable({len(self.entries)} of {self.capacity} entries)"

    def new_search(self) -> int:
        """Start a new generation: entries stored from now on outrank older ones in sweeps."""
        self.generation += 1
        return self.generation

    def clear(self) -> None:
        """Forget every entry and reset the counters (the capacity stays)."""
        self.entries.clear()
        self.generation = 0
        self.stores = self.kept = self.sweeps = self.evicted = 0

    def stats(self) -> TableStats:
        """The table's size and what its replacement policy did."""
        return TableStats(len(self.entries), self.capacity, self.stores, self.kept,
                          self.sweeps, self.evicted)

    def get(self, key: Hashable) -> TableEntry | None:
        """The entry stored for ``key``, as a readable :class:`TableEntry`, or ``None``."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        depth, flags, value, move, generation = entry
        return TableEntry(
            value=value,
            bound=_BOUND_NAMES[flags & BOUND_MASK],
            depth=None if depth >= COMPLETE else depth,  # complete: it holds at any depth
            heuristic=bool(flags & HEURISTIC),
            move=move,
            generation=generation,
        )

    def store(self, key: Hashable, depth: int, flags: int, value: Value, move: Any) -> bool:
        """Store a result (value already made relative, see :func:`to_table`) by the policy.

        Returns True if it was written, False if the stored entry was worth more. The engine's
        inner loop applies the same policy inline (see :func:`keeps_old`).
        """
        entries = self.entries
        old = entries.get(key)
        if old is not None and keeps_old(old, depth, flags, self.generation):
            self.kept += 1
            return False
        if old is None and len(entries) >= self.capacity:
            self.sweep()
        entries[key] = (depth, flags, value, move, self.generation)
        self.stores += 1
        return True

    def sweep(self) -> int:
        """Shrink the table to :data:`SWEEP_TO` of its capacity; returns how many were dropped.

        Drops entries of earlier generations first, then the shallowest; among equals, the
        oldest stored. Counting priorities (rather than sorting entries) keeps this linear.
        """
        entries = self.entries
        target = int(self.capacity * SWEEP_TO)
        excess = len(entries) - target
        if excess <= 0:
            return 0
        current = self.generation
        # Priority: current-generation entries rank above all older ones, then by depth.
        boost = 2 * COMPLETE

        def priority(entry: Entry) -> int:
            return entry[0] + boost if entry[4] == current else entry[0]

        counts = Counter(priority(entry) for entry in entries.values())
        dropped_below = 0
        cut_priority = -1
        partial = 0
        for level in sorted(counts):
            if dropped_below + counts[level] >= excess:
                cut_priority = level
                partial = excess - dropped_below
                break
            dropped_below += counts[level]
        doomed = []
        for key, entry in entries.items():  # insertion order: the oldest stored come first
            level = priority(entry)
            if level < cut_priority:
                doomed.append(key)
            elif level == cut_priority and partial > 0:
                doomed.append(key)
                partial -= 1
        for key in doomed:
            del entries[key]
        self.sweeps += 1
        self.evicted += len(doomed)
        return len(doomed)


def answers(stored_depth: int, depth: int, solving: bool) -> bool:
    """True if an entry stored at ``stored_depth`` gives its value to a probe ``depth`` deep
    (``solving``: the probe belongs to an exact solve, which takes any complete entry)."""
    return stored_depth == depth or (
        stored_depth >= COMPLETE and (solving or depth >= stored_depth - COMPLETE))


def proven_bound(stored: Value, flags: int, depth: int) -> Value | None:
    """What an entry of another depth still says to a probe ``depth`` deep: a lower bound if it
    proves a win within ``depth`` plies, an upper bound if it proves such a loss (``stored``
    relative to the position, as kept); else ``None``. (The bound is a lower one exactly when
    it is a win.)"""
    bound = flags & BOUND_MASK
    if stored >= PROVEN and bound != UPPER and WIN - stored <= depth:
        return stored
    if stored <= -PROVEN and bound != LOWER and WIN + stored <= depth:
        return stored
    return None


def keeps_old(old: Entry, depth: int, flags: int, generation: int) -> bool:
    """The same-position rule of the replacement policy: True if ``old`` should stay.

    The old entry stays if it is from the current search (``generation``) and either deeper,
    or as deep and exact while the new result is only a bound.
    """
    if old[4] != generation:
        return False
    if old[0] != depth:
        return old[0] > depth
    return (old[1] & BOUND_MASK) == EXACT and (flags & BOUND_MASK) != EXACT
