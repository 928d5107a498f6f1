"""The ``solve``, ``analyze`` and ``trace`` commands: search a position and report."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..algorithms import ALGORITHMS, DEFAULT_ALGORITHM, search
from ..game import Game, GameError
from ..registry import GameSpec, get, play_moves
from ..result import SearchResult
from ..trace import Tracer, format_log
from .parser import CliParser, add_game_commands, add_search_options, fail, game_options
from .position import game_and_position
from .report import position_text, result_text
from .tiers import compiled_form, search_compiled, weakened

_ALGORITHM_FLAGS = {"fail_soft": "--fail-hard", "exact_root": "--exact", "time": "--time",
                   "nodes": "--nodes"}


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


def _searcher(args: argparse.Namespace, game: Game[Any, Any], *, exact_root: bool,
              tracer: Tracer[Any, Any] | None = None) -> Callable[[Any], SearchResult[Any]]:
    """How this command searches positions of ``game``: the options checked and the tier
    chosen once, however many positions follow (a moves file has a thousand)."""
    traced = tracer is not None and tracer.enabled
    if args.weak and (args.depth is not None or args.time is not None
                      or args.nodes is not None):
        fail("--weak proves the result of the game: it takes no --depth, --time or --nodes")
    form = compiled_form(args, game, traced=traced)
    if form is not None:
        return lambda state: search_compiled(args, form, state, exact_root=exact_root)
    options = _algorithm_options(args, exact_root=exact_root)

    def on_python_tier(state: Any) -> SearchResult[Any]:
        result = search(game, state, algorithm=args.algorithm, depth=args.depth,
                        by_distance=args.by_distance, seed=args.seed, tracer=tracer,
                        **options)
        return weakened(result) if args.weak else result

    return on_python_tier


def _run_search(args: argparse.Namespace, *, exact_root: bool,
                traced: bool = False) -> tuple[Any, Any, SearchResult[Any], Tracer[Any, Any]]:
    game, state = game_and_position(args)
    tracer: Tracer[Any, Any] = Tracer(game) if traced else Tracer.off()
    result = _searcher(args, game, exact_root=exact_root, tracer=tracer)(state)
    return game, state, result, tracer


def _report(args: argparse.Namespace, *, exact_root: bool, analysis: bool) -> int:
    """Search the position on the command line and print the result as text or JSON."""
    if getattr(args, "moves_file", None) is not None:
        return _run_moves_file(args, exact_root=exact_root)
    spec = get(args.game)
    game, state, result, _ = _run_search(args, exact_root=exact_root)
    if args.json:
        print(json.dumps(spec.result_json(game, state, result)))
    else:
        print(position_text(game, state))
        print()
        print(result_text(game, state, result, analysis=analysis))
        _print_extras(spec, game, state, result)
    return 0


def _print_extras(spec: GameSpec, game: Game[Any, Any], state: Any,
                  result: SearchResult[Any]) -> None:
    """The game's extra result fields (Connect Four's Pons score) as ``name: value`` lines."""
    if spec.extra_json is None:
        return
    for name, value in spec.extra_json(game, state, result).items():
        print(f"{name}: {'not proven' if value is None else value}")


def _read_moves_file(spec: GameSpec, game: Game[Any, Any],
                     path: str) -> list[tuple[int, str, Any, dict[str, Any]]]:
    """Every position of a moves file: ``(line number, moves text, state, expected values)``.

    The whole file is checked before any search starts, so that a bad line stops the run at
    once with a message naming it.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        fail(f"cannot read moves file {path!r}: {reason}")
    positions = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            moves, expected = spec.read_line(line)
            state = play_moves(game, spec.split_moves(moves))
        except (GameError, ValueError) as error:
            fail(f"{path} line {number}: {error}")
        positions.append((number, moves, state, expected))
    return positions


def _run_moves_file(args: argparse.Namespace, *, exact_root: bool) -> int:
    """One search per position of ``--moves-file``, one JSON line out per position."""
    if args.moves:
        fail("give either --moves or --moves-file, not both")
    spec = get(args.game)
    game = spec.make(**game_options(args))
    positions = _read_moves_file(spec, game, args.moves_file)
    searched = _searcher(args, game, exact_root=exact_root)
    for number, moves, state, expected in positions:
        result = searched(state)
        document: dict[str, Any] = {"line": number, "position": moves}
        document.update(spec.result_json(game, state, result))
        if expected:
            document["expected"] = expected
            document["agrees"] = all(document.get(name) == value
                                     for name, value in expected.items())
        print(json.dumps(document), flush=True)
    return 0


def run_solve(args: argparse.Namespace) -> int:
    """``gametree solve``: the value of a position and the best move."""
    return _report(args, exact_root=False, analysis=False)


def run_analyze(args: argparse.Namespace) -> int:
    """``gametree analyze``: the exact value of every legal move."""
    return _report(args, exact_root=True, analysis=True)


def run_trace(args: argparse.Namespace) -> int:
    """``gametree trace``: the search's log, step by step."""
    spec = get(args.game)
    game, state, result, tracer = _run_search(args, exact_root=False, traced=True)
    if args.json:
        document = spec.result_json(game, state, result)
        document["events"] = [event.as_dict() for event in tracer.events]
        print(json.dumps(document))
    else:
        print(position_text(game, state))
        print()
        print(format_log(tracer.events, by_distance=args.by_distance))
        print(result_text(game, state, result))
        _print_extras(spec, game, state, result)
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
        if run is not run_trace:
            common.add_argument(
                "--moves-file", metavar="FILE",
                help="search every position in FILE, one moves text per line (Connect Four: "
                     "Pons' 'moves score' lines), and print one JSON line per position with "
                     "the expected values and whether they agree")
        command = subparsers.add_parser(name, help=summary, description=description)
        add_game_commands(command, common)
        command.set_defaults(run=run)
