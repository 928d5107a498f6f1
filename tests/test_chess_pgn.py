"""Chess records in PGN (docs/chess.md, docs/records.md): ``gametree play chess --save
game.pgn`` writes PGN, ``--load``, ``--record`` and ``replay`` read it, a PGN that cannot be
read is refused in one line, and python-chess reads what gametree writes."""

from __future__ import annotations

import io
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest

from gametree.records import (
    GameRecord,
    RecordError,
    read_record,
    transcript_record,
    transcript_text,
    write_record,
)
from gametree.registry import games

from .cli_support import gametree, run

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
"""A back-rank mate: Ra8#."""


def read_pgn(path: Path) -> chess.pgn.Game:
    """The first game of a PGN file, as python-chess reads it (no errors allowed)."""
    game = chess.pgn.read_game(io.StringIO(path.read_text(encoding="utf-8")))
    assert game is not None and not game.errors, path.read_text(encoding="utf-8")
    return game


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str,
         *argv: str) -> tuple[int, str, str]:
    """``gametree play ARGV`` in this process, ``typed`` as its input."""
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    return run(capsys, "play", *argv)


def test_a_game_saved_as_pgn_is_pgn_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "game.pgn"
    status, out, err = play(capsys, monkeypatch, "e4\nNf3\nquit\n", "chess", "--depth", "1",
                            "--save", str(save))
    assert status == 0, err
    written = read_pgn(save)
    headers = written.headers
    assert (headers["Event"], headers["White"], headers["Black"], headers["Result"]) == \
        ("gametree game", "you", "gametree", "*")
    assert headers["Date"] == datetime.now(timezone.utc).strftime("%Y.%m.%d")
    assert "FEN" not in headers and "SetUp" not in headers  # from the standard start
    moves = [move.uci() for move in written.mainline_moves()]
    assert len(moves) == 4 and moves[0] == "e2e4" and moves[2] == "g1f3"
    # --load resumes it: the person is White again, after the four moves; saving goes on.
    status, out, err = play(capsys, monkeypatch, "quit\n", "--load", str(save), "--depth", "1")
    assert status == 0, err
    assert "Move 5: White to move (you)." in out
    record = read_record(save)
    assert record.players == ("you", "gametree") and len(record.moves) == 4
    assert [move.uci() for move in read_pgn(save).mainline_moves()] == moves


def test_a_game_from_a_fen_keeps_it_and_its_result(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "mate.PGN"  # the suffix in any case
    status, _out, err = play(capsys, monkeypatch, "Ra8#\nquit\n", "chess", "--fen",
                             MATE_IN_ONE, "--depth", "1", "--save", str(save))
    assert status == 0, err
    written = read_pgn(save)
    assert (written.headers["FEN"], written.headers["SetUp"], written.headers["Result"]) == \
        (MATE_IN_ONE, "1", "1-0")
    assert written.end().board().is_checkmate()
    record = read_record(save)
    assert record.options == {"fen": MATE_IN_ONE} and record.moves == ["Ra8#"]
    assert record.result == {"winner": 0, "text": "White wins"}
    # --record starts a search from its last position: the game is over there.
    status, out, _err = run(capsys, "solve", "--record", str(save), "--depth", "1", "--json")
    assert status == 0 and json.loads(out)["best_move"] is None


def test_a_pgn_of_another_program_is_read(tmp_path: Path) -> None:
    game = tmp_path / "opera.pgn"
    game.write_text('[Event "Paris"]\n[White "Morphy"]\n[Black "Duke and Count"]\n'
                    '[Date "1858.??.??"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 '
                    '{a comment} 4. dxe5 (4. c3) Bxf3 1-0\n\n[Event "second"]\n\n1. d4 *\n',
                    encoding="utf-8")
    record = read_record(game)  # the first game; its variation and comment left out
    assert record.players == ("Morphy", "Duke and Count")
    assert record.moves == ["e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3"]
    assert record.result is None  # a resignation: the moves do not end the game
    assert record.values == [None] * 8 and record.level is None


@pytest.mark.parametrize(("text", "message"), [
    ("1. e4 e5 2. Ke3 *\n", "move 2. Ke3 cannot be played (illegal SAN) in "
                            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
    ("1. e4 e5 2. Nf3 Nf3 *\n", "move 2... Nf3 cannot be played (illegal SAN)"),
    ("hello\n", "not a PGN game: no tag pairs and no moves in it"),
    ('[FEN "not a fen"]\n\n1. e4 *\n', "not a PGN game python-chess can read: expected 'w' "
                                       "or 'b' for turn part of fen"),
    ('[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n*\n', "is not a position of a game: no white king"),
    ('[Variant "Atomic"]\n\n1. e4 *\n', "a game of Atomic: gametree's chess plays standard "
                                          "chess only"),
    ('[Variant "Chess960"]\n[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf '
     '- 2 9"]\n\n9. g3 *\n', "a game of Chess960"),
])
def test_a_bad_pgn_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          text: str, message: str) -> None:
    bad = tmp_path / "bad.pgn"
    bad.write_text(text, encoding="utf-8")
    for argv in (("replay", str(bad)), ("play", "--load", str(bad)),
                 ("solve", "--record", str(bad))):
        status, out, err = run(capsys, *argv)
        assert status == 2 and out == ""
        line = err.strip()
        assert "\n" not in line and line.startswith(f"gametree {argv[0]}: error: {bad}: ")
        assert message in line


def test_the_conversion_is_one_for_every_front_end() -> None:
    spec = games()["chess"]
    record = GameRecord("chess", {}, ("you", "gametree level 3"), ["e4", "c7c5", "Nf3"],
                        [None, None, None], level=3, date="2026-11-27T12:15:48Z")
    text = transcript_text(record)
    assert '[UTCTime "12:15:48"]' in text and "1. e4 c5 2. Nf3 *" in text  # UCI in, SAN out
    back = transcript_record(spec, text)
    assert (back.moves, back.players, back.date) == (["e4", "c5", "Nf3"], record.players,
                                                     record.date)
    with pytest.raises(RecordError, match="tictactoe records are kept in JSON only"):
        transcript_text(GameRecord("tictactoe", {}, ("you", "gametree")))


def test_another_game_saved_as_pgn_stays_json(tmp_path: Path) -> None:
    record = GameRecord("tictactoe", {}, ("you", "gametree"), ["1,1"], [None])
    write_record(tmp_path / "game.pgn", record)  # tic-tac-toe has no PGN: its JSON record
    assert json.loads((tmp_path / "game.pgn").read_text(encoding="utf-8"))["moves"] == ["1,1"]
    assert read_record(tmp_path / "game.pgn") == record


@pytest.mark.slow
def test_a_real_process_saves_pgn_and_replays_it(tmp_path: Path) -> None:
    save = tmp_path / "game.pgn"
    played = gametree("play", "chess", "--depth", "1", "--save", str(save),
                      typed="d4\nquit\n", timeout=120)
    assert played.returncode == 0, played.stderr
    assert [move.uci() for move in read_pgn(save).mainline_moves()][:1] == ["d2d4"]
    replayed = gametree("replay", str(save), "--depth", "1", timeout=120)
    assert replayed.returncode == 0, replayed.stderr
    assert "Move 1: White plays d4: " in replayed.stdout


@pytest.mark.slow  # starts the server's worker pool: about a second
def test_the_api_reads_and_writes_pgn_as_the_command_line_does() -> None:
    from fastapi.testclient import TestClient  # noqa: PLC0415 - the web extra

    from gametree.web.app import create_app  # noqa: PLC0415
    from gametree.web.limits import ServerLimits  # noqa: PLC0415

    with TestClient(create_app(ServerLimits(workers=1)), raise_server_exceptions=False) as client:
        listed = {game["name"]: game["transcript"] for game in client.get("/api/games").json()}
        assert listed["chess"] == {"name": "PGN", "suffix": ".pgn"} and listed["nim"] is None
        read = client.post("/api/transcript/read", json={
            "game": "chess", "text": f'[FEN "{MATE_IN_ONE}"]\n\n1. a1a8 *'})  # UCI too
        assert read.status_code == 200, read.text
        record = read.json()
        assert (record["moves"], record["options"], record["result"]) == (
            ["Ra8#"], {"fen": MATE_IN_ONE}, {"winner": 0, "text": "White wins"})
        written = client.post("/api/transcript/write", json={"record": record})
        assert written.status_code == 200, written.text
        assert written.json()["suffix"] == ".pgn"
        assert written.json()["text"] == transcript_text(read_record_json(record))
        for path, body, message in [
            ("read", {"game": "chess", "text": "1. e4 e5 2. Ke3 *"},
             "move 2. Ke3 cannot be played (illegal SAN)"),
            ("read", {"game": "nim", "text": "1. e4"}, "nim records are kept in JSON only"),
            ("read", {"game": "go", "text": "1. e4"}, "unknown game 'go'"),
            ("write", {"record": {**record, "moves": ["Ra7"]}},
             "the record's result ('White wins') is not where its moves lead"),
            ("write", {"record": {**record, "game": "nim", "options": {}, "moves": [],
                                  "values": [], "result": None}},
             "nim records are kept in JSON only"),
        ]:
            refused = client.post(f"/api/transcript/{path}", json=body)
            assert refused.status_code == 400 and message in refused.json()["detail"], \
                refused.text


def read_record_json(document: dict[str, Any]) -> GameRecord:
    """A record from its JSON object (as the page sends it)."""
    from gametree.records import parse_record  # noqa: PLC0415

    return parse_record(document)
