"""Checking a game against the Game contract: random playouts that test every promise.

:func:`check_game` plays random games from the initial state and checks, on every state it
meets, what the searches rely on (see :class:`gametree.Game` and ``docs/contract.md``):

* ``players`` — :meth:`~gametree.Game.to_move` is the ``int`` 0 or 1, finished states too;
* ``states`` — states are hashable, equal to a copy of themselves (with the same hash), and
  no method of the game changes them;
* ``moves`` — a sequence of distinct hashable moves, the same when asked again, empty exactly
  when the game is over; :meth:`~gametree.Game.order_moves` only reorders them;
* ``outcome`` — ``None`` or a finite real number (not a ``bool``);
* ``evaluate`` — a finite number within ``±HEURISTIC_LIMIT`` on unfinished states;
* ``play`` — leaves its input unchanged and returns a hashable state, the same one when the
  move is played again (every legal move of every state met is played);
* ``key`` — hashable, the same for equal states; states that share a key have the same player
  to move and the same value (exact when the rest of the game is small, else depth-limited);
* ``text`` — ``parse_move(state, format_move(state, move)) == move`` for every legal move,
  text that names no move is refused with :class:`~gametree.IllegalMoveError`, and
  :meth:`~gametree.Game.render` returns text;
* ``length`` — every playout ends within ``max_plies``;
* ``kernel`` — for a game with a compiled form, the kernel's rules (run as plain Python)
  give the same player to move, the same moves in the same order, the same outcome, evaluation
  and successor states;
* ``values`` — the compiled engine's values equal the Python tier's: exact values on positions
  near the end of a game, depth-limited ones elsewhere.

A state with no moves whose outcome is ``None`` is a *horizon* (the search values it with
``evaluate``). The contract allows it for explicit trees, whose numeric leaves are horizons,
and asks real games to give every state without moves an outcome: so horizons are a problem
(of ``outcome``) except in a :class:`gametree.GameTree` or when ``horizons=True``.

The checker never fails on a broken game: an exception raised by one of the game's methods is
a problem that names the method. The same seed gives the same report.

The package's rooms: :mod:`~gametree.check.contract` (the playouts and the per-state checks),
:mod:`~gametree.check.kernel` (the compiled form's rules and values against the game's),
:mod:`~gametree.check.searches` (the budgeted searches both use) and
:mod:`~gametree.check.report` (what :func:`check_game` returns).
"""

from ._base import ERROR_TEXT_LIMIT, LINE_TEXT_LIMIT, STATE_TEXT_LIMIT
from .contract import NONSENSE, check_game
from .kernel import NEAR_END, VALUE_DEPTH
from .report import CHECKS, CheckReport, CheckSummary, Finding

__all__ = ["CHECKS", "ERROR_TEXT_LIMIT", "LINE_TEXT_LIMIT", "NEAR_END", "NONSENSE",
           "STATE_TEXT_LIMIT", "VALUE_DEPTH", "CheckReport", "CheckSummary", "Finding",
           "check_game"]
