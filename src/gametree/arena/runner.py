"""A match from start to end: the games not yet saved played (in parallel), each saved as it
ends, an SPRT watched, and what came out gathered for the front-end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .results import MatchFile, prefix, tally
from .schedule import Match, Played, run
from .stats import Decision, Model, Sprt


@dataclass
class Outcome:
    """What a match came to."""

    rows: dict[int, dict[str, Any]]
    """Every game played (this run's and a resumed file's), by number."""

    counted: int
    """Games counted in the results: the first ``counted`` games (all of them unless an SPRT
    decided earlier or the match was cut short)."""

    decision: Decision | None = None
    """The SPRT's conclusion (``None``: no SPRT)."""

    llr: float | None = None
    """The SPRT's log-likelihood ratio over the games counted."""

    played_now: int = 0
    """Games played by this run (the others came from the file)."""

    def counted_rows(self) -> list[dict[str, Any]]:
        """The games the results count, in order."""
        return [self.rows[index] for index in range(self.counted)]


def sprt_state(sprt: Sprt, rows: dict[int, dict[str, Any]], model: Model
               ) -> tuple[float, Decision, int]:
    """The SPRT over the first finished games: its ratio, its decision, the games counted
    (the first engine's results against the second)."""
    counted = prefix(rows)
    ordered = [rows[index] for index in range(counted)]
    counts = tally(ordered, 0, 1).counts(model)
    return sprt.llr(counts), sprt.decide(counts), counted


def play_match(match: Match, store: MatchFile, *, workers: int, sprt: Sprt | None = None,
               model: Model = "pentanomial",
               on_game: Callable[[Played, Outcome], None] | None = None) -> Outcome:
    """Play the games of ``match`` that ``store`` lacks and save each; stop when ``sprt``
    decides (it needs exactly two engines)."""
    if sprt is not None and len(match.engines) != 2:
        raise ValueError(f"the SPRT compares two engines; this match has "
                         f"{len(match.engines)}")
    rows = {index: row for index, row in store.rows.items() if index < match.total}
    outcome = Outcome(rows, prefix(rows))
    if sprt is not None:
        outcome.llr, decision, counted = sprt_state(sprt, rows, model)
        if decision != "continue":
            outcome.decision, outcome.counted = decision, counted
            return outcome
    tasks = [task for task in match.tasks() if task.index not in rows]

    def done(played: Played) -> bool:
        rows[played.task.index] = store.add(played)
        outcome.played_now += 1
        outcome.counted = prefix(rows)
        if sprt is not None:
            outcome.llr, decision, counted = sprt_state(sprt, rows, model)
            if decision != "continue":
                outcome.decision, outcome.counted = decision, counted
        if on_game is not None:
            on_game(played, outcome)
        return outcome.decision is None

    run(match, tasks, workers, done)
    if sprt is not None and outcome.decision is None:
        outcome.decision = "continue"
    return outcome


__all__ = ["Outcome", "play_match", "sprt_state"]
