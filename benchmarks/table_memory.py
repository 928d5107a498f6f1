"""How much memory a transposition table entry takes: the figure behind ``megabytes=``.

Fills tables the way searches do (tic-tac-toe and Nim keys, the engine's entry tuples) and
prints the bytes per entry that ``tracemalloc`` sees. ``gametree.engine.table.BYTES_PER_ENTRY``
is set from this table. Run: ``python benchmarks/table_memory.py``.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable, Hashable

from gametree.engine.table import BYTES_PER_ENTRY, COMPLETE, EXACT

COUNT = 200_000


def measure(make_key: Callable[[int], Hashable]) -> float:
    """Bytes per entry of a table of ``COUNT`` entries with keys from ``make_key``."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    entries: dict[Hashable, tuple[int, int, float, object, int]] = {}
    for index in range(COUNT):
        # Values and depths vary as in a search (not the small cached integers only).
        entries[make_key(index)] = (index % 40 if index % 3 else COMPLETE, EXACT,
                                    999_000 - index, index % 9, 1)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    per_entry = (after - before) / COUNT
    del entries
    return per_entry


KEYS: dict[str, Callable[[int], Hashable]] = {
    "int key (tic-tac-toe, Connect Four)": lambda index: (index * 2_654_435_761) | 1 << 40,
    "(player, tuple of 4) key (Nim)": lambda index: (index & 1, (index % 7, index % 11,
                                                                 index % 13, index)),
}


def main() -> None:
    print(f"{'key kind':40} {'bytes per entry':>16}")
    for name, make_key in KEYS.items():
        print(f"{name:40} {measure(make_key):16.0f}")
    print(f"\nBYTES_PER_ENTRY (used for megabytes=): {BYTES_PER_ENTRY}")


if __name__ == "__main__":
    main()
