"""OpenSpiel's games searched by gametree's engine through the bridge vs OpenSpiel's own searches.

    pip install 'gametree[openspiel]'        # once: OpenSpiel in the project's environment
    python benchmarks/bench_openspiel.py     # prints one table per game (see --help)

Both contenders play by the same rules, OpenSpiel's C++ games reached through ``pyspiel``, in one
process: gametree's Python-tier engine on :class:`gametree.games.openspiel.OpenSpielGame` (each
move is a ``pyspiel`` call, each state a ``pyspiel`` state) against OpenSpiel's pure-Python
``alpha_beta_search`` (games without chance) or ``expectiminimax`` (games with chance), from
``open_spiel.python.algorithms.minimax``. So the ratio measures the search alone: gametree's
table, move ordering and pruning against plain alpha-beta or expectiminimax. Every game is
solved to its end; positions other than the start are given as OpenSpiel's ``start_at`` game.

**Answers.** Exact values: a proven outcome for alpha-beta (OpenSpiel returns the utility +1, 0
or -1 for the player to move, gametree a proven win, draw or loss), an expected utility for the
player to move, rounded to 9 decimals, with chance; OpenSpiel's chosen move must keep the value
(checked by gametree). **Nodes**: gametree's visited states; OpenSpiel's calls of its recursive
search function (``_alpha_beta`` or ``expectiminimax``, counted by a wrapper in the counting run
only).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from gametree.games.openspiel import OpenSpielGame
from gametree.result import SearchResult
from gametree.values import outcome_of
from harness import (
    BenchmarkError,
    Row,
    answer_after_move,
    answer_from_result,
    check_answers,
    check_moves,
    chosen_algorithm,
    measure_gametree,
    parser,
    run_main,
)
from measure import Answer, Measurement, Search, measure

try:
    from open_spiel.python.algorithms import minimax
except ImportError:
    minimax = None

PEER = "OpenSpiel"
"""The one peer, named as ``--peers`` names it."""

CONNECT_FOUR_LINE = "4;0;4;2;4;6;5;1;0;4;4;5;1;2;0;4;6;0;5;0;5;1"
"""A Connect Four position after 22 random moves (OpenSpiel's columns 0-6), lost for the player
to move: OpenSpiel's alpha-beta proves it in seconds."""


@dataclass(frozen=True)
class Task:
    """One game of the benchmark."""

    name: str
    """The name ``--games`` takes."""

    title: str
    """The table's title."""

    game: str
    """OpenSpiel's game string."""

    chance: bool = False
    """Searched with expectiminimax (the game has chance nodes) rather than alpha-beta."""


TASKS = (
    Task("tictactoe", "tic_tac_toe, solved from the empty board", "tic_tac_toe"),
    Task("nim", "misère nim 3,4,5, solved", "nim(pile_sizes=3;4;5,is_misere=true)"),
    Task("breakthrough", "breakthrough 4x4, solved from the start",
         "breakthrough(rows=4,columns=4)"),
    Task("connect4", "connect_four after 22 random moves, solved",
         f"start_at(history={CONNECT_FOUR_LINE},game=connect_four())"),
    Task("pig", "pig to 10 points, at most 6 moves, solved (expected utility)",
         "pig(winscore=10,horizon=6)", chance=True),
    Task("pig9", "pig to 10 points, at most 9 moves, solved (expected utility)",
         "pig(winscore=10,horizon=9)", chance=True),
    Task("breakthrough45", "breakthrough 4 rows x 5 columns, solved from the start",
         "breakthrough(rows=4,columns=5)"),
)
"""The games that can be measured, in the order of the tables."""

DEFAULT_GAMES = ("tictactoe", "nim", "breakthrough", "connect4", "pig", "pig9")
"""The games measured unless ``--games`` says otherwise (``breakthrough45`` takes OpenSpiel's
alpha-beta over a minute a run)."""


@contextmanager
def counting_calls(name: str) -> Iterator[list[int]]:
    """Count calls of ``minimax.<name>`` (OpenSpiel's recursive search function: its recursion
    goes through the module's global name) while the block runs."""
    original = getattr(minimax, name)
    counter = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        counter[0] += 1
        return original(*args, **kwargs)

    setattr(minimax, name, counted)
    try:
        yield counter
    finally:
        setattr(minimax, name, original)


def openspiel_search(task: Task) -> Callable[[], Answer]:
    """A prepared exact search of ``task``'s initial state by OpenSpiel: its answer for the
    player to move."""
    game = OpenSpielGame(task.game).spiel_game
    state = game.new_initial_state()
    player = state.current_player()

    def search() -> Answer:
        if task.chance:
            value, action = minimax.expectiminimax(state, game.max_game_length(), None, player)
            return {"score": round(value, 9), "move": int(action)}
        value, action = minimax.alpha_beta_search(game, state=state,
                                                  maximum_depth=game.max_game_length())
        return {"outcome": outcome_of(value), "move": int(action)}

    return search


def measure_openspiel(task: Task, *, repeat: int, budget: float) -> Measurement:
    """Measure OpenSpiel's own search of ``task`` with the common protocol."""

    def counted() -> tuple[Answer, int]:
        with counting_calls("expectiminimax" if task.chance else "_alpha_beta") as counter:
            answer = openspiel_search(task)()
        return answer, counter[0]

    def prepare() -> Search:
        return openspiel_search(task)

    return measure(counted, prepare, repeat=repeat, budget=budget)


def answer_of(task: Task) -> Callable[[SearchResult[Any]], Answer]:
    """gametree's answer: its proven outcome and move (OpenSpiel's action), or with chance the
    expected utility for the player to move, rounded as OpenSpiel's."""

    def answer(result: SearchResult[Any]) -> Answer:
        if not task.chance:
            found = answer_from_result(result, int)
            found.pop("plies", None)  # OpenSpiel claims no distance
            return found
        found = {"score": round(float(result.value), 9)}
        if result.best_move is not None:
            found["move"] = int(result.best_move)
        return found

    return answer


def body(options: argparse.Namespace) -> list[tuple[str, Row, list[Row]]]:
    """Measure both contenders on every chosen game and check their answers."""
    if minimax is None:
        raise BenchmarkError("OpenSpiel is not installed: pip install 'gametree[openspiel]'")
    algorithm = chosen_algorithm(options.algorithm)
    chosen = [name.strip() for name in options.games.split(",") if name.strip()]
    known = {task.name: task for task in TASKS}
    unknown = [name for name in chosen if name not in known]
    if unknown:
        raise BenchmarkError(f"unknown game {', '.join(unknown)}; games: {', '.join(known)}")
    peers = [name for name in options.peers.split(",") if name.strip()]
    tables = []
    for task in (known[name] for name in chosen):
        answer = answer_of(task)
        reference = Row(f"gametree ({algorithm}) via the bridge", measure_gametree(
            partial(OpenSpielGame, task.game), algorithm=algorithm, depth=None,
            answer_of=answer, repeat=options.repeat, budget=options.budget))
        search = "expectiminimax" if task.chance else "alpha_beta_search"
        others = [Row(f"{PEER} {search}", measure_openspiel(
            task, repeat=options.repeat, budget=options.budget)) for _peer in peers]
        check_answers(reference, others)
        if not task.chance:
            check_moves(reference, others, answer_after_move(
                OpenSpielGame(task.game), algorithm=algorithm, depth=None, answer_of=answer))
        tables.append((task.title, reference, others))
    return tables


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; exit 0, 1 if the answers differ, 2 if it cannot run."""
    command = parser(__doc__.splitlines()[0], repeat=5, budget=20.0, peers=[PEER])
    others = [task.name for task in TASKS if task.name not in DEFAULT_GAMES]
    command.add_argument("--games", default=",".join(DEFAULT_GAMES),
                         help=f"comma-separated games to measure (default: "
                              f"{','.join(DEFAULT_GAMES)}; also: {','.join(others)})")
    return run_main(body, command, argv)


if __name__ == "__main__":
    sys.exit(main())
