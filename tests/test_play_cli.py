"""``gametree play`` end to end: a real process, moves piped in on standard input."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest

from .cli_support import gametree

TREE = ["tree", "--leaves", "win loss draw win loss loss draw draw"]
"""A MAX (B: D = win/loss, E = draw/win; C: F = loss/loss, G = draw/draw)."""


def gametree_play(*args: str, typed: str = "", env: dict[str, str] | None = None,
                  ) -> subprocess.CompletedProcess[str]:
    return gametree("play", *args, typed=typed, env=env, timeout=120)


def test_a_full_game_won_by_the_engine() -> None:
    done = gametree_play(*TREE, "--perfect", typed="C\nF2\n")
    assert done.returncode == 0, done.stderr
    assert "Engine (MIN) plays F." in done.stdout
    assert "Game over: you lost after 3 moves." in done.stdout
    assert done.stderr == ""


def test_a_drawn_game() -> None:
    done = gametree_play("tree", "--leaves", "draw win draw loss", "--first", "engine",
                         typed="B1\n")
    assert done.returncode == 0, done.stderr
    assert "you are MIN, the engine is MAX" in done.stdout
    assert "Engine (MAX) plays B." in done.stdout  # C would lose to C2; B draws
    assert "Game over: a draw after 2 moves." in done.stdout


def test_illegal_and_malformed_input_is_refused_and_asked_again() -> None:
    done = gametree_play(*TREE, "--depth", "3", typed="Q\n0\n,,,\nC\nF1\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Illegal move:") == 3
    assert "Illegal move: 'Q' is not a move from node A; moves: B, C" in done.stdout
    assert done.stdout.count("your move (MAX)> ") == 5
    assert "Game over: you lost" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_undo() -> None:
    done = gametree_play(*TREE, "--perfect", typed="B\nundo\nC\nF1\n")
    assert done.returncode == 0, done.stderr
    assert "Taken back: B D." in done.stdout
    assert "Game over: you lost after 3 moves." in done.stdout  # C then F: MIN wins


def test_hint_and_scores() -> None:
    done = gametree_play(*TREE, "--time", "20", typed="hint\nscores\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Hint: play B (for you: win in 3 plies, exact;" in done.stdout
    assert "Score for move B = win in 3 plies\nScore for move C = loss in 3 plies\n" \
        in done.stdout


def test_quit() -> None:
    done = gametree_play(*TREE, typed="quit\nB\n")
    assert done.returncode == 0
    assert "You quit: game abandoned." in done.stdout
    assert "You play B" not in done.stdout


def test_end_of_input() -> None:
    done = gametree_play(*TREE, typed="B\n")
    assert done.returncode == 0
    assert "End of input: game abandoned." in done.stdout
    assert done.stderr == ""


def test_watch_mode_needs_no_input() -> None:
    done = gametree_play(*TREE, "--watch", "--perfect")
    assert done.returncode == 0, done.stderr
    assert "Game over: MAX wins after 3 moves." in done.stdout


def test_a_reader_that_goes_away_stops_the_game_quietly() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "gametree", "play", *TREE, "--watch", "--delay", "0.3"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # like `| head -1`; the moves after the first pause hit the closed pipe
    assert process.wait(timeout=60) == 141
    assert process.stderr.read() == b""


def test_piped_output_has_no_colour_unless_asked() -> None:
    plain = gametree_play(*TREE, typed="Q\nquit\n")
    assert "\x1b[" not in plain.stdout
    coloured = gametree_play(*TREE, "--color", "always", typed="Q\nquit\n")
    assert "\x1b[31mIllegal move:" in coloured.stdout


def test_starting_from_moves() -> None:
    done = gametree_play(*TREE, "--moves", "B D", typed="D1\n")
    assert done.returncode == 0, done.stderr
    assert "Game over: you won after 3 moves!" in done.stdout  # the --moves count too


@pytest.mark.parametrize(("args", "message"), [
    (["--time", "0"], "expected a positive number of seconds"),
    (["--time", "soon"], "expected a number of seconds"),
    (["--depth", "0"], "expected a number >= 1"),
    (["--first", "nobody"], "invalid choice"),
    (["--watch", "--first", "engine"], "--first does not apply"),
    (["--perfect", "--depth", "3"], "cannot be combined"),
    (["--moves", "B Z"], "move 2 ('Z') cannot be played"),
    (["--delay", "-1"], "expected a number of seconds >= 0"),
    (["--algorithm", "magic"], "invalid choice"),
])
def test_usage_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    done = gametree_play(*TREE, *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stdout == ""


def test_an_unknown_game_lists_the_games() -> None:
    done = gametree_play("shogi")
    assert done.returncode == 2
    assert "tree" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
def test_ctrl_c_ends_cleanly_with_status_130() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "gametree", "play", *TREE], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + 60
    while b"your move" not in seen and time.monotonic() < deadline:
        seen += os.read(process.stdout.fileno(), 4096)  # the prompt has no newline
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert b"Interrupted: game abandoned." in seen + out
    assert b"Traceback" not in err


def run_in_terminal(*args: str, typed: bytes, env: dict[str, str]) -> tuple[int, str]:
    """Run ``gametree play`` with a pseudo-terminal as its input and output."""
    import pty  # noqa: PLC0415 - POSIX only, like the tests that use it
    import select  # noqa: PLC0415

    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "gametree", "play", *args],
                               stdin=follower, stdout=follower, stderr=subprocess.PIPE, env=env)
    os.close(follower)
    os.write(leader, typed)
    seen = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1.0)
        if not ready:
            if process.poll() is not None:
                break
            continue
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # Linux: the terminal is gone once the child has exited
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    return process.wait(timeout=60), seen.decode()


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_on_a_terminal_colour_is_on_unless_no_color_is_set() -> None:
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    status, out = run_in_terminal(*TREE, typed=b"Q\nquit\n", env=env)
    assert status == 0
    assert "\x1b[31mIllegal move:" in out
    assert "You quit: game abandoned." in out
    status, out = run_in_terminal(*TREE, typed=b"Q\nquit\n", env={**env, "NO_COLOR": "1"})
    assert status == 0
    assert "Illegal move:" in out
    # No colour codes (readline itself may still switch terminal modes with other escapes).
    assert re.search("\x1b\\[[0-9;]*m", out) is None


@pytest.mark.parametrize("first", ["gametree.play", "gametree.play.session", "gametree.cli",
                                   "gametree.cli.play"])
def test_the_play_modules_import_in_any_order(first: str) -> None:
    # gametree.play reuses cli.report and cli.play uses gametree.play: no import cycle bites.
    done = subprocess.run([sys.executable, "-c", f"import {first}; import gametree.cli.play"],
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0, done.stderr
