"""A book build on 1 worker and on 2, as the command line runs it (docs/benchmarks.md, "Book
builds").

    python benchmarks/bench_db_book.py --width 6 --height 5 --plies 3 --repeat 3

Each build is the real command, ``python -m gametree db build connect4 --width W --height H
--plies P --db FILE --workers N --quiet``, in a process of its own, on a new database: its wall
time (Python's start, the workers' start, enumeration, frontier, back-up: all of it) and its
processor time (user + system, the builder's and its worker processes'), with the load
average before it. The 1- and 2-worker builds alternate, ``--repeat`` times, so that both see
the same moments of a shared machine; ``--ray`` adds a build on ``--executor ray --workers 2``
(Ray's own start included). Every database is exported and compared: the same rows whoever
built them.

The speed-up printed is the whole build's, 1 worker's wall time over 2 workers'. Beside it,
``2 x cpu(1) / cpu(2)``: the most two workers can give on two free cores, given the processor
time they spend (what the second worker's start and any work done twice cost).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gametree.db.check import export_rows
from gametree.db.store import Database


def children_cpu() -> float:
    """Processor seconds (user + system) of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_build(path: Path, args: argparse.Namespace, flags: list[str]) -> tuple[float, float]:
    """Run one build on a new database at ``path``: its wall and processor seconds."""
    command = [sys.executable, "-m", "gametree", "db", "build", "connect4",
               "--width", str(args.width), "--height", str(args.height),
               "--plies", str(args.plies), "--db", str(path), "--quiet", *flags]
    cpu = children_cpu()
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr}")
    return wall, children_cpu() - cpu


def main() -> None:
    """Alternate the builds, print each, then the speed-ups and whether the rows agree."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--width", type=int, default=6)
    parser.add_argument("--height", type=int, default=5)
    parser.add_argument("--plies", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ray", action="store_true", help="also build on --executor ray")
    args = parser.parse_args()
    runs = {"1 worker": ["--workers", "1"], "2 workers": ["--workers", "2"]}
    if args.ray:
        runs["ray, 2 actors"] = ["--executor", "ray", "--workers", "2"]
    walls: dict[str, list[float]] = {label: [] for label in runs}
    cpus: dict[str, list[float]] = {label: [] for label in runs}
    exports = []
    with tempfile.TemporaryDirectory() as folder:
        for repeat in range(args.repeat):
            for number, (label, flags) in enumerate(runs.items()):
                path = Path(folder) / f"book-{repeat}-{number}.db"
                load = os.getloadavg()[0]
                wall, cpu = timed_build(path, args, flags)
                walls[label].append(wall)
                cpus[label].append(cpu)
                print(f"run {repeat + 1}, {label}: {wall:.2f} s wall, {cpu:.2f} s cpu "
                      f"(load average {load:.2f} before)", flush=True)
                with Database.open(path) as database:
                    exports.append(list(export_rows(database, "jsonl")))
    one_wall, one_cpu = walls["1 worker"], cpus["1 worker"]
    for label in runs:
        ratios = [a / b for a, b in zip(one_wall, walls[label], strict=True)]
        bounds = [2 * a / b for a, b in zip(one_cpu, cpus[label], strict=True)]
        print(f"{label}: median {statistics.median(walls[label]):.2f} s wall, "
              f"{statistics.median(cpus[label]):.2f} s cpu; speed-up over 1 worker per run "
              f"{', '.join(f'{r:.2f}x' for r in ratios)}; 2 x cpu(1) / cpu: "
              f"{', '.join(f'{b:.2f}x' for b in bounds)}")
    print("same rows in every database:", all(export == exports[0] for export in exports))


if __name__ == "__main__":
    main()
