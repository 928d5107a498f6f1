"""The JSON API: games, positions, solve, analyze, trace, the engine's reply, trees to draw.

Search answers are the command line's ``--json`` objects (``docs/json.md``); a trace adds
``log``, seed 004's log line of each event (``null`` for events the log leaves out); the
engine's reply adds ``position``, the position after it. Bad input is answered with status 400
and ``{"detail": message}``, the message being the one ``gametree`` prints for the same
arguments.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..cli.listing import spec_json
from ..registry import games
from .jobs import Job, Workshop, failure_message
from .pool import BusyError, SearchPool, TooLongError, WorkerLostError
from .requests import (
    MoveRequest,
    PositionRequest,
    SearchRequest,
    TreeRequest,
    game_arguments,
    move_arguments,
    search_arguments,
)

CLIENT_GONE = 499
"""The status logged for a request whose client went away before the answer (nginx's)."""


def error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """An error answer: ``{"detail": message}``."""
    return JSONResponse({"detail": message}, status_code=status, headers=headers)


async def _disconnected(request: Request) -> None:
    """Return when the client has gone away (the body has been read already)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


class _Answers:
    """How the routes answer: input checked at once, searches through the pool."""

    def __init__(self, pool: SearchPool, workshop: Workshop) -> None:
        self.pool, self.workshop = pool, workshop

    def checked(self, make: Callable[[Any], Job], request: Any) -> Job | JSONResponse:
        """The request's job, checked; or the 400 answer saying what is wrong."""
        try:
            job = make(request)
            self.workshop.check(job)
        except Exception as failure:
            message = failure_message(failure)
            if message is None:
                raise
            return error(400, message)
        return job

    def inline(self, job: Job | JSONResponse) -> Response:
        """A job that searches nothing, answered here (positions, trees to draw)."""
        if isinstance(job, JSONResponse):
            return job
        try:
            return JSONResponse(self.workshop.run(job))
        except Exception as failure:
            message = failure_message(failure)
            if message is None:
                raise
            return error(400, message)

    async def searched(self, http: Request, job: Job | JSONResponse) -> Response:
        """A search, run by the pool; stopped if the client goes away first."""
        if isinstance(job, JSONResponse):
            return job
        task = asyncio.ensure_future(self.pool.run(job))
        gone = asyncio.ensure_future(_disconnected(http))
        done, _pending = await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
        if task not in done:
            task.cancel()  # stops the search in its worker
            return Response(status_code=CLIENT_GONE)
        gone.cancel()
        try:
            reply = task.result()
        except BusyError as busy:
            return error(503, str(busy), {"Retry-After": str(busy.retry_after)})
        except TooLongError as too_long:
            return error(422, str(too_long))
        except WorkerLostError:
            return error(503, "the search process ended unexpectedly; try again",
                         {"Retry-After": "1"})
        status = int(reply["status"])
        if status == 200:
            return JSONResponse(reply["body"])
        return error(status, str(reply["body"]))


def build_router(pool: SearchPool, workshop: Workshop) -> APIRouter:
    """The API's routes over ``pool`` (searches) and ``workshop`` (checks, positions)."""
    router = APIRouter(prefix="/api")
    answers = _Answers(pool, workshop)
    checked, inline, searched = answers.checked, answers.inline, answers.searched

    @router.get("/games", summary="every game, its options and move notation")
    async def list_games() -> Any:
        """As ``gametree games --json``."""
        return [spec_json(spec) for spec in games().values()]

    @router.get("/limits", summary="this server's limits")
    async def limits() -> Any:
        """What one request may ask (``gametree serve --help``)."""
        return pool.limits.as_dict()

    @router.get("/status", summary="the worker pool now")
    async def status() -> Any:
        """Workers, how many are busy, jobs waiting, jobs stopped so far."""
        return pool.status()

    @router.post("/position", summary="a position: the board, who moves, the legal moves")
    async def position(body: PositionRequest) -> Response:
        """The position after ``moves``, for drawing (no search)."""
        return inline(checked(
            lambda r: Job("position", ["solve", *game_arguments(r)], r.tree), body))

    @router.post("/tree", summary="a tree to draw: an explicit tree, or a game to a depth")
    async def tree(body: TreeRequest) -> Response:
        """Every node breadth-first with its parent, move, label, MAX/MIN and leaf value."""
        return inline(checked(lambda r: Job("tree", ["solve", *game_arguments(r)], r.tree,
                                            None if r.depth is None else str(r.depth)), body))

    @router.post("/solve", summary="value a position and choose the best move")
    async def solve(body: SearchRequest, http: Request) -> Response:
        """As ``gametree solve GAME ... --json``."""
        return await searched(http, checked(
            lambda r: Job("solve", search_arguments("solve", r), r.tree), body))

    @router.post("/analyze", summary="the exact value of every legal move")
    async def analyze(body: SearchRequest, http: Request) -> Response:
        """As ``gametree analyze GAME ... --json``."""
        return await searched(http, checked(
            lambda r: Job("analyze", search_arguments("analyze", r), r.tree), body))

    @router.post("/trace", summary="the search step by step (seed 004's log)")
    async def trace(body: SearchRequest, http: Request) -> Response:
        """As ``gametree trace GAME ... --json``, plus ``log``: each event's log line."""
        return await searched(http, checked(
            lambda r: Job("trace", search_arguments("trace", r), r.tree), body))

    @router.post("/move", summary="the engine's reply in a game")
    async def move(body: MoveRequest, http: Request) -> Response:
        """The solve object of the engine's choice, plus ``position`` after its move."""
        return await searched(http, checked(
            lambda r: Job("move", move_arguments(r), r.tree), body))

    return router
