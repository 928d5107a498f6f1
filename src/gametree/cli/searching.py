"""The ``solve``, ``analyze`` and ``trace`` commands: search a position and report."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..algorithms import ALGORITHMS, search
from ..result import SearchResult
from ..trace import Tracer, format_log
from .parser import CliParser, add_game_commands, add_search_options, fail
from .position import game_and_position
from .report import result_text

_ALGORITHM_FLAGS = {"fail_soft": "--fail-hard", "exact_root": "--exact", "time": "--time",
                   "nodes": "--nodes"}

DEFAULT_ALGORITHM = "engine"
"""What solve, analyze and trace search with unless ``--algorithm`` says otherwise."""


def _algorithm_options(args: argparse.Namespace, *, exact_root: bool) -> dict[str, Any]:
    """The algorithm-specific options the user set, refused where the algorithm lacks them."""
    chosen: dict[str, Any] = {}
    if not args.fail_soft:
        chosen["fail_soft"] = False
    if args.exact_root or exact_root:
        chosen["exact_root"] = True
    for budget in ("time", "nodes"):
        if getattr(args, budget, None) is not None:
            chosen[budget] = getattr(args, budget)
    supported = ALGORITHMS[args.algorithm].options
    for name in chosen:
        if name not in supported and not (name == "exact_root" and args.algorithm == "minimax"):
            fail(f"{_ALGORITHM_FLAGS[name]} does not apply to --algorithm {args.algorithm}")
    if args.algorithm == "minimax":
        chosen.pop("exact_root", None)  # minimax values every root move exactly anyway
    return chosen


def _run_search(args: argparse.Namespace, *, exact_root: bool,
                traced: bool = False) -> tuple[Any, Any, SearchResult[Any], Tracer[Any, Any]]:
    game, state = game_and_position(args)
    tracer: Tracer[Any, Any] = Tracer(game) if traced else Tracer.off()
    result = search(game, state, algorithm=args.algorithm, depth=args.depth,
                    by_distance=args.by_distance, seed=args.seed, tracer=tracer,
                    **_algorithm_options(args, exact_root=exact_root))
    return game, state, result, tracer


def run_solve(args: argparse.Namespace) -> int:
    """``gametree solve``: the value of a position and the best move."""
    game, state, result, _ = _run_search(args, exact_root=False)
    if args.json:
        print(json.dumps(result.to_dict(game, state)))
    else:
        print(result_text(game, state, result))
    return 0


def run_analyze(args: argparse.Namespace) -> int:
    """``gametree analyze``: the exact value of every legal move."""
    game, state, result, _ = _run_search(args, exact_root=True)
    if args.json:
        print(json.dumps(result.to_dict(game, state)))
    else:
        print(result_text(game, state, result, analysis=True))
    return 0


def run_trace(args: argparse.Namespace) -> int:
    """``gametree trace``: the search's log, step by step."""
    game, state, result, tracer = _run_search(args, exact_root=False, traced=True)
    if args.json:
        document = result.to_dict(game, state)
        document["events"] = [event.as_dict() for event in tracer.events]
        print(json.dumps(document))
    else:
        print(format_log(tracer.events, by_distance=args.by_distance))
        print(result_text(game, state, result))
    return 0


def add_commands(subparsers: Any) -> None:
    """Register ``solve``, ``analyze`` and ``trace``."""
    commands = (
        ("solve", run_solve, "value a position and choose the best move",
         "Search a position (by default the start) and print its value, the best move, the "
         "principal variation and the value of every root move."),
        ("analyze", run_analyze, "the exact value of every legal move",
         "Search every legal move with a full window and print each one's exact value "
         "(seed 000's \"Score for position i\")."),
        ("trace", run_trace, "print the search step by step (seed 004's log)",
         "Print every step of the search as an indented log in the style of seed 004's Sticks "
         "game: moves tried, scores, alpha and beta, pruned branches. Use --depth to keep it "
         "short, --json for the events as data."),
    )
    for name, run, summary, description in commands:
        common = CliParser(add_help=False)
        add_search_options(common, default_algorithm=DEFAULT_ALGORITHM)
        command = subparsers.add_parser(name, help=summary, description=description)
        add_game_commands(command, common)
        command.set_defaults(run=run)
