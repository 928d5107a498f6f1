"""What chess tests share: Stockfish (found, or the reason it is missing) and the mate set of
tests/data/chess_mates.epd."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine
import pytest

from gametree.arena.players import find_stockfish

MATES = Path(__file__).parent / "data" / "chess_mates.epd"
"""The mate set: EPD records with ``dm`` (mate in N) and ``bm`` (a mating first move)."""


def need_stockfish() -> str:
    """The Stockfish binary; skips the test saying how to get it, or fails in CI (which
    installs it: .ci/run)."""
    path = find_stockfish()
    if path is None:
        missing = "Stockfish is not installed (apt-get install stockfish)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"no Stockfish in CI: {missing}")
        pytest.skip(missing)
    return path


@pytest.fixture(scope="module")
def stockfish() -> Iterator[chess.engine.SimpleEngine]:
    """Stockfish, driven by python-chess's ``chess.engine`` (one process per test module)."""
    engine = chess.engine.SimpleEngine.popen_uci(need_stockfish())
    try:
        yield engine
    finally:
        engine.quit()


@dataclass(frozen=True)
class Mate:
    """A position of the mate set."""

    name: str
    """Its ``id``: ``mate3-04``."""

    fen: str
    """The position."""

    moves: int
    """Mate in this many moves of the side to move (the shortest)."""

    first: str
    """A first move that mates that fast (SAN)."""


def read_mates() -> list[Mate]:
    """Every position of :data:`MATES`, in the file's order."""
    mates = []
    for line in MATES.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        board, operations = chess.Board.from_epd(line)
        best = operations["bm"]
        assert isinstance(best, list)
        mates.append(Mate(str(operations["id"]), board.fen(), int(operations["dm"]),  # type: ignore[arg-type]
                          board.san(best[0])))
    return mates
