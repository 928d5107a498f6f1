"""``gametree match`` end to end (real games through the command line, a real results file
and PNG), and its parts: engine specs, openings, the schedule, the SPRT stop, resuming, and
the same results on one worker or several."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import registry, search
from gametree.arena.openings import (
    balanced_opening,
    make_openings,
    opening_state,
    parse_openings,
)
from gametree.arena.players import (
    SpecError,
    chess_board,
    parse_engine,
    parse_engines,
)
from gametree.arena.plot import PlotError, check_plotting
from gametree.arena.results import tally
from gametree.arena.schedule import Match, balance_checks
from gametree.arena.stats import Sprt
from gametree.cli import main
from gametree.options import OptionError
from gametree.plugins import PATHS_VARIABLE

from .chess_support import need_stockfish

PYTHON_TIER = "tier=python"
"""Tic-tac-toe's engines search on the Python tier here: no kernel to compile."""


def _rows(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return lines[0]["match"], lines[1:]


@pytest.mark.slow  # imports matplotlib and draws (about 3 s)
def test_a_small_match_through_the_command_line(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib", reason="the plot needs matplotlib (the 'plot' extra)")
    save, plot = tmp_path / "games.jsonl", tmp_path / "match.png"
    status = main(["match", "tictactoe", "--engine", f"perfect,{PYTHON_TIER}",
                   "--engine", f"level=1,{PYTHON_TIER},name=beginner", "--games", "6",
                   "--workers", "1", "--save", str(save), "--plot", str(plot)])
    out = capsys.readouterr().out
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("tictactoe (rows=3, cols=3, k=3): 6 games per pairing")
    header = lines[1].split()
    assert header[:4] == ["engine", "perfect,tier=python", "beginner", "score"]
    perfect = lines[2].split()
    beginner = lines[3].split()
    # Perfect play never loses tic-tac-toe from a position it can hold; the beginner's row
    # mirrors the perfect engine's.
    points = float(perfect[2].split("/")[0])
    assert perfect[2].endswith("/6") and beginner[1].endswith("/6")
    assert float(beginner[1].split("/")[0]) == 6 - points
    assert "perfect,tier=python vs beginner:" in out
    assert "6 games played now on 1 worker(s)" in out
    description, rows = _rows(save)
    assert description["game"] == "tictactoe"
    assert [engine["name"] for engine in description["engines"]] == \
        ["perfect,tier=python", "beginner"]
    assert len(description["opening_lines"]) == 3
    assert sorted(row["game"] for row in rows) == list(range(6))
    for row in rows:
        record = row["record"]
        assert record["format"] == "gametree-record"
        assert record["moves"] == row["moves"]
        assert row["moves"][:2] == description["opening_lines"][row["opening"]]
        assert record["players"] == [description["engines"][side]["name"]
                                     for side in row["players"]]
        # The record's result agrees with the score: replay the moves and look.
        game = registry.make("tictactoe")
        state = opening_state(game, tuple(row["moves"]))
        outcome = game.outcome(state)
        assert outcome is not None
        assert row["score"] == (0.5 if outcome == 0 else 1.0 if outcome > 0 else 0.0)
    # Each opening twice, colours swapped.
    for opening in range(3):
        pair = [row for row in rows if row["opening"] == opening]
        assert sorted(tuple(row["players"]) for row in pair) == [(0, 1), (1, 0)]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert points == sum(row["score"] if row["players"][0] == 0 else 1 - row["score"]
                         for row in rows)


def test_a_match_resumes_and_extends_its_file(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "games.jsonl"
    command = ["match", "tictactoe", "--engine", f"depth=1,{PYTHON_TIER}",
               "--engine", f"depth=2,{PYTHON_TIER}", "--workers", "1", "--save", str(save),
               "--seed", "3"]
    assert main([*command, "--games", "4"]) == 0
    first = capsys.readouterr().out
    assert "4 games played now" in first
    _, rows = _rows(save)
    assert len(rows) == 4
    assert main([*command, "--games", "4"]) == 0
    assert "0 games played now" in capsys.readouterr().out
    assert main([*command, "--games", "6"]) == 0
    again = capsys.readouterr().out
    assert "2 games played now" in again and "(6 games)" in again
    description, rows = _rows(save)
    assert sorted(row["game"] for row in rows) == list(range(6))
    for row in rows:  # the opening's moves have no value; each engine move its search's
        values = row["record"]["values"]
        assert values[:2] == [None, None]
        assert all(entry["value_text"] and (entry["depth"] is None or entry["depth"] <= 3)
                   for entry in values[2:])
    assert description["games"] == 6 and len(description["opening_lines"]) == 3
    # Another match in the same file is refused, with the file named.
    assert main(["match", "tictactoe", "--engine", f"depth=1,{PYTHON_TIER}",
                 "--engine", f"depth=3,{PYTHON_TIER}", "--workers", "1",
                 "--save", str(save)]) == 2
    assert "holds another match" in capsys.readouterr().err


def test_the_sprt_stops_the_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "games.jsonl"
    status = main(["match", "tictactoe", "--engine", f"perfect,{PYTHON_TIER}",
                   "--engine", f"level=1,{PYTHON_TIER}", "--games", "200", "--workers", "1",
                   "--sprt", "0,100", "--save", str(save), "--json"])
    assert status == 0
    found = json.loads(capsys.readouterr().out)
    sprt = found["sprt"]
    assert sprt["decision"] == "H1"
    assert sprt["llr"] >= sprt["bounds"][1]
    assert sprt["games"] < 200
    assert found["games"] == sprt["games"]
    _, rows = _rows(save)
    assert len(rows) == sprt["games"]  # one worker: it stopped at once
    # One pair fewer would not have decided: the stop came at the first chance.
    shorter = [row for row in rows if row["game"] < sprt["games"] - 2]
    assert Sprt(0, 100).decide(tally(shorter, 0, 1).counts("pentanomial")) == "continue"


def test_a_game_given_by_path_and_the_progress_bar(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # A game that is not installed (tests/served_game.py: Kayles), named by its path, as on
    # every command; the registry and $GAMETREE_GAMES stay this test's.
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry.games()))
    monkeypatch.setenv(PATHS_VARIABLE, "")
    served = Path(__file__).resolve().parent / "served_game.py"
    assert main(["match", "--game", f"{served}:Kayles", "--pins", "5",
                 "--engine", f"perfect,{PYTHON_TIER}", "--engine", f"depth=1,{PYTHON_TIER}",
                 "--games", "2", "--workers", "1", "--openings", "random:1",
                 "--progress", "always"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("kayles (pins=5): 2 games per pairing")
    assert "perfect,tier=python vs depth=1,tier=python:" in captured.out
    assert re.search(r"\d/2 \[.* games/s\]", captured.err)  # tqdm's bar (cleared at the end)


@pytest.mark.slow  # starts two worker processes, which import gametree
def test_workers_play_the_same_games_as_one(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    def moves(workers: int, games: int) -> dict[int, list[str]]:
        save = tmp_path / f"w{workers}-{games}.jsonl"
        assert main(["match", "tictactoe", "--engine", f"level=3,{PYTHON_TIER},name=a",
                     "--engine", f"level=5,{PYTHON_TIER},name=b",
                     "--engine", f"depth=2,{PYTHON_TIER},name=c", "--games", str(games),
                     "--seed", "7", "--workers", str(workers), "--save", str(save)]) == 0
        capsys.readouterr()
        return {row["game"]: row["moves"] for row in _rows(save)[1]}

    alone = moves(1, 6)
    assert len(alone) == 18
    assert len({tuple(line) for line in alone.values()}) > 6  # the seeds make games differ
    assert moves(2, 6) == alone
    # A game's moves do not depend on the games before it: game 5 of a longer match on
    # two workers is game 5 of this one.
    longer = moves(2, 8)
    assert all(longer[index] == alone[index] for index in alone if index < 12)


@pytest.mark.slow  # a new interpreter imports gametree
def test_the_command_runs_as_a_program(tmp_path: Path) -> None:
    save = tmp_path / "games.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "gametree", "match", "nim", "--rows", "1,2",
         "--engine", "perfect", "--engine", "depth=1", "--games", "2", "--workers", "1",
         "--openings", "start", "--save", str(save)],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}, check=False)
    assert done.returncode == 0, done.stderr
    assert "perfect  -" in done.stdout
    assert len(_rows(save)[1]) == 2


@pytest.mark.parametrize(("words", "message"), [
    (["--engine", "depth=2"], "at least two engines"),
    (["--engine", "depth=2", "--engine", "depth=2"], "two engines are called 'depth=2'"),
    (["--engine", "depth=2", "--engine", "deep=3"], "unknown setting 'deep'"),
    (["--engine", "depth=2", "--engine", "depth=x"], "depth=x"),
    (["--engine", "depth=2", "--engine", "level=11"], "level=11"),
    (["--engine", "depth=2", "--engine", "perfect,depth=3"], "perfect searches to the end"),
    (["--engine", "depth=2", "--engine", "uci=/bin/sh,time=1"], "UCI engine plays chess only"),
    (["--engine", "a", "--engine", "b"], "unknown setting 'a'"),
    (["--engine", "depth=1", "--engine", "depth=2", "--engine", "depth=3", "--sprt", "0,5"],
     "--sprt compares two engines"),
    (["--engine", "depth=1", "--engine", "depth=2", "--sprt", "5,0"], "elo0 < elo1"),
    (["--engine", "depth=1", "--engine", "depth=2", "--openings", "wild"], "--openings"),
])
def test_bad_input_gets_one_line(words: list[str], message: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(["match", "tictactoe", "--workers", "1", *words])
    except SystemExit as stop:  # the argument parser's own errors
        status = stop.code  # type: ignore[assignment]
    assert status == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_specs_read_the_search_options_declarations() -> None:
    found = parse_engine("depth=6, tier=python, no-book,name=six")
    assert found.name == "six"
    assert found.options is not None
    assert (found.options.depth, found.options.tier, found.options.book) == (6, "python",
                                                                            False)
    table = parse_engine("tier=compiled,table-memory=16MiB").options
    assert table is not None and table.table_memory == 16 * 2**20
    with pytest.raises(OptionError, match="compiled tier"):  # the options' own checks
        parse_engine("tier=python,table-memory=16MiB")
    assert parse_engine("perfect").options == parse_engine("tier=auto").options
    assert parse_engine("level=3").level == 3
    assert parse_engine("table=0").options.tuning.table == 0  # type: ignore[union-attr]
    assert parse_engine("time=0.25").options.time == 0.25  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="table_memory must be"):  # the declaration's range
        parse_engine("table-memory=1KiB")
    with pytest.raises(SpecError, match="switch"):
        parse_engine("no-book=yes")
    with pytest.raises(SpecError, match="given twice"):
        parse_engine("depth=1,depth=2")
    with pytest.raises(SpecError, match="tier=compiled"):
        parse_engine("eval=json:loads,tier=compiled")
    with pytest.raises(SpecError, match="at least two"):
        parse_engines(["depth=1"])


def test_an_evaluation_of_ones_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = tmp_path / "centre.py"
    module.write_text("def prefer_centre(state):\n    return 0\n")
    config = parse_engine(f"depth=2,eval={module}:prefer_centre")
    assert config.options is not None and config.options.tier == "python"
    game = registry.make("connect4", width=5, height=4)
    player, seen = config.player(game, seed=1)
    try:
        assert seen is not game and seen.evaluate(game.initial_state()) == 0
        assert seen.compiled_form() is None
        assert player.choose(seen, game.initial_state()) in game.moves(game.initial_state())
    finally:
        player.close()
    with pytest.raises(SpecError, match="no function 'missing'"):
        parse_engine(f"eval={module}:missing").player(game, seed=None)


def test_openings() -> None:
    game = registry.make("connect4", width=5, height=4)
    found = make_openings(game, parse_openings("random:3"), 10, seed=1)
    assert len(found) == 10 and len(set(found)) == 10
    assert all(len(line) == 3 for line in found)
    assert make_openings(game, parse_openings("random:3"), 10, seed=1) == found
    assert make_openings(game, parse_openings("random:3"), 10, seed=2) != found
    assert make_openings(game, parse_openings("start"), 2, seed=1) == [(), ()]
    with pytest.raises(ValueError, match="takes start"):
        parse_openings("random")
    with pytest.raises(ValueError, match="depth must be >= 1"):
        parse_openings("balanced:2:0")


@pytest.mark.slow  # the balance check searches Connect Four 5x4 on its compiled kernel
def test_balanced_openings_are_drawn() -> None:
    game = registry.make("connect4", width=5, height=4)
    balanced = make_openings(game, parse_openings("balanced:2:20"), 3, seed=1)
    assert len(set(balanced)) == 3
    for line in balanced:  # the check searched to the end (20 plies on 5x4): drawn
        assert search(game, opening_state(game, line)).value == 0
    unchecked = make_openings(game, parse_openings("random:2"), 30, seed=1)
    assert any(search(game, opening_state(game, line)).value != 0 for line in unchecked)
    # Checked on two worker processes, several at once: the same openings.
    source = parse_openings("balanced:2:20")
    with balance_checks("connect4", {"width": 5, "height": 4}, 20, 2) as check:
        assert make_openings(game, source, 3, seed=1, check=check, batch=4) == balanced
    # A resumed match's openings are taken again unchecked, and the next ones are a fresh
    # run's.
    checked: list[tuple[str, ...]] = []

    def counting(lines: Sequence[tuple[str, ...]]) -> list[bool]:
        checked.extend(lines)
        return [balanced_opening(game, line, 20) for line in lines]

    longer = make_openings(game, source, 5, seed=1, known=balanced, check=counting)
    assert longer[:3] == balanced
    assert longer == make_openings(game, source, 5, seed=1)
    assert not set(checked) & set(balanced)


def test_openings_from_a_file(tmp_path: Path) -> None:
    game = registry.make("tictactoe")
    path = tmp_path / "openings.txt"
    path.write_text("# two openings\n1,1 0,0\n\n0,1   # a comment\n")
    source = parse_openings(f"file:{path}")
    assert make_openings(game, source, 3, seed=9) == [("1,1", "0,0"), ("0,1",), ("1,1", "0,0")]
    assert parse_openings(str(path)) == source
    path.write_text("1,1 1,1\n")
    with pytest.raises(Exception, match="line 1"):
        make_openings(game, parse_openings(str(path)), 1, seed=1)


def test_the_schedule_is_a_round_robin_with_colours_swapped() -> None:
    engines = tuple(parse_engine(f"depth={depth}") for depth in (1, 2, 3))
    match = Match("tictactoe", {}, engines, (("1,1",), ("0,0",)), games=3, seed=5)
    tasks = list(match.tasks())
    assert len(tasks) == match.total == 9
    assert [task.index for task in tasks] == list(range(9))
    assert [task.players for task in tasks[:6]] == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2),
                                                    (2, 1)]
    assert [task.opening for task in tasks] == [0] * 6 + [1] * 3
    assert len({task.seed for task in tasks}) == 9


def test_plotting_without_matplotlib_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    with pytest.raises(PlotError, match=r"gametree\[plot\]"):
        check_plotting()


def test_stockfish_is_found_or_skipped() -> None:
    found = need_stockfish()
    config = parse_engine(f"uci={found},skill=0,time=0.05,name=sf")
    assert config.uci == found
    assert dict(config.uci_options) == {"Skill Level": 0}
    assert dict(config.uci_limit) == {"time": 0.05}
    with pytest.raises(SpecError, match="needs a limit"):
        parse_engine(f"uci={found}")
    with pytest.raises(SpecError, match="no executable"):
        parse_engine("uci=/nonexistent/engine,time=1")


@pytest.mark.slow  # starts Stockfish for each game and plays chess to the end
def test_a_chess_match_against_stockfish(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("chess", reason="chess needs python-chess (the 'chess' extra)")
    found = need_stockfish()
    save = tmp_path / "chess.jsonl"
    assert main(["match", "chess", "--engine", "depth=1,name=gametree",
                 "--engine", f"uci={found},skill=0,depth=1,name=sf", "--games", "2",
                 "--openings", "random:2", "--workers", "1", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "gametree vs sf:" in out
    _, rows = _rows(save)
    assert len(rows) == 2
    game = registry.make("chess")
    for row in rows:
        state = opening_state(game, tuple(row["moves"]))  # every move legal, in SAN
        assert game.is_over(state)
        assert row["record"]["result"] is not None


def test_a_uci_player_sees_the_moves_played() -> None:
    chess = pytest.importorskip("chess", reason="chess needs python-chess")
    game = registry.make("chess")
    state = opening_state(game, ("e4", "e5", "Nf3"))
    board = chess_board(game, state)
    assert isinstance(board, chess.Board)
    assert [move.uci() for move in board.move_stack] == ["e2e4", "e7e5", "g1f3"]
    assert board.fen() == state.board.fen()


SPEC_TEXT = st.lists(st.sampled_from([
    *"=,.: -0123456789", "depth", "time", "level", "perfect", "tier", "python", "uci",
    "name", "skill", "table", "nodes", "no-book", "table-memory", "MiB", "option.", "eval",
    "\uff14", "nan", "inf"]), max_size=12).map("".join)
"""Engine specs made of the words and signs a spec is made of, in any order."""


@given(SPEC_TEXT)
@settings(max_examples=80, deadline=None)
def test_any_spec_is_read_or_refused_with_a_message(text: str) -> None:
    try:
        found = parse_engine(text)
    except ValueError as error:  # SpecError, the options' OptionError and range checks
        assert str(error)
        return
    assert found.name
    assert (found.options is None) == (found.uci is not None)
