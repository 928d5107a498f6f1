"""Where a new ``gametree solve connect4`` process spends its processor time before (and
beside) the search, once the kernel is cached; optionally against another checkout and beside
Steininger's solver.

Each line is the median processor time (user + system, the whole process) of fresh processes,
the lines run in turn within each round so that a change in the machine's load falls on all of
them alike. The parts, each a process of its own that stops there:

* ``python -c pass``: the interpreter and its ``site`` (the floor of any Python program);
* ``import numpy``, ``import numba``: what the compiled tier cannot do without (numba imports
  numpy first);
* ``import gametree``: the package alone (it imports numba only when a kernel is compiled, or
  loaded without images);
* the command line parsed: ``gametree.cli``, the registry of games and the parser for the
  command line ``solve connect4 --width W --height H --no-book``;
* the engine made: the kernel's machine code loaded from the cache as the command line does
  (since the images, ``gametree.compiled.native``, without importing numba; a checkout
  without them imports numba, its BLAS probe skipped), its table allocated;
* the whole ``gametree solve connect4 --width W --height H --no-book``, one per board (its
  search's own time is printed beside it).

Python's modules run from bytecode compiled once, into a temporary ``PYTHONPYCACHEPREFIX``, as
an installed package's do (``PYTHONDONTWRITEBYTECODE``, set on this project's machines, would
compile every module of gametree anew in each process). ``--before SRC`` measures the same
lines with the package at ``SRC`` (another checkout's ``src`` directory) in the same rounds;
``--c4 WxH=PATH`` adds Steininger's binary for a board (built outside the project: it solves
the empty board of its compiled size), beside gametree's whole solve of it.

Usage::

    python benchmarks/bench_compiled_startup.py [--runs 7] [--boards 6x4,6x5,7x5]
        [--before /path/to/other/src] [--c4 6x4=/path/c4-6x4-t1 ...]
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
from dataclasses import dataclass, field
from pathlib import Path

from measure import installed_environment

PARSED = """
import sys
from gametree.cli import build_parser
from gametree.registry import broken_games
words = sys.argv[1:]
broken_games()
try:
    parser = build_parser(words)  # the parser for this command line alone
except TypeError:  # a checkout whose parser is always the whole one
    parser = build_parser()
parser.parse_args(words)
"""

MADE = """
import os, sys
from gametree.compiled.startup import without_blas_probe
from gametree.service import SearchSession
from gametree.games.connect4 import ConnectFour
with without_blas_probe():
    SearchSession(ConnectFour(width=int(sys.argv[1]), height=int(sys.argv[2]))).prepare()
os._exit(0)  # as the command line ends: without the interpreter's teardown of numba
"""


@dataclass
class Line:
    """One measured command: its label and argv, and the processor times of its runs."""

    label: str
    argv: list[str]
    environment: dict[str, str]
    times: list[float] = field(default_factory=list)
    search: list[float] = field(default_factory=list)
    """gametree's whole solves: the search's own time, from its JSON."""

    def run(self) -> None:
        """One fresh process."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(self.argv, env=self.environment, capture_output=True, text=True,
                              check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{self.label}: exit {done.returncode}: {done.stderr[-300:]}")
        self.times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if "--json" in self.argv:
            self.search.append(float(json.loads(done.stdout)["stats"]["seconds"]))

    def median(self) -> str:
        """The median processor time, and the search's, as text."""
        text = f"{statistics.median(self.times):.3f} s"
        if self.search:
            text += f" (search {statistics.median(self.search):.3f} s)"
        return text


def environment_for(source: Path | None, bytecode: Path) -> dict[str, str]:
    """The environment of a gametree process: the package from ``source`` (default: the one
    this Python imports) and bytecode kept in ``bytecode``."""
    environment = installed_environment(bytecode)
    if source is not None:
        environment["PYTHONPATH"] = str(source)
    return environment


def gametree_lines(boards: list[str], environment: dict[str, str]) -> list[Line]:
    """The lines of one version of gametree."""
    python = sys.executable
    width, height = boards[0].split("x")
    words = ["solve", "connect4", "--width", width, "--height", height, "--no-book"]
    lines = [
        Line("python -c pass", [python, "-c", "pass"], environment),
        Line("import numpy", [python, "-c", "import numpy"], environment),
        Line("import numba", [python, "-c", "import numba"], environment),
        Line("import gametree", [python, "-c", "import gametree"], environment),
        Line(f"command line parsed ({boards[0]})", [python, "-c", PARSED, *words], environment),
        Line(f"engine made, kernel loaded ({boards[0]})", [python, "-c", MADE, width, height],
             environment),
    ]
    for board in boards:
        width, height = board.split("x")
        lines.append(Line(f"gametree solve connect4 {board} --no-book",
                          [python, "-m", "gametree", "solve", "connect4", "--width", width,
                           "--height", height, "--no-book", "--json"], environment))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="processes per line (median)")
    parser.add_argument("--boards", default="6x4,6x5,7x5", help="Connect Four boards, WxH")
    parser.add_argument("--before", type=Path, metavar="SRC",
                        help="another checkout's src directory, measured alike")
    parser.add_argument("--c4", action="append", default=[], metavar="WxH=PATH",
                        help="Steininger's binary for a board")
    args = parser.parse_args(argv)
    boards = [board.strip() for board in args.boards.split(",") if board.strip()]
    binaries = {}
    for item in args.c4:
        match = re.fullmatch(r"(\d+x\d+)=(.+)", item)
        if match is None:
            raise SystemExit(f"--c4 {item!r}: expected WxH=PATH")
        binaries[match[1]] = match[2]
    with tempfile.TemporaryDirectory(prefix="gametree-bytecode-") as bytecode:
        after = gametree_lines(boards, environment_for(None, Path(bytecode)))
        before = gametree_lines(boards, environment_for(args.before, Path(bytecode) / "b")) \
            if args.before is not None else []
        theirs = [Line(f"Steininger c4 {board}", [path], dict(os.environ))
                  for board, path in binaries.items()]
        for line in after + before:  # warm-up: bytecode written, kernels loaded once
            line.run()
            line.times.clear()
            line.search.clear()
        print(f"load average before: {os.getloadavg()}", flush=True)
        for _ in range(args.runs):
            for line in after + before + theirs:
                line.run()
        print()
        if before:
            print(f"| processor time, median of {args.runs} | before | after |")
            print("| --- | --- | --- |")
            for old, new in zip(before, after, strict=True):
                print(f"| {new.label} | {old.median()} | {new.median()} |")
        else:
            print(f"| processor time, median of {args.runs} | gametree |")
            print("| --- | --- |")
            for new in after:
                print(f"| {new.label} | {new.median()} |")
        for line in theirs:
            print(f"| {line.label} | {line.median()} |" + (" |" if before else ""))
        print(f"\nload average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
