"""The compiled engine: negamax alpha-beta over a kernel game, compiled by numba.

This file is a *template*. It is never imported as ``gametree.compiled._engine`` at run time:
:mod:`gametree.compiled.build` writes one copy of it per kernel game into the compilation cache
and replaces the block marked ``KERNEL BINDING`` with the kernel's functions and constants.
numba treats module globals as compile-time constants, so each copy is compiled for exactly one
game (the calls into the kernel are inlined, unused hooks vanish), and numba's on-disk cache
(``cache=True``) keys each copy by its own file, so no game ever reuses another's machine code.

Conventions are those of the Python tier (:mod:`gametree.values`): values are seen from the
player to move at each node; a proven win reached ``p`` plies from the root is ``WIN - p`` and a
loss ``-(WIN - p)``; heuristic values stay within ``±HEURISTIC_LIMIT``. Inside the search the
distance is counted from the root (``ply``); the table stores it from the node instead, so that
an entry is valid wherever the position recurs.

Everything a search needs lives in one int64 array, the *workspace* ``ws``, so that the hot
recursion passes a single array and touches no Python object. Its regions (offsets in the
``C_*`` slots of its head):

* the head: counters and settings (``C_NODES`` ...);
* ``moves`` and ``scores``: one row of ``MAX_MOVES`` per ply, the moves generated at that ply
  and their ordering keys;
* ``dirty``: the table slots filled since the table was last cleared, so that clearing costs as
  much as the search that filled it, not the size of the table;
* ``table``: the transposition table, two words per entry: the key XOR the data word, then the
  packed data (lower bound, upper bound, depth, best move: see :func:`pack`). A data word of 0
  is an empty slot. When solving, a table that one thread fills alone is used from its small
  first part until the search has grown (see :data:`SMALL_TABLE_BITS`).

Threads: several threads can search one position with one table (see
:func:`search_root_parallel` and :func:`helper`): every thread does the whole search, and they
split the work as ABDADA does. At nodes with at least ``ws[C_SPLIT_LEFT]`` plies left, a thread
marks the position it enters in a small shared table of *busy marks* (``C_BUSY``), and defers a
move (after the first; near the threshold, the first too) whose position another thread has
marked, coming back to it after the node's other moves; a thread that finds one of its split
nodes settled by another thread's table entry returns to it at once (see "the split nodes of a
thread's path" below). With one thread the busy marks are off (``ws[C_BUSY_MASK]`` is 0): the
search is the one-thread search, node for node. Each thread has a workspace of its own — a view
of one larger array whose ``table`` and busy marks are the same memory for all — so counters,
move buffers, dirty lists and split stacks are private and only the table and the marks are
shared, without locks. A slot is two words written one after the other, so a reader can meet
the key of one entry with the data of another; storing ``key ^ data`` in the first word
(Hyatt's lockless hashing) makes such a torn pair fail the key test, and the entry is then
simply missed. Every entry any thread stores is a true bound of its position, so a search
reading the others' entries returns the value it would return alone (only its node count
changes). The XOR costs one instruction on a single thread.

Ctrl-C: compiled code never returns to the interpreter by itself, so Python's SIGINT handler
(which runs between bytecodes) would wait for the search to end. Every :data:`CHECK_EVERY`
nodes, :func:`negamax` asks CPython whether SIGINT has arrived, through the C function whose
address the workspace holds (``PyOS_InterruptOccurred``: a flag's test, in the main thread
only); if so the search stops as the node limit stops it, and ``ws[C_INTERRUPTED]`` tells the
Python side to hand the signal on to its handler (``gametree.compiled.interrupt``).

numba caches recursive functions reliably only when every call matches the one compiled
signature exactly (numba issues #6061, #6713), so :func:`negamax` has an explicit signature and
every call passes int64 values, never Python literals.
"""

# ruff: noqa: PLR0915
# mypy: disable-error-code="no-any-return"
from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types

from gametree.compiled._intrinsics import call_int, cycles, prefetch
from gametree.values import PROVEN, WIN

# BEGIN KERNEL BINDING
# Replaced in each generated copy by the kernel's functions and constants (see build.py). The
# stand-ins below only make this template importable and checkable on its own.
k_to_move: Any = None
k_moves: Any = None
k_play: Any = None
k_outcome: Any = None
k_evaluate: Any = None
k_key: Any = None
k_move_score: Any = None
k_can_win_next: Any = None
k_non_losing_moves: Any = None
k_plies_left: Any = None
k_state_from_row: Any = None
k_mirror_key: Any = None
k_upper_bound: Any = None
k_enhanced_cutoffs: Any = None
k_forced_reply: Any = None
HAS_KEY = False
HAS_MOVE_SCORE = False
HAS_THREATS = False
HAS_PLIES_LEFT = False
HAS_MIRROR = False
HAS_UPPER_BOUND = False
HAS_ETC = False
HAS_FORCED_REPLY = False
NO_REPLY = -(2**62)
SEVERAL_REPLIES = -(2**62) + 1
ALTERNATING = True
WINNER_MOVES_LAST = False
TABLE_MIN_LEFT = 0
MAX_MOVES = 1
MAX_PLY = 1
ONGOING = -(2**62)
STATE_TYPE: Any = types.int64
# END KERNEL BINDING

# WIN (a win at ply 0) and PROVEN (values at or beyond ±PROVEN are proven wins or losses)
# come from gametree.values, the one value scale of both tiers.
NO_BOUND = WIN + 1
"""The table's "no lower bound" (``-NO_BOUND``) and "no upper bound" (``+NO_BOUND``)."""
INF = WIN + 2
"""Beyond every value: the open ends of a full window."""
EXHAUSTIVE = 1 << 40
"""The depth of a search to the end of the game (never reaches 0)."""
TABLE_EXHAUSTIVE = 255
"""How the table records :data:`EXHAUSTIVE` in its 8-bit depth field."""
NO_MOVE = 255
"""The table's "no best move"."""

# The head of the workspace: counters, then settings and the offsets of the regions.
C_NODES = 0
C_LEAVES = 1
C_EVALUATIONS = 2
C_CUTOFFS = 3
C_FIRST_CUTOFFS = 4
C_TABLE_HITS = 5
C_ABORTED = 6
C_PROVEN = 7
C_NODE_LIMIT = 8
C_BY_DISTANCE = 9
C_DIRTY_COUNT = 10
C_TABLE_MASK = 11
C_TABLE_SHIFT = 12
C_DIRTY_OVERFLOW = 13
C_MOVES = 14
C_PASSED_BOUND = 15
"""(solving) The ``upper_bound`` of the position the next :func:`negamax` call searches, as
its parent computed it before searching any child (see :func:`pass_bound`); 0 if none."""
C_DIRTY = 16
C_DIRTY_CAPACITY = 17
C_TABLE = 18
C_ENTRIES = 19
C_DEEPEST = 20
C_OVERFLOW = 21
C_INTERRUPT_CHECK = 22
C_INTERRUPTED = 23
C_BUSY = 24
C_BUSY_MASK = 25
C_SPLIT_LEFT = 26
C_STACK = 27
C_SPLIT_TOP = 28
C_UNWIND = 29
C_UNWIND_VALUE = 30
C_FIRST_LEFT = 31
C_WINDOWS = 32
C_WINDOW_LOW = 33
C_WINDOW_HIGH = 34
C_WINDOW_TEST = 35
"""The root's null-window searches so far, the value bounds known before the latest, and its
test (is the value above it?): written by :func:`solve` at the root only, for progress."""
C_LAST_KNOWN = 36
C_LAST_SCORE = 37
C_LAST_MOVER = 38
"""The last exact solve of a root in this table (1 in C_LAST_KNOWN if there was one since the
table was emptied): its score (see :func:`score_of`: counted from the end of the game, so a
sibling's is comparable) and who was to move there. The next root solve starts from it."""
C_TABLE_BITS = 39
C_SMALL_BITS = 40
"""log2 of the table's entries, and of its small first part's (0 if the table is always used
whole): the engine sets both. ``C_TABLE_MASK`` and ``C_TABLE_SHIFT`` map keys onto the part in
use (see :func:`slot_of`, :data:`SMALL_TABLE_BITS`)."""
HEAD_SIZE = 41

BUSY_BITS = 12
"""log2 of the busy marks' slots (see "Threads" above): a few per thread are in use at once."""
_BUSY_SHIFT = 64 - BUSY_BITS

CHECK_EVERY = 1024
"""Nodes between two checks (a power of two; about 0.15 ms of Connect Four) for Ctrl-C and,
with several threads, for a split node of the thread's path that another thread has settled
(:func:`stopped`)."""

STEP = 2 if ALTERNATING and WINNER_MOVES_LAST else 1
"""Plies per step of the score scale in :func:`solve`: when players alternate and every game is
won by its last mover, a player's wins (and losses) all fall on plies of one parity."""

GUESS_STEPS = 4
"""(solving) Null-window tests an exact root solve makes from the last root's score (see
:func:`solve`) before Pons' probes take over: a search that follows another is often a
sibling of it, or the same game a few moves on, with the same or a nearby value; a guess
that is far off costs these few tests, each cheap far from the value."""

OPENING_PLIES = 2
"""(solving) :func:`solve` steps from the draw only at a root at most this many plies into the
game (see there): measured on Connect Four, stepping searched 1.14-1.45x fewer positions than
Pons' probes on the empty 6x5, 7x5 and 6x6 boards, as many on five positions 4 plies into
7x6, 1.12x more on six 8 plies in, and 1.1-5.5x more on Pons' sets L1 and L2."""

ETC_AFTER = 8192
"""(solving) Enhanced cutoffs start once a search has visited this many positions. Before,
the table holds too little of the search for a child's entry to be there, and the look at
each child costs a load from main memory: on Pons' L1_R1 set, whose positions take about a
thousand positions each, they cost more time than the positions they saved. A whole board's
search is all but unchanged (6x5, 7x5, 6x6: at most 0.01% more positions)."""

SOLVING = HAS_THREATS and ALTERNATING and (HAS_UPPER_BOUND or HAS_ETC)
"""Whole-board solving, for a kernel with the solving hooks only (a game without them is
searched node for node as before): every child is looked at before any is searched (see
:func:`negamax`), a solve asks for the sign of the value first, and the table keeps two
entries per slot pair, replacing the one that took less work (see :func:`store`)."""

SMALL_TABLE_BITS = 16 if SOLVING else 0
"""(solving) log2 of the entries of the table's small first part. An emptied table that one
thread fills alone maps every key into its first ``2**16`` entries (1 MiB), until the search
has visited :data:`GROW_AFTER` positions: then :func:`grow` maps keys onto the whole table and
moves the entries there. A short search's entries thus lie in memory that stays in the
processor's caches from one search to the next, instead of one cache line each anywhere in the
table (64 MiB by default): on Pons' L1_R1 set (about a thousand positions a search) a quarter
less time, the same positions searched; his L1_R2 (350 thousand) and whole boards search as
many positions as with the whole table from the start (docs/kernels.md, "A short solve uses a
small part of the table"). 0: the whole table at once (a search without the solving hooks
keeps its node counts)."""

GROW_AFTER = 1 << SMALL_TABLE_BITS
"""(solving) The positions a search visits on the small part of the table (as many as it has
entries) before :func:`grow`. Growing after 2**14 instead kept a quarter of the gain on L1_R1;
without moving the entries, L1_R2 searched 5% more positions."""

MIDDLE_TABLE_BITS = 20 if SOLVING else 0
"""(solving) log2 of the entries of the table's middle part (16 MiB), where the small part
grows first, if the table is larger: keys map onto the whole table only once the middle part
holds :data:`FULL_MIDDLE` entries. A search that stays there touches a quarter of a 64 MiB
table's memory, and each page's first touch costs the operating system time (6x5's empty
board: 8 huge pages instead of 33, about 10 ms of a 0.15 s search; on this project's
development machine, whose host takes freed pages back, sometimes 20-160 ms more)."""

FULL_MIDDLE = 1 << (MIDDLE_TABLE_BITS - 1) if SOLVING else 0
"""(solving) The entries (half the middle part's) at which the table grows from the middle
part to the whole table: asked every :data:`CHECK_EVERY` positions."""

_WORK_SHIFT = 59
"""Four bits of a data word (solving only): about log4 of the positions searched below the
entry, so that a new entry replaces the cheaper of the two entries of its pair."""

_FLIP_SHIFT = 58
"""The bit of a data word that says the entry was stored from the mirror image of its key's
position (``mirror_key``): its best move is then a hint for that image only."""
_VALUE_OFFSET = 1 << 20
_VALUE_MASK = (1 << 21) - 1
_HASH_MULTIPLIER = -7046029254386353131  # 0x9E3779B97F4A7C15 (Fibonacci hashing) as int64


# -- the transposition table ---------------------------------------------------------------


@njit(cache=True, inline="always")
def pack(lower: int, upper: int, depth: int, move: int) -> int:
    """One entry's data word: 21 bits per bound, 8 for the depth, 8 for the best move. A valid
    word is never 0 (the bounds are stored with an offset), so 0 marks an empty slot."""
    return ((lower + _VALUE_OFFSET) | ((upper + _VALUE_OFFSET) << 21) | (depth << 42)
            | (move << 50))


@njit(cache=True, inline="always")
def table_key(state: Any) -> Any:
    """``(key, flip)``: the key under which ``state`` is stored, and 1 if that is the key of
    its mirror image (the smaller of the two keys, with ``mirror_key``), else 0."""
    key = k_key(state)
    if HAS_MIRROR:
        other = k_mirror_key(state)
        if other < key:
            return other, 1
    return key, 0


@njit(cache=True, inline="always")
def slot_of(key: int, ws: Any) -> int:
    """The index in ``ws`` of ``key``'s table entry (Fibonacci hashing: the top bits of
    key * 2^64/phi pick the slot)."""
    slot = ((key * _HASH_MULTIPLIER) >> ws[C_TABLE_SHIFT]) & ws[C_TABLE_MASK]
    return ws[C_TABLE] + 2 * slot


@njit(cache=True, inline="always")
def entry_of(key: int, slot: int, ws: Any) -> int:
    """The index in ``ws`` of ``key``'s entry: ``slot`` (from :func:`slot_of`) or, when
    solving, the other entry of its pair; -1 if neither holds the key."""
    data = ws[slot + 1]
    if data != 0 and ws[slot] ^ data == key:
        return slot
    if SOLVING:
        other = ws[C_TABLE] + ((slot - ws[C_TABLE]) ^ 2)
        data = ws[other + 1]
        if data != 0 and ws[other] ^ data == key:
            return other
    return -1


@njit(cache=True, inline="always")
def work_of(nodes: int) -> int:
    """About log4 of ``nodes`` (at most 15): the work field of a solving entry."""
    work = 0
    while nodes > 1 and work < 15:
        work += 1
        nodes >>= 2
    return work


@njit(cache=True)
def clear(ws: Any) -> None:
    """Empty the table of a workspace that alone fills it: the slots listed as dirty, or all
    of it if the list overflowed."""
    clear_share(ws, 0, 1, ws[C_DIRTY_OVERFLOW] != 0)


@njit(cache=True, nogil=True)
def clear_share(ws: Any, share: int, shares: int, whole: bool) -> None:
    """One workspace's share of emptying the table that ``shares`` workspaces fill: the slots
    its dirty list names; or, when ``whole`` (a list overflowed, so only emptying everything
    catches every slot), the ``share``-th of ``shares`` equal parts of the table. Its list
    then starts anew. The threads of a solve each empty their share at once, without the
    interpreter lock."""
    if whole:
        table = ws[C_TABLE]
        size = 2 << ws[C_TABLE_BITS]
        ws[table + size * share // shares:table + size * (share + 1) // shares] = 0
    else:
        dirty = ws[C_DIRTY]
        for i in range(ws[C_DIRTY_COUNT]):
            slot = ws[dirty + i]
            ws[slot] = 0
            ws[slot + 1] = 0
    ws[C_DIRTY_COUNT] = 0
    ws[C_DIRTY_OVERFLOW] = 0
    ws[C_ENTRIES] = 0
    ws[C_LAST_KNOWN] = 0  # an emptied table knows no last value either
    # An emptied table starts small again.
    map_keys(ws[C_SMALL_BITS] if ws[C_SMALL_BITS] != 0 else ws[C_TABLE_BITS], ws)


@njit(cache=True, inline="always")
def map_keys(bits: int, ws: Any) -> None:
    """Map keys onto the table's first ``2**bits`` entries (see :func:`slot_of`)."""
    ws[C_TABLE_MASK] = (1 << bits) - 1
    ws[C_TABLE_SHIFT] = 64 - bits


@njit(cache=True, inline="always")
def to_table(value: int, ply: int, by_distance: int) -> int:
    """A value counted from the root, as the table keeps it: counted from the node."""
    if by_distance:
        if PROVEN <= value < NO_BOUND:
            return value + ply
        if -NO_BOUND < value <= -PROVEN:
            return value - ply
    return value


@njit(cache=True, inline="always")
def from_table(value: int, ply: int, by_distance: int) -> int:
    """A value from the table, counted from the root again."""
    if by_distance:
        if PROVEN <= value < NO_BOUND:
            return value - ply
        if -NO_BOUND < value <= -PROVEN:
            return value + ply
    return value


@njit(cache=True, inline="always")
def replaced(slot: int, ws: Any) -> int:
    """(solving) Where a new entry for the pair of ``slot`` goes: ``slot`` if it is empty, else
    the other slot of the pair if that one is empty or has less work below it."""
    if ws[slot + 1] == 0:
        return slot
    other = ws[C_TABLE] + ((slot - ws[C_TABLE]) ^ 2)
    if ws[other + 1] == 0 or (ws[other + 1] >> _WORK_SHIFT) < (ws[slot + 1] >> _WORK_SHIFT):
        return other
    return slot


@njit(cache=True, inline="always")
def filled(slot: int, ws: Any) -> None:
    """List ``slot``, filled for the first time since the table was emptied, among the slots
    that emptying it clears (or mark the list overflowed: then the whole table is cleared)."""
    count = ws[C_DIRTY_COUNT]
    if count < ws[C_DIRTY_CAPACITY]:
        ws[ws[C_DIRTY] + count] = slot
        ws[C_DIRTY_COUNT] = count + 1
    else:
        ws[C_DIRTY_OVERFLOW] = 1


@njit(cache=True, inline="always")
def store(ws: Any, key: int, flip: int, ply: int, depth: int, best: int, alpha: int,
          beta: int, move: int, work: int) -> None:
    """Record the result ``best`` of a node searched with window (alpha, beta).

    ``best >= beta``: a lower bound; ``best <= alpha``: an upper bound; else exact. An entry for
    the same key and depth keeps the other bound it already had (it stays true). Replacement:
    always (the newest result is the most likely to be needed again). ``flip``: the node was
    stored under its mirror image's key (see :func:`table_key`). When solving (:data:`SOLVING`),
    a key has two slots, and a new entry replaces the one whose ``work`` (:func:`work_of` of
    the positions searched below it) was smaller: the costliest results stay.
    """
    by_distance = ws[C_BY_DISTANCE]
    stored_depth = TABLE_EXHAUSTIVE if depth >= TABLE_EXHAUSTIVE else depth
    value = to_table(best, ply, by_distance)
    lower = -NO_BOUND
    upper = NO_BOUND
    if best >= beta:
        lower = value
    elif best <= alpha:
        upper = value
    else:
        lower = value
        upper = value
    slot = slot_of(key, ws)
    if SOLVING:
        found = entry_of(key, slot, ws)
        slot = found if found >= 0 else replaced(slot, ws)
    old = ws[slot + 1]
    if old == 0:  # filled for the first time since the table was cleared: remember it
        ws[C_ENTRIES] += 1
        filled(slot, ws)
    elif ws[slot] ^ old == key and ((old >> 42) & 255) == stored_depth:
        old_lower = (old & _VALUE_MASK) - _VALUE_OFFSET
        old_upper = ((old >> 21) & _VALUE_MASK) - _VALUE_OFFSET
        if old_lower > lower and old_lower <= upper:
            lower = old_lower
        if old_upper < upper and old_upper >= lower:
            upper = old_upper
        if move == NO_MOVE:
            move = (old >> 50) & 255
            flip = (old >> _FLIP_SHIFT) & 1
    data = (pack(lower, upper, stored_depth, move) | (flip << _FLIP_SHIFT)
            | (work << _WORK_SHIFT))
    ws[slot] = key ^ data  # see "Threads" above: a torn entry never matches its key
    ws[slot + 1] = data


@njit(cache=True)
def grow(ws: Any, bits: int) -> None:
    """Map keys onto the table's first ``2**bits`` entries from now on (at most the whole
    table), and move every entry of the part in use until now (see :data:`SMALL_TABLE_BITS`)
    to the slot the larger part gives its key, as :func:`store` would place it (a slot of the
    pair with less work below it is replaced; an entry with less work than both is dropped).
    An entry already in its place stays."""
    small = ws[C_TABLE_MASK] + 1
    bits = min(bits, ws[C_TABLE_BITS])
    if small >= 1 << bits:  # as large already
        return
    map_keys(bits, ws)
    table = ws[C_TABLE]
    for i in range(small):
        at = table + 2 * i
        data = ws[at + 1]
        if data == 0:
            continue
        key = ws[at] ^ data
        slot = slot_of(key, ws)
        if (slot - table) >> 2 == i >> 1:  # in the pair the whole table gives it already
            continue
        ws[at] = 0
        ws[at + 1] = 0
        slot = replaced(slot, ws)
        old = ws[slot + 1]
        if old == 0:
            filled(slot, ws)
        else:
            ws[C_ENTRIES] -= 1  # one of the two entries is gone
            if (old >> _WORK_SHIFT) > (data >> _WORK_SHIFT):
                continue
        ws[slot] = key ^ data
        ws[slot + 1] = data


# -- values --------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def terminal(utility: int, mover: int, ply: int, by_distance: int) -> int:
    """The value of a finished game for the player to move (``utility`` is player 0's)."""
    if mover != 0:
        utility = -utility
    if not by_distance:
        return utility
    if utility > 0:
        return WIN - ply
    if utility < 0:
        return -(WIN - ply)
    return 0


@njit(cache=True, inline="always")
def in_table(state: Any) -> bool:
    """Does ``state`` use the table? Not near the end of the game (the kernel's
    ``table_min_plies_left``): there a probe costs more than the positions it saves."""
    return TABLE_MIN_LEFT == 0 or k_plies_left(state) >= TABLE_MIN_LEFT


@njit(cache=True, inline="always")
def leaf(ply: int, ws: Any) -> None:
    """Count a leaf at ``ply`` (and the deepest ply reached)."""
    ws[C_LEAVES] += 1
    if ply > ws[C_DEEPEST]:  # noqa: PLR1730 -- stores only when deeper
        ws[C_DEEPEST] = ply


@njit(cache=True, inline="always")
def interrupted(ws: Any) -> bool:
    """Has SIGINT arrived (Ctrl-C)? Asked of the C function at ``ws[C_INTERRUPT_CHECK]``
    (none: 0), which answers once per signal; the answer is kept in ``ws[C_INTERRUPTED]``."""
    check = ws[C_INTERRUPT_CHECK]
    if check != 0 and call_int(check) != 0:
        ws[C_INTERRUPTED] = 1
        return True
    return False


@njit(cache=True, inline="always")
def heuristic(state: Any, mover: int) -> int:
    """The kernel's estimate of ``state`` for the player to move."""
    estimate = k_evaluate(state)
    return estimate if mover == 0 else -estimate


@njit(cache=True, inline="always")
def bound_value(bound: int, ply: int) -> int:
    """The kernel's ``upper_bound`` code for a node at ``ply`` as a value: ``ONGOING`` (no
    bound) beyond every value, 0 a draw, ``-k`` a loss ``k`` plies from the node at the
    latest."""
    if bound == ONGOING:
        return INF
    if bound >= 0:
        return 0
    return -(WIN - (ply - bound))


# -- the search ----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def bound_code(bound: int) -> int:
    """The kernel's ``upper_bound`` code in 16 bits, to be kept for a child between the look
    at every child and its search (see :func:`negamax`): 1 no bound, 2 a draw, ``2 + k`` a
    loss within ``k`` plies; 0 if it does not fit (the child then asks the kernel again)."""
    if bound == ONGOING:
        return 1
    if bound >= 0:
        return 2
    if -bound > 0xFFFD:
        return 0
    return 2 - bound


@njit(cache=True, inline="always")
def pass_bound(codes: int, more: int, index: int, ws: Any) -> None:
    """Hand the child of generated ``index`` its ``upper_bound``, as :func:`bound_code` kept it
    (four 16-bit codes per word: ``codes`` the first four children's, ``more`` the next
    four), to the :func:`negamax` call that searches it next."""
    code = 0
    if index < 4:
        code = (codes >> (16 * index)) & 0xFFFF
    elif index < 8:
        code = (more >> (16 * (index - 4))) & 0xFFFF
    ws[C_PASSED_BOUND] = code


@njit(cache=True, inline="always")
def bound_of_code(code: int) -> int:
    """The kernel's ``upper_bound`` code that :func:`bound_code` made ``code``."""
    if code == 1:
        return ONGOING
    return 2 - code


@njit(cache=True, inline="always")
def order(state: Any, count: int, row: int, first: int, ws: Any) -> None:
    """Sort the ``count`` moves at ``ws[row:]`` best first: the table's move ``first`` (an index
    into the generated order, or NO_MOVE), then by the kernel's ``move_score``. Stable, so ties
    keep the kernel's order. Each sort key carries the move's original index in its low byte,
    which the search stores in the table as the best move."""
    keys = row + MAX_MOVES
    for i in range(count):
        score = k_move_score(state, ws[row + i]) if HAS_MOVE_SCORE else 0
        if i == first:
            score = 1 << 40
        ws[keys + i] = (score << 8) | i
    for i in range(1, count):  # insertion sort, descending: count is small
        move = ws[row + i]
        packed = ws[keys + i]
        j = i
        while j > 0 and (ws[keys + j - 1] >> 8) < (packed >> 8):
            ws[row + j] = ws[row + j - 1]
            ws[keys + j] = ws[keys + j - 1]
            j -= 1
        ws[row + j] = move
        ws[keys + j] = packed


# -- threads: the split nodes of a thread's path ------------------------------------------
#
# Each node where a thread splits the work (busy marks on) records a row in the thread's
# stack: its table slot and key, the window it searches, its ply, and the row of the split
# node above it (``ws[C_SPLIT_TOP]`` is the innermost). Every CHECK_EVERY nodes, wherever
# the thread is (also deep in a subtree too small to split), :func:`settled` asks the table
# whether another thread has meanwhile settled one of these nodes (stored a bound outside the
# window it is searched with): then the moves still to search there are wasted work, and the
# thread returns to that node at once (without storing anything on the way: every frame
# between returns as for the node limit), which answers with the stored bound, as a table hit
# on entry would have. (Asking before each move of a split node instead cost a thread about
# 7% of its speed and missed the subtrees below the split threshold.) One thread never
# splits.

S_SLOT = 0
S_KEY = 1
S_ALPHA = 2
S_BETA = 3
S_PLY = 4
S_LINK = 5
S_SIZE = 6
"""Words per row of the split stack (one row per ply)."""

ABORTED_UNWIND = 2
"""``ws[C_ABORTED]`` while a thread returns to the split node ``ws[C_UNWIND]``."""


@njit(cache=True, inline="always")
def enter_split(ws: Any, key: int, slot: int, ply: int, alpha: int, beta: int) -> int:
    """Record a split node on the thread's stack; its row (never 0)."""
    own = ws[C_STACK] + S_SIZE * ply
    ws[own + S_SLOT] = slot
    ws[own + S_KEY] = key
    ws[own + S_ALPHA] = alpha
    ws[own + S_BETA] = beta
    ws[own + S_PLY] = ply
    ws[own + S_LINK] = ws[C_SPLIT_TOP]
    ws[C_SPLIT_TOP] = own
    return own


@njit(cache=True)
def settled(ws: Any) -> int:
    """The outermost split node of the thread's path that the table now settles (its value
    goes to ``ws[C_UNWIND_VALUE]``), or 0."""
    found = 0
    by_distance = ws[C_BY_DISTANCE]
    row = ws[C_SPLIT_TOP]
    while row != 0:
        slot = entry_of(ws[row + S_KEY], ws[row + S_SLOT], ws)
        data = ws[slot + 1] if slot >= 0 else 0
        if data != 0 and ((data >> 42) & 255) == TABLE_EXHAUSTIVE:
            ply = ws[row + S_PLY]
            lower = from_table((data & _VALUE_MASK) - _VALUE_OFFSET, ply, by_distance)
            upper = from_table(((data >> 21) & _VALUE_MASK) - _VALUE_OFFSET, ply, by_distance)
            if lower >= ws[row + S_BETA]:
                found = row
                ws[C_UNWIND_VALUE] = lower
            elif upper <= ws[row + S_ALPHA]:
                found = row
                ws[C_UNWIND_VALUE] = upper
        row = ws[row + S_LINK]
    return found


@njit(cache=True)
def stopped(ws: Any) -> bool:
    """Must the search stop at this node (asked every :data:`CHECK_EVERY` nodes)? On Ctrl-C;
    and with several threads, when :func:`settled` finds a split node of the thread's path
    settled: then the return to it starts (see :func:`unwound`)."""
    if interrupted(ws):
        ws[C_ABORTED] = 1
        return True
    if ws[C_BUSY_MASK] != 0:
        target = settled(ws)
        if target != 0:
            ws[C_UNWIND] = target
            ws[C_ABORTED] = ABORTED_UNWIND
            return True
    return False


@njit(cache=True, inline="always")
def unwound(ws: Any, own: int) -> int:
    """A child of the split node ``own`` returned stopped: if the stop is a return to this
    node, its settled value (and the search goes on); else 0 (stopped further up)."""
    ws[C_SPLIT_TOP] = ws[own + S_LINK]
    if ws[C_ABORTED] == ABORTED_UNWIND and ws[C_UNWIND] == own:
        ws[C_ABORTED] = 0
        return ws[C_UNWIND_VALUE]
    return 0


@njit(cache=True, inline="always")
def forced_end(child: Any, ply: int, ws: Any) -> Any:
    """Play out the forced moves from ``child`` (at ``ply``), solving only: while the player to
    move has a single non-losing move, it is played, without a node of its own.
    ``(end, its ply, sign, lost)``: the position where a choice is left (or none); ``sign`` is
    +1 if its player to move is the one of ``child``'s parent, else -1; ``lost`` is 1 if that
    player has no non-losing move (it loses in 2 plies). A position with 2 plies left or fewer
    ends the chain (the search settles it)."""
    end = child
    sign = -1
    while True:
        if k_plies_left(end) < 2:
            return end, ply, sign, 0
        if HAS_FORCED_REPLY:  # the kernel's answer, without a list of the moves
            reply = k_forced_reply(end)
            if reply == NO_REPLY:
                return end, ply, sign, 1
            if reply == SEVERAL_REPLIES or k_plies_left(end) < 3:
                return end, ply, sign, 0
        else:
            row = ws[C_MOVES] + ply * (2 * MAX_MOVES)
            count = k_non_losing_moves(end, ws[row:row + MAX_MOVES])
            if count == 0:
                return end, ply, sign, 1
            if count > 1 or k_plies_left(end) < 3:
                return end, ply, sign, 0
            reply = ws[row]
        end = k_play(end, reply)
        ply += 1
        sign = -sign


@njit(cache=True, inline="always")
def child_value(child: Any, index: int, ply: int, depth: int, alpha: int, beta: int,
                mover: int, forced: int, codes: int, more: int, looked: bool, by_distance: int,
                ws: Any) -> int:
    """The value, for the player to move at ``ply``, of ``child``: the position after its move
    of generated ``index``, searched within (alpha, beta). When solving, a child whose forced
    line the look found (bit ``index`` of ``forced``) is searched from the line's end, and a
    child the look bounded is handed its ``upper_bound`` (``codes``, ``more``: see
    :func:`pass_bound`)."""
    if SOLVING and by_distance and depth > MAX_PLY and (forced >> min(index, 63)) & 1:
        end, end_ply, sign, lost = forced_end(child, ply + 1, ws)
        if lost:
            return sign * -(WIN - (end_ply + 2))
        if HAS_UPPER_BOUND:
            pass_bound(codes, more, index, ws)
        if sign < 0:
            return -negamax(end, end_ply, depth - (end_ply - ply), -beta, -alpha, ws)
        return negamax(end, end_ply, depth - (end_ply - ply), alpha, beta, ws)
    if ALTERNATING or k_to_move(child) != mover:
        if SOLVING and HAS_UPPER_BOUND and looked:
            pass_bound(codes, more, index, ws)
        return -negamax(child, ply + 1, depth - 1, -beta, -alpha, ws)
    return negamax(child, ply + 1, depth - 1, alpha, beta, ws)  # the same player moves again


@njit(types.int64(STATE_TYPE, types.int64, types.int64, types.int64, types.int64,
                  types.int64[::1]), cache=True)
def negamax(state: Any, ply: int, depth: int, alpha: int, beta: int, ws: Any) -> int:
    """The value of ``state`` for the player to move, searched within (alpha, beta), fail-soft.

    With the threat hooks (Pons' solver), ``state`` must be one where the player to move cannot
    win at once: the root functions check that, and every move searched here keeps it true.
    """
    passed = 0  # (solving) this position's upper_bound code, as the parent found it
    if SOLVING and HAS_UPPER_BOUND:
        passed = ws[C_PASSED_BOUND]
        ws[C_PASSED_BOUND] = 0
    nodes = ws[C_NODES] + 1
    ws[C_NODES] = nodes
    if SOLVING and nodes == GROW_AFTER and ws[C_SMALL_BITS] != 0:
        grow(ws, MIDDLE_TABLE_BITS)
    # The limit is 2**62 unless a caller sets one; Ctrl-C stops the search the same way.
    if nodes > ws[C_NODE_LIMIT]:
        ws[C_ABORTED] = 1
        return 0
    if (nodes & (CHECK_EVERY - 1)) == 0:
        if stopped(ws):
            return 0
        if SOLVING and ws[C_ENTRIES] > FULL_MIDDLE and ws[C_SMALL_BITS] != 0:
            grow(ws, ws[C_TABLE_BITS])
    key = 0
    flip = 0
    slot = 0
    # Each test reads "HAS_KEY and tabled", so that numba drops the table's code from the
    # engine of a kernel without a key.
    tabled = in_table(state)
    if HAS_KEY and tabled:
        key, flip = table_key(state)
        slot = slot_of(key, ws)
        prefetch(ws, slot)  # the slot arrives while the moves are generated
    by_distance = ws[C_BY_DISTANCE]
    mover = k_to_move(state)
    row = ws[C_MOVES] + ply * (2 * MAX_MOVES)
    out = ws[row:row + MAX_MOVES]
    if HAS_THREATS and by_distance:
        # The player to move cannot win now (precondition). Moves that let the opponent win at
        # once are dropped; if no move is left, the opponent wins with its next move.
        count = k_non_losing_moves(state, out)
        if count == 0:
            leaf(ply, ws)
            return -(WIN - (ply + 2))
        # Neither side can now win sooner than this (Pons' min and max scores); a game whose
        # remaining plies allow neither is a draw.
        left = k_plies_left(state)
        lowest = -(WIN - (ply + 4)) if left >= 4 else 0
        highest = WIN - (ply + 3) if left >= 3 else 0
        if alpha < lowest:
            alpha = lowest
            if alpha >= beta:
                leaf(ply, ws)
                return alpha
        if beta > highest:
            beta = highest
            if alpha >= beta:
                leaf(ply, ws)
                return beta
        if depth <= 0:
            leaf(ply, ws)
            ws[C_EVALUATIONS] += 1
            return min(max(heuristic(state, mover), lowest), highest)
        if HAS_UPPER_BOUND and depth > MAX_PLY:  # the kernel's static bound (solving only)
            bound = bound_of_code(passed) if passed != 0 else k_upper_bound(state)
            cap = bound_value(bound, ply)
            if beta > cap:
                beta = cap
                if alpha >= beta:
                    leaf(ply, ws)
                    return beta
    else:
        utility = k_outcome(state)
        if utility != ONGOING:
            leaf(ply, ws)
            return terminal(utility, mover, ply, by_distance)
        if depth <= 0 or ply >= MAX_PLY - 1:
            if depth > 0:  # a game longer than the kernel's max_plies: the kernel is wrong
                ws[C_OVERFLOW] = 1
            leaf(ply, ws)
            ws[C_EVALUATIONS] += 1
            return heuristic(state, mover)
        count = k_moves(state, out)
        if count == 0:  # a horizon: no moves, yet not finished (see the Game contract)
            leaf(ply, ws)
            ws[C_EVALUATIONS] += 1
            return heuristic(state, mover)

    first = NO_MOVE
    if HAS_KEY and tabled:
        found = entry_of(key, slot, ws)
        data = ws[found + 1] if found >= 0 else 0
        if data != 0:
            ws[C_TABLE_HITS] += 1
            wanted = TABLE_EXHAUSTIVE if depth >= TABLE_EXHAUSTIVE else depth
            lower = from_table((data & _VALUE_MASK) - _VALUE_OFFSET, ply, by_distance)
            upper = from_table(((data >> 21) & _VALUE_MASK) - _VALUE_OFFSET, ply, by_distance)
            if ((data >> 42) & 255) != wanted:
                # A search to another depth: only wins and losses proven within this search's
                # horizon still hold (a deeper result would make a depth-limited value depend
                # on what was searched before, unlike the reference minimax at this depth).
                if not (by_distance and lower >= PROVEN and WIN - lower - ply <= depth):
                    lower = -NO_BOUND
                if not (by_distance and upper <= -PROVEN and WIN + upper - ply <= depth):
                    upper = NO_BOUND
            if lower > alpha:
                alpha = lower
                if alpha >= beta:
                    return alpha
            if upper < beta:
                beta = upper
                if alpha >= beta:
                    return beta
            first = (data >> 50) & 255
            if HAS_MIRROR and ((data >> _FLIP_SHIFT) & 1) != flip:
                first = NO_MOVE  # the hint of the other image: its index means another move

    original_alpha = alpha
    best = -INF
    best_index = NO_MOVE
    skip = 0
    looked = False  # (solving) every child was looked at before the search
    etc = False  # (solving) the children's table entries were looked at (and so fetched)
    forced = 0  # (solving) the children whose forced line is not empty, by generated index
    codes = 0  # (solving) the upper_bound of the first children's ends (see pass_bound)
    more = 0
    if SOLVING and by_distance and depth > MAX_PLY:
        # Every child, before any is searched: a double threat (the opponent has no move
        # that does not lose at once) is the quickest win left; the kernel's upper bound and
        # (enhanced transposition cutoffs) the table's bounds of a child may cut this node
        # off at once, or show that a child cannot raise alpha (it is then not searched).
        looked = True
        etc = HAS_ETC and nodes >= ETC_AFTER and k_enhanced_cutoffs(state)
        quick = False  # a child whose player to move has no non-losing move
        for i in range(count):
            end, end_ply, sign, lost = forced_end(k_play(state, ws[row + i]), ply + 1, ws)
            if end_ply != ply + 1 or i >= 64:
                forced |= 1 << min(i, 63)
            # The bounds of the end of the child's forced line, for its player to move.
            low = -INF
            high = INF
            if lost:
                low = high = -(WIN - (end_ply + 2))
            else:
                child_key = 0
                child_slot = 0
                if etc:  # the entry's load overlaps the bound's computation
                    child_key, _ = table_key(end)
                    child_slot = slot_of(child_key, ws)
                    prefetch(ws, child_slot)
                elif HAS_KEY and tabled and in_table(end):
                    # The slot the child's search will read first: asked for now, it arrives
                    # during this look and the ordering. (Asked for only when the child's
                    # search began, it kept that search waiting on main memory: a sixth of a
                    # whole board's time, most of it at the first child, searched at once.)
                    prefetch(ws, slot_of(table_key(end)[0], ws))
                if HAS_UPPER_BOUND:
                    bound = k_upper_bound(end)
                    high = bound_value(bound, end_ply)
                    if i < 4:
                        codes |= bound_code(bound) << (16 * i)
                    elif i < 8:
                        more |= bound_code(bound) << (16 * (i - 4))
                if etc:
                    child_slot = entry_of(child_key, child_slot, ws)
                    data = ws[child_slot + 1] if child_slot >= 0 else 0
                    if data != 0 and ((data >> 42) & 255) == TABLE_EXHAUSTIVE:
                        ws[C_TABLE_HITS] += 1
                        low = max(low, from_table((data & _VALUE_MASK) - _VALUE_OFFSET,
                                                  end_ply, by_distance))
                        high = min(high, from_table(((data >> 21) & _VALUE_MASK)
                                                    - _VALUE_OFFSET, end_ply, by_distance))
            if sign < 0:  # as this node's player sees them
                low, high = -high, -low
            if low >= beta:
                ws[C_CUTOFFS] += 1
                if HAS_KEY and tabled:
                    store(ws, key, flip, ply, depth, low, alpha, beta, i, 0)
                return low
            if lost and end_ply == ply + 1:
                quick = True
            if i < 64 and (high <= alpha or low == high):  # no search needed
                skip |= 1 << i
                if high > best:  # an upper bound (or exact), kept for fail-soft
                    best = high
                    if low == high and high > alpha:  # exact: the best so far
                        alpha = high
                        best_index = i
        if not quick:
            # No move leaves the opponent without a non-losing answer: no win in 3 plies,
            # so none before the 5th (a win falls on the mover's plies).
            cap = WIN - (ply + 5) if k_plies_left(state) >= 5 else 0
            if cap < beta:
                beta = cap
                if alpha >= beta:
                    leaf(ply, ws)
                    return beta

    order(state, count, row, first, ws)
    if HAS_KEY and tabled and count > 1 and not (SOLVING and looked) and \
            (TABLE_MIN_LEFT == 0 or k_plies_left(state) > TABLE_MIN_LEFT):
        # Ask for every child's table slot now: the loads overlap (the table is far larger than
        # the caches, so each is a trip to main memory) instead of waiting in turn. (A node
        # that looked at its children has asked for their slots already.)
        for i in range(1, count):
            prefetch(ws, slot_of(table_key(k_play(state, ws[row + i]))[0], ws))
    keys = row + MAX_MOVES
    # Threads (ABDADA): with busy marks (several threads), a move after the first whose
    # position another thread is searching now is deferred to after the others.
    busy = 0
    own = 0
    start = 1
    if HAS_KEY and tabled and ws[C_BUSY_MASK] != 0:
        rest = k_plies_left(state) if HAS_PLIES_LEFT else MAX_PLY - ply
        if rest >= ws[C_SPLIT_LEFT]:
            busy = ws[C_BUSY]
            own = enter_split(ws, key, slot, ply, alpha, beta)
            if rest < ws[C_FIRST_LEFT]:
                start = 0
    deferred = 0
    cut = False
    for i in range(count):
        if SOLVING and skip != 0 and (skip >> (ws[keys + i] & 255)) & 1:
            continue
        child = k_play(state, ws[row + i])
        mark = 0
        tag = 0
        if busy != 0 and start <= i < 64:
            tag = k_key(child) ^ _HASH_MULTIPLIER
            mark = busy + (((tag * _HASH_MULTIPLIER) >> _BUSY_SHIFT) & ws[C_BUSY_MASK])
            if ws[mark] == tag:
                deferred |= 1 << i
                continue
            ws[mark] = tag
        value = child_value(child, ws[keys + i] & 255, ply, depth, alpha, beta, mover,
                            forced, codes, more, looked, by_distance, ws)
        if mark != 0 and ws[mark] == tag:
            ws[mark] = 0
        if ws[C_ABORTED]:
            if own != 0:
                return unwound(ws, own)
            return 0
        if value > best:
            best = value
            best_index = ws[keys + i] & 255
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    ws[C_CUTOFFS] += 1
                    if i == 0:
                        ws[C_FIRST_CUTOFFS] += 1
                    cut = True
                    break
    if deferred != 0 and not cut:
        for i in range(min(count, 64)):
            if (deferred >> i) & 1 == 0:
                continue
            child = k_play(state, ws[row + i])
            value = child_value(child, ws[keys + i] & 255, ply, depth, alpha, beta, mover,
                                forced, codes, more, looked, by_distance, ws)
            if ws[C_ABORTED]:
                return unwound(ws, own)
            if value > best:
                best = value
                best_index = ws[keys + i] & 255
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        ws[C_CUTOFFS] += 1
                        break
    if own != 0:
        ws[C_SPLIT_TOP] = ws[own + S_LINK]
    if HAS_KEY and tabled:
        work = work_of(ws[C_NODES] - nodes) if SOLVING else 0
        store(ws, key, flip, ply, depth, best, original_alpha, beta, best_index, work)
    return best


# -- root functions (called from Python) -----------------------------------------------------


@njit(cache=True)
def probe(state: Any, ply: int, depth: int, alpha: int, beta: int, ws: Any) -> int:
    """Like :func:`negamax`, for any state: first the checks negamax leaves to its caller (is
    the game over; can the player to move win at once). A state at depth 0 is valued as
    negamax values the children of the nodes it searches (with the threat hooks: after the
    threat checks), so that a root move's own search agrees with the root's."""
    threats = HAS_THREATS and ws[C_BY_DISTANCE]
    if depth <= 0 and not threats:
        return static(state, ply, ws)
    utility = k_outcome(state)
    if utility != ONGOING:
        return static(state, ply, ws)
    if threats and k_can_win_next(state):
        ws[C_NODES] += 1
        leaf(ply, ws)
        return WIN - (ply + 1)
    return negamax(state, ply, depth, alpha, beta, ws)


@njit(cache=True)
def static(state: Any, ply: int, ws: Any) -> int:
    """The value of ``state`` without searching: its result if the game is over, else the
    kernel's estimate (counted as a node and a leaf)."""
    ws[C_NODES] += 1
    leaf(ply, ws)
    mover = k_to_move(state)
    utility = k_outcome(state)
    if utility != ONGOING:
        return terminal(utility, mover, ply, ws[C_BY_DISTANCE])
    ws[C_EVALUATIONS] += 1
    return heuristic(state, mover)


@njit(cache=True, inline="always")
def _trunc_half(value: int) -> int:
    """``value / 2`` rounded toward zero (C's integer division, as Pons' solver computes)."""
    return -((-value) // 2) if value < 0 else value // 2


@njit(cache=True)
def score_of(value: int, horizon: int, lower_bound: bool) -> int:
    """A value on the coarse score scale the narrowing loop of :func:`solve` works on.

    A win ``p`` plies from the root scores ``(horizon - p) // g`` (``g`` = :data:`STEP`: 2 when
    a player's wins all fall on plies of one parity, so that two plies make one step, as in
    Pons' scores; else 1); a loss the negative; a draw 0. A value that is no game result (a
    bound) maps to the score of the nearest result above it if it is a ``lower_bound``, else
    below it.
    """
    g = STEP
    if value >= PROVEN:
        return (horizon - (WIN - value)) // g
    if value <= -PROVEN:
        return -((horizon - (WIN + value)) // g)
    if value > 0:
        return 1 if lower_bound else 0
    if value < 0:
        return 0 if lower_bound else -1
    return 0


@njit(cache=True)
def threshold_of(score: int, horizon: int) -> int:
    """The largest value whose score is ``score`` or less: "value > threshold" is exactly
    "score > ``score``"."""
    g = STEP
    if score >= 1:
        # score > s means horizon - p >= g*(s+1), i.e. value >= WIN - (horizon - g*(s+1)).
        return WIN - (horizon - g * (score + 1)) - 1
    if score == 0:
        return 0
    # score > -s (s >= 1) means a draw, a win, or a loss with horizon - p < g*s.
    return -(WIN - (horizon - g * (-score)))


@njit(cache=True)
def value_of_score(score: int, horizon: int, ply: int) -> int:
    """The exact value that has ``score`` (the inverse of :func:`score_of` on game results)."""
    g = STEP
    if score == 0:
        return 0
    if score > 0:
        plies = horizon - g * score
        if g == 2 and (plies - ply) % 2 == 0:  # the mover wins on odd plies from the node
            plies -= 1
        return WIN - plies
    plies = horizon - g * (-score)
    if g == 2 and (plies - ply) % 2 == 1:  # and loses on even ones
        plies -= 1
    return -(WIN - plies)


@njit(cache=True)
def solve(state: Any, ply: int, weak: bool, ws: Any) -> int:
    """The exact value of ``state`` (``weak``: only its sign: 1 win, 0 draw, -1 loss).

    Pons' ``solve()``: check for an immediate win, then narrow [min, max] with null-window
    searches, probing first towards the quick results (``min/2``, ``max/2``), which are cheap
    to refute or prove. Games without a ``plies_left`` hook get one full-window search. (Pons'
    weak solve narrows [-1, 1] instead: searches around 0, which no quick result cuts short.
    Running the full narrowing until the sign is known visited far fewer positions on his L2
    and L1 sets here — L1_R1: about 2,700 a position instead of about 20,000 — and a few
    more on L3_R1: 44 instead of 29; see docs/benchmarks.md.) After another root's exact
    solve on the same table, a root's first tests start from that root's score instead
    (:data:`GUESS_STEPS`).

    ``ws[C_PROVEN]`` receives what was proven as a value: the exact value, or for a weak solve
    of a win, a value the win reaches at least (a bound on how quick it is).
    """
    utility = k_outcome(state)
    by_distance = ws[C_BY_DISTANCE]
    if utility != ONGOING:
        ws[C_NODES] += 1
        leaf(ply, ws)
        value = terminal(utility, k_to_move(state), ply, by_distance)
        ws[C_PROVEN] = value
        return (value > 0) - (value < 0) if weak else value
    if HAS_THREATS and by_distance and k_can_win_next(state):
        ws[C_PROVEN] = WIN - (ply + 1)
        return 1 if weak else WIN - (ply + 1)
    if not (HAS_PLIES_LEFT and by_distance):
        value = negamax(state, ply, np.int64(EXHAUSTIVE), np.int64(-INF), np.int64(INF), ws)
        ws[C_PROVEN] = value
        return (value > 0) - (value < 0) if weak else value
    # Scores measure what is left of the game when it ends (horizon - p for a result p plies
    # from the root of the whole search; this state is ``ply`` plies from it).
    horizon = ply + k_plies_left(state) + 2
    earliest_loss = ply + 2 if WINNER_MOVES_LAST else ply + 1  # own move cannot lose
    low = score_of(-(WIN - earliest_loss), horizon, False)
    high = score_of(WIN - (ply + 1), horizon, True)  # the earliest win (as Pons)
    last = 0  # the last search's answer: 1 above its test, -1 at most its test
    first = True
    stepping = SOLVING and k_plies_left(state) >= MAX_PLY - 2 - OPENING_PLIES
    root = ply == 0 and not weak
    guess = np.int64(0)  # the score a guided solve tests first: the opening's, a draw
    guesses = 0
    if root and ws[C_LAST_KNOWN]:
        guesses = GUESS_STEPS
        guess = ws[C_LAST_SCORE] if ws[C_LAST_MOVER] == k_to_move(state) else -ws[C_LAST_SCORE]
    # A weak solve runs the same narrowing and stops as soon as the sign is known: its first
    # probes, towards the quick results, settle most wins and losses far more cheaply than one
    # search around 0 (which has no quick result to cut it short) would.
    while low < high:
        if weak and (low > 0 or high < 0 or (low == 0 and high == 0)):
            break
        middle = low + (high - low) // 2
        if middle <= 0 and _trunc_half(low) < middle:
            middle = _trunc_half(low)
        elif middle >= 0 and _trunc_half(high) > middle:
            middle = _trunc_half(high)
        # Guided: is the value at least ``guess``, first; then one step beyond the bound the
        # last search proved (its fail-soft value, as MTD(f) steps); then Pons' probes.
        # - After another root's solve on this table (``guesses``), the guess is that root's
        #   score, for at most GUESS_STEPS searches: a search that follows another is often a
        #   sibling of it (on a 7x6 book's frontier, 10% fewer positions than his probes).
        # - With the solving hooks, at the opening of a whole board (``stepping``), the guess
        #   is the draw, and the steps go on while the bound proven is the draw or the slowest
        #   result. A whole board's value is rarely a quick result, which his probes aim at,
        #   and its fail-soft bounds are tight: two or three searches settle it (6x6: 8.07 M
        #   positions instead of 10.8 M with the sign first and then his probes). Deeper in a
        #   game his probes win (see OPENING_PLIES): on his L1_R1 set, whose results are
        #   quick, stepping searched 5.5x the positions.
        if guesses > 0 or (stepping and (first or (last > 0 and low <= 1) or
                                         (last < 0 and high >= -1))):
            guesses -= 1
            if first:
                middle = min(max(guess - 1, low), high - 1)
            elif last > 0:
                middle = low
            else:
                middle = high - 1
        first = False
        threshold = threshold_of(middle, horizon)
        if ply == 0:  # progress, for whoever watches a long solve (a few stores a window)
            ws[C_WINDOWS] += 1
            ws[C_WINDOW_LOW] = threshold_of(low - 1, horizon) + 1
            ws[C_WINDOW_HIGH] = threshold_of(high, horizon)
            ws[C_WINDOW_TEST] = threshold
        result = negamax(state, ply, np.int64(EXHAUSTIVE), threshold, threshold + 1, ws)
        if ws[C_ABORTED]:
            return 0
        # A fail-soft result may land beyond the other end (a weak solve clamps the range to
        # [-1, 1]; a quicker win scores more): the range only ever shrinks.
        if result <= threshold:
            high = max(score_of(result, horizon, False), low)
            last = -1
        else:
            low = min(score_of(result, horizon, True), high)
            last = 1
    if weak:
        # What the narrowing proved, as a value: a win at least this quick (the root's moves
        # are then tested against it, cheaply), or the draw.
        ws[C_PROVEN] = threshold_of(low - 1, horizon) + 1 if low > 0 else 0
        return 1 if low > 0 else -1 if high < 0 else 0
    value = value_of_score(low, horizon, ply)
    ws[C_PROVEN] = value
    if root:
        ws[C_LAST_KNOWN] = 1
        ws[C_LAST_SCORE] = low
        ws[C_LAST_MOVER] = k_to_move(state)
    return value


# -- the root: every move's value, the best move and the line ------------------------------

# The layout of ``out``, the array the root functions fill (:func:`search_root`).
R_VALUE = 0
R_COUNT = 1
R_BEST = 2
R_PV_LENGTH = 3
R_PROBED = 4
"""The root's value as its own search found it (R_VALUE may differ: see search_root)."""
R_COUNTERS = 5
"""The search's counters from here, when it ends: nodes, leaves, evaluations, cut-offs,
first-move cut-offs, table hits, table entries, deepest ply, and 1 if a game went on past
``max_plies`` (in this order)."""
R_ENTRIES = R_COUNTERS + 9
"""Three words per root move from here: the move, its value, its bound (B_*)."""
R_PV = R_ENTRIES + 3 * MAX_MOVES
"""The principal variation's moves from here."""
R_SIZE = R_PV + MAX_PLY

B_EXACT = 0
B_UPPER = 1
"""The move's value is at most the one given (it was refuted, or not examined)."""

MODE_WEAK = 1
MODE_EXACT_ROOT = 2
MODE_LINE = 4
MODE_FRESH = 8
"""Start from an empty table and zero counters (a search whose answer must not depend on what
was searched before)."""


@njit(cache=True, inline="always")
def side(state: Any, child: Any) -> int:
    """+1 if the player to move in ``child`` is the one of ``state``, else -1."""
    if ALTERNATING:
        return -1
    return 1 if k_to_move(child) == k_to_move(state) else -1


@njit(cache=True)
def at_least(child: Any, sign: int, ply: int, wanted: int, depth: int, ws: Any) -> Any:
    """Is the move to ``child`` worth ``wanted`` for the player before it (the most it can be
    worth)? Then (wanted, B_EXACT); else (an upper bound on its value, B_UPPER). ``sign`` as
    :func:`side` gives it; values are counted from the root."""
    if sign < 0:  # worth >= wanted  <=>  the child's value <= -wanted
        result = probe(child, ply, depth, -wanted, -wanted + 1, ws)
        if result <= -wanted:
            return wanted, B_EXACT
        return -result, B_UPPER
    result = probe(child, ply, depth, wanted - 1, wanted, ws)
    if result >= wanted:
        return wanted, B_EXACT
    return result, B_UPPER


@njit(cache=True)
def search_root(state: Any, first: int, depth: int, mode: int, ws: Any, out: Any) -> None:
    """Search the root ``state``: its value, every move's value or bound, the best move and
    (``MODE_LINE``) the principal variation, into ``out`` (the R_* layout).

    ``depth`` is :data:`EXHAUSTIVE` for a solve to the end of the game (``MODE_WEAK``: win,
    draw or loss only, reported as 1, 0, -1); else the root is probed at each depth from
    ``first`` to ``depth`` (iterative deepening: each fills the table with best moves for the
    next), and its moves at ``depth``. Without ``MODE_EXACT_ROOT`` a move that cannot reach
    the root's value gets an upper bound, found by one null-window test; in a solve, the moves
    after the best one are not tested: their bound is the root's value. The best move is the
    first, in the kernel's order, that reaches the root's value. A search stopped by the node
    limit leaves ``ws[C_ABORTED]`` set and ``out`` unfinished. ``MODE_FRESH`` empties the table
    and the counters first; the counters are copied to ``out`` at the end, so that one call
    does a whole search.
    """
    if mode & MODE_FRESH:
        clear(ws)
        for slot in range(C_ABORTED + 1):
            ws[slot] = 0
        ws[C_DEEPEST] = 0
        ws[C_OVERFLOW] = 0
        ws[C_WINDOWS] = 0
    search_moves(state, first, depth, mode, ws, out)
    copy_counters(ws, out)


@njit(cache=True, inline="always")
def copy_counters(ws: Any, out: Any) -> None:
    """The counters into ``out`` (from R_COUNTERS), so that Python reads them in one go."""
    for i, slot in enumerate((C_NODES, C_LEAVES, C_EVALUATIONS, C_CUTOFFS, C_FIRST_CUTOFFS,
                              C_TABLE_HITS, C_ENTRIES, C_DEEPEST, C_OVERFLOW)):
        out[R_COUNTERS + i] = ws[slot]


@njit(cache=True)
def search_moves(state: Any, first: int, depth: int, mode: int, ws: Any, out: Any) -> None:
    """The work of :func:`search_root`, without its preparation and counters."""
    weak = (mode & MODE_WEAK) != 0
    exhaustive = depth >= EXHAUSTIVE
    zero = np.int64(0)
    if exhaustive:
        value = solve(state, zero, weak, ws)
    elif depth == 0:
        value = static(state, zero, ws)
    else:
        value = zero
        for d in range(first, depth + 1):
            value = probe(state, zero, np.int64(d), np.int64(-INF), np.int64(INF), ws)
    out[R_VALUE] = value
    out[R_PROBED] = value
    out[R_COUNT] = 0
    out[R_BEST] = -1
    out[R_PV_LENGTH] = 0
    if ws[C_ABORTED] or depth == 0 or k_outcome(state) != ONGOING:
        return
    row = ws[C_MOVES] + (MAX_PLY + 1) * (2 * MAX_MOVES)  # a row no search below uses
    count = k_moves(state, ws[row:row + MAX_MOVES])
    out[R_COUNT] = count
    child_depth = np.int64(EXHAUSTIVE) if exhaustive else np.int64(max(depth - 1, 0))
    one = np.int64(1)
    best = -1
    for i in range(count):
        move = ws[row + i]
        child = k_play(state, move)
        sign = side(state, child)
        entry = R_ENTRIES + 3 * i
        out[entry] = move
        bound = B_EXACT
        if weak:
            if value < 0 or best >= 0:  # every move loses; or one keeps the result already
                worth = value
                bound = B_EXACT if value < 0 else B_UPPER
            else:
                worth, bound = at_least(child, sign, one, ws[C_PROVEN], child_depth, ws)
                if bound == B_EXACT:
                    worth = value
                elif value == 0:  # a draw: a move that cannot keep it loses
                    worth, bound = -1, B_EXACT
                else:  # no quick enough win: nothing more is known
                    worth = 1
        elif mode & MODE_EXACT_ROOT:
            if exhaustive:
                worth = sign * solve(child, one, False, ws)
            else:
                worth = sign * probe(child, one, child_depth, np.int64(-INF), np.int64(INF), ws)
        elif exhaustive and best >= 0:
            # Solved, and the best move found: no move is worth more than the root, which is
            # all that choosing needs (a test of each later move cost 12% more positions on
            # Pons' L1_R1 set; --exact still gives every move's exact value).
            worth, bound = value, B_UPPER
        else:
            worth, bound = at_least(child, sign, one, value, child_depth, ws)
        if ws[C_ABORTED]:
            return
        out[entry + 1] = worth
        out[entry + 2] = bound
        if best < 0 and bound == B_EXACT and worth == value:
            best = i
    if best < 0:
        # Only under a depth limit, where a root move's own search can see more or less than
        # the root's (table entries from other depths): take the best value seen.
        best = 0
        for i in range(1, count):
            if out[R_ENTRIES + 3 * i + 1] > out[R_ENTRIES + 3 * best + 1]:
                best = i
        out[R_VALUE] = out[R_ENTRIES + 3 * best + 1]
    out[R_BEST] = best
    if mode & MODE_LINE:
        line(state, out[R_ENTRIES + 3 * best], out[R_VALUE], depth, ws, out)


@njit(cache=True)
def line(state: Any, best: int, value: int, depth: int, ws: Any, out: Any) -> None:
    """The principal variation from ``state`` after ``best``, into ``out`` (R_PV on): from each
    position the first move, in the kernel's order, that keeps ``value``, until the game ends
    (or, under a depth limit, the depth runs out or no move matches the value any more)."""
    out[R_PV] = best
    length = 1
    position = k_play(state, best)
    value = -value if side(state, position) < 0 else value  # seen from the player to move
    row = ws[C_MOVES] + (MAX_PLY + 1) * (2 * MAX_MOVES)
    limit = MAX_PLY - 2 if depth >= EXHAUSTIVE else depth
    ply = 1
    while ply < limit and k_outcome(position) == ONGOING:
        child_depth = np.int64(EXHAUSTIVE) if depth >= EXHAUSTIVE else np.int64(depth - ply - 1)
        count = k_moves(position, ws[row:row + MAX_MOVES])
        chosen = -1
        for i in range(count):
            child = k_play(position, ws[row + i])
            if at_least(child, side(position, child), np.int64(ply + 1), value, child_depth,
                        ws)[1] == B_EXACT:
                chosen = i
                break
        if chosen < 0 or ws[C_ABORTED]:
            break
        move = ws[row + chosen]
        child = k_play(position, move)
        out[R_PV + length] = move
        length += 1
        value = -value if side(position, child) < 0 else value
        position = child
        ply += 1
    out[R_PV_LENGTH] = length
    copy_counters(ws, out)


@njit(cache=True)
def solve_many(states: Any, weak: bool, results: Any, nodes: Any, ticks: Any,
               ws: Any) -> None:
    """Solve each state from an empty table, as a benchmark does: the results, node counts and
    cycle counts (the solve alone, not the clearing of the table) go to the three arrays."""
    zero = np.int64(0)
    for i in range(len(states)):
        if ws[C_ABORTED]:  # interrupted
            break
        clear(ws)
        ws[C_NODES] = 0  # each solve counts its own positions, as a search does
        started: int = cycles()
        results[i] = solve(k_state_from_row(states[i]), zero, weak, ws)
        ticks[i] = cycles() - started
        nodes[i] = ws[C_NODES]


@njit(cache=True, nogil=True)
def search_root_parallel(state: Any, first: int, depth: int, mode: int, ws: Any,
                         out: Any) -> None:
    """:func:`search_root`, without the interpreter lock: the main search of a multi-threaded
    solve, run in a thread of its own beside the :func:`helper` threads. Its answer is the
    search's; the helpers only fill the shared table."""
    search_root(state, first, depth, mode, ws, out)


@njit(cache=True, nogil=True)
def helper(state: Any, depth: int, mode: int, ws: Any, out: Any) -> None:
    """A helper thread of a multi-threaded solve, without the interpreter lock: it does the
    main search's work (:func:`search_moves`, into its own ``out``) beside it, storing what it
    proves in the shared table, where the main search finds it; with the busy marks (ABDADA)
    the threads search different moves of the nodes they share. The engine stops it (its node
    limit set to 0) once the main search has answered; its own answer is not used."""
    search_moves(state, 0, depth, mode, ws, out)


@njit(cache=True)
def clock() -> int:
    """The processor's cycle counter (to convert cycle counts to seconds from Python)."""
    return cycles()


@njit(cache=True)
def legal_moves(state: Any, out: Any) -> int:
    """The kernel's legal moves of ``state`` (0 once the game is over)."""
    if k_outcome(state) != ONGOING:
        return 0
    return k_moves(state, out)


@njit(cache=True)
def play(state: Any, move: int) -> Any:
    """The kernel's ``play``."""
    return k_play(state, move)


@njit(cache=True)
def status(state: Any) -> Any:
    """(player to move, outcome or ONGOING) of ``state``."""
    return k_to_move(state), k_outcome(state)
