"""The command line with the compiled tier: automatic choice, --tier, --weak, Pons' scores,
--moves-file, and refusing bad positions the same way on both tiers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .cli_support import run
from .pons import pons_file


@pytest.mark.parametrize("moves, score, outcome, plies", [("4455", 18, "win", 3),
                                                         ("44455554221", -15, "loss", 2)])
def test_connect4_scores_in_pons_convention(capsys: pytest.CaptureFixture[str], moves: str,
                                            score: int, outcome: str, plies: int) -> None:
    status, out, _ = run(capsys, "solve", "connect4", "--moves", moves, "--json")
    assert status == 0
    document = json.loads(out)
    assert document["tier"] == "compiled"  # chosen automatically
    assert (document["score"], document["outcome"], document["plies"]) == (score, outcome,
                                                                          plies)
    assert len(document["pv"]) == plies


def test_moves_file_solves_a_whole_set_in_one_process(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    lines = pons_file("L2_R1").read_text().split("\n")[:30]
    path = tmp_path / "positions.txt"
    path.write_text("\n".join(lines) + "\n")
    status, out, _ = run(capsys, "solve", "connect4", "--moves-file", str(path))
    assert status == 0
    documents = [json.loads(line) for line in out.splitlines()]
    assert len(documents) == 30
    assert all(document["tier"] == "compiled" for document in documents)
    assert all(document["agrees"] for document in documents)
    assert [document["score"] for document in documents] == \
           [int(line.split()[1]) for line in lines]


def test_tiers_agree_and_can_be_forced(capsys: pytest.CaptureFixture[str]) -> None:
    values = {}
    for tier in ("python", "compiled"):
        status, out, _ = run(capsys, "analyze", "tictactoe", "--moves", "5 1", "--json",
                             "--tier", tier)
        assert status == 0
        document = json.loads(out)
        values[tier] = [(entry["move"], entry["value"]) for entry in document["moves"]]
        assert (document["algorithm"], document["tier"]) == ("engine", tier)
    assert values["python"] == values["compiled"]


def test_weak_solving_on_both_tiers(capsys: pytest.CaptureFixture[str]) -> None:
    for tier in ("python", "compiled"):  # Pons' L3_R1, line 1 (score -1): quick on both
        status, out, _ = run(capsys, "solve", "connect4", "--moves",
                             "2252576253462244111563365343671351441", "--weak", "--json",
                             "--tier", tier)
        assert status == 0, tier
        document = json.loads(out)
        assert (document["outcome"], document["value"], document["plies"]) == ("loss", -1, None)


def test_auto_keeps_the_python_tier_when_asked_for_its_algorithms(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "tictactoe", "--moves", "5 1 9", "--json",
                         "--algorithm", "alphabeta")
    assert status == 0 and json.loads(out)["algorithm"] == "alphabeta"
    status, out, _ = run(capsys, "trace", "bones", "--heap", "3", "--json")
    assert status == 0 and json.loads(out)["events"]


@pytest.mark.parametrize("argv, reason", [
    (("solve", "tictactoe", "--algorithm", "minimax"), "--algorithm minimax"),
    (("trace", "bones", "--heap", "3"), "not --algorithm alphabeta"),
    (("trace", "bones", "--heap", "3", "--algorithm", "engine"), "trace"),
    (("solve", "connect4", "--width", "9", "--height", "9", "--moves", "5"), "90 bits"),
    (("solve", "tree", "--leaves", "1 2 3 4"), "no compiled form"),
])
def test_forced_compiled_tier_says_why_it_cannot(capsys: pytest.CaptureFixture[str],
                                                 argv: tuple[str, ...], reason: str) -> None:
    status, out, err = run(capsys, *argv, "--tier", "compiled")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "--tier compiled" in err and reason in err


@pytest.mark.parametrize("tier", ["python", "compiled"])
@pytest.mark.parametrize("moves, message", [
    ("448", "move 3 ('8') cannot be played: column 8 is off the board"),
    ("4444444", "move 7 ('4') cannot be played: column 4 is full"),
    ("445566771", "move 8 ('7') cannot be played: the game is over"),
    ("44x", "move 3 ('x') cannot be played"),
])
def test_bad_positions_are_refused_on_both_tiers(capsys: pytest.CaptureFixture[str],
                                                 tier: str, moves: str, message: str) -> None:
    status, out, err = run(capsys, "solve", "connect4", "--moves", moves, "--tier", tier)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_weak_takes_no_depth(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "solve", "connect4", "--weak", "--depth", "3")
    assert status == 2 and "--weak" in err
