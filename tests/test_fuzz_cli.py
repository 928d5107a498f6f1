"""Fuzzing the command line: whatever a user types, one answer or one line of error.

Hypothesis makes option values, move lists, board texts and tree documents, and feeds them to
``gametree`` in this process. Every run must end with exit status 0 (an answer) or 2 (a
one-line message on standard error) — never a traceback, another status, or a silent failure.
The searches run on the Python tier under a small node budget, so that random options never
compile a kernel and each example takes milliseconds.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gametree.cli import main

FUZZ = settings(max_examples=60)

SEARCH = ("--tier", "python", "--nodes", "3000")
"""Keeps every fuzzed search small and on the Python tier."""

TEXT = st.text(alphabet=st.sampled_from([*"0123456789,:;/ -+_.xoXO|take from row\t",
                                         "\uff14", "\u00b2", "\u0663", "\ufeff", "\n"]),
               max_size=25)
"""Texts made of what users type, and of what they should not: other scripts' digits, a
superscript, a byte order mark, a line break."""

NUMBER = st.one_of(
    st.integers(min_value=-5, max_value=12).map(str),
    st.sampled_from(["0", "-1", "1e308", "nan", "inf", "99999999999999999999999", "", " 3",
                     "\uff13", "1_0", "0x10", "2.5"]),
)
"""Option values: sensible, borderline and absurd."""


def run(*argv: str) -> tuple[int, str, str]:
    """``gametree ARGV`` in this process: (status, standard output, standard error)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as exit_:  # argparse's usage errors
            status = exit_.code if isinstance(exit_.code, int) else 2
    return status, out.getvalue(), err.getvalue()


def assert_answer_or_one_line(argv: tuple[str, ...]) -> None:
    status, out, err = run(*argv)
    assert status in (0, 2), (argv, status, err)
    if status == 2:
        assert out == "", (argv, out)
        lines = [line for line in err.splitlines() if not line.startswith("gametree: compiling")]
        assert len(lines) == 1 and lines[0].startswith("gametree"), (argv, err)
    assert "Traceback" not in err, (argv, err)


@FUZZ
@given(game=st.sampled_from(["tictactoe", "bones", "subtraction", "nim", "sticks", "connect4"]),
       moves=TEXT)
def test_any_moves_text(game: str, moves: str) -> None:
    assert_answer_or_one_line(("solve", game, "--moves", moves, *SEARCH))


@FUZZ
@given(option=st.sampled_from([
    ("tictactoe", "--rows"), ("tictactoe", "--cols"), ("tictactoe", "--k"),
    ("bones", "--heap"), ("subtraction", "--heap"), ("subtraction", "--takes"),
    ("nim", "--rows"), ("connect4", "--width"), ("connect4", "--height"),
    ("tictactoe", "--depth"), ("bones", "--nodes"), ("bones", "--time"), ("bones", "--seed"),
]), value=NUMBER)
def test_any_option_value(option: tuple[str, str], value: str) -> None:
    game, flag = option
    budget = () if flag in ("--nodes", "--time", "--depth") else ("--nodes", "3000")
    assert_answer_or_one_line(("solve", game, flag, value, "--tier", "python", *budget))


@FUZZ
@given(board=TEXT)
def test_any_board_text(board: str) -> None:
    assert_answer_or_one_line(("solve", "tictactoe", "--board", board, *SEARCH))


LEAF = st.one_of(st.integers(-100, 100), st.floats(allow_nan=True, allow_infinity=True),
                 st.sampled_from(["win", "loss", "draw", "x", ""]), st.booleans(), st.none())
TREE = st.recursive(LEAF, lambda kids: st.lists(kids, max_size=4), max_leaves=12)


@FUZZ
@given(tree=TREE)
def test_any_nested_tree(tree: Any) -> None:
    assert_answer_or_one_line(("solve", "tree", "--nested", json.dumps(tree), "--nodes", "3000"))


DOCUMENT = st.dictionaries(
    st.sampled_from(["leaves", "nested", "root", "children", "values", "branching", "labels"]),
    st.one_of(TREE, st.text(max_size=8),
              st.dictionaries(st.text(alphabet="ABCD", max_size=2),
                              st.one_of(st.text(alphabet="ABCD", max_size=2),
                                        st.lists(st.text(alphabet="ABCD", max_size=2),
                                                 max_size=3),
                                        LEAF), max_size=4)),
    max_size=4)


@FUZZ
@given(document=DOCUMENT)
def test_any_tree_document(document: dict[str, Any]) -> None:
    # A file per example: hypothesis does not mix with function-scoped fixtures (tmp_path).
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as file:
        json.dump(document, file)
        file.flush()
        assert_answer_or_one_line(("solve", "tree", "--file", file.name, "--nodes", "3000"))
