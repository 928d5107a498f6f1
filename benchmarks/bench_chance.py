"""Star1 and Star2 against plain expectiminimax: leaves evaluated and time, in one run.

    python benchmarks/bench_chance.py            # prints the table (see --help)

Each position is searched by the reference ``expectiminimax`` (every outcome of every chance
node, no table) and by the engine with ``--chance-pruning none`` (alpha-beta at the players'
nodes and a transposition table, every outcome searched), ``star1`` and ``star2``. Every
search must give exactly the reference's value (the script stops otherwise). Times are the best
of ``--repeat`` runs, measured side by side in one process.

The positions: random trees of the textbook's shape (MAX, CHANCE, MIN, CHANCE, ... with
uniformly random leaves, seeded), and Pig from the start, solved exactly on small goals and
depth-limited with OpenSpiel's default options.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from gametree import GameTree
from gametree.engine.chance import ChancePruning, search_chance
from gametree.game import Game
from gametree.games.pig import Pig
from gametree.reference import expectiminimax
from gametree.result import SearchResult

PRUNINGS: tuple[ChancePruning, ...] = ("none", "star1", "star2")


def textbook_tree(levels: int, branching: int, faces: int, seed: int) -> GameTree:
    """A tree of ``levels`` player levels, MAX and MIN in turn, each move followed by a chance
    node of ``faces`` equally likely outcomes; leaves uniform in -50..50."""
    rng = random.Random(seed)

    def player(level: int) -> Any:
        if level == levels:
            return rng.randint(-50, 50)
        return [chance(level) for _ in range(branching)]

    def chance(level: int) -> Any:
        return {"chance": [[f"1/{faces}", player(level + 1)] for _ in range(faces)]}

    return GameTree.from_nested(player(0))


def timed(run: Callable[[], SearchResult[Any]], repeat: int) -> tuple[SearchResult[Any], float]:
    """The result of ``run`` and its best time over ``repeat`` runs."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    assert result is not None
    return result, best


def measure(name: str, game: Game[Any, Any], depth: int | None,
            repeat: int) -> list[str]:
    """One row of the table: the reference's leaves and time, then each pruning's."""
    root = game.initial_state()
    reference, seconds = timed(lambda: expectiminimax(game, root, depth=depth), repeat)
    cells = [name, "to the end" if depth is None else f"depth {depth}",
             _value(reference), f"{reference.stats.leaves:,}", f"{seconds:.3f} s"]
    for pruning in PRUNINGS:
        result, spent = timed(lambda p=pruning: search_chance(game, root, depth=depth,  # type: ignore[misc]
                                                             pruning=p), repeat)
        if result.expected != reference.expected:
            raise SystemExit(f"{name}: {pruning} gives {result.expected}, expectiminimax "
                             f"{reference.expected}")
        share = result.stats.leaves / reference.stats.leaves
        cells.append(f"{result.stats.leaves:,} ({share:.0%}), {spent:.3f} s "
                     f"({seconds / spent:.1f}x)")
    return cells


def _value(result: SearchResult[Any]) -> str:
    value = result.expected
    if isinstance(value, Fraction) and value.denominator <= 1000:
        return str(value)
    return f"{float(value):.4f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per search (best time)")
    parser.add_argument("--trees", type=int, default=3, help="random trees of each shape")
    options = parser.parse_args()
    rows = []
    for levels, branching, faces in ((3, 3, 3), (4, 3, 2), (4, 2, 4)):
        for seed in range(options.trees):
            tree = textbook_tree(levels, branching, faces, seed)
            rows.append(measure(f"tree {levels} levels, {branching} moves, {faces} outcomes, "
                                f"seed {seed}", tree, None, options.repeat))
    rows.append(measure("pig --winscore 8 --diceoutcomes 3 --horizon 8",
                        Pig(8, 3, 8), None, options.repeat))
    rows.append(measure("pig --winscore 10 --diceoutcomes 6 --horizon 8",
                        Pig(10, 6, 8), None, options.repeat))
    for depth in (3, 5):
        rows.append(measure("pig (OpenSpiel's defaults: 100, 6, 1000)", Pig(), depth,
                            options.repeat))
    header = ["position", "search", "value", "expectiminimax leaves", "time",
              *(f"engine, {pruning}: leaves, time" for pruning in PRUNINGS)]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
