"""Chess as a gametree game (gametree.games.chess): python-chess's rules, the evaluation's
running sums, the key, the move order, moves as text, and searches through the service."""

from __future__ import annotations

import random
import sys

import chess
import chess.polyglot
import pytest

from gametree import SearchOptions, SearchSession, search
from gametree.game import Game, IllegalMoveError
from gametree.games.chess import (
    CAPTURE_SCORE,
    CHECK_SCORE,
    MISSING,
    NO_KERNEL,
    ORDER_VALUES,
    PROMOTION_SCORE,
    ChessGame,
    ChessState,
    board_terms,
    move_scores,
    pgn_text,
    repetitions,
    split_moves,
    tapered,
)
from gametree.options import OptionError
from gametree.registry import GameOptionError, make, play_line, play_moves
from gametree.service import tier_for

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
"""A back-rank mate: Ra8#."""

TACTICS = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
"""'Kiwipete', the perft test position: castling both ways, en passant, promotions, pins."""


def random_line(game: ChessGame, seed: int, plies: int) -> list[ChessState]:
    """The states of a random game of at most ``plies`` plies from the game's start."""
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    for _ in range(plies):
        legal = game.moves(state)
        if not legal:
            break
        state = game.play(state, rng.choice(legal))
        states.append(state)
    return states


def test_the_registry_builds_chess_from_the_start_or_a_fen() -> None:
    game = make("chess")
    start = game.initial_state()
    assert len(game.moves(start)) == 20 and game.to_move(start) == 0
    black = make("chess", fen="4k3/8/8/8/8/8/8/4K2R b K - 0 1")
    assert black.to_move(black.initial_state()) == 1
    assert black.initial_state().fen == "4k3/8/8/8/8/8/8/4K2R b K - 0 1"


@pytest.mark.parametrize(("fen", "words"), [
    ("bad", "cannot read the FEN 'bad'"),
    ("8/8/8/8/8/8/8/8 w - - 0 1", "no white king"),
    ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "opposite check"),
])
def test_a_fen_that_is_no_position_is_refused_saying_why(fen: str, words: str) -> None:
    with pytest.raises(GameOptionError, match=words):
        make("chess", fen=fen)


def test_moves_are_read_in_san_or_uci_and_written_in_san() -> None:
    game = ChessGame()
    start = game.initial_state()
    knight = chess.Move.from_uci("g1f3")
    assert game.parse_move(start, "Nf3") == knight == game.parse_move(start, "g1f3")
    assert game.format_move(start, knight) == "Nf3"
    castle = ChessGame("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    root = castle.initial_state()
    assert castle.parse_move(root, "0-0") == castle.parse_move(root, "e1g1")
    assert castle.format_move(root, chess.Move.from_uci("e1c1")) == "O-O-O"
    with pytest.raises(IllegalMoveError, match=r"legal moves: .*Nf3"):
        game.parse_move(start, "Nf6")
    with pytest.raises(IllegalMoveError, match="e2e5 is not a legal move"):
        game.parse_move(start, "e2e5")


def test_a_moves_line_may_carry_pgn_move_numbers_and_a_result() -> None:
    assert split_moves("1. e4 e5 2.Nf3 Nc6 3... a6; 1-0") == ["e4", "e5", "Nf3", "Nc6", "a6"]
    state = play_moves(ChessGame(), split_moves("1. f3 e5 2. g4 Qh4#"))
    assert state.fen.startswith("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w")


def test_outcomes_are_python_chess_ends_of_a_game() -> None:
    game = ChessGame()
    mated = play_moves(game, ["f3", "e5", "g4", "Qh4#"])
    assert game.outcome(mated) == -1 and game.moves(mated) == []
    assert game.outcome(play_moves(ChessGame(MATE_IN_ONE), ["Ra8#"])) == 1
    stalemate = ChessGame("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.outcome(stalemate.initial_state()) == 0
    bare = ChessGame("7k/8/8/8/8/8/8/4K2N w - - 0 1")
    assert bare.outcome(bare.initial_state()) == 0
    clock = ChessGame("7k/8/6K1/8/8/8/8/R7 w - - 149 100")
    root = clock.initial_state()
    assert clock.outcome(root) is None
    assert clock.outcome(play_moves(clock, ["Ra2"], root)) == 0  # the 75-move rule
    assert clock.outcome(play_moves(clock, ["Ra8#"], root)) == 1  # a mate comes first


def test_the_fifth_time_a_position_is_on_the_board_ends_the_game_drawn() -> None:
    game = ChessGame()
    state = game.initial_state()
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    for round_played in range(1, 5):
        state = play_moves(game, shuffle, state)
        assert repetitions(state) == round_played
        assert game.outcome(state) == (0 if round_played == 4 else None)
    # python-chess says the same of the board with the whole game on its stack
    board = chess.Board()
    for move in state.line():
        board.push(move)
    assert board.is_fivefold_repetition()


def test_the_key_is_the_zobrist_hash_and_how_often_the_position_was_seen() -> None:
    game = ChessGame(TACTICS)
    root = game.initial_state()
    assert game.key(root) == chess.polyglot.zobrist_hash(chess.Board(TACTICS))
    again = play_moves(game, ["Qg3", "Qd8", "Qf3", "Qe7"], root)
    assert game.key(again) == game.key(root) | 1 << 64
    assert again != root and hash(again) != hash(root)
    assert play_moves(game, ["Qg3"], root) == play_moves(game, ["f3g3"], root)


@pytest.mark.parametrize("seed", range(6))
def test_the_running_sums_of_the_evaluation_match_a_count_from_scratch(seed: int) -> None:
    for start in (None, TACTICS, "8/P6k/8/3pP3/8/8/6Kp/8 w - d6 0 1"):
        game = ChessGame(start)
        for state in random_line(game, seed, 120):
            assert (state.middle, state.end, state.phase) == board_terms(state.board)


def test_the_evaluation_is_symmetric_and_tapered() -> None:
    game = ChessGame()
    assert game.evaluate(game.initial_state()) == 0
    mirrored = chess.Board(TACTICS).mirror()
    assert ChessGame(TACTICS).evaluate(ChessGame(TACTICS).initial_state()) == \
        -ChessGame(mirrored.fen()).evaluate(ChessGame(mirrored.fen()).initial_state())
    assert tapered(100, 300, 24) == 100 and tapered(100, 300, 0) == 300
    assert tapered(100, 300, 12) == 200
    up_a_queen = ChessGame("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    assert up_a_queen.evaluate(up_a_queen.initial_state()) > 800


def expected_score(board: chess.Board, move: chess.Move) -> int:
    """The move order's score, from its definition and python-chess's own questions."""
    score = 0
    if board.is_capture(move):
        victim = chess.PAWN if board.is_en_passant(move) else board.piece_type_at(
            move.to_square)
        attacker = board.piece_type_at(move.from_square)
        assert victim is not None and attacker is not None
        score = CAPTURE_SCORE + 10 * ORDER_VALUES[victim] - ORDER_VALUES[attacker]
    if move.promotion == chess.QUEEN:
        score += PROMOTION_SCORE
    if board.gives_check(move):
        score += CHECK_SCORE
    return score


def test_the_move_order_scores_captures_promotions_and_exactly_the_checks() -> None:
    for seed in range(4):
        for start in (TACTICS, "7k/1P6/8/3q4/2P1n3/8/8/R3K3 w - - 0 1"):
            for state in random_line(ChessGame(start), seed, 40):
                board = state.board
                legal = list(board.legal_moves)
                assert move_scores(chess, board, legal) == [
                    expected_score(board, move) for move in legal]


def test_the_hint_puts_the_best_captures_promotions_and_checks_first() -> None:
    game = ChessGame("7k/1P6/8/3q4/2P1n3/8/8/R3K3 w - - 0 1")
    root = game.initial_state()
    ordered = [game.format_move(root, move)
               for move in game.order_moves(root, game.moves(root))]
    # PxQ, then a queen's promotion with check, then the checks; quiet moves keep their order
    assert ordered[:4] == ["cxd5", "b8=Q+", "Ra8+", "b8=R+"]
    quiet = [game.format_move(root, move) for move in game.moves(root)]
    assert ordered[4:] == [text for text in quiet if text not in ordered[:4]]


def test_noisy_moves_are_the_captures_and_queen_promotions() -> None:
    game = ChessGame("7k/1P6/8/3q4/2P1n3/8/8/R3K3 w - - 0 1")
    root = game.initial_state()
    noisy = [game.format_move(root, move) for move in game.noisy_moves(root)]
    assert noisy == ["cxd5", "b8=Q+"]
    assert game.noisy_moves(play_moves(ChessGame(), ["f3", "e5", "g4", "Qh4#"])) == ()


def test_solve_finds_a_mate_in_one_on_the_python_tier() -> None:
    game = ChessGame(MATE_IN_ONE)
    result = search(game, depth=2)
    assert result.best_move is not None
    assert game.format_move(game.initial_state(), result.best_move) == "Ra8#"
    assert (result.outcome, result.plies, result.tier) == ("win", 1, "python")
    assert tier_for(game) == "python"
    with pytest.raises(OptionError, match="chess has no compiled form"):
        search(game, options=SearchOptions(depth=1, tier="compiled"))
    assert "numba kernel cannot call" in NO_KERNEL


def test_a_search_without_a_budget_gets_the_game_s_time() -> None:
    game = ChessGame(MATE_IN_ONE)
    assert game.search_time is not None and game.search_time > 0
    result = search(game)  # ends: at the latest after search_time seconds, here at once
    assert result.outcome == "win" and result.plies == 1


def test_without_python_chess_the_game_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "chess", None)  # import chess now raises ImportError
    with pytest.raises(GameOptionError) as refused:
        make("chess")
    assert str(refused.value) == f"chess: {MISSING}"
    assert 'pip install "gametree[chess]"' in MISSING


class PlainChess(ChessGame):
    """Chess without noisy moves: a position at the depth limit is its evaluation."""

    noisy_moves = Game.noisy_moves


def test_the_quiescence_search_sees_the_recapture_at_the_horizon() -> None:
    fen = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1"  # the pawn on d5 is defended by e6
    plain, quiet = PlainChess(fen), ChessGame(fen)
    greedy = search(plain, depth=1)
    careful = search(quiet, depth=1)
    assert greedy.best_move is not None and careful.best_move is not None
    assert plain.format_move(plain.initial_state(), greedy.best_move) == "Qxd5"
    assert quiet.format_move(quiet.initial_state(), careful.best_move) != "Qxd5"
    assert careful.value < greedy.value  # the greedy value was an illusion
    assert careful.stats.nodes > greedy.stats.nodes  # the captures after the horizon
    assert careful.reading().words == "heuristic, depth 1"


def test_a_mate_found_in_the_quiescence_search_is_a_mate() -> None:
    # Qxf7# is a capture that mates: found at depth 0 by the quiescence search alone
    game = ChessGame("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    result = search(game, depth=1)
    assert (result.outcome, result.plies, result.mate) == ("win", 1, 1)


def test_the_view_is_a_board_of_glyphs_with_the_fen_and_the_moves_in_san() -> None:
    game = ChessGame()
    state, last = play_line(game, ["e4", "e5", "Nf3"])
    view = game.view(state, last)
    assert view.kind == "grid" and view.grid is not None and view.flippable
    assert view.grid.cells[0] == tuple("♜♞♝♛♚♝♞♜")
    assert view.grid.cells[5][5] == "♘" and view.grid.cells[7][6] == ""
    assert view.grid.row_labels[0] == "8" and view.grid.column_labels == tuple("abcdefgh")
    assert view.caption == state.fen
    assert [spot.text for spot in view.moves] == game.format_line(state, []) + [
        game.format_move(state, move) for move in game.moves(state)]
    assert {mark.cell for mark in view.marks} == {(7, 6), (5, 5)}  # g1 and f3
    assert game.view(play_moves(game, ["f3", "e5", "g4", "Qh4#"])).moves == ()


def test_a_game_is_written_in_pgn_and_its_movetext_read_back() -> None:
    game = ChessGame()
    state = play_moves(game, split_moves("1. f3 e5 2. g4 Qh4#"))
    text = pgn_text(state, {"White": "gametree"})
    assert '[White "gametree"]' in text and '[Result "0-1"]' in text
    assert text.rstrip().endswith("1. f3 e5 2. g4 Qh4# 0-1")
    movetext = text.rstrip().splitlines()[-1]
    assert play_moves(game, split_moves(movetext)) == state  # PGN's movetext as --moves
    from_fen = ChessGame(MATE_IN_ONE)
    written = pgn_text(play_moves(from_fen, ["Ra8#"]))
    assert f'[FEN "{MATE_IN_ONE}"]' in written and '[SetUp "1"]' in written
    assert written.rstrip().endswith("1. Ra8# 1-0")


class QuickChess(ChessGame):
    """Chess whose searches without a budget get a fifth of a second."""

    search_time = 0.2


def test_a_search_of_the_start_without_a_budget_stops_on_the_game_s_time() -> None:
    game = QuickChess()
    result = search(game)
    assert result.stats.stopped_by == "time" and result.best_move is not None
    with SearchSession(game) as session:
        assert session.search().stats.stopped_by == "time"
    # a budget of the caller's own wins: here a depth
    assert search(game, depth=1).stats.stopped_by is None
