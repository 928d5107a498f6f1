"""``gametree play`` on the games of the seeds, end to end."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gametree.registry import games


def gametree_play(*args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gametree", "play", *args], input=typed,
                          capture_output=True, text=True, timeout=300, check=False)


def test_seed_004_sticks_session() -> None:
    # Seed 004: rows 1, 2, 3; Dave takes all 3 sticks of row 3; "CP #1 MiniMax depth=3" takes
    # 2 from row 2 ("I've got you now"), leaving Dave the last stick, which loses (misere).
    done = gametree_play("sticks", "--depth", "3", typed="3:3\n1:1\n")
    assert done.returncode == 0, done.stderr
    assert "Engine (second player) plays 2:2.  [its view: win in 2 plies;" in done.stdout
    assert done.stdout.rstrip().endswith("Game over: you lost after 3 moves.")


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
    assert done.stdout.rstrip().endswith("You quit: game abandoned.")
    assert done.stderr == ""
