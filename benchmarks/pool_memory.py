"""The memory a long-running process keeps after searches of many table sizes: the figure behind
the engine pool's row in docs/memory.md.

Solves Connect Four 5x4 (the whole game, on the compiled tier) once with each table size from
2**16 to 2**24 entries, on one and on two threads, as a server answering varied requests would,
then prints the pool's idle bytes and the process's resident memory (now and at its peak).
Run: ``python benchmarks/pool_memory.py [LIMIT_MIB]`` (default: the pool's default limit).
"""

from __future__ import annotations

import resource
import sys
from pathlib import Path

import gametree
from gametree import EngineTuning
from gametree.games.connect4 import ConnectFour
from gametree.pool import MIB, pool_bytes, pool_limit, set_pool_limit


def resident_mib() -> float:
    """The process's resident memory now (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    """Search, then print what the process holds."""
    if len(sys.argv) > 1:
        set_pool_limit(int(sys.argv[1]) * MIB)
    game = ConnectFour(5, 4)
    for bits in range(16, 25):
        for threads in (1, 2):
            result = gametree.search(game, tier="compiled", threads=threads,
                                     tuning=EngineTuning(table_bits=bits))
            assert result.value == 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"pool limit {pool_limit() / MIB:g} MiB: idle engines {pool_bytes() / MIB:.1f} MiB, "
          f"resident now {resident_mib():.0f} MiB, peak {peak:.0f} MiB")


if __name__ == "__main__":
    main()
