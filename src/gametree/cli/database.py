"""The ``db`` command: build, query, describe, export and check solution databases
(:mod:`gametree.db`, docs/solving.md)."""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import sys
from typing import Any

from ..algorithms import DEFAULT_ALGORITHM
from ..registry import get, play_moves
from ..values import outcome_of, value_words
from .parser import (
    CliParser,
    add_game_commands,
    add_search_options,
    game_options,
    non_negative_int,
    non_negative_seconds,
    positive_int,
)
from .report import mover_text
from .searching import search_options


def run_build(args: argparse.Namespace) -> int:
    """``gametree db build GAME --db FILE --plies N | --all``: the search options mean what
    they mean for ``solve`` (they search a book's frontier)."""
    # The builder imports the search service's workers: the other commands do not need it.
    from ..builder import FLUSH_SECONDS, BuildPlan, BuildRequest, build  # noqa: PLC0415
    from ..builder.progress import progress_for, speed_text  # noqa: PLC0415

    if (args.plies is None) == (not args.all):
        raise ValueError("give either --plies N (an opening book) or --all (the whole game)")
    plan = BuildPlan(executor=args.executor, workers=args.workers, address=args.address,
                     chunk=args.chunk,
                     commit_every=FLUSH_SECONDS if args.commit_every is None
                     else args.commit_every)
    path = args.db
    if args.install:
        path = _book_path(args)
    request = BuildRequest(path, args.game, game_options(args), plies=args.plies,
                           moves=args.moves or "", search=search_options(args), plan=plan,
                           command=shlex.join(["gametree", *sys.argv[1:]]) if sys.argv else "")
    report = build(request, progress=progress_for(quiet=args.quiet, every=args.log_every))
    if args.json:
        print(json.dumps(report.as_dict()))
        return 0
    if report.coverage == "all":
        how = (f"the whole game by retrograde analysis ({report.tier} tier): "
               f"{report.rate:,.0f} positions/s")
    else:
        how = (f"an opening book to {args.plies} plies: {report.solved:,} frontier positions "
               f"solved ({speed_text(report.rate)})")
        if report.skipped:
            how += f", {report.skipped:,} found stored already"
    print(f"{report.path}: {report.positions:,} positions of {report.variant}, {how}; "
          f"{report.added:,} stored by this run in {report.timings.get('total', 0.0):.2f} s")
    return 0


def run_query(args: argparse.Namespace) -> int:
    """``gametree db query GAME --db FILE --moves ...``."""
    from ..db.answer import SolutionDatabase  # noqa: PLC0415

    spec = get(args.game)
    game = spec.make(**game_options(args))
    state = play_moves(game, spec.split_moves(args.moves or ""))
    with SolutionDatabase(args.db, game) as database:
        entry = database.lookup(state)
        if entry is None:
            if args.json:
                print(json.dumps({"found": False, "moves": args.moves or ""}))
            else:
                print(f"not in {args.db}")
            return 1
        best = [game.format_move(state, move) for move in entry.best]
        if args.json:
            print(json.dumps({"found": True, "moves": args.moves or "", "value": entry.value,
                              "outcome": outcome_of(entry.value), "plies": entry.plies,
                              "best": best, "kind": entry.row.kind, "twin": entry.twin,
                              "stored_moves": entry.row.moves}))
        else:
            said = value_words(entry.score, exhaustive=True)
            twin = f" (stored as its twin {entry.row.moves!r})" if entry.twin else ""
            print(f"{mover_text(game, state)}: {said}; best: {' '.join(best) or '(game over)'}; "
                  f"{entry.row.kind}{twin}")
    return 0


def run_stats(args: argparse.Namespace) -> int:
    """``gametree db stats FILE``."""
    from ..db.store import Database  # noqa: PLC0415

    with Database.open(args.file) as database:
        meta = database.meta
        summary = database.summary()
        size = database.size()
    document = {"file": args.file, "variant": database.variant, "bytes": size,
                "meta": {name: (json.loads(value) if name in ("options", "timings") and value
                                else value) for name, value in meta.items()}, **summary}
    if args.json:
        print(json.dumps(document))
        return 0
    coverage = "the whole game" if meta.get("coverage") == "all" else \
        f"an opening book to {meta.get('plies')} plies"
    root = meta.get("root") or "the start"
    print(f"{args.file}: {database.variant}, {coverage} from {root}")
    kinds = ", ".join(f"{count:,} {kind}" for kind, count in summary["by_kind"].items())
    print(f"positions: {summary['positions']:,} ({kinds})")
    values = summary["by_value"]
    print(f"for the player to move: {values['win']:,} wins, {values['draw']:,} draws, "
          f"{values['loss']:,} losses")
    print("by ply: " + ", ".join(f"{ply}: {count:,}" for ply, count in summary["by_ply"].items()))
    print(f"complete: {'yes' if meta.get('complete') == '1' else 'no (build it again to go on)'}"
          f"; {len(summary['runs'])} build run(s); {size:,} bytes on disk")
    print(f"built by gametree {meta.get('gametree_version')}: {meta.get('command')}")
    if meta.get("kernel"):
        print(f"kernel: {meta['kernel']}")
    print(f"scoring: {meta.get('scoring')}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    """``gametree db export FILE --format jsonl|csv``."""
    from ..db.check import export_rows  # noqa: PLC0415
    from ..db.store import Database  # noqa: PLC0415

    with Database.open(args.file) as database, contextlib.ExitStack() as stack:
        out = sys.stdout if args.output in (None, "-") else stack.enter_context(
            open(args.output, "w", encoding="utf-8", newline=""))
        for line in export_rows(database, args.format):
            out.write(line + "\n")
    return 0


def run_check(args: argparse.Namespace) -> int:
    """``gametree db check FILE``: 0 if all is well, 1 if a problem was found."""
    from ..db.check import check  # noqa: PLC0415
    from ..db.store import Database  # noqa: PLC0415

    with Database.open(args.file) as database:
        report = check(database, sample=args.sample, seed=args.seed)
    if args.json:
        print(json.dumps(report.as_dict()))
    else:
        for problem in report.problems:
            print(problem)
        if report.problem_count > len(report.problems):
            print(f"... and {report.problem_count - len(report.problems)} more")
        verdict = "ok" if report.ok else f"{report.problem_count} problem(s)"
        print(f"{args.file}: {verdict}: {report.rows:,} rows, {report.interior:,} interior "
              f"positions checked against their children, {report.resolved} re-solved by "
              f"the engine")
    return 0 if report.ok else 1


def add_commands(subparsers: Any) -> None:
    """Register ``db`` with its sub-commands."""
    command = subparsers.add_parser(
        "db", help="solution databases and opening books: build, query, stats, export, check",
        description="Solve once, keep forever: a database of exact values, distances and best "
                    "moves (SQLite), for a whole game or for every position of an opening. "
                    "See docs/solving.md.")
    actions = command.add_subparsers(dest="action", metavar="ACTION", required=True,
                                     parser_class=CliParser)
    _add_build(actions)
    _add_query(actions)
    _add_stats(actions)
    _add_export(actions)
    _add_check(actions)


def _book_path(args: argparse.Namespace) -> str:
    """The file of ``db build --install``: the variant's book in the user's book directory
    (created), which every search then finds (:mod:`gametree.db.books`)."""
    from ..db.books import default_book_path  # noqa: PLC0415

    if args.db:
        raise ValueError("give either --db FILE or --install, not both")
    if args.plies is None or args.moves:
        raise ValueError("--install builds an opening book from the start: give --plies N "
                         "and no --moves")
    spec = get(args.game)
    options = game_options(args)
    full = {option.name: options.get(option.name, option.default) for option in spec.options}
    path = default_book_path(args.game, full)
    path.parent.mkdir(parents=True, exist_ok=True)
    return str(path)


def _add_build(actions: Any) -> None:
    """``db build``: the search options of ``solve`` (for a book's frontier) and the build's own."""
    build = CliParser(add_help=False)
    where = build.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", metavar="FILE", help="the database file")
    where.add_argument("--install", action="store_true",
                       help="build the variant's installed opening book (in "
                            "$XDG_DATA_HOME/gametree/books, or the first directory of "
                            "$GAMETREE_BOOKS), which every search then answers from")
    what = build.add_argument_group("what to store")
    what.add_argument("--all", action="store_true",
                      help="every position of the game, by retrograde analysis (on --tier; "
                           "the other search options are a book's)")
    what.add_argument("--plies", type=non_negative_int, metavar="N",
                      help="an opening book: every position within N moves (of --moves), the "
                           "frontier solved exactly by a search with the search options, the "
                           "rest backed up by minimax")
    # The frontier's search options, as ``solve`` takes them (--moves: the root; --json).
    add_search_options(build, default_algorithm=DEFAULT_ALGORITHM)
    how = build.add_argument_group("how")
    how.add_argument("--workers", type=positive_int, metavar="N",
                     help="workers solving the frontier (default: every core; 1: this "
                          "process): for exact solves on the compiled engine, threads of "
                          "this process over one table, each solving its own positions; "
                          "else (or with --threads N) processes; with --executor ray, the "
                          "actors (default: the cluster's CPUs)")
    how.add_argument("--executor", choices=("local", "ray"), default="local",
                     help="local (default): a process pool on this machine; ray: a Ray "
                          "cluster (pip install 'gametree[ray]')")
    how.add_argument("--address", metavar="ADDR",
                     help="the Ray cluster to join (default: a new local one, or "
                          "RAY_ADDRESS)")
    how.add_argument("--chunk", type=positive_int, metavar="N",
                     help="frontier positions per task (default: sized as the build goes, "
                          "about half a second of solving each, smaller towards the end)")
    how.add_argument("--commit-every", type=non_negative_seconds, metavar="SECONDS",
                     help="the longest solved positions wait before they are committed: "
                          "what a kill can lose (default: 1; 0: after every task)")
    how.add_argument("--quiet", action="store_true", help="no progress")
    how.add_argument("--log-every", type=non_negative_seconds, default=10.0, metavar="SECONDS",
                     help="seconds between progress lines when not on a terminal "
                          "(default: 10)")
    parser = actions.add_parser(
        "build", help="build (or continue) a database of a whole game or an opening book",
        description="Build a database: --all stores every position of a small game by "
                    "retrograde analysis; --plies N an opening book. Safe to interrupt (Ctrl-C "
                    "or kill): run the same command again to continue where it stopped.")
    add_game_commands(parser, build)
    parser.set_defaults(run=run_build)


def _add_query(actions: Any) -> None:
    """``db query``."""
    query = CliParser(add_help=False)
    query.add_argument("--db", required=True, metavar="FILE", help="the database file")
    query.add_argument("--moves", metavar="\"M M ...\"",
                       help="the position after these moves (default: the start)")
    query.add_argument("--json", action="store_true", help="print one JSON object")
    parser = actions.add_parser(
        "query", help="a position's stored value, distance and best moves",
        description="Look a position (or its symmetric twin) up. Exit status 1 if it is not "
                    "stored.")
    add_game_commands(parser, query)
    parser.set_defaults(run=run_query)


def _add_stats(actions: Any) -> None:
    """``db stats``."""
    parser = actions.add_parser("stats", help="what a database holds",
                                description="The variant, the counts by kind, ply and value, "
                                            "the builds and the metadata of a database.")
    parser.add_argument("file", metavar="FILE")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run_stats)


def _add_export(actions: Any) -> None:
    """``db export``."""
    parser = actions.add_parser("export", help="every row as JSON lines or CSV, in a stable "
                                               "order",
                                description="Write every stored position, ordered by ply then "
                                            "key: the same database always exports the same "
                                            "text, whoever built it and however.")
    parser.add_argument("file", metavar="FILE")
    parser.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    parser.add_argument("--output", metavar="FILE", help="write here (default: standard output)")
    parser.set_defaults(run=run_export)


def _add_check(actions: Any) -> None:
    """``db check``."""
    parser = actions.add_parser(
        "check", help="verify interior values against their children; re-solve a sample",
        description="Check that every interior position's value and best moves are those its "
                    "stored children give, that finished games hold their outcome, and that a "
                    "random sample re-solved by the engine agrees. Exit status 1 if a problem "
                    "is found.")
    parser.add_argument("file", metavar="FILE")
    parser.add_argument("--sample", type=non_negative_int, default=100, metavar="N",
                        help="positions to re-solve (default: 100)")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="which sample (default: 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run_check)


__all__ = ["add_commands"]
