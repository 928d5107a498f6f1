"""The ``uci`` command: gametree's chess as a UCI engine on standard input and output
(:mod:`gametree.uci`, docs/uci.md)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .parser import fail

DESCRIPTION = (
    "Be a chess engine that speaks UCI (the Universal Chess Interface) on standard input and "
    "output, for a chess GUI (Cute Chess, Arena, BanksiaGUI, ...) or python-chess's "
    "chess.engine: give the GUI the command 'gametree uci' (or 'python -m gametree uci'). "
    "It answers uci, isready, ucinewgame, setoption (Hash, Clear Hash, Depth, Level, Move "
    "Overhead), position startpos|fen ... moves ..., go (depth, nodes, mate, movetime, "
    "wtime/btime/winc/binc/movestogo, infinite, ponder), stop, ponderhit and quit. Needs "
    "python-chess: pip install 'gametree[chess]'. See docs/uci.md."
)


def run_uci_command(args: argparse.Namespace) -> int:
    """``gametree uci``: answer UCI commands until ``quit`` or the end of the input."""
    try:
        from ..uci import run_uci  # noqa: PLC0415 - only this command needs python-chess
        from ..uci.bridge import chess_bridge  # noqa: PLC0415
    except ImportError as error:
        fail(f"the UCI engine needs python-chess ({error}): pip install 'gametree[chess]'")
    run_uci(chess_bridge(), sys.stdin, sys.stdout)
    return 0


def add_command(subparsers: Any) -> None:
    """Register ``uci``."""
    command = subparsers.add_parser("uci", help="be a UCI chess engine (for chess GUIs)",
                                    description=DESCRIPTION)
    command.set_defaults(run=run_uci_command)
