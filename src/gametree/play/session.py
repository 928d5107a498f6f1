"""A game between a person and the computer (or the computer against itself), as text.

:class:`PlaySession` owns the conversation: it shows the board after every move, whose turn it
is and the legal moves, reads the human's moves and commands, asks the :class:`Opponent` for
the computer's moves, and announces the result from the human's side. It reads lines from a
:class:`LineSource` and writes to any text stream, so tests drive it in-process with
``StringIO`` and the command line drives it with the terminal or a pipe.

Commands (a command word wins over a move with the same text): ``help``, ``hint``, ``scores``,
``undo``, ``board``, ``moves``, ``quit`` (also ``exit``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TextIO, TypeVar

from ..game import Game, GameError, is_chance
from ..values import for_player, format_value
from .drawing import draw
from .lines import LineSource, StreamLines
from .opponent import Decision, Opponent
from .style import Style
from .wording import decision_value, effort, move_value

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
)
"""The commands the human can type instead of a move, with their help lines."""

_ALIASES = {"exit": "quit", "?": "help"}

TurnEnd = Literal["moved", "undone", "stop"]


@dataclass(frozen=True)
class _Ply(Generic[S, M]):
    """One move of the game so far: the position before it, the move, and who made it."""

    before: S
    move: M
    player: int


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
        self.state: S = game.initial_state() if start is None else start
        self.history: list[_Ply[S, M]] = []
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
            self._introduce()
            while True:
                if is_chance(self.game, self.state) and not self._finished():
                    self._roll()  # the dice roll at once: no board to show in between
                    continue
                self._show_position()
                if self._finished():
                    self._announce()
                    return EXIT_OK
                if self.game.to_move(self.state) == self.human:
                    if self._human_turn() == "stop":
                        return EXIT_OK
                else:
                    self._engine_turn()
        except KeyboardInterrupt:
            self._say("")
            self._say("Interrupted: game abandoned.")
            return EXIT_INTERRUPTED

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
        view = f"{decision_value(decision, self.game)}; {effort(decision)}"
        self._play(move, self._style.engine(f"{who} plays {text}.")
                   + self._style.note(f"  [its view: {view}]"))
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

    def _play(self, move: M, announcement: str) -> None:
        player = self.game.to_move(self.state)
        self.history.append(_Ply(self.state, move, player))
        self.state = self.game.play(self.state, move)
        self._say(announcement)

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

    def _hint(self) -> None:
        decision = self._think("thinking...",
                               lambda: self.opponent.choose(self.game, self.state))
        if decision.move is None:
            self._say("No hint: there is no move to play.")
            return
        move = self.game.format_move(self.state, decision.move)
        self._say(f"Hint: play {move} (for you: {decision_value(decision, self.game)}; "
                  f"{effort(decision)}).")
        if len(decision.result.pv) > 1:
            line = " ".join(self.game.format_line(self.state, decision.result.pv))
            self._say(self._style.note(f"Expected line: {line}"))

    def _scores(self) -> None:
        decision = self._think("thinking...",
                               lambda: self.opponent.analyse(self.game, self.state))
        self._say(f"Values for you ({self._name(self.game.to_move(self.state))}), "
                  f"{effort(decision)}:")
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


class _NoLines:
    """The input of a watched game: nobody is asked anything."""

    def read(self, prompt: str) -> str | None:
        return None

