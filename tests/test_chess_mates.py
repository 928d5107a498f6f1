"""The mate set (tests/data/chess_mates.epd): Stockfish proves each position a mate in exactly
N, and gametree finds each with the shortest mate. A few short mates run in the core suite;
the others, and Stockfish's check, are slow-marked."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import chess
import chess.engine
import pytest

from gametree import search
from gametree.games.chess import ChessGame

from .chess_support import Mate, read_mates, stockfish  # noqa: F401 - a fixture

MATE_SET = read_mates()

CORE = frozenset({"mate1-01", "mate1-02", "mate2-01", "mate2-02"})
"""The positions searched in the core suite (each well under a second)."""


def test_the_set_has_thirty_mates_in_one_two_and_three_ten_of_them_in_three() -> None:
    counts = Counter(mate.moves for mate in MATE_SET)
    assert len(MATE_SET) >= 30
    assert set(counts) == {1, 2, 3} and counts[3] >= 10
    assert len({mate.fen for mate in MATE_SET}) == len(MATE_SET)
    assert len({mate.name for mate in MATE_SET}) == len(MATE_SET)
    assert {mate.name for mate in MATE_SET} >= CORE


@pytest.mark.slow
def test_stockfish_proves_each_a_mate_in_exactly_n(
        stockfish: chess.engine.SimpleEngine) -> None:  # noqa: F811 - the fixture
    for mate in MATE_SET:
        board = chess.Board(mate.fen)
        found = stockfish.analyse(board, chess.engine.Limit(depth=24))
        assert found["score"].relative.mate() == mate.moves, mate.name
        board.push_san(mate.first)  # the recorded first move mates that fast
        if mate.moves == 1:
            assert board.is_checkmate(), mate.name
        else:
            after = stockfish.analyse(board, chess.engine.Limit(depth=24))
            assert after["score"].relative.mate() == -(mate.moves - 1), mate.name


@pytest.mark.parametrize("mate", [
    mate if mate.name in CORE else pytest.param(mate, marks=pytest.mark.slow)
    for mate in MATE_SET], ids=lambda mate: mate.name)
def test_gametree_finds_the_shortest_mate(mate: Mate) -> None:
    game = ChessGame(mate.fen)
    root = game.initial_state()
    plies = 2 * mate.moves - 1
    result = search(game, depth=plies)
    assert (result.outcome, result.plies, result.mate) == ("win", plies, mate.moves)
    assert result.stats.stopped_by is None
    # gametree's move mates as fast (it may be another than the recorded one)
    assert result.best_move is not None
    after = game.play(root, result.best_move)
    if mate.moves == 1:
        assert game.outcome(after) == (1 if game.to_move(root) == 0 else -1)
    else:
        reply = search(game, after, depth=plies - 1)
        assert (reply.outcome, reply.plies, reply.mate) == ("loss", plies - 1,
                                                           -(mate.moves - 1))


@pytest.mark.slow
def test_the_command_line_solves_a_mate_within_its_default_time() -> None:
    mate = next(mate for mate in MATE_SET if mate.moves == 2)
    done = subprocess.run([sys.executable, "-m", "gametree", "solve", "chess", "--fen",
                           mate.fen, "--json"], capture_output=True, text=True, check=False,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert (document["mate"], document["plies"], document["value_kind"]) == (2, 3, "win")
    assert document["value_text"] == "win in 3"
