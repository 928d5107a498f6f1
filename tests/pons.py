"""Pascal Pons' Connect Four benchmark positions, as far as the tests use them.

``tests/data/connect4/`` holds the first lines of his public sets (the full sets are in
``../shared/data/connect4`` and are read by the benchmarks): each line is ``moves score``, the
columns played from the empty 7x6 board and the exact score for the player to move. Keeping
the lines in the repository lets a fresh clone, and CI, run every test that needs them.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "connect4"


def pons_file(name: str) -> Path:
    """The file of set ``name`` (``"L3_R1"`` ...), which must exist."""
    path = DATA / f"Test_{name}"
    assert path.is_file(), f"Pons' benchmark set {path} is missing from the repository"
    return path


def pons_set(name: str, count: int) -> list[tuple[str, int]]:
    """The first ``count`` positions of set ``name``: (moves, score); all of them must exist."""
    lines = pons_file(name).read_text(encoding="utf-8").splitlines()[:count]
    assert len(lines) == count, f"Test_{name} holds {len(lines)} positions, {count} wanted"
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]
