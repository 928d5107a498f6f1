"""Whole games by retrograde analysis: every position's value, distance and best moves at once.

No search per position: the positions reachable from the root are enumerated once (forward,
breadth first, merged by key), then valued backwards from the finished games, layer by layer:
a position is valued as soon as every one of its children is (Kahn's order on the game's
graph: the first layer holds the finished games, the next the positions all of whose moves
lead into the first, and so on). A position's value is the best over its children, each seen
from the player to move, one ply further away — the engine's distance scoring
(:mod:`gametree.values`): a win as soon as possible, a loss as late as possible. A move that
leaves the same player to move (an extra turn) is not negated.

Two tiers, one answer (the tests compare them):

* :func:`python_graph` enumerates with the Game contract (any game; merged by
  :meth:`Game.key`);
* :func:`compiled_graph` enumerates and values on the game's kernel, in numba: the kernel's
  rules over encoded states in flat arrays and an open-addressing hash table of kernel keys.
  Its positions are then replayed once on the Python form (by each one's first parent and
  move), to store them under the Python form's key and in its notation; a key that merges
  more than the kernel's (tic-tac-toe's symmetric twins) keeps the first position met.

The database builder turns a :class:`Solution` into rows (:mod:`gametree.builder.whole`):
this module knows nothing of databases.
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..compiled import build
from ..compiled.form import CompiledForm, compiled_form_of
from ..compiled.kernel import ONGOING, Kernel
from ..game import ContractError, Game, refuse_chance
from ..values import WIN, seen_from_parent, sign


@dataclass
class Graph:
    """The positions reachable from a root and the moves between them, breadth first.

    Node 0 is the root; every other node has the parent that first reached it and the move
    from there (so each node has one line from the root). ``start[i]:start[i+1]`` index the
    edges of node ``i`` in ``child`` (the child node) and ``move`` (the move, in the tier's
    own form: a Python move, or a kernel move).
    """

    parent: list[int]
    parent_move: list[Any]
    start: list[int]
    child: list[int]
    move: list[Any]
    outcome: list[int | None]
    """The game's utility for player 0 at a finished position, else ``None``."""
    mover: list[int]
    states: list[Any] = field(default_factory=list)
    """The Python states (filled by the Python tier, or by replaying a compiled graph)."""

    @property
    def size(self) -> int:
        """How many positions."""
        return len(self.parent)


@dataclass
class Solution:
    """A solved graph: each position's value on the engine's scale and the best edges."""

    graph: Graph
    value: list[int]
    best: list[bool]
    tier: str
    seconds_compile: float
    """Compiling the kernel's retrograde functions (the compiled tier, once per process)."""
    seconds_solve: float
    """Enumerating and valuing every position (on the tier's own states)."""
    seconds_replay: float
    """Replaying a compiled graph's positions on the Python form (0 on the Python tier)."""


def python_graph(game: Game[Any, Any], root: Any) -> Graph:
    """Enumerate every position reachable from ``root`` with the Game contract."""
    index: dict[Hashable, int] = {game.key(root): 0}
    graph = Graph(parent=[-1], parent_move=[None], start=[], child=[], move=[], outcome=[],
                  mover=[], states=[root])
    states = graph.states
    head = 0
    while head < len(states):
        state = states[head]
        graph.start.append(len(graph.child))
        outcome = game.outcome(state)
        graph.outcome.append(None if outcome is None else _sign(outcome))
        graph.mover.append(game.to_move(state))
        if outcome is None:
            for move in game.moves(state):
                after = game.play(state, move)
                key = game.key(after)
                found = index.get(key)
                if found is None:
                    found = index[key] = len(states)
                    states.append(after)
                    graph.parent.append(head)
                    graph.parent_move.append(move)
                graph.child.append(found)
                graph.move.append(move)
        head += 1
    graph.start.append(len(graph.child))
    return graph


def solve_python(graph: Graph) -> tuple[list[int], list[bool]]:
    """Value every position of ``graph`` backwards from the finished ones (Kahn's order)."""
    size = graph.size
    start, child, mover = graph.start, graph.child, graph.mover
    parents: list[list[int]] = [[] for _ in range(size)]
    remaining = [0] * size
    for node in range(size):
        remaining[node] = start[node + 1] - start[node]
        for edge in range(start[node], start[node + 1]):
            parents[child[edge]].append(node)
    value = [0] * size
    queue: deque[int] = deque()
    for node in range(size):
        if remaining[node] == 0:
            value[node] = _terminal_value(graph, node)
            queue.append(node)
    done = 0
    while queue:
        node = queue.popleft()
        done += 1
        for parent in parents[node]:
            remaining[parent] -= 1
            if remaining[parent] == 0:
                value[parent] = max(
                    _seen(value[child[edge]], mover[child[edge]] == mover[parent])
                    for edge in range(start[parent], start[parent + 1]))
                queue.append(parent)
    if done < size:
        raise ContractError("the game's positions form a cycle: some never reach the end")
    best = [False] * len(child)
    for node in range(size):
        for edge in range(start[node], start[node + 1]):
            best[edge] = _seen(value[child[edge]], mover[child[edge]] == mover[node]) == \
                value[node]
    return value, best


def _terminal_value(graph: Graph, node: int) -> int:
    outcome = graph.outcome[node]
    if outcome is None:
        raise ContractError("a position with no legal moves is not finished (its outcome is "
                            "None): retrograde analysis needs every such position to be over")
    mine = outcome if graph.mover[node] == 0 else -outcome
    return WIN if mine > 0 else -WIN if mine < 0 else 0


def _seen(value: int, same_mover: bool) -> int:
    """A child's value as its parent's player to move sees it, one ply further away."""
    return seen_from_parent(value, same_mover=same_mover)


def _sign(outcome: float) -> int:
    return sign(outcome)


def solve(game: Game[Any, Any], root: Any | None = None, *,
          tier: str = "auto") -> Solution:
    """Solve every position reachable from ``root`` (default: the start). ``tier``:
    ``compiled`` (the game's kernel, in numba), ``python``, or ``auto`` (compiled when the game
    has a kernel that can key its states)."""
    refuse_chance(game, "retrograde analysis (a database stores wins, draws and losses)")
    root = game.initial_state() if root is None else root
    form = None
    if tier in ("auto", "compiled"):
        found = compiled_form_for_retrograde(game)
        if isinstance(found, str) and tier == "compiled":
            raise ValueError(f"compiled retrograde analysis: {found}")
        form = None if isinstance(found, str) else found
    started = time.perf_counter()
    if form is not None:
        graph, value, best, compiled, finished = compiled_graph(game, root, form)
        return Solution(graph, value, best, "compiled", compiled - started, finished - compiled,
                        time.perf_counter() - finished)
    graph = python_graph(game, root)
    value, best = solve_python(graph)
    return Solution(graph, value, best, "python", 0.0, time.perf_counter() - started, 0.0)


def compiled_form_for_retrograde(game: Game[Any, Any]) -> CompiledForm[Any, Any] | str:
    """The game's compiled form if its kernel can run retrograde analysis (it keys its states,
    or has none to key), else why not."""
    form = compiled_form_of(game)
    if isinstance(form, str):
        return form
    kernel = form.kernel
    if "key" not in kernel.python_rules() and kernel.state_size != 0:
        return f"the {kernel.name} kernel has no key for its states"
    return form


# -- the compiled tier ------------------------------------------------------------------------

_TEMPLATE = Path(__file__).with_name("_retrograde.py")


def _compiled_solver(kernel: Kernel, root: Any) -> Any:
    """The generated retrograde module of ``kernel`` (:mod:`gametree.solvers._retrograde`, cached
    on disk with the kernel's engine), compiled or loaded now (with a one-position exploration
    from ``root`` and an empty solve), so that its work can be timed apart."""
    import numpy as np  # noqa: PLC0415 - comes with numba, only for the compiled tier

    module, needs_compiling = build.kernel_module(kernel, _TEMPLATE, "retrograde analysis")
    with build.compiling(module) if needs_compiling else contextlib.nullcontext():
        module.explore(root, kernel.max_moves, 1)
        empty = np.zeros(1, np.int64)
        module.solve(0, empty, empty[:0], empty, empty)
    return module


def compiled_graph(game: Game[Any, Any], root: Any, form: CompiledForm[Any, Any],
                   ) -> tuple[Graph, list[int], list[bool], float, float]:
    """Enumerate and value every position from ``root`` on the game's kernel, then replay the
    positions on the Python form. Returns the graph (Python states filled in), the values,
    the best edges and the times (``perf_counter``) when compiling and when the compiled
    work ended."""
    kernel = form.kernel
    encoded = form.encode(root)
    module = _compiled_solver(kernel, encoded)
    compiled = time.perf_counter()
    n, _, parent, pmove, outcome, mover, start, child, emove = module.explore(
        encoded, kernel.max_moves, 1 << 62)
    value, best, solved, bad = module.solve(n, start, child, outcome, mover)
    if bad:
        raise ContractError(f"kernel {kernel.name}: {bad} position(s) without legal moves are "
                            f"not finished")
    if solved < n:
        raise ContractError("the game's positions form a cycle: some never reach the end")
    finished = time.perf_counter()
    outcomes = outcome.tolist()
    graph = Graph(parent=parent.tolist(), parent_move=pmove.tolist(), start=start.tolist(),
                  child=child.tolist(), move=emove.tolist(),
                  outcome=[None if o == ONGOING else _sign(o) for o in outcomes],
                  mover=mover.tolist())
    graph.states = _replayed(game, form, graph, root)
    return graph, value.tolist(), best.tolist(), compiled, finished


def _replayed(game: Game[Any, Any], form: CompiledForm[Any, Any], graph: Graph,
              root: Any) -> list[Any]:
    """The Python states of a compiled graph's positions, each played from its parent."""
    states: list[Any] = [root]
    play, decode = game.play, form.decode_move
    parent, move = graph.parent, graph.parent_move
    for node in range(1, graph.size):
        before = states[parent[node]]
        states.append(play(before, decode(before, move[node])))
    return states


__all__ = ["Graph", "Solution", "compiled_form_for_retrograde", "compiled_graph", "python_graph",
           "solve", "solve_python"]
