"""Helpers of the web tests: a free port, waiting for a condition, a real server in a thread,
and for the browser tests a real Chromium (fixtures ``browser`` and ``images``) with helpers
to read the page."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

WAIT = 120.0
"""The longest wait for a condition (a bound on a hang, not a speed test)."""

PREPARE_WAIT = 1200.0
"""The longest wait for a server's kernels to be prepared (compiles, with a fresh cache)."""


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


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return json.load(answer)


def wait_prepared(status: Callable[[], Any]) -> None:
    """Wait until a server's kernels are prepared (``status()``: its ``GET /api/status``),
    so that its compiled searches are answered rather than told "preparing"."""
    wait_for(lambda: status()["prepared"], timeout=PREPARE_WAIT)


@contextmanager
def running_server(app: object) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free loopback port in a thread; yield its base URL once
    its kernels are prepared."""
    import uvicorn  # noqa: PLC0415

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,  # type: ignore[arg-type]
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started)
    base = f"http://127.0.0.1:{port}"
    wait_prepared(lambda: _get(f"{base}/api/status"))
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@contextmanager
def serving_process(*arguments: str, env: dict[str, str] | None = None
                    ) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``gametree serve ARGUMENTS`` in a process of its own on a free loopback port (the
    environment's PYTHONPATH and kernel cache, unless ``env`` says otherwise); yield its base
    URL and process once it answers (its kernels may still be being prepared)."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "gametree", "serve", "--port", str(port),
                                *arguments], env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: process.poll() is None and _get(f"{base}/api/status"))
        yield base, process
    finally:
        process.terminate()
        process.wait(timeout=60)


# -- the browser tests' Chromium and page helpers ----------------------------------------

SCREENSHOTS_ENV = "GAMETREE_SCREENSHOTS"
BROWSER = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,900")


@pytest.fixture(scope="module")
def images(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go (see the module's docstring)."""
    chosen = os.environ.get(SCREENSHOTS_ENV)
    if chosen:
        path = Path(chosen)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("screenshots")


def _missing() -> str | None:
    for path in (BROWSER, DRIVER):
        if not (os.path.exists(path) or shutil.which(os.path.basename(path))):
            return f"{path} not found (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401, PLC0415
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = _missing()
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"no browser in CI: {missing}")
        pytest.skip(missing)
    from selenium import webdriver  # noqa: PLC0415
    from selenium.webdriver.chrome.service import Service  # noqa: PLC0415

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER if os.path.exists(BROWSER) else str(shutil.which("chromium"))
    for flag in FLAGS:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # console_errors
    profile = tempfile.mkdtemp(prefix="gametree-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(DRIVER if os.path.exists(DRIVER)
                                              else str(shutil.which("chromedriver"))),
                              options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def console_errors(driver: Any) -> list[str]:
    """The browser console's errors since the last call (a failed request, a 404, an
    uncaught exception, a module that does not load)."""
    entries: list[dict[str, Any]] = driver.get_log("browser")
    return [str(entry["message"]) for entry in entries if entry["level"] == "SEVERE"]


@pytest.fixture
def quiet_console(browser: Any) -> Iterator[None]:
    """The test fails on an error in the browser's console that it did not expect (its own
    page's, or a late one): the previous test's are forgotten first. A module asks for it with
    ``pytestmark = pytest.mark.usefixtures("quiet_console")``."""
    console_errors(browser)
    yield
    assert console_errors(browser) == []


def api(base: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(f"{base}/api/{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.load(answer)


def data(driver: Any, name: str) -> str:
    value: str = driver.execute_script(f"return document.body.dataset.{name} || ''")
    return value


def idle(driver: Any) -> None:
    """Wait until the page has drawn a position and the engine is not thinking."""
    wait_for(lambda: data(driver, "busy") == "0" and driver.find_elements(
        "css selector", "#board > *"))


def cells(driver: Any) -> list[str]:
    marks: list[str] = driver.execute_script(
        "return [...document.querySelectorAll('#board [data-cell]')].map(n => n.dataset.mark)")
    return marks


def labels(driver: Any, selector: str) -> list[str]:
    found: list[str] = driver.execute_script(
        f"return [...document.querySelectorAll({json.dumps(selector)})]"
        ".map(n => n.getAttribute('aria-label'))")
    return found


def press(driver: Any, keys: str) -> None:
    """Type ``keys`` into the page (not into a form field)."""
    from selenium.webdriver.common.action_chains import ActionChains  # noqa: PLC0415

    driver.execute_script("document.activeElement && document.activeElement.blur()")
    ActionChains(driver).send_keys(keys).perform()
