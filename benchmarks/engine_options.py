"""What each of the engine's techniques buys: nodes and time with one switched off or changed.

Prints one table: a row per engine configuration, a column per task, each cell the nodes the
search visited and its best CPU time over the repetitions (``time.process_time``, which other
processes on a shared machine disturb less than wall-clock time). Node counts are exact and
repeatable; times are for comparing rows of one run. This is the measurement behind the
engine's defaults (docs/engine.md, "What each technique buys").

Run: ``python benchmarks/engine_options.py [--repeat N] [--tasks ttt,nim1357,...]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from collections.abc import Callable
from typing import Any

from gametree import EngineTuning, Game, SearchOptions, search
from gametree.games.nim import Nim
from gametree.games.tictactoe import MNKGame

Task = tuple[str, Callable[[], Game[Any, Any]], int | None]


def tasks() -> list[Task]:
    """The tasks of the peer benchmarks, plus a deeper Connect Four search."""
    found: list[Task] = [
        ("ttt", MNKGame, None),
        ("nim1357", lambda: Nim((1, 3, 5, 7), misere=True), None),
        ("nim5555", lambda: Nim((5, 5, 5, 5), misere=True), None),
    ]
    if importlib.util.find_spec("gametree.games.connect4") is not None:
        from gametree.games.connect4 import ConnectFour  # noqa: PLC0415 -- optional game

        found += [("c4d8", ConnectFour, 8), ("c4d10", ConnectFour, 10),
                  ("c4d12", ConnectFour, 12)]
    return found


CONFIGURATIONS: dict[str, dict[str, Any]] = {
    "default": {},
    "iterative deepening": {"iterative": True},
    "MTD(f) root": {"window": "mtdf"},
    "MTD(f) + deepening": {"window": "mtdf", "iterative": True},
    "no PVS (plain windows)": {"pvs": False},
    "no killer moves": {"killers": False},
    "history heuristic": {"history": True},
    "no table": {"table": False},
}

TOO_SLOW = {("no table", "nim1357"), ("no table", "nim5555")}
"""Cells left out unless ``--slow``: Nim 1,3,5,7 without a table visits 6 million nodes."""


def measure(game: Game[Any, Any], depth: int | None, options: dict[str, Any],
            repeat: int) -> tuple[int, float]:
    """Nodes of one search and the best CPU seconds of ``repeat`` fresh searches."""
    best = float("inf")
    nodes = 0
    chosen = SearchOptions(depth=depth, tier="python", tuning=EngineTuning(**options))
    for _ in range(repeat):
        started = time.process_time()
        result = search(game, options=chosen)  # a fresh engine and table every time
        best = min(best, time.process_time() - started)
        nodes = result.stats.nodes
    return nodes, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="searches per cell (best time)")
    parser.add_argument("--tasks", help="comma-separated task names (default: all)")
    parser.add_argument("--slow", action="store_true",
                        help="also the cells that take minutes (Nim without a table)")
    args = parser.parse_args()
    chosen = [task for task in tasks()
              if args.tasks is None or task[0] in args.tasks.split(",")]
    header = f"| {'configuration':24} |" + "".join(f" {name + ' nodes':>14} | {'ms':>7} |"
                                                   for name, _, _ in chosen)
    print(header)
    print("|" + "-" * 26 + "|" + "".join(f"{'-' * 15}:|{'-' * 8}:|" for _ in chosen))
    for label, options in CONFIGURATIONS.items():
        cells = []
        for name, make, depth in chosen:
            if (label, name) in TOO_SLOW and not args.slow:
                cells.append(f" {'-':>14} | {'-':>7} |")
                continue
            nodes, seconds = measure(make(), depth, options, args.repeat)
            cells.append(f" {nodes:>14,} | {seconds * 1000:7.1f} |")
        print(f"| {label:24} |" + "".join(cells), flush=True)


if __name__ == "__main__":
    main()
