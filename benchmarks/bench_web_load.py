"""Load on ``gametree serve`` at its defaults (issue 20): a classroom of 50 concurrent clients
sending 5,000 requests on loopback -- 90 % tic-tac-toe engine replies (``/api/move``, perfect,
from random openings), 10 % Connect Four engine replies with a 0.5 s limit (``/api/move``,
``strength: time``, from random openings). Prints throughput, p50/p95/p99 latency per kind,
the answers' statuses (every one not 200 is an error), and the server's memory (the server
and its workers) before and after.

    python benchmarks/bench_web_load.py [--requests 5000] [--clients 50] [--seed 20]

The server runs with no option but its port: the defaults are what is measured. The clock
starts once its kernels are prepared (``GET /api/status``: ``prepared``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

KINDS = ("tictactoe", "connect4")
"""The two kinds of request, as the figures name them."""


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and its children (KiB)."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(entry) == pid or int(fields.get("PPid", "0").strip()) == pid:
            total += int(fields.get("VmRSS", "0 kB").split()[0])
    return total


def requests(count: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """The mixed requests, in a fixed random order: each a kind and a ``/api/move`` body.
    Openings are short enough that no game is over: at most 4 tic-tac-toe moves (no one has
    three in a row), at most 6 Connect Four moves (no one has four, no column is full)."""
    chooser = random.Random(seed)
    cells = [f"{row},{col}" for row in range(3) for col in range(3)]
    mixed: list[tuple[str, dict[str, Any]]] = []
    for _ in range(count):
        if chooser.random() < 0.9:
            moves = " ".join(chooser.sample(cells, chooser.randint(0, 4)))
            mixed.append(("tictactoe", {"game": "tictactoe", "moves": moves}))
        else:
            moves = "".join(chooser.choice("1234567") for _ in range(chooser.randint(0, 6)))
            mixed.append(("connect4", {"game": "connect4", "moves": moves,
                                       "strength": "time", "time": 0.5}))
    return mixed


async def load(base: str, work: list[tuple[str, dict[str, Any]]], clients: int) -> tuple[
        dict[str, list[float]], Counter[int]]:
    """Send ``work`` from ``clients`` clients, each waiting for its answer before its next
    request; the latencies of each kind and the count of each status."""
    queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
    for item in work:
        queue.put_nowait(item)
    latencies: dict[str, list[float]] = {kind: [] for kind in KINDS}
    statuses: Counter[int] = Counter()

    async def client(http: httpx.AsyncClient) -> None:
        while not queue.empty():
            kind, body = queue.get_nowait()
            started = time.perf_counter()
            answer = await http.post(f"{base}/api/move", json=body)
            latencies[kind].append(time.perf_counter() - started)
            statuses[answer.status_code] += 1

    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(timeout=300, limits=limits) as http:
        await asyncio.gather(*(client(http) for _ in range(clients)))
    return latencies, statuses


def percentile(ordered: list[float], fraction: float) -> float:
    """The ``fraction`` percentile of ``ordered`` (nearest rank), in milliseconds."""
    rank = max(1, round(fraction * len(ordered)))
    return ordered[rank - 1] * 1000


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def main_async(args: argparse.Namespace) -> None:
    """Start the server at its defaults, wait for its kernels, load it, print the figures."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "gametree", "serve", "--port", str(port)])
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(timeout=60) as http:
            while True:
                try:
                    if (await http.get(f"{base}/api/status")).json()["prepared"]:
                        break
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.5)
        before = rss_kib(server.pid)
        started = time.perf_counter()
        latencies, statuses = await load(base, requests(args.requests, args.seed),
                                         args.clients)
        elapsed = time.perf_counter() - started
        after = rss_kib(server.pid)
        total = sum(statuses.values())
        print(f"requests {total}, clients {args.clients}, server at its defaults")
        print(f"throughput {total / elapsed:.0f} requests/s ({elapsed:.1f} s)")
        for kind in KINDS:
            ordered = sorted(latencies[kind])
            print(f"{kind}: {len(ordered)} requests, latency p50 {percentile(ordered, 0.5):.0f} "
                  f"ms, p95 {percentile(ordered, 0.95):.0f} ms, "
                  f"p99 {percentile(ordered, 0.99):.0f} ms")
        print(f"statuses {dict(sorted(statuses.items()))}; errors "
              f"{total - statuses[200]}")
        print(f"server memory (server + workers): {before / 1024:.0f} MiB before, "
              f"{after / 1024:.0f} MiB after")
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    """Parse the options and run the benchmark."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seed", type=int, default=20)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
