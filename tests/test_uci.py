"""``gametree uci`` as a real process: python-chess's ``chess.engine`` drives it as a GUI
would (analysis to a depth, a game against the clock, ``stop`` during ``go infinite``), and the
protocol is checked line by line (malformed input, a refused position, ``isready`` during a
search, one ``bestmove`` per ``go``).

Assertions are on the protocol — what the engine writes, and when relative to what it was
sent — never on wall-clock figures; the timeouts are generous bounds for a loaded machine.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import chess
import chess.engine
import pytest

ENGINE = [sys.executable, "-m", "gametree", "uci"]
"""The engine's command, as a GUI is given it."""

PATIENCE = 60.0
"""Seconds any answer may take on a loaded machine (the tests do not measure time)."""


class Uci:
    """``gametree uci`` as a process: lines sent, lines read with a timeout."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, last: Callable[[str], bool]) -> list[str]:
        """The lines read up to and including the first for which ``last`` is true."""
        read = []
        while True:
            line = self.lines.get(timeout=PATIENCE)
            assert line is not None, f"the engine ended; it wrote {self.seen}"
            self.seen.append(line)
            read.append(line)
            if last(line):
                return read

    def finish(self) -> tuple[list[str], str]:
        """Send ``quit``; the lines written after the last read, and standard error."""
        self.send("quit")
        status = self.process.wait(timeout=PATIENCE)
        rest = []
        while (line := self.lines.get(timeout=PATIENCE)) is not None:
            rest.append(line)
        assert self.process.stderr is not None
        error = self.process.stderr.read()
        assert status == 0, error
        return rest, error


def bestmove(line: str) -> bool:
    return line.startswith("bestmove")


@pytest.fixture
def uci() -> Uci:
    engine = Uci()
    engine.send("uci")
    engine.until(lambda line: line == "uciok")
    return engine


# -- python-chess as the client ---------------------------------------------------------------


@pytest.mark.slow  # starts a process, searches chess
def test_analysis_to_a_depth_has_a_score_a_line_and_a_legal_move() -> None:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    with chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=PATIENCE) as engine:
        assert engine.id["name"] == "gametree"
        assert {"Hash", "Depth", "Level", "Move Overhead"} <= set(engine.options)
        info = engine.analyse(board, chess.engine.Limit(depth=3))
        assert info["depth"] == 3
        assert info["score"].relative.score() is not None  # centipawns: no mate here
        line = info["pv"]
        assert len(line) >= 1
        replay = board.copy()
        for move in line:  # the line is legal from the position
            assert move in replay.legal_moves
            replay.push(move)
        played = engine.play(board, chess.engine.Limit(depth=2))
        assert played.move is not None and played.move in board.legal_moves


@pytest.mark.slow
def test_a_mate_is_reported_as_mate_in_moves() -> None:
    with chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=PATIENCE) as engine:
        # White mates at once on the back rank.
        board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        info = engine.analyse(board, chess.engine.Limit(depth=3))
        assert info["score"].relative == chess.engine.Mate(1)
        assert info["pv"][0] == chess.Move.from_uci("a1a8")
        # Black's one move (Kb8) walks into Rh8: mated in one, a negative mate.
        board = chess.Board("k7/8/1K6/8/8/8/8/7R b - - 0 1")
        info = engine.analyse(board, chess.engine.Limit(depth=3))
        assert info["score"].relative == chess.engine.Mate(-1)
        assert info["pv"][:2] == [chess.Move.from_uci("a8b8"), chess.Move.from_uci("h1h8")]


@pytest.mark.slow
def test_a_game_against_the_clock_never_runs_out_of_time() -> None:
    clock = {chess.WHITE: 4.0, chess.BLACK: 4.0}
    increment = 0.1
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=PATIENCE) as engine:
        for ply in range(12):
            if board.is_game_over():
                break
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE],
                                       black_clock=clock[chess.BLACK],
                                       white_inc=increment, black_inc=increment)
            # The clock runs as a GUI's does: from the command to the answer.
            started = time.monotonic()
            result = engine.play(board, limit)
            clock[board.turn] += increment - (time.monotonic() - started)
            assert result.move is not None and result.move in board.legal_moves
            assert clock[board.turn] > 0, f"flagged at ply {ply}: {clock}"
            board.push(result.move)


@pytest.mark.slow
def test_stop_during_go_infinite_answers_with_a_bestmove() -> None:
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=PATIENCE) as engine:
        analysis = engine.analysis(board)  # go infinite
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
        analysis.stop()
        answer: list[chess.engine.BestMove] = []
        waiter = threading.Thread(target=lambda: answer.append(analysis.wait()))
        waiter.start()
        waiter.join(PATIENCE)
        assert answer, "no bestmove after stop"
        move = answer[0].move
        assert move is not None and move in board.legal_moves


# -- the protocol line by line ----------------------------------------------------------------


@pytest.mark.slow  # starts a process
def test_malformed_and_unknown_input_gets_info_strings_and_no_traceback(uci: Uci) -> None:
    uci.send("frobnicate the board", "joho isready")
    answers = uci.until(lambda line: line == "readyok")
    assert answers == ["info string unknown command: frobnicate the board", "readyok"]
    for command, says in (("go depth x", "go depth: expected a whole number, got 'x'"),
                          ("position", "position: expected 'startpos'"),
                          ("position fen not a fen", "position refused: not a FEN"),
                          ("setoption name Hash value lots", "expected a whole number"),
                          ("setoption name Threads value 4", "no option 'Threads'")):
        uci.send(command, "isready")
        answers = uci.until(lambda line: line == "readyok")
        assert len(answers) == 2 and answers[0].startswith("info string") and \
            says in answers[0], (command, answers)
    uci.send("", "   ", "isready")
    assert uci.until(lambda line: line == "readyok") == ["readyok"]
    rest, error = uci.finish()
    assert rest == [] and error == ""


@pytest.mark.slow
def test_a_position_with_an_illegal_move_is_refused_and_the_last_one_kept(uci: Uci) -> None:
    uci.send("position startpos moves e2e4", "position startpos moves e2e4 e7e4", "isready")
    answers = uci.until(lambda line: line == "readyok")
    assert answers[0].startswith("info string position refused: move 2, 'e7e4', is not "
                                 "legal"), answers
    uci.send("go depth 1")
    move = uci.until(bestmove)[-1].split()[1]
    after_e4 = chess.Board()
    after_e4.push_uci("e2e4")
    assert chess.Move.from_uci(move) in after_e4.legal_moves  # black's move: e4 stood
    uci.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1", "isready")  # no kings
    assert "not a legal position" in uci.until(lambda line: line == "readyok")[0]
    uci.finish()


@pytest.mark.slow
def test_isready_during_a_search_and_one_bestmove_per_go(uci: Uci) -> None:
    uci.send("position startpos", "go infinite", "isready")
    before_stop = uci.until(lambda line: line == "readyok")
    assert not any(bestmove(line) for line in before_stop)  # infinite: no bestmove yet
    uci.until(lambda line: line.startswith("info depth"))  # it searches meanwhile
    uci.send("stop")
    stopped = uci.until(bestmove)
    assert chess.Move.from_uci(stopped[-1].split()[1]) in chess.Board().legal_moves
    # A second go before the first's bestmove (a script, not a GUI) waits its turn.
    uci.send("go depth 1", "go depth 2", "stop", "stop")
    uci.until(bestmove)
    uci.until(bestmove)
    rest, _error = uci.finish()
    # Exactly one bestmove per go: nothing more came for the extra stops or quit.
    assert not any(bestmove(line) for line in rest), rest
    assert sum(bestmove(line) for line in uci.seen) == 3


@pytest.mark.slow
def test_a_ponder_search_answers_only_after_ponderhit(uci: Uci) -> None:
    uci.send("setoption name Ponder value true",
             "position startpos moves e2e4 e7e5", "go ponder wtime 600000 btime 600000")
    uci.until(lambda line: line.startswith("info depth 2"))
    uci.send("isready")
    assert not any(bestmove(line) for line in uci.until(lambda line: line == "readyok"))
    uci.send("ponderhit")  # now a normal search with its share of ten minutes
    uci.send("stop")  # ... which the GUI may still stop
    answer = uci.until(bestmove)[-1].split()
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(answer[1]) in board.legal_moves
    rest, _error = uci.finish()
    assert not any(bestmove(line) for line in rest)
