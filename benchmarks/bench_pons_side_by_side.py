"""Connect Four side by side with Pascal Pons' C++ solver, on this machine, in one run.

The other Connect Four benchmark (``bench_compiled_connect4.py``) compares gametree with the
figures Pons published for his own machine; this one runs his solver here, beside gametree, on
one of his benchmark sets (``moves score`` lines). Each round runs, one after another:

* **Pons' solver** (``c4solver``, which you build yourself: see below), strong, score only, no
  opening book (it runs in an empty temporary directory, so no ``7x6.book`` is found), the
  set's moves on its standard input. It prints ``position score nodes time_us``: his time of
  each solve (the table reset before each position is outside his clock);
* **``gametree solve connect4 --moves-file SET``** (value, best move, every root move's value
  or bound and the principal variation, one JSON line per position), through
  ``gametree.cli.main`` as the ``gametree`` command runs it, in a process of its own whose
  standard output notes the time of each line: the time between two lines is all that one
  position costs inside the command (reading and replaying its line, search, result, JSON,
  printing: the file is read line by line as the searches go);
* **gametree's compiled engine alone** (:func:`gametree.solve_batch`: value and node count, no
  best move, each position from an empty table, as Pons' solver does), in this process: each
  solve's own time (the processor's cycle counter, table clearing excluded, as his clock).

Each solver also runs on a one-line file (the set's quickest position) for its start-up; the
whole processes' wall times, net of start-up (``(wall(N) - wall(1)) / (N - 1)``), are the
plain end-to-end comparison, but on a machine shared with other work they move by a fifth
from one run to the next. The per-position figures are steadier: "best round" is the round
with the smallest mean; "per-position best" takes each position's smallest time over the
rounds (what is left when the load's interruptions are removed). The first position is left
out of every per-position mean (gametree's first search also loads the compiled code: start-up).
The rounds alternate their order so that the load affects both solvers alike; the load average
is printed before and after. Every score is checked against the set's (a disagreement exits 1).

The peer: Pascal Pons' Connect Four solver, ``c4solver`` (C++, AGPL-3.0), published at
github.com/PascalPons/connect4; these figures were measured with commit ``5e8f0b8``, the last
whose ``main.cpp`` is his benchmark driver (it resets the solver before each position and prints
the nodes and microseconds), built with ``-O3 -march=native -DNDEBUG``. The newest commit
(``d6ba50d``, which adds ``-a``) has the same solver, but its driver keeps the table from one
position to the next and prints only ``position score``: this script accepts it too, and then
compares whole processes only. The project holds no steps that fetch or build a peer's program:
build it yourself and give its path with ``--pons``.

Usage::

    python benchmarks/bench_pons_side_by_side.py --pons PATH/TO/c4solver
    python benchmarks/bench_pons_side_by_side.py --pons PATH/TO/c4solver \\
        --set ../shared/data/connect4/Test_L2_R1 --count 200 --rounds 3
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
This benchmark needs Pascal Pons' Connect Four solver (c4solver, C++, AGPL-3.0, published at
github.com/PascalPons/connect4; measured at commit 5e8f0b8, his benchmark driver), built on this
machine by you; give its path with --pons PATH/TO/c4solver. This script fetches and builds
nothing (keep no 7x6.book opening book beside it: the solver runs in an empty directory
anyway)."""

STAMPED_CLI = """
import os, sys, time
from gametree.cli import main

class Stamped:
    # standard output, noting the time each line ends: one per JSON line of --moves-file
    def __init__(self, out):
        self.out, self.stamps = out, []
    def write(self, text):
        written = self.out.write(text)
        if text.endswith("\\n"):
            self.stamps.append(time.perf_counter())
        return written
    def __getattr__(self, name):
        return getattr(self.out, name)

sys.stdout = stamped = Stamped(sys.stdout)
status = main(sys.argv[1:])
sys.stdout = stamped.out
sys.stdout.flush()
print("STAMPS", *stamped.stamps, file=sys.stderr)
sys.stderr.flush()
os._exit(status)  # as the gametree command ends (gametree.cli.run)
"""
"""``gametree.cli.main`` as the ``gametree`` command runs it, standard output timestamped."""


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

    errors: list[str]
    """Its standard error, line by line."""


def run_process(command: list[str], *, stdin: Path | None = None,
                cwd: str | None = None) -> ProcessRun:
    """Run ``command`` to its end; its wall time, CPU time and output lines.

    Its input and output are files, not pipes: no reader in this process to wait for (a pipe
    that fills up stops a writer until its reader is scheduled).
    """
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out, \
            tempfile.TemporaryFile("w+", encoding="utf-8") as err, \
            open(os.devnull if stdin is None else stdin, encoding="utf-8") as source:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        status = subprocess.run(command, stdin=source, stdout=out, stderr=err, cwd=cwd,
                                check=False).returncode
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        err.seek(0)
        lines, errors = out.read().splitlines(), err.read().splitlines()
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed with status {status}:\n"
                         + "\n".join(errors))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return ProcessRun(wall, cpu, lines, errors)


@dataclass
class Series:
    """One figure measured in every round: per position (seconds), or only in total."""

    rounds: list[list[float]] = field(default_factory=list)

    def add(self, values: Sequence[float]) -> None:
        self.rounds.append(list(values))

    def best_round(self) -> float:
        """The smallest mean of a round."""
        return min(statistics.fmean(values) for values in self.rounds)

    def worst_round(self) -> float:
        return max(statistics.fmean(values) for values in self.rounds)

    def per_position_best(self) -> float:
        """The mean over positions of each one's smallest time over the rounds."""
        return statistics.fmean(min(times) for times in zip(*self.rounds, strict=True))


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
    if len(positions) < 3:
        raise SystemExit(f"{path}: need at least 3 positions, found {len(positions)}")
    return positions


def read_pons(run: ProcessRun, positions: list[Position]
              ) -> tuple[list[int], list[int] | None, list[float] | None]:
    """Pons' scores, and when his driver prints them, nodes and seconds per position."""
    if len(run.lines) != len(positions):
        raise SystemExit(f"Pons' solver printed {len(run.lines)} lines for {len(positions)} "
                         f"positions (an invalid line gives an empty one)")
    scores, nodes, seconds = [], [], []
    for position, line in zip(positions, run.lines, strict=True):
        fields = line.split()
        if len(fields) not in (2, 4) or fields[0] != position.moves:
            raise SystemExit(f"unexpected line from Pons' solver for {position.moves}: {line!r}")
        scores.append(int(fields[1]))
        if len(fields) == 4:
            nodes.append(int(fields[2]))
            seconds.append(int(fields[3]) * 1e-6)
    if len(seconds) != len(positions):
        return scores, None, None
    return scores, nodes, seconds


@dataclass
class CliRun:
    """What one ``solve --moves-file`` run printed and when."""

    documents: list[dict[str, Any]]
    between_lines: list[float]
    """Seconds from each JSON line to the next (positions 2 to N)."""


def read_cli(run: ProcessRun, positions: list[Position]) -> CliRun:
    documents = [json.loads(line) for line in run.lines if line.strip()]
    if len(documents) != len(positions):
        raise SystemExit(f"gametree printed {len(documents)} results for {len(positions)} "
                         f"positions")
    for position, document in zip(positions, documents, strict=True):
        if document["position"] != position.moves:
            raise SystemExit(f"gametree answered {document['position']} for {position.moves}")
    notes = {line.split()[0]: [float(word) for word in line.split()[1:]]
             for line in run.errors if line.startswith("STAMPS")}
    stamps = notes.get("STAMPS", [])
    if len(stamps) != len(positions):
        raise SystemExit(f"gametree's output was not timed line by line ({len(stamps)} times "
                         f"for {len(positions)} lines)")
    return CliRun(documents, [b - a for a, b in itertools.pairwise(stamps)])


def engine_score(value: int, stones: int, cells: int) -> int:
    """Pons' score from a compiled solve's value (distance from the root, or 0: a draw)."""
    plies = plies_to_result(value)
    if plies is None:
        return 0
    return score_from_distance(cells, stones, plies, won=value > 0)


def us(seconds: float) -> str:
    return f"{seconds * 1e6:,.1f} µs"


def main() -> None:  # noqa: PLR0915 - one measurement protocol, read top to bottom
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog=HOW_TO_GET_PONS,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pons", type=Path, help="Pons' c4solver binary, built on this machine")
    parser.add_argument("--set", type=Path, default=DEFAULT_SET,
                        help=f"a 'moves score' file (default: {DEFAULT_SET})")
    parser.add_argument("--count", type=int, help="only the first COUNT positions")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
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
    print(f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}",
          flush=True)

    series: dict[str, Series] = {}

    def note(name: str, values: Sequence[float]) -> None:
        series.setdefault(name, Series()).add(values)

    pons_scores: list[int] = []
    pons_nodes: list[int] | None = None
    cli: CliRun | None = None
    engine_scores: list[int] = []
    engine_nodes: list[int] = []
    with tempfile.TemporaryDirectory(prefix="pons-side-by-side-") as scratch:
        every = Path(scratch, "set.txt")
        every.write_text("".join(f"{p.moves} {p.score}\n" for p in positions), encoding="utf-8")
        one = Path(scratch, "one.txt")
        one.write_text(f"{quickest.moves} {quickest.score}\n", encoding="utf-8")
        empty_dir = Path(scratch, "pons-cwd")  # no opening book in sight
        empty_dir.mkdir()
        pons_input = Path(scratch, "moves.txt")  # his solver reads moves alone
        pons_input.write_text("".join(f"{p.moves}\n" for p in positions), encoding="utf-8")
        pons_one_input = Path(scratch, "one-moves.txt")
        pons_one_input.write_text(f"{quickest.moves}\n", encoding="utf-8")
        command = [sys.executable, "-c", STAMPED_CLI, "solve", "connect4", "--moves-file"]

        def pons_one() -> ProcessRun:
            return run_process([pons], stdin=pons_one_input, cwd=str(empty_dir))

        def cli_one() -> ProcessRun:
            return run_process([*command, str(one)])

        # Warm-up, not timed: the kernel compiled (the first time) and cached, the files in the
        # page cache, the engine's compiled code loaded in this process.
        cli_one()
        pons_one()
        solve_batch(game, states[:1], table_bits=table_bits, prefault=True)

        def measure_pons() -> None:
            nonlocal pons_scores, pons_nodes
            run = run_process([pons], stdin=pons_input, cwd=str(empty_dir))
            single = min(pons_one().wall for _ in range(args.startup_runs))
            pons_scores, pons_nodes, seconds = read_pons(run, positions)
            note("pons process", [run.wall])
            note("pons cpu", [run.cpu])
            note("pons start-up", [single])
            if seconds is not None:
                note("pons solve", seconds[1:])

        def measure_cli() -> None:
            nonlocal cli
            run = run_process([*command, str(every)])
            single = min(cli_one().wall for _ in range(args.startup_runs))
            cli = read_cli(run, positions)
            note("cli process", [run.wall])
            note("cli cpu", [run.cpu])
            note("cli start-up", [single])
            note("cli lines", cli.between_lines)
            note("cli searches", [document["stats"]["seconds"] for document in cli.documents[1:]])

        def measure_engine() -> None:
            nonlocal engine_scores, engine_nodes
            batch = solve_batch(game, states, table_bits=table_bits, prefault=True)
            engine_scores = [engine_score(value, state[1].bit_count(), game.cells)
                             for value, state in zip(batch.values, states, strict=True)]
            engine_nodes = batch.nodes
            note("engine solve", batch.solve_seconds[1:])
            note("engine batch", [batch.total_seconds / count])

        steps: list[Callable[[], None]] = [measure_pons, measure_cli, measure_engine]
        for round_number in range(args.rounds):
            for step in steps if round_number % 2 == 0 else steps[::-1]:
                step()
            print(f"round {round_number + 1}/{args.rounds} done "
                  f"(load {os.getloadavg()[0]:.2f})", flush=True)
    load_after = os.getloadavg()
    assert cli is not None

    cli_scores = [document["score"] for document in cli.documents]
    cli_nodes = [int(document["stats"]["nodes"]) for document in cli.documents]
    answered = sum(1 for document in cli.documents if document["best_move"] is not None
                   and document["pv"])
    expected = [position.score for position in positions]
    agree = {name: sum(a == b for a, b in zip(scores, expected, strict=True))
             for name, scores in (("pons", pons_scores), ("cli", cli_scores),
                                  ("engine", engine_scores))}

    def nodes_of(nodes: list[int] | None) -> str:
        return "" if nodes is None else f"{statistics.fmean(nodes[1:]):,.0f}"

    def totals(name: str) -> float:
        return min(values[0] for values in series[name].rounds)

    timed = "pons solve" in series
    print()
    if timed:
        his = series["pons solve"]
        print(f"Per position (positions 2-{count}), inside each process; best round and "
              f"per-position best of {args.rounds} rounds; ratios to Pons' solve:")
        print()
        print("| what | best round | per-position best | / Pons | / Pons (per-position best) "
              "| worst round | positions explored |")
        print("|---|---|---|---|---|---|---|")
        rows = [
            ("Pons: solve (his time_us; table reset outside his clock)", "pons solve",
             0.0, nodes_of(pons_nodes)),
            ("gametree solve --moves-file: one position (line to line: reading and replaying "
             "its line included)", "cli lines", 0.0, nodes_of(cli_nodes)),
            ("gametree solve --moves-file: its search alone (stats.seconds)", "cli searches",
             0.0, nodes_of(cli_nodes)),
            ("gametree engine alone (solve_batch): solve (cycle counter; clearing outside)",
             "engine solve", 0.0, nodes_of(engine_nodes)),
        ]
        for what, name, extra, nodes in rows:
            figure = series[name]
            best, each = figure.best_round() + extra, figure.per_position_best() + extra
            print(f"| {what} | {us(best)} | {us(each)} | {best / his.best_round():.2f}x | "
                  f"{each / his.per_position_best():.2f}x | {us(figure.worst_round() + extra)} "
                  f"| {nodes} |")
        print()
    pons_net = (totals("pons process") - totals("pons start-up")) / (count - 1)
    cli_net = (totals("cli process") - totals("cli start-up")) / (count - 1)
    print(f"Whole processes, fastest of {args.rounds} rounds (start-up: fastest one-line run):")
    print()
    print("| what | wall / N | net of start-up, per position | start-up | wall | CPU |")
    print("|---|---|---|---|---|---|")
    his_process = ("Pons' solver (his table reset before each position included)" if timed
                   else "Pons' solver (a newer driver: one table for every position)")
    for what, name, net in ((his_process, "pons", pons_net),
                            ("gametree solve --moves-file", "cli", cli_net)):
        print(f"| {what} | {us(totals(name + ' process') / count)} | {us(net)} | "
              f"{totals(name + ' start-up'):.3f} s | {totals(name + ' process'):.2f} s | "
              f"{totals(name + ' cpu'):.2f} s |")
    print()
    print(f"gametree engine alone, batch wall / N (table clearing included): "
          f"{us(totals('engine batch'))}")
    print(f"scores equal to the set's: Pons {agree['pons']}/{count}, gametree solve "
          f"--moves-file {agree['cli']}/{count} ({answered}/{count} with a best move and a "
          f"line), gametree engine alone {agree['engine']}/{count}")
    if timed:
        his = series["pons solve"]
        steady = series["cli lines"].per_position_best() / his.per_position_best()
        plain = cli_net / his.best_round()
        alone = series["engine solve"].per_position_best() / his.per_position_best()
        print(f"goal: gametree solve --moves-file within {GOAL}x of Pons' solve per position: "
              f"{steady:.2f}x per position (per-position best), {plain:.2f}x from whole "
              f"processes (net of start-up / his best round): "
              f"{'reached' if max(steady, plain) <= GOAL else 'NOT reached'}; "
              f"engine alone {alone:.2f}x")
    else:
        print("Pons' solver printed no times (a driver newer than 5e8f0b8): compare the "
              f"processes net of start-up: gametree / Pons = {cli_net / pons_net:.2f}x")
    print(f"load average after: {' '.join(f'{load:.2f}' for load in load_after)}")
    if min(agree.values()) < count:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
