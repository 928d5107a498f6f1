"""The games of a match and who plays them: a round robin over the engines, each opening
played twice with the colours swapped, run in this process or on a pool of worker processes.

The games are numbered in the order they are handed out: for each opening pair in turn, every
pairing of engines plays its two games (the first engine of the pairing moves first in the
first game). So a match stopped early (Ctrl-C, an SPRT decision) has played about as many games
of every pairing, and each game's number fixes its opening, its players, its colours and its
seed. A game depends on nothing else: its players are built fresh for it
(:meth:`~gametree.arena.players.EngineConfig.player`) with their tables cleared, so seeded
games give the same moves whatever ran before them, on one worker or many.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import random
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from ..game import Game, is_chance
from ..records import GameRecord, options_json, result_of
from ..registry import get, make
from .openings import Checker, Opening, balanced_opening, opening_state
from .players import EngineConfig, Player, SearchPlayer


@dataclass(frozen=True)
class Match:
    """What a match plays: the game, its engines and openings, and how many games."""

    game: str
    """The game's registry name."""

    options: dict[str, Any]
    """The game's options (as ``registry.make`` takes them)."""

    engines: tuple[EngineConfig, ...]
    """The players."""

    openings: tuple[Opening, ...]
    """One opening per pair of games of a pairing (as many as the pairings' pairs)."""

    games: int
    """Games per pairing."""

    seed: int
    """The seed every game's own seed comes from."""

    @property
    def pairings(self) -> list[tuple[int, int]]:
        """Every pair of engines (by index), in order."""
        return list(itertools.combinations(range(len(self.engines)), 2))

    @property
    def total(self) -> int:
        """Games in the whole match."""
        return self.games * len(self.pairings)

    def tasks(self) -> Iterator[Task]:
        """Every game of the match, in order."""
        pairings = self.pairings
        index = 0
        for pair in range((self.games + 1) // 2):
            for a, b in pairings:
                for swap in (False, True):
                    if 2 * pair + swap >= self.games:
                        continue
                    first, second = (b, a) if swap else (a, b)
                    yield Task(index, (first, second), (a, b), pair, self.seed * 1_000_003
                               + index)
                    index += 1


@dataclass(frozen=True)
class Task:
    """One game of a match."""

    index: int
    """Its number in the match (0, 1, ...)."""

    players: tuple[int, int]
    """The engines (by index) moving first and second."""

    pairing: tuple[int, int]
    """The pairing it belongs to (engine indices, in the match's order)."""

    opening: int
    """The opening it starts from (its index); the pairing plays it twice."""

    seed: int
    """Its seed: the players' ties and levels, and chance moves."""


@dataclass(frozen=True)
class Played:
    """A finished game."""

    task: Task
    """Which game."""

    score: float
    """The first player's score: 1 won, 0.5 drawn, 0 lost."""

    moves: tuple[str, ...]
    """Every move as text, the opening's included."""

    record: dict[str, Any]
    """The game as a game record (docs/records.md)."""

    seconds: float
    """How long the game took."""


_games: dict[tuple[str, str], Game[Any, Any]] = {}
"""The games this process has built, by name and options (one game object per worker)."""


def _game(name: str, options: dict[str, Any]) -> Game[Any, Any]:
    key = (name, repr(sorted(options.items())))
    if key not in _games:
        _games[key] = make(name, **options)
    return _games[key]


def play(match: Match, task: Task) -> Played:
    """Play one game of ``match``."""
    game = _game(match.game, match.options)
    started = time.perf_counter()
    opening = match.openings[task.opening]
    state = opening_state(game, opening)
    texts = list(opening)
    values: list[dict[str, Any] | None] = [None] * len(texts)
    chance = random.Random(f"gametree-match-chance|{task.seed}")
    sides: list[tuple[Player, Game[Any, Any]]] = []
    try:
        for number in task.players:
            player, seen = match.engines[number].player(game, task.seed)
            if isinstance(player, SearchPlayer):
                player.opponent.session(seen).clear()  # nothing learnt in another game
            sides.append((player, seen))
        while not game.is_over(state) and game.moves(state):
            chance_move = is_chance(game, state)
            if chance_move:
                outcomes = game.chance_outcomes(state)
                move = chance.choices([item[0] for item in outcomes],
                                      weights=[float(item[1]) for item in outcomes])[0]
            else:
                player, seen = sides[game.to_move(state)]
                move = player.choose(seen, state)
            values.append(None if chance_move else player.value())
            texts.append(game.format_move(state, move))
            state = game.play(state, move)
    finally:
        for player, _ in sides:
            player.close()
    result = result_of(game, state)
    winner = None if result is None else result["winner"]
    score = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
    names = tuple(match.engines[number].name for number in task.players)
    record = GameRecord(match.game, options_json(get(match.game), match.options),
                        (names[0], names[1]), moves=texts, values=values,
                        result=result)
    return Played(task, score, tuple(texts), record.to_json(), time.perf_counter() - started)


def _balance(name: str, options: dict[str, Any], line: Opening, depth: int) -> bool:
    """In a worker: whether ``line`` is a balanced opening (:mod:`.openings`)."""
    return balanced_opening(_game(name, options), line, depth)


@contextlib.contextmanager
def balance_checks(name: str, options: dict[str, Any], depth: int, workers: int
                   ) -> Iterator[Checker | None]:
    """A checker of balanced openings on ``workers`` processes (``None`` for one worker:
    :func:`~.openings.make_openings` checks in this process)."""
    if workers <= 1:
        yield None
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(
            "spawn"), initializer=_ignore_interrupts) as pool:
        yield lambda lines: list(pool.map(_balance, *zip(
            *((name, options, line, depth) for line in lines), strict=True)))


def _ignore_interrupts() -> None:
    """In a worker: leave Ctrl-C to the process that runs the match (it stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run(match: Match, tasks: Sequence[Task], workers: int,
        done: Callable[[Played], bool]) -> None:
    """Play ``tasks``, calling ``done`` with each finished game (in the order they finish);
    ``done`` returns ``False`` to stop the match (the games in flight are abandoned).

    One worker plays in this process; more start that many processes (spawned: a process
    that may hold numba's threads is never forked), each playing one game at a time.
    """
    if workers <= 1:
        for task in tasks:
            if not done(play(match, task)):
                return
        return
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=_ignore_interrupts)
    pending = iter(tasks)
    running: set[Future[Played]] = set()
    try:
        for task in itertools.islice(pending, 2 * workers):
            running.add(pool.submit(play, match, task))
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                if not done(future.result()):
                    return
                following = next(pending, None)
                if following is not None:
                    running.add(pool.submit(play, match, following))
    except BaseException:  # Ctrl-C or a failed game: the games in flight are not waited for
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        raise
    finally:
        for future in running:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["Match", "Played", "Task", "balance_checks", "default_workers", "play", "run"]
