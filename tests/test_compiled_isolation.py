"""Kernels of one rules factory never answer for each other, in memory or in the cache.

Issue 9's reproduction: with the 7x6 and 4x4 Connect Four kernels each cached by its own
process, a process that loaded both answered 4x4 positions with the 7x6 machine code (their
closures shared one qualified name). Here six kernels of two factories (Connect Four 7x6, 4x4,
5x4; tic-tac-toe 3x3, 3x4, 4x4 k=3) are first loaded each by a process of its own (compiling
them if this run's cache lacks them), then all six by one process, in both orders: every
answer must be the one the kernel gives alone, and every exact value the Python tier's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import pytest

from gametree import search

from .isolation_positions import GAMES, positions

SCRIPT = textwrap.dedent('''
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import gametree
    from isolation_positions import GAMES, positions

    answers = {}
    for name in sys.argv[2:]:
        game = GAMES[name]()
        answers[name] = [
            [gametree.search(game, state, tier="compiled").value,
             gametree.search(game, state, tier="compiled", depth=2).value,
             gametree.search(game, state, tier="compiled", by_distance=False).value]
            for state in positions(name, game)]
    print(json.dumps(answers))
''')


def answers_of(*names: str) -> dict[str, list[list[int]]]:
    """Every kernel's answers from one new process that loads ``names`` in that order."""
    here = os.path.dirname(__file__)
    done = subprocess.run([sys.executable, "-c", SCRIPT, here, *names], capture_output=True,
                          text=True, check=False, timeout=900, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    found: dict[str, list[list[int]]] = json.loads(done.stdout)
    return found


@pytest.mark.slow  # compiles six kernels, each in processes of their own
def test_kernels_of_one_factory_loaded_together_from_a_warm_cache() -> None:
    names = list(GAMES)
    alone: dict[str, Any] = {}
    for name in names:  # each kernel by a process of its own: the cache is warm after this
        alone.update(answers_of(name))
    for order in (names, names[::-1]):
        assert answers_of(*order) == alone, order
    for name in names:  # and the compiled values are the Python tier's
        game = GAMES[name]()
        python = [search(game, state, tier="python").value for state in positions(name, game)]
        assert [exact for exact, _, _ in alone[name]] == python, name


def _to_move(state: Any) -> int:
    return int(state[1])


def _moves(state: Any, out: Any) -> int:
    out[0] = 1
    return 1


def _play(state: Any, move: int) -> Any:
    return (state[0] - move, 1 - state[1])


def _outcome(state: Any) -> int:
    return -1 if state[0] == 0 else 2


def _key(state: Any) -> int:
    return int(2 * state[0] + state[1])


def _evaluate(state: Any) -> int:
    return int(state[0])


def test_kernels_of_one_file_and_name_differing_in_a_function_are_told_apart() -> None:
    # The same file, the same name, as many functions: one has a key, the other an evaluation.
    # Their identities (the cache's and the engine pool's names for them) must differ, or a
    # process that compiled one answers for the other.
    from gametree.compiled.kernel import Kernel  # noqa: PLC0415

    rules: dict[str, Callable[..., Any]] = {
        "to_move": _to_move, "moves": _moves, "play": _play, "outcome": _outcome}
    keyed = Kernel.from_functions("heap", initial_state=(3, 0), max_moves=1, max_plies=4,
                                  functions={**rules, "key": _key})
    valued = Kernel.from_functions("heap", initial_state=(3, 0), max_moves=1, max_plies=4,
                                   functions={**rules, "evaluate": _evaluate})
    assert keyed.identity() is not None and valued.identity() is not None
    assert keyed.identity() != valued.identity()
    again = Kernel.from_functions("heap", initial_state=(3, 0), max_moves=1, max_plies=4,
                                  functions={**rules, "key": _key})
    assert again.identity() == keyed.identity()
