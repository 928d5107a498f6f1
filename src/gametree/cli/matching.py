"""The ``match`` command: engines against each other in a round robin, rated (docs/matches.md)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from .parser import CliParser, add_game_commands, game_options, positive_int

DEFAULT_GAMES = 20
"""Games per pairing unless told."""

DEFAULT_OPENINGS = "random:2"
"""Openings unless told: two random moves, each opening played with both colours."""

DESCRIPTION = (
    "Play engines against each other: a round robin of two or more engines (--engine SPEC, "
    "given once per engine: depth=6, time=0.5, level=3, perfect, tier=python, "
    "table-memory=16MiB, eval=module:function, or uci=/usr/games/stockfish,skill=0,time=0.1 "
    "for chess; name=LABEL names it) over GAMES games per pairing, each opening played twice "
    "with the colours swapped, on every core. Prints a crosstable, each engine's Elo against "
    "the field and each pairing's Elo difference with 95% intervals (a normal approximation: "
    "pentanomial over pairs of games by default), and with --sprt the sequential test's "
    "decision. --save keeps every game (JSON lines, resumable: run the same command again to "
    "finish or extend it); --plot draws the ratings and the scores over the games (PNG, "
    "needs matplotlib). See docs/matches.md."
)


def _sprt(text: str) -> Any:
    from ..arena.stats import parse_sprt  # noqa: PLC0415

    try:
        return parse_sprt(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _openings(text: str) -> Any:
    from ..arena.openings import parse_openings  # noqa: PLC0415

    try:
        return parse_openings(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", action="append", metavar="SPEC", required=True,
                        help="a player (give two or more): settings separated by commas, "
                             "e.g. depth=4 / time=0.2,name=fast / level=3 / perfect / "
                             "uci=/usr/games/stockfish,skill=0,time=0.1 (docs/matches.md)")
    parser.add_argument("--games", type=positive_int, default=DEFAULT_GAMES, metavar="N",
                        help=f"games per pairing (default {DEFAULT_GAMES}); each opening is "
                             f"played twice, colours swapped")
    parser.add_argument("--openings", type=_openings, default=DEFAULT_OPENINGS, metavar="SRC",
                        help="start, random:PLIES, balanced:PLIES[:DEPTH] (no forced result "
                             "within DEPTH plies) or file:PATH (one line of moves per "
                             f"opening); default {DEFAULT_OPENINGS}")
    parser.add_argument("--seed", type=int, default=1, metavar="N",
                        help="the seed of the openings and of every game's own seed (ties, "
                             "levels, chance); default 1")
    parser.add_argument("--workers", type=positive_int, metavar="N",
                        help="processes playing games at once (default: every core)")
    parser.add_argument("--save", metavar="FILE",
                        help="keep every game in this file (JSON lines); an existing file "
                             "of the same match is resumed")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="draw the ratings and the scores over the games (needs "
                             "matplotlib: the 'plot' extra)")
    parser.add_argument("--sprt", type=_sprt, metavar="ELO0,ELO1[,ALPHA,BETA]",
                        help="two engines: stop as soon as a sequential probability ratio "
                             "test decides between ELO0 (H0) and ELO1 (H1) for the first "
                             "engine; alpha and beta default to 0.05")
    parser.add_argument("--model", choices=("pentanomial", "trinomial"),
                        default="pentanomial",
                        help="what the intervals and the SPRT count: pairs of games (one "
                             "opening, colours swapped; default) or single games")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object with the results instead of text")
    parser.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                        help="a progress bar on standard error: auto (default) on a terminal")


def run_match(args: argparse.Namespace) -> int:
    """``gametree match``; returns the exit status."""
    from ..arena.openings import make_openings  # noqa: PLC0415
    from ..arena.players import parse_engines  # noqa: PLC0415
    from ..arena.plot import check_plotting  # noqa: PLC0415
    from ..arena.results import MatchFile, header, saved_openings  # noqa: PLC0415
    from ..arena.runner import play_match  # noqa: PLC0415
    from ..arena.schedule import Match, balance_checks, default_workers  # noqa: PLC0415
    from ..registry import make  # noqa: PLC0415

    options = game_options(args)
    engines = parse_engines(args.engine)
    for engine in engines:
        engine.check(args.game)
    if args.sprt is not None and len(engines) != 2:
        raise ValueError(f"--sprt compares two engines; {len(engines)} were given")
    if args.plot:
        check_plotting()
    game = make(args.game, **options)
    pairs = (args.games + 1) // 2
    workers = args.workers or default_workers()
    source = args.openings
    known = saved_openings(args.save, header(Match(args.game, options, tuple(engines), (),
                                                   args.games, args.seed), source)) \
        if args.save else []
    checking = workers if source.kind == "balanced" and len(known) < pairs else 1
    with balance_checks(args.game, options, source.depth, checking) as check:
        openings = make_openings(game, source, pairs, args.seed, known=known, check=check,
                                 batch=2 * checking)
    match = Match(args.game, options, tuple(engines), tuple(openings), args.games, args.seed)
    description = header(match, source)
    store = MatchFile(args.save, description) if args.save else _Unsaved()
    bar = _progress(args.progress, match.total, len(store.rows))
    try:
        outcome = play_match(match, store,  # type: ignore[arg-type]
                             workers=min(workers, match.total), sprt=args.sprt,
                             model=args.model,
                             on_game=lambda _played, now: bar.update(now) if bar else None)
    finally:
        if bar is not None:
            bar.close()
        store.close()
    rows = outcome.counted_rows()
    names = [engine.name for engine in engines]
    title = _title(args.game, options, match, args.openings.text())
    if args.plot:
        from ..arena.plot import plot_match  # noqa: PLC0415

        plot_match(args.plot, rows, names, args.model, title)
    if args.json:
        print(json.dumps(_summary_json(rows, names, args, outcome, title), indent=2))
    else:
        _print_summary(rows, names, args, outcome, title, workers)
    return 0


class _Unsaved:
    """A results store that keeps the games in memory only (no --save)."""

    def __init__(self) -> None:
        self.rows: dict[int, dict[str, Any]] = {}

    def add(self, played: Any) -> dict[str, Any]:
        from ..arena.results import game_row  # noqa: PLC0415

        row = game_row(played)
        self.rows[played.task.index] = row
        return row

    def close(self) -> None:
        """Nothing to close."""


class _Bar:
    """The progress bar (tqdm on standard error): games played, and the latest SPRT ratio."""

    def __init__(self, total: int, done: int) -> None:
        from tqdm import tqdm  # noqa: PLC0415 - only when a bar is shown

        self._bar = tqdm(total=total, initial=done, unit=" games", file=sys.stderr,
                         dynamic_ncols=True, leave=False)

    def update(self, outcome: Any) -> None:
        self._bar.update(1)
        if outcome.llr is not None:
            self._bar.set_postfix_str(f"LLR {outcome.llr:+.2f}")

    def close(self) -> None:
        self._bar.close()


def _progress(choice: str, total: int, done: int) -> _Bar | None:
    if choice == "never" or (choice == "auto" and not (sys.stderr and sys.stderr.isatty())):
        return None
    return _Bar(total, done)


def _title(name: str, options: dict[str, Any], match: Any, openings: str) -> str:
    shown = ", ".join(
        f"{key}={','.join(map(str, value)) if isinstance(value, tuple) else value}"
        for key, value in options.items() if value is not None and value is not False)
    return (f"{name}{f' ({shown})' if shown else ''}: {match.games} games per pairing, "
            f"openings {openings}, seed {match.seed}")


def _pairings(rows: list[dict[str, Any]], names: list[str], model: Any
              ) -> list[tuple[str, str, Any, Any]]:
    from ..arena.results import tally  # noqa: PLC0415

    found = []
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            counted = tally(rows, a, b)
            found.append((names[a], names[b], counted, counted.estimate(model)))
    return found


def _print_summary(rows: list[dict[str, Any]], names: list[str], args: argparse.Namespace,
                   outcome: Any, title: str, workers: int) -> None:
    from ..arena.results import crosstable  # noqa: PLC0415

    print(title)
    table = crosstable(rows, names, args.model)
    widths = [max(len(row[column]) for row in table) for column in range(len(table[0]))]
    for row in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
              .rstrip())
    print()
    print(f"Head to head (Elo of the first named, 95% interval, {args.model}):")
    for first, second, counted, estimate in _pairings(rows, names, args.model):
        shown = estimate.text() if estimate is not None else "no complete pair yet"
        print(f"  {first} vs {second}: {shown}  (+{counted.wins} ={counted.draws} "
              f"-{counted.losses})")
    if args.sprt is not None:
        lower, upper = args.sprt.bounds
        verdict = {"H0": "H0 accepted", "H1": "H1 accepted",
                   "continue": "no decision yet"}[outcome.decision]
        print(f"SPRT {args.sprt.text()}: LLR {outcome.llr:+.2f} (bounds {lower:+.2f}, "
              f"{upper:+.2f}): {verdict} after {outcome.counted} games")
    played = f"{outcome.played_now} games played now on {workers} worker(s)"
    saved = f"; saved in {args.save} ({len(outcome.rows)} games)" if args.save else ""
    plotted = f"; plot in {args.plot}" if args.plot else ""
    print(f"{played}{saved}{plotted}")


def _estimate_json(estimate: Any) -> dict[str, Any] | None:
    if estimate is None:
        return None

    def number(value: float) -> float | str:
        return value if math.isfinite(value) else str(value)

    return {"elo": number(estimate.elo), "low": number(estimate.low),
            "high": number(estimate.high), "score": estimate.score, "model": estimate.model,
            "observations": estimate.observations}


def _summary_json(rows: list[dict[str, Any]], names: list[str], args: argparse.Namespace,
                  outcome: Any, title: str) -> dict[str, Any]:
    from ..arena.results import tally  # noqa: PLC0415

    engines = []
    for engine, name in enumerate(names):
        field = tally(rows, engine)
        engines.append({"name": name, "spec": args.engine[engine], "wins": field.wins,
                        "draws": field.draws, "losses": field.losses,
                        "points": field.points, "games": field.games,
                        "elo": _estimate_json(field.estimate(args.model))})
    pairings = [{"engines": [first, second], "wins": counted.wins, "draws": counted.draws,
                 "losses": counted.losses, "pairs": list(counted.pairs),
                 "elo": _estimate_json(estimate)}
                for first, second, counted, estimate in _pairings(rows, names, args.model)]
    found: dict[str, Any] = {"title": title, "game": args.game, "games": len(rows),
                             "model": args.model, "engines": engines, "pairings": pairings}
    if args.sprt is not None:
        found["sprt"] = {"elo0": args.sprt.elo0, "elo1": args.sprt.elo1,
                         "alpha": args.sprt.alpha, "beta": args.sprt.beta,
                         "llr": outcome.llr, "bounds": list(args.sprt.bounds),
                         "decision": outcome.decision, "games": outcome.counted}
    if args.save:
        found["saved"] = args.save
    if args.plot:
        found["plot"] = args.plot
    return found


def add_command(subparsers: Any) -> None:
    """Register ``match`` with one sub-command per game."""
    common = CliParser(add_help=False)
    _add_options(common)
    command = subparsers.add_parser("match", help="engines against each other, rated",
                                    description=DESCRIPTION)
    add_game_commands(command, common)
    command.set_defaults(run=run_match)
