"""Time to the engine's first move in ``gametree play``, with and without a database
(docs/benchmarks.md):

    python benchmarks/bench_db_play.py --db c4-book.db -- connect4
    python benchmarks/bench_db_play.py --db c4-book.db --human 3 -- connect4

Runs the real command (``python -u -m gametree play GAME --first engine [--db FILE]``, or with
``--human MOVE`` ``--first human`` and MOVE typed at once) with its standard input a pipe that
types ``quit`` once the engine has moved, reading its output as it comes. Two times per run:
from starting the process to the engine's move (what a user waits, start-up included), and
from the line announcing the engine's turn (``Move N: ... (engine).``) to its move (the move's
own time).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time


def first_move(command: list[str], typed: str = "") -> tuple[float, float, str]:
    """Seconds from start and from the engine's turn to its move, and the move's line."""
    began = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-u", "-m", "gametree", *command],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdin is not None
    if typed:
        process.stdin.write(typed + "\n")
        process.stdin.flush()
    turn = None
    for line in process.stdout:
        now = time.perf_counter()
        if line.startswith("Move ") and line.rstrip().endswith("(engine)."):
            turn = now
        elif line.startswith("Engine (") and turn is not None:
            process.stdin.write("quit\n")
            process.stdin.close()
            process.wait(timeout=60)
            return now - began, now - turn, line.strip()
    raise RuntimeError(f"no engine move in the output of {command}")


def main() -> None:
    """Print both times for each way, ``--runs`` times."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", required=True, help="the database (opening book)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--human", metavar="MOVE",
                        help="the human moves first, MOVE; time the engine's reply")
    parser.add_argument("game", nargs="+", help="the game and its options")
    args = parser.parse_args()
    first = "human" if args.human else "engine"
    base = ["play", *args.game, "--first", first, "--color", "never"]
    for label, command in (("without database", base), ("with database", [*base, "--db",
                                                                              args.db])):
        for _ in range(args.runs):
            total, move, line = first_move(command, args.human or "")
            print(f"{label}: {total:.2f} s from start, {move:.3f} s for the move: {line}",
                  flush=True)


if __name__ == "__main__":
    main()
