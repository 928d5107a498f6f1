"""Building a database: a whole game by retrograde analysis, or an opening book.

:func:`build` is the one entry point (``gametree db build`` calls it). It is safe to stop at
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
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from .. import __version__
from ..game import Game
from ..registry import get, play_moves
from . import book, executors, retrograde
from .progress import Progress
from .store import SCORING, Database, fingerprint, options_text

DEFAULT_BATCH = 20_000
"""Rows per transaction when storing a whole game."""

FLUSH_SECONDS = 1.0
"""By default a book build stores its solved rows at least this often (one transaction each
time): a ``kill -9`` loses at most this much finished work, plus the tasks in flight."""


@dataclass
class BuildReport:
    """What a build did."""

    path: str
    variant: str
    coverage: str
    """``all`` (the whole game) or ``book``."""
    positions: int = 0
    """Positions in the database at the end."""
    added: int = 0
    """Positions this run stored."""
    solved: int = 0
    """Positions this run solved by search (a book's frontier)."""
    skipped: int = 0
    """Frontier positions found stored already (a resumed build)."""
    tier: str = ""
    """The retrograde analysis's tier (a whole game)."""
    analysed: int = 0
    """Positions the retrograde analysis valued (on its tier's own states: the compiled tier
    may tell apart twins that the database merges)."""
    timings: dict[str, float] = field(default_factory=dict)
    complete: bool = False

    @property
    def rate(self) -> float:
        """Positions per second of the build's main work (retrograde: valuing every position;
        book: solving the frontier)."""
        seconds = self.timings.get("solve", 0.0)
        count = self.solved if self.coverage == "book" else self.analysed
        return count / seconds if seconds > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"file": self.path, "variant": self.variant, "coverage": self.coverage,
                "positions": self.positions, "added": self.added, "solved": self.solved,
                "skipped": self.skipped, "tier": self.tier or None, "analysed": self.analysed,
                "timings": {name: round(value, 3) for name, value in self.timings.items()},
                "positions_per_second": round(self.rate, 1), "complete": self.complete}


def build(path: str, game_name: str, options: Mapping[str, Any] | None = None, *,
          plies: int | None = None, moves: str = "", workers: int | None = None,
          executor: str = "local", address: str | None = None, chunk: int | None = None,
          batch: int = DEFAULT_BATCH, tier: str = "auto", progress: Progress | None = None,
          commit_every: float = FLUSH_SECONDS, command: str = "") -> BuildReport:
    """Build (or continue building) the database at ``path``.

    ``plies=None``: the whole game from the root, by retrograde analysis (``tier``: where).
    ``plies=N``: an opening book of every position within N moves of the root, the frontier
    solved on ``executor`` (``local``: ``workers`` processes, default every core, 1: this
    process; ``ray``: a Ray cluster at ``address``), in tasks of ``chunk`` positions (default:
    sized as the build goes, :class:`gametree.db.executors.Chunker`). ``moves``: the root, as
    moves from the start (default: the start). ``commit_every``: the longest a book build
    keeps solved rows before committing them, in seconds (0: after every task).
    """
    spec = get(game_name)
    options = dict(options or {})
    game = spec.make(**options)
    root = play_moves(game, spec.split_moves(moves)) if moves.strip() else game.initial_state()
    root_text = " ".join(game.format_line(game.initial_state(),
                                          _moves_of(game, spec.split_moves(moves))))
    progress = progress or Progress()
    full_options = {option.name: options.get(option.name, option.default)
                    for option in spec.options}
    meta = {
        "game": game_name, "options": options_text(full_options),
        "fingerprint": fingerprint(game), "root": root_text,
        "coverage": "all" if plies is None else "book",
        "plies": "" if plies is None else str(plies), "scoring": SCORING,
        "gametree_version": __version__, "kernel": _kernel_identity(game),
        "command": command or "gametree.db.build (Python API)", "created": str(time.time()),
        "complete": "0", "timings": "",
    }
    if plies is not None and plies < 0:
        raise ValueError(f"--plies must be >= 0, got {plies}")
    if not commit_every >= 0:  # NaN included
        raise ValueError(f"--commit-every must be >= 0 seconds, got {commit_every}")
    with Database.create(path, meta) as database:
        report = BuildReport(str(path), database.variant, meta["coverage"])
        run = database.start_run(meta["command"])
        started = time.perf_counter()
        if plies is None:
            _whole_game(database, game, root, report, run, tier, batch, progress)
        else:
            # The workers load their engines while this process enumerates the book.
            with executors.start(executor, game=game, name=game_name, options=options,
                                 workers=workers, address=address) as job:
                _book(database, game, root, plies, report, run, job, chunk, progress,
                      commit_every)
        report.timings["total"] = time.perf_counter() - started
        database.finish_run(run)
        report.positions = database.count()
        report.complete = True
        database.set_meta({"complete": "1", "timings": json.dumps(
            {name: round(value, 3) for name, value in report.timings.items()})})
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
    try:
        form = game.compiled_form()
    except ValueError:
        return ""
    if form is None:
        return ""
    return f"{form.kernel.name} {form.kernel.identity() or ''}".strip()


def _batches(rows: Iterable[Any], size: int) -> Iterator[list[Any]]:
    iterator = iter(rows)
    while batch := list(islice(iterator, size)):
        yield batch


def _whole_game(database: Database, game: Game[Any, Any], root: Any, report: BuildReport,
                run: int, tier: str, batch: int, progress: Progress) -> None:
    """Retrograde analysis in memory, then the rows stored in batches (those already there,
    from an interrupted run, are kept)."""
    progress.say(f"retrograde analysis of {report.variant}...")
    solution = retrograde.solve(game, root, tier=tier)
    report.tier = solution.tier
    report.timings.update(compile=solution.seconds_compile, solve=solution.seconds_solve,
                          replay=solution.seconds_replay)
    stored = time.perf_counter()
    report.analysed = solution.graph.size
    rows = list(retrograde.whole_game_rows(game, solution))
    progress.start("storing positions", len(rows))
    for rows_batch in _batches(rows, batch):
        report.added += database.add(rows_batch, run=run)
        progress.advance(len(rows_batch))
    progress.finish()
    report.timings["store"] = time.perf_counter() - stored


def _book(database: Database, game: Game[Any, Any], root: Any, plies: int,
          report: BuildReport, run: int, job: executors.Workers, chunk: int | None,
          progress: Progress, commit_every: float) -> None:
    """Enumerate, store the finished games, solve the frontier, back the interior up."""
    began = time.perf_counter()
    nodes = book.enumerate_book(game, root, plies)
    report.timings["enumerate"] = time.perf_counter() - began
    terminal = [book.terminal_row(game, node) for node in nodes if node.kind == "terminal"]
    for rows_batch in _batches(terminal, DEFAULT_BATCH):
        report.added += database.add(rows_batch, run=run)
    frontier = [node for node in nodes if node.kind == "frontier"]
    stored = database.known(node.key for node in frontier)
    todo = [node for node in frontier if node.key not in stored]
    report.skipped = len(frontier) - len(todo)
    if report.skipped:
        progress.say(f"{report.skipped:,} of {len(frontier):,} frontier positions stored "
                     f"already: solving the other {len(todo):,}")
    chunker = executors.Chunker([(node.state, node.ply, node.line) for node in todo],
                                job.count, chunk)
    solving = time.perf_counter()
    progress.start(f"solving {len(frontier):,} frontier positions at ply {plies}", len(todo))
    waiting: list[executors.RowTuple] = []
    flushed = time.perf_counter()

    def commit() -> None:
        # Ctrl-C waits until the rows are committed and forgotten: one arriving between the
        # commit and the forgetting would store them again and count their solves twice.
        nonlocal waiting, flushed
        with _interrupt_deferred():
            report.added += database.add(waiting, run=run, solved=len(waiting))
            waiting, flushed = [], time.perf_counter()

    try:
        for rows in job.run(chunker):
            waiting.extend(rows)
            report.solved += len(rows)
            progress.advance(len(rows))
            if waiting and (len(waiting) >= DEFAULT_BATCH
                            or time.perf_counter() - flushed >= commit_every):
                commit()
    finally:  # Ctrl-C included: what was solved is kept
        if waiting:
            commit()
    progress.finish()
    job.close()  # the workers are done: they stop while the interior is backed up
    report.timings["solve"] = time.perf_counter() - solving
    backing = time.perf_counter()
    known: dict[str, tuple[int, int | None, int]] = {}
    movers = {node.key: game.to_move(node.state) for node in nodes if node.kind != "interior"}
    for node_key, mover in movers.items():
        row = database.get_text(node_key)
        if row is None:
            raise ValueError(f"{database.path}: the position {node_key} is missing after its "
                             f"solve")
        known[node_key] = (row.value, row.plies, mover)
    interior = list(book.back_up(game, nodes, known))
    for rows_batch in _batches(interior, DEFAULT_BATCH):
        report.added += database.add(rows_batch, run=run)
    report.timings["back_up"] = time.perf_counter() - backing


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


__all__ = ["DEFAULT_BATCH", "FLUSH_SECONDS", "BuildReport", "build"]
