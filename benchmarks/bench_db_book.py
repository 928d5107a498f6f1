"""A book build on 1 worker and on 2, as the command line runs it (docs/benchmarks.md, "Book
builds").

    python benchmarks/bench_db_book.py --width 6 --height 5 --plies 3 --repeat 3

Each build is the real command, ``python -m gametree db build connect4 --width W --height H
--plies P --db FILE --workers N --quiet``, in a process of its own, on a new database: its wall
time (Python's start, the workers' start, enumeration, frontier, back-up: all of it) and its
processor time (user + system, the builder's and its worker processes'), with the load
average before it. Its Python modules run from bytecode compiled once, by an untimed warm-up
build, into a temporary ``PYTHONPYCACHEPREFIX``, as an installed package's do (where
``PYTHONDONTWRITEBYTECODE`` is set, as on this project's development machines, every build
would otherwise compile gametree's sources anew: about a tenth of a second of each). The 1-
and 2-worker builds alternate, ``--repeat`` times, so that both see
the same moments of a shared machine; ``--ray`` adds a build on ``--executor ray --workers 2``
(Ray's own start included). Every database is exported and compared: the same rows whoever
built them.

The speed-up printed is the whole build's, 1 worker's wall time over 2 workers'. Beside it,
``2 x cpu(1) / cpu(2)``: the most two workers can give on two free cores, given the processor
time they spend (what the second worker's start and any work done twice cost).

What a bigger book's frontier costs, without building it (docs/solving.md, "What a 7x6
Connect Four book costs"):

    python benchmarks/bench_db_book.py --width 7 --height 6 --plies 8 --sample 60 --seed 21
    python benchmarks/bench_db_book.py --width 7 --height 6 --plies 8 --neighbours 60 --seed 5

``--sample N`` enumerates the book as the builder does (mirror images merged), draws N of its
frontier positions uniformly and solves each as the builder does (a fresh table each: the
search service's one-shot search), printing each one's processor time and positions searched,
then the mean and the frontier's CPU-hours. ``--neighbours N`` takes N consecutive frontier
positions in the order of their move lines (neighbours share their first moves) and solves them
fresh, then again one after another in one :class:`~gametree.SearchSession` whose table stays
warm, as a builder's worker does (``--blocks K``: K such runs from random starts, and the
frontier's CPU-hours at the warm rate; ``--spread``: the K runs start at the middles of K equal
parts of the frontier instead, which follows its cost along the move lines. Both estimate more
than a whole build costs: docs/solving.md). ``--neighbours N --split K`` solves N consecutive
positions in one session, then in K sessions that take turns, then in K that solve a run each:
what handing the frontier out to K workers in turn, or in runs, costs. ``--neighbours N
--workers`` solves N consecutive positions as the builder's workers do: one worker, two
threads over one table (``--workers 2``), one worker with two threads on each position.

    python benchmarks/bench_db_book.py --width 7 --height 6 --plies 8 --neighbours 40 --workers
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from gametree import SearchOptions, SearchSession, search
from gametree.builder import BuildPlan, executors
from gametree.builder.book import BookNode, enumerate_book
from gametree.builder.executors import Chunker, frontier_search, warm_up
from gametree.db.check import export_rows
from gametree.db.store import Database
from gametree.options import parse_bytes
from gametree.registry import make
from measure import installed_environment


def children_cpu() -> float:
    """Processor seconds (user + system) of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def frontier_options(game: Any, args: argparse.Namespace) -> SearchOptions:
    """How the builder searches a frontier position, with ``--table-memory`` if given."""
    return frontier_search(game, SearchOptions(book=False, table_memory=args.table_memory))


def timed_build(path: Path, args: argparse.Namespace, flags: list[str],
                environment: dict[str, str]) -> tuple[float, float]:
    """Run one build on a new database at ``path``: its wall and processor seconds."""
    command = [sys.executable, "-m", "gametree", "db", "build", "connect4",
               "--width", str(args.width), "--height", str(args.height),
               "--plies", str(args.plies), "--db", str(path), "--quiet", *flags]
    if args.table_memory is not None:
        command += ["--table-memory", str(args.table_memory)]
    cpu = children_cpu()
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=environment)
    wall = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr}")
    return wall, children_cpu() - cpu


def frontier(game: Any, plies: int) -> list[BookNode]:
    """The book's frontier, as the builder enumerates it, in the order of the move lines."""
    nodes = enumerate_book(game, game.initial_state(), plies)
    return sorted((node for node in nodes if node.kind == "frontier"), key=lambda n: n.line)


def sample(args: argparse.Namespace) -> None:
    """Solve ``--sample`` frontier positions drawn uniformly, each afresh, as the builder does."""
    game = make("connect4", width=args.width, height=args.height)
    positions = frontier(game, args.plies)
    options = frontier_options(game, args)
    warm_up(game, options)
    cpus, nodes = [], []
    for node in random.Random(args.seed).sample(positions, args.sample):
        began = time.process_time()
        result = search(game, node.state, options)
        cpus.append(time.process_time() - began)
        nodes.append(result.stats.nodes)
        print(f"{node.line}: {cpus[-1]:.3f} s cpu, {nodes[-1]:,} positions, {result.outcome}",
              flush=True)
    mean = statistics.mean(cpus)
    error = statistics.stdev(cpus) / len(cpus) ** 0.5
    hours = len(positions) * mean / 3600
    print(f"{len(positions):,} frontier positions at ply {args.plies}; {len(cpus)} solved: "
          f"mean {mean:.3f} s cpu (standard error {error:.3f}, median "
          f"{statistics.median(cpus):.3f}, max {max(cpus):.3f}), "
          f"{statistics.mean(nodes) / 1e6:.2f} M positions searched; the frontier: "
          f"{hours:.1f} CPU-hours ({len(positions) * (mean - 2 * error) / 3600:.1f} to "
          f"{len(positions) * (mean + 2 * error) / 3600:.1f})")


def neighbours(args: argparse.Namespace) -> None:
    """Solve ``--blocks`` runs of ``--neighbours`` consecutive frontier positions, each run
    afresh and then in one session (as a builder's worker does), and estimate the frontier."""
    game = make("connect4", width=args.width, height=args.height)
    positions = frontier(game, args.plies)
    options = frontier_options(game, args)
    warm_up(game, options)
    draw = random.Random(args.seed)
    fresh_total = warm_total = 0.0
    for block_index in range(args.blocks):
        if args.spread:  # the middle of the block_index-th of --blocks equal parts
            middle = (2 * block_index + 1) * len(positions) // (2 * args.blocks)
            start = max(0, min(middle - args.neighbours // 2, len(positions) - args.neighbours))
        else:
            start = draw.randrange(len(positions) - args.neighbours)
        block = positions[start:start + args.neighbours]
        began = time.process_time()
        fresh = [search(game, node.state, options) for node in block]
        fresh_cpu = time.process_time() - began
        began = time.process_time()
        with SearchSession(game, options) as session:
            warm = [session.search(node.state) for node in block]
        warm_cpu = time.process_time() - began
        fresh_total += fresh_cpu
        warm_total += warm_cpu
        pairs = list(zip(fresh, warm, strict=True))
        print(f"{len(block)} consecutive frontier positions, {block[0].line!r} to "
              f"{block[-1].line!r}: fresh {fresh_cpu:.2f} s cpu, "
              f"{sum(r.stats.nodes for r in fresh):,} positions; warm table {warm_cpu:.2f} s "
              f"cpu, {sum(r.stats.nodes for r in warm):,} positions; same values and "
              f"distances: {all((a.value, a.plies) == (b.value, b.plies) for a, b in pairs)}; "
              f"same best moves: {sum(a.best_move == b.best_move for a, b in pairs)} "
              f"of {len(block)}", flush=True)
    solved = args.blocks * args.neighbours
    print(f"{solved} positions in {args.blocks} runs: fresh {fresh_total / solved:.3f} s cpu a "
          f"position, warm {warm_total / solved:.3f} s ({fresh_total / warm_total:.2f}x less); "
          f"the frontier's {len(positions):,} positions warm: "
          f"{len(positions) * warm_total / solved / 3600:.1f} CPU-hours")


def split(args: argparse.Namespace) -> None:
    """Solve ``--neighbours`` consecutive frontier positions in one session, then shared by
    ``--split`` sessions taking turns, then by as many each solving one run of them."""
    game = make("connect4", width=args.width, height=args.height)
    positions = frontier(game, args.plies)
    start = random.Random(args.seed).randrange(len(positions) - args.neighbours)
    block = positions[start:start + args.neighbours]
    options = frontier_options(game, args)
    warm_up(game, options)
    count = args.split
    cuts = [len(block) * part // count for part in range(count + 1)]
    ways = {"one session": [block],
            f"{count} sessions taking turns": [block[part::count] for part in range(count)],
            f"{count} sessions, a run each": [block[cuts[part]:cuts[part + 1]]
                                              for part in range(count)]}
    print(f"{len(block)} consecutive frontier positions, {block[0].line!r} to "
          f"{block[-1].line!r}:")
    for label, parts in ways.items():
        began = time.process_time()
        searched = 0
        for part in parts:
            with SearchSession(game, options) as session:
                searched += sum(session.search(node.state).stats.nodes for node in part)
        print(f"{label}: {time.process_time() - began:.2f} s cpu, {searched:,} positions",
              flush=True)


def workers(args: argparse.Namespace) -> None:
    """Solve ``--neighbours`` consecutive frontier positions as a builder's workers do (its
    executors, its task sizes): on one worker; on two threads over one table (what
    ``--workers 2`` runs for an exact solve on the compiled tier); on one worker searching
    each position on two threads (ABDADA, ``--workers 1 --threads 2``). Wall and processor
    time of each, and whether the rows agree."""
    game = make("connect4", width=args.width, height=args.height)
    positions = frontier(game, args.plies)
    start = random.Random(args.seed).randrange(max(1, len(positions) - args.neighbours))
    block = [(node.state, node.ply, node.line)
             for node in positions[start:start + args.neighbours]]
    print(f"{len(block)} consecutive frontier positions, {block[0][2]!r} to {block[-1][2]!r}:")
    options = frontier_options(game, args)
    ways = {"1 worker": (1, options),
            "2 workers: two threads over one table": (2, options),
            "1 worker, each position on two threads (ABDADA)":
                (1, replace(options, threads=2))}
    found = []
    for label, (count, options) in ways.items():
        with executors.start(BuildPlan(workers=count), game=game, name="connect4",
                             options={"width": args.width, "height": args.height},
                             search=options) as job:
            began, cpu = time.perf_counter(), time.process_time()
            rows = [row for task in job.run(Chunker(block, job.count, lanes=job.lanes))
                    for row in task]
            wall, cpu = time.perf_counter() - began, time.process_time() - cpu
        found.append(sorted(rows))
        print(f"{label}: {wall:.2f} s wall, {cpu:.2f} s cpu", flush=True)
    print("same rows every way:", all(rows == found[0] for rows in found))


def main() -> None:
    """Alternate the builds, print each, then the speed-ups and whether the rows agree (or,
    with ``--sample`` or ``--neighbours``, measure frontier solves instead)."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--width", type=int, default=6)
    parser.add_argument("--height", type=int, default=5)
    parser.add_argument("--plies", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ray", action="store_true", help="also build on --executor ray")
    parser.add_argument("--sample", type=int, help="solve this many frontier positions")
    parser.add_argument("--neighbours", type=int,
                        help="solve this many consecutive frontier positions, fresh and warm")
    parser.add_argument("--blocks", type=int, default=1,
                        help="with --neighbours: this many runs, each from a random start")
    parser.add_argument("--spread", action="store_true",
                        help="with --neighbours --blocks K: the runs start at the middles of "
                             "K equal parts of the frontier, not at random")
    parser.add_argument("--split", type=int,
                        help="with --neighbours: one session against this many")
    parser.add_argument("--workers", action="store_true",
                        help="with --neighbours: solve them as the builder's workers do, on "
                             "one worker, two threads over one table, and two threads on "
                             "each position")
    parser.add_argument("--table-memory", type=parse_bytes, metavar="BYTES",
                        help="the compiled engine's table for the frontier (e.g. 64MiB; "
                             "default: the builder's, 16 MiB)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.sample:
        sample(args)
        return
    if args.neighbours and args.workers:
        workers(args)
        return
    if args.neighbours and args.split:
        split(args)
        return
    if args.neighbours:
        neighbours(args)
        return
    runs = {"1 worker": ["--workers", "1"], "2 workers": ["--workers", "2"]}
    if args.ray:
        runs["ray, 2 actors"] = ["--executor", "ray", "--workers", "2"]
    walls: dict[str, list[float]] = {label: [] for label in runs}
    cpus: dict[str, list[float]] = {label: [] for label in runs}
    exports = []
    with tempfile.TemporaryDirectory() as folder:
        environment = installed_environment(Path(folder) / "bytecode")
        # The warm-up compiles the bytecode (and the kernel, if the cache lacks it).
        timed_build(Path(folder) / "warm-up.db", args, ["--workers", "2"], environment)
        for repeat in range(args.repeat):
            for number, (label, flags) in enumerate(runs.items()):
                path = Path(folder) / f"book-{repeat}-{number}.db"
                load = os.getloadavg()[0]
                wall, cpu = timed_build(path, args, flags, environment)
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
