"""A one-thread solve on an emptied table keeps its entries in the table's small first part
(``2**SMALL_TABLE_BITS`` entries, which stay in the processor's caches) until it has visited as
many positions as that part has entries; then keys map onto the middle part
(``2**MIDDLE_TABLE_BITS`` entries, or the whole table if that is smaller) and the entries move
there; once the middle part holds ``FULL_MIDDLE`` entries, onto the whole table. Threads that
fill one table together use it whole. Values and best moves never depend on it; a search that
stays in a part is node for node a search on a table of that part's size."""

from __future__ import annotations

from typing import Any

import pytest

from gametree.compiled import engine as driver
from gametree.compiled.engine import CompiledEngine
from gametree.games.connect4 import ConnectFour
from gametree.registry import play_moves

from .pons import pons_set

MULTIPLIER = 0x9E3779B97F4A7C15  # the engine's Fibonacci hashing (see slot_of)
BITS = 18  # the tests' tables: 2**18 entries, four times the small part


@pytest.fixture(scope="module")
def game() -> ConnectFour:
    return ConnectFour()


def encoded(game: ConnectFour, name: str, index: int) -> Any:
    """Pons' position ``index`` of set ``name``, as the 7x6 kernel's state."""
    moves, _ = pons_set(name, index + 1)[index]
    return game.compiled_form().encode(play_moves(game, list(moves)))


def small_bits(engine: CompiledEngine) -> int:
    bits = int(engine._module.SMALL_TABLE_BITS)
    assert 0 < bits < BITS
    return bits


def entries(engine: CompiledEngine) -> list[tuple[int, int]]:
    """Every filled slot of the engine's table: (its index among the entries, its key)."""
    ws = engine._ws
    table = int(ws[driver._C_TABLE])
    words = ws[table:table + (2 << int(ws[driver._C_TABLE_BITS]))].tolist()
    return [(i // 2, words[i] ^ words[i + 1]) for i in range(0, len(words), 2)
            if words[i + 1] != 0]


def pair_of(key: int, bits: int) -> int:
    """The pair of slots a table of ``2**bits`` entries keeps ``key`` in."""
    return (((key * MULTIPLIER) % (1 << 64)) >> (64 - bits)) >> 1


def test_a_short_solve_fills_the_small_part_alone(game: ConnectFour) -> None:
    engine = CompiledEngine(game.compiled_form().kernel, table_bits=BITS)
    bits = small_bits(engine)
    small = CompiledEngine(engine.kernel, table_bits=bits)  # as large as the small part
    state = encoded(game, "L1_R1", 0)
    found = engine.search(state, fresh=True)
    alike = small.search(state, fresh=True)
    assert 1_000 < found.stats.nodes < 1 << bits
    assert (found.value, found.best_move, found.pv, found.stats.nodes) == \
        (alike.value, alike.best_move, alike.pv, alike.stats.nodes)
    filled = entries(engine)
    assert len(filled) > 500
    assert all(index >> 1 == pair_of(key, bits) for index, key in filled)


def test_a_longer_solve_moves_its_entries_to_the_whole_table(game: ConnectFour) -> None:
    engine = CompiledEngine(game.compiled_form().kernel, table_bits=BITS)
    bits = small_bits(engine)
    small = CompiledEngine(engine.kernel, table_bits=bits)
    state = encoded(game, "L1_R2", 3)
    found = engine.search(state, fresh=True)
    alike = small.search(state, fresh=True)
    assert found.stats.nodes > 1 << bits  # it grew
    assert (found.value, found.best_move, found.pv) == (alike.value, alike.best_move, alike.pv)
    filled = entries(engine)
    assert all(index >> 1 == pair_of(key, BITS) for index, key in filled)  # none left behind
    assert sum(index >= 1 << bits for index, _ in filled) > len(filled) // 2
    # Emptied, the table starts small again.
    engine.search(encoded(game, "L1_R1", 0), fresh=True)
    assert all(index >> 1 == pair_of(key, bits) for index, key in entries(engine))


def test_moved_entries_are_found_again(game: ConnectFour) -> None:
    engine = CompiledEngine(game.compiled_form().kernel, table_bits=BITS)
    short = encoded(game, "L1_R1", 0)
    alone = engine.search(short, fresh=True)
    engine.search(encoded(game, "L1_R2", 3))  # grows, moving the short search's entries
    again = engine.search(short)
    assert (again.value, again.best_move) == (alone.value, alone.best_move)
    # Its root and line are in the table: a few positions instead of its whole search (had
    # its entries stayed behind in the small part, unseen, it would search again).
    assert again.stats.nodes < alone.stats.nodes // 20


def test_threads_that_share_the_table_use_it_whole(game: ConnectFour) -> None:
    engine = CompiledEngine(game.compiled_form().kernel, table_bits=BITS, threads=2)
    bits = small_bits(engine)
    state = encoded(game, "L1_R1", 0)
    one = CompiledEngine(engine.kernel, table_bits=BITS).search(state, fresh=True)
    threaded = engine.search(state, fresh=True)
    assert threaded.stats.threads == 2
    assert (threaded.value, threaded.best_move) == (one.value, one.best_move)
    filled = entries(engine)
    assert all(index >> 1 == pair_of(key, BITS) for index, key in filled)
    assert sum(index >= 1 << bits for index, _ in filled) > len(filled) // 2
    # On its own again (a search to a depth runs on one thread), an emptied table is small.
    depth = engine.search(state, depth=8, fresh=True)
    assert depth.stats.threads == 1
    assert all(index >> 1 == pair_of(key, bits) for index, key in entries(engine))
    with engine.shared() as engines:  # two threads over the table: whole
        engines[0].search(encoded(game, "L1_R1", 5))
    assert any(index >= 1 << bits for index, _ in entries(engine))


def middle_bits(engine: CompiledEngine) -> int:
    bits = int(engine._module.MIDDLE_TABLE_BITS)
    assert small_bits(engine) < bits
    return bits


def test_a_longer_solve_grows_to_the_middle_part_and_stays_there(game: ConnectFour) -> None:
    kernel = game.compiled_form().kernel
    middle = CompiledEngine(kernel, table_bits=BITS)
    bits = middle_bits(middle)
    middle = CompiledEngine(kernel, table_bits=bits)  # as large as the middle part
    engine = CompiledEngine(kernel, table_bits=bits + 1)  # larger
    state = encoded(game, "L1_R2", 7)  # 0.5 M positions: fewer entries than FULL_MIDDLE
    found = engine.search(state, fresh=True)
    alike = middle.search(state, fresh=True)
    assert found.stats.nodes > 1 << small_bits(engine)
    assert (found.value, found.best_move, found.pv, found.stats.nodes) == \
        (alike.value, alike.best_move, alike.pv, alike.stats.nodes)
    filled = entries(engine)
    assert len(filled) > 1 << (bits - 3)
    assert all(index >> 1 == pair_of(key, bits) for index, key in filled)


@pytest.mark.slow  # the 7x5 kernel (compiled for the game lengths' test too) and its solve
def test_a_whole_board_grows_from_the_middle_part_to_the_whole_table() -> None:
    game = ConnectFour(width=7, height=5)
    form = game.compiled_form()
    engine = CompiledEngine(form.kernel)  # the default table: 2**22 entries
    found = engine.search(form.encode(game.initial_state()), fresh=True)
    assert found.value == 0  # a draw
    full_middle = int(engine._module.FULL_MIDDLE)
    assert found.stats.table_entries > full_middle  # the middle part could not hold them
    table_bits = int(engine._ws[driver._C_TABLE_BITS])
    filled = entries(engine)
    assert all(index >> 1 == pair_of(key, table_bits) for index, key in filled)
    assert sum(index >= 1 << middle_bits(engine) for index, _ in filled) > len(filled) // 2
