"""A Python game's compiled form, and searching a Python state with the compiled engine.

A built-in game keeps its rules in one place, as a Python :class:`gametree.Game`; when it also
has a kernel, that kernel stands next to it (``games/tictactoe_kernel.py`` beside
``games/tictactoe.py``) and the game's :meth:`~gametree.Game.compiled_form` returns a
:class:`CompiledForm`: the kernel plus the two small translations between the forms (a Python
state to a kernel state, a kernel move back to a Python move). The Python state is then
searched with the compiled engine, and the :class:`gametree.SearchResult` has the Python game's
own moves, so reports, JSON and ``format_move`` work unchanged.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import starmap
from typing import Any, Generic, TypeVar, cast

from ..game import ContractError, Game
from ..result import Bound, MoveValue
from .kernel import Kernel

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


@dataclass(frozen=True)
class CompiledForm(Generic[S, M]):
    """A game's kernel and the bridge between its Python and kernel forms."""

    game: Game[S, M]
    """The Python form (the game built with the same options)."""

    kernel: Kernel
    """The compiled form of the rules."""

    encode: Callable[[S], Any]
    """A Python state -> the same position as a kernel state."""

    decode_move: Callable[[S, int], M]
    """``(Python state, kernel move)`` -> the same move as the Python game writes it."""

    moves_need_state: bool = True
    """False when :attr:`decode_move` does not look at the state (Connect Four's columns): the
    principal variation is then decoded without replaying it on the Python form."""

    def moves_of(self, root: S, best: int | None, entries: Sequence[tuple[int, int, Bound]],
                 pv: Sequence[int]) -> tuple[M | None, tuple[MoveValue[M], ...], tuple[M, ...]]:
        """A compiled search's answer at the Python state ``root`` in the game's own moves:
        the best move, each root move's ``(move, value, bound)`` and the principal variation
        (each of its moves decoded in the position it is played from)."""
        decode = self.decode_move
        if decode is same_move:  # the kernel's moves are the game's: nothing to translate
            return cast("tuple[M | None, tuple[MoveValue[M], ...], tuple[M, ...]]",
                        (best, tuple(starmap(MoveValue, entries)), tuple(pv)))
        moves = tuple([MoveValue(decode(root, move), value, bound)
                       for move, value, bound in entries])
        chosen: M | None = None
        if best is not None:  # decoded once already, among the root moves
            for (move, _, _), entry in zip(entries, moves, strict=True):
                if move == best:
                    chosen = entry.move
                    break
            else:
                chosen = decode(root, best)
        if not pv:
            return chosen, moves, ()
        if not self.moves_need_state:  # no need to replay the line to decode its moves
            return chosen, moves, tuple([decode(root, move) for move in pv])
        line = [chosen if pv[0] == best and chosen is not None else decode(root, pv[0])]
        position = root
        for move in pv[1:]:
            position = self.game.play(position, line[-1])
            line.append(decode(position, move))
        return chosen, moves, tuple(line)


def same_move(state: Any, move: int) -> int:
    """The :attr:`CompiledForm.decode_move` of a game whose moves are the kernel's own ints
    (tic-tac-toe's cells, a subtraction game's takes): results carry them as they are."""
    return move


_forms: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
"""Each game's compiled form or the reason it has none (kept per game: forms are cheap to use,
not to build)."""


class NotACompiledFormError(ContractError):
    """A game's :meth:`~gametree.Game.compiled_form` returned something else than a
    :class:`CompiledForm` or ``None``."""

    def __init__(self, game: Game[Any, Any], returned: object) -> None:
        self.problem = (f"returned a {type(returned).__name__}; expected a "
                        f"gametree.compiled.form.CompiledForm or None")
        """What was wrong, without the game's name."""
        super().__init__(f"{game.name}: compiled_form() {self.problem}")


def no_form_reason(game: Game[Any, Any]) -> str:
    """What :func:`compiled_form_of` says of a game without a compiled form."""
    return f"{game.name} has no compiled form"


def compiled_form_of(game: Game[S, M]) -> CompiledForm[S, M] | str:
    """The game's compiled form, or why it has none: every part that runs a game on its kernel (the
    search service, retrograde analysis, a database build, ``gametree check``) finds the form here.

    A game without one gives ``"<name> has no compiled form"`` (:func:`no_form_reason`); a game
    whose kernel cannot hold its present options (its :meth:`~gametree.Game.compiled_form` raised a
    ``ValueError``, such as :class:`~gametree.compiled.KernelError`) gives that error's message. A
    ``compiled_form`` that returns something else than a :class:`CompiledForm` or ``None`` raises
    :class:`NotACompiledFormError` (a :class:`~gametree.ContractError`); any other exception it
    raises is raised as it is. The answer is kept per game (a game that cannot be a weak reference's
    key, or hashed, is asked again each time).
    """
    with contextlib.suppress(TypeError):  # a game that cannot be a key: asked every time
        known = _forms.get(game)
        if known is not None:
            found: CompiledForm[S, M] | str = known
            return found
    try:
        form = game.compiled_form()
    except ValueError as error:  # a kernel, but not for these options (KernelError)
        found = str(error)
    else:
        if form is not None and not isinstance(form, CompiledForm):
            raise NotACompiledFormError(game, form)
        found = form if form is not None else no_form_reason(game)
    with contextlib.suppress(TypeError):
        _forms[game] = found
    return found
