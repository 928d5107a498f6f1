"""The engine's UCI options: declared once, announced after ``uci``, set by ``setoption``.

=============== ====== ======= ================================================================
name            type   default meaning
=============== ====== ======= ================================================================
Hash            spin   64      the transposition table's size in MiB (kept from move to move)
Clear Hash      button         forget what the table and the move ordering learnt
Depth           spin   0       the most plies any search looks ahead (0: no limit of its own)
Level           spin   10      1 (a beginner) .. 10 (full strength): ``gametree.levels``
Move Overhead   spin   50      milliseconds a move costs besides its search (the process,
                               the pipe, the GUI), kept back for each move to come
                               (:mod:`gametree.uci.clock`)
Ponder          check  false   the GUI may send ``go ponder`` (the engine follows the GUI: it
                               ponders when told to, and ``bestmove`` names the move to ponder)
=============== ====== ======= ================================================================

``Threads`` is not offered: the Python tier's engine searches on one thread.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from ..levels import HIGHEST, LOWEST
from .clock import DEFAULT_OVERHEAD_MS
from .commands import UciError

Kind = Literal["spin", "check", "button", "string"]
"""The option types of UCI this engine uses."""


@dataclass(frozen=True)
class UciOption:
    """One option as the engine announces it."""

    name: str
    """Its name, as the GUI shows and sends it (compared without regard to case)."""
    kind: Kind
    """Its UCI type."""
    field: str
    """The :class:`Settings` field it sets (``""`` for a button)."""
    default: int = 0
    minimum: int = 0
    maximum: int = 0

    def announcement(self) -> str:
        """The ``option name ... type ...`` line sent after ``uci``."""
        if self.kind == "button":
            return f"option name {self.name} type button"
        if self.kind == "check":
            return f"option name {self.name} type check default {str(bool(self.default)).lower()}"
        return (f"option name {self.name} type spin default {self.default} "
                f"min {self.minimum} max {self.maximum}")


OPTIONS: tuple[UciOption, ...] = (
    UciOption("Hash", "spin", "hash_mib", 64, 1, 4096),
    UciOption("Clear Hash", "button", ""),
    UciOption("Depth", "spin", "depth", 0, 0, 100),
    UciOption("Level", "spin", "level", HIGHEST, LOWEST, HIGHEST),
    UciOption("Move Overhead", "spin", "overhead_ms", DEFAULT_OVERHEAD_MS, 0, 5000),
    UciOption("Ponder", "check", "ponder"),
)
"""Every option, in the order they are announced."""


@dataclass(frozen=True)
class Settings:
    """The options' current values."""

    hash_mib: int = 64
    depth: int = 0
    level: int = HIGHEST
    overhead_ms: int = DEFAULT_OVERHEAD_MS
    ponder: bool = False


def find_option(name: str) -> UciOption:
    """The option called ``name`` (any case); :class:`UciError` names the known ones."""
    for option in OPTIONS:
        if option.name.lower() == name.lower():
            return option
    known = ", ".join(option.name for option in OPTIONS)
    raise UciError(f"setoption: no option {name!r} (the options are {known})")


def with_option(settings: Settings, option: UciOption, value: str | None) -> Settings:
    """``settings`` with a spin option set to ``value`` (checked against its range), or a
    check option to ``true`` or ``false``."""
    if value is None:
        raise UciError(f"setoption name {option.name}: the value is missing")
    if option.kind == "check":
        if value.lower() not in ("true", "false"):
            raise UciError(f"setoption name {option.name}: expected true or false, "
                           f"got {value!r}")
        flag: dict[str, Any] = {option.field: value.lower() == "true"}
        return replace(settings, **flag)
    try:
        number = int(value)
    except ValueError:
        raise UciError(f"setoption name {option.name}: expected a whole number, "
                       f"got {value!r}") from None
    if not option.minimum <= number <= option.maximum:
        raise UciError(f"setoption name {option.name}: expected {option.minimum} to "
                       f"{option.maximum}, got {number}")
    spin: dict[str, Any] = {option.field: number}
    return replace(settings, **spin)


__all__ = ["OPTIONS", "Settings", "UciOption", "find_option", "with_option"]
