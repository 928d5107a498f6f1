"""The UCI engine in this process, on the chess game: what it answers to a script of commands
(the same engine ``gametree uci`` runs; tests/test_uci.py drives the real process). Small
searches only (depth 1 or 2), so that these stay in the core suite."""

from __future__ import annotations

import io
from typing import Any

import chess

from gametree.uci import ChessBridge, UciEngine
from gametree.uci.bridge import chess_bridge


def answers(script: str) -> list[str]:
    """What the engine writes for the commands of ``script`` (a search with limits finishes
    at the end of the input, as when a script pipes its commands in)."""
    output = io.StringIO()
    UciEngine(chess_bridge(), output).run(io.StringIO(script))
    return output.getvalue().splitlines()


def moves_of(lines: list[str]) -> list[str]:
    """The moves of the ``bestmove`` lines."""
    return [line.split()[1] for line in lines if line.startswith("bestmove")]


def test_the_handshake_announces_the_options() -> None:
    lines = answers("uci\nisready\n")
    assert lines[:2] == ["id name gametree", "id author the gametree authors"]
    assert lines[-2:] == ["uciok", "readyok"]
    assert "option name Hash type spin default 64 min 1 max 4096" in lines
    assert "option name Level type spin default 10 min 1 max 10" in lines
    assert not any("Threads" in line for line in lines)


def test_a_search_reports_each_depth_then_one_legal_bestmove() -> None:
    lines = answers("position startpos moves e2e4\ngo depth 2\n")
    infos = [line.split() for line in lines if line.startswith("info depth")]
    assert [info[2] for info in infos] == ["1", "2"]
    for info in infos:
        assert info[3:5] == ["score", "cp"]
        assert {"nodes", "nps", "time", "hashfull", "pv"} <= set(info)
    board = chess.Board()
    board.push_uci("e2e4")
    (move,) = moves_of(lines)
    assert chess.Move.from_uci(move) in board.legal_moves
    # The last line's move is the deepest iteration's, and its ponder move the reply in it.
    deepest = infos[-1][infos[-1].index("pv") + 1:]
    assert lines[-1] == f"bestmove {deepest[0]} ponder {deepest[1]}"


def test_a_mate_is_scored_in_moves_from_the_side_to_move() -> None:
    mating = answers("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 2\n")
    assert "score mate 1 " in mating[0] and mating[-1].startswith("bestmove a1a8")
    mated = answers("position fen k7/8/1K6/8/8/8/8/7R b - - 0 1\ngo depth 2\n")
    assert "score mate -1 " in mated[-2] and mated[-1].startswith("bestmove a8b8")


def test_no_legal_move_answers_bestmove_none() -> None:
    assert answers("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo depth 2\n") == \
        ["bestmove (none)"]


def test_a_refused_position_keeps_the_last_one() -> None:
    lines = answers("position startpos moves e2e4\nposition startpos moves e2e4 e2e4\n"
                    "go depth 1\n")
    assert lines[0].startswith("info string position refused: move 2, 'e2e4', is not legal")
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(moves_of(lines)[0]) in board.legal_moves


def test_the_depth_option_caps_every_search_and_a_low_level_plays_a_legal_move() -> None:
    lines = answers("setoption name Depth value 1\ngo depth 5\n")
    assert [line.split()[2] for line in lines if line.startswith("info depth")] == ["1"]
    for level in (1, 3):
        lines = answers(f"setoption name Level value {level}\ngo wtime 60000 btime 60000\n")
        (move,) = moves_of(lines)
        assert chess.Move.from_uci(move) in chess.Board().legal_moves
        depths = {int(line.split()[2]) for line in lines if line.startswith("info depth")}
        if level == 1:  # level 1 looks 1 ply ahead; levels 2-9 search as level 10, with noise
            assert depths == {1}


def test_unknown_and_malformed_commands_are_answered_and_skipped() -> None:
    lines = answers("hello\njoho debug on isready\ngo movetime soon\n"
                    "setoption name Hash value 0\nsetoption name Ponder value maybe\n"
                    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1\n"
                    "stop\nponderhit\nisready\n")
    assert lines == [
        "info string unknown command: hello",
        "info string go movetime: expected a whole number, got 'soon'",
        "info string setoption name Hash: expected 1 to 4096, got 0",
        "info string setoption name Ponder: expected true or false, got 'maybe'",
        lines[4],
        "readyok",
    ]
    assert lines[4].startswith("info string position refused: not a FEN")


def test_a_search_that_fails_still_answers_one_legal_bestmove() -> None:
    # A game whose states cannot be made (a fault in the game, not in the protocol).
    working = chess_bridge()

    def broken(board: chess.Board) -> Any:
        raise RuntimeError("no state for you")

    output = io.StringIO()
    engine = UciEngine(ChessBridge(working.game, broken, working.uci_of), output)
    engine.run(io.StringIO("go depth 3\nisready\n"))
    lines = output.getvalue().splitlines()
    assert lines[0] == "info string search failed: RuntimeError: no state for you"
    assert sorted(lines[1:]) == sorted([f"bestmove {lines[1].split()[1]}", "readyok"])
    assert chess.Move.from_uci(moves_of(lines)[0]) in chess.Board().legal_moves


def test_go_mate_and_an_immediate_stop() -> None:
    lines = answers("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo mate 1\n")
    assert "score mate 1 " in lines[0] and lines[-1] == "bestmove a1a8"
    # Stopped before any iteration could finish: still one legal move, from the move order.
    lines = answers("go infinite\nstop\nisready\n")
    assert lines[-1] == "readyok"
    (move,) = moves_of(lines)
    assert chess.Move.from_uci(move) in chess.Board().legal_moves
