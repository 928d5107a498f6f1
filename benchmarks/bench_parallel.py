"""One hard position on every core: the compiled engine on 1 thread against 2 (issue 11, item 5).

Each position of Pascal Pons' sets ``Test_L1_R2`` and ``Test_L1_R3`` (``../shared/data/connect4``;
all or the first ``--count`` of each) is solved exactly, as ``gametree solve connect4`` does
(value, best move, root move bounds and principal variation), from an empty table, through
the search service, once with ``threads=1`` and once with ``threads=2`` (ABDADA: see
``docs/searching.md``). The two runs of a position follow each other, in alternating order, so
that a change of load affects both alike. Every score is
checked against Pons' and every 2-thread value and best move against the 1-thread one (a
disagreement exits 1).

Printed per set: the positions, the total time of each engine (wall clock, each search alone),
the speed-up (1-thread total / 2-thread total), the median of the per-position speed-ups, and
the positions explored (the 2-thread figure is summed over both threads). The load average is
printed before and after; the speed-up means something only when both cores are otherwise idle
(run it under ``flock /tmp/gt-bench.lock`` on a shared machine).

Usage::

    python benchmarks/bench_parallel.py                                  # L1_R2: 200, L1_R3: 10
    python benchmarks/bench_parallel.py --sets L1_R2 --count 1000
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from gametree import EngineTuning, SearchOptions, search
from gametree.games.connect4 import ConnectFour, pons_score
from gametree.registry import play_moves

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4"
COUNTS = {"L1_R2": 200, "L1_R3": 10}
"""Positions per set by default: about a minute of one core each."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(COUNTS), help="comma-separated set names")
    parser.add_argument("--count", type=int,
                        help="positions per set, from the first (default: L1_R2 200, L1_R3 10)")
    parser.add_argument("--threads", type=int, default=2, help="the parallel engine's threads")
    parser.add_argument("--table-bits", type=int, default=23,
                        help="log2 of the table entries (default 23: 8M entries, Pons' size)")
    args = parser.parse_args()

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
          f"load average before: {os.getloadavg()[0]:.2f}")
    game = ConnectFour()
    tuning = EngineTuning(table_bits=args.table_bits)
    engines = {threads: SearchOptions(threads=threads, tuning=tuning)
               for threads in (1, args.threads)}
    warm = play_moves(game, list("32751571231557"))  # loads the code and maps the tables
    for options in engines.values():
        search(game, warm, options)
    print(f"table: 2^{args.table_bits} entries; threads: 1 against {args.threads}")
    print()
    print(f"| set | positions | 1 thread | {args.threads} threads | speed-up | median speed-up "
          f"| positions explored, 1 thread | {args.threads} threads (summed) |")
    print("|---|---|---|---|---|---|---|---|")
    failed = False
    for name in args.sets.split(","):
        count = args.count or COUNTS.get(name, 100)
        lines = [line.split() for line in (DATA / f"Test_{name}").read_text().splitlines()
                 if line.strip()][:count]
        totals = dict.fromkeys(engines, 0.0)
        nodes = dict.fromkeys(engines, 0)
        ratios = []
        for number, (moves, score) in enumerate(lines):
            state = play_moves(game, list(moves))
            order = list(engines) if number % 2 == 0 else list(reversed(engines))
            results = {}
            seconds = {}
            for threads in order:
                started = time.perf_counter()
                results[threads] = search(game, state, engines[threads])
                seconds[threads] = time.perf_counter() - started
            one, many = results[1], results[args.threads]
            if (one.value, one.best_move) != (many.value, many.best_move) or \
                    pons_score(game, state, one) != int(score):
                print(f"DISAGREEMENT on {moves}: Pons {score}, 1 thread {one.value} "
                      f"{one.best_move}, {args.threads} threads {many.value} {many.best_move}",
                      file=sys.stderr)
                failed = True
            for threads in engines:
                totals[threads] += seconds[threads]
                nodes[threads] += results[threads].stats.nodes
            ratios.append(seconds[1] / seconds[args.threads])
        one_total, many_total = totals[1], totals[args.threads]
        print(f"| {name} (first {len(lines)}) | {len(lines)} | {one_total:.2f} s | "
              f"{many_total:.2f} s | {one_total / many_total:.2f}x | "
              f"{statistics.median(ratios):.2f}x | {nodes[1]:,} | {nodes[args.threads]:,} |",
              flush=True)
    print()
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
