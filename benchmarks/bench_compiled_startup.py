"""How long a new process waits before the compiled tier searches, once the kernel is cached.

Each line is the median wall-clock time of a few fresh processes (run one after another):

* ``python -c 'import gametree'`` — the package alone (numba is not imported);
* ``python -c 'import numba'`` — numba's own import;
* the Connect Four engine made ready in a fresh process (numba imported, compiled code loaded
  from the cache, workspace allocated) — the wait before the first search starts;
* a first search done in a fresh process as the command line runs it (numba's SciPy BLAS probe
  skipped: :func:`gametree.compiled.without_blas_probe`), the entry points it calls loaded;
* ``gametree solve connect4 --moves 44455554221`` end to end, compiled tier and Python tier.

The first run compiles the kernel if the cache is empty; it is reported separately.

Usage::

    python benchmarks/bench_compiled_startup.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

READY = """
import time
started = time.perf_counter()
import gametree
from gametree.games.connect4 import ConnectFour
gametree.SearchSession(ConnectFour()).prepare()
print(time.perf_counter() - started)
"""

# As the command line does it: numba's SciPy BLAS probe skipped, then one search to the end.
SEARCHED = """
import time
started = time.perf_counter()
import gametree
from gametree.compiled.startup import without_blas_probe
from gametree.games.connect4 import ConnectFour, split_moves
from gametree.registry import play_moves
game = ConnectFour()
with without_blas_probe():
    gametree.search(game, play_moves(game, split_moves("44455554221")))
print(time.perf_counter() - started)
"""


def wall(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - started


def inside(code: str) -> float:
    result = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                            text=True)
    return float(result.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="processes per line (median)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    first = inside(READY)
    print(f"first engine in this cache (compiles if the cache was empty): {first:.2f} s")
    python = sys.executable
    lines: list[tuple[str, Callable[[], float]]] = [
        ("python -c 'import gametree'", lambda: wall([python, "-c", "import gametree"])),
        ("python -c 'import numba'", lambda: wall([python, "-c", "import numba"])),
        ("Connect Four engine ready (inside the process, cached)", lambda: inside(READY)),
        ("first search done, BLAS probe skipped as the CLI does (inside the process)",
         lambda: inside(SEARCHED)),
        ("gametree solve connect4 --moves 44455554221 (compiled, cached)",
         lambda: wall([python, "-m", "gametree", "solve", "connect4", "--moves",
                       "44455554221"])),
        ("gametree solve connect4 --moves 44455554221 --tier python",
         lambda: wall([python, "-m", "gametree", "solve", "connect4", "--moves",
                       "44455554221", "--tier", "python"])),
    ]
    print()
    print(f"| what | median of {args.runs} |")
    print("|---|---|")
    for label, measure in lines:
        print(f"| {label} | {statistics.median(measure() for _ in range(args.runs)):.2f} s |",
              flush=True)
    print()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
