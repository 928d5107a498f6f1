"""A kernel's ``table_min_plies_left`` (docs/kernels.md): positions with fewer plies left are
searched without the transposition table. Values, best moves and lines are those of a search
that tables every position; only the node counts differ."""

from __future__ import annotations

import pytest

from gametree.compiled.kernel import Kernel, KernelError
from gametree.games import connect4_kernel
from gametree.games.connect4 import ConnectFour

from .compiled_support import engine_for
from .test_compiled_solving_hooks import encoded_positions, kernel_without


@pytest.mark.slow  # compiles a second 5x4 kernel
def test_a_table_near_the_end_changes_node_counts_never_values() -> None:
    near_end = connect4_kernel.kernel(5, 4)
    assert near_end.table_min_plies_left == connect4_kernel.TABLE_MIN_PLIES_LEFT > 0
    everywhere = kernel_without(5, 4, (), "the table near the end", table_min_plies_left=0)
    states = encoded_positions(ConnectFour(5, 4), 45, 30, (1, 12), start=True)
    for weak in (False, True):
        skipping = engine_for(near_end).solve_many(states, weak=weak)
        tabling = engine_for(everywhere).solve_many(states, weak=weak)
        assert skipping.values == tabling.values
        assert skipping.nodes != tabling.nodes  # the option did change the search
    for state in states[:8]:
        skipping_result = engine_for(near_end).search(state, exact_root=True, fresh=True)
        tabling_result = engine_for(everywhere).search(state, exact_root=True, fresh=True)
        assert skipping_result.value == tabling_result.value
        assert skipping_result.best_move == tabling_result.best_move
        assert skipping_result.pv == tabling_result.pv
        assert [(m.move, m.value) for m in skipping_result.moves] == \
            [(m.move, m.value) for m in tabling_result.moves]


def test_kernels_that_differ_in_it_alone_are_cached_apart() -> None:
    # The engine's machine code depends on it: one kernel's cache must not serve the other.
    skipping = kernel_without(6, 4, (), "nothing")
    tabling = kernel_without(6, 4, (), "nothing", table_min_plies_left=0)
    assert skipping.identity() is not None
    assert skipping.identity() != tabling.identity()


def test_a_bad_table_min_plies_left_is_refused() -> None:
    rules = dict(connect4_kernel.kernel(4, 4).python_rules())
    with pytest.raises(KernelError, match="table_min_plies_left must be at least 0"):
        Kernel.from_functions("negative", initial_state=(0, 0, 0), max_moves=4, max_plies=16,
                              functions=rules, winner_moves_last=True, table_min_plies_left=-1)
    for name in ("can_win_next", "non_losing_moves", "plies_left", "upper_bound",
                 "enhanced_cutoffs", "forced_reply"):
        del rules[name]
    with pytest.raises(KernelError, match="table_min_plies_left needs the plies_left"):
        Kernel.from_functions("no plies_left", initial_state=(0, 0, 0), max_moves=4,
                              max_plies=16, functions=rules, table_min_plies_left=4)
