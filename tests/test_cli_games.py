"""The command line on the built-in games: games, solve/analyze/trace, count, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gametree.registry import games

from .cli_support import gametree
from .pons import pons_file

LATE_LOSS = "65214673556155731566316327373221417"
"""A Connect Four position of Pons' Test_L3_R1 with score -1, solved in a blink (the early
4453, score -2, takes seconds)."""


def json_of(*args: str) -> Any:
    done = gametree(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def assert_one_line_error(done: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    for fragment in fragments:
        assert fragment in done.stderr


def test_games_lists_every_game_with_options_and_notation() -> None:
    done = gametree("games")
    assert done.returncode == 0
    for name in ("tictactoe", "bones", "subtraction", "nim", "sticks", "connect4", "tree"):
        assert f"\n{name}: " in f"\n{done.stdout}"
    assert "--takes 3,4,5: the numbers a move may take (default: 3,4,5)" in done.stdout
    assert "--misere: " in done.stdout and "--width W: columns (default: 7)" in done.stdout
    listed = json_of("games")
    assert [entry["name"] for entry in listed] == list(games())


@pytest.mark.parametrize(("args", "fragments"), [
    (("solve", "shogi"), ("invalid choice: 'shogi'", "tictactoe", "connect4")),
    (("solve", "tictactoe", "--rows", "x"), ("--rows", "expected a whole number")),
    (("solve", "nim", "--rows", "1,x"), ("--rows", "stick counts")),
    (("solve", "connect4", "--width", "12"), ("--width", "from 4 to 9")),
    (("solve", "connect4", "--moves", "448"), ("move 3 ('8')", "off the board")),
    (("analyze", "connect4", "--moves", "4444444"), ("move 7 ('4')", "column 4 is full")),
    (("solve", "connect4", "--moves", "45454541"), ("move 8 ('1')", "game is over")),
    (("solve", "tictactoe", "--moves", "1,1 5"), ("move 2 ('5')", "taken by X")),
    (("solve", "sticks", "--moves", "3:4"), ("move 1 ('3:4')", "row 3 has 3 sticks")),
    (("count", "bones", "--heap", "-3"), ("--heap", "whole number")),
    (("solve", "tictactoe", "--board", "xx_/___/___"), ("as many marks as O",)),
])
def test_errors_exit_2_with_one_line(args: tuple[str, ...], fragments: tuple[str, ...]) -> None:
    assert_one_line_error(gametree(*args), *fragments)


def test_solve_text_shows_board_value_and_best_move() -> None:
    done = gametree("solve", "tictactoe", "--board", "xox/oox/___", "--no-distance")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("  0 1 2\n0 X O X\n1 O O X\n2 . . .\n\n")
    # Plain values keep the game's own number beside the proven result.
    assert "X to move: value win (10)\nbest move: 2,2\n" in done.stdout


def test_solve_json_seed_003_and_seed_004() -> None:
    document = json_of("solve", "tictactoe", "--board", "x o x / o o x / _ _ _",
                       "--no-distance")
    assert document["best_move"] == "2,2" and document["value"] == 10
    assert document["outcome"] == "win"
    sticks = json_of("solve", "sticks", "--moves", "3:3")
    assert sticks["best_move"] == "2:2"
    assert (sticks["outcome"], sticks["plies"]) == ("win", 2)


def test_connect4_json_has_pons_score() -> None:
    document = json_of("solve", "connect4", "--moves", "4455", "--depth", "3")
    assert (document["outcome"], document["plies"], document["score"]) == ("win", 3, 18)
    unproven = json_of("solve", "connect4", "--depth", "1")
    assert unproven["score"] is None and unproven["outcome"] is None
    for field in ("value", "best_move", "moves", "pv", "stats", "outcome", "plies"):
        assert field in document


def test_connect4_text_reports_the_score_and_a_finished_game() -> None:
    done = gametree("solve", "connect4", "--moves", "4455667")
    assert done.returncode == 0, done.stderr
    assert "game over: X won" in done.stdout and "score: -18" in done.stdout


def test_analyze_and_trace_for_sticks() -> None:
    analysis = gametree("analyze", "sticks", "--moves", "3:3")
    assert "Score for move 2:2 = win in 2" in analysis.stdout
    assert "Score for move 1:1 = loss in 3" in analysis.stdout
    trace = gametree("trace", "sticks", "--moves", "3:3", "--depth", "3")
    assert trace.returncode == 0, trace.stderr
    assert "TOP MAX node... Try Move : 2:2" in trace.stdout
    assert "DONE!!! Best Score = win in 2 (move 2:2)" in trace.stdout


@pytest.mark.parametrize("game", ["bones", "subtraction", "nim", "sticks"])
def test_every_small_game_solves_from_the_cli(game: str) -> None:
    # Nim's kernel is one per number of rows: 4 rows, as the compiled tier's tests use.
    options = {"nim": ("--rows", "1,2,3,4"), "subtraction": ("--heap", "12")}.get(game, ())
    document = json_of("solve", game, *options)
    assert document["outcome"] in ("win", "loss", "draw") and document["best_move"]


def test_moves_file_gives_one_json_line_per_position(tmp_path: Path) -> None:
    source = pons_file("L3_R1")
    lines = source.read_text(encoding="utf-8").splitlines()[:5]
    moves_file = tmp_path / "positions.txt"
    unscored = lines[0].split()[0]
    moves_file.write_text("# Pons' format\n" + "\n".join(lines) + f"\n\n{unscored}\n",
                          encoding="utf-8")
    done = gametree("solve", "connect4", "--moves-file", str(moves_file))
    assert done.returncode == 0, done.stderr
    documents = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(documents) == 6
    for document, line in zip(documents, lines, strict=False):
        moves, score = line.split()
        assert document["position"] == moves
        assert document["expected"] == {"score": int(score)}
        assert document["agrees"] is True and document["score"] == int(score)
    assert documents[-1]["line"] == 8 and "expected" not in documents[-1]


def test_moves_file_errors_name_the_line(tmp_path: Path) -> None:
    moves_file = tmp_path / "bad.txt"
    moves_file.write_text(f"{LATE_LOSS} -1\n448 1\n4453 -2\n", encoding="utf-8")
    done = gametree("solve", "connect4", "--moves-file", str(moves_file))
    # The file is streamed: line 1 is answered before line 2 is read, then the run stops.
    assert [json.loads(line)["line"] for line in done.stdout.splitlines()] == [1]
    assert_one_line_error(subprocess.CompletedProcess(done.args, done.returncode, "",
                                                      done.stderr),
                          "line 2", "move 3 ('8')")
    assert_one_line_error(gametree("solve", "connect4", "--moves-file", str(tmp_path / "no")),
                          "cannot read moves file")
    moves_file.write_text("4 4 5 3\n", encoding="utf-8")
    assert_one_line_error(gametree("solve", "connect4", "--moves-file", str(moves_file)),
                          "line 1", "MOVES [SCORE]")
    assert_one_line_error(gametree("solve", "connect4", "--moves-file", str(moves_file),
                                   "--moves", "4"), "not both")


def test_moves_file_is_streamed_from_standard_input() -> None:
    # Each answer comes out before the next line goes in: the first answer cannot wait for
    # the end of the input, which stays open until the answer has been read.
    process = subprocess.Popen([sys.executable, "-m", "gametree", "solve", "connect4",
                                "--moves-file", "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdin is not None and process.stdout is not None
    try:
        for number, (moves, score) in enumerate([("4455", 18), (LATE_LOSS, -1)], start=1):
            process.stdin.write(f"{moves} {score}\n")
            process.stdin.flush()
            document = json.loads(process.stdout.readline())
            assert (document["line"], document["score"], document["agrees"]) == (number, score,
                                                                                 True)
        process.stdin.close()
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()
        process.wait()
        process.stdout.close()
        if process.stderr is not None:
            process.stderr.close()


def test_moves_file_tolerates_a_byte_order_mark_and_weak_results_agree_by_sign(
        tmp_path: Path) -> None:
    moves_file = tmp_path / "bom.txt"
    moves_file.write_bytes(f"\ufeff4455 18\n{LATE_LOSS} -1\n44455554221 -15\n".encode())
    for weak in ((), ("--weak",)):
        done = gametree("solve", "connect4", "--moves-file", str(moves_file), *weak)
        assert done.returncode == 0, done.stderr
        documents = [json.loads(line) for line in done.stdout.splitlines()]
        assert [document["agrees"] for document in documents] == [True, True, True]
        assert [document["outcome"] for document in documents] == ["win", "loss", "loss"]


@pytest.mark.parametrize(("args", "fragment"), [
    (("solve", "connect4", "--moves", "\uff14\uff14"), "is not a column"),
    (("solve", "tictactoe", "--moves", "\uff11,\uff11"), "is not a move"),
    (("solve", "nim", "--rows", "1,\uff13"), "--rows"),
    (("solve", "subtraction", "--heap", "\uff12\uff11"), "--heap"),
    (("solve", "subtraction", "--heap", "1_0"), "--heap"),
    (("solve", "bones", "--nodes", "99999999999999999999999"),
     "argument --nodes: expected a number <= 1,000,000,000,000,000,000"),
    (("solve", "subtraction", "--takes", "99999999999999999999999"), "--takes"),
    (("play", "bones", "--watch", "--delay", "1e308"), "--delay"),
])
def test_numbers_are_ascii_digits_within_bounds(args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(gametree(*args), fragment)


@pytest.mark.parametrize(("game", "short", "long"), [
    ("bones", "3 2", "take 3, take 2"),
    ("subtraction", "3 4", "take 3; TAKE 4"),
])
def test_moves_are_written_as_at_the_prompt(game: str, short: str, long: str) -> None:
    by_number, by_words = (json_of("solve", game, "--moves", moves) for moves in (short, long))
    assert {**by_words, "stats": None} == {**by_number, "stats": None}


def test_moves_file_works_for_any_game(tmp_path: Path) -> None:
    moves_file = tmp_path / "ttt.txt"
    moves_file.write_text("1,1\n1,1 0,1\n", encoding="utf-8")
    done = gametree("analyze", "tictactoe", "--moves-file", str(moves_file))
    outcomes = [json.loads(line)["outcome"] for line in done.stdout.splitlines()]
    assert outcomes == ["draw", "win"]


def test_count_text_and_json() -> None:
    done = gametree("count", "tictactoe")
    assert done.returncode == 0, done.stderr
    assert "255168 possible games, 5478 distinct positions" in done.stdout
    assert "total     549946       5478       255168  131184   77904  46080" in done.stdout
    document = json_of("count", "connect4", "--width", "4", "--height", "4")
    assert document["totals"]["positions"] == 161029 and document["complete"]
    shallow = json_of("count", "connect4", "--depth", "2", "--moves", "44")
    assert [entry["sequences"] for entry in shallow["depths"]] == [1, 7, 49]
    assert shallow["complete"] is False and shallow["options"] == {"width": 7, "height": 6}


def test_a_reader_that_goes_away_ends_any_command_quietly() -> None:
    # Like `gametree games | head -0`: the pipe is closed before the command writes a byte.
    process = subprocess.Popen([sys.executable, "-m", "gametree", "games"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    assert process.wait(timeout=60) == 141
    assert process.stderr.read() == b""


PEAK_MEMORY = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
"""Runs a command and prints its peak memory (kilobytes): in a process of its own, so that no
other child of the test process is counted."""


@pytest.mark.slow
def test_a_100000_line_moves_file_is_read_in_flat_memory(tmp_path: Path) -> None:
    # 100,000 lines, 99 MB: a position every 100th line, the rest long comments. Read whole,
    # as before, the file took 18 times its size; streamed, the process stays within the
    # issue's 300 MB (Connect Four's kernel and table included: about 150 MB).
    comment = "# " + "x" * 1000 + "\n"
    moves_file = tmp_path / "long.txt"
    with moves_file.open("w", encoding="utf-8") as out:
        for _ in range(1_000):
            out.write("4455 18\n" + comment * 99)
    assert moves_file.stat().st_size > 99_000_000
    done = subprocess.run([sys.executable, "-c", PEAK_MEMORY, sys.executable, "-m", "gametree",
                           "solve", "connect4", "--moves-file", str(moves_file)],
                          capture_output=True, text=True, check=True)
    assert int(done.stdout) < 300_000, done.stdout  # kilobytes
