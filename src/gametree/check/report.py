"""The report of :func:`gametree.check_game`: one summary per check and every problem found."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ._base import _line_text

CHECKS: Final = ("players", "states", "moves", "outcome", "evaluate", "play", "key", "text",
                 "length", "kernel", "values")
"""The checks, in the order a report lists them."""


@dataclass(frozen=True)
class Finding:
    """One problem found: the method at fault, what was wrong, and where."""

    check: str
    """The check that found it (one of :data:`CHECKS`)."""

    method: str
    """The method at fault (``to_move``, ``play``; ``kernel moves`` for the kernel's)."""

    message: str
    """What happened and what was expected."""

    state: str | None = None
    """The state where it happened, drawn by ``render`` on one line (shortened)."""

    line: tuple[str, ...] | None = None
    """The moves that lead there from the initial state (``()``: the initial state itself)."""

    count: int = 1
    """How many times the same problem was seen (only the first is described)."""

    def where(self) -> str:
        """``at the start: <state>`` or ``after 1 3: <state>``; empty if no state is known.

        A line of more than :data:`LINE_TEXT_LIMIT` moves is shortened (:meth:`to_dict` keeps
        all of it).
        """
        if self.line is None:
            return ""
        place = "at the start" if not self.line else f"after {_line_text(self.line)}"
        return place if self.state is None else f"{place}: {self.state}"

    def text(self) -> str:
        """The finding on one line."""
        where = self.where()
        seen = f" (seen {self.count} times)" if self.count > 1 else ""
        return f"{self.method}: {self.message}{seen}" + (f" -- {where}" if where else "")

    def to_dict(self) -> dict[str, Any]:
        """The finding as a JSON-ready dict."""
        return {"check": self.check, "method": self.method, "message": self.message,
                "state": self.state, "line": None if self.line is None else list(self.line),
                "count": self.count}


@dataclass(frozen=True)
class CheckSummary:
    """What one check looked at, and how it went."""

    name: str
    """The check (one of :data:`CHECKS`)."""

    status: str
    """``ok``, ``FAIL`` (it found problems) or ``skip`` (it could not run; :attr:`summary`
    says why)."""

    summary: str
    """What was checked and how many states, moves or positions."""

    problems: int
    """How many distinct problems it found."""

    def to_dict(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict."""
        return {"name": self.name, "status": self.status, "summary": self.summary,
                "problems": self.problems}


@dataclass(frozen=True)
class CheckReport:
    """The result of :func:`check_game`: a summary per check, the problems found, notes."""

    game: str
    """The game's :attr:`~gametree.Game.name`."""

    seed: int
    """The seed of the random playouts (the same seed gives the same report)."""

    playouts: int
    """Random games played from the initial state."""

    max_plies: int
    """The longest playout allowed before the game is called endless."""

    states: int
    """Distinct states checked."""

    moves: int
    """Moves played (every legal move of every state checked)."""

    checks: tuple[CheckSummary, ...]
    """One summary per check, in the order of :data:`CHECKS`."""

    findings: tuple[Finding, ...]
    """Every problem found, each described once with the number of times it was seen."""

    notes: tuple[str, ...] = ()
    """Remarks that are not problems (a check skipped, horizons in an explicit tree)."""

    warnings: tuple[str, ...] = ()
    """What is not wrong but costs: a game whose key makes symmetric or transposed positions
    one, with a kernel that has no key (the compiled tier then searches each of them)."""

    @property
    def passed(self) -> bool:
        """True if no problem was found."""
        return not self.findings

    def text(self) -> str:
        """The report as lines of text: a header, a line per check followed by its findings,
        the notes, and a verdict."""
        lines = [f"checked {self.game}: {self.playouts} random playouts from the start "
                 f"(seed {self.seed}), {self.states} states, {self.moves} moves"]
        for summary in self.checks:
            lines.append(f"{summary.status:<4}  {summary.name:<8}  {summary.summary}")
            lines.extend(f"      - {finding.text()}" for finding in self.findings
                         if finding.check == summary.name)
        lines.extend(f"warning: {warning}" for warning in self.warnings)
        lines.extend(f"note: {note}" for note in self.notes)
        if self.passed:
            lines.append("passed: no problems found")
        else:
            count = len(self.findings)
            lines.append(f"failed: {count} problem{'s' if count != 1 else ''} found")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready dict."""
        return {"game": self.game, "passed": self.passed, "seed": self.seed,
                "playouts": self.playouts, "max_plies": self.max_plies, "states": self.states,
                "moves": self.moves, "checks": [summary.to_dict() for summary in self.checks],
                "findings": [finding.to_dict() for finding in self.findings],
                "notes": list(self.notes), "warnings": list(self.warnings)}


__all__ = ["CHECKS", "CheckReport", "CheckSummary", "Finding"]
