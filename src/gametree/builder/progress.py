"""Progress of a build: a tqdm bar on a terminal, a one-line log now and then elsewhere, or
nothing (``--quiet``). The builder reports to a :class:`Progress`; it never prints itself."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

LOG_EVERY = 10.0
"""Seconds between two log lines when the output is not a terminal."""


class Progress:
    """Nothing shown (``--quiet``); the base of the other kinds."""

    def start(self, what: str, total: int) -> None:
        """A phase begins: ``total`` positions to do (``what``: ``solving the frontier``)."""

    def advance(self, count: int) -> None:
        """``count`` more positions done."""

    def finish(self) -> None:
        """The phase has ended."""

    def say(self, text: str) -> None:
        """A line of news (a phase skipped, a resumed build)."""


class LogProgress(Progress):
    """One line on ``stream`` every ``every`` seconds, and at the end of each phase:
    ``gametree db build: solving the frontier: 1200/16422 (7.3%), 85.2 positions/s, ETA 3 min``
    (for slow solves: ``4 min a position``; before the first: ``none finished after 40 s``)."""

    def __init__(self, stream: TextIO | None = None, every: float = LOG_EVERY,
                 prefix: str = "gametree db build") -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.every = every
        self.prefix = prefix
        self.what, self.total, self.done = "", 0, 0
        self.started = self.last = 0.0

    def start(self, what: str, total: int) -> None:
        """Start a phase (nothing printed until there is something to say)."""
        self.what, self.total, self.done = what, total, 0
        self.started = self.last = time.perf_counter()

    def advance(self, count: int) -> None:
        """Count; print a line if ``every`` seconds have passed since the last."""
        self.done += count
        now = time.perf_counter()
        if now - self.last >= self.every:
            self.last = now
            self._line(now)

    def finish(self) -> None:
        """The phase's last line."""
        self._line(time.perf_counter())

    def say(self, text: str) -> None:
        """One line of news."""
        print(f"{self.prefix}: {text}", file=self.stream, flush=True)

    def _line(self, now: float) -> None:
        spent = now - self.started
        rate = self.done / spent if spent > 0 else 0.0
        share = f" ({100 * self.done / self.total:.1f}%)" if self.total else ""
        left = self.total - self.done
        eta = f", ETA {_duration(left / rate)}" if rate > 0 and left > 0 else ""
        speed = speed_text(rate) if rate > 0 else f"none finished after {_duration(spent)}"
        self.say(f"{self.what}: {self.done:,}/{self.total:,}{share}, {speed}{eta}")


class BarProgress(Progress):
    """A tqdm bar on a terminal: positions done, rate, time left."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self._bar: Any = None

    def start(self, what: str, total: int) -> None:
        """A new bar."""
        from tqdm import tqdm  # noqa: PLC0415 - only on a terminal

        self.finish()
        self._bar = tqdm(total=total, desc=what, unit=" positions", file=self.stream,
                         unit_scale=True, dynamic_ncols=True)

    def advance(self, count: int) -> None:
        """Move the bar."""
        if self._bar is not None:
            self._bar.update(count)

    def finish(self) -> None:
        """Close the bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def say(self, text: str) -> None:
        """A line above the bar."""
        print(f"gametree db build: {text}", file=self.stream, flush=True)


def progress_for(*, quiet: bool, stream: TextIO | None = None,
                 every: float = LOG_EVERY) -> Progress:
    """Nothing when ``quiet``; a bar on a terminal; else a log line every ``every`` seconds."""
    stream = stream if stream is not None else sys.stderr
    if quiet:
        return Progress()
    if stream.isatty():
        return BarProgress(stream)
    return LogProgress(stream, every)


def speed_text(rate: float) -> str:
    """A build's speed for people: ``85.2 positions/s``, or for slow solves (a big board's
    first plies) the time one position takes: ``4 min a position``."""
    if 0 < rate < 1:
        return f"{_duration(1 / rate)} a position"
    return f"{rate:,.1f} positions/s"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


__all__ = ["LOG_EVERY", "BarProgress", "LogProgress", "Progress", "progress_for", "speed_text"]
