"""Whole Connect Four boards side by side with Christophe Steininger's C++ solver, in one run.

Each board (by default 6x4, 6x5, 7x5, 6x6, 8x4 and 7x6) is solved from its empty position,
strongly (the exact end move), with one thread and with two, by both solvers, one after the
other, with the same table memory (64 MiB: gametree's default ``2**22`` entries of 16 bytes;
his ``NUM_TABLE_ENTRIES = 8388617`` entries of 8 bytes):

* **Steininger's ``c4``** (github.com/ChristopheSteininger/c4, C++, AGPL; measured at commit
  ``80baa53``): his board size, thread count and table size are compile-time settings
  (``src/solver/settings.h``), so there is one binary per board and thread count, which you
  build yourself and name with ``--c4 WxH:THREADS=PATH``. A board and thread count without a
  binary is skipped with a message. His program prints its score and node count; the time is
  the process's wall time (its start-up and table allocation included, a few milliseconds)
  and processor time (every thread's: on a loaded machine the steadier figure of one thread);
* **``gametree solve connect4 --width W --height H --threads T --json``**, as the command runs
  it, in a process of its own: wall time, and the search's own time and node count from its
  JSON (the search's time excludes the process's start-up: Python and the kernel's loading,
  about a second). Its kernel is compiled (or loaded from the cache) by a warm-up solve of a small
  position of the same board first, outside the timing. Its Python modules run from bytecode
  compiled once, by the warm-up, into a temporary ``PYTHONPYCACHEPREFIX``, as those of an
  installed package are (where ``PYTHONDONTWRITEBYTECODE`` is set, as on this project's
  development machine, every start would otherwise compile gametree's sources anew: about
  a fifth of its start-up).

Both values are checked to agree (his score against gametree's value). The load average is
printed before and after: on a machine shared with other work, compare only within one run.
``--repeat N`` solves each board N times with each solver, alternating, and shows each
solver's median run (by wall time): on this machine a process's first touch of its table's
memory sometimes takes ten times as long as usual (64 MiB in huge pages: 11 ms most times,
20-160 ms now and then; the solver that takes them, gametree, feels it more), which a single
run of a short solve reports as the solver's time.

Usage::

    python benchmarks/bench_whole_boards.py --c4 6x5:1=/path/c4-6x5-t1 --c4 6x5:2=/path/c4-6x5-t2
    python benchmarks/bench_whole_boards.py --boards 6x5,7x5 --threads 1 --c4 ... --timeout 300
    python benchmarks/bench_whole_boards.py --boards 6x5 --repeat 5 --c4 ...
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from measure import installed_environment

BOARDS = ("6x4", "6x5", "7x5", "6x6", "8x4", "7x6")
_SCORE = re.compile(r"Final strong score is (-?\d+)")
_NODES = re.compile(r"Total\s*=\s*([\d,.']+)")


@dataclass
class Run:
    """One solve: its wall time, processor time (user + system, every thread's), nodes and
    value (None where unknown), or why it failed."""

    seconds: float | None = None
    cpu: float | None = None
    search: float | None = None
    """gametree only: the search's own time (its JSON's ``stats.seconds``)."""
    nodes: int | None = None
    value: int | None = None
    problem: str = ""


def parse_binaries(items: list[str]) -> dict[tuple[str, int], Path]:
    """``WxH:THREADS=PATH`` items as a map from (board, threads) to the binary."""
    found: dict[tuple[str, int], Path] = {}
    for item in items:
        match = re.fullmatch(r"(\d+x\d+):(\d+)=(.+)", item)
        if match is None:
            raise SystemExit(f"--c4 {item!r}: expected WxH:THREADS=PATH, e.g. 7x6:2=/tmp/c4")
        found[(match[1], int(match[2]))] = Path(match[3])
    return found


def cpu_of_children() -> float:
    """The processor time of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_c4(binary: Path, timeout: float) -> Run:
    """Run one of Steininger's binaries (it solves the empty board of its compiled size)."""
    if not binary.is_file() or not os.access(binary, os.X_OK):
        return Run(problem=f"not an executable file: {binary}")
    cpu = cpu_of_children()
    started = time.perf_counter()
    try:
        done = subprocess.run([str(binary)], stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return Run(problem=f"not solved in {timeout:g} s")
    seconds = time.perf_counter() - started
    score = _SCORE.search(done.stdout)
    if score is None:
        return Run(problem=f"no score in its output (exit {done.returncode})")
    nodes = _NODES.search(done.stdout)
    count = int(re.sub(r"\D", "", nodes[1])) if nodes else None
    return Run(seconds, cpu_of_children() - cpu, nodes=count, value=int(score[1]))


def gametree_command(board: str, threads: int, moves: str | None = None) -> list[str]:
    width, height = board.split("x")
    command = [sys.executable, "-m", "gametree", "solve", "connect4", "--width", width,
               "--height", height, "--threads", str(threads), "--json",
               "--no-book"]  # searched, not looked up in the 7x6 book the package ships
    if moves:
        command += ["--moves", moves]
    return command


def run_gametree(board: str, threads: int, timeout: float, environment: dict[str, str]) -> Run:
    """``gametree solve connect4`` on the empty board (after a warm-up that loads its kernel)."""
    width = int(board.split("x", maxsplit=1)[0])
    warm_up = " ".join(str(1 + column % width) for column in range(2 * width))
    subprocess.run(gametree_command(board, threads, warm_up), capture_output=True, check=False,
                   env=environment)
    cpu = cpu_of_children()
    started = time.perf_counter()
    try:
        done = subprocess.run(gametree_command(board, threads), capture_output=True, text=True,
                              timeout=timeout, check=False, env=environment)
    except subprocess.TimeoutExpired:
        return Run(problem=f"not solved in {timeout:g} s")
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        return Run(problem=f"exit {done.returncode}: {done.stderr.strip()[-200:]}")
    document = json.loads(done.stdout)
    return Run(seconds, cpu_of_children() - cpu, nodes=int(document["stats"]["nodes"]),
               value=int(document["score"]), search=float(document["stats"]["seconds"]))


def median_run(runs: list[Run]) -> Run:
    """The run of median wall time (the first failed one, if any failed)."""
    failed = [run for run in runs if run.seconds is None]
    if failed:
        return failed[0]
    median = statistics.median_low(run.seconds for run in runs if run.seconds is not None)
    return next(run for run in runs if run.seconds == median)


def shown(run: Run) -> str:
    if run.problem:
        return run.problem
    nodes = f"{run.nodes / 1e6:.2f} M" if run.nodes is not None else "?"
    search = f", search {run.search:.2f} s" if run.search is not None else ""
    return f"{run.seconds:.2f} s ({run.cpu:.2f} s cpu{search}), {nodes}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--c4", action="append", default=[], metavar="WxH:THREADS=PATH",
                        help="Steininger's binary for one board and thread count")
    parser.add_argument("--boards", default=",".join(BOARDS), help="boards, e.g. 6x5,7x5")
    parser.add_argument("--threads", default="1,2", help="thread counts, e.g. 1,2")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds allowed to each solve (default 600)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="solves of each board by each solver, alternating; the median "
                             "run is shown (default 1)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    binaries = parse_binaries(args.c4)
    boards = [board.strip() for board in args.boards.split(",") if board.strip()]
    thread_counts = [int(count) for count in args.threads.split(",")]
    bytecode = tempfile.TemporaryDirectory(prefix="gametree-bytecode-")
    environment = installed_environment(bytecode.name)
    print(f"load average before: {os.getloadavg()}", flush=True)
    if args.repeat > 1:
        print(f"each solver's median of {args.repeat} runs, alternating", flush=True)
    print("| board | threads | Steininger c4 | gametree | time ratio |")
    print("| --- | --- | --- | --- | --- |", flush=True)
    disagreements = 0
    for board in boards:
        for threads in thread_counts:
            binary = binaries.get((board, threads))
            their_runs, our_runs = [], []
            for _ in range(args.repeat):
                their_runs.append(run_c4(binary, args.timeout) if binary is not None
                                  else Run(problem="no binary given (skipped)"))
                our_runs.append(run_gametree(board, threads, args.timeout, environment))
            theirs, ours = median_run(their_runs), median_run(our_runs)
            ratio = ""
            if theirs.seconds and ours.seconds:
                ratio = f"{ours.seconds / theirs.seconds:.2f}x his time"
            if theirs.value is not None and ours.value is not None \
                    and theirs.value != ours.value:
                disagreements += 1
                ratio += f" (scores differ: his {theirs.value}, ours {ours.value})"
            print(f"| {board} | {threads} | {shown(theirs)} | {shown(ours)} | {ratio} |",
                  flush=True)
    print(f"load average after: {os.getloadavg()}")
    bytecode.cleanup()
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
