"""``gametree play tictactoe``, the README's main command, end to end through a subprocess."""

from __future__ import annotations

import subprocess
from typing import Any

from gametree.play import SearchOpponent
from gametree.registry import make

from .cli_support import gametree


def gametree_play(*args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    return gametree("play", "tictactoe", *args, typed=typed)


def perfect_game_moves() -> tuple[list[str], Any]:
    """Both sides playing the perfect engine's choice: the texts of the moves, the end state.

    The engine is the one ``gametree play`` uses: on the game's compiled form.
    """
    game = make("tictactoe")
    engine = SearchOpponent(tier="compiled")
    state, texts = game.initial_state(), []
    while not game.is_over(state):
        move = engine.choose(game, state).move
        texts.append(game.format_move(state, move))
        state = game.play(state, move)
    return texts, state


def test_a_full_game_won_by_the_engine() -> None:
    # The human tries the cells 1, 2, 3, ... in order: occupied ones are refused and the next
    # line is read, so the human always takes the lowest free cell, a weak strategy.
    done = gametree_play("--perfect", typed="".join(f"{cell}\n" for cell in range(1, 10)))
    assert done.returncode == 0, done.stderr
    assert "you are X, the engine is O" in done.stdout
    assert "Illegal move:" in done.stdout  # an occupied cell was refused, not a crash
    assert "Game over: you lost after" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_a_drawn_game_when_the_human_plays_perfectly_too() -> None:
    texts, end = perfect_game_moves()
    assert make("tictactoe").outcome(end) == 0  # the empty board is a draw
    human_moves = texts[0::2]  # the human moves first: X plays the even plies
    done = gametree_play("--perfect", typed="".join(f"{text}\n" for text in human_moves))
    assert done.returncode == 0, done.stderr
    for text in texts[1::2]:
        assert f"Engine (O) plays {text}." in done.stdout
    assert f"Game over: a draw after {len(texts)} moves." in done.stdout


def test_the_engine_can_start() -> None:
    texts, _ = perfect_game_moves()
    done = gametree_play("--first", "engine", "--perfect",
                         typed="".join(f"{text}\n" for text in texts[1::2]))
    assert done.returncode == 0, done.stderr
    assert "you are O, the engine is X" in done.stdout
    assert f"Engine (X) plays {texts[0]}." in done.stdout
    assert "Game over: a draw" in done.stdout


def test_illegal_and_malformed_moves_are_refused_and_asked_again() -> None:
    done = gametree_play("--depth", "2", typed="1,1\n1,1\n3,3\n9,9\n0\n10\nhello\n1,\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "You play 1,1." in done.stdout
    assert done.stdout.count("Illegal move:") == 7
    assert "You quit: game abandoned." in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_undo_hint_scores_quit() -> None:
    game = make("tictactoe")
    start = game.initial_state()
    done = gametree_play("--perfect", typed="hint\nscores\n1,1\nundo\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Hint: play " in done.stdout and "(for you: draw, exact;" in done.stdout
    for move in game.moves(start):  # seed 000: one score per legal move
        assert f"Score for move {game.format_move(start, move)} = draw" in done.stdout
    assert done.stdout.count("Score for move") == len(game.moves(start))
    assert "Taken back: 1,1 " in done.stdout
    assert "You quit: game abandoned." in done.stdout


def test_end_of_input_and_the_default_time_budget() -> None:
    done = gametree_play(typed="1,1\n")
    assert done.returncode == 0, done.stderr
    assert "up to 3 s per move" in done.stdout
    assert "Engine (O) plays " in done.stdout
    assert "End of input: game abandoned." in done.stdout
