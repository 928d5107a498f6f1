"""Measure one peer on one task and print the measurement as JSON (run by the peer environment).

The benchmark scripts start this file with the peer environment's Python (made by
``setup_peers.py``), one process per peer and task, and read the JSON line it prints::

    benchmarks/.peers/venv/bin/python benchmarks/peer_worker.py --task connect4 --depth 8 \\
        --peer openspiel --repeat 3 --budget 30

The protocol (counting run, then timed runs, median) is ``measure.py``'s, shared with gametree's
side of each benchmark.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import partial
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import peers_aima
import peers_easyai as easyai
import peers_openspiel as openspiel
from measure import Answer, Measurement, Search, measure

PEERS: dict[str, tuple[str, ...]] = {
    "tictactoe": ("easyai", "easyai-tt", "openspiel", "aima"),
    "connect4": ("easyai-tt", "openspiel"),
    "nim": ("easyai", "easyai-tt", "openspiel"),
}
"""The peers each task is measured on (``-tt``: with the peer's transposition table)."""


def with_counter(
    counting: Callable[[], AbstractContextManager[list[int]]], prepare: Callable[[], Search]
) -> Callable[[], tuple[Answer, int]]:
    """A counting run: ``prepare()``'s search, run inside the peer's node-counting wrapper."""

    def counted() -> tuple[Answer, int]:
        search = prepare()
        with counting() as counter:
            answer = search()
        return answer, counter[0]

    return counted


def contender(task: str, peer: str, *, depth: int,
              piles: tuple[int, ...]) -> tuple[Callable[[], tuple[Answer, int]],
                                                 Callable[[], Search]]:
    """The counting run and the timed-run factory of ``peer`` on ``task``."""
    if peer == "aima":
        return peers_aima.tictactoe_counted, peers_aima.tictactoe
    if peer.startswith("easyai"):
        table = peer == "easyai-tt"
        prepare: Callable[[], Search]
        if task == "tictactoe":
            prepare = partial(easyai.tictactoe, table)
        elif task == "nim":
            prepare = partial(easyai.nim, table, piles)
        else:
            easyai.check_connect4_scoring()
            prepare = partial(easyai.connect4, depth)
        return with_counter(easyai.counting_nodes, prepare), prepare
    if task == "tictactoe":
        prepare = openspiel.tictactoe
    elif task == "nim":
        prepare = partial(openspiel.nim, piles)
    else:
        openspiel.check_connect4_estimate()
        prepare = partial(openspiel.connect4, depth)
    return with_counter(openspiel.counting_nodes, prepare), prepare


def parse_piles(text: str) -> tuple[int, ...]:
    """``1,3,5,7`` as a tuple of positive pile sizes."""
    try:
        piles = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected pile sizes like 1,3,5,7, got {text!r}") from None
    if not piles or min(piles) < 1:
        raise argparse.ArgumentTypeError(f"pile sizes must be positive, got {text!r}")
    return piles


def parser() -> argparse.ArgumentParser:
    """The worker's command line."""
    command = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    command.add_argument("--task", required=True, choices=sorted(PEERS))
    command.add_argument("--peer", required=True,
                         choices=sorted({peer for peers in PEERS.values() for peer in peers}))
    command.add_argument("--depth", type=int, default=8, help="Connect Four search depth")
    command.add_argument("--piles", type=parse_piles, default=(1, 3, 5, 7),
                         help="Nim piles, e.g. 1,3,5,7")
    command.add_argument("--repeat", type=int, default=3, help="timed runs at most")
    command.add_argument("--budget", type=float, default=30.0,
                         help="stop repeating once the timed runs took this many seconds")
    return command


def versions() -> dict[str, Any]:
    """The peer packages' versions, for the record."""
    found: dict[str, Any] = {"python": sys.version.split()[0]}
    for package in ("easyAI", "open_spiel", "aima3"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = None
    return found


def main(argv: list[str] | None = None) -> int:
    """Measure, print one JSON line, exit 0; a bad task/peer pair exits 2 with a message."""
    options = parser().parse_args(argv)
    if options.peer not in PEERS[options.task]:
        print(f"peer_worker: {options.peer} is not measured on {options.task}; "
              f"peers: {', '.join(PEERS[options.task])}", file=sys.stderr)
        return 2
    counted, prepare = contender(options.task, options.peer, depth=options.depth,
                                 piles=options.piles)
    result: Measurement = measure(counted, prepare, repeat=options.repeat,
                                  budget=options.budget)
    print(json.dumps({**result.as_dict(), "versions": versions()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
