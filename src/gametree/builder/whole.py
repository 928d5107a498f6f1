"""A whole game's rows: every position's retrograde value (:mod:`gametree.solvers.retrograde`)
as database rows, breadth first."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from itertools import islice
from typing import Any

from ..compiled.form import compiled_form_of
from ..db.store import Database, RowTuple, key_text, stored_value
from ..game import Game
from ..solvers import retrograde
from ..solvers.retrograde import Solution
from .progress import Progress
from .request import BuildReport


def store_whole_game(database: Database, game: Game[Any, Any], root: Any, tier: str, *,
                     report: BuildReport, run: int, batch: int, progress: Progress) -> None:
    """Retrograde analysis in memory on ``tier``, then the rows stored in batches of
    ``batch`` (those already there, from an interrupted run, are kept)."""
    progress.say(f"retrograde analysis of {report.variant}...")
    solution = retrograde.solve(game, root, tier=tier)
    report.tier = solution.tier
    report.timings.update(compile=solution.seconds_compile, solve=solution.seconds_solve,
                          replay=solution.seconds_replay)
    stored = time.perf_counter()
    report.analysed = solution.graph.size
    rows = list(whole_game_rows(game, solution))
    progress.start("storing positions", len(rows))
    for rows_batch in batches(rows, batch):
        report.added += database.add(rows_batch, run=run)
        progress.advance(len(rows_batch))
    progress.finish()
    report.timings["store"] = time.perf_counter() - stored


def whole_game_rows(game: Game[Any, Any], solution: Solution) -> Iterator[RowTuple]:
    """The database rows of a solved graph, breadth first, one per key of the Python form
    (the first position met of each)."""
    graph = solution.graph
    states = graph.states
    start, move, best = graph.start, graph.move, solution.best
    decode = _decoder(game, solution.tier)
    lines: list[str] = [""] * graph.size
    plies: list[int] = [0] * graph.size
    seen: set[str] = set()
    for node in range(graph.size):
        state = states[node]
        parent = graph.parent[node]
        if parent >= 0:
            parent_state = states[parent]
            text = game.format_move(parent_state, decode(parent_state, graph.parent_move[node]))
            lines[node] = f"{lines[parent]} {text}" if lines[parent] else text
            plies[node] = plies[parent] + 1
        key = key_text(game.key(state))
        if key in seen:
            continue
        seen.add(key)
        names: list[str] = []
        for edge in range(start[node], start[node + 1]):
            if best[edge]:
                name = game.format_move(state, decode(state, move[edge]))
                if name not in names:
                    names.append(name)
        yield (key, plies[node], lines[node], *stored_value(solution.value[node]),
               " ".join(names), "terminal" if graph.outcome[node] is not None else "interior")


def _decoder(game: Game[Any, Any], tier: str) -> Callable[[Any, Any], Any]:
    """How the solution's moves become the Python game's: as they are on the Python tier,
    through the compiled form on the compiled one."""
    if tier == "python":
        return lambda state, move: move
    form = compiled_form_of(game)
    assert not isinstance(form, str), form  # the compiled tier solved it: it has one
    return form.decode_move


def batches(rows: Iterator[RowTuple] | list[RowTuple], size: int) -> Iterator[list[RowTuple]]:
    """``rows`` in lists of ``size`` (the last may be shorter): one transaction each."""
    iterator = iter(rows)
    while batch := list(islice(iterator, size)):
        yield batch


__all__ = ["batches", "store_whole_game", "whole_game_rows"]
