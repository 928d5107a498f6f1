"""The opening positions of a match: each is played twice, once with each engine first.

``--openings`` takes one of:

* ``start``: every game from the game's initial position (seeded engines still vary);
* ``random:PLIES``: that many uniformly random legal moves from the start (openings that end
  the game are drawn again; distinct openings while there are enough);
* ``balanced:PLIES`` or ``balanced:PLIES:DEPTH``: random openings whose search to ``DEPTH``
  plies (default :data:`BALANCE_DEPTH`) finds no forced result, so neither side starts with a
  win it can see;
* ``file:PATH`` (or a path): one opening a line, as the moves' texts separated by spaces (what
  ``--moves`` takes); blank lines and ``#`` comments are skipped, and the lines are used in
  order, again from the first when the match needs more.

An opening is a tuple of move texts; the random ones come from the match's seed alone.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..game import Game, GameError, is_chance
from ..options import SearchOptions
from ..service import search
from ..values import plies_to_result

Opening = tuple[str, ...]
"""An opening: the texts of its moves, from the initial position."""

BALANCE_DEPTH = 4
"""How deep ``balanced:PLIES`` looks for a forced result, unless told."""

ATTEMPTS = 50
"""Random openings drawn per opening wanted before duplicates (or unbalanced ones) are
allowed."""

Kind = Literal["start", "random", "balanced", "file"]


@dataclass(frozen=True)
class OpeningSource:
    """Where a match's openings come from (what ``--openings`` says)."""

    kind: Kind
    """``start``, ``random``, ``balanced`` or ``file``."""

    plies: int = 0
    """Random moves per opening (``random``, ``balanced``)."""

    depth: int = BALANCE_DEPTH
    """The balance check's search depth (``balanced``)."""

    path: str = ""
    """The file of openings (``file``)."""

    def text(self) -> str:
        """The source as ``--openings`` takes it."""
        if self.kind == "start":
            return "start"
        if self.kind == "file":
            return f"file:{self.path}"
        if self.kind == "balanced":
            return f"balanced:{self.plies}:{self.depth}"
        return f"random:{self.plies}"


def _count(text: str, what: str, whole: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"--openings {whole}: {what} is a whole number, got {text!r}") from None
    if value < 0 or (what == "depth" and value < 1):
        raise ValueError(f"--openings {whole}: {what} must be "
                         f"{'>= 1' if what == 'depth' else '>= 0'}, got {value}")
    return value


def parse_openings(text: str) -> OpeningSource:
    """The source ``text`` names; :class:`ValueError` naming the forms it takes."""
    kind, _, rest = text.partition(":")
    if text == "start":
        return OpeningSource("start")
    if kind == "random" and rest:
        return OpeningSource("random", plies=_count(rest, "plies", text))
    if kind == "balanced" and rest:
        plies, _, depth = rest.partition(":")
        return OpeningSource("balanced", plies=_count(plies, "plies", text),
                             depth=_count(depth, "depth", text) if depth else BALANCE_DEPTH)
    path = rest if kind == "file" else text
    if kind == "file" or Path(path).is_file():
        if not Path(path).is_file():
            raise ValueError(f"--openings: no file {path!r}")
        return OpeningSource("file", path=path)
    raise ValueError(f"--openings takes start, random:PLIES, balanced:PLIES[:DEPTH] or "
                     f"file:PATH, got {text!r}")


def opening_state(game: Game[Any, Any], opening: Opening) -> Any:
    """The position after ``opening``'s moves; :class:`GameError` if one cannot be played."""
    state = game.initial_state()
    for number, text in enumerate(opening, 1):
        if game.is_over(state):
            raise GameError(f"opening {' '.join(opening)!r}: the game is over before move "
                            f"{number} ({text})")
        state = game.checked_play(state, game.parse_move(state, text))
    return state


Checker = Callable[[Sequence[Opening]], list[bool]]
"""Checks of openings for ``balanced``: for each line, whether it is balanced (the match's
runner checks several at once on its worker processes)."""


def make_openings(game: Game[Any, Any], source: OpeningSource, count: int, seed: int, *,
                  known: Sequence[Opening] = (), check: Checker | None = None,
                  batch: int = 1) -> list[Opening]:
    """``count`` openings of ``game`` from ``source`` (the random ones from ``seed``).

    ``known``: openings this source and seed gave before (a resumed match's), taken again
    without checking them; the random draws are replayed, so the openings after them are
    those a fresh run would give. ``check`` checks ``balanced`` candidates (default: one at a
    time, here), ``batch`` of them at once: the same openings either way.
    """
    if source.kind == "start":
        return [() for _ in range(count)]
    if source.kind == "file":
        return _from_file(game, source.path, count)
    rng = random.Random(f"gametree-openings|{seed}|{source.text()}")
    ahead: deque[Opening | None] = deque()

    def draw() -> Opening | None:
        return ahead.popleft() if ahead else _random_line(game, source.plies, rng)

    results: dict[Opening, bool] = {}
    checker = check or (lambda lines: [balanced_opening(game, line, source.depth)
                                       for line in lines])

    def balanced(line: Opening, wanted: Opening | None) -> bool:
        if source.kind != "balanced":
            return True
        if wanted is not None:  # a known opening: the draws before it were turned down
            return line == wanted
        if line not in results:
            while len(ahead) < batch - 1:  # check the next candidates too, all at once
                ahead.append(_random_line(game, source.plies, rng))
            lines = list(dict.fromkeys(item for item in (line, *ahead)
                                       if item is not None and item not in results))
            results.update(zip(lines, checker(lines), strict=True))
        return results[line]

    found: list[Opening] = []
    seen: set[Opening] = set()
    for number in range(count):
        wanted = known[number] if number < len(known) else None
        chosen: Opening | None = None
        for _attempt in range(ATTEMPTS):
            line = draw()
            if line is None or line in seen or not balanced(line, wanted):
                continue
            chosen = line
            break
        if chosen is None:  # few openings to draw from: allow one seen before
            chosen = next((line for line in (draw() for _ in range(ATTEMPTS))
                           if line is not None), None)
        if chosen is None:
            raise GameError(f"no opening of {source.plies} random moves of {game.name} leaves "
                            f"the game going: ask for fewer plies")
        if wanted is not None and chosen != wanted:  # not this source's: start afresh
            return make_openings(game, source, count, seed, check=check, batch=batch)
        seen.add(chosen)
        found.append(chosen)
    return found


def _random_line(game: Game[Any, Any], plies: int, rng: random.Random) -> Opening | None:
    """``plies`` random moves from the start as texts (``None`` if the game ended)."""
    state = game.initial_state()
    texts: list[str] = []
    for _ in range(plies):
        moves = list(game.moves(state))
        if game.is_over(state) or not moves:
            return None
        if is_chance(game, state):
            outcomes = game.chance_outcomes(state)
            move = rng.choices([item[0] for item in outcomes],
                               weights=[float(item[1]) for item in outcomes])[0]
        else:
            move = rng.choice(moves)
        texts.append(game.format_move(state, move))
        state = game.play(state, move)
    if game.is_over(state) or not game.moves(state):
        return None
    return tuple(texts)


def balanced_opening(game: Game[Any, Any], line: Opening, depth: int) -> bool:
    """True if a search of ``depth`` plies after ``line`` finds no forced win or loss."""
    result = search(game, opening_state(game, line), SearchOptions(depth=depth))
    return result.value == 0 or plies_to_result(result.value) is None


def _from_file(game: Game[Any, Any], path: str, count: int) -> list[Opening]:
    lines: list[Opening] = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise GameError(f"--openings: cannot read {path}: {error}") from None
    for number, raw in enumerate(text.splitlines(), 1):
        words = tuple(raw.split("#", 1)[0].split())
        if not words:
            continue
        try:
            state = opening_state(game, words)
        except GameError as error:
            raise GameError(f"{path}, line {number}: {error}") from None
        if game.is_over(state):
            raise GameError(f"{path}, line {number}: the game is over after this opening")
        lines.append(words)
    if not lines:
        raise GameError(f"{path}: no openings in the file (one a line, moves separated by "
                        f"spaces)")
    return [lines[index % len(lines)] for index in range(count)]


__all__ = ["BALANCE_DEPTH", "Checker", "Opening", "OpeningSource", "balanced_opening",
           "make_openings", "opening_state", "parse_openings"]
