"""A game record stepped through in the terminal (``gametree replay FILE``).

Each move is shown with the board after it, the engine's value of the move played and of the
best move (for the player who moved), and a mark on the **mistakes**: the moves that changed the
game's proven outcome (a win let go to a draw or a loss, a draw let go to a loss). Where the
engine could only estimate a value (the game is too big to search to the end in the time
given), no mistake is claimed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from ..game import Game
from ..records import GameRecord
from ..values import Outcome
from .drawing import draw
from .lines import LineSource
from .opponent import Opponent
from .style import Style
from .wording import effort, move_value, reading

PROVEN_KINDS: dict[str, Outcome] = {"win": "win", "draw": "draw", "loss": "loss"}
"""The value kinds that are proven results, with the outcome each stands for."""

_WORSE = {("win", "draw"): "a win let go to a draw", ("win", "loss"): "a win let go to a loss",
          ("draw", "loss"): "a draw let go to a loss"}


@dataclass(frozen=True)
class ReplayedMove:
    """One move of a record, judged by the engine."""

    number: int
    """1 for the first move."""

    player: int
    """Who played it."""

    text: str
    """The move as written."""

    played: str
    """Its value for the player who made it, in words."""

    best: str
    """The engine's best move there."""

    best_value: str
    """The best move's value, in words."""

    reading: str
    """What the values are (``exact`` or ``heuristic, depth N (why)``) and the effort."""

    mistake: str | None
    """Why the move was a mistake (it changed the proven outcome), or ``None``."""

    as_good: bool
    """True if the move played is worth as much as the engine's best."""


def judge(game: Game[Any, Any], states: Sequence[Any], record: GameRecord,
          opponent: Opponent, number: int) -> ReplayedMove:
    """The engine's view of move ``number`` (1-based) of ``record``: every legal move valued
    in the position before it (``states[number - 1]``)."""
    before, text = states[number - 1], record.moves[number - 1]
    move = game.parse_move(before, text)
    decision = opponent.analyse(game, before)
    result = decision.result
    entries = {entry.move: entry for entry in result.moves}
    mine = entries[move]
    best = entries.get(result.best_move, mine)
    kinds = (PROVEN_KINDS.get(result.move_kind(best)), PROVEN_KINDS.get(result.move_kind(mine)))
    mistake = None
    if kinds[0] is not None and kinds[1] is not None:
        mistake = _WORSE.get((kinds[0], kinds[1]))
    return ReplayedMove(
        number=number, player=game.to_move(before), text=game.format_move(before, move),
        played=move_value(decision, mine), best=game.format_move(before, best.move),
        best_value=move_value(decision, best),
        reading=f"{reading(decision)}; {effort(decision)}", mistake=mistake,
        as_good=mine.value == best.value)


class Replay:
    """Steps through ``record`` (its positions ``states``), writing to ``output``; with
    ``lines`` (a terminal) it waits after each move: Enter for the next, ``b`` back, ``q``
    to stop. Without, it prints every move."""

    def __init__(self, game: Game[Any, Any], record: GameRecord, states: Sequence[Any],
                 opponent: Opponent, output: TextIO, *, lines: LineSource | None = None,
                 style: Style | None = None) -> None:
        self.game, self.record, self.states = game, record, states
        self.opponent = opponent
        self._out = output
        self._lines = lines
        self._style = style if style is not None else Style(False)
        self._judged: dict[int, ReplayedMove] = {}

    def run(self) -> int:
        """Step through the game; returns the exit status (0)."""
        record = self.record
        names = self.game.player_names
        self._say(f"gametree replay: {record.game}, {names[0]}: {record.players[0]}, "
                  f"{names[1]}: {record.players[1]}"
                  + ("" if record.level is None else f", level {record.level}")
                  + f", {record.date}; {len(record.moves)} moves; the engine: "
                    f"{self.opponent.describe(self.game)}.")
        number = 1
        while number <= len(record.moves):
            self._show(number)
            if self._lines is None:
                number += 1
                continue
            answer = self._lines.read(self._style.prompt(
                "[Enter] next, b back, q quit> "))
            if answer is None or answer.strip().lower() in ("q", "quit"):
                return 0
            number = max(1, number - 1) if answer.strip().lower() in ("b", "back") \
                else number + 1
        self._summary()
        return 0

    def move(self, number: int) -> ReplayedMove:
        """Move ``number`` judged (once; stepping back shows it again without a search)."""
        if number not in self._judged:
            self._judged[number] = judge(self.game, self.states, self.record, self.opponent,
                                         number)
        return self._judged[number]

    def _show(self, number: int) -> None:
        judged = self.move(number)
        name = self.game.player_names[judged.player]
        self._say("")
        self._say(f"Move {number}: {name} plays {judged.text}: {judged.played} for {name} "
                  f"({judged.reading}).")
        if judged.mistake is not None:
            self._say(self._style.bad(f"  MISTAKE: {judged.mistake}; the best was "
                                      f"{judged.best} ({judged.best_value})."))
        elif not judged.as_good:
            self._say(self._style.note(f"  The engine's best: {judged.best} "
                                       f"({judged.best_value})."))
        state = self.states[number]
        last = self.game.parse_move(self.states[number - 1], judged.text)
        self._say(draw(self.game.view(state, last), self._style))

    def _summary(self) -> None:
        record = self.record
        result = record.result["text"] if record.result else "the game goes on"
        self._say("")
        self._say(f"Result: {result}.")
        names = self.game.player_names
        for player in (0, 1):
            mistakes = [judged.number for judged in self._judged.values()
                        if judged.player == player and judged.mistake is not None]
            listed = "" if not mistakes else \
                f" (move{'s' if len(mistakes) > 1 else ''} {', '.join(map(str, mistakes))})"
            self._say(f"Mistakes by {names[player]} ({record.players[player]}): "
                      f"{len(mistakes)}{listed}.")

    def _say(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()
