"""The application: the API (:mod:`gametree.web.api`), the three pages and their static files,
the request-size limit, and answers for every error (one line of JSON, never a traceback)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..frontend import offered_games
from ..plugins import share_added_games
from .api import build_router, error
from .jobs import Workshop
from .limits import ServerLimits
from .pool import SearchPool
from .requests import Models

STATIC = Path(__file__).resolve().parent / "static"
"""The pages' HTML, CSS and JavaScript modules (shipped in the package)."""


JSON_TYPES = ("application/json",)
"""The Content-Type of the API's request bodies (``+json`` types are taken too)."""


class Bodies:
    """Request bodies as the API takes them, checked before the app reads them: a body larger
    than ``limit`` bytes is refused with 413; one sent without the Content-Type of JSON, with
    415 naming the header; one that does not arrive in full within ``timeout`` seconds
    (a client that declares more than it sends), with 408, and the connection is closed."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float) -> None:
        self.app, self.limit, self.timeout = app, limit, timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the body (up to the limit, within the time) first, then hand it to the app."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(self.limit, send)
            return
        chunks: list[bytes] = []
        size = 0
        deadline = asyncio.get_running_loop().time() + self.timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), timeout=max(left, 0.0))
            except TimeoutError:
                await _answer(error(408, f"the request body did not arrive within "
                                         f"{self.timeout:g} s (gametree serve --body-timeout): "
                                         f"{size:,} bytes of {_declared(declared)} came",
                                    {"Connection": "close"}), send)
                return
            if message["type"] != "http.request":
                await self.app(scope, receive, send)  # disconnected early: let the app see it
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await _too_large(self.limit, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        wrong = _not_json(scope["method"], body, headers.get(b"content-type", b""))
        if wrong is not None:
            await _answer(error(415, wrong), send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _declared(declared: bytes | None) -> str:
    return "the length declared" if declared is None else f"{int(declared):,} declared"


def _not_json(method: str, body: bytes, content_type: bytes) -> str | None:
    """Why a request's body is not one the API reads for its Content-Type, or ``None``: a
    POST's body is JSON, sent with ``Content-Type: application/json`` (which FastAPI needs to
    read it as JSON; ``curl -d`` without ``-H`` sends a form's type)."""
    if method != "POST" or not body:
        return None
    kind = content_type.split(b";", 1)[0].strip().lower().decode("latin-1")
    if kind in JSON_TYPES or kind.endswith("+json"):
        return None
    got = f"this request's Content-Type is {kind!r}" if kind else "this request has none"
    return (f"the body must be JSON, sent with the header Content-Type: application/json "
            f"({got}; with curl: -H 'Content-Type: application/json')")


async def _too_large(limit: int, send: Send) -> None:
    await _answer(error(413, f"the request is larger than this server takes ({limit:,} bytes; "
                             f"gametree serve --max-request-bytes)"), send)


async def _answer(response: Response, send: Send) -> None:
    await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


def _validation_text(failure: RequestValidationError) -> str:
    """Pydantic's complaints about a request body, in one line."""
    parts = []
    for item in failure.errors():
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        parts.append(f"{where}: {item.get('msg', 'invalid')}" if where else
                     str(item.get("msg", "invalid")))
    return "; ".join(parts) or "invalid request"


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html")


def create_app(limits: ServerLimits | None = None, *,
               games: Sequence[str] | None = None,
               prepare: Sequence[str] | None = None) -> FastAPI:
    """The ``gametree serve`` application; its worker processes start with the app's
    lifespan (``with TestClient(app)``, or uvicorn).

    ``games``: the games it offers, each a path, ``"package.module:NAME"`` or
    ``"path/to/file.py:NAME"`` naming a :class:`~gametree.registry.GameSpec`, a ``Game``
    subclass or a factory, or a module or file alone whose ``SPEC`` is used
    (:func:`gametree.registry.spec_at`); the worker processes import the same paths, so a game
    defined outside the package is served and searched. ``None``: the registry's games (the
    installed plugins included, which each worker loads too; a game added by
    :func:`~gametree.registry.register` in this process reaches the workers by the name its
    ``GameSpec`` is bound to, :func:`gametree.plugins.share_added_games`, or is refused here). The
    request models are made now, from the search options declared now
    (:func:`gametree.frontend.options_type`).

    ``prepare``: the names of the games whose kernels, at their default sizes, are checked
    and compiled in the background when the server starts (:mod:`gametree.web.prepare`);
    ``None``: every game offered (``gametree serve``). Other variants are compiled when first
    asked for.
    """
    limits = limits or ServerLimits()
    paths = None if games is None else tuple(games)
    specs = offered_games(paths)  # a bad path is refused now, not in a worker
    if paths is None:
        share_added_games()  # games register()ed here, for the workers (or refused now)
    unknown = [name for name in prepare or () if name not in specs]
    if unknown:
        raise ValueError(f"cannot prepare {', '.join(unknown)}: not a game offered "
                         f"({', '.join(specs)})")
    pool = SearchPool(limits, paths)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await pool.start()
        chosen = specs if prepare is None else {name: specs[name] for name in prepare}
        pool.preparer.start(chosen)  # their kernels, in the background
        try:
            yield
        finally:
            await pool.close()

    # The API's pages (/docs, /redoc) with Swagger UI and ReDoc served from the package
    # (fastapi-offline ships them), not from FastAPI's default CDN: they work offline too.
    app = FastAPIOffline(
        title="gametree", lifespan=lifespan, favicon_url="/static/favicon.svg",
        summary="Game-tree search in the browser: play, explain, analyse.",
        description="The JSON API of `gametree serve`. Search answers are the objects "
                    "`gametree solve|analyze|trace --json` prints (docs/json.md); every error "
                    "is `{\"detail\": message}`: 422 for a body the schema refuses, 400 for "
                    "input only the game or the search can judge, 503 (with Retry-After) "
                    "while the server is busy or a search's kernel is being prepared.")
    app.state.pool = pool
    app.state.games = specs
    app.include_router(build_router(pool, Workshop(specs, limits), Models()))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, failure: RequestValidationError) -> Response:
        return error(422, _validation_text(failure))

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, failure: HTTPException) -> Response:
        return error(failure.status_code, str(failure.detail), failure.headers)

    @app.exception_handler(RecursionError)
    async def too_deep(_request: Request, _failure: RecursionError) -> Response:
        return error(400, "the request nests too deep")

    @app.exception_handler(Exception)
    async def internal(_request: Request, failure: Exception) -> Response:
        return error(500, f"internal error: {type(failure).__name__}")

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return _page("index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        # The pages link /static/favicon.svg; this answers browsers (and the API's pages)
        # that ask for the icon at the usual place.
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/play", include_in_schema=False)
    async def play_index() -> Response:
        return _page("index.html")

    @app.get("/play/{game}", include_in_schema=False)
    async def play(game: str) -> Response:
        if game not in specs:
            return error(404, f"unknown game {game!r}; games: {', '.join(specs)}")
        return _page("play.html")

    @app.get("/explain", include_in_schema=False)
    async def explain() -> Response:
        return _page("explain.html")

    @app.get("/analyse", include_in_schema=False)
    @app.get("/analyze", include_in_schema=False)
    async def analyse() -> Response:
        return _page("analyse.html")

    app.add_middleware(Bodies, limit=limits.max_request_bytes, timeout=limits.body_timeout)
    return app
