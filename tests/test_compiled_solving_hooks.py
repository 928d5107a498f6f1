"""The solving hooks of a kernel (``mirror_key``, ``upper_bound``, ``enhanced_cutoffs``,
``forced_reply``: see docs/kernels.md): each agrees with plain search on positions of every
built-in game that provides them (Connect Four), and a kernel without them is searched as
before."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice
from typing import Any

import pytest

import gametree
from gametree.compiled.authoring import check_python_rules, forced_reply_of
from gametree.compiled.kernel import (
    NO_REPLY,
    NO_UPPER_BOUND,
    ONGOING,
    SEVERAL_REPLIES,
    SOLVER_HOOKS,
    Kernel,
    KernelError,
)
from gametree.games import connect4_kernel
from gametree.games.connect4 import ConnectFour
from gametree.values import WIN

from .compiled_support import engine_for
from .exact import node_value, reachable


def random_line(game: ConnectFour, stones: int, rng: random.Random) -> list[int] | None:
    """The columns of ``stones`` random moves of a game still going on after them, or None."""
    state, line = game.initial_state(), []
    for _ in range(stones):
        moves = game.moves(state)
        if not moves:
            return None
        column = rng.choice(moves)
        line.append(column)
        state = game.play(state, column)
    return line if game.outcome(state) is None else None


def random_lines(game: ConnectFour, rng: random.Random, shortest: int,
                 longest: int) -> Iterator[list[int]]:
    """Endlessly, the columns of random lines of ``shortest`` to ``longest - 1`` moves (each
    length drawn at random) of games still going on after them."""
    while True:
        line = random_line(game, rng.randrange(shortest, longest), rng)
        if line is not None:
            yield line


def play_line(game: ConnectFour, line: list[int]) -> Any:
    state = game.initial_state()
    for column in line:
        state = game.play(state, column)
    return state


def allowed_by(bound: int, value: int) -> bool:
    """Is ``value`` (for the player to move) within the kernel's ``upper_bound`` code?"""
    if bound == NO_UPPER_BOUND:
        return True
    return value <= (0 if bound >= 0 else -(WIN - (-bound)))


@pytest.mark.parametrize("width, height", [(4, 4), (5, 4), (7, 6), (8, 7), (9, 5)])
def test_mirror_key_is_the_key_of_the_mirror_image(width: int, height: int) -> None:
    game = ConnectFour(width, height)
    form = connect4_kernel.compiled_form(game)
    rules = form.kernel.python_rules()
    rng = random.Random(width * 10 + height)
    for line in islice(random_lines(game, rng, 0, width * height - 4), 40):
        state = form.encode(play_line(game, line))
        image = form.encode(play_line(game, [width - 1 - column for column in line]))
        assert rules["mirror_key"](state) == rules["key"](image)
        assert rules["mirror_key"](image) == rules["key"](state)


def upper_bounds_on_random_positions(game: ConnectFour, seed: int, count: int, shortest: int,
                                     longest: int) -> int:
    """Check the kernel's upper_bound against exhaustive minimax on ``count`` random positions
    ``shortest`` to ``longest - 1`` plies deep; returns how many of them it bounded."""
    form = connect4_kernel.compiled_form(game)
    upper_bound = form.kernel.python_rules()["upper_bound"]
    rng = random.Random(seed)
    memo: dict[Any, int] = {}
    bounded = 0
    for line in islice(random_lines(game, rng, shortest, longest), count):
        state = play_line(game, line)
        bound = upper_bound(form.encode(state))
        bounded += bound != NO_UPPER_BOUND
        assert allowed_by(bound, node_value(game, state, memo)), line
    return bounded


def test_upper_bound_holds_on_four_by_four_positions() -> None:
    # An even height (claimeven bounds as well as "no four left" ones): random positions
    # against exhaustive minimax (every position of the board: the slow test below).
    assert upper_bounds_on_random_positions(ConnectFour(4, 4), 44, 100, 8, 13) > 20


@pytest.mark.parametrize("line, stones_left", [([2, 2, 2, 0, 3, 3, 2, 0, 3, 0], 6),
                                               ([0, 3, 0, 0, 1, 0, 1, 1], 8)])
def test_a_claimeven_loss_bound_names_the_move_of_the_loss(line: list[int],
                                                         stones_left: int) -> None:
    # The opponent's claimeven four is complete by the move at which its highest empty cell
    # must be filled: before the end of the game. Here the bound is minimax's own distance.
    game = ConnectFour(4, 4)
    form = connect4_kernel.compiled_form(game)
    state = play_line(game, line)
    bound = form.kernel.python_rules()["upper_bound"](form.encode(state))
    assert bound < 0 and -bound < stones_left
    assert node_value(game, state, {}) == -(WIN - (-bound))


@pytest.mark.slow  # exhaustive minimax over all 161,029 positions, in Python
def test_upper_bound_holds_on_every_four_by_four_position() -> None:
    # An even height: claimeven bounds as well as "no four left" ones, against exhaustive
    # minimax on every position of the board.
    game = ConnectFour(4, 4)
    form = connect4_kernel.compiled_form(game)
    upper_bound = form.kernel.python_rules()["upper_bound"]
    memo: dict[Any, int] = {}
    bounded = early = 0
    for state in reachable(game):
        if game.outcome(state) is not None:
            continue
        encoded = form.encode(state)
        bound = upper_bound(encoded)
        if bound != NO_UPPER_BOUND:
            bounded += 1
            early += 0 < -bound < 16 - encoded[2]  # a loss named before the last move
            assert allowed_by(bound, node_value(game, state, memo)), state
    assert bounded > 10_000  # the hook does bound a good share of the positions
    assert early > 100


@pytest.mark.slow  # exhaustive minimax from positions of a 5x5 board, in Python
def test_upper_bound_holds_on_an_odd_height() -> None:
    assert upper_bounds_on_random_positions(ConnectFour(5, 5), 55, 300, 14, 22) > 0


@pytest.mark.parametrize("width, height, stones", [(4, 4, 4), (7, 6, 28)])
def test_hooked_search_agrees_with_the_python_tier(width: int, height: int,
                                                    stones: int) -> None:
    # Every root move's exact value of the compiled engine (with every solving hook) against
    # the Python tier's plain search, on random positions; its best move is one of the moves
    # that the Python tier values at the root's value (ties may be broken otherwise).
    game = ConnectFour(width, height)
    rng = random.Random(stones)
    for line in islice(random_lines(game, rng, stones, stones + 3), 12):
        state = play_line(game, line)
        compiled = gametree.search(game, state, tier="compiled", exact_root=True)
        python = gametree.search(game, state, tier="python", exact_root=True)
        assert compiled.value == python.value, line
        assert [(entry.move, entry.value) for entry in compiled.moves] == \
            [(entry.move, entry.value) for entry in python.moves], line
        assert compiled.best_move in [entry.move for entry in python.moves
                                      if entry.value == python.value], line


def rules_without(*, width: int, height: int, dropped: tuple[str, ...], jit: Any) -> Any:
    """Connect Four's rules without the rules named in ``dropped`` (a rules factory)."""
    rules = connect4_kernel.rules(width=width, height=height, jit=jit)
    return {name: function for name, function in rules.items() if name not in dropped}


def kernel_without(width: int, height: int, dropped: tuple[str, ...], what: str, *,
                   table_min_plies_left: int = connect4_kernel.TABLE_MIN_PLIES_LEFT) -> Kernel:
    """Connect Four's kernel without the rules named in ``dropped`` (``what`` names them, and
    what else differs from the built-in kernel)."""
    return Kernel.from_factory(f"Connect Four {width}x{height} without {what}", rules_without,
                               initial_state=(0, 0, 0), max_moves=width,
                               max_plies=width * height,
                               parameters={"width": width, "height": height,
                                           "dropped": dropped},
                               winner_moves_last=True,
                               table_min_plies_left=table_min_plies_left)


def encoded_positions(game: ConnectFour, seed: int, count: int, stones: tuple[int, int],
                      *, start: bool = False) -> list[Any]:
    """``count`` kernel states: (with ``start``, the empty board and) positions after random
    lines of ``stones`` (a range's bounds) stones."""
    form = connect4_kernel.compiled_form(game)
    rng = random.Random(seed)
    states: list[Any] = [form.encode(game.initial_state())] if start else []
    lines = islice(random_lines(game, rng, *stones), count - len(states))
    return states + [form.encode(play_line(game, line)) for line in lines]


@pytest.mark.slow  # compiles a second 6x4 kernel
def test_the_hooks_change_node_counts_never_values() -> None:
    hooked = connect4_kernel.kernel(6, 4)
    plain = kernel_without(6, 4, SOLVER_HOOKS, "solving hooks")
    states = encoded_positions(ConnectFour(6, 4), 64, 30, (2, 14))
    with_hooks = engine_for(hooked).solve_many(states)
    without = engine_for(plain).solve_many(states)
    assert with_hooks.values == without.values
    assert sum(with_hooks.nodes) < sum(without.nodes)


def test_hooks_that_need_others_are_refused() -> None:
    rules = dict(connect4_kernel.kernel(4, 4).python_rules())
    for name in ("can_win_next", "non_losing_moves", "plies_left"):
        del rules[name]
    with pytest.raises(KernelError, match="upper_bound needs the threat hooks"):
        Kernel.from_functions("no threats", initial_state=(0, 0, 0), max_moves=4,
                              max_plies=16, functions=rules, winner_moves_last=True)


@pytest.mark.parametrize(("width", "height"), [(4, 4), (5, 4), (7, 6), (8, 7)])
def test_forced_reply_says_what_non_losing_moves_says(width: int, height: int) -> None:
    # On random positions where the player to move cannot win at once: the one move, none
    # (NO_REPLY) or a choice (SEVERAL_REPLIES), each of the three met.
    game = ConnectFour(width, height)
    form = connect4_kernel.compiled_form(game)
    rules = form.kernel.python_rules()
    rng = random.Random(width * 100 + height)
    out = [0] * width
    seen = set()
    checked = 0
    for line in random_lines(game, rng, 0, width * height - 2):
        state = form.encode(play_line(game, line))
        if rules["outcome"](state) != ONGOING or rules["can_win_next"](state):
            continue
        count = rules["non_losing_moves"](state, out)
        reply = rules["forced_reply"](state)
        assert reply == forced_reply_of(count, out), line
        seen.add(min(count, 2))
        checked += 1
        if checked == 300:
            break
    assert seen == {0, 1, 2}


def test_a_forced_reply_that_contradicts_non_losing_moves_is_refused() -> None:
    rules = dict(connect4_kernel.kernel(4, 4).python_rules())
    rules["forced_reply"] = lambda state: NO_REPLY  # at the start every move is safe
    kernel = Kernel.from_functions("wrong forced reply", initial_state=(0, 0, 0), max_moves=4,
                                   max_plies=16, functions=rules, winner_moves_last=True)
    with pytest.raises(KernelError, match="the rule forced_reply returned"):
        check_python_rules(kernel)
    assert SEVERAL_REPLIES != NO_REPLY


@pytest.mark.slow  # compiles a second 5x4 kernel
def test_forced_reply_searches_node_for_node_as_the_move_list() -> None:
    # The hook only saves writing the list: the same forced lines, so the same positions.
    hooked = connect4_kernel.kernel(5, 4)
    listed = kernel_without(5, 4, ("forced_reply",), "forced_reply")
    states = encoded_positions(ConnectFour(5, 4), 54, 30, (1, 12), start=True)
    for weak in (False, True):
        with_hook = engine_for(hooked).solve_many(states, weak=weak)
        without = engine_for(listed).solve_many(states, weak=weak)
        assert with_hook.values == without.values
        assert with_hook.nodes == without.nodes
