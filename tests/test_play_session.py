"""The play session driven in-process: text in, text out, no terminal needed."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from gametree import Game, GameTree, minimax
from gametree.play import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    Decision,
    PlaySession,
    SearchOpponent,
    StreamLines,
    Style,
    wants_color,
)
from gametree.play.wording import decision_value
from gametree.values import Value

# A MAX B (MIN) D (MAX) D1 = win  D2 = loss
#                E (MAX) E1 = draw E2 = win
#         C (MIN) F (MAX) F1 = loss F2 = loss
#                G (MAX) G1 = draw G2 = draw
TREE_LEAVES = "win loss draw win loss loss draw draw"


def tree() -> GameTree:
    return GameTree.from_leaves(TREE_LEAVES)


def play(game: Game[Any, Any], typed: str, *, human: int | None = 0,
         opponent: SearchOpponent | None = None, **options: Any) -> tuple[int, str]:
    """Run a session on ``typed`` (one line per move or command); its status and transcript."""
    output = io.StringIO()
    session: PlaySession[Any, Any] = PlaySession(
        game, opponent or SearchOpponent(), human=human, output=output,
        stdin=io.StringIO(typed), **options)
    return session.run(), output.getvalue()


def test_a_full_game_won_by_the_engine() -> None:
    status, out = play(tree(), "C\nF1\n")
    assert status == EXIT_OK
    assert "You play C." in out
    assert "Engine (MIN) plays F." in out  # F loses for MAX either way; G would draw
    assert "You play F1." in out
    assert "Game over: you lost after 3 moves." in out
    assert 'The moves, to play them again: --moves "C F F1"' in out


def test_a_full_game_won_by_the_human() -> None:
    status, out = play(tree(), "B\nD1\n")
    assert status == EXIT_OK
    assert "Engine (MIN) plays D." in out  # D and E lose equally fast: the first one is kept
    assert "Game over: you won after 3 moves!" in out


def test_a_drawn_game() -> None:
    status, out = play(GameTree.from_leaves("draw draw draw draw"), "B\n")
    assert status == EXIT_OK
    assert "Game over: a draw after 2 moves." in out


def test_the_board_whose_turn_and_the_legal_moves_are_shown_after_every_move() -> None:
    game = tree()
    _, out = play(game, "B\nD2\n")
    for node in ("A", "B", "D", "D2"):
        assert game.render(game.node(node)) in out
    assert "Move 1: MAX to move (you).\nLegal moves: B C\n" in out
    assert "Move 2: MIN to move (engine).\n" in out
    assert "Move 3: MAX to move (you).\nLegal moves: D1 D2\n" in out


def test_the_engine_can_move_first() -> None:
    status, out = play(GameTree.from_leaves("win loss draw draw"), "B1\n", human=1)
    assert status == EXIT_OK
    assert "you are MIN, the engine is MAX" in out
    assert "Engine (MAX) plays C." in out  # B would lose to B2: C draws
    assert "Illegal move" in out  # B1 is not a move below C
    assert "End of input: game abandoned." in out


def test_illegal_and_malformed_moves_are_refused_with_the_reason_and_asked_again() -> None:
    status, out = play(tree(), "Z\n\n   \n9\nB C\nC\nF1\n")
    assert status == EXIT_OK
    assert out.count("Illegal move:") == 3
    assert "Illegal move: 'Z' is not a move from node A; moves: B, C" in out
    assert "Illegal move: '9' is not a move" in out
    assert "Illegal move: 'B C' is not a move" in out
    assert "Try again, or type 'help' for the commands." in out
    assert "You play C." in out  # nothing was lost: the game went on from where it was
    assert "Game over" in out


def test_undo_takes_back_the_human_move_and_the_engine_reply() -> None:
    status, out = play(tree(), "B\nundo\nundo\nC\nquit\n")
    assert status == EXIT_OK
    assert "Taken back: B D." in out
    assert "Nothing to undo: you have not moved yet." in out
    after_undo = out.split("Taken back: B D.")[1]
    assert "Move 1: MAX to move (you)." in after_undo
    assert "You play C." in after_undo


class ExtraTurns(Game[tuple[int, int], str]):
    """Count to 8: "one" adds 1 and passes the turn, "two" adds 2 and the mover moves again.

    At 1 only "two" is allowed and at 3 only "one", so after P's opening "one" the engine's
    reply is forced: "two" (an extra turn), then "one", and P is to move again at 4.
    """

    player_names = ("P", "Q")

    def initial_state(self) -> tuple[int, int]:
        return (0, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def moves(self, state: tuple[int, int]) -> list[str]:
        forced = {1: ["two"], 3: ["one"]}
        total = state[0]
        choices = forced.get(total, ["one", "two"])
        return [move for move in choices if total + (1 if move == "one" else 2) <= 8]

    def play(self, state: tuple[int, int], move: str) -> tuple[int, int]:
        total, player = state
        return (total + 1, 1 - player) if move == "one" else (total + 2, player)

    def outcome(self, state: tuple[int, int]) -> Value | None:
        if state[0] < 8:
            return None
        return 1 if state[1] == 1 else -1  # whoever reached 8 wins: the other is to move


def test_undo_after_an_extra_turn_takes_back_everything_since_the_human_last_moved() -> None:
    status, out = play(ExtraTurns(), "one\nundo\nquit\n")
    assert status == EXIT_OK
    assert "Engine (Q) plays two." in out and "Engine (Q) plays one." in out
    assert "Taken back: one two one." in out
    assert "(0, 0)\n\nMove 1: P to move (you)." in out.split("Taken back")[1]


def test_hint_gives_the_engine_s_suggestion_with_its_value() -> None:
    _, out = play(tree(), "hint\nquit\n")
    assert "Hint: play B (for you: win in 3 plies, exact;" in out
    assert "Expected line: B D D1" in out


def test_scores_print_every_legal_move_s_exact_value_like_seed_000() -> None:
    _, out = play(tree(), "scores\nB\nscores\nquit\n")
    assert "Values for you (MAX), exact;" in out
    assert "Score for move B = win in 3 plies\nScore for move C = loss in 3 plies\n" in out
    oracle = minimax(tree(), tree().node("D"))  # after B and the engine's reply D
    assert [entry.value for entry in oracle.moves] == [999_999, -999_999]
    assert "Score for move D1 = win in 1 ply\nScore for move D2 = loss in 1 ply\n" in out


def test_scores_at_a_depth_limit_are_marked_as_estimates() -> None:
    game = GameTree.from_leaves("3 5 2 9 12 5 23 23")
    _, out = play(game, "scores\nquit\n", opponent=SearchOpponent(depth=1))
    assert "depth 1" in out
    assert "Score for move B = estimate 0\nScore for move C = estimate 0\n" in out


def test_help_lists_the_commands_and_the_notation() -> None:
    _, out = play(tree(), "help\n?\nquit\n", notation="node labels")
    for command in ("help", "hint", "scores", "undo", "board", "moves", "quit"):
        assert f"\n  {command} " in out
    assert out.count("Type a move, or one of these commands:") == 2
    assert "Moves are written: node labels." in out


def test_board_and_moves_show_the_position_again() -> None:
    game = tree()
    _, out = play(game, "board\nmoves\nexit\n")
    assert out.count(game.render(0)) == 2
    assert out.count("Legal moves: B C") == 3
    assert "You quit: game abandoned." in out


def test_quit_and_end_of_input_end_cleanly() -> None:
    status, out = play(tree(), "quit\n")
    assert (status, "You quit: game abandoned.\n" in out) == (EXIT_OK, True)
    status, out = play(tree(), "")
    assert (status, "End of input: game abandoned.\n" in out) == (EXIT_OK, True)
    status, out = play(tree(), "B")  # a last line without its newline still counts
    assert "You play B." in out


class Interrupting:
    """A line source whose user presses Ctrl-C after some lines."""

    def __init__(self, lines: list[str]) -> None:
        self._lines: Iterator[str] = iter(lines)

    def read(self, prompt: str) -> str | None:
        for line in self._lines:
            return line
        raise KeyboardInterrupt


def test_ctrl_c_while_waiting_for_a_move_ends_cleanly() -> None:
    output = io.StringIO()
    session: PlaySession[int, int] = PlaySession(tree(), SearchOpponent(), human=0,
                                                 output=output, lines=Interrupting(["B"]))
    assert session.run() == EXIT_INTERRUPTED
    assert output.getvalue().rstrip().endswith("Interrupted: game abandoned.")


class SlowOpponent(SearchOpponent):
    """An opponent whose user loses patience while it thinks."""

    def choose(self, game: Game[Any, Any], state: Any) -> Decision[Any]:
        raise KeyboardInterrupt


def test_ctrl_c_while_the_engine_thinks_ends_cleanly() -> None:
    status, out = play(tree(), "B\n", opponent=SlowOpponent())
    assert status == EXIT_INTERRUPTED
    assert out.rstrip().endswith("Interrupted: game abandoned.")


def test_watching_the_engine_play_itself() -> None:
    pauses: list[float] = []
    status, out = play(tree(), "", human=None, delay=0.25, sleep=pauses.append)
    assert status == EXIT_OK
    assert "the engine plays both sides" in out
    assert "MAX plays B." in out and "MIN plays D." in out and "MAX plays D1." in out
    assert "Game over: MAX wins after 3 moves." in out
    assert pauses == [0.25, 0.25, 0.25]
    assert "your move" not in out


def test_a_numeric_leaf_ends_the_game_with_its_value() -> None:
    game = GameTree.from_leaves("3 5 2 9 12 5 23 23")  # seed 003
    status, out = play(game, "C\nF1\n")  # MIN answers F (12 < 23)
    assert status == EXIT_OK
    assert "Engine (MIN) plays F." in out
    assert "The game stops here: no moves are left. The position is worth 12 for MAX (you)." \
        in out


def test_a_session_can_start_from_a_given_position() -> None:
    game = tree()
    status, out = play(game, "E2\n", start=game.node("E"))
    assert status == EXIT_OK
    assert "Game over: you won after 1 move!" in out


class LyingParser(GameTree):
    """A game whose parse_move returns moves that are not legal (a user's buggy game)."""

    def parse_move(self, state: int, text: str) -> int:
        if text == "boom":
            raise ValueError("not a number")
        return 999


def test_a_game_s_own_parsing_bugs_do_not_crash_the_session() -> None:
    game = LyingParser.from_leaves(TREE_LEAVES)
    status, out = play(game, "boom\nB\nquit\n")
    assert status == EXIT_OK
    assert "Illegal move: not a number" in out
    assert "Illegal move: 'B' is not a legal move here" in out


def test_piped_lines_are_echoed_after_the_prompt() -> None:
    _, out = play(tree(), "B\nquit\n")
    assert "your move (MAX)> B\n" in out
    output = io.StringIO()
    lines = StreamLines(io.StringIO("B\n"), output, echo=False)
    assert lines.read("> ") == "B"
    assert output.getvalue() == "> "


def test_no_colour_codes_unless_asked() -> None:
    _, plain = play(tree(), "Z\nC\nF1\n")
    assert "\x1b[" not in plain
    _, coloured = play(tree(), "Z\nC\nF1\n", style=Style(True))
    assert "\x1b[31mIllegal move:" in coloured
    assert "\x1b[31;1mGame over: you lost" in coloured


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_never_with_no_color() -> None:
    assert wants_color("auto", Tty(), environ={})
    assert not wants_color("auto", io.StringIO(), environ={})
    assert not wants_color("auto", Tty(), environ={"NO_COLOR": "1"})
    assert wants_color("auto", Tty(), environ={"NO_COLOR": ""})  # empty means unset
    assert wants_color("always", io.StringIO(), environ={"NO_COLOR": "1"})
    assert not wants_color("never", Tty(), environ={})


def test_a_session_needs_somewhere_to_read_from() -> None:
    with pytest.raises(ValueError, match="needs lines or stdin"):
        PlaySession(tree(), SearchOpponent(), human=0, output=io.StringIO())
    with pytest.raises(ValueError, match="human must be"):
        PlaySession(tree(), SearchOpponent(), human=2, output=io.StringIO(),
                    stdin=io.StringIO())


def test_moves_that_are_also_command_words_lose_to_the_command() -> None:
    # Documented rule: a command word wins. A tree whose moves are called "hint" and "undo".
    game = GameTree.from_mapping("root", {"root": {"hint": "x", "undo": "y"}},
                                 {"x": "win", "y": "loss"})
    _, out = play(game, "hint\n2\n")
    assert "Hint: play hint" in out
    assert "You play undo." in out



def test_a_thinking_note_is_shown_and_erased_only_when_asked() -> None:
    _, quiet = play(tree(), "B\nquit\n")
    assert "thinking" not in quiet
    _, shown = play(tree(), "hint\nB\nquit\n", show_thinking=True)
    assert "MIN is thinking...\r" + " " * len("MIN is thinking...") + "\r" in shown
    assert "thinking...\r" + " " * len("thinking...") + "\rHint: play B" in shown


def test_descriptive_player_names_read_as_a_sentence() -> None:
    _, out = play(ExtraTurns(), "quit\n")
    assert "you are P, the engine is Q" in out

    class Named(ExtraTurns):
        player_names = ("first player", "second player")

    _, out = play(Named(), "quit\n")
    assert "you are the first player, the engine is the second player" in out


def test_a_proven_draw_is_called_a_draw_even_if_estimates_were_used_on_the_way() -> None:
    # An engine with its own iterative deepening may count heuristic evaluations from its
    # shallow iterations and still prove the draw: the result's outcome is what counts.
    result = SearchOpponent(algorithm="alphabeta").choose(tree(), tree().node("G")).result
    proven = replace(result, stats=replace(result.stats, evaluations=5), outcome="draw",
                     exhaustive=False, depth=None)
    decision = Decision(proven)
    assert decision_value(decision) == "draw"
    estimate = Decision(replace(proven, outcome=None, exhaustive=False, complete=False, depth=3))
    assert decision_value(estimate) == "estimate 0"


def test_every_value_says_whether_it_is_exact_or_a_heuristic_and_why() -> None:
    from gametree.play.wording import reading  # noqa: PLC0415

    game = GameTree.from_leaves("3 5 2 9 12 5 23 23")
    limited = SearchOpponent(depth=1).choose(game, game.initial_state())
    assert reading(limited) == "heuristic, depth 1: the depth was limited to 1 ply"
    timed = Decision(replace(limited.result, stats=replace(limited.result.stats,
                                                           stopped_by="time")))
    assert reading(timed) == "heuristic, depth 1: its time ran out"
    assert reading(SearchOpponent().choose(tree(), tree().initial_state())) == "exact"
    _, out = play(game, "hint\nscores\nquit\n", opponent=SearchOpponent(depth=1))
    assert "Hint: play B (for you: estimate 0, heuristic, depth 1: the depth was limited to " \
        "1 ply;" in out
    assert "Values for you (MAX), heuristic, depth 1: the depth was limited to 1 ply;" in out
    _, out = play(game, "help\nquit\n")
    assert "'estimate +N' is the game's heuristic" in out


def test_a_level_s_move_is_explained_and_hint_stays_at_full_strength() -> None:
    game = GameTree.from_leaves("3 5 2 9 12 5 23 23 1 4 7 0 -3 8 2 6")
    seen, notes = set(), 0
    for seed in range(6):
        _, out = play(game, "hint\nB\nquit\n", human=0,
                      opponent=SearchOpponent(level=1, seed=seed))
        assert "(level 1: 1 ply deep, temperature 2, 70% random moves;" in out
        assert "heuristic, depth 1: level 1 looks 1 ply ahead" in out  # its reply's view
        assert "Hint: play B (for you: 3, exact;" in out  # full strength, whatever the level
        seen.add(out.split("Engine (MIN) plays ")[1][0])
        notes += "; level 1 chose this " in out  # not its search's best: it says so
    assert len(seen) > 1 and notes > 0  # the level's replies vary with the seed
