"""Nodes per second of gametree's chess adapter against a plain python-chess alpha-beta.

    python benchmarks/bench_chess.py                 # depth 4 on the four positions
    python benchmarks/bench_chess.py --depth 3 --repeat 3

Both search the same positions to the same depth on python-chess's move generation:

* **gametree**: ``gametree.search`` on the ``chess`` game (the Python tier's engine with its
  table, the game's move order and the quiescence search at the horizon), and the same with
  the quiescence search switched off (a subclass without ``noisy_moves``), whose tree is the
  plain search's shape;
* **plain python-chess**: negamax alpha-beta written the usual way, over ``board.push`` and
  ``board.pop`` on one board, the moves in python-chess's order, a finished game by
  ``board.outcome()`` and a material count at the depth limit.

A node is a position visited (each one counted once, the root included), the same in both.
Times are CPU seconds of this process (``time.process_time``: other processes on a shared
machine do not count), the best of ``--repeat`` runs. The table gives nodes, seconds, nodes
per second, and gametree's per-node cost as a ratio to the plain search's (above 1: a node of
gametree's costs more). The searches do not visit the same trees (gametree's ordering and
table prune more, its quiescence search looks further), so the time to reach a depth is given
too.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import chess

from gametree import search
from gametree.game import Game
from gametree.games.chess import ChessGame

POSITIONS = {
    "start": chess.STARTING_FEN,
    "italian": "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "endgame": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
}
"""The positions searched: the start, an Italian game's middle game, 'Kiwipete' (the perft
test position: every special move) and an end game (the perft test position 3)."""

VALUES = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500,
          chess.QUEEN: 900}
"""The plain search's material values."""

MATE = 1_000_000


class NoQuiescence(ChessGame):
    """gametree's chess without noisy moves: a position at the depth limit is evaluated."""

    noisy_moves = Game.noisy_moves


def plain_alphabeta(board: chess.Board, depth: int) -> tuple[int, int]:
    """The usual python-chess negamax alpha-beta: ``(value for the side to move, nodes)``."""
    nodes = 0

    def material(position: chess.Board) -> int:
        score = 0
        for piece, value in VALUES.items():
            score += value * (len(position.pieces(piece, chess.WHITE))
                              - len(position.pieces(piece, chess.BLACK)))
        return score if position.turn == chess.WHITE else -score

    def negamax(ply: int, left: int, alpha: float, beta: float) -> float:
        nonlocal nodes
        nodes += 1
        outcome = board.outcome()
        if outcome is not None:
            return 0 if outcome.winner is None else -(MATE - ply)  # the side to move is mated
        if left == 0:
            return material(board)
        best = -math.inf
        for move in board.legal_moves:
            board.push(move)
            value = -negamax(ply + 1, left - 1, -beta, -alpha)
            board.pop()
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    value = negamax(0, depth, -math.inf, math.inf)
    return int(value), nodes


def timed(run: Callable[[], int], repeat: int) -> tuple[int, float]:
    """``(nodes, best CPU seconds)`` of ``repeat`` runs of ``run`` (which returns its nodes)."""
    best = math.inf
    nodes = 0
    for _ in range(repeat):
        started = time.process_time()
        nodes = run()
        best = min(best, time.process_time() - started)
    return nodes, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=int, default=4, help="plies (default 4)")
    parser.add_argument("--repeat", type=int, default=1, help="runs each, the best kept")
    parser.add_argument("--positions", default=",".join(POSITIONS),
                        help=f"a subset of {','.join(POSITIONS)}")
    options = parser.parse_args()
    print(f"### Chess, depth {options.depth}: nodes per second (CPU time, best of "
          f"{options.repeat})\n")
    print("| position | searcher | nodes | seconds | nodes/s | µs/node ratio |")
    print("|---|---|---:|---:|---:|---:|")
    search(ChessGame(), depth=1)  # warm up: imports and python-chess's tables, untimed
    plain_alphabeta(chess.Board(), 1)
    totals: dict[str, list[float]] = {}
    for name in options.positions.split(","):
        fen = POSITIONS[name]
        rows: list[tuple[str, int, float]] = []
        for label, game_type in (("gametree", ChessGame), ("gametree, no quiescence",
                                                           NoQuiescence)):
            def run(kind: type[ChessGame] = game_type, start: str = fen) -> int:
                return search(kind(start), depth=options.depth).stats.nodes
            rows.append((label, *timed(run, options.repeat)))

        def plain(start: str = fen) -> int:
            return plain_alphabeta(chess.Board(start), options.depth)[1]
        rows.append(("plain python-chess alpha-beta", *timed(plain, options.repeat)))
        plain_per_node = rows[-1][2] / rows[-1][1]
        for label, nodes, seconds in rows:
            ratio = (seconds / nodes) / plain_per_node
            totals.setdefault(label, [0, 0.0])
            totals[label][0] += nodes
            totals[label][1] += seconds
            print(f"| {name} | {label} | {nodes:,} | {seconds:.2f} | {nodes / seconds:,.0f} "
                  f"| {ratio:.2f} |")
    plain_nodes, plain_seconds = totals["plain python-chess alpha-beta"]
    for label, (all_nodes, all_seconds) in totals.items():
        ratio = (all_seconds / all_nodes) / (plain_seconds / plain_nodes)
        print(f"| all | {label} | {int(all_nodes):,} | {all_seconds:.2f} "
              f"| {all_nodes / all_seconds:,.0f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
