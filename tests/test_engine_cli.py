"""The engine behind the command line: the default algorithm, --time and --nodes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gametree import search
from gametree.games.tictactoe import MNKGame

from .cli_support import run

SEED_004 = ["--leaves", "10 11 12 9 14 15 13 14 5 2 4 1 3 22 20 21",
            "--labels", "current A B C D E F G H I J K L M N"]


def test_the_engine_is_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("solve", "analyze", "trace"):
        status, out, _ = run(capsys, command, "tree", *SEED_004, "--json")
        assert status == 0
        document = json.loads(out)
        # trace shows seed 004's alpha-beta unless told otherwise
        assert document["algorithm"] == ("alphabeta" if command == "trace" else "engine")
        assert document["value"] == 10 and document["best_move"] == "A"
    assert search(MNKGame()).algorithm == "engine"
    status, out, _ = run(capsys, "trace", "tree", *SEED_004)
    assert status == 0 and "trace of alphabeta, fail-soft, to the end:" in out


@pytest.mark.parametrize("tier", ["python", "compiled"])
def test_no_line_reports_the_best_move_alone(capsys: pytest.CaptureFixture[str],
                                             tier: str) -> None:
    documents = []
    for extra in ([], ["--no-line"]):
        status, out, _ = run(capsys, "solve", "tictactoe", "--moves", "5", "--json", "--tier",
                             tier, *extra)
        assert status == 0
        documents.append(json.loads(out))
    whole, bare = documents
    assert len(whole["pv"]) > 1 and bare["pv"] == [whole["best_move"]]
    assert (bare["value"], bare["moves"]) == (whole["value"], whole["moves"])


def test_analyze_gives_the_exact_scores(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "analyze", "tictactoe", "--moves", "5", "--json")
    engine = {entry["move"]: entry["value"] for entry in json.loads(out)["moves"]}
    _, out, _ = run(capsys, "analyze", "tictactoe", "--moves", "5", "--json", "--algorithm",
                    "alphabeta")
    reference = {entry["move"]: entry["value"] for entry in json.loads(out)["moves"]}
    assert engine == reference


@pytest.mark.parametrize("tier, ran", [("python", "python"), ("auto", "compiled")])
def test_time_and_nodes_budgets(capsys: pytest.CaptureFixture[str], tier: str,
                                ran: str) -> None:
    status, out, _ = run(capsys, "solve", "tictactoe", "--nodes", "1000000", "--json",
                         "--tier", tier)
    document = json.loads(out)
    assert status == 0 and document["outcome"] == "draw"  # solved within the budget
    assert document["stats"]["stopped_by"] is None
    assert (document["algorithm"], document["tier"]) == ("engine", ran)
    status, out, _ = run(capsys, "solve", "tictactoe", "--nodes", "200", "--json",
                         "--tier", tier)
    document = json.loads(out)
    assert status == 0 and document["stats"]["stopped_by"] == "nodes"
    assert document["stats"]["nodes"] <= 200
    assert document["best_move"] is not None
    status, out, _ = run(capsys, "solve", "tictactoe", "--nodes", "200", "--depth", "3",
                         "--tier", tier)
    assert status == 0 and f"engine ({ran} tier), to depth 3" in out


def test_trace_shows_the_engine_at_work(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "trace", "tictactoe", "--moves", "1 5", "--time", "5",
                         "--algorithm", "engine")
    assert status == 0
    assert "Iteration: depth 1" in out and "TABLE ..." in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--time", "0"], "expected a positive number of seconds"),
    (["--time", "soon"], "expected a number of seconds"),
    (["--nodes", "0"], "expected a number >= 1"),
    (["--weak", "--algorithm", "minimax"], "--weak needs the engine, not minimax"),
    (["--nodes", "9", "--algorithm", "alphabeta"],
     "--nodes needs the engine: alphabeta cannot stop half-way"),
    (["--no-line", "--algorithm", "negamax"],
     "--no-line is an option of the engine: negamax finds its line as it searches"),
])
def test_bad_budgets_are_one_line_errors(capsys: pytest.CaptureFixture[str], argv: list[str],
                                         message: str) -> None:
    status, out, err = run(capsys, "solve", "tictactoe", *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize("tier, ran", [("python", "python"), ("auto", "compiled")])
def test_time_budget_from_the_terminal(tier: str, ran: str) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "gametree", "solve", "tictactoe", "--time", "0.2", "--json",
         "--tier", tier],
        capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL,
    )
    assert completed.returncode == 0, completed.stderr
    document = json.loads(completed.stdout)
    assert document["tier"] == ran and document["best_move"] is not None
