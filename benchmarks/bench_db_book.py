"""A book build on 1 worker, on 2, and on a local Ray instance (docs/benchmarks.md).

    python benchmarks/bench_db_book.py --width 5 --height 5 --plies 8

Each build writes a new database in a temporary directory. Two times are printed: the whole
build (``timings.total``: workers started, book enumerated while they load their engines,
frontier solved, interior backed up) and the frontier's solve alone (``timings.solve``); Ray's
own start-up (``ray.init``) is timed apart. The three exports are compared: the same database
whichever executor built it.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from gametree.builder import BuildPlan, BuildRequest, build
from gametree.db.check import export_rows
from gametree.db.store import Database


def main() -> None:
    """Build the book three ways and print the solve times and ratios."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--width", type=int, default=5)
    parser.add_argument("--height", type=int, default=5)
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    options = {"width": args.width, "height": args.height}
    exports = []
    times = {}
    with tempfile.TemporaryDirectory() as folder:
        runs = [("1 worker", "local", 1), ("2 workers", "local", 2)]
        if not args.no_ray:
            runs.append(("ray, 2 actors", "ray", 2))
        for label, executor, workers in runs:
            if executor == "ray":
                import ray  # noqa: PLC0415 - optional

                began = time.perf_counter()
                ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
                print(f"ray.init: {time.perf_counter() - began:.1f} s", flush=True)
            path = Path(folder) / f"{executor}{workers}.db"
            report = build(BuildRequest(str(path), "connect4", options, plies=args.plies,
                                        plan=BuildPlan(executor=executor, workers=workers)))
            times[label] = report.timings["total"]
            print(f"{label}: build {report.timings['total']:.2f} s, of which "
                  f"{report.solved:,} frontier positions in {report.timings['solve']:.2f} s "
                  f"({report.rate:,.0f}/s); {report.positions:,} positions stored", flush=True)
            with Database.open(path) as database:
                exports.append(list(export_rows(database, "jsonl")))
    one = times["1 worker"]
    for label, seconds in times.items():
        print(f"{label}: {one / seconds:.2f}x the speed of 1 worker (whole build)")
    print("same database every way:", all(export == exports[0] for export in exports))


if __name__ == "__main__":
    main()
