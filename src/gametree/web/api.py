"""The JSON API: games, positions, solve, analyze, trace, the engine's reply, trees to draw,
game records in a game's own text format (chess's PGN) read and written.

Search answers are the command line's ``--json`` objects (``docs/json.md``); a trace adds
``log``, seed 004's log line of each event (``null`` for events the log leaves out); the
engine's reply adds ``position``, the position after it. Every error is ``{"detail": message}``
(:class:`ErrorBody`), one line in the API's own words: 422 for a body the schema refuses, 400
for input only the game or the search can judge, 413, 503 (:data:`ERRORS`, documented for each
route in the OpenAPI schema).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal, TypeVar, cast

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ..compiled.kernel import Kernel
from ..frontend import games_json
from ..records import RecordError, parse_record, transcript_record, transcript_text
from .jobs import Job, NotCompiledError, Workshop, failure_message
from .pool import BusyError, SearchPool, TooLongError, WorkerLostError
from .prepare import kernel_key
from .requests import (
    Models,
    PositionRequest,
    TranscriptRecord,
    TranscriptText,
    TreeRequest,
    move_job,
    position_job,
    search_job,
)

CLIENT_GONE = 499
"""The status logged for a request whose client went away before the answer (nginx's)."""

CHECKING_THREADS = 2
"""Threads that check requests and draw positions and trees, off the event loop (few: they
share the interpreter's lock with the loop, which must keep its turn)."""


class ErrorBody(BaseModel):
    """Every error answer's body."""

    model_config = ConfigDict(extra="forbid")

    detail: str = Field(description="what is wrong, in one line")


ERRORS: dict[int, dict[str, Any]] = {
    400: {"description": "input only the game or the search can judge: an unknown game, a "
                         "game option the game refuses, a move that cannot be played, search "
                         "options that do not go together, or more than the server's limits "
                         "allow (depth, tree size, trace length)"},
    413: {"description": "the body is larger than the server takes "
                         "(gametree serve --max-request-bytes)"},
    415: {"description": "the body is sent with a Content-Type other than application/json"},
    422: {"description": "the body does not match the schema: malformed JSON, a value of the "
                         "wrong type or out of range, an unknown field, a text that is not "
                         "valid Unicode"},
    503: {"description": "every worker is busy and the queue is full, or the search's worker "
                         "process ended, or the search's kernel is being prepared (compiled "
                         "once, in the background: `preparing` says which and how far): try "
                         "again after Retry-After seconds",
          "headers": {"Retry-After": {"description": "seconds to wait before trying again",
                                      "schema": {"type": "integer", "minimum": 1}}}},
    504: {"description": "a search that cannot stop by itself ran past the server's time "
                         "limit and was stopped; nothing was reached"},
}
"""The error statuses the API sends, as the OpenAPI schema documents them (each with
:class:`ErrorBody`)."""


class Preparing(BaseModel):
    """A kernel being prepared: the variant it is for and where it stands."""

    game: str = Field(description="the game's name")
    options: dict[str, Any] = Field(description="the game's options, as read")
    kernel: str = Field(description="the kernel's name", examples=["Connect Four 8x7"])
    state: Literal["checking", "queued", "compiling", "ready", "failed"] = Field(
        description="checking (is it in the cache?), queued (waits for the compile running), "
                    "compiling, ready, failed")
    elapsed: float = Field(description="seconds in this state")
    expected: float | None = Field(
        description="seconds a compile took on this server (the median), or null before the "
                    "first")
    ahead: int = Field(description="compiles to be done before this one starts")
    detail: str | None = Field(description="why it failed (failed only)")


class BusyBody(ErrorBody):
    """A 503's body: what is wrong, and, while the search's kernel is prepared, which."""

    preparing: Preparing | None = Field(
        default=None, description="the kernel being prepared (absent for a busy server)")


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {**ERRORS[status], "model": BusyBody if status == 503 else ErrorBody}
            for status in statuses}


INLINE_ERRORS = _errors(400, 413, 415, 422)
"""What a route that searches nothing can answer besides 200."""

SEARCH_ERRORS = _errors(400, 413, 415, 422, 503, 504)
"""What a search route can answer besides 200."""


def error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """An error answer: ``{"detail": message}`` (a text that is not valid Unicode, say a
    lone surrogate echoed from the request, is sent with it escaped)."""
    safe = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"detail": safe}, status_code=status, headers=headers)


Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])


def _body(model: type[BaseModel]) -> Callable[[Endpoint], Endpoint]:
    """Give an endpoint's ``body`` parameter the request model made when the application
    was (FastAPI reads the model from the annotation)."""

    def annotate(endpoint: Endpoint) -> Endpoint:
        endpoint.__annotations__ = {**endpoint.__annotations__, "body": model}
        return endpoint

    return annotate


async def _disconnected(request: Request) -> None:
    """Return when the client has gone away (the body has been read already)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


class _Answers:
    """How the routes answer: input checked, and positions and trees drawn, in threads (off
    the event loop, which goes on answering others meanwhile); searches through the pool,
    once their kernel is compiled."""

    def __init__(self, pool: SearchPool, workshop: Workshop) -> None:
        self.pool, self.workshop = pool, workshop
        self.threads = ThreadPoolExecutor(max_workers=CHECKING_THREADS,
                                          thread_name_prefix="gametree-check")

    async def _off_loop(self, work: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.threads, work)

    def _checked(self, make: Callable[[Any], Job], request: Any) -> tuple[Job, Kernel | None] \
            | JSONResponse:
        try:
            job = make(request)
            self.workshop.check(job)
            return job, self.workshop.kernel(job)
        except Exception as failure:
            message = failure_message(failure)
            if message is None:
                raise
            return error(400, message)

    async def checked(self, make: Callable[[Any], Job], request: Any) -> tuple[
            Job, Kernel | None] | JSONResponse:
        """The request's job, checked, and the kernel it searches with (in a thread); or the
        400 answer saying what is wrong."""
        return cast("tuple[Job, Kernel | None] | JSONResponse",
                    await self._off_loop(lambda: self._checked(make, request)))

    def _drawn(self, job: Job) -> Response:
        try:
            return JSONResponse(self.workshop.run(job))
        except Exception as failure:
            message = failure_message(failure)
            if message is None:
                raise
            return error(400, message)

    async def inline(self, checked: tuple[Job, Kernel | None] | JSONResponse) -> Response:
        """A job that searches nothing (positions, trees to draw), answered in a thread."""
        if isinstance(checked, JSONResponse):
            return checked
        job = checked[0]
        return cast(Response, await self._off_loop(lambda: self._drawn(job)))

    def preparing(self, key: str) -> Response:
        """503: the search's kernel is being prepared (:class:`PreparingBody`)."""
        preparer = self.pool.preparer
        described = preparer.describe(key)
        wait = preparer.retry_after(key)
        detail = (f"preparing {described['kernel']} for this server: its kernel is compiled "
                  f"once, in the background ({described['state']}, "
                  f"{described['elapsed']:g} s so far); try again in {wait} s")
        return JSONResponse({"detail": detail, "preparing": described}, status_code=503,
                            headers={"Retry-After": str(wait)})

    async def searched(self, http: Request,
                       checked: tuple[Job, Kernel | None] | JSONResponse) -> Response:
        """A search, run by the pool; stopped if the client goes away first; answered
        "preparing" while its kernel compiles (no worker is held for it)."""
        if isinstance(checked, JSONResponse):
            return checked
        job, kernel = checked
        key = None if kernel is None else kernel_key(kernel)
        preparer = self.pool.preparer
        if key is not None and preparer.waiting(key) is not None:
            return self.preparing(key)
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
        except NotCompiledError:
            if key is None or kernel is None:
                return error(503, "the search's kernel is not compiled; try again",
                             {"Retry-After": "5"})
            preparer.ask(key, job.game, job.options, kernel.name)
            return self.preparing(key)
        except TooLongError as too_long:
            return error(504, str(too_long))
        except WorkerLostError:
            return error(503, "the search process ended unexpectedly; try again",
                         {"Retry-After": "1"})
        status = int(reply["status"])
        if status == 200:
            preparer.ready(key)  # searched: its kernel is compiled
            return JSONResponse(reply["body"])
        return error(status, str(reply["body"]))


def build_router(pool: SearchPool, workshop: Workshop, models: Models) -> APIRouter:
    """The API's routes over ``pool`` (searches) and ``workshop`` (the games offered, checks,
    positions), with ``models``' request bodies."""
    router = APIRouter(prefix="/api")
    answers = _Answers(pool, workshop)
    checked, inline, searched = answers.checked, answers.inline, answers.searched
    specs, limits = workshop.specs, workshop.limits

    @router.get("/games", summary="every game, its options and move notation")
    async def list_games() -> Any:
        """As ``gametree games --json`` (the games this server offers)."""
        return games_json(specs)

    @router.get("/limits", summary="this server's limits")
    async def server_limits() -> Any:
        """What one request may ask (``gametree serve --help``)."""
        return pool.limits.as_dict()

    @router.get("/status", summary="the worker pool now")
    async def status() -> Any:
        """Workers, how many are busy, jobs waiting, jobs stopped so far."""
        return pool.status()

    @router.post("/position", summary="a position: the board, who moves, the legal moves",
                 responses=INLINE_ERRORS)
    async def position(body: PositionRequest) -> Response:
        """The position after ``moves``, for drawing (no search)."""
        return await inline(await checked(lambda r: position_job("position", r, specs), body))

    @router.post("/tree", summary="a tree to draw: an explicit tree, or a game to a depth",
                 responses=INLINE_ERRORS)
    async def tree(body: TreeRequest) -> Response:
        """Every node breadth-first with its parent, move, label, MAX/MIN and leaf value."""
        return await inline(await checked(lambda r: position_job("tree", r, specs), body))

    @router.post("/solve", summary="value a position and choose the best move",
                 responses=SEARCH_ERRORS)
    @_body(models.search)
    async def solve(body: PositionRequest, http: Request) -> Response:
        """As ``gametree solve GAME ... --json``."""
        return await searched(http, await checked(
            lambda r: search_job("solve", r, specs, limits, models), body))

    @router.post("/analyze", summary="the exact value of every legal move",
                 responses=SEARCH_ERRORS)
    @_body(models.search)
    async def analyze(body: PositionRequest, http: Request) -> Response:
        """As ``gametree analyze GAME ... --json``."""
        return await searched(http, await checked(
            lambda r: search_job("analyze", r, specs, limits, models), body))

    @router.post("/trace", summary="the search step by step (seed 004's log)",
                 responses=SEARCH_ERRORS)
    @_body(models.search)
    async def trace(body: PositionRequest, http: Request) -> Response:
        """As ``gametree trace GAME ... --json``, plus ``log``: each event's log line."""
        return await searched(http, await checked(
            lambda r: search_job("trace", r, specs, limits, models), body))

    @router.post("/move", summary="the engine's reply in a game", responses=SEARCH_ERRORS)
    @_body(models.move)
    async def move(body: PositionRequest, http: Request) -> Response:
        """The solve object of the engine's choice, plus ``position`` after its move."""
        return await searched(http, await checked(
            lambda r: move_job(r, specs, limits, models), body))

    @router.post("/transcript/read", summary="a game record from a game's own text (PGN)",
                 responses=INLINE_ERRORS)
    async def read_transcript(body: TranscriptText) -> Response:
        """The record (docs/records.md) of the first game in ``text``, in the format that
        ``game`` declares (``GET /api/games``' ``transcript``: chess's PGN), its moves checked;
        as the command line reads a file named ``game.pgn``."""
        spec = specs.get(body.game)
        if spec is None:
            return error(400, f"unknown game {body.game!r}; games: {', '.join(specs)}")
        try:
            return JSONResponse(transcript_record(spec, body.text).to_json())
        except RecordError as fault:
            return error(400, str(fault))

    @router.post("/transcript/write", summary="a game record in its game's own text (PGN)",
                 responses=INLINE_ERRORS)
    async def write_transcript(body: TranscriptRecord) -> Response:
        """``{"name": "PGN", "suffix": ".pgn", "text": ...}``: the record in the format its
        game declares, as the command line writes a file named ``game.pgn``."""
        try:
            record = parse_record(body.record)
            text = transcript_text(record, specs)
        except RecordError as fault:
            return error(400, str(fault))
        form = specs[record.game].transcript
        assert form is not None  # transcript_text refuses a game without one
        return JSONResponse({"name": form.name, "suffix": form.suffix, "text": text})

    return router
