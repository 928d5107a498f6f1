"""``gametree db check``: is every stored value right?

Two checks. **Consistency**, for every row: its moves lead (from the database's root) to a
position with the row's key; a finished game holds its outcome; an interior position's value,
distance and best moves are exactly those its stored children give by minimax. **Re-solving**:
a random sample of the positions that are not finished (the frontier's above all, which no
other row vouches for) is solved again from scratch by the engine, and must agree.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..game import Game, GameError
from ..registry import make
from ..service import search
from ..values import seen_from_parent, sign
from .store import Database, Row, engine_value, key_text, stored_value

MAX_PROBLEMS = 20
"""Problems listed in full (the rest are counted)."""


@dataclass
class StoredValuesReport:
    """What ``db check`` found about a database's stored values (not to be confused with
    :class:`gametree.CheckReport`, which is about a game's contract)."""

    rows: int = 0
    interior: int = 0
    resolved: int = 0
    problems: list[str] = field(default_factory=list)
    problem_count: int = 0

    @property
    def ok(self) -> bool:
        """True if nothing was wrong."""
        return self.problem_count == 0

    def problem(self, text: str) -> None:
        """Note a problem."""
        self.problem_count += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(text)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"ok": self.ok, "rows": self.rows, "interior_checked": self.interior,
                "resolved": self.resolved, "problems": self.problem_count,
                "first_problems": self.problems}


def game_of(database: Database) -> Game[Any, Any]:
    """The game a database holds, built from its metadata."""
    options = {name: tuple(value) if isinstance(value, list) else value
               for name, value in database.game_options.items()}
    game = make(database.game_name, **options)
    database.check_game(game)
    return game


def check(database: Database, *, sample: int = 100, seed: int = 0,
          tick: Callable[[int], None] | None = None) -> StoredValuesReport:
    """Check ``database`` (see the module documentation); ``tick(n)`` counts rows checked."""
    game = game_of(database)
    report = StoredValuesReport()
    root = game.initial_state()
    for text in database.meta.get("root", "").split():
        root = game.play(root, game.parse_move(root, text))
    states: dict[str, Any] = {"": root}
    candidates: list[tuple[Row, Any]] = []
    for row in database.rows():
        report.rows += 1
        state = _state(game, states, row, report)
        if tick is not None:
            tick(1)
        if state is None:
            continue
        if key_text(game.key(state)) != row.key:
            report.problem(f"{_name(row)}: its moves lead to a position of another key")
            continue
        outcome = game.outcome(state)
        if outcome is not None or row.kind == "terminal":
            _check_terminal(game, state, row, report)
            continue
        candidates.append((row, state))
        if row.kind == "interior":
            report.interior += 1
            _check_interior(game, database, state, row, report)
    chosen = random.Random(seed).sample(candidates, min(sample, len(candidates)))
    for row, state in chosen:
        result = search(game, state, book=False)  # the engine's own answer, not a book's
        report.resolved += 1
        found = (1 if result.outcome == "win" else -1 if result.outcome == "loss" else 0,
                 result.plies if result.outcome in ("win", "loss") else None)
        if found != (row.value, row.plies):
            report.problem(f"{_name(row)}: stored {_said(row.value, row.plies)}, the engine "
                           f"finds {_said(*found)}")
    return report


def _state(game: Game[Any, Any], states: dict[str, Any], row: Row,
           report: StoredValuesReport) -> Any:
    """The row's position, played from its parent line's (rows come by ply)."""
    parent, _, last = row.moves.rpartition(" ")
    before = states.get(parent)
    try:
        if before is None:  # the parent line is not stored (a twin's line): replay it whole
            before = states[""]
            for text in parent.split():
                before = game.play(before, game.parse_move(before, text))
        state = game.play(before, game.parse_move(before, last)) if last else before
    except GameError as error:
        report.problem(f"{_name(row)}: its moves cannot be played ({error})")
        return None
    states[row.moves] = state
    return state


def _check_terminal(game: Game[Any, Any], state: Any, row: Row, report: StoredValuesReport) -> None:
    outcome = game.outcome(state)
    if outcome is None:
        report.problem(f"{_name(row)}: stored as finished, but the game goes on")
        return
    mine = outcome if game.to_move(state) == 0 else -outcome
    value = sign(mine)
    if (row.value, row.plies) != (value, 0 if value else None) or row.kind != "terminal":
        report.problem(f"{_name(row)}: the game is over ({_said(value, 0 if value else None)}) "
                       f"but the row says {_said(row.value, row.plies)} ({row.kind})")


def _check_interior(game: Game[Any, Any], database: Database, state: Any, row: Row,
                    report: StoredValuesReport) -> None:
    mover = game.to_move(state)
    values: list[tuple[str, int]] = []
    for move in game.moves(state):
        child = game.play(state, move)
        found = database.get(game.key(child))
        name = game.format_move(state, move)
        if found is None:
            report.problem(f"{_name(row)}: the position after {name} is not stored")
            return
        value = engine_value(found.value, found.plies)
        values.append((name, seen_from_parent(value, same_mover=game.to_move(child) == mover)))
    best = max(value for _, value in values)
    names = sorted({name for name, value in values if value == best})
    if stored_value(best) != (row.value, row.plies):
        report.problem(f"{_name(row)}: stored {_said(row.value, row.plies)}, its children "
                       f"give {_said(*stored_value(best))}")
    elif sorted(set(row.best.split())) != names:
        report.problem(f"{_name(row)}: stored best moves {row.best or '(none)'}, its children "
                       f"give {' '.join(names)}")


def _name(row: Row) -> str:
    return f"position {row.moves or '(the root)'!r}"


def _said(value: int, plies: int | None) -> str:
    if value == 0:
        return "a draw"
    return f"{'a win' if value > 0 else 'a loss'} in {plies}"


def export_rows(database: Database, form: str) -> Iterator[str]:
    """The database as lines of ``jsonl`` or ``csv``, in a stable order (by ply, then key)."""
    import csv  # noqa: PLC0415
    import io  # noqa: PLC0415
    import json  # noqa: PLC0415

    if form == "jsonl":
        for row in database.rows():
            yield json.dumps(row.as_dict())
        return
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="")
    writer.writerow(["key", "ply", "moves", "value", "plies", "best", "kind"])
    yield buffer.getvalue()
    for row in database.rows():
        buffer.seek(0)
        buffer.truncate()
        writer.writerow([row.key, row.ply, row.moves, row.value,
                         "" if row.plies is None else row.plies, row.best, row.kind])
        yield buffer.getvalue()


__all__ = ["StoredValuesReport", "check", "export_rows", "game_of"]
