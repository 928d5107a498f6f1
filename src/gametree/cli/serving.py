"""The ``serve`` command: the browser front-end and its JSON API (:mod:`gametree.web`)."""

from __future__ import annotations

import argparse
import sys
import threading
import webbrowser
from typing import Any

from ..pool import DEFAULT_POOL_LIMIT, MIB
from .parser import non_negative_int, positive_int, positive_seconds

EVERY_INTERFACE = ("0.0.0.0", "::", "")
"""Addresses that bind every network interface."""


def _port(text: str) -> int:
    value = positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {text!r}")
    return value


def page_url(host: str, port: int) -> str:
    """The address to open in a browser."""
    shown = "127.0.0.1" if host in EVERY_INTERFACE else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def run_serve(args: argparse.Namespace) -> int:
    """``gametree serve``: start the server and serve until interrupted."""
    import uvicorn  # noqa: PLC0415 - only this command needs the server

    from ..web.app import create_app  # noqa: PLC0415
    from ..web.limits import ServerLimits  # noqa: PLC0415

    limits = ServerLimits(
        max_time=args.max_time, max_depth=args.max_depth, max_events=args.max_events,
        max_tree_nodes=args.max_tree_nodes, max_request_bytes=args.max_request_bytes,
        workers=args.workers, queue_size=args.queue_size, body_timeout=args.body_timeout,
        engine_pool_bytes=args.engine_pool_mib * MIB)
    if args.host in EVERY_INTERFACE:
        print(f"gametree serve: warning: binding {args.host or 'every interface'} serves "
              f"every network this machine is on; anyone who can reach it can use the "
              f"server's CPU (use --host 127.0.0.1 to serve this machine only)",
              file=sys.stderr)
    url = page_url(args.host, args.port)
    app = create_app(limits, games=args.game)  # a bad --game is refused here, in one line
    config = uvicorn.Config(app, host=args.host, port=args.port,
                            log_level="warning", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    first = next(iter(app.state.games))
    print(f"gametree serve: open {url} (play {url}play/{first}, explain {url}explain, "
          f"analyse {url}analyse, API {url}docs); Ctrl-C stops", flush=True)
    if args.open:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    server.run()
    return 0


def add_command(subparsers: Any) -> None:
    """Register ``serve``."""
    command = subparsers.add_parser(
        "serve", help="play, explain and analyse in the browser (and a JSON API)",
        description="Serve the browser front-end: play any game against the engine, watch a "
                    "search step by step on a tree, analyse a position; and the JSON API "
                    "(documented at /docs). Binds 127.0.0.1 unless told otherwise.")
    command.add_argument("--host", default="127.0.0.1",
                         help="the address to bind (default: 127.0.0.1, this machine only; "
                              "0.0.0.0 or :: binds every interface)")
    command.add_argument("--port", type=_port, default=8000, help="the port (default: 8000)")
    command.add_argument("--open", action="store_true", help="open the page in a browser")
    command.add_argument("--game", action="append", metavar="PATH",
                         help="serve this game: a file or an import path naming a GameSpec, "
                              "a Game subclass or a factory (path/to/file.py:NAME, "
                              "package.module:NAME, or a file or module alone for its SPEC); "
                              "repeat for more (default: every game, plugins included)")
    limits = command.add_argument_group("limits (per request, and of the worker pool)")
    limits.add_argument("--max-time", type=positive_seconds, default=5.0, metavar="SECONDS",
                        help="seconds one search may take (default: 5); the engine answers "
                             "with its deepest search completed by then, other searches are "
                             "stopped")
    limits.add_argument("--max-depth", type=positive_int, default=64, metavar="N",
                        help="the largest depth a request may ask for (default: 64)")
    limits.add_argument("--max-events", type=positive_int, default=5000, metavar="N",
                        help="the most events a trace may hold (default: 5000)")
    limits.add_argument("--max-tree-nodes", type=positive_int, default=5000, metavar="N",
                        help="the most nodes of a tree, given or drawn (default: 5000)")
    limits.add_argument("--max-request-bytes", type=positive_int, default=65536, metavar="N",
                        help="the largest request body (default: 65536)")
    limits.add_argument("--workers", type=positive_int, default=2, metavar="N",
                        help="worker processes: searches at the same time (default: 2)")
    limits.add_argument("--queue-size", type=non_negative_int, default=64, metavar="N",
                        help="searches that may wait for a worker; more get 503 with "
                             "Retry-After (default: 64)")
    limits.add_argument("--body-timeout", type=positive_seconds, default=10.0,
                        metavar="SECONDS",
                        help="seconds a request's body has to arrive in full; beyond, 408 "
                             "and the connection is closed (default: 10)")
    limits.add_argument("--engine-pool-mib", type=non_negative_int,
                        default=DEFAULT_POOL_LIMIT // MIB, metavar="N",
                        help="MiB of compiled engines (their tables) each worker keeps for "
                             "its next searches, the least recently used dropped beyond it; "
                             f"0: none (default: {DEFAULT_POOL_LIMIT // MIB})")
    command.set_defaults(run=run_serve)
