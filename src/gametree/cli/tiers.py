"""Choosing between the Python and the compiled tier for a search (``--tier``).

``auto`` takes the compiled tier when the game has a compiled form for its options and nothing
asks for the Python tier: an explicit ``--algorithm``, ``--fail-hard``, or a trace (the
compiled engine keeps no trace). ``compiled`` insists, and says why when it cannot. Budgets
(``--time``, ``--nodes``) work on both tiers.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..result import SearchResult
from .parser import fail

if TYPE_CHECKING:
    from ..compiled.form import CompiledForm


def _reason_against_compiled(args: argparse.Namespace, traced: bool) -> str | None:
    if traced:
        return "trace follows the search step by step, which only the Python tier records"
    if not getattr(args, "fail_soft", True):
        return "--fail-hard is an option of the Python tier's alphabeta"
    if getattr(args, "algorithm_given", False):
        return f"--algorithm {args.algorithm} names a Python-tier algorithm"
    return None


def compiled_form(args: argparse.Namespace, game: Any, *,
                  traced: bool = False) -> CompiledForm[Any, Any] | None:
    """The game's compiled form if the compiled tier should search, else ``None``.

    Exits with a usage error when ``--tier compiled`` insists and the compiled tier cannot.
    When a form is returned, the first compilation of its kernel is announced on stderr.
    """
    tier = getattr(args, "tier", "auto")
    if tier == "python":
        return None
    reason = _reason_against_compiled(args, traced)
    form = None
    if reason is None:
        try:
            form = game.compiled_form()
        except ValueError as error:
            reason = str(error)
        else:
            if form is None:
                reason = f"{args.game} has no compiled form"
    if form is None:
        if tier == "compiled":
            fail(f"--tier compiled: {reason}")
        return None
    from ..compiled import set_compile_listener  # noqa: PLC0415 - only when compiling

    set_compile_listener(lambda message: print(f"gametree: {message}", file=sys.stderr,
                                               flush=True))
    chosen: CompiledForm[Any, Any] = form
    return chosen


def search_compiled(args: argparse.Namespace, form: CompiledForm[Any, Any], state: Any, *,
                    exact_root: bool) -> SearchResult[Any]:
    """Search ``state`` on the compiled tier with the command's options."""
    from ..compiled.form import compiled_search  # noqa: PLC0415 - imports numba
    from ..compiled.startup import without_blas_probe  # noqa: PLC0415

    # The built-in kernels never call BLAS: skip numba's SciPy probe (0.3 s of start-up).
    with without_blas_probe():
        return compiled_search(form, state, depth=args.depth, weak=args.weak,
                               by_distance=args.by_distance,
                               exact_root=args.exact_root or exact_root, seed=args.seed,
                               time=args.time, nodes=args.nodes)


def weakened(result: SearchResult[Any]) -> SearchResult[Any]:
    """A Python-tier result reported as a weak solution: win, draw or loss only (the values
    become 1, 0, -1 with distance scoring off, as the compiled tier's weak results are)."""
    def sign(value: float) -> int:
        return (value > 0) - (value < 0)

    from ..result import MoveValue  # noqa: PLC0415

    moves = tuple(MoveValue(entry.move, sign(entry.value), entry.bound)
                  for entry in result.moves)
    value = sign(result.value)
    return SearchResult(best_move=result.best_move, value=value, moves=moves, pv=result.pv,
                        stats=result.stats, algorithm=result.algorithm, depth=result.depth,
                        by_distance=False, outcome=result.outcome, plies=None,
                        exhaustive=result.exhaustive)
