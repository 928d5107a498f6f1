"""Connect Four side by side with Pascal Pons' C++ solver, on this machine, in one run.

The other Connect Four benchmark (``bench_compiled_connect4.py``) compares gametree with the
figures Pons published for his own machine; this one runs his solver here, beside gametree, on
one of his benchmark sets (``moves score`` lines). Each round measures, one after another:

* **Pons' solver** (``c4solver``, which you build yourself: see below), strong, score only, no
  opening book (it runs in an empty temporary directory, so no ``7x6.book`` is found), the
  set's moves on its standard input: the wall time of the whole process, and the sum of the
  per-position times it prints (``position score nodes time_us``; the table reset before each
  position is outside his clock);
* **``gametree solve connect4 --moves-file SET``** as a subprocess (value, best move, every root
  move's value or bound and the principal variation of each position, one JSON line each): the
  wall time of the whole process, and its start-up, measured as the same command on a one-line
  file (the set's quickest position); "minus start-up" is ``(wall(N) - wall(1)) / (N - 1)``;
* **gametree's compiled engine alone** (:func:`gametree.solve_batch`: value and node count, no
  best move, each position from an empty table, as Pons' solver does), in this process: the
  solves' own time (the processor's cycle counter, table clearing excluded, as his clock) and
  the batch's wall time (clearing included).

Pons' solver runs on the same 1-line file for its own start-up. Every figure is the best (the
least disturbed) of ``--rounds`` rounds; the rounds alternate their order so that a change of
load affects both solvers alike. The load average is printed before and after. Every score is
checked: Pons' and gametree's against the set's expected scores (a disagreement exits 1).

Getting Pons' solver (this script never downloads or builds anything)::

    git clone https://github.com/PascalPons/connect4 /tmp/pons-src
    cd /tmp/pons-src && git checkout 5e8f0b8
    make c4solver CXXFLAGS="--std=c++11 -W -Wall -O3 -march=native -DNDEBUG"

Commit ``5e8f0b8`` is the last whose ``main.cpp`` is his benchmark driver (it resets the solver
before each position and prints the nodes and microseconds); the newest one (``d6ba50d``, which
adds ``-a``) has the same solver, but its driver keeps the table from one position to the next
and prints only ``position score``: this script accepts it too, and then compares processes
only.

Usage::

    python benchmarks/bench_pons_side_by_side.py --pons /tmp/pons-src/c4solver
    python benchmarks/bench_pons_side_by_side.py --pons /tmp/pons-src/c4solver \\
        --set ../shared/data/connect4/Test_L2_R1 --count 200 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from gametree import solve_batch
from gametree.games.connect4 import ConnectFour, read_pons_line, score_from_distance, split_moves
from gametree.registry import play_moves
from gametree.service import DEFAULT_OPTIONS
from gametree.values import plies_to_result

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4"
DEFAULT_SET = DATA / "Test_L1_R1"
GOAL = 1.1
"""The goal: ``solve --moves-file`` within this ratio of Pons' solver per position."""

HOW_TO_GET_PONS = """\
This benchmark needs Pascal Pons' Connect Four solver, built on this machine; give its path
with --pons. To get and build it (nothing is downloaded by this script):

    git clone https://github.com/PascalPons/connect4 /tmp/pons-src
    cd /tmp/pons-src && git checkout 5e8f0b8    # his benchmark driver: nodes and time per position
    make c4solver CXXFLAGS="--std=c++11 -W -Wall -O3 -march=native -DNDEBUG"

then: python benchmarks/bench_pons_side_by_side.py --pons /tmp/pons-src/c4solver
(keep no 7x6.book opening book beside it: the solver runs in an empty directory anyway)."""


@dataclass
class Position:
    """One line of the set."""

    moves: str
    score: int


@dataclass
class ProcessRun:
    """One run of a solver process over some positions."""

    wall: float
    """Wall-clock seconds, from starting the process to its end."""

    cpu: float
    """The child's user + system CPU seconds."""

    lines: list[str]
    """Its standard output, line by line."""


@dataclass
class Best:
    """The best (smallest) figure of each kind over the rounds, and every round's value."""

    runs: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, value: float) -> None:
        self.runs.setdefault(name, []).append(value)

    def __getitem__(self, name: str) -> float:
        return min(self.runs[name])

    def spread(self, name: str) -> str:
        values = self.runs[name]
        return f"{min(values) * 1e6:,.1f}-{max(values) * 1e6:,.1f}"


def load_set(path: Path, count: int | None) -> list[Position]:
    positions = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        moves, expected = read_pons_line(line)
        if "score" not in expected:
            raise SystemExit(f"{path}: every line needs its score ('moves score'); got {line!r}")
        positions.append(Position(moves, int(expected["score"])))
        if count is not None and len(positions) == count:
            break
    if len(positions) < 2:
        raise SystemExit(f"{path}: need at least 2 positions, found {len(positions)}")
    return positions


def run_process(command: list[str], *, stdin: str | None = None,
                cwd: str | None = None) -> ProcessRun:
    """Run ``command`` to its end; its wall time, CPU time and output lines."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=cwd,
                          check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with status {done.returncode}:\n"
                         f"{done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return ProcessRun(wall, cpu, done.stdout.splitlines())


@dataclass
class PonsOutput:
    """What Pons' solver printed for the positions."""

    scores: list[int]
    nodes: list[int] | None
    """Per position, when his driver prints them (commit 5e8f0b8 and before)."""
    micros: list[int] | None
    """His per-position solve time in microseconds, when printed."""


def read_pons_output(run: ProcessRun, positions: list[Position]) -> PonsOutput:
    if len(run.lines) != len(positions):
        raise SystemExit(f"Pons' solver printed {len(run.lines)} lines for {len(positions)} "
                         f"positions (an invalid line gives an empty one)")
    scores, nodes, micros = [], [], []
    for position, line in zip(positions, run.lines, strict=True):
        fields = line.split()
        if len(fields) not in (2, 4) or fields[0] != position.moves:
            raise SystemExit(f"unexpected line from Pons' solver for {position.moves}: {line!r}")
        scores.append(int(fields[1]))
        if len(fields) == 4:
            nodes.append(int(fields[2]))
            micros.append(int(fields[3]))
    timed = len(micros) == len(positions)
    return PonsOutput(scores, nodes if timed else None, micros if timed else None)


@dataclass
class CliOutput:
    """What ``gametree solve --moves-file`` printed for the positions."""

    scores: list[int | None]
    nodes: list[int]
    seconds: list[float]
    """Each search's own time (``stats.seconds``)."""
    with_move_and_line: int
    """Positions answered with a best move and a principal variation."""


def read_cli_output(run: ProcessRun, positions: list[Position]) -> CliOutput:
    documents = [json.loads(line) for line in run.lines if line.strip()]
    if len(documents) != len(positions):
        raise SystemExit(f"gametree printed {len(documents)} results for {len(positions)} "
                         f"positions")
    for position, document in zip(positions, documents, strict=True):
        if document["position"] != position.moves:
            raise SystemExit(f"gametree answered {document['position']} for {position.moves}")
    return CliOutput(
        [document["score"] for document in documents],
        [document["stats"]["nodes"] for document in documents],
        [document["stats"]["seconds"] for document in documents],
        sum(1 for document in documents if document["best_move"] is not None
            and document["pv"]))


def engine_score(value: int, stones: int, cells: int) -> int:
    """Pons' score from a compiled solve's value (distance from the root, or 0: a draw)."""
    plies = plies_to_result(value)
    if plies is None:
        return 0
    return score_from_distance(cells, stones, plies, won=value > 0)


def fmt_us(seconds: float) -> str:
    return f"{seconds * 1e6:,.1f} µs"


def main() -> None:  # noqa: PLR0915 - one measurement protocol, read top to bottom
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pons", type=Path,
                        help="Pons' c4solver binary, built on this machine (see --help's text)")
    parser.add_argument("--set", type=Path, default=DEFAULT_SET,
                        help=f"a 'moves score' file (default: {DEFAULT_SET})")
    parser.add_argument("--count", type=int, help="only the first COUNT positions")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (best of; default 3)")
    parser.add_argument("--startup-runs", type=int, default=3,
                        help="one-line runs per round for each start-up (fastest; default 3)")
    args = parser.parse_args()
    if args.pons is None or not args.pons.is_file() or not os.access(args.pons, os.X_OK):
        problem = "no --pons given" if args.pons is None else \
            f"--pons {args.pons}: not an executable file"
        print(f"{parser.prog}: {problem}\n\n{HOW_TO_GET_PONS}", file=sys.stderr)
        raise SystemExit(2)
    if args.rounds < 1 or args.startup_runs < 1:
        parser.error("--rounds and --startup-runs must be at least 1")
    pons = str(args.pons.resolve())
    positions = load_set(args.set, args.count)
    count = len(positions)
    quickest = max(positions, key=lambda position: abs(position.score))
    game = ConnectFour()
    states = [play_moves(game, split_moves(position.moves)) for position in positions]
    table_bits = DEFAULT_OPTIONS.tuning.table_bits

    print(f"set: {args.set} ({count} positions); start-up measured on {quickest.moves!r}")
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; Pons' solver: {pons}")
    print(f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")

    with tempfile.TemporaryDirectory(prefix="pons-side-by-side-") as scratch:
        every = Path(scratch, "set.txt")
        every.write_text("".join(f"{p.moves} {p.score}\n" for p in positions), encoding="utf-8")
        one = Path(scratch, "one.txt")
        one.write_text(f"{quickest.moves} {quickest.score}\n", encoding="utf-8")
        empty_dir = Path(scratch, "pons-cwd")  # no opening book in sight
        empty_dir.mkdir()
        pons_input = "".join(f"{p.moves}\n" for p in positions)
        cli = [sys.executable, "-m", "gametree", "solve", "connect4", "--moves-file"]

        # Warm-up, not timed: the kernel compiled (first time) and cached, files in the page
        # cache, the engine's compiled code loaded in this process.
        run_process([*cli, str(one)])
        run_process([pons], stdin=f"{quickest.moves}\n", cwd=str(empty_dir))
        solve_batch(game, states[:1], table_bits=table_bits, prefault=True)

        best = Best()
        pons_output: PonsOutput | None = None
        cli_output: CliOutput | None = None
        engine_scores: list[int] = []
        engine_nodes: list[int] = []

        def measure_pons() -> None:
            nonlocal pons_output
            run = run_process([pons], stdin=pons_input, cwd=str(empty_dir))
            single = min(run_process([pons], stdin=f"{quickest.moves}\n", cwd=str(empty_dir)).wall
                         for _ in range(args.startup_runs))
            pons_output = read_pons_output(run, positions)
            best.add("pons wall", run.wall)
            best.add("pons process", run.wall / count)
            best.add("pons cpu", run.cpu)
            best.add("pons wall 1", single)
            best.add("pons net", (run.wall - single) / (count - 1))
            if pons_output.micros is not None:
                best.add("pons solve", sum(pons_output.micros) * 1e-6 / count)

        def measure_cli() -> None:
            nonlocal cli_output
            run = run_process([*cli, str(every)])
            single = min(run_process([*cli, str(one)]).wall for _ in range(args.startup_runs))
            cli_output = read_cli_output(run, positions)
            best.add("cli wall", run.wall)
            best.add("cli process", run.wall / count)
            best.add("cli cpu", run.cpu)
            best.add("cli wall 1", single)
            best.add("cli net", (run.wall - single) / (count - 1))
            # the first search of a process also loads the compiled code: start-up, left out
            best.add("cli searches", sum(cli_output.seconds[1:]) / (count - 1))

        def measure_engine() -> None:
            nonlocal engine_scores, engine_nodes
            batch = solve_batch(game, states, table_bits=table_bits, prefault=True)
            engine_scores = [engine_score(value, state[1].bit_count(), game.cells)
                             for value, state in zip(batch.values, states, strict=True)]
            engine_nodes = batch.nodes
            best.add("engine solve", sum(batch.solve_seconds) / count)
            best.add("engine batch", batch.total_seconds / count)

        steps = [measure_pons, measure_cli, measure_engine]
        for round_number in range(args.rounds):
            for step in steps if round_number % 2 == 0 else reversed(steps):
                step()
            print(f"round {round_number + 1}/{args.rounds} done "
                  f"(load {os.getloadavg()[0]:.2f})", flush=True)

    assert pons_output is not None and cli_output is not None
    load_after = os.getloadavg()

    expected = [position.score for position in positions]
    agree_pons = sum(a == b for a, b in zip(pons_output.scores, expected, strict=True))
    agree_cli = sum(a == b for a, b in zip(cli_output.scores, expected, strict=True))
    agree_engine = sum(a == b for a, b in zip(engine_scores, expected, strict=True))
    timed = pons_output.micros is not None
    # Net of start-up: the fastest whole run minus the fastest one-line run (each the least
    # disturbed); the rounds' own differences are shown beside it.
    pons_net = (best["pons wall"] - best["pons wall 1"]) / (count - 1)
    cli_net = (best["cli wall"] - best["cli wall 1"]) / (count - 1)
    reference = best["pons solve"] if timed else pons_net
    reference_name = "Pons' solve (his time_us)" if timed else "Pons' process minus start-up"

    def mean_nodes(nodes: list[int] | None) -> str:
        return "" if nodes is None else f"{sum(nodes) / count:,.0f}"

    rows: list[tuple[str, str, float, str, str]] = []
    # (what, best-of key, seconds per position, nodes per position, whole process)
    if timed:
        rows.append(("Pons: solve alone (his time_us; table reset outside his clock)",
                     "pons solve", best["pons solve"], mean_nodes(pons_output.nodes), ""))
    rows += [
        ("Pons: process / N (start-up and table resets included)", "pons process",
         best["pons process"], mean_nodes(pons_output.nodes),
         f"{best['pons wall']:.2f} s wall, {best['pons cpu']:.2f} s CPU"),
        ("Pons: process minus start-up, (wall(N) - wall(1)) / (N - 1)", "pons net",
         pons_net, mean_nodes(pons_output.nodes),
         f"start-up {best['pons wall 1']:.3f} s"),
        ("gametree solve --moves-file: process / N", "cli process", best["cli process"],
         mean_nodes(cli_output.nodes),
         f"{best['cli wall']:.2f} s wall, {best['cli cpu']:.2f} s CPU"),
        ("gametree solve --moves-file: minus start-up, (wall(N) - wall(1)) / (N - 1)",
         "cli net", cli_net, mean_nodes(cli_output.nodes),
         f"start-up {best['cli wall 1']:.3f} s"),
        ("gametree solve --moves-file: its searches' own time (stats.seconds)",
         "cli searches", best["cli searches"], mean_nodes(cli_output.nodes), ""),
        ("gametree engine alone (solve_batch): solve (cycle counter; clearing outside)",
         "engine solve", best["engine solve"], mean_nodes(engine_nodes), ""),
        ("gametree engine alone (solve_batch): batch wall / N (clearing included)",
         "engine batch", best["engine batch"], mean_nodes(engine_nodes), ""),
    ]
    print()
    print(f"Per position, best of {args.rounds} rounds (minus start-up: the fastest whole run "
          f"minus the fastest one-line run); the range over the rounds beside it; ratios to "
          f"{reference_name}:")
    print()
    print("| what | per position | rounds (µs) | / Pons | nodes | whole run |")
    print("|---|---|---|---|---|---|")
    for what, key, seconds, nodes, whole in rows:
        print(f"| {what} | {fmt_us(seconds)} | {best.spread(key)} | {seconds / reference:.2f}x | "
              f"{nodes} | {whole} |")
    print()
    print(f"scores equal to the set's: Pons {agree_pons}/{count}, gametree solve --moves-file "
          f"{agree_cli}/{count} ({cli_output.with_move_and_line}/{count} with a best move and a "
          f"line), gametree engine alone {agree_engine}/{count}")
    ratio = cli_net / reference
    verdict = "reached" if ratio <= GOAL else "NOT reached"
    print(f"goal: gametree solve --moves-file (minus start-up) within {GOAL}x of "
          f"{reference_name} per position: {ratio:.2f}x, {verdict}; "
          f"engine alone {best['engine solve'] / reference:.2f}x")
    print(f"load average after: {' '.join(f'{load:.2f}' for load in load_after)}")
    if min(agree_pons, agree_cli, agree_engine) < count:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
