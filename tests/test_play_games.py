"""``gametree play`` on the games of the seeds, end to end."""

from __future__ import annotations

import subprocess

import pytest

from gametree.registry import games

from .cli_support import gametree, without_compile_notice


def gametree_play(*args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    return gametree("play", *args, typed=typed)


def test_seed_004_sticks_session() -> None:
    # Seed 004: rows 1, 2, 3; Dave takes all 3 sticks of row 3; "CP #1 MiniMax depth=3" takes
    # 2 from row 2 ("I've got you now"), leaving Dave the last stick, which loses (misere).
    done = gametree_play("sticks", "--depth", "3", typed="3:3\n1:1\n")
    assert done.returncode == 0, done.stderr
    assert ("Engine (second player) plays 2:2.  [its view: win in 2 plies for second player, "
            "exact;") in done.stdout
    assert "Game over: you lost after 3 moves." in done.stdout


@pytest.mark.parametrize(("heap", "winner"), [(6, "first"), (8, "second")])
def test_watching_bones_follows_seed_001(heap: int, winner: str) -> None:
    # Seed 001: a heap of 6 bones is a win for the player to move, 8 (a multiple of 4) a loss.
    done = gametree_play("bones", "--heap", str(heap), "--watch", "--perfect")
    assert done.returncode == 0, done.stderr
    assert f"Game over: {winner} player wins" in done.stdout


@pytest.mark.parametrize("name", sorted(set(games()) - {"tree"}))
def test_every_registered_game_starts_and_quits_cleanly(name: str) -> None:
    done = gametree_play(name, "--depth", "1", typed="help\nhint\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Legal moves: " in done.stdout
    assert "Hint: play " in done.stdout
    assert "You quit: game abandoned." in done.stdout
    assert without_compile_notice(done.stderr) == ""  # the notice only if it compiles first


def test_connect4_engine_takes_an_immediate_win() -> None:
    # X has 1, 2, 3 on the bottom row and is to move: column 4 wins at once.
    done = gametree_play("connect4", "--moves", "112233", "--first", "engine", "--depth", "4")
    assert done.returncode == 0, done.stderr
    assert "Engine (X) plays 4.  [its view: win in 1 ply for X, exact;" in done.stdout
    assert "Game over: you lost after 7 moves." in done.stdout  # the --moves count too


def test_connect4_engine_blocks_a_threat() -> None:
    # O to move must block X's 1-2-3 on the bottom row at column 4.
    done = gametree_play("connect4", "--moves", "11223", "--first", "engine", "--depth", "2",
                         typed="quit\n")
    assert done.returncode == 0, done.stderr
    assert "Engine (O) plays 4." in done.stdout


def test_connect4_refuses_a_full_column_and_a_column_off_the_board() -> None:
    done = gametree_play("connect4", "--moves", "111111", "--depth", "2",
                         typed="1\n8\n4\nquit\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Illegal move:") == 2
    assert "You play 4." in done.stdout
