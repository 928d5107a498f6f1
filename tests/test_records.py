"""Game records (docs/records.md): the format read, checked and written; kept by the terminal
player (``--save``, ``--load``, ``--record``); stepped through by ``gametree replay``."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from gametree import GameTree, registry
from gametree.play import EXIT_OK, PlaySession, SearchOpponent
from gametree.records import (
    KEYS,
    GameRecord,
    RecordError,
    parse_record,
    read_record,
    record_game,
    write_record,
)

from .cli_support import gametree


def a_record(**changes: Any) -> dict[str, Any]:
    """A valid record of a tic-tac-toe game X won, as JSON, with ``changes``."""
    document: dict[str, Any] = {
        "format": "gametree-record", "version": 1, "game": "tictactoe",
        "options": {"rows": 3, "cols": 3, "k": 3}, "players": ["you", "gametree level 3"],
        "level": 3, "moves": ["1,1", "0,1", "0,0", "2,1", "2,2"],
        "values": [None, {"value": -6, "value_text": "estimate -6", "value_kind": "estimate",
                          "depth": 2}, None, None, None],
        "result": {"winner": 0, "text": "X wins"}, "date": "2026-11-27T12:15:48Z",
    }
    document.update(changes)
    return document


def test_a_record_is_written_and_read_back_whole(tmp_path: Path) -> None:
    record = parse_record(a_record())
    write_record(tmp_path / "game.json", record)
    written = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert list(written) == list(KEYS)
    assert written == a_record()
    assert read_record(tmp_path / "game.json") == record
    assert record.moves_text() == "1,1 0,1 0,0 2,1 2,2"
    _spec, game, states = record_game(record)
    assert len(states) == 6 and game.outcome(states[-1]) is not None


@pytest.mark.parametrize(("changes", "message"), [
    ({"format": "pgn"}, "not a game record: \"format\" must be 'gametree-record'"),
    ({"version": 2}, "\"version\" must be 1, got 2 (written by a newer gametree?)"),
    ({"players": ["you"]}, "\"players\" must be two texts"),
    ({"level": 11}, "\"level\" must be null or a whole number from 1 to 10, got 11"),
    ({"level": True}, "\"level\" must be null or a whole number from 1 to 10, got True"),
    ({"moves": [1, 2]}, "\"moves\" must be a list of move texts"),
    ({"values": [None]}, "\"values\" must be a list with one entry per move (5)"),
    ({"values": [None, {"value": 1}, None, None, None]}, "\"values\" entry 2 must be null or"),
    ({"values": [None, {"value": 1, "value_text": "x", "value_kind": "great", "depth": 1},
                 None, None, None]}, "\"value_kind\" must be one of win, loss, draw"),
    ({"result": {"winner": 2, "text": "?"}}, "\"winner\" must be 0, 1 or null, got 2"),
    ({"date": "yesterday"}, "\"date\" must be an ISO 8601 time"),
    ({"colour": "red"}, "unknown 'colour'; a record has exactly format, version, game"),
])
def test_a_bad_record_is_refused_naming_the_key(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError) as refused:
        parse_record(a_record(**changes))
    assert message in str(refused.value)


def test_a_missing_key_and_a_file_that_is_no_record_are_named(tmp_path: Path) -> None:
    document = a_record()
    del document["values"]
    with pytest.raises(RecordError, match="missing 'values'"):
        parse_record(document)
    broken = tmp_path / "broken.json"
    broken.write_text("{\"format\": ", encoding="utf-8")
    with pytest.raises(RecordError, match=r"broken.json: not a game record: invalid JSON at "
                                          r"line 1"):
        read_record(broken)
    with pytest.raises(RecordError, match="no such file"):
        read_record(tmp_path / "absent.json")


@pytest.mark.parametrize(("changes", "message"), [
    ({"game": "shogi"}, "the record's game 'shogi' is not known here"),
    ({"options": {"rows": "many"}}, "the record's options: tictactoe option rows"),
    ({"moves": ["1,1", "1,1", "0,0", "2,1", "2,2"]},
     "the record's move 2 ('1,1') cannot be played"),
    ({"result": {"winner": 1, "text": "O wins"}},
     "the record's result ('O wins') is not where its moves lead (X wins)"),
])
def test_a_record_whose_game_cannot_be_played_is_refused(changes: dict[str, Any],
                                                         message: str) -> None:
    with pytest.raises(RecordError) as refused:
        record_game(parse_record(a_record(**changes)))
    assert message in str(refused.value)


def tree_session(typed: str, tmp_path: Path) -> tuple[int, str, Path]:
    game = GameTree.from_leaves("win loss draw win loss loss draw draw")
    save = tmp_path / "tree.json"
    record = GameRecord("tree", {}, ("you", "gametree"))
    out = io.StringIO()
    session: PlaySession[Any, Any] = PlaySession(
        game, SearchOpponent(), human=0, output=out, stdin=io.StringIO(typed), record=record,
        save=save)
    return session.run(), out.getvalue(), save


def test_after_the_end_the_player_may_undo_or_start_again(tmp_path: Path) -> None:
    status, out, save = tree_session("C\nF1\nhint\nundo\nundo\nB\nD1\nnew\nquit\n",
                                     tmp_path)
    assert status == EXIT_OK
    assert "Game over: you lost after 3 moves." in out
    assert 'The moves, to play them again: --moves "C F F1"' in out
    assert "The game is over: 'hint' cannot be played." in out
    assert "Taken back: F1.\n" in out and "Taken back: C F.\n" in out
    assert "Game over: you won after 3 moves!" in out
    assert 'The moves, to play them again: --moves "B D D1"' in out
    assert "A new game." in out
    saved = read_record(save)  # the new game, quit before its first move
    assert (saved.moves, saved.result) == ([], None)


def test_quitting_prints_the_move_line_and_saves(tmp_path: Path) -> None:
    status, out, save = tree_session("B\nquit\n", tmp_path)
    assert status == EXIT_OK
    assert out.rstrip().endswith("Saved to " + str(save) + " (gametree play --load, gametree "
                                 "replay).")
    assert 'The moves, to play them again: --moves "B D"' in out
    saved = read_record(save)
    assert saved.moves == ["B", "D"] and saved.result is None
    assert saved.values[0] is None  # the person's move: the engine did not search there
    # The engine's value before its own move D, seen by MIN (the player to move there).
    assert saved.values[1] == {"value": -999_998, "value_text": "loss in 2",
                               "value_kind": "loss", "depth": None}


@pytest.mark.slow
def test_a_terminal_game_saved_resumed_replayed_and_searched(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    first = gametree("play", "tictactoe", "--perfect", "--tier", "python", "--save",
                     str(save), typed="0,0\nquit\n", timeout=120)
    assert first.returncode == 0, first.stderr
    started = read_record(save)
    assert len(started.moves) == 2 and started.players == ("you", "gametree")
    assert f'--moves "{started.moves_text()}"' in first.stdout
    # Resume: the game goes on from move 3, the record grows, and undo reaches the old moves.
    game = registry.make("tictactoe")
    _spec, _game, states = record_game(started)
    free = next(text for text in ("0,1", "0,2", "1,0", "1,2", "2,0", "2,1", "2,2", "1,1")
                if game.parse_move(states[-1], text) in game.moves(states[-1]))
    resumed = gametree("play", "--load", str(save), "--perfect", "--tier", "python",
                       typed=f"{free}\nquit\n", timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert "Move 3: X to move (you)." in resumed.stdout
    record = read_record(save)
    assert record.moves[:3] == [*started.moves, free] and len(record.moves) == 4
    # Replay, not on a terminal: every move and the summary, without waiting.
    replayed = gametree("replay", str(save), "--tier", "python", typed="", timeout=120)
    assert replayed.returncode == 0, replayed.stderr
    for number, text in enumerate(record.moves, start=1):
        assert f"Move {number}: {'XO'[(number - 1) % 2]} plays {text}: " in replayed.stdout
    assert "Mistakes by X (you): " in replayed.stdout
    assert "Result: the game goes on." in replayed.stdout
    # Any command starts from the record: solve sees the position after its four moves.
    solved = gametree("solve", "--record", str(save), "--json", "--tier", "python",
                      timeout=120)
    direct = gametree("solve", "tictactoe", "--moves", record.moves_text(), "--json",
                      "--tier", "python", timeout=120)
    assert solved.returncode == 0, solved.stderr
    keys = ("value_text", "best_move", "moves")
    assert [json.loads(solved.stdout)[key] for key in keys] == \
        [json.loads(direct.stdout)[key] for key in keys]


def test_replay_marks_the_move_that_let_a_draw_go(tmp_path: Path) -> None:
    from gametree.play.replay import Replay  # noqa: PLC0415

    record = parse_record(a_record())  # O's 0,1 (move 2) loses a drawn game
    _spec, game, states = record_game(record)
    out = io.StringIO()
    assert Replay(game, record, states, SearchOpponent(tier="python"), out).run() == 0
    text = out.getvalue()
    assert "Move 2: O plays 0,1: loss in 6 plies for O (exact;" in text
    assert "MISTAKE: a draw let go to a loss; the best was" in text
    assert "Mistakes by X (you): 0.\nMistakes by O (gametree level 3): 1 (move 2).\n" in text


def test_a_record_contradicted_on_the_command_line_is_refused(tmp_path: Path) -> None:
    from gametree.cli import main  # noqa: PLC0415

    save = tmp_path / "game.json"
    save.write_text(json.dumps(a_record()), encoding="utf-8")
    assert main(["solve", "--record", str(tmp_path / "absent.json")]) == 2
    assert main(["solve", "connect4", "--record", str(save)]) == 2
    assert main(["solve", "tictactoe", "--record", str(save), "--moves", "1,1"]) == 2


@pytest.mark.slow
def test_replay_on_a_terminal_waits_steps_back_and_stops(tmp_path: Path) -> None:
    import os  # noqa: PLC0415
    import pty  # noqa: PLC0415
    import select  # noqa: PLC0415
    import sys  # noqa: PLC0415
    import time  # noqa: PLC0415

    game_file = tmp_path / "game.json"
    game_file.write_text(json.dumps(a_record()), encoding="utf-8")
    pid, terminal = pty.fork()
    if pid == 0:  # the child: gametree replay on the pseudo-terminal
        os.execvp(sys.executable, [sys.executable, "-m", "gametree", "replay", str(game_file),
                                   "--tier", "python", "--color", "never"])
    shown = b""

    def read_until(text: bytes, count: int) -> None:
        nonlocal shown
        deadline = time.monotonic() + 120
        while shown.count(text) < count and time.monotonic() < deadline:
            if select.select([terminal], [], [], 0.2)[0]:
                shown += os.read(terminal, 4096)

    prompt = b"[Enter] next, b back, q quit> "
    for count, key in enumerate((b"\n", b"b\n", b"q\n"), start=1):
        read_until(prompt, count)
        os.write(terminal, key)
    _, status = os.waitpid(pid, 0)
    os.close(terminal)
    text = shown.decode()
    assert os.waitstatus_to_exitcode(status) == 0
    assert text.count("Move 1: X plays 1,1") == 2  # shown, stepped back to, shown again
    assert text.count("MISTAKE: a draw let go to a loss") == 1
    assert "Result:" not in text  # stopped before the end
