"""The positions of John Tromp's 8-ply database, as ``benchmarks/check_tromp_8ply.py`` picks them.

His database (UCI Machine Learning Repository, 1995) lists 67,557 positions: 8 plies into
7x6 Connect Four, neither player has won, and the next move is not forced. The script compares
a book's values of those positions with his published counts; that comparison is only as good
as its choice of positions, which these tests hold against his number. (The comparison itself
needs the book, an hour's build: docs/solving.md gives its result.)
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from gametree.games.connect4 import ConnectFour

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "check_tromp_8ply.py"


def load_script() -> ModuleType:
    """The benchmark script as a module (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location("check_tromp_8ply", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_positions_not_won_and_not_forced_are_tromps_67557() -> None:
    script = load_script()
    game = ConnectFour(7, 6)
    layer = script.positions(game, script.PLIES)
    kept = [state for state in layer if script.not_forced(state)]
    assert len({game.key(state) for state in kept}) == sum(script.TROMP_COUNTS.values()) == 67_557
    assert len(kept) == 134_934  # mirror images apart: his database lists each pair once
    assert all(state[1].bit_count() == 8 and not state[2] for state in layer)


def test_a_threat_to_block_or_a_win_at_once_is_forced() -> None:
    script = load_script()
    game = ConnectFour(7, 6)
    state = game.initial_state()
    for column in (0, 6, 1, 6, 2):  # X on 1, 2 and 3 of the bottom row: O must block at 4
        state = game.play(state, column)
    assert not script.not_forced(state)
    state = game.play(state, 5)  # O elsewhere: now X wins at once
    assert not script.not_forced(state)
    quiet = game.initial_state()
    for column in (3, 3, 2, 4):
        quiet = game.play(quiet, column)
    assert script.not_forced(quiet)


def test_a_file_that_is_not_a_7x6_book_gets_one_line_and_status_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    assert script.main(["--db", str(tmp_path / "missing.db")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("check_tromp_8ply: ") and error.count("\n") == 1
