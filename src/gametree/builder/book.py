"""Opening books: every position up to N plies, each one's value exact.

The positions reachable from the root in at most ``plies`` moves are enumerated breadth first
(merged by the game's key). Those at exactly ``plies`` moves — the *frontier* — are solved
exactly by search (:mod:`gametree.builder.executors`); finished games are valued by their outcome;
every other position (*interior*) is valued by minimax from its children once they all are,
with every best move, so that every stored value is exact.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..db.store import RowTuple, engine_value, key_text, stored_value
from ..game import Game
from ..values import seen_from_parent, sign


@dataclass
class BookNode:
    """One position of a book: where it lies and how it is valued."""

    state: Any
    key: str
    ply: int
    line: str
    kind: str
    """``terminal``, ``interior`` or ``frontier``."""
    children: list[tuple[str, str]] = field(default_factory=list)
    """Interior positions: each move (as text) and its child's key."""


def enumerate_book(game: Game[Any, Any], root: Any, plies: int) -> list[BookNode]:
    """Every position within ``plies`` moves of ``root``, breadth first (each once, by key)."""
    first = BookNode(root, key_text(game.key(root)), 0, "", "")
    nodes = [first]
    seen = {first.key}
    head = 0
    while head < len(nodes):
        node = nodes[head]
        head += 1
        state = node.state
        if game.outcome(state) is not None:
            node.kind = "terminal"
            continue
        if node.ply == plies:
            node.kind = "frontier"
            continue
        node.kind = "interior"
        for move in game.moves(state):
            after = game.play(state, move)
            key = key_text(game.key(after))
            text = game.format_move(state, move)
            node.children.append((text, key))
            if key not in seen:
                seen.add(key)
                line = f"{node.line} {text}" if node.line else text
                nodes.append(BookNode(after, key, node.ply + 1, line, ""))
    return nodes


def terminal_row(game: Game[Any, Any], node: BookNode) -> RowTuple:
    """The row of a finished position: its outcome, seen from the player to move."""
    outcome = game.outcome(node.state)
    assert outcome is not None
    mine = outcome if game.to_move(node.state) == 0 else -outcome
    value = sign(mine)
    return (node.key, node.ply, node.line, value, 0 if value else None, "", "terminal")


def back_up(game: Game[Any, Any], nodes: list[BookNode],
            known: dict[str, tuple[int, int | None, int]]) -> Iterator[RowTuple]:
    """The rows of the interior positions, valued from their children by minimax.

    ``known`` maps the key of every terminal and frontier position to its stored ``(value,
    plies, player to move)``; interior positions are valued once all their children are
    (Kahn's order), with every best move.
    """
    values: dict[str, tuple[int, int]] = {key: (engine_value(value, plies), mover)
                                          for key, (value, plies, mover) in known.items()}
    interior = [node for node in nodes if node.kind == "interior"]
    by_key = {node.key: node for node in interior}
    parents: dict[str, list[BookNode]] = {}
    remaining: dict[str, int] = {}
    for node in interior:
        waiting = 0
        for _, child in node.children:
            if child in by_key:
                parents.setdefault(child, []).append(node)
                waiting += 1
            elif child not in values:
                raise ValueError(f"the book lacks the position after {node.line!r} "
                                 f"(key {child}): build it again")
        remaining[node.key] = waiting
    queue = deque(node for node in interior if remaining[node.key] == 0)
    done = 0
    while queue:
        node = queue.popleft()
        done += 1
        mover = game.to_move(node.state)
        seen = [(text, _seen(*values[child], mover)) for text, child in node.children]
        best = max(value for _, value in seen)
        names: list[str] = []
        for text, value in seen:
            if value == best and text not in names:
                names.append(text)
        values[node.key] = (best, mover)
        yield (node.key, node.ply, node.line, *stored_value(best), " ".join(names), "interior")
        for parent in parents.get(node.key, ()):
            remaining[parent.key] -= 1
            if remaining[parent.key] == 0:
                queue.append(parent)
    if done < len(interior):
        raise ValueError("the book's positions form a cycle")


def _seen(value: int, child_mover: int, mover: int) -> int:
    return seen_from_parent(value, same_mover=child_mover == mover)


__all__ = ["BookNode", "back_up", "enumerate_book", "terminal_row"]
