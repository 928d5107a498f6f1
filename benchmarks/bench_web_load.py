"""Load on ``gametree serve`` (issue 10): 50 concurrent clients, 5,000 mixed requests on
loopback -- Connect Four end-game analyses (Pons' Test_L3_R1 positions), tic-tac-toe engine
replies, seed 004 traces -- while one more client asks for a 60 s search. Prints throughput,
p50/p99 latency, errors, and the server's memory (the server and its workers) before and after.

    python benchmarks/bench_web_load.py [--requests 5000] [--clients 50] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "tests" / "data" / "connect4" / "Test_L3_R1"
SEED_004 = {"leaves": "10 11 12 9 14 15 13 14 5 2 4 1 3 22 20 21",
            "labels": "current A B C D E F G H I J K L M N"}


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


def requests(count: int) -> list[tuple[str, dict[str, Any]]]:
    """The mixed requests, in a fixed random order."""
    lines = [line.split()[0] for line in POSITIONS.read_text().splitlines() if line.strip()]
    chooser = random.Random(4)
    mixed: list[tuple[str, dict[str, Any]]] = []
    for index in range(count):
        kind = index % 3
        if kind == 0:
            mixed.append(("analyze", {"game": "connect4", "moves": chooser.choice(lines)}))
        elif kind == 1:
            moves = chooser.choice(["", "1,1", "0,0 1,1", "0,0 1,1 2,2", "1,1 0,0 2,2"])
            mixed.append(("move", {"game": "tictactoe", "moves": moves}))
        else:
            mixed.append(("trace", {"game": "tree", "options": SEED_004}))
    return mixed


async def load(base: str, work: list[tuple[str, dict[str, Any]]], clients: int) -> tuple[
        list[float], int]:
    queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
    for item in work:
        queue.put_nowait(item)
    latencies: list[float] = []
    errors = 0

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal errors
        while not queue.empty():
            path, body = queue.get_nowait()
            started = time.perf_counter()
            answer = await http.post(f"{base}/api/{path}", json=body)
            latencies.append(time.perf_counter() - started)
            if answer.status_code != 200:
                errors += 1

    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        await asyncio.gather(*(client(http) for _ in range(clients)))
    return latencies, errors


async def long_search(base: str) -> str:
    async with httpx.AsyncClient(timeout=120) as http:
        started = time.perf_counter()
        answer = await http.post(f"{base}/api/solve", json={"game": "connect4", "time": 60})
        took = time.perf_counter() - started
        body = answer.json()
        return (f"status {answer.status_code} after {took:.1f} s: stopped_by="
                f"{body['stats']['stopped_by']}, depth {body['stats']['depth_reached']}, "
                f"value {body['value_text']}")


async def main_async(args: argparse.Namespace) -> None:
    port = 8761
    server = subprocess.Popen([sys.executable, "-m", "gametree", "serve", "--port", str(port),
                               "--workers", str(args.workers), "--queue-size", "100"])
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient() as http:
            for _ in range(300):
                try:
                    if (await http.get(f"{base}/api/status")).status_code == 200:
                        break
                except httpx.TransportError:
                    await asyncio.sleep(0.1)
            for path, body in requests(6):  # load the kernels before measuring
                await http.post(f"{base}/api/{path}", json=body, timeout=120)
        before = rss_kib(server.pid)
        started = time.perf_counter()
        long_task = asyncio.ensure_future(long_search(base))
        latencies, errors = await load(base, requests(args.requests), args.clients)
        elapsed = time.perf_counter() - started
        long_result = await long_task
        after = rss_kib(server.pid)
        ordered = sorted(latencies)
        print(f"requests {len(latencies)}, clients {args.clients}, workers {args.workers}")
        print(f"throughput {len(latencies) / elapsed:.0f} requests/s ({elapsed:.1f} s)")
        print(f"latency p50 {statistics.median(ordered) * 1000:.0f} ms, "
              f"p99 {ordered[int(len(ordered) * 0.99) - 1] * 1000:.0f} ms")
        print(f"errors {errors}")
        print(f"server memory (server + workers): {before / 1024:.0f} MiB before, "
              f"{after / 1024:.0f} MiB after")
        print(f"60 s search alongside: {long_result}")
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    """Parse the options and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
