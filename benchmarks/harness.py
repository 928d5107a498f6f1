"""What the benchmark scripts share: measuring gametree and the peers, checking, printing.

Each ``bench_*.py`` script measures gametree in this process (the project's environment) and
each peer in a worker process of the peer environment (``peer_worker.py``), with the same
protocol (``measure.py``), then checks that every contender gave the same answer and prints one
table. A mismatch stops the script with exit code 1 and says which answers differ: a benchmark
that compares different answers measures nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gametree
from gametree import EngineTuning, SearchOptions, algorithms
from gametree.game import Game, GameError
from gametree.result import SearchResult
from measure import Answer, AnswerMismatchError, Measurement, Search, measure

HERE = Path(__file__).resolve().parent
PEER_PYTHON = HERE / ".peers" / "venv" / "bin" / "python"
WORKER = HERE / "peer_worker.py"

COMPARED = ("outcome", "plies", "score")
"""Answer keys that must agree between contenders (when both report them)."""


class BenchmarkError(RuntimeError):
    """A benchmark could not be run as asked (missing peer environment, failing worker)."""


@dataclass
class Row:
    """One contender's line in a table."""

    name: str
    """Who: ``gametree (engine)``, ``easyAI Negamax + table``, ..."""

    measurement: Measurement
    """Its answer, node count and times."""

    notes: list[str] = field(default_factory=list)
    """Remarks printed under the table (a distance the peer gets wrong, ...)."""


# -- command line ------------------------------------------------------------------------------


def parser(description: str, *, repeat: int, budget: float, peers: Sequence[str],
           compiled: bool = False) -> argparse.ArgumentParser:
    """The options every benchmark script takes, with the script's own defaults.

    ``compiled``: the task can also be measured with gametree's compiled tier (``--tier``).
    """
    command = argparse.ArgumentParser(description=description)
    if compiled:
        command.add_argument("--tier", choices=("python", "compiled"), default="python",
                             help="measure gametree's Python-tier engine (default) or its "
                                  "compiled tier (the game's numba kernel)")
    command.add_argument("--algorithm", default=None,
                         help="gametree algorithm to measure (default: "
                              f"{algorithms.DEFAULT_ALGORITHM})")
    command.add_argument("--repeat", type=int, default=repeat,
                         help=f"timed runs per contender at most (default {repeat})")
    command.add_argument("--budget", type=float, default=budget,
                         help="stop repeating a contender once its timed runs took this many "
                              f"seconds (default {budget:g})")
    command.add_argument("--peers", default=",".join(peers),
                         help=f"comma-separated peers to measure (default: all: {','.join(peers)};"
                              " empty: none)")
    command.add_argument("--json", type=Path, default=None, metavar="FILE",
                         help="also write the table and the machine's details to FILE as JSON")
    return command


def chosen_peers(text: str, known: Sequence[str]) -> list[str]:
    """The peers named on the command line, in the order given; unknown names are an error."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise BenchmarkError(f"unknown peer {', '.join(unknown)}; peers: {', '.join(known)}")
    return names


def chosen_algorithm(name: str | None) -> str:
    """The gametree algorithm to measure: the one asked for, else the default (the engine)."""
    if name is None:
        return algorithms.DEFAULT_ALGORITHM
    if name not in algorithms.ALGORITHMS:
        raise BenchmarkError(f"unknown algorithm {name!r}; algorithms: "
                             f"{', '.join(algorithms.ALGORITHMS)}")
    return name


# -- measuring --------------------------------------------------------------------------------


def measure_gametree(
    make_game: Callable[[], Game[Any, Any]],
    *,
    algorithm: str,
    depth: int | None,
    answer_of: Callable[[SearchResult[Any]], Answer],
    repeat: int,
    budget: float,
) -> Measurement:
    """Measure gametree's Python tier (``gametree.search(game, algorithm=..., depth=...,
    tier="python")``) from the initial state.

    gametree counts its own nodes (:attr:`SearchStats.nodes`, always on), so the counting run is
    an ordinary search. ``make_game`` builds a fresh game for each run, outside the timing,
    since a game may keep memo tables (tic-tac-toe memoises its table keys) that a second run
    would find warm. Every timed run must visit as many nodes as the counting run, which shows
    that no table outlived its search.
    """
    build = make_game
    timed_nodes: list[int] = []
    options = SearchOptions(algorithm=algorithm, depth=depth, tier="python")

    def counted() -> tuple[Answer, int]:
        result = gametree.search(build(), options=options)
        return answer_of(result), result.stats.nodes

    def prepare() -> Search:
        fresh = build()
        root = fresh.initial_state()

        def search() -> Answer:
            result = gametree.search(fresh, root, options)
            timed_nodes.append(result.stats.nodes)
            return answer_of(result)

        return search

    measurement = measure(counted, prepare, repeat=repeat, budget=budget)
    if any(nodes != measurement.nodes for nodes in timed_nodes):
        # A search that visits fewer nodes the second time kept something (a table) from the
        # first: its later runs would not be timing the same work.
        raise BenchmarkError(f"gametree ({algorithm}) visited {measurement.nodes} nodes in its "
                             f"first run but {timed_nodes} in the timed runs: searches are not "
                             f"independent, so their times would not be comparable")
    return measurement


def measure_compiled(
    game: Game[Any, Any],
    *,
    answer_of: Callable[[SearchResult[Any]], Answer],
    repeat: int,
    budget: float,
    table_bits: int = 16,
) -> Measurement:
    """Measure gametree's compiled tier solving ``game`` from its initial state.

    ``gametree.search`` with ``tier="compiled"``: the game's compiled form (its numba kernel,
    loaded from the on-disk cache or compiled by the counting run, before anything is timed),
    with a table of ``2**table_bits`` entries. Every search starts from an empty table (the
    service empties it, inside the timing), so each run does the whole solve, as the Python
    tier's and the peers' runs do.
    """
    options = SearchOptions(tier="compiled", tuning=EngineTuning(table_bits=table_bits))
    root = game.initial_state()

    def solve() -> SearchResult[Any]:
        return gametree.search(game, root, options)

    def counted() -> tuple[Answer, int]:
        result = solve()
        return answer_of(result), result.stats.nodes

    def prepare() -> Search:
        return lambda: answer_of(solve())

    return measure(counted, prepare, repeat=repeat, budget=budget)


def solved_reference(
    options: argparse.Namespace,
    algorithm: str,
    make_game: Callable[[], Game[Any, Any]],
    answer_of: Callable[[SearchResult[Any]], Answer],
) -> Row:
    """gametree's row for a game solved from its initial state, on the tier ``--tier`` names:
    the Python tier's ``algorithm`` (a fresh game per run), or the game's compiled form."""
    if options.tier == "compiled":
        return Row("gametree (compiled tier)", measure_compiled(
            make_game(), answer_of=answer_of, repeat=options.repeat, budget=options.budget))
    return Row(f"gametree ({algorithm})", measure_gametree(
        make_game, algorithm=algorithm, depth=None, answer_of=answer_of,
        repeat=options.repeat, budget=options.budget))


def measure_peer(task: str, peer: str, *, repeat: int, budget: float,
                 arguments: Sequence[str] = ()) -> Measurement:
    """Measure ``peer`` on ``task`` in a worker process of the peer environment."""
    if not PEER_PYTHON.exists():
        raise BenchmarkError(f"the peer environment is missing ({PEER_PYTHON}); "
                             f"create it with: python benchmarks/setup_peers.py")
    command = [str(PEER_PYTHON), str(WORKER), "--task", task, "--peer", peer,
               "--repeat", str(repeat), "--budget", str(budget), *arguments]
    # The worker must not see gametree's PYTHONPATH: the peers run with their own packages only.
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    completed = subprocess.run(command, capture_output=True, text=True, check=False,
                               env=environment, cwd=HERE)
    if completed.returncode != 0:
        tail = "\n".join(completed.stderr.strip().splitlines()[-5:])
        raise BenchmarkError(f"peer worker {peer} on {task} failed "
                             f"(exit {completed.returncode}):\n{tail}")
    data = json.loads(completed.stdout.strip().splitlines()[-1])
    return Measurement.from_dict(data)


def answer_from_result(result: SearchResult[Any], move: Callable[[Any], Any]) -> Answer:
    """A gametree result as an answer: proven outcome and distance, or the heuristic score."""
    answer: Answer = {}
    if result.outcome is not None:
        answer["outcome"] = result.outcome
        if result.plies is not None:
            answer["plies"] = result.plies
    else:
        answer["score"] = round(result.value)
    if result.best_move is not None:
        answer["move"] = move(result.best_move)
    return answer


# -- checking ---------------------------------------------------------------------------------


def check_answers(reference: Row, others: Sequence[Row], *,
                  trust_plies: Sequence[str] = ()) -> None:
    """Fail unless every row's outcome and score equal the reference row's.

    Distances (``plies``) must also agree for the rows named in ``trust_plies`` (peers whose
    distances are exact by construction); any other row whose claimed distance differs gets a
    note instead, since that is the peer's known inaccuracy, not a different answer.
    """
    expected = reference.measurement.answer
    for row in others:
        got = row.measurement.answer
        for key in COMPARED:
            if key not in got or key not in expected or got[key] == expected[key]:
                continue
            if key == "plies" and row.name not in trust_plies:
                row.notes.append(f"{row.name} claims {got['outcome']} in {got['plies']} plies; "
                                 f"the exact distance is {expected['plies']}")
                continue
            raise AnswerMismatchError(
                f"{row.name} answered {key}={got[key]!r}, {reference.name} {expected[key]!r}: "
                f"the contenders disagree, so their times cannot be compared")


def check_moves(reference: Row, others: Sequence[Row],
                answer_after: Callable[[Any], Answer]) -> None:
    """Fail unless every row's chosen move keeps the reference row's root value.

    ``answer_after(move)`` is the root value, as an answer seen from the root player, after
    ``move`` is played: found by gametree (the engine when registered). Moves equal to the
    reference row's are not searched again; when the root is a proven loss every move keeps it.
    """
    expected = reference.measurement.answer
    if expected.get("outcome") == "loss":
        return
    verified: dict[str, Answer] = {json.dumps(expected.get("move")): expected}
    for row in others:
        move = row.measurement.answer.get("move")
        label = json.dumps(move)
        if label not in verified:
            verified[label] = answer_after(move)
        after = verified[label]
        for key in ("outcome", "score"):
            if after.get(key) != expected.get(key):
                raise AnswerMismatchError(
                    f"{row.name} chose move {label}, which is worth {after}, while the root is "
                    f"worth {expected}: it did not find a best move")


# -- printing ---------------------------------------------------------------------------------


def answer_text(answer: Answer) -> str:
    """An answer in a few words: ``draw``, ``loss in 15``, ``score 4``, then the move."""
    if "outcome" in answer:
        text = str(answer["outcome"])
        if "plies" in answer:
            text += f" in {answer['plies']}"
    elif "score" in answer:
        text = f"score {answer['score']}"
    else:
        text = "(move only)"
    if "move" in answer:
        text += f", move {json.dumps(answer['move']).replace(' ', '')}"
    return text


def format_seconds(seconds: float) -> str:
    """Seconds with a unit that keeps three significant figures: ``812 µs``, ``2.41 s``."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def per_node_micros(measurement: Measurement) -> float | None:
    """Median microseconds per node, when the nodes were counted."""
    if not measurement.nodes:
        return None
    return measurement.median / measurement.nodes * 1e6


def format_ratio(peer: float | None, base: float | None) -> str:
    """``peer / base`` with two significant figures below 10 (``0.31``, ``2.4``, ``37``)."""
    if peer is None or not base:
        return "-"
    ratio = peer / base
    if ratio >= 10:
        return f"{ratio:.0f}"
    if ratio >= 1:
        return f"{ratio:.1f}"
    return f"{ratio:.2f}"


def table(title: str, reference: Row, others: Sequence[Row]) -> str:
    """The comparison table: one line per contender, ratios against the reference (gametree).

    ``time ratio`` is the peer's median time over gametree's (how many times faster gametree
    is), ``cpu ratio`` the same for CPU time; ``node ratio`` is the peer's node count over
    gametree's, and ``per-node ratio`` the peer's time per node over gametree's. Since time
    ratio = node ratio * per-node ratio, the table shows where a difference comes from: fewer
    nodes (the algorithm) or cheaper nodes (the code).
    """
    header = ("contender", "answer", "nodes", "median time", "cpu", "runs", "µs/node",
              "time ratio", "cpu ratio", "node ratio", "per-node ratio")
    base = reference.measurement
    lines: list[tuple[str, ...]] = []
    base_per_node = per_node_micros(base)
    for row in (reference, *others):
        m = row.measurement
        per_node = per_node_micros(m)
        is_base = row is reference
        lines.append((
            row.name,
            answer_text(m.answer),
            f"{m.nodes:,}" if m.nodes is not None else "-",
            format_seconds(m.median),
            format_seconds(m.cpu_median) if m.cpu_median is not None else "-",
            str(len(m.times)),
            f"{per_node:.2f}" if per_node is not None else "-",
            "1" if is_base else format_ratio(m.median, base.median),
            "1" if is_base else format_ratio(m.cpu_median, base.cpu_median),
            "1" if is_base else format_ratio(m.nodes, base.nodes),
            "1" if is_base else format_ratio(per_node, base_per_node),
        ))
    widths = [max(len(header[i]), *(len(line[i]) for line in lines)) for i in range(len(header))]

    def render(cells: Sequence[str]) -> str:
        return "| " + " | ".join(
            cell.ljust(width) if i < 2 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))) + " |"

    out = [f"### {title}", "", render(header),
           "|" + "|".join(("-" * (w + 1) + ":") if i >= 2 else "-" * (w + 2)
                          for i, w in enumerate(widths)) + "|"]
    out.extend(render(line) for line in lines)
    out.append("")
    out.append(f"Ratios are peer / {reference.name}: above 1, gametree is faster or searches "
               "fewer nodes. Time: median wall time of the timed runs (cpu: median CPU time of "
               "the same runs; much less than the wall time means the process waited for a "
               "core).")
    notes = [note for row in (reference, *others) for note in row.notes]
    if notes:
        out.append("")
        out.extend(f"- {note}" for note in notes)
    return "\n".join(out)


def machine() -> dict[str, Any]:
    """Where and when the figures were measured, and how loaded the machine was."""
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "processor": processor_name(),
        "cores": os.cpu_count(),
        "load_average": [round(value, 2) for value in load] if load else None,
    }


def processor_name() -> str:
    """The CPU model from /proc/cpuinfo where there is one, else what :mod:`platform` says."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_line(before: dict[str, Any], after: dict[str, Any]) -> str:
    """One line on the machine, with the load average before and after the measurements."""
    return (f"{before['date']} · {before['processor']} · {before['cores']} cores · "
            f"{before['implementation']} {before['python']} · load average (1, 5, 15 min) "
            f"{before['load_average']} before, {after['load_average']} after")


def write_json(path: Path, tables: list[dict[str, Any]], before: dict[str, Any],
               after: dict[str, Any]) -> None:
    """Save the measured tables with the machine's details."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"machine": before, "load_after": after["load_average"],
                                "command": " ".join(sys.argv), "tables": tables}, indent=2)
                    + "\n")


def row_data(row: Row) -> dict[str, Any]:
    """A row as JSON-ready data."""
    return {"name": row.name, **row.measurement.as_dict(), "notes": row.notes}


def run_main(body: Callable[[argparse.Namespace], list[tuple[str, Row, list[Row]]]],
             command: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    """Parse options, run ``body`` (which measures and returns the tables), print, exit code.

    Exit codes: 0 done, 1 the contenders' answers differ, 2 the benchmark could not run (a
    missing peer environment, a game gametree does not have, a bad option).
    """
    options = command.parse_args(argv)
    before = machine()
    try:
        tables = body(options)
    except AnswerMismatchError as error:
        print(f"ANSWERS DIFFER: {error}", file=sys.stderr)
        return 1
    except (BenchmarkError, GameError) as error:
        print(f"{command.prog}: {error}", file=sys.stderr)
        return 2
    after = machine()
    print(machine_line(before, after))
    for title, reference, others in tables:
        print()
        print(table(title, reference, others))
    if options.json is not None:
        write_json(options.json, [
            {"title": title, "rows": [row_data(row) for row in (reference, *others)]}
            for title, reference, others in tables], before, after)
    return 0


def hashable(move: Any) -> Hashable:
    """A JSON move (lists for tuples) back as a hashable value."""
    return tuple(move) if isinstance(move, list) else move


def answer_after_move(game: Game[Any, Any], *, algorithm: str, depth: int | None,
                      answer_of: Callable[[SearchResult[Any]], Answer]) -> Callable[[Any], Answer]:
    """A checker for :func:`check_moves`: the root player's answer once a JSON ``move`` is played.

    Searches the child with gametree (``depth - 1`` plies, or to the end) and turns the child's
    answer back into the root player's view.
    """
    root = game.initial_state()
    player = game.to_move(root)

    def after(move: Any) -> Answer:
        child = game.play(root, hashable(move))
        result = gametree.search(game, child, algorithm=algorithm, tier="python",
                                 depth=None if depth is None else depth - 1)
        answer = answer_of(result)
        answer.pop("move", None)
        if game.to_move(child) != player:
            flipped = {"win": "loss", "loss": "win", "draw": "draw"}
            if "outcome" in answer:
                answer["outcome"] = flipped[answer["outcome"]]
            if "score" in answer:
                answer["score"] = -answer["score"]
        if "plies" in answer:
            answer["plies"] += 1
        return answer

    return after
