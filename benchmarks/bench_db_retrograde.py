"""Retrograde analysis of a whole game against building the same database by search.

    python benchmarks/bench_db_retrograde.py --width 4 --height 5 --sample 2000

Retrograde: every position valued by backward induction, on the compiled tier and on the
Python tier (compile time reported apart). By search: a random sample of the same positions
solved exactly one by one on the compiled tier (``solve_batch``), the mean time extrapolated
to every position.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from gametree import solve_batch
from gametree.registry import make
from gametree.solvers.retrograde import solve


def main() -> None:
    """Print positions per second of each way."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--height", type=int, default=5)
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--no-python", action="store_true")
    args = parser.parse_args()
    game = make("connect4", width=args.width, height=args.height)
    tiers = ["compiled"] if args.no_python else ["compiled", "python"]
    states: list[Any] = []
    for tier in tiers:
        solution = solve(game, tier=tier)
        size = solution.graph.size
        print(f"retrograde, {tier} tier: {size:,} positions valued in "
              f"{solution.seconds_solve:.2f} s = {size / solution.seconds_solve:,.0f} "
              f"positions/s (compiling {solution.seconds_compile:.1f} s; replaying on the "
              f"Python form {solution.seconds_replay:.1f} s)", flush=True)
        if not states:
            graph = solution.graph
            states = [graph.states[i] for i in range(size) if graph.outcome[i] is None]
    sample = random.Random(1).sample(states, min(args.sample, len(states)))
    solve_batch(game, sample[:1])  # load the kernel
    began = time.perf_counter()
    solve_batch(game, sample)
    spent = time.perf_counter() - began
    rate = len(sample) / spent
    print(f"by search, compiled tier: {len(sample):,} random positions in {spent:.2f} s = "
          f"{rate:,.0f} positions/s; all {len(states):,} unfinished positions: about "
          f"{len(states) / rate:,.0f} s", flush=True)


if __name__ == "__main__":
    main()
