"""How long exact solves of 7x6 Connect Four positions take at a given ply (for the book
estimate of docs/solving.md): random positions of that ply (random legal moves from the start,
games already over skipped), each solved exactly on the compiled tier, one at a time.

    python benchmarks/bench_db_connect4_sample.py --plies 12 10 8 --count 5 --budget 120
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from gametree import solve_batch
from gametree.registry import make

POSITIONS = {8: 184_275, 10: 1_662_623, 12: 13_056_630}
"""Distinct 7x6 positions after 8 and 10 plies (``gametree count connect4 --depth 10``) and
12 (OEIS A212693: ``gametree count`` keeps at most 4 million positions)."""


def random_position(game: Any, plies: int, rng: random.Random) -> Any:
    """A position after ``plies`` random moves in which the game is not over."""
    while True:
        state = game.initial_state()
        for _ in range(plies):
            moves = game.moves(state)
            if not moves:
                break
            state = game.play(state, rng.choice(moves))
        if game.outcome(state) is None and game.stone_count(state) == plies:
            return state


def main() -> None:
    """Print the mean solve time per ply and the CPU-hours of a book's frontier."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plies", type=int, nargs="+", default=[12, 10, 8])
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--budget", type=float, default=120.0,
                        help="stop sampling a ply after this many seconds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = make("connect4")
    solve_batch(game, [random_position(game, 20, random.Random(0))])  # load the kernel
    for plies in args.plies:
        rng = random.Random(args.seed)
        times: list[float] = []
        started = time.perf_counter()
        while len(times) < args.count and time.perf_counter() - started < args.budget:
            state = random_position(game, plies, rng)
            began = time.perf_counter()
            solve_batch(game, [state])
            times.append(time.perf_counter() - began)
        mean = statistics.mean(times)
        count = POSITIONS.get(plies)
        hours = f"{count * mean / 3600:,.1f} CPU-hours" if count else "?"
        print(f"ply {plies}: {len(times)} positions solved, mean {mean:.3f} s, "
              f"max {max(times):.3f} s; frontier {f'{count:,}' if count else '?'} positions "
              f"-> {hours}",
              flush=True)


if __name__ == "__main__":
    main()
