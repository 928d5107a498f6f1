"""What a build is asked (:class:`BuildRequest`, with its :class:`BuildPlan`) and what it
reports (:class:`BuildReport`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..options import OPTION_NAMES, OptionError, SearchOptions

DEFAULT_BATCH = 20_000
"""Rows per transaction when storing a whole game."""

FLUSH_SECONDS = 1.0
"""By default a book build stores its solved rows at least this often (one transaction each
time): a ``kill -9`` loses at most this much finished work, plus the tasks in flight."""

EXECUTORS = ("local", "ray")
"""Where a book's frontier can be solved: ``local`` (this machine's processes) or ``ray``."""

_WHOLE_GAME_OPTIONS = ("tier",)
"""The search options a whole-game build reads (retrograde analysis runs on the tier asked)."""


@dataclass(frozen=True)
class BuildPlan:
    """How a build runs: where a book's frontier is solved and how often rows are committed.

    The database does not depend on the plan: every plan builds the same rows.
    """

    executor: str = "local"
    """``local``: :attr:`workers` threads or processes on this machine; ``ray``: a Ray
    cluster."""

    workers: int | None = None
    """Workers solving the frontier: ``local``, default every core, 1 the builder alone; for
    exact solves on the compiled engine (no budget, ``threads`` 1) threads of the builder over
    one table, each solving its own positions, else processes
    (:func:`gametree.builder.executors.start`); ``ray``, the actors (default: the cluster's
    CPUs)."""

    address: str | None = None
    """The Ray cluster to join (default: the one this process started, else a new local one)."""

    chunk: int | None = None
    """Frontier positions per task (default: sized as the build goes,
    :class:`gametree.builder.executors.Chunker`)."""

    batch: int = DEFAULT_BATCH
    """Rows per transaction when storing a whole game or a book's finished and interior
    positions."""

    commit_every: float = FLUSH_SECONDS
    """The longest a book build keeps solved rows before committing them, in seconds (0: after
    every task): what a ``kill -9`` can lose."""

    def __post_init__(self) -> None:
        if self.executor not in EXECUTORS:
            raise ValueError(f"unknown executor {self.executor!r}; executors: "
                             f"{', '.join(EXECUTORS)}")
        for name in ("workers", "chunk", "batch"):
            number = getattr(self, name)
            if number is None and name != "batch":
                continue
            if isinstance(number, bool) or not isinstance(number, int) or number < 1:
                raise ValueError(f"{name} must be a positive integer, got {number!r}")
        seconds = self.commit_every
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
                or math.isnan(seconds) or seconds < 0:
            raise ValueError(f"commit_every must be >= 0 seconds, got {seconds!r}")


@dataclass(frozen=True)
class BuildRequest:
    """A database to build (or to go on building): which game, which positions, searched how.

    ``plies=None`` stores the whole game from the root, by retrograde analysis on
    ``search.tier`` (the other search options must keep their defaults: every position is
    valued exactly, on one thread). ``plies=N`` stores an opening book: every position within
    N moves of the root, the frontier (at N moves) solved by the search service with
    ``search`` — ``tier``, ``threads``, ``depth`` and the rest mean what they mean for
    :func:`gametree.search` — and the rest backed up by minimax. The frontier must be solved
    exactly, with distance scoring: a search that proves nothing (a depth, time or node budget
    too small) stops the build with an error.
    """

    path: str | Path
    """The database file (created if missing)."""

    game: str
    """The game's registry name (``connect4``)."""

    options: dict[str, Any] = field(default_factory=dict)
    """The game's options (``{"width": 4, "height": 4}``)."""

    plies: int | None = None
    """``None``: the whole game; ``N``: an opening book to N plies."""

    moves: str = ""
    """The root, as moves from the start in the game's notation (default: the start)."""

    search: SearchOptions = field(default_factory=SearchOptions)
    """How the frontier is searched (a book), or the retrograde analysis's tier (a whole game)."""

    plan: BuildPlan = field(default_factory=BuildPlan)
    """How the build runs (workers, executor, transactions)."""

    command: str = ""
    """The command line that asked for the build, stored in the metadata (default: says it
    came from the Python API)."""

    def __post_init__(self) -> None:
        plies = self.plies
        if plies is not None and (isinstance(plies, bool) or not isinstance(plies, int)
                                  or plies < 0):
            raise ValueError(f"plies must be an integer >= 0 (or None: the whole game), got "
                             f"{plies!r}")
        if not isinstance(self.search, SearchOptions):
            raise TypeError(f"search must be SearchOptions, got {type(self.search).__name__}")
        if not isinstance(self.plan, BuildPlan):
            raise TypeError(f"plan must be a BuildPlan, got {type(self.plan).__name__}")
        if plies is None:
            _check_whole_game_search(self.search)
        else:
            _check_frontier_search(self.search)

    @property
    def coverage(self) -> str:
        """``all`` (the whole game) or ``book``."""
        return "all" if self.plies is None else "book"


def _check_whole_game_search(search: SearchOptions) -> None:
    """Retrograde analysis reads the tier only: say so of any other option changed."""
    default = SearchOptions()
    for option in fields(SearchOptions):
        name = option.name
        if name in _WHOLE_GAME_OPTIONS or getattr(search, name) == getattr(default, name):
            continue
        if name == "threads" and search.threads == 0:  # every core: one, as on the Python tier
            continue
        placeholder = {"fail_soft": "{fail_hard}",
                       "by_distance": "plain values (no distance scoring)"}.get(
                           name, f"{{{name}}}" if name in OPTION_NAMES else name)
        raise OptionError(placeholder + " applies to an opening book's frontier search "
                          "only: a whole game is valued exactly by retrograde analysis, on one "
                          "thread")


def _check_frontier_search(search: SearchOptions) -> None:
    """A book stores exact values with their distances: refuse the options that give none."""
    if search.weak:
        raise OptionError("{weak} proves only win, draw or loss: a book stores each "
                          "position's distance to the end too")
    if not search.by_distance:
        raise OptionError("a book stores distances to the end: its frontier is searched with "
                          "distance scoring (not plain values)")


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
    """Where the positions were valued: the retrograde analysis's tier (a whole game), or the
    frontier searches' (a book)."""
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


__all__ = ["DEFAULT_BATCH", "EXECUTORS", "FLUSH_SECONDS", "BuildPlan", "BuildReport",
           "BuildRequest"]
