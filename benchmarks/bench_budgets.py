"""How close searches keep to their time budgets: both tiers, several budgets.

The tests check only what a machine's speed cannot change (a budgeted search answers with a
legal move from a completed depth, node budgets are exact); the wall-clock claims are measured
here. For each task, tier and budget, fresh searches (a new engine, or the compiled engine's
table cleared) are timed from the caller's side with ``time.perf_counter``, the compiled kernel
loaded (or compiled) beforehand, outside the clock, as ``gametree play`` and the CLI do. The
first search of each task and tier (at the smallest budget) has a row of its own: it is the one
that meets whatever is still loaded lazily (the compiled engine's entry points load from the
cache on first use). It prints one table: the budget, which searches, the median and the worst
wall-clock time, the worst as a multiple of the budget, the depths completed, the median node
count, and how the searches ended (``time``: stopped by the budget; ``solved``: the exact result
was found first). A last line names the worst overrun. Time budgets depend on the machine and
its load: compare rows of one run, and give the load average with any figure.

Usage::

    python benchmarks/bench_budgets.py [--runs 5] [--budgets 0.05,0.2,1] [--tiers python,compiled]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gametree import SearchSession, search
from gametree.game import Game
from gametree.games.connect4 import ConnectFour, split_moves
from gametree.games.tictactoe import MNKGame
from gametree.registry import play_moves
from gametree.result import SearchResult


@dataclass(frozen=True)
class Task:
    """A position to search under a time budget."""

    name: str
    game: Callable[[], Game[Any, Any]]
    moves: str
    """Connect Four columns played from the empty board (empty: the start)."""


TASKS = (
    Task("Connect Four 7x6, empty board", ConnectFour, ""),
    Task("Connect Four 7x6, 4455 (a win in 3)", ConnectFour, "4455"),
    Task("Connect Four 7x6, 44455554221 (a loss in 2)", ConnectFour, "44455554221"),
    Task("tic-tac-toe, empty board", MNKGame, ""),
)

Searcher = Callable[[float], SearchResult[Any]]
"""One fresh search of a task under a time budget (seconds)."""


def python_searcher(task: Task) -> Searcher:
    game = task.game()
    state = play_moves(game, split_moves(task.moves)) if task.moves else game.initial_state()

    def run(budget: float) -> SearchResult[Any]:
        return search(game, state, time=budget, tier="python")  # from an empty table

    return run


def compiled_searcher(task: Task) -> Searcher:
    game = task.game()
    state = play_moves(game, split_moves(task.moves)) if task.moves else game.initial_state()
    SearchSession(game, tier="compiled").prepare()  # loaded (or compiled) outside the clock

    def run(budget: float) -> SearchResult[Any]:
        return search(game, state, time=budget, tier="compiled")  # from an empty table

    return run


SEARCHERS: dict[str, Callable[[Task], Searcher]] = {
    "python": python_searcher,
    "compiled": compiled_searcher,
}


@dataclass
class Line:
    """The runs of one task, tier and budget."""

    seconds: list[float]
    depths: list[int]
    nodes: list[int]
    ends: list[str]


def measure(run: Searcher, budget: float, runs: int) -> Line:
    line = Line([], [], [], [])
    for _ in range(runs):
        started = time.perf_counter()
        result = run(budget)
        line.seconds.append(time.perf_counter() - started)
        line.depths.append(result.stats.depth_reached)
        line.nodes.append(result.stats.nodes)
        line.ends.append(result.stats.stopped_by or "solved")
    return line


def depth_range(depths: list[int]) -> str:
    low, high = min(depths), max(depths)
    return str(low) if low == high else f"{low}-{high}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="searches per line (default 5)")
    parser.add_argument("--budgets", default="0.05,0.2,1",
                        help="comma-separated time budgets in seconds (default 0.05,0.2,1)")
    parser.add_argument("--tiers", default="python,compiled",
                        help="comma-separated tiers (default python,compiled)")
    args = parser.parse_args()
    budgets = [float(text) for text in args.budgets.split(",")]
    tiers = args.tiers.split(",")
    for tier in tiers:
        if tier not in SEARCHERS:
            parser.error(f"unknown tier {tier!r}: choose from {', '.join(SEARCHERS)}")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print()
    print("| task | tier | budget | searches | median | worst | worst / budget | depth "
          "| nodes (median) | ended by |")
    print("|---|---|---:|---|---:|---:|---:|---:|---:|---|")
    worst: tuple[float, str] = (0.0, "")
    for task in TASKS:
        for tier in tiers:
            run = SEARCHERS[tier](task)
            rows = [(budgets[0], "first", 1)] + [(budget, f"next {args.runs}", args.runs)
                                                 for budget in budgets]
            for budget, which, runs in rows:
                line = measure(run, budget, runs)
                slowest = max(line.seconds)
                ratio = slowest / budget
                if ratio > worst[0]:
                    worst = (ratio, f"{task.name}, {tier}, {budget:g} s, {which}")
                ends = ", ".join(f"{end} {line.ends.count(end)}"
                                 for end in ("time", "solved") if end in line.ends)
                print(f"| {task.name} | {tier} | {budget:g} s | {which} "
                      f"| {statistics.median(line.seconds):.3f} s | {slowest:.3f} s "
                      f"| {ratio:.2f} | {depth_range(line.depths)} "
                      f"| {int(statistics.median(line.nodes)):,} | {ends} |", flush=True)
    print()
    print(f"worst: {worst[0]:.2f} x the budget ({worst[1]})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
