"""Retrograde analysis on a kernel game, compiled by numba: enumerate, then value backwards.

This file is a *template*, as the engine's (:mod:`gametree.compiled._engine`) is: it is never
imported as ``gametree.solvers._retrograde`` at run time.
:func:`gametree.compiled.build.kernel_module` writes one copy of it per kernel into the
compilation cache, with the block marked ``KERNEL BINDING`` replaced by the kernel's functions
and constants, so that numba inlines the kernel's rules and caches each copy's machine code on
disk under the kernel's own digest: a later process loads it instead of compiling it again.
:mod:`gametree.solvers.retrograde` calls :func:`explore`, then :func:`solve`, and explains the
method.
"""

# ruff: noqa: PLR0915
# mypy: disable-error-code="no-any-return"
from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from gametree.values import WIN

# BEGIN KERNEL BINDING
# Replaced in each generated copy by the kernel's functions and constants (see build.py). The
# stand-ins below only make this template importable and checkable on its own.
k_to_move: Any = None
k_moves: Any = None
k_play: Any = None
k_outcome: Any = None
k_key: Any = None
k_state_from_row: Any = None
k_state_to_row: Any = None
STATE_WIDTH = 1
ONGOING = -(2**62)
# END KERNEL BINDING

_HASH_MULTIPLIER = -7046029254386353131  # 0x9E3779B97F4A7C15 (Fibonacci hashing) as int64


@njit(cache=True, inline="always")
def slot_of(key: int, bits: int) -> int:
    """The slot of ``key`` in an open-addressing table of ``2**bits`` slots."""
    return ((key * _HASH_MULTIPLIER) >> (64 - bits)) & ((1 << bits) - 1)


@njit(cache=True, inline="always")
def grown(array: Any, used: int, size: int, fill: int) -> Any:
    """``array`` (one dimension) in a new array of ``size`` slots: its first ``used`` kept,
    the others ``fill``."""
    bigger = np.full(size, fill, np.int64)
    bigger[:used] = array[:used]
    return bigger


@njit(cache=True)
def explore(root: Any, max_moves: int, limit: int) -> Any:
    """Every position reachable from ``root``, breadth first, merged by the kernel's key (at
    most ``limit`` of them expanded: a warm-up passes 1). Returns the count ``n``, the states
    (one row each), each one's first parent and the move from it, its outcome (or ONGOING)
    and player to move, and its edges: ``start[i]:start[i+1]`` index the children (``child``)
    and moves (``move``) of position ``i``."""
    width = STATE_WIDTH
    cap = 1 << 12
    ecap = 1 << 14
    bits = 14
    states = np.zeros((cap, width), np.int64)
    parent = np.full(cap, -1, np.int64)
    pmove = np.zeros(cap, np.int64)
    keys = np.zeros(cap, np.int64)
    outcome = np.zeros(cap, np.int64)
    mover = np.zeros(cap, np.int64)
    start = np.zeros(cap + 1, np.int64)
    child = np.zeros(ecap, np.int64)
    emove = np.zeros(ecap, np.int64)
    table = np.full(1 << bits, -1, np.int64)
    buf = np.zeros(max_moves, np.int64)
    k_state_to_row(root, states, 0)
    key = k_key(root)
    keys[0] = key
    table[slot_of(key, bits)] = 0
    n = 1
    e = 0
    head = 0
    while head < n and head < limit:
        state = k_state_from_row(states[head])
        start[head] = e
        result = k_outcome(state)
        mover[head] = k_to_move(state)
        outcome[head] = result
        if result == ONGOING:
            count = k_moves(state, buf)
            for m in range(count):
                after = k_play(state, buf[m])
                key = k_key(after)
                slot = slot_of(key, bits)
                found = -1
                while table[slot] >= 0:
                    if keys[table[slot]] == key:
                        found = table[slot]
                        break
                    slot = (slot + 1) & ((1 << bits) - 1)
                if found < 0:
                    if n == cap:
                        cap *= 2
                        states2 = np.zeros((cap, width), np.int64)
                        states2[:n] = states[:n]
                        states = states2
                        parent = grown(parent, n, cap, -1)
                        pmove = grown(pmove, n, cap, 0)
                        keys = grown(keys, n, cap, 0)
                        outcome = grown(outcome, n, cap, 0)
                        mover = grown(mover, n, cap, 0)
                        start = grown(start, n + 1, cap + 1, 0)
                    found = n
                    k_state_to_row(after, states, n)
                    parent[n] = head
                    pmove[n] = buf[m]
                    keys[n] = key
                    table[slot] = n
                    n += 1
                    if 2 * n > (1 << bits):
                        bits += 1
                        table = np.full(1 << bits, -1, np.int64)
                        for i in range(n):
                            s = slot_of(keys[i], bits)
                            while table[s] >= 0:
                                s = (s + 1) & ((1 << bits) - 1)
                            table[s] = i
                if e == ecap:
                    ecap *= 2
                    child = grown(child, e, ecap, 0)
                    emove = grown(emove, e, ecap, 0)
                child[e] = found
                emove[e] = buf[m]
                e += 1
        head += 1
    start[head] = e
    n = head  # with a limit: the positions expanded (a warm-up)
    return (n, states[:n].copy(), parent[:n].copy(), pmove[:n].copy(), outcome[:n].copy(),
            mover[:n].copy(), start[:n + 1].copy(), child[:e].copy(), emove[:e].copy())


@njit(cache=True, inline="always")
def seen(value: int, same: bool) -> int:
    """A child's value seen from its parent: one ply further away, negated unless the same
    player moves again."""
    further = value - 1 if value > 0 else (value + 1 if value < 0 else 0)
    return further if same else -further


@njit(cache=True)
def solve(n: int, start: Any, child: Any, outcome: Any, mover: Any) -> Any:
    """The value of each of the ``n`` positions :func:`explore` found (``WIN - p``: a win
    ``p`` plies away), valued backwards from the finished ones in Kahn's order; whether each
    edge is a best move; how many positions were valued (fewer than ``n`` on a cycle); and
    how many positions have no moves yet are not finished (a kernel error)."""
    e = start[n]
    remaining = np.zeros(n, np.int64)
    first = np.zeros(n + 1, np.int64)
    for i in range(n):
        remaining[i] = start[i + 1] - start[i]
        for j in range(start[i], start[i + 1]):
            first[child[j] + 1] += 1
    for i in range(n):
        first[i + 1] += first[i]
    rev = np.zeros(e, np.int64)
    fill = first[:n].copy()
    for i in range(n):
        for j in range(start[i], start[i + 1]):
            c = child[j]
            rev[fill[c]] = i
            fill[c] += 1
    value = np.zeros(n, np.int64)
    queue = np.zeros(n, np.int64)
    head = 0
    tail = 0
    bad = 0
    for i in range(n):
        if remaining[i] == 0:
            o = outcome[i]
            if o == ONGOING:
                bad += 1
                o = 0
            mine = o if mover[i] == 0 else -o
            value[i] = WIN if mine > 0 else (-WIN if mine < 0 else 0)
            queue[tail] = i
            tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        for j in range(first[c], first[c + 1]):
            p = rev[j]
            remaining[p] -= 1
            if remaining[p] == 0:
                best = -2 * WIN
                for q in range(start[p], start[p + 1]):
                    d = child[q]
                    v = seen(value[d], mover[d] == mover[p])
                    best = max(best, v)
                value[p] = best
                queue[tail] = p
                tail += 1
    best_edge = np.zeros(e, np.bool_)
    for p in range(n):
        for q in range(start[p], start[p + 1]):
            d = child[q]
            best_edge[q] = seen(value[d], mover[d] == mover[p]) == value[p]
    return value, best_edge, tail, bad
