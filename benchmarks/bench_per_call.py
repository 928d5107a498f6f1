"""The cost of one call of the search service on a position with one legal move.

A server, a database builder or a player searches many small positions; what each call costs
beyond the search itself matters there. The position: tic-tac-toe after ``1,1 0,0 0,1 2,1 1,0
1,2 0,2 2,0`` (X to move, one empty cell, a draw). The figure is the time of one
``gametree.search(game, state, options)`` call, the same options object reused, on each tier:
the best (smallest) mean of ``--rounds`` rounds of ``--calls`` calls (the least disturbed by
other work on the machine). When the peer environment exists (``python
benchmarks/setup_peers.py``), OpenSpiel's ``alpha_beta_search`` is measured in it on the same
position, the same way, and the ratios are printed.

Usage::

    python benchmarks/bench_per_call.py
    python benchmarks/bench_per_call.py --calls 20000 --rounds 9
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import timeit
from pathlib import Path

import gametree
from gametree import SearchOptions
from gametree.games.tictactoe import MNKGame
from gametree.registry import play_moves

MOVES = "1,1 0,0 0,1 2,1 1,0 1,2 0,2 2,0"
"""The moves to the position searched (row,column; X first): only 2,2 is left."""

PEER_PYTHON = Path(__file__).resolve().parent / ".peers" / "venv" / "bin" / "python"

OPENSPIEL = """
import json, sys, timeit
import pyspiel
from open_spiel.python.algorithms import minimax
game = pyspiel.load_game("tic_tac_toe")
state = game.new_initial_state()
for row, col in (tuple(int(part) for part in move.split(",")) for move in sys.argv[1].split()):
    state.apply_action(3 * row + col)
assert len(state.legal_actions()) == 1
value, action = minimax.alpha_beta_search(game, state)
calls, rounds = int(sys.argv[2]), int(sys.argv[3])
times = timeit.repeat(lambda: minimax.alpha_beta_search(game, state), number=calls,
                      repeat=rounds)
print(json.dumps({"value": value, "action": action, "seconds": min(times) / calls}))
"""


def per_call(tier: str, calls: int, rounds: int) -> tuple[float, gametree.SearchResult[int]]:
    """Seconds per ``gametree.search`` call on ``tier``, and the result it gives."""
    game = MNKGame()
    state = play_moves(game, MOVES.split())
    options = SearchOptions(tier=tier)  # type: ignore[arg-type]
    result = gametree.search(game, state, options)  # loads (or compiles) the kernel
    times = timeit.repeat(lambda: gametree.search(game, state, options), number=calls,
                          repeat=rounds)
    return min(times) / calls, result


def openspiel(calls: int, rounds: int) -> float | None:
    """Seconds per OpenSpiel ``alpha_beta_search`` call, if the peer environment exists."""
    if not PEER_PYTHON.exists():
        return None
    done = subprocess.run([str(PEER_PYTHON), "-c", OPENSPIEL, MOVES, str(calls), str(rounds)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SystemExit(f"the peer environment failed ({last}): run "
                         f"python benchmarks/setup_peers.py --force")
    answer = json.loads(done.stdout)
    if answer["action"] != 8 or answer["value"] != 0:
        raise RuntimeError(f"OpenSpiel answered {answer}, not a draw by 2,2")
    seconds: float = answer["seconds"]
    return seconds


def main() -> int:
    """Measure and print one line per contender."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20000, help="calls per round")
    parser.add_argument("--rounds", type=int, default=7, help="rounds (the best is kept)")
    args = parser.parse_args()
    print(f"per call, tic-tac-toe after {MOVES} (one legal move); {args.rounds} rounds of "
          f"{args.calls} calls, best round; Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    figures: dict[str, float] = {}
    for tier in ("python", "compiled"):
        seconds, result = per_call(tier, args.calls, args.rounds)
        assert result.tier == tier and result.best_move == 8 and result.value == 0, result
        figures[tier] = seconds
        print(f"  gametree.search, {tier} tier: {seconds * 1e6:6.2f} us "
              f"({result.stats.nodes} nodes: {result.value_text()} by 2,2)")
    peer = openspiel(args.calls, args.rounds)
    if peer is None:
        print("  OpenSpiel alpha_beta_search: not measured (no peer environment: run "
              "python benchmarks/setup_peers.py)")
    else:
        print(f"  OpenSpiel alpha_beta_search:     {peer * 1e6:6.2f} us; gametree / OpenSpiel: "
              f"Python tier {figures['python'] / peer:.2f}x, compiled tier "
              f"{figures['compiled'] / peer:.2f}x")
    print(f"load after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
