"""Small games for the engine's tests that are not built-in games.

``ExtraTurns`` exercises moves that leave the same player to move; ``RandomGame`` builds
random game graphs with transpositions (positions reached by several move orders), which
explicit trees do not have.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gametree import Game


class ExtraTurns(Game[tuple[int, int], int]):
    """Take 1, 2 or 3 from a heap; taking exactly 2 gives the taker another turn.

    Who takes the last one wins. State: (heap, player to move).
    """

    name = "extra-turns"

    def __init__(self, heap: int = 10) -> None:
        self.heap = heap

    def initial_state(self) -> tuple[int, int]:
        return (self.heap, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def moves(self, state: tuple[int, int]) -> list[int]:
        return [take for take in (1, 2, 3) if take <= state[0]]

    def play(self, state: tuple[int, int], move: int) -> tuple[int, int]:
        heap, player = state
        heap -= move
        if heap == 0:
            return (0, 1 - player)
        return (heap, player if move == 2 else 1 - player)

    def outcome(self, state: tuple[int, int]) -> int | None:
        if state[0] > 0:
            return None
        return 1 if state[1] == 1 else -1  # the player who cannot move lost: the other took last

    def evaluate(self, state: tuple[int, int]) -> int:
        heap, player = state
        return (1 if heap % 4 else -1) * (1 if player == 0 else -1)


class RandomGame(Game[int, int]):
    """A random game graph: positions 0..n-1, moves lead to higher positions only.

    Several positions may lead to the same position (transpositions); who moves is a property
    of the position (sometimes the same player moves twice); the last positions are finished
    games or heuristic horizons.
    """

    name = "random-graph"

    def __init__(self, seed: int, size: int = 40, width: int = 3) -> None:
        rng = random.Random(seed)
        self.size = size
        self.player = [rng.randrange(2) for _ in range(size)]
        self.player[0] = 0
        self.children: list[list[int]] = []
        self.result: dict[int, int] = {}
        self.estimate: dict[int, int] = {}
        for node in range(size):
            later = list(range(node + 1, size))
            if not later or (node > size // 3 and rng.random() < 0.25):
                self.children.append([])
                if rng.random() < 0.6:
                    self.result[node] = rng.choice((-1, 0, 1))
                else:
                    self.estimate[node] = rng.randint(-9, 9)
                continue
            count = min(len(later), rng.randint(1, width))
            self.children.append(sorted(rng.sample(later[:8], min(count, len(later[:8])))))
        self.values = {node: rng.randint(-20, 20) for node in range(size)}

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return self.player[state]

    def moves(self, state: int) -> Sequence[int]:
        if state in self.result:
            return []
        return self.children[state]

    def play(self, state: int, move: int) -> int:
        return move

    def outcome(self, state: int) -> int | None:
        return self.result.get(state)

    def evaluate(self, state: int) -> int:
        return self.estimate.get(state, self.values[state])
