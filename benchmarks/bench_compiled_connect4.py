"""Connect Four on Pascal Pons' benchmark sets: the compiled tier against his published figures
and against the Python tier.

For each set (1000 positions each, ``../shared/data/connect4``) the compiled engine solves every
position from an empty table, strong (the exact score) and weak (win, draw or loss), as Pons'
benchmark does. It prints, per set: positions solved correctly (must be all), mean time per
position (the solve alone, timed inside the compiled loop by the processor's cycle counter; the
table clearing between positions is not included, as in Pons' benchmark), mean positions
explored (one per negamax call, as he counts), and positions explored per second; then Pons'
figures for the same sets (strong, his machine) and the ratios. The Python tier (the engine,
``gametree.search(..., tier="python")``) solves the first positions of each set within a time
budget and is compared with the compiled tier on exactly those positions.

Usage::

    python benchmarks/bench_compiled_connect4.py                       # all sets, 1000 each
    python benchmarks/bench_compiled_connect4.py --sets L2_R2 --count 200 --python-seconds 0
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from gametree import search, solve_batch
from gametree.games.connect4 import (
    C4State,
    ConnectFour,
    pons_score,
    read_pons_line,
    score_from_distance,
)
from gametree.registry import play_moves
from gametree.values import plies_to_result

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4"
SETS = ("L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3")
PONS = {  # Pons' final solver, strong, his machine: mean time (s), mean positions explored
    "L3_R1": (4.6e-6, 51), "L2_R1": (37e-6, 450), "L2_R2": (3.2e-3, 39_900),
    "L1_R1": (255e-6, 3_298), "L1_R2": (97e-3, 1_200_000), "L1_R3": (5.5, 66_000_000),
}


@dataclass
class Measured:
    """One run of the compiled tier over a set."""

    correct: int
    total: int
    mean_seconds: float
    mean_nodes: float
    nodes_per_second: float
    wall_seconds: float


def score_of(value: int, stones: int, cells: int) -> int:
    """Pons' score from a compiled value (distance from the root) and the stones played."""
    plies = plies_to_result(value)
    if plies is None:  # a solve's value is a proven result, or 0: a draw
        return 0
    return score_from_distance(cells, stones, plies, won=value > 0)


def load(name: str, count: int) -> list[tuple[str, int]]:
    lines = (DATA / f"Test_{name}").read_text().split("\n")
    return [(moves, expected["score"]) for moves, expected in
            (read_pons_line(line) for line in lines[:count] if line.strip())]


def run_compiled(game: ConnectFour, positions: list[tuple[str, int]], states: list[C4State],
                 weak: bool, table_bits: int) -> tuple[Measured, list[float]]:
    batch = solve_batch(game, states, weak=weak, table_bits=table_bits, prefault=True)
    correct = 0
    for (moves, score), value in zip(positions, batch.values, strict=True):
        expected = (score > 0) - (score < 0) if weak else score
        got = value if weak else score_of(value, len(moves), game.cells)
        correct += got == expected
    seconds = sum(batch.solve_seconds)
    nodes = sum(batch.nodes)
    return Measured(correct, len(positions), seconds / len(positions), nodes / len(positions),
                    nodes / seconds if seconds else 0.0, batch.total_seconds), batch.solve_seconds


def run_python(game: ConnectFour, positions: list[tuple[str, int]], budget: float
               ) -> tuple[int, int, list[float]]:
    """Solve positions in order with the Python tier until ``budget`` seconds are spent; a
    position still unproven when the budget runs out is not counted."""
    correct, times = 0, []
    spent = 0.0
    for moves, score in positions:
        if spent >= budget:
            break
        state = play_moves(game, list(moves))
        started = time.perf_counter()
        result = search(game, state, algorithm="engine", time=budget - spent, tier="python")
        elapsed = time.perf_counter() - started
        spent += elapsed
        if result.outcome is None:
            break
        times.append(elapsed)
        correct += pons_score(game, state, result) == score
    return correct, len(times), times


def fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(SETS[:5]),
                        help="comma-separated set names (default: all but L1_R3)")
    parser.add_argument("--count", type=int, default=1000, help="positions per set")
    parser.add_argument("--table-bits", type=int, default=23,
                        help="log2 of the table entries (default 23: 8M entries, Pons' size)")
    parser.add_argument("--python-seconds", type=float, default=30.0,
                        help="time budget per set for the Python tier (0: skip it)")
    parser.add_argument("--no-weak", action="store_true", help="strong solving only")
    args = parser.parse_args()

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
          f"load average before: {os.getloadavg()[0]:.2f}")
    game = ConnectFour()
    started = time.perf_counter()
    # The engine loads on a position of the first set (the empty board would be a solve of the
    # whole game: minutes).
    first = play_moves(game, list(load(args.sets.split(",")[0], 1)[0][0]))
    solve_batch(game, [first], table_bits=args.table_bits, prefault=True)
    print(f"engine ready in {time.perf_counter() - started:.2f} s "
          f"(table: 2^{args.table_bits} entries)")
    print()
    header = ("| set | mode | solved | mean time | mean positions | positions/s "
              "| Pons time | Pons positions | time / Pons | positions / Pons |")
    print(header)
    print("|---" * (header.count("|") - 1) + "|")
    python_rows: list[tuple[str, int, int, float | None, float | None]] = []
    for name in args.sets.split(","):
        positions = load(name, args.count)
        states = [play_moves(game, list(moves)) for moves, _ in positions]
        modes = (False,) if args.no_weak else (False, True)
        strong_times: list[float] = []
        for weak in modes:
            measured, times = run_compiled(game, positions, states, weak, args.table_bits)
            if not weak:
                strong_times = times
            pons_time, pons_nodes = PONS[name]
            pons = ["", "", "", ""] if weak else [
                fmt_time(pons_time), f"{pons_nodes:,}",
                f"{measured.mean_seconds / pons_time:.2f}x",
                f"{measured.mean_nodes / pons_nodes:.2f}x"]
            cells = [name, "weak" if weak else "strong", f"{measured.correct}/{measured.total}",
                     fmt_time(measured.mean_seconds), f"{measured.mean_nodes:,.0f}",
                     f"{measured.nodes_per_second / 1e6:.1f} M", *pons]
            print("| " + " | ".join(cells) + " |", flush=True)
        if args.python_seconds > 0:
            correct, solved, times = run_python(game, positions, args.python_seconds)
            compiled_same = strong_times[:solved]
            python_rows.append((name, correct, solved,
                                statistics.mean(times) if times else None,
                                statistics.mean(compiled_same) if compiled_same else None))
    if python_rows:
        print()
        print(f"Python tier: gametree's engine (algorithm 'engine'), positions in file order "
              f"until {args.python_seconds:g} s per set are spent")
        print()
        print("| set | positions solved (Python tier) | correct | Python mean time "
              "| compiled mean time, same positions | Python / compiled |")
        print("|---|---|---|---|---|---|")
        for name, correct, solved, python_mean, compiled_mean in python_rows:
            if python_mean is None or compiled_mean is None:
                print(f"| {name} | none within {args.python_seconds:g} s | | | | |")
                continue
            print(f"| {name} | first {solved} | {correct}/{solved} | {fmt_time(python_mean)} | "
                  f"{fmt_time(compiled_mean)} | {python_mean / compiled_mean:,.0f}x |")
    print()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
