"""Building a database: a whole game by retrograde analysis, or an opening book.

:func:`build` is the one entry point (``gametree db build`` calls it) and takes a
:class:`~gametree.builder.BuildRequest`. It is safe to stop at
any moment — Ctrl-C or ``kill -9`` — and to run again with the same arguments: rows are
committed in batched transactions, a position already stored is never solved again, and the
result is the database an uninterrupted build makes (rows depend only on their positions).
Two builders on one file take turns at writing (SQLite's lock, WAL mode) and never corrupt it;
they may solve the same frontier positions twice, which wastes time but changes nothing.
"""

from __future__ import annotations

import contextlib
import json
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

from .. import __version__
from ..compiled.form import compiled_form_of
from ..db import books
from ..db.store import SCORING, Database, RowTuple, fingerprint, options_text
from ..game import Game, refuse_chance
from ..registry import get, play_moves
from ..service import tier_for
from . import book, executors
from .book import BookNode
from .progress import Progress
from .request import DEFAULT_BATCH, BuildPlan, BuildReport, BuildRequest
from .whole import batches, store_whole_game


def build(request: BuildRequest, *, progress: Progress | None = None) -> BuildReport:
    """Build (or go on building) the database ``request`` describes; ``progress`` hears how
    it goes (default: nothing is shown)."""
    spec = get(request.game)
    options = dict(request.options)
    game = spec.make(**options)
    refuse_chance(game, "a solution database (it stores wins, draws and losses)")
    moves = spec.split_moves(request.moves) if request.moves.strip() else []
    root = play_moves(game, moves) if moves else game.initial_state()
    progress = progress or Progress()
    full_options = {option.name: options.get(option.name, option.default)
                    for option in spec.options}
    meta = {
        "game": request.game, "options": options_text(full_options),
        "fingerprint": fingerprint(game),
        "root": " ".join(game.format_line(game.initial_state(), _moves_of(game, moves))),
        "coverage": request.coverage,
        "plies": "" if request.plies is None else str(request.plies), "scoring": SCORING,
        "gametree_version": __version__, "kernel": _kernel_identity(game),
        "command": request.command or "gametree.builder.build (Python API)",
        "created": str(time.time()), "complete": "0", "timings": "",
    }
    if request.plies is not None:  # the frontier's options must search this game: say so now
        frontier_tier = tier_for(game, request.search)
    with Database.create(request.path, meta) as database:
        report = BuildReport(str(request.path), database.variant, request.coverage)
        run = database.start_run(meta["command"])
        started = time.perf_counter()
        if request.plies is None:
            store_whole_game(database, game, root, request.search.tier, report=report, run=run,
                             batch=request.plan.batch, progress=progress)
        else:
            report.tier = frontier_tier
            # The workers load their engines while this process enumerates the book.
            with executors.start(request.plan, game=game, name=request.game, options=options,
                                 search=request.search) as job:
                _Book(database, game, report, run, request.plan, progress).build(
                    root, request.plies, job)
        report.timings["total"] = time.perf_counter() - started
        database.finish_run(run)
        report.positions = database.count()
        report.complete = True
        database.set_meta({"complete": "1", "timings": json.dumps(
            {name: round(value, 3) for name, value in report.timings.items()})})
    books.forget()  # this process's searches look for books again: this may be one
    return report


def _moves_of(game: Game[Any, Any], texts: list[str]) -> list[Any]:
    state = game.initial_state()
    moves = []
    for text in texts:
        move = game.parse_move(state, text)
        moves.append(move)
        state = game.play(state, move)
    return moves


def _kernel_identity(game: Game[Any, Any]) -> str:
    """The kernel's name and identity (stored in the metadata), or empty when it has none."""
    form = compiled_form_of(game)
    if isinstance(form, str):
        return ""
    return f"{form.kernel.name} {form.kernel.identity() or ''}".strip()


class _Book:
    """An opening book's build, step by step: enumerate the positions, store the finished
    games, solve the frontier (on the workers), back the interior up."""

    def __init__(self, database: Database, game: Game[Any, Any], report: BuildReport, run: int,
                 plan: BuildPlan, progress: Progress) -> None:
        self.database, self.game, self.report, self.run = database, game, report, run
        self.plan, self.progress = plan, progress

    def build(self, root: Any, plies: int, job: executors.Workers) -> None:
        """Every step, in order."""
        began = time.perf_counter()
        nodes = book.enumerate_book(self.game, root, plies)
        self.report.timings["enumerate"] = time.perf_counter() - began
        self.store(book.terminal_row(self.game, node) for node in nodes
                   if node.kind == "terminal")
        frontier = [node for node in nodes if node.kind == "frontier"]
        self.solve_frontier(self.unsolved(frontier), len(frontier), plies, job)
        job.close()  # the workers are done: they stop while the interior is backed up
        backing = time.perf_counter()
        self.store(book.back_up(self.game, nodes, self.stored_values(nodes)))
        self.report.timings["back_up"] = time.perf_counter() - backing

    def store(self, rows: Iterator[RowTuple]) -> None:
        """Store ``rows`` in batched transactions."""
        for rows_batch in batches(rows, self.plan.batch):
            self.report.added += self.database.add(rows_batch, run=self.run)

    def unsolved(self, frontier: list[BookNode]) -> list[BookNode]:
        """The frontier positions not stored yet (all of them unless a build was stopped)."""
        stored = self.database.known(node.key for node in frontier)
        todo = [node for node in frontier if node.key not in stored]
        self.report.skipped = len(frontier) - len(todo)
        if self.report.skipped:
            self.progress.say(f"{self.report.skipped:,} of {len(frontier):,} frontier positions "
                              f"stored already: solving the other {len(todo):,}")
        return todo

    def solve_frontier(self, todo: list[BookNode], total: int, plies: int,
                       job: executors.Workers) -> None:
        """Solve ``todo`` on the workers, committing the rows as they come (at least every
        ``commit_every`` seconds, and whatever was solved when the build is stopped)."""
        chunker = executors.Chunker([(node.state, node.ply, node.line) for node in todo],
                                    job.count, self.plan.chunk, job.lanes)
        solving = time.perf_counter()
        self.progress.start(f"solving {total:,} frontier positions at ply {plies}", len(todo))
        pending = _Pending(self.database, self.report, self.run)
        try:
            for rows in job.run(chunker):
                pending.rows.extend(rows)
                self.report.solved += len(rows)
                self.progress.advance(len(rows))
                if pending.rows and (len(pending.rows) >= DEFAULT_BATCH
                                     or pending.age() >= self.plan.commit_every):
                    pending.commit()
        finally:  # Ctrl-C included: what was solved is kept
            if pending.rows:
                pending.commit()
        self.progress.finish()
        self.report.timings["solve"] = time.perf_counter() - solving

    def stored_values(self, nodes: list[BookNode]) -> dict[str, tuple[int, int | None, int]]:
        """The stored ``(value, plies, player to move)`` of every finished and frontier
        position, which the interior is backed up from."""
        known: dict[str, tuple[int, int | None, int]] = {}
        for node in nodes:
            if node.kind == "interior" or node.key in known:
                continue
            row = self.database.get_text(node.key)
            if row is None:
                raise ValueError(f"{self.database.path}: the position {node.key} is missing "
                                 f"after its solve")
            known[node.key] = (row.value, row.plies, self.game.to_move(node.state))
        return known


class _Pending:
    """Solved frontier rows waiting for their transaction."""

    def __init__(self, database: Database, report: BuildReport, run: int) -> None:
        self.database, self.report, self.run = database, report, run
        self.rows: list[RowTuple] = []
        self.since = time.perf_counter()

    def age(self) -> float:
        """Seconds since the last commit."""
        return time.perf_counter() - self.since

    def commit(self) -> None:
        """Store the rows in one transaction and forget them."""
        # Ctrl-C waits until the rows are committed and forgotten: one arriving between the
        # commit and the forgetting would store them again and count their solves twice.
        with _interrupt_deferred():
            self.report.added += self.database.add(self.rows, run=self.run,
                                                   solved=len(self.rows))
            self.rows, self.since = [], time.perf_counter()


@contextlib.contextmanager
def _interrupt_deferred() -> Iterator[None]:
    """Hold back SIGINT within the block and deliver it at its end (in the main thread;
    elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def handler(number: int, _frame: Any) -> None:
        caught.append(number)

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        signal.raise_signal(signal.SIGINT)


__all__ = ["build"]
