"""What the checks share: the positions and nodes of the playouts, and small helpers that never
raise whatever the game under check does (the checker must not fail on a broken game)."""

from __future__ import annotations

import copy
import math
import pickle
from dataclasses import dataclass, field
from numbers import Real
from typing import TYPE_CHECKING, Any, Final

from ..game import CHANCE, Game
from ..values import Value, format_value

if TYPE_CHECKING:
    pass

STATE_TEXT_LIMIT: Final = 120
"""The longest rendering of a state that a finding quotes."""

LINE_TEXT_LIMIT: Final = 24
"""The most moves of a line that a finding's text shows (its JSON has them all)."""

ERROR_TEXT_LIMIT: Final = 200
"""The longest exception message that a finding quotes."""

_RAISED: Final[Any] = object()
"""What a guarded call returns when the game's method raised (the finding is recorded)."""


@dataclass(frozen=True)
class _Position:
    """A state met in a playout and the texts of the moves that lead to it."""

    state: Any
    line: tuple[str, ...]


@dataclass
class _Node:
    """What the checks learnt about a state (kept, so a state met again is not re-checked).

    ``_RAISED`` stands for what a method could not give because it raised.
    """

    position: _Position
    player: Any
    outcome: Any
    moves: list[Any] = field(default_factory=list)
    """The legal moves (none once the game is over)."""

    estimate: Any = None
    """``evaluate``'s estimate of an unfinished state."""

    children: list[Any] = field(default_factory=list)
    """The state after each of :attr:`moves`, in the same order."""

    texts: list[str] = field(default_factory=list)
    """Each of :attr:`moves` as text."""

    def playable(self) -> list[int]:
        """The indexes of the moves that ``play`` could play."""
        return [index for index, child in enumerate(self.children) if child is not _RAISED]



def _overrides(game: Game[Any, Any], method: str) -> bool:
    """True if ``game`` has its own ``method`` rather than :class:`Game`'s default."""
    own = getattr(game, method, None)
    return getattr(own, "__func__", own) is not getattr(Game, method)


def _is_player(player: Any) -> bool:
    """True for the int 0 or 1 (not a bool)."""
    return isinstance(player, int) and not isinstance(player, bool) and player in (0, 1)


def _number_problem(value: Any) -> str | None:
    """Why ``value`` is not a finite real number, or None if it is one."""
    if isinstance(value, bool) or not isinstance(value, Real):
        return "not a number"
    if not math.isfinite(float(value)):
        return "not finite"
    return None


def _same_outcome(kernel: Any, game: Any) -> bool:
    """The kernel's outcome (None or an int) is the game's."""
    if kernel is None or game is None:
        return kernel is None and game is None
    return bool(kernel == game)


def _outcome_text(outcome: Any) -> str:
    return "no outcome (the game goes on)" if outcome is None else f"the outcome {_shown(outcome)}"


def _value_text(value: Value | None) -> str:
    return "no value" if value is None else format_value(value)


def _searchable(node: _Node) -> bool:
    """True for a node worth searching: the game goes on and there are moves."""
    return node.outcome is None and bool(node.moves) and (
        _is_player(node.player) or node.player == CHANCE)


def _equal(first: Any, second: Any) -> bool:
    """``first == second``, False if comparing raises."""
    try:
        return bool(first == second)
    except Exception:
        return False


def _as_list(moves: Any) -> list[Any] | None:
    try:
        return list(moves)
    except Exception:
        return None


def _hash_or_none(value: Any) -> int | None:
    """``hash(value)``, or None if it cannot be hashed (whatever its ``__hash__`` raises)."""
    try:
        return hash(value)
    except Exception:
        return None


def _shown(value: Any, limit: int = 60) -> str:
    """``repr(value)``, shortened; never raises."""
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return _shortened(text, limit)


def _copy_or(state: Any) -> Any:
    """A deep copy of ``state``, or ``state`` itself if it cannot be copied."""
    try:
        return copy.deepcopy(state)
    except Exception:
        return state


def _fingerprint(state: Any) -> bytes | str | None:
    """Something that changes when ``state`` changes: its pickle, else its repr, else None."""
    try:
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        try:
            return repr(state)
        except Exception:
            return None


def _unpickled(fingerprint: bytes | str, otherwise: Any) -> Any:
    """The state a :func:`_fingerprint` was taken of, as it was then (else ``otherwise``)."""
    if isinstance(fingerprint, bytes):
        try:
            return pickle.loads(fingerprint)  # our own pickle, taken just before
        except Exception:
            pass
    return otherwise


def _error_text(error: BaseException) -> str:
    """``TypeError: message`` on one line, shortened."""
    try:
        first = str(error).strip().splitlines()
    except Exception:
        first = []
    text = f"{type(error).__name__}: {first[0]}" if first else type(error).__name__
    return _shortened(text, ERROR_TEXT_LIMIT)


def _line_text(line: tuple[str, ...]) -> str:
    """The moves of a line, separated by spaces; the middle left out of a long one."""
    if len(line) <= LINE_TEXT_LIMIT:
        return " ".join(line)
    head, tail = line[:LINE_TEXT_LIMIT - 4], line[-4:]
    return f"{' '.join(head)} ... {' '.join(tail)} ({len(line)} moves)"


def _shortened(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."

