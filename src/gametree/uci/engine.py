"""The UCI engine: reads commands line by line, searches in a thread of its own, writes
``info`` and ``bestmove`` lines.

The input loop never waits for a search: ``go`` starts one in a thread and returns, so
``isready`` is answered at once and ``stop`` reaches the search while it runs (through a
:class:`threading.Event`, the engine's stop signal: :class:`gametree.limits.StopSignal`).
Each ``go`` gets exactly one ``bestmove``: its thread writes it last, whatever happened — a
search that failed says why in an ``info string`` and the move is then the first legal one.
``go infinite`` and ``go ponder`` hold the ``bestmove`` back until ``stop`` (or
``ponderhit``), as UCI asks, even when the search has ended by itself (a proven mate). After
``ponderhit`` a ponder search goes on as a normal search of its position would, its time
counted from the ``ponderhit``.

A GUI sends ``go``, ``setoption`` and ``ucinewgame`` only when no search runs; if one does
all the same (a script piping commands in), the command waits for that search's ``bestmove``
— or, for ``go infinite`` or ``go ponder``, which would wait for ever, stops it first — then
takes effect. ``position`` does not wait: a search has its own copy of the position.

Malformed or unknown input never ends the engine: an unknown word before a command is
skipped (``joho isready`` is ``isready``, as the protocol says), a line with no command at
all and a command that cannot be followed get an ``info string`` saying why.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Generator, Hashable
from dataclasses import dataclass, replace
from typing import Any, Generic, TextIO, TypeVar

import chess

from ..engine.table import BYTES_PER_ENTRY
from ..game import Game
from ..levels import PERFECT, level, pick
from ..options import EngineTuning, SearchOptions
from ..result import Iteration
from ..service import SearchSession
from ..values import mate_in
from .clock import move_time
from .commands import Go, UciError, parse_go, parse_position, parse_setoption
from .options import OPTIONS, Settings, find_option, with_option

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

NAME = "gametree"
"""The engine's name in ``id name``."""

AUTHOR = "the gametree authors"
"""The engine's author in ``id author``."""

COMMANDS = frozenset({"uci", "debug", "isready", "setoption", "register", "ucinewgame",
                      "position", "go", "stop", "ponderhit", "quit"})
"""The commands of the UCI protocol (engine side)."""


@dataclass(frozen=True)
class ChessBridge(Generic[S, M]):
    """What the UCI engine needs of a chess game: the game, its state for a python-chess
    board, and a move in UCI notation."""

    game: Game[S, M]
    """The rules the search follows."""
    state_of: Callable[[chess.Board], S]
    """The game's state for a board (its position and what the rules need of its history)."""
    uci_of: Callable[[S, M], str]
    """A move of a state in UCI notation (``e2e4``, ``e7e8q``)."""


def score_text(report: Iteration[Any]) -> str:
    """The ``score`` of an ``info`` line: ``cp N`` (centipawns, from the side to move), or
    ``mate N`` for a proven mate (``N`` in moves, negative when the side to move is mated),
    with ``lowerbound`` for an unfinished iteration that found a better move."""
    mate = report.mate
    if mate is None and report.bound == "lower":
        # An unfinished iteration's better move proven to mate: a bound, not the iteration's
        # result, so only its value says so.
        mate = mate_in(report.value)
    text = f"cp {round(report.value)}" if mate is None else f"mate {mate}"
    return f"{text} lowerbound" if report.bound == "lower" else text


class UciEngine(Generic[S, M]):
    """A UCI engine over ``bridge``'s chess game, writing to ``output``.

    :meth:`run` reads commands until ``quit`` or the end of the input; :meth:`handle` takes
    one line (tests drive it directly). Writing is thread-safe: the search thread and the input
    loop share ``output`` under a lock, one whole line at a time.
    """

    def __init__(self, bridge: ChessBridge[S, M], output: TextIO, *,
                 name: str = NAME, author: str = AUTHOR) -> None:
        self.bridge = bridge
        self.output = output
        self.name = name
        self.author = author
        self.settings = Settings()
        self.board = chess.Board()
        """The position the next ``go`` searches."""
        self.debug = False
        self._session: SearchSession[S, M] | None = None
        self._table_entries = 1
        """The capacity of the session's table (for ``hashfull``)."""
        self._write_lock = threading.Lock()
        self._search: _Search | None = None
        self._gone = False
        """True once the output cannot be written (the GUI went away)."""

    # -- the loop ----------------------------------------------------------------------------

    def run(self, lines: TextIO) -> None:
        """Answer the commands of ``lines`` until ``quit`` or their end. ``quit`` stops a
        running search; at the end of the input (commands piped in by a script) a search
        with limits is finished first, as if the input went on, and one that waits for
        ``stop`` is stopped (nobody is left to send it)."""
        quitting = False
        try:
            while not self._gone:
                line = lines.readline()
                if not line:
                    break
                if not self.handle(line):
                    quitting = True
                    break
        except BaseException:
            quitting = True  # Ctrl-C: end now
            raise
        finally:
            self._finish_search(stop=quitting)
            if self._session is not None:
                self._session.close()

    def handle(self, line: str) -> bool:
        """Answer one command line; ``False`` after ``quit``."""
        words = line.split()
        while words and words[0] not in COMMANDS:
            words.pop(0)  # UCI: skip unknown words and read the rest as a command
        if not words:
            if line.strip():
                self.say(f"unknown command: {line.strip()}")
            return True
        command, arguments = words[0], words[1:]
        try:
            return self._dispatch(command, arguments)
        except UciError as error:
            self.say(str(error))
        except Exception as error:  # a fault of the engine's own: say it, keep serving
            self.say(f"{command} failed: {type(error).__name__}: {error}")
        return True

    def _dispatch(self, command: str, arguments: list[str]) -> bool:
        if command == "quit":
            return False
        handler: Callable[[list[str]], None] = getattr(self, f"_{command}")
        handler(arguments)
        return True

    # -- the commands ------------------------------------------------------------------------

    def _uci(self, arguments: list[str]) -> None:
        self.send(f"id name {self.name}")
        self.send(f"id author {self.author}")
        for option in OPTIONS:
            self.send(option.announcement())
        self.send("uciok")

    def _debug(self, arguments: list[str]) -> None:
        self.debug = arguments[:1] != ["off"]

    def _isready(self, arguments: list[str]) -> None:
        self.send("readyok")

    def _register(self, arguments: list[str]) -> None:
        pass  # nothing to register

    def _setoption(self, arguments: list[str]) -> None:
        name, value = parse_setoption(arguments)
        option = find_option(name)
        self._finish_search(stop=False)
        if option.kind == "button":  # Clear Hash
            if self._session is not None:
                self._session.clear()
            return
        settings = with_option(self.settings, option, value)
        if settings.hash_mib != self.settings.hash_mib and self._session is not None:
            self._session.close()
            self._session = None  # a table of the new size at the next search
        self.settings = settings

    def _ucinewgame(self, arguments: list[str]) -> None:
        self._finish_search(stop=False)
        if self._session is not None:
            self._session.clear()
        self.board = chess.Board()

    def _position(self, arguments: list[str]) -> None:
        command = parse_position(arguments)
        try:
            board = chess.Board() if command.fen is None else chess.Board(command.fen)
        except ValueError as error:
            raise UciError(f"position refused: not a FEN ({error}); the position stays "
                           f"{self.board.fen()}") from None
        if not board.is_valid():
            raise UciError(f"position refused: {command.fen} is not a legal position "
                           f"({board.status()!r}); the position stays {self.board.fen()}")
        for number, text in enumerate(command.moves, 1):
            try:
                board.push_uci(text)
            except ValueError:
                raise UciError(f"position refused: move {number}, {text!r}, is not legal "
                               f"in {board.fen()}; the position stays "
                               f"{self.board.fen()}") from None
        self.board = board

    def _go(self, arguments: list[str]) -> None:
        go = parse_go(arguments)
        if go.ignored:
            self.say(f"go: ignored {' '.join(go.ignored)}")
        if go.searchmoves:
            self.say("go: searchmoves is not supported; searching every move")
        self._finish_search(stop=False)
        search = _Search(self.board.copy(), go, _Signal(), threading.Event())
        if not go.waits_for_stop:
            search.released.set()
        thread = threading.Thread(target=self._think, args=(search,), name="uci-search",
                                  daemon=True)
        search.thread = thread
        self._search = search
        thread.start()

    def _stop(self, arguments: list[str]) -> None:
        self._finish_search()

    def _ponderhit(self, arguments: list[str]) -> None:
        """The move pondered on was played: the search goes on as a normal one from now —
        for its share of the clock (its stop signal's deadline), or to its depth or node
        limit — and then answers."""
        search = self._search
        if search is None or not search.go.ponder or search.released.is_set():
            return  # no ponder search to turn into a normal one: nothing to do
        go = replace(search.go, ponder=False)
        plan = move_time(go, search.board.turn == chess.WHITE, self.settings.overhead_ms)
        if plan is not None:
            search.stop.stop_after(plan.budget)
        elif go.depth is None and go.nodes is None and go.mate is None and not go.infinite:
            search.stop.set()  # no limit at all: it has pondered long enough
        search.released.set()

    # -- searching ---------------------------------------------------------------------------

    def _finish_search(self, *, stop: bool = True) -> None:
        """Wait for the running search's ``bestmove``, if a search runs; ``stop`` stops it
        first (as does a search that would otherwise wait for ``stop``)."""
        search, self._search = self._search, None
        if search is not None:
            if stop or not search.released.is_set():
                search.stop.set()
                search.released.set()
            assert search.thread is not None
            search.thread.join()

    def session(self) -> SearchSession[S, M]:
        """The search session (its table kept from move to move), made at first use."""
        if self._session is None:
            self._table_entries = entries = \
                max(1, self.settings.hash_mib * 2**20 // BYTES_PER_ENTRY)
            self._session = SearchSession(self.bridge.game, SearchOptions(
                tuning=EngineTuning(table=entries), book=False))
        return self._session

    def _think(self, search: _Search) -> None:
        """The search thread: ``info`` per completed iteration, then the one ``bestmove``."""
        board = search.board
        best: Iteration[M] | None = None
        state: S | None = None
        try:
            state = self.bridge.state_of(board)
            # Closed however the loop ends: the search session is free again at once.
            with contextlib.closing(self._reports(state, search)) as reports:
                for report in reports:
                    if report.best_move is not None:
                        best = report
                        self.send(self._info(state, report))
        except Exception as error:  # whatever failed, the GUI must still get its bestmove
            self.say(f"search failed: {type(error).__name__}: {error}")
        search.released.wait()  # go infinite, go ponder: until stop or ponderhit
        self.send(self._bestmove(board, state, best))

    def _reports(self, state: S, search: _Search) -> Generator[Iteration[M], None, None]:
        """The search's reports, within the limits of ``go`` and the options (a time limit:
        a budget for the engine, and a deadline on the stop signal at the move's hard
        limit); at a level below 10, the last report's move is the level's choice among the
        root moves."""
        go = search.go
        depth = go.depth
        if go.mate is not None:
            depth = 2 * go.mate - 1 if depth is None else min(depth, 2 * go.mate - 1)
        if self.settings.depth:
            depth = self.settings.depth if depth is None else min(depth, self.settings.depth)
        chosen = level(self.settings.level)
        if chosen.number != PERFECT and chosen.depth is not None:
            depth = chosen.depth if depth is None else min(depth, chosen.depth)
        plan = move_time(go, search.board.turn == chess.WHITE, self.settings.overhead_ms)
        if self.debug:
            times = "none" if plan is None else \
                f"{plan.budget:.3f} s (at most {plan.limit:.3f} s)"
            self.say(f"limits: depth {depth}, nodes {go.nodes}, time {times}, level "
                     f"{chosen.number}")
        if plan is not None:
            search.stop.stop_after(plan.limit)
        reports = self.session().iterate(
            state, stop=search.stop, depth=depth, time=None if plan is None else plan.budget,
            nodes=go.nodes, exact_root=chosen.number != PERFECT)
        if chosen.number == PERFECT:
            yield from reports
            return
        last: Iteration[M] | None = None
        with contextlib.closing(reports):
            for report in reports:
                if report.finished:
                    last = report
                yield report
        if last is not None and last.best_move is not None and last.moves:
            move = pick(chosen, last.moves, last.best_move, state, None)[0]
            if move != last.best_move:
                yield replace(last, best_move=move, pv=(move,))

    def _info(self, state: S, report: Iteration[M]) -> str:
        pv = " ".join(self._line(state, report.pv))
        milliseconds = round(report.seconds * 1000)
        full = min(1000, report.table_entries * 1000 // self._table_entries)
        return (f"info depth {report.depth} score {score_text(report)} nodes {report.nodes} "
                f"nps {round(report.nodes_per_second)} time {milliseconds} hashfull {full} "
                f"pv {pv}")

    def _line(self, state: S, moves: tuple[M, ...]) -> list[str]:
        """The moves of a line in UCI notation."""
        texts = []
        for move in moves:
            texts.append(self.bridge.uci_of(state, move))
            state = self.bridge.game.play(state, move)
        return texts

    def _bestmove(self, board: chess.Board, state: S | None,
                  best: Iteration[M] | None) -> str:
        """The ``bestmove`` line: the search's move with the reply it expects (``ponder``)
        when its line has one; the first legal move if the search found none (it failed, or
        the rules ended the game where python-chess still has moves); ``(none)`` when there is
        no legal move."""
        legal = list(board.legal_moves)
        if best is None or state is None or best.best_move is None:
            return f"bestmove {self._first_choice(state, legal)}" if legal else \
                "bestmove (none)"
        line = self._line(state, best.pv[:2])
        board = board.copy()
        board.push_uci(line[0])
        if len(line) > 1 and chess.Move.from_uci(line[1]) in board.legal_moves:
            return f"bestmove {line[0]} ponder {line[1]}"
        return f"bestmove {line[0]}"

    def _first_choice(self, state: S | None, legal: list[chess.Move]) -> str:
        """A move without a search (stopped before its first iteration ended, or failed): the
        first in the game's move order (captures of the most valuable pieces first), else
        the first legal one."""
        game = self.bridge.game
        with contextlib.suppress(Exception):  # the state may be what failed
            if state is not None:
                moves = game.order_moves(state, game.moves(state))
                if moves:
                    return self.bridge.uci_of(state, moves[0])
        return legal[0].uci()

    # -- output ------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """An ``info string`` line (one line: a message's line breaks become spaces)."""
        self.send(f"info string {' '.join(text.split())}")

    def send(self, line: str) -> None:
        """Write one line and flush it; a closed output ends the engine quietly."""
        with self._write_lock:
            if self._gone:
                return
            try:
                self.output.write(line + "\n")
                self.output.flush()
            except (OSError, ValueError):  # the GUI went away (a broken pipe, a closed file)
                self._gone = True
                search = self._search
                if search is not None:  # nobody reads its answer: stop it
                    search.stop.set()


class _Signal:
    """A search's stop signal (:class:`gametree.limits.StopSignal`): set by ``stop``, or by
    the clock at the move's hard limit. The search reads the clock itself when it looks at
    the signal: a timer thread would have to wait for the interpreter lock to wake, tens of
    milliseconds late on a busy machine."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._deadline: float | None = None

    def set(self) -> None:
        """Stop now."""
        self._event.set()

    def stop_after(self, seconds: float) -> None:
        """Stop ``seconds`` from now (``time.perf_counter``)."""
        self._deadline = time.perf_counter() + seconds

    def is_set(self) -> bool:
        """True once the search should stop."""
        deadline = self._deadline
        return self._event.is_set() or (deadline is not None
                                        and time.perf_counter() >= deadline)


@dataclass
class _Search:
    """One ``go``: its position, limits, stop signal and thread."""

    board: chess.Board
    go: Go
    stop: _Signal
    """Set to end the search (``stop``, ``quit``, the time of a ponder search that hit)."""
    released: threading.Event
    """Set when ``bestmove`` may be written once the search ends: at once, except for
    ``go infinite`` and ``go ponder`` (then by ``stop`` or ``ponderhit``)."""
    thread: threading.Thread | None = None


def run_uci(bridge: ChessBridge[Any, Any], lines: TextIO, output: TextIO) -> None:
    """Be a UCI engine on ``lines`` and ``output`` (standard input and output) until ``quit``
    or the end of the input."""
    UciEngine(bridge, output).run(lines)


__all__ = ["AUTHOR", "COMMANDS", "NAME", "ChessBridge", "UciEngine", "run_uci", "score_text"]
