"""Write tests/data/chess_mates.epd: positions with a forced mate in 1, 2 or 3, found in games
that Stockfish plays against itself at a low skill level with a seeded random opening.

The positions are this project's own (games played here, not copied from a collection); each
line is an EPD record with Stockfish's verdict, ``dm N`` (direct mate in N moves of the side
to move) and its first move in ``bm`` (SAN; other moves may mate as fast). tests/test_chess_mates.py
checks every line again with Stockfish and solves it with gametree.

Run from the repository: ``python tests/data/make_chess_mates.py [STOCKFISH [SEED [FILE]]]``
(defaults: ``/usr/games/stockfish``, seed 24, ``tests/data/chess_mates.epd``). Each position
found is also printed (``game N: mate in K: FEN``); ``--from-logs LOG...`` writes the file from
such printed lines instead (Stockfish checks each again and gives its ``bm``): the file in the
repository joins the positions of two runs, seeds 24 and 25 (the second with up to 22 pieces
for a mate in three), stopped once they had found enough. Stockfish's moves at 20 ms each
depend on the machine's speed, so a run finds other positions than these; each position
stands on its own, proven by Stockfish (tests/test_chess_mates.py checks it again).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import chess
import chess.engine

WANTED = {1: 10, 2: 10, 3: 14}
"""How many positions of each mate length to keep."""

MOST_PIECES = {1: 32, 2: 24, 3: 22}
"""Positions with more pieces than this are passed over (a search in Python stays short)."""

HEADER = """\
# Forced mates for gametree's chess tests (tests/test_chess_mates.py).
# Source: composed for this project by tests/data/make_chess_mates.py (seeded random openings,
# then Stockfish playing itself at skill level 1; positions where Stockfish proves a mate);
# no collection was copied. Each record: FEN fields, dm (mate in N moves of the side to move,
# the shortest), bm (one shortest-mating first move, SAN), id.
"""


def write(found: dict[int, list[tuple[chess.Board, str]]], target: Path) -> None:
    """Write the EPD file of the positions ``found`` (by mate length: board, first move)."""
    lines = [HEADER.rstrip("\n")]
    for mate in sorted(found):
        for index, (board, best) in enumerate(found[mate], start=1):
            lines.append(f'{board.epd()} dm {mate}; bm {best}; id "mate{mate}-{index:02d}";')
    target.write_text("\n".join(lines) + "\n")
    print(f"wrote {target}: " + ", ".join(f"{len(found[n])} mates in {n}" for n in found))


def from_logs(path: str, logs: list[str]) -> None:
    """Write the default file from the positions printed by runs (``LOG`` files)."""
    found: dict[int, list[tuple[chess.Board, str]]] = {n: [] for n in WANTED}
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        for log in logs:
            for line in Path(log).read_text().splitlines():
                if ": mate in " not in line:
                    continue
                _, mate_text, fen = line.split(": ", 2)
                mate = int(mate_text.split()[-1])
                board = chess.Board(fen)
                if len(found[mate]) >= WANTED[mate] or any(
                        board.epd() == other.epd() for other, _ in found[mate]):
                    continue
                exact = engine.analyse(board, chess.engine.Limit(depth=30))
                if exact["score"].relative.mate() == mate:
                    found[mate].append((board, board.san(exact["pv"][0])))
    write(found, Path(__file__).with_name("chess_mates.epd"))


def main() -> None:
    arguments = sys.argv[1:]
    path = arguments[0] if arguments else "/usr/games/stockfish"
    rng = random.Random(int(arguments[1]) if len(arguments) > 1 else 24)
    found: dict[int, list[tuple[chess.Board, str]]] = {n: [] for n in WANTED}
    seen: set[str] = set()
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        engine.configure({"Skill Level": 1})
        games = 0
        while any(len(found[n]) < WANTED[n] for n in WANTED) and games < 400:
            games += 1
            board = chess.Board()
            for _ in range(rng.randint(2, 8)):
                if board.is_game_over():
                    break
                board.push(rng.choice(list(board.legal_moves)))
            taken: dict[int, list[int]] = {}  # plies taken, by mate length: for variety,
            # at most two a game, six plies apart
            while not board.is_game_over() and board.ply() < 300:
                info = engine.analyse(board, chess.engine.Limit(depth=8))
                score = info["score"].relative
                mate = score.mate()
                key = board.epd()
                if mate is not None and 1 <= mate <= 3 and key not in seen \
                        and len(taken.get(mate, [])) < 2 \
                        and all(board.ply() - ply >= 6 for ply in taken.get(mate, [])) \
                        and len(found[mate]) < WANTED[mate] \
                        and len(board.piece_map()) <= MOST_PIECES[mate]:
                    seen.add(key)
                    exact = engine.analyse(board, chess.engine.Limit(depth=30))
                    if exact["score"].relative.mate() == mate:
                        taken.setdefault(mate, []).append(board.ply())
                        found[mate].append((board.copy(stack=False),
                                            board.san(exact["pv"][0])))
                        print(f"game {games}: mate in {mate}: {board.fen()}", flush=True)
                result = engine.play(board, chess.engine.Limit(time=0.02))
                if result.move is None:
                    break
                board.push(result.move)
    write(found, Path(arguments[2]) if len(arguments) > 2
          else Path(__file__).with_name("chess_mates.epd"))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--from-logs"]:
        from_logs("/usr/games/stockfish", sys.argv[2:])
    else:
        main()
