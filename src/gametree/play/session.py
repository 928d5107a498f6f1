"""A game between a person and the computer (or the computer against itself), as text.

:class:`PlaySession` owns the conversation: it shows the board after every move, whose turn it
is and the legal moves, reads the human's moves and commands, asks the :class:`Opponent` for
the computer's moves, and announces the result from the human's side. It reads lines from a
:class:`LineSource` and writes to any text stream, so tests drive it in-process with
``StringIO`` and the command line drives it with the terminal or a pipe.

Commands (a command word wins over a move with the same text): ``help``, ``hint``, ``scores``,
``undo``, ``board``, ``moves``, ``quit`` (also ``exit``); once the game is over, ``new`` too.

The session keeps a game record (:mod:`gametree.records`) when given one to fill: it writes it
to its file after every move, when the human quits and at the end, and prints the record's move
line (ready for ``--moves``) when the game ends or the human quits.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TextIO, TypeVar

from ..game import Game, GameError, is_chance
from ..records import GameRecord, now, record_line, result_of, value_entry, write_record
from ..values import for_player, format_value
from .drawing import draw
from .lines import LineSource, StreamLines
from .opponent import Decision, Opponent
from .style import Style
from .wording import VALUES_HELP, decision_value, effort, level_note, move_value, reading

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

EXIT_OK = 0
"""The game was played to its end, or the human quit or ended the input."""

EXIT_INTERRUPTED = 130
"""The session was interrupted (Ctrl-C), as shells report a SIGINT."""

MAX_LISTED_MOVES = 40
"""Longer lists of legal moves are shortened (``... 12 more``) to keep the screen readable."""

COMMANDS: tuple[tuple[str, str], ...] = (
    ("help", "show this list"),
    ("hint", "the engine's suggestion for you, with its value"),
    ("scores", "the value of every legal move for you (\"Score for move ...\")"),
    ("undo", "take back your last move and the engine's reply"),
    ("board", "show the board again"),
    ("moves", "list the legal moves"),
    ("quit", "end the game (also: exit, Ctrl-D; Ctrl-C interrupts)"),
    ("new", "once the game is over: start a new one"),
)
"""The commands the human can type instead of a move, with their help lines."""

_ALIASES = {"exit": "quit", "?": "help"}

TurnEnd = Literal["moved", "undone", "stop", "new"]


@dataclass(frozen=True)
class _Ply(Generic[S, M]):
    """One move of the game so far: the position before it, the move, who made it, and the
    engine's value of the position before it (a record's ``values`` entry), if it searched."""

    before: S
    move: M
    player: int
    value: dict[str, Any] | None = None


class PlaySession(Generic[S, M]):
    """One game in the terminal: a human against an :class:`Opponent`, or a watched game.

    ``human`` is the player number (0 moves first in the game) the person plays, or ``None`` to
    watch the opponent play both sides. ``start`` is the position to start from (default: the
    game's initial state). ``lines`` supplies the human's input (default: read from ``stdin``
    when given, echoing each line so that piped transcripts stay readable). ``notation`` is
    shown by ``help``. ``show_thinking`` writes a note while a search runs and erases it after
    (for terminals only). ``delay`` pauses after each move of a watched game. In a game with
    chance the session rolls the dice itself, with ``dice`` (default: an unseeded
    :class:`random.Random`).

    ``record``: the game record to keep (its game, options, players and level; the session
    fills in the moves, values, result and date), written to ``save`` (a file name) whenever
    it changes. ``played``: moves already played from ``start`` with their values, as a
    record holds them (a resumed game: ``undo`` can take them back).
    """

    def __init__(
        self,
        game: Game[S, M],
        opponent: Opponent,
        *,
        human: int | None,
        output: TextIO,
        start: S | None = None,
        lines: LineSource | None = None,
        stdin: TextIO | None = None,
        style: Style | None = None,
        notation: str | None = None,
        show_thinking: bool = False,
        delay: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        dice: random.Random | None = None,
        record: GameRecord | None = None,
        save: str | os.PathLike[str] | None = None,
        played: Sequence[tuple[M, dict[str, Any] | None]] = (),
    ) -> None:
        if human not in (None, 0, 1):
            raise ValueError(f"human must be player 0, player 1 or None, got {human!r}")
        if lines is None:
            if stdin is None and human is not None:
                raise ValueError("a session with a human needs lines or stdin to read from")
            lines = StreamLines(stdin, output) if stdin is not None else _NoLines()
        self.game = game
        self.opponent = opponent
        self.human = human
        self.start: S = game.initial_state() if start is None else start
        self.state: S = self.start
        self.history: list[_Ply[S, M]] = []
        for move, value in played:
            self.history.append(_Ply(self.state, move, game.to_move(self.state), value))
            self.state = game.play(self.state, move)
        self.record = record
        """The game record the session keeps (``None``: none), as of the last move."""
        self._save = save
        self._out = output
        self._lines = lines
        self._style = style if style is not None else Style(False)
        self._notation = notation
        self._show_thinking = show_thinking
        self._delay = delay
        self._sleep = sleep
        self._dice = dice if dice is not None else random.Random()

    # -- the game loop -----------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the human stops; returns the exit status."""
        try:
            self._keep_record()  # a file that cannot be written fails now, not mid-game
            self._introduce()
            while True:
                if is_chance(self.game, self.state) and not self._finished():
                    self._roll()  # the dice roll at once: no board to show in between
                    continue
                self._show_position()
                if self._finished():
                    self._announce()
                    self._keep_record()
                    self._say_move_line()
                    end = self._after_the_end()
                    if end == "stop":
                        return EXIT_OK
                    if end == "new":
                        self._new_game()
                    continue
                if self.game.to_move(self.state) == self.human:
                    if self._human_turn() == "stop":
                        self._keep_record()
                        self._say_move_line()
                        return EXIT_OK
                else:
                    self._engine_turn()
        except KeyboardInterrupt:
            self._say("")
            self._say("Interrupted: game abandoned.")
            return EXIT_INTERRUPTED

    def _after_the_end(self) -> TurnEnd:
        """Once the game is over: ``undo``, ``new``, a command that shows something, or
        ``quit`` (or the end of the input)."""
        if self.human is None:
            return "stop"
        self._say("Type 'undo' to take moves back, 'new' for a new game, or 'quit'.")
        while True:
            line = self._lines.read(self._style.prompt("game over> "))
            if line is None:
                self._say("")
                return "stop"
            command = _ALIASES.get(line.strip().lower(), line.strip().lower())
            if not command:
                continue
            if command == "quit":
                return "stop"
            if command == "new":
                return "new"
            if command == "undo":
                if self._undo():
                    return "undone"
                continue
            if command == "help":
                self._help()
            elif command == "board":
                self._show_position()
            else:
                self._say(f"The game is over: {command!r} cannot be played. Type 'undo', "
                          f"'new' or 'quit'.")

    def _new_game(self) -> None:
        """Start again from the first position, the record with it."""
        self.history.clear()
        self.state = self.start
        if self.record is not None:
            self.record.date = now()
        self._say("")
        self._say("A new game.")
        self._keep_record()

    def _finished(self) -> bool:
        return self.game.outcome(self.state) is not None or not self.game.moves(self.state)

    def _human_turn(self) -> TurnEnd:
        """Read lines until the human plays a move, takes moves back, or stops."""
        name = self._name(self.game.to_move(self.state))
        while True:
            line = self._lines.read(self._style.prompt(f"your move ({name})> "))
            if line is None:
                self._say("End of input: game abandoned.")
                return "stop"
            text = line.strip()
            if not text:
                continue
            command = _ALIASES.get(text.lower(), text.lower())
            if command == "quit":
                self._say("You quit: game abandoned.")
                return "stop"
            if command == "undo":
                if self._undo():
                    return "undone"
                continue
            handler = self._commands().get(command)
            if handler is not None:
                handler()
                continue
            if self._try_human_move(text):
                return "moved"

    def _try_human_move(self, text: str) -> bool:
        """Play the move ``text`` names, or say why it cannot be played."""
        try:
            move = self.game.parse_move(self.state, text)
            if move not in self.game.moves(self.state):
                raise GameError(f"{text!r} is not a legal move here")
        except (GameError, ValueError) as error:
            self._say(self._style.error(f"Illegal move: {error}"))
            self._say(self._style.note("Try again, or type 'help' for the commands."))
            return False
        self._play(move, f"You play {self.game.format_move(self.state, move)}.")
        return True

    def _engine_turn(self) -> None:
        player = self.game.to_move(self.state)
        decision = self._think(f"{self._name(player)} is thinking...",
                               lambda: self.opponent.choose(self.game, self.state))
        move = decision.move
        if move is None:  # a position with moves always gets one; this guards a broken search
            raise RuntimeError("the search returned no move in a position with legal moves")
        name = self._name(player)
        who = name if self.human is None else f"Engine ({name})"
        text = self.game.format_move(self.state, move)
        view = (f"{decision_value(decision, self.game)} for {name}, {reading(decision)}; "
                f"{effort(decision)}")
        best = decision.choice.best if decision.choice is not None else None
        note = "" if best is None else level_note(decision, self.game.format_move(self.state,
                                                                                  best))
        if note:
            view += f"; {note}"
        self._play(move, self._style.engine(f"{who} plays {text}.")
                   + self._style.note(f"  [its view: {view}]"), value_entry(decision.result))
        if self.human is None and self._delay > 0:
            self._sleep(self._delay)

    def _roll(self) -> None:
        """Chance moves: draw an outcome with its probability and play it."""
        outcomes = self.game.chance_outcomes(self.state)
        point = self._dice.random()
        chosen = outcomes[-1][0]
        for outcome, probability in outcomes:
            point -= float(probability)
            if point < 0:
                chosen = outcome
                break
        name = self._name(self.game.turn(self.state))
        self._play(chosen, f"{name} rolls: {self.game.format_move(self.state, chosen)}.")

    def _think(self, note: str, work: Callable[[], Decision[M]]) -> Decision[M]:
        """Run a search, showing ``note`` meanwhile on a terminal (erased when it is done)."""
        if not self._show_thinking:
            return work()
        self._out.write(self._style.note(note))
        self._out.flush()
        try:
            return work()
        finally:
            self._out.write("\r" + " " * len(note) + "\r")
            self._out.flush()

    def _play(self, move: M, announcement: str, value: dict[str, Any] | None = None) -> None:
        player = self.game.to_move(self.state)
        self.history.append(_Ply(self.state, move, player, value))
        self.state = self.game.play(self.state, move)
        self._say(announcement)
        self._keep_record()

    # -- the record --------------------------------------------------------------------------

    def _keep_record(self) -> None:
        """Bring the record up to date with the game, and write it to its file."""
        if self.record is None:
            return
        self.record.moves = [self.game.format_move(ply.before, ply.move)
                             for ply in self.history]
        self.record.values = [ply.value for ply in self.history]
        self.record.result = result_of(self.game, self.state)
        if self._save is not None:
            write_record(self._save, self.record)

    def _say_move_line(self) -> None:
        """The moves played, ready to paste after ``--moves``; where the record was saved."""
        if not self.history:
            return
        texts = [self.game.format_move(ply.before, ply.move) for ply in self.history]
        line = record_line(GameRecord(self.game.name, {}, ("", ""), texts))
        self._say(f"The moves, to play them again: {line}")
        if self.record is not None and self._save is not None:
            self._say(f"Saved to {os.fspath(self._save)} (gametree play --load, gametree "
                      f"replay).")

    # -- what the human can ask for ----------------------------------------------------------

    def _commands(self) -> dict[str, Callable[[], None]]:
        return {
            "help": self._help,
            "hint": self._hint,
            "scores": self._scores,
            "board": self._show_position,
            "moves": self._show_moves,
        }

    def _help(self) -> None:
        self._say("Type a move, or one of these commands:")
        width = max(len(name) for name, _ in COMMANDS)
        for name, text in COMMANDS:
            self._say(f"  {name:<{width}}  {text}")
        if self._notation:
            self._say(f"Moves are written: {self._notation}.")
        self._say(VALUES_HELP)

    def _hint(self) -> None:
        decision = self._think("thinking...",
                               lambda: self.opponent.advise(self.game, self.state))
        if decision.move is None:
            self._say("No hint: there is no move to play.")
            return
        move = self.game.format_move(self.state, decision.move)
        self._say(f"Hint: play {move} (for you: {decision_value(decision, self.game)}, "
                  f"{reading(decision)}; {effort(decision)}).")
        if len(decision.result.pv) > 1:
            line = " ".join(self.game.format_line(self.state, decision.result.pv))
            self._say(self._style.note(f"Expected line: {line}"))

    def _scores(self) -> None:
        decision = self._think("thinking...",
                               lambda: self.opponent.analyse(self.game, self.state))
        self._say(f"Values for you ({self._name(self.game.to_move(self.state))}), "
                  f"{_scores_reading(decision)}; {effort(decision)}:")
        entries = decision.result.moves
        names = [self.game.format_move(self.state, entry.move) for entry in entries]
        width = max((len(name) for name in names), default=0)
        for name, entry in zip(names, entries, strict=True):
            self._say(f"Score for move {name:<{width}} = {move_value(decision, entry)}")

    def _undo(self) -> bool:
        """Take back the human's last move and everything played after it."""
        mine = [index for index, ply in enumerate(self.history) if ply.player == self.human]
        if not mine:
            self._say("Nothing to undo: you have not moved yet.")
            return False
        taken = self.history[mine[-1]:]
        del self.history[mine[-1]:]
        self.state = taken[0].before
        texts = " ".join(self.game.format_move(ply.before, ply.move) for ply in taken)
        self._say(f"Taken back: {texts}.")
        self._keep_record()
        return True

    # -- showing the game --------------------------------------------------------------------

    def _introduce(self) -> None:
        title = f"gametree play {self.game.name}"
        strength = self.opponent.describe(self.game)
        if self.human is None:
            self._say(f"{title}: the engine plays both sides ({strength}).")
            return
        # "you are X", but "you are the first player" for games with descriptive names.
        me, it = (f"the {name}" if " " in name else name
                  for name in (self._name(self.human), self._name(1 - self.human)))
        self._say(f"{title}: you are {me}, the engine is {it} ({strength}).")
        self._say("Type a move, or 'help' for the commands.")

    def _show_position(self) -> None:
        self._say("")
        last = self.history[-1].move if self.history else None
        self._say(draw(self.game.view(self.state, last), self._style))
        self._say("")
        if self._finished() or is_chance(self.game, self.state):
            return
        player = self.game.to_move(self.state)
        role = "" if self.human is None else " (you)" if player == self.human else " (engine)"
        self._say(f"Move {len(self.history) + 1}: {self._name(player)} to move{role}.")
        if player == self.human:
            self._show_moves()

    def _show_moves(self) -> None:
        self._say(f"Legal moves: {self._moves_text(self.game.moves(self.state))}")

    def _moves_text(self, moves: Sequence[M]) -> str:
        texts = [self.game.format_move(self.state, move) for move in moves]
        if len(texts) > MAX_LISTED_MOVES:
            rest = len(texts) - MAX_LISTED_MOVES
            texts = [*texts[:MAX_LISTED_MOVES], f"... {rest} more"]
        return " ".join(texts)

    def _announce(self) -> None:
        utility = self.game.outcome(self.state)
        plies = len(self.history)
        after = f"after {plies} {'move' if plies == 1 else 'moves'}"
        if utility is None:
            self._announce_horizon()
            return
        if self.human is None:
            if utility == 0:
                self._say(f"Game over: a draw {after}.")
            else:
                self._say(f"Game over: {self._name(0 if utility > 0 else 1)} wins {after}.")
            return
        mine = for_player(utility, self.human)
        if mine > 0:
            self._say(self._style.good(f"Game over: you won {after}!"))
        elif mine < 0:
            self._say(self._style.bad(f"Game over: you lost {after}."))
        else:
            self._say(f"Game over: a draw {after}.")

    def _announce_horizon(self) -> None:
        """The game has no moves left but no result either: an explicit tree's numeric leaf."""
        value = self.game.evaluate(self.state)
        seen_by = 0 if self.human is None else self.human
        worth = format_value(for_player(value, seen_by), by_distance=False)
        self._say(f"The game stops here: no moves are left. The position is worth {worth} "
                  f"for {self._name(seen_by)}{'' if self.human is None else ' (you)'}.")

    def _name(self, player: int) -> str:
        return self.game.player_names[player]

    def _say(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()


def _scores_reading(decision: Decision[Any]) -> str:
    """What the values of ``scores`` are: ``exact``, or ``heuristic, depth N (why)`` where a
    move's value is an estimate (its proven ones are exact all the same)."""
    result = decision.result
    if all(result.move_kind(entry) != "estimate" for entry in result.moves):
        return reading(decision) if result.algorithm == "database" else "exact"
    text = reading(decision)
    return text if text.startswith("heuristic") else f"heuristic, depth {decision.depth}"


class _NoLines:
    """The input of a watched game: nobody is asked anything."""

    def read(self, prompt: str) -> str | None:
        return None

