"""The UCI engine's readers of command words and its time management (no search runs)."""

from __future__ import annotations

import pytest

from gametree.uci.clock import (
    LIMIT_FACTOR,
    MOST_OF_WHAT_IS_LEFT,
    MOVES_LEFT,
    SHORTEST,
    MoveTime,
    move_time,
)
from gametree.uci.commands import Go, UciError, parse_go, parse_position, parse_setoption
from gametree.uci.options import OPTIONS, Settings, find_option, with_option


def words(line: str) -> list[str]:
    """The words of a command line, as the engine splits them."""
    return line.split()


def test_go_reads_every_limit_and_lists_what_it_ignores() -> None:
    go = parse_go(words("wtime 60000 btime 55000 winc 1000 binc 900 movestogo 12 depth 7 "
                        "nodes 5000 frobnicate infinite"))
    assert go == Go(wtime=60000, btime=55000, winc=1000, binc=900, movestogo=12, depth=7,
                    nodes=5000, infinite=True)
    assert go.ignored == ("frobnicate",)
    assert go.waits_for_stop
    assert parse_go(["searchmoves", "e2e4", "d2d4", "depth", "3"]) == \
        Go(depth=3, searchmoves=("e2e4", "d2d4"))
    assert parse_go([]) == Go()
    # A clock that ran below zero (some GUIs send it) reads as empty.
    assert parse_go(["wtime", "-20"]).wtime == 0


@pytest.mark.parametrize(("text", "message"), [
    ("depth", "go depth: a number is missing"),
    ("depth x", "go depth: expected a whole number, got 'x'"),
    ("depth 0", "go depth: expected a number above 0, got 0"),
    ("movestogo -1", "go movestogo: expected a number above 0, got -1"),
    ("wtime 1.5", "go wtime: expected a whole number, got '1.5'"),
])
def test_go_refuses_a_limit_it_cannot_read(text: str, message: str) -> None:
    with pytest.raises(UciError, match=message):
        parse_go(text.split())


def test_position_reads_start_fen_and_moves() -> None:
    start = parse_position(words("startpos moves e2e4 e7e5"))
    assert start.fen is None and start.moves == ("e2e4", "e7e5")
    fen = "8/8/8/8/8/8/8/K6k w - - 0 1"
    given = parse_position(["fen", *fen.split(), "moves", "a1a2"])
    assert given.fen == fen and given.moves == ("a1a2",)
    assert parse_position(["startpos"]).moves == ()
    for given_words, message in ((["fen"], "the FEN is missing"), ([], "expected 'startpos'"),
                           (["middle"], "expected 'startpos' or 'fen', got 'middle'"),
                           (["startpos", "e2e4"], "unexpected 'e2e4'")):
        with pytest.raises(UciError, match=message):
            parse_position(given_words)


def test_setoption_names_and_values_may_hold_spaces() -> None:
    assert parse_setoption(words("name Move Overhead value 250")) == ("Move Overhead", "250")
    assert parse_setoption(words("name Clear Hash")) == ("Clear Hash", None)
    with pytest.raises(UciError, match="expected 'name NAME"):
        parse_setoption(["Hash", "16"])
    settings = with_option(Settings(), find_option("move overhead"), "250")
    assert settings.overhead_ms == 250
    with pytest.raises(UciError, match="expected 1 to 4096, got 0"):
        with_option(settings, find_option("Hash"), "0")
    with pytest.raises(UciError, match="no option 'Threads'"):
        find_option("Threads")
    assert [option.name for option in OPTIONS] == ["Hash", "Clear Hash", "Depth", "Level",
                                                    "Move Overhead", "Ponder"]


def test_a_move_gets_a_share_of_the_clock_and_never_most_of_it() -> None:
    # Sudden death: a thirtieth of what is left with the increments to come, less the
    # overhead of every move to come.
    plan = move_time(Go(wtime=60_000, btime=1_000, winc=600), True, 100)
    assert plan is not None
    assert plan.budget == pytest.approx((60_000 + 600 * 29 - 100 * 31) / MOVES_LEFT / 1000)
    assert plan.limit == pytest.approx(LIMIT_FACTOR * plan.budget)
    # Black's own clock is read for black.
    black = move_time(Go(wtime=60_000, btime=6_200), False, 100)
    assert black is not None and black.budget == pytest.approx(3.1 / MOVES_LEFT)
    # One move to the control: half of what is left at most, never all of it.
    last = move_time(Go(wtime=10_000, movestogo=1), True, 0)
    assert last == MoveTime(MOST_OF_WHAT_IS_LEFT * 10, MOST_OF_WHAT_IS_LEFT * 10)
    # A clock nearly run out (or below the overhead) still gets the shortest budget.
    assert move_time(Go(wtime=50), True, 100) == MoveTime(SHORTEST, SHORTEST)
    # Less than the overheads of the moves to come: the shortest budget, a limit above it.
    tight = move_time(Go(wtime=1_000), True, 50)
    assert tight is not None and tight.budget == SHORTEST and tight.limit == 3 * SHORTEST
    assert move_time(Go(movetime=1000), True, 100) == MoveTime(0.9, 0.9)
    for untimed in (Go(depth=5), Go(infinite=True, wtime=1000), Go(ponder=True, wtime=1000),
                    Go(btime=1000)):
        assert move_time(untimed, True, 100) is None
