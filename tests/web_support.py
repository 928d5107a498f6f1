"""Helpers of the web tests: a free port, waiting for a condition, a real server in a thread."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

WAIT = 120.0
"""The longest wait for a condition (a bound on a hang, not a speed test)."""


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for(condition: Callable[[], object], timeout: float = WAIT) -> None:
    """Poll ``condition`` until it is true (errors count as false); fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    last: BaseException | None = None
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except Exception as error:
            last = error
        time.sleep(0.1)
    raise AssertionError(f"condition not met within {timeout} s (last error: {last})")


@contextmanager
def running_server(app: object) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free loopback port in a thread; yield its base URL."""
    import uvicorn  # noqa: PLC0415

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,  # type: ignore[arg-type]
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
