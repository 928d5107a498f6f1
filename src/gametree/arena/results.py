"""A match's results: saved one game a line (JSON lines), read back to resume, and summed up
as a crosstable, Elo estimates and SPRT counts.

The file's first line describes the match (``{"match": {...}}``: the game and its options, the
engines' names and specs, the openings, the seed, the games per pairing); every other line is
one game (:func:`game_row`): its number, its players, its opening, the first player's score,
the moves and the game as a record (docs/records.md). A match started again with the same file
and the same description plays only the games it lacks (more games per pairing may be asked
for); a file of another match is refused.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .openings import OpeningSource
from .schedule import Match, Played
from .stats import Estimate, Model, pentanomial, trinomial

FORMAT = "gametree-match"
"""The ``format`` of a match file's first line."""


def header(match: Match, source: OpeningSource) -> dict[str, Any]:
    """The match's description, as the file's first line holds it."""
    # Options as JSON has them (a tuple as a list), so that a file read back compares equal.
    options = json.loads(json.dumps(match.options))
    return {"format": FORMAT, "version": 1, "game": match.game, "options": options,
            "engines": [{"name": engine.name, "spec": engine.spec} for engine in match.engines],
            "openings": source.text(), "opening_lines": [list(line) for line in match.openings],
            "seed": match.seed, "games": match.games}


def game_row(played: Played) -> dict[str, Any]:
    """One game as a line of the file."""
    task = played.task
    return {"game": task.index, "players": list(task.players), "pairing": list(task.pairing),
            "opening": task.opening, "seed": task.seed, "score": played.score,
            "moves": list(played.moves), "seconds": round(played.seconds, 3),
            "record": played.record}


def saved_openings(path: str | os.PathLike[str], description: dict[str, Any]
                   ) -> list[tuple[str, ...]]:
    """The openings a match file at ``path`` holds for the match of ``description`` (its
    ``game``, ``options``, ``openings`` and ``seed``), so that a resumed match need not check
    them again; none if there is no such file."""
    try:
        with Path(path).open(encoding="utf-8") as file:
            first = json.loads(file.readline()).get("match")
    except (OSError, UnicodeDecodeError, ValueError, AttributeError):
        return []
    keys = ("format", "game", "options", "openings", "seed")
    if not isinstance(first, dict) or any(first.get(key) != description.get(key)
                                          for key in keys):
        return []
    lines = first.get("opening_lines")
    if not isinstance(lines, list) or not all(isinstance(line, list) for line in lines):
        return []
    return [tuple(str(move) for move in line) for line in lines]


class MatchFileError(ValueError):
    """A results file that cannot be used: unreadable, or another match's."""


def _same_match(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """True if two descriptions are of one match (the games per pairing may differ, and a
    longer match's openings begin with a shorter one's)."""
    keys = ("format", "game", "options", "engines", "openings", "seed")
    if any(old.get(key) != new.get(key) for key in keys):
        return False
    lines_old, lines_new = old.get("opening_lines", []), new.get("opening_lines", [])
    shorter = min(len(lines_old), len(lines_new))
    return bool(lines_old[:shorter] == lines_new[:shorter])


class MatchFile:
    """The JSON-lines file of a match: its games so far, and each new one as it ends."""

    def __init__(self, path: str | os.PathLike[str], description: dict[str, Any]) -> None:
        self.path = Path(path)
        """The file."""
        self.rows: dict[int, dict[str, Any]] = {}
        """The games saved so far, by number."""
        if self.path.exists() and self.path.stat().st_size > 0:
            self._read(description)
            self._file = self.path.open("a", encoding="utf-8")
        else:
            self._file = self.path.open("w", encoding="utf-8")
            self._write({"match": description})

    def _read(self, description: dict[str, Any]) -> None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
            first = json.loads(lines[0]).get("match")
        except (OSError, UnicodeDecodeError, ValueError, AttributeError, IndexError) as error:
            raise MatchFileError(f"{self.path}: not a match file ({error})") from None
        if not isinstance(first, dict) or first.get("format") != FORMAT:
            raise MatchFileError(f"{self.path}: not a match file (its first line describes "
                                 f"no match)")
        if not _same_match(first, description):
            raise MatchFileError(f"{self.path} holds another match (other game, engines, "
                                 f"openings or seed): save to another file, or remove it")
        for number, line in enumerate(lines[1:], 2):
            try:
                row = json.loads(line)
                self.rows[int(row["game"])] = row
            except (ValueError, KeyError, TypeError):
                if number == len(lines):  # the last line, cut short by an interrupted run
                    continue
                raise MatchFileError(f"{self.path}, line {number}: not a game") from None
        if len(description.get("opening_lines", [])) > len(first.get("opening_lines", [])) \
                or description.get("games") != first.get("games"):
            # An extended match: the description of the longer one (its openings) leads.
            rows = [json.dumps(row, separators=(",", ":")) for row in self.rows.values()]
            temporary = self.path.with_name(self.path.name + ".new")
            temporary.write_text("\n".join([json.dumps({"match": description}), *rows, ""]),
                                 encoding="utf-8")
            temporary.replace(self.path)
        elif lines and not self.path.read_text(encoding="utf-8").endswith("\n"):
            with self.path.open("a", encoding="utf-8") as file:
                file.write("\n")

    def _write(self, row: dict[str, Any]) -> None:
        self._file.write(json.dumps(row, separators=(",", ":")) + "\n")
        self._file.flush()

    def add(self, played: Played) -> dict[str, Any]:
        """Save a finished game; its row."""
        row = game_row(played)
        self.rows[played.task.index] = row
        self._write(row)
        return row

    def close(self) -> None:
        """Close the file."""
        self._file.close()


# -- summing up ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """One engine's games (against one opponent, or the whole field), from its side."""

    wins: int
    draws: int
    losses: int
    pairs: tuple[int, int, int, int, int]
    """Complete pairs of games (one opening, colours swapped) scoring 0, 1/2, 1, 3/2, 2."""

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """Points scored: a win 1, a draw 1/2."""
        return self.wins + self.draws / 2

    def estimate(self, model: Model) -> Estimate | None:
        """The Elo difference with its 95% interval (``None`` with nothing to count)."""
        if model == "pentanomial":
            return pentanomial(self.pairs) if sum(self.pairs) else None
        return trinomial(self.wins, self.draws, self.losses) if self.games else None

    def counts(self, model: Model) -> list[int]:
        """The cells an SPRT counts: games lost, drawn, won, or the pairs."""
        return list(self.pairs) if model == "pentanomial" else \
            [self.losses, self.draws, self.wins]


def mine(row: dict[str, Any], engine: int) -> float:
    """``engine``'s score in the game of ``row``."""
    score = float(row["score"])
    return score if row["players"][0] == engine else 1 - score


def tally(rows: Iterable[dict[str, Any]], engine: int, opponent: int | None = None) -> Tally:
    """``engine``'s games against ``opponent`` (``None``: against everyone)."""
    scores = []
    pairs: dict[tuple[int, int, int], list[float]] = {}
    for row in rows:
        if engine not in row["players"]:
            continue
        other = row["players"][1] if row["players"][0] == engine else row["players"][0]
        if opponent is not None and other != opponent:
            continue
        score = mine(row, engine)
        scores.append(score)
        a, b = row["pairing"]
        pairs.setdefault((a, b, row["opening"]), []).append(score)
    cells = [0] * 5
    for pair in pairs.values():
        if len(pair) == 2:
            cells[round(2 * sum(pair))] += 1
    return Tally(scores.count(1.0), scores.count(0.5), scores.count(0.0),
                 (cells[0], cells[1], cells[2], cells[3], cells[4]))


def crosstable(rows: Sequence[dict[str, Any]], names: Sequence[str], model: Model
               ) -> list[list[str]]:
    """The crosstable as rows of cells: a header, then one row per engine (its points
    against each other engine, its total, its Elo against the field with the interval)."""
    table = [["engine", *names, "score", f"Elo vs field (95%, {model})"]]
    for engine, name in enumerate(names):
        cells = [name]
        for other in range(len(names)):
            if other == engine:
                cells.append("-")
                continue
            against = tally(rows, engine, other)
            cells.append(f"{against.points:g}/{against.games}" if against.games else "")
        field = tally(rows, engine)
        estimate = field.estimate(model)
        cells.append(f"{field.points:g}/{field.games}")
        cells.append(estimate.text() if estimate is not None else "-")
        table.append(cells)
    return table


def prefix(rows: dict[int, dict[str, Any]]) -> int:
    """How many games from the first are all finished (the SPRT counts these, so that its
    decision does not depend on the order in which parallel games end)."""
    count = 0
    while count in rows:
        count += 1
    return count


__all__ = ["FORMAT", "MatchFile", "MatchFileError", "Tally", "crosstable", "game_row",
           "header", "mine", "prefix", "saved_openings", "tally"]
