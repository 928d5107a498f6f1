"""Where a book's frontier positions are solved: this process, a local process pool, or Ray.

Every executor runs the same task — :func:`solve_states`: exact solves through the search
service (:func:`gametree.search`, which picks the compiled engine) — on chunks of positions,
and hands back each chunk's rows as it completes, in any order. The rows depend only on the
positions, so a database is the same whichever executor built it.

Workers are long-lived: each builds the game once and solves chunk after chunk, and the search
service keeps its compiled engine (kernel loaded, table allocated) from one solve to the next.
Workers ignore Ctrl-C: the builder, which owns the database, stops them.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_context
from typing import Any

from ..game import Game
from ..registry import make
from .store import key_text

Chunk = tuple[int, list[tuple[Any, int, str]]]
"""A task: its number and its positions, each ``(state, ply, moves line)``."""

Solved = tuple[int, list[tuple[str, int, str, int, int | None, str, str]]]
"""A finished task: its number and its rows."""

EXECUTORS = ("local", "ray")
"""The executors ``--executor`` accepts."""


class ExecutorError(ValueError):
    """An executor that cannot run here (Ray missing, a cluster that cannot be reached)."""


def solve_states(game: Game[Any, Any], positions: Iterable[tuple[Any, int, str]]) -> list[
        tuple[str, int, str, int, int | None, str, str]]:
    """Solve each position exactly (value, distance, best move) and return its row."""
    from ..service import search  # noqa: PLC0415 - the workers' import, not the builder's

    rows = []
    for state, ply, line in positions:
        result = search(game, state)
        if result.outcome is None:
            raise RuntimeError(f"the exact solve of {line!r} proved nothing")
        value = 1 if result.outcome == "win" else -1 if result.outcome == "loss" else 0
        best = "" if result.best_move is None else game.format_move(state, result.best_move)
        rows.append((key_text(game.key(state)), ply, line, value,
                     result.plies if value else None, best, "frontier"))
    return rows


# -- a worker process of the local pool --------------------------------------------------------

_worker_game: Game[Any, Any] | None = None


def _start_worker(name: str, options: Mapping[str, Any]) -> None:
    """A pool worker's set-up: ignore Ctrl-C (the builder handles it), build the game once."""
    global _worker_game  # noqa: PLW0603 - one game per worker process
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_game = make(name, **options)


def _work(chunk: Chunk) -> Solved:
    assert _worker_game is not None
    return chunk[0], solve_states(_worker_game, chunk[1])


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_serial(game: Game[Any, Any], chunks: Iterable[Chunk]) -> Iterator[Solved]:
    """Solve the chunks one after another in this process."""
    for number, positions in chunks:
        yield number, solve_states(game, positions)


def run_pool(name: str, options: Mapping[str, Any], chunks: Iterable[Chunk],
             workers: int) -> Iterator[Solved]:
    """Solve the chunks on ``workers`` local processes, yielding each as it completes. At most
    two chunks per worker are queued at a time, so an interrupted build loses little work."""
    context = get_context("spawn")  # never fork a process that may hold numba's threads
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=_start_worker, initargs=(name, dict(options)))
    pending: set[Future[Solved]] = set()
    todo = iter(chunks)
    try:
        for chunk in todo:
            pending.add(pool.submit(_work, chunk))
            if len(pending) >= 2 * workers:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                following = next(todo, None)
                if following is not None:
                    pending.add(pool.submit(_work, following))
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def run_ray(name: str, options: Mapping[str, Any], chunks: Iterable[Chunk],
            workers: int | None, address: str | None) -> Iterator[Solved]:
    """Solve the chunks on a Ray cluster (``address``; default: the Ray instance this process
    started already, else a new local one), one actor per worker, each keeping its game and
    compiled engine between chunks."""
    ray = import_ray()
    if not ray.is_initialized():
        try:
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                     include_dashboard=False)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise ExecutorError(f"cannot reach the Ray cluster at {address or 'this machine'}: "
                                f"{str(error).splitlines()[0] if str(error) else error}") from None
    count = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    solver = _ray_solver(ray)
    actors = [solver.remote(name, dict(options)) for _ in range(count)]
    pool = ray.util.ActorPool(actors)
    try:
        yield from pool.map_unordered(lambda actor, chunk: actor.solve.remote(chunk), chunks)
    finally:
        for actor in actors:
            ray.kill(actor)


def import_ray() -> Any:
    """The ``ray`` module, or :class:`ExecutorError` with how to install it."""
    try:
        import ray  # noqa: PLC0415 - an optional extra
        import ray.util  # noqa: PLC0415
    except ImportError:
        raise ExecutorError("--executor ray needs Ray, which is not installed: "
                            "pip install 'gametree[ray]'") from None
    return ray


_solver_class: Any = None


def _ray_solver(ray: Any) -> Any:
    """The Ray actor class (defined once Ray is imported)."""
    global _solver_class  # noqa: PLW0603 - made once per process
    if _solver_class is None:
        class Solver:
            """A Ray actor: one game, its compiled engine kept warm between chunks."""

            def __init__(self, name: str, options: dict[str, Any]) -> None:
                self.game = make(name, **options)

            def solve(self, chunk: Chunk) -> Solved:
                return chunk[0], solve_states(self.game, chunk[1])

        _solver_class = ray.remote(num_cpus=1)(Solver)
    return _solver_class


def executor(kind: str, *, game: Game[Any, Any], name: str, options: Mapping[str, Any],
             workers: int | None, address: str | None) -> Callable[[Iterable[Chunk]],
                                                                     Iterator[Solved]]:
    """The function that runs chunks for ``--executor kind`` and ``--workers``."""
    if kind == "ray":
        import_ray()  # a missing Ray is reported before anything is built
        return lambda chunks: run_ray(name, options, chunks, workers, address)
    if kind != "local":
        raise ExecutorError(f"unknown executor {kind!r}; executors: {', '.join(EXECUTORS)}")
    count = default_workers() if workers is None else workers
    if count <= 1:
        return lambda chunks: run_serial(game, chunks)
    return lambda chunks: run_pool(name, options, chunks, count)


__all__ = ["EXECUTORS", "Chunk", "ExecutorError", "Solved", "default_workers", "executor",
           "import_ray", "run_pool", "run_ray", "run_serial", "solve_states"]
