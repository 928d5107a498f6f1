"""The command line on explicit trees: solve, analyze, trace, JSON, help and usage errors."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gametree.cli import build_parser

from .cli_support import run

SEED_003 = ["--leaves", "3 5 2 9 12 5 23 23"]
SEED_004 = ["--leaves", "10 11 12 9 14 15 13 14 5 2 4 1 3 22 20 21",
            "--labels", "current A B C D E F G H I J K L M N"]


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "negamax", "engine"])
def test_solve_seed_003_tree(capsys: pytest.CaptureFixture[str], algorithm: str) -> None:
    status, out, _ = run(capsys, "solve", "tree", *SEED_003, "--algorithm", algorithm)
    assert status == 0
    assert "MAX to move: value 12 (heuristic)" in out.splitlines()
    assert "best move: C" in out


def test_solve_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "tree", *SEED_004, "--json", "--algorithm",
                         "alphabeta")
    assert status == 0
    document = json.loads(out)
    assert document["value"] == 10
    assert document["best_move"] == "A"
    assert document["moves"] == [
        {"move": "A", "value": 10, "exact": True, "bound": "exact", "depth": None,
         "value_text": "10", "value_kind": "score", "reading": "exact"},
        {"move": "B", "value": 5, "exact": False, "bound": "upper", "depth": None,
         "value_text": "at most 5", "value_kind": "score", "reading": "a bound"},
    ]
    assert document["reading"]["words"] == "exact"
    assert (document["value_text"], document["value_kind"]) == ("10", "score")
    assert document["pv"] == ["A", "C", "G", "G1"]
    assert {"nodes", "leaves", "cutoffs", "seconds"} <= set(document["stats"])
    assert document["stats"]["cutoffs"] == 4
    assert document["outcome"] is None and document["plies"] is None


def test_solve_from_moves_and_with_depth(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "tree", *SEED_004, "--moves", "B E", "--json")
    assert status == 0
    assert json.loads(out)["value"] == 2  # E = max(min(5, 2), min(4, 1))
    status, out, _ = run(capsys, "solve", "tree", *SEED_003, "--depth", "1", "--json")
    assert json.loads(out)["stats"]["leaves"] == 2


def test_analyze_prints_every_moves_exact_score(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "tree", *SEED_004)
    assert status == 0
    assert "Score for move A = 10" in out and "Score for move B = 2" in out


def test_proven_results_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "solve", "tree", "--nested", '[[["win"]], "win"]')
    assert "MAX to move: value win in 1" in out.splitlines()
    _, out, _ = run(capsys, "solve", "tree", "--nested", '[[["win"]], "win"]', "--json",
                    "--no-distance")
    document = json.loads(out)
    assert (document["outcome"], document["plies"], document["best_move"]) == ("win", None, "B")


def test_trace_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "trace", "tree", *SEED_004, "--algorithm", "alphabeta")
    assert status == 0
    assert "    MAX node D... Prune : J ( A = 14 : B = 10 )" in out.splitlines()
    status, out, _ = run(capsys, "trace", "tree", *SEED_004, "--fail-hard", "--json",
                         "--algorithm", "alphabeta")
    events = json.loads(out)["events"]
    assert {"kind": "prune", "node": "D", "skipped": ["J"]}.items() <= next(
        event for event in events if event["kind"] == "prune").items()
    assert events[0]["alpha"] in (None, "-inf")


@pytest.mark.parametrize("argv", [
    ["--help"], ["solve", "--help"], ["analyze", "--help"], ["trace", "--help"],
    ["solve", "tree", "--help"], ["trace", "tree", "--help"],
])
def test_help_everywhere(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status, out, _ = run(capsys, *argv)
    assert status == 0 and "usage:" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["solve", "tree", "--leaves", "3 5 x 9"], "'x' is not a number"),
    (["solve", "tree", "--leaves", "3 5 2"], "power of 2"),
    (["solve", "tree", *SEED_003, "--algorithm", "best"], "invalid choice: 'best'"),
    (["solve", "shogi"], "invalid choice: 'shogi'"),
    (["solve", "tree", *SEED_003, "--depth", "-1"], "expected a number >= 0"),
    (["solve", "tree", *SEED_003, "--depth", "two"], "expected a whole number"),
    (["solve", "tree", *SEED_003, "--labels", "A B"], "expected 7"),
    (["solve", "tree", *SEED_003, "--algorithm", "minimax", "--fail-hard"], "--fail-hard"),
    (["solve", "tree", *SEED_003, "--moves", "B Z"], "move 2 ('Z')"),
    (["solve", "tree", "--branching", "1", "--leaves", "1"], "at least 2"),
    (["solve", "tree"], "exactly one of"),
    (["solve"], "GAME"),
    ([], "COMMAND"),
])
def test_usage_errors_are_one_line_with_status_2(capsys: pytest.CaptureFixture[str],
                                                 argv: list[str], message: str) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert message in err
    assert "Traceback" not in err


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The sub-commands a parser was given, by name."""
    found = [action for action in parser._actions
             if isinstance(action, argparse._SubParsersAction)]
    return dict(found[0].choices) if found else {}


@pytest.mark.parametrize("argv", [
    ["solve", "connect4", "--width", "5", "--height", "4", "--depth", "3", "--moves", "3 3"],
    ["analyze", "nim", "--rows", "1,3", "--json"],
    ["trace", "tree", *SEED_003, "--depth", "2"],
    ["db", "build", "connect4", "--width", "4", "--height", "4", "--plies", "2", "--db", "x.db"],
    ["count", "tictactoe", "--depth", "2"],
])
def test_a_command_line_builds_only_its_command_and_game(argv: list[str]) -> None:
    full, pruned = build_parser(), build_parser(argv)
    names = set(_commands(pruned))
    assert names < set(_commands(full)) and argv[0] in names
    command = _commands(pruned)[argv[0]]
    if argv[0] == "db":
        command = _commands(command)[argv[1]]
    assert set(_commands(command)) == {argv[2] if argv[0] == "db" else argv[1]}
    assert vars(pruned.parse_args(argv)) == vars(full.parse_args(argv))


@pytest.mark.parametrize("argv", [[], ["solve"], ["solve", "--help"], ["solve", "shogi"],
                                  ["shogi", "tree"], ["--help", "solve", "tree"],
                                  ["db", "build", "--help"]])
def test_a_command_line_without_its_game_gets_every_choice(argv: list[str]) -> None:
    # The parser that answers such a line (its error or help) is the command's, when the
    # command is known, else the whole command line's: either lists every choice.
    full: argparse.ArgumentParser = build_parser()
    pruned: argparse.ArgumentParser = build_parser(argv)
    if argv and argv[0] in _commands(full):
        full, pruned = _commands(full)[argv[0]], _commands(pruned)[argv[0]]
    assert pruned.format_help() == full.format_help()
    for name, command in _commands(full).items():
        assert _commands(pruned)[name].format_help() == command.format_help()


def test_a_solve_imports_no_other_command() -> None:
    script = ("import sys; from gametree.cli import main; main(['solve', 'tree', '--leaves', "
              "'3 5 2 9']); print(sorted(name for name in sys.modules if name.startswith("
              "('gametree.cli.', 'numba'))))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.splitlines()[-1] == str(
        ["gametree.cli.parser", "gametree.cli.position", "gametree.cli.report",
         "gametree.cli.searching"])


def test_a_compiled_solve_imports_only_what_it_runs() -> None:
    # A short command's time is mostly its start-up: the Python tier's engine, the reference
    # algorithms, numba, numpy, llvmlite (the images are opened as shared libraries where
    # there is a linker), logging, socket (Ctrl-C's watcher wakes through a pipe), traceback,
    # game records (no --record given), SQLite (no book for 4x4, as the first run found) and
    # the other games' modules are not imported for a compiled solve.
    script = ("import sys; from gametree.cli import main; main(['solve', 'connect4', "
              "'--width', '4', '--height', '4', '--json']); print(sorted(set(sys.modules) & "
              "{'gametree.engine', 'gametree.reference', 'numba', 'numpy', 'llvmlite', "
              "'logging', 'socket', 'traceback', 'gametree.records', 'sqlite3', "
              "'gametree.games.tictactoe', "
              "'gametree.games.chess', 'gametree.games.nim', 'gametree.games.openspiel'}))")
    for _ in range(2):  # the first compiles the kernel if the run's cache lacks it
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              check=True, timeout=600)
    expected = [] if shutil.which("ld") else ["llvmlite"]
    assert done.stdout.splitlines()[-1] == str(expected)


def test_console_entry_point_runs_as_a_module(tmp_path: Path) -> None:
    tree_file = tmp_path / "fig52.json"
    tree_file.write_text(json.dumps({
        "root": "A",
        "children": {"A": {"a1": "B", "a2": "C", "a3": "D"}, "B": ["B1", "B2", "B3"],
                     "C": ["C1", "C2", "C3"], "D": ["D1", "D2", "D3"]},
        "values": {"B1": 3, "B2": 12, "B3": 8, "C1": 2, "C2": 4, "C3": 6, "D1": 14, "D2": 5,
                   "D3": 2},
    }))
    completed = subprocess.run(
        [sys.executable, "-m", "gametree", "solve", "tree", "--file", str(tree_file), "--json"],
        capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL,
    )
    assert completed.returncode == 0, completed.stderr
    document = json.loads(completed.stdout)
    assert (document["value"], document["best_move"], document["pv"]) == (3, "a1", ["a1", "B1"])


@pytest.mark.parametrize(("redirect", "message"), [
    ("> /dev/full", "No space left on device"),
    (">&-", "standard output is closed: nowhere to write the answer"),
])
@pytest.mark.parametrize("game", ["tree --leaves '3 5 2 9'", "tictactoe"])  # Python, compiled
def test_an_output_that_cannot_be_written_is_one_line(redirect: str, message: str,
                                                      game: str) -> None:
    if "/dev/full" in redirect and not Path("/dev/full").exists():
        pytest.skip("this system has no /dev/full")
    done = subprocess.run(f"{sys.executable} -m gametree solve {game} {redirect}", shell=True,
                          capture_output=False, stderr=subprocess.PIPE, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == f"gametree solve: error: {message}"
    assert "Traceback" not in done.stderr


def test_play_with_its_input_closed_says_so_unless_watching() -> None:
    command = f"{sys.executable} -m gametree play bones"
    done = subprocess.run(f"{command} <&-", shell=True, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2 and "standard input is closed" in done.stderr
    assert "Traceback" not in done.stderr
    watched = subprocess.run(f"{command} --watch <&-", shell=True, capture_output=True,
                             text=True, check=False)
    assert watched.returncode == 0 and "Game over" in watched.stdout
