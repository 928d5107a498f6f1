"""The players of a match, from their descriptions (``--engine SPEC``).

A spec is a comma-separated list of settings (docs/matches.md):

* ``name=LABEL``: what the crosstable calls it (default: the spec itself);
* any search option by its command-line flag without the dashes, ``depth=6``, ``time=0.5``,
  ``nodes=100000``, ``tier=python``, ``algorithm=alphabeta``, ``table-memory=16MiB``,
  ``no-book`` (a switch is given by its name alone), read as the option's declaration
  (:mod:`gametree.options`) reads it; ``perfect`` searches to the end of the game (no budget);
* ``level=1..10``: a weaker opponent (:mod:`gametree.levels`);
* ``table=N``: the Python tier's transposition table in entries (0: none);
* ``eval=module:function`` or ``eval=path/file.py:function``: the game's evaluation replaced
  by ``function(state)`` (seen from the first player, as :meth:`gametree.Game.evaluate`);
  such an engine searches on the Python tier, where the function runs;
* ``uci=PATH``: an external UCI engine (chess only), played through python-chess's
  ``chess.engine`` with ``time``, ``depth`` or ``nodes`` per move, ``skill=N`` (its
  ``Skill Level`` option, Stockfish's 0..20) and ``option.NAME=VALUE`` for any UCI option.

A spec is parsed once, in the process that starts the match, into an :class:`EngineConfig`
(plain data that crosses to the worker processes); each game builds fresh players from it
(:meth:`EngineConfig.player`), so a game never depends on the games played before it.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import importlib.util
import os
import shutil
import sys
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from ..frontend import options_type
from ..game import Game, GameError
from ..levels import HIGHEST, LOWEST
from ..numbers import whole_number
from ..options import DEFAULT_TUNING, SearchOption, SearchOptions, declared_options, parse_bytes
from ..play.opponent import SearchOpponent
from ..records import value_entry
from ..result import SearchResult

CHESS = "chess"
"""The registry name of the one game an external UCI engine plays."""

STOCKFISH_PATHS = ("/usr/games/stockfish",)
"""Where Debian's ``stockfish`` package puts the engine (not on ``PATH``)."""


class SpecError(ValueError):
    """A player's spec that cannot be read; the message names the setting and the fix."""


class Player(Protocol):
    """One side of one game of a match."""

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        """The move it plays in ``state`` (which has legal moves)."""
        ...

    def value(self) -> dict[str, Any] | None:
        """What it made of the position of its last move, as a game record's ``values``
        entry (``None``: it does not say)."""
        ...

    def close(self) -> None:
        """Free what it holds (an engine process, a search session)."""
        ...


class SearchPlayer:
    """A gametree engine: a :class:`~gametree.play.SearchOpponent` with the spec's options."""

    def __init__(self, options: SearchOptions, level: int | None) -> None:
        self.opponent = SearchOpponent(level=level)
        """The opponent that searches (its options are the spec's)."""
        self.opponent.options = options
        self._last: SearchResult[Any] | None = None

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        """The opponent's move (its level's choice, if it has a level)."""
        decision = self.opponent.choose(game, state)
        if decision.move is None:
            raise RuntimeError("the engine chose no move in a position with legal moves")
        self._last = decision.result
        return decision.move

    def value(self) -> dict[str, Any] | None:
        """The search's value of the position of its last move, and the depth it reached."""
        return None if self._last is None else value_entry(self._last)

    def close(self) -> None:
        """Close the search session (its tables go back to the pool)."""
        self.opponent.close()


class UciPlayer:
    """An external UCI engine, through python-chess's ``chess.engine`` (chess only)."""

    def __init__(self, path: str, options: dict[str, str | int], limit: dict[str, Any]) -> None:
        import chess.engine  # noqa: PLC0415 - the chess extra, only for a UCI player

        self._engine = chess.engine.SimpleEngine.popen_uci(path)
        if options:
            self._engine.configure(options)
        self._limit = chess.engine.Limit(**limit)

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        """The engine's move in ``state``, as the game's move (read from its UCI text)."""
        board = chess_board(game, state)
        played = self._engine.play(board, self._limit)
        if played.move is None:
            raise RuntimeError("the UCI engine gave no move in a position with legal moves")
        return game.parse_move(state, played.move.uci())

    def value(self) -> dict[str, Any] | None:
        """Nothing: the engine's own scores are its business."""
        return None

    def close(self) -> None:
        """End the engine's process."""
        with contextlib.suppress(Exception):
            self._engine.quit()


def chess_board(game: Game[Any, Any], state: Any) -> Any:
    """``state`` of the chess game as a python-chess ``Board`` with the moves that led to it
    (so that the engine sees repetitions): from the state's starting position and its
    ``line()`` of moves when it has them, else the state's own ``board`` (or the state, if it
    is a board), else its FEN."""
    import chess  # noqa: PLC0415 - the chess extra

    line, start = getattr(state, "line", None), getattr(state, "start", None)
    if callable(line) and callable(start):
        board = chess.Board(_fen(start()))
        for move in line():
            board.push(move)
        return board
    found = getattr(state, "board", state)
    if isinstance(found, chess.Board):
        return found.copy()
    fen = getattr(state, "fen", None)
    if fen is not None:
        return chess.Board(_fen(state))
    raise GameError(f"cannot give a position of {game.name} to a UCI engine: its states are "
                    f"neither python-chess boards nor have a FEN")


def _fen(state: Any) -> str:
    """A state's FEN, whether ``fen`` is a method or a property."""
    fen = state.fen
    return str(fen() if callable(fen) else fen)


@dataclass(frozen=True)
class EngineConfig:
    """One player of a match, as its spec describes it (plain data, sent to the workers)."""

    name: str
    """What the crosstable calls it."""

    spec: str
    """The spec as given."""

    options: SearchOptions | None = None
    """A gametree engine's search options (``None`` for a UCI engine)."""

    level: int | None = None
    """Its level (1..10), or ``None``: full strength."""

    evaluation: str | None = None
    """``module:function`` or ``file.py:function`` replacing the game's evaluation."""

    uci: str | None = None
    """An external UCI engine's executable."""

    uci_options: tuple[tuple[str, str | int], ...] = ()
    """The UCI engine's options (``("Skill Level", 0)``)."""

    uci_limit: tuple[tuple[str, float | int], ...] = ()
    """The UCI engine's limit per move (``("time", 0.1)``), as ``chess.engine.Limit`` takes."""

    def check(self, game_name: str) -> None:
        """:class:`SpecError` if this player cannot play ``game_name`` (a UCI engine plays
        chess only)."""
        if self.uci is not None and game_name != CHESS:
            raise SpecError(f"engine {self.name!r}: an external UCI engine plays chess only, "
                            f"not {game_name}; give it a gametree engine instead")

    def player(self, game: Game[Any, Any], seed: int | None) -> tuple[Player, Game[Any, Any]]:
        """A fresh player for one game, and the game as it sees it (with its own evaluation,
        if the spec gives one); ``seed`` breaks its ties and makes its level's choices
        reproducible."""
        if self.uci is not None:
            return UciPlayer(self.uci, dict(self.uci_options), dict(self.uci_limit)), game
        assert self.options is not None
        seen = game if self.evaluation is None else with_evaluation(game, self.evaluation)
        return SearchPlayer(replace(self.options, seed=seed), self.level), seen


def with_evaluation(game: Game[Any, Any], where: str) -> Game[Any, Any]:
    """A copy of ``game`` whose evaluation is the function at ``where`` (and which has no
    compiled form, whose kernel has its own evaluation)."""
    function = load_function(where)
    clone = copy.copy(game)
    clone.evaluate = function  # type: ignore[method-assign, assignment]
    clone.compiled_form = lambda: None  # type: ignore[method-assign]
    return clone


def load_function(where: str) -> Callable[[Hashable], float]:
    """The function named by ``module:function`` or ``path/file.py:function``."""
    place, _, name = where.rpartition(":")
    if not place or not name:
        raise SpecError(f"eval= takes module:function or path/file.py:function, got {where!r}")
    try:
        if place.endswith(".py") or os.sep in place:
            path = Path(place)
            loader = importlib.util.spec_from_file_location(f"_gametree_eval_{path.stem}", path)
            if loader is None or loader.loader is None or not path.is_file():
                raise SpecError(f"eval=: no Python file {place!r}")
            module = importlib.util.module_from_spec(loader)
            sys.modules[loader.name] = module
            loader.loader.exec_module(module)
        else:
            module = importlib.import_module(place)
    except SpecError:
        raise
    except Exception as error:  # the user's module failed to import: say which and why
        raise SpecError(f"eval=: cannot import {place!r}: {error}") from None
    function = getattr(module, name, None)
    if not callable(function):
        raise SpecError(f"eval=: {place!r} has no function {name!r}")
    found: Callable[[Hashable], float] = function
    return found


# -- reading a spec ---------------------------------------------------------------------------

SEARCH_WORDS = ("name", "level", "table", "eval", "perfect")
"""The settings of a gametree engine that are not search options."""

UCI_WORDS = ("name", "uci", "time", "depth", "nodes", "skill")
"""The settings of a UCI engine (and ``option.NAME=VALUE``)."""


def _declared() -> dict[str, SearchOption]:
    """The search options a spec may set, by their flag without the dashes."""
    return {option.flag.lstrip("-"): option for option in declared_options(options_type())
            if option.flag is not None}


def _value(option: SearchOption, key: str, text: str | None) -> Any:
    """The value of ``key=text`` for the declared ``option``."""
    if option.kind == "switch":
        if text is not None:
            raise SpecError(f"{key} is a switch: write it alone, without '='")
        return not option.inverted
    if text is None or text == "":
        raise SpecError(f"{key} needs a value: {key}=VALUE")
    try:
        if option.kind == "whole":
            named = dict(option.named)
            return named[text.lower()] if text.lower() in named else whole_number(text)
        if option.kind == "bytes":
            return parse_bytes(text)
        if option.kind == "seconds":
            return float(text)
    except ValueError as error:
        raise SpecError(f"{key}={text}: {error}") from None
    if option.kind == "choice":
        if text not in option.choices:
            raise SpecError(f"{key}={text}: expected one of {', '.join(option.choices)}")
        return text
    raise SpecError(f"{key} cannot be set in a spec")


def _items(text: str) -> list[tuple[str, str | None]]:
    items = []
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            continue
        key, equals, value = part.partition("=")
        items.append((key.strip().lower() if not key.strip().startswith("option.")
                      else key.strip(), value.strip() if equals else None))
    if not items:
        raise SpecError("an empty engine spec: give settings such as depth=4 or level=3")
    return items


def parse_engine(text: str) -> EngineConfig:
    """The player ``text`` describes; :class:`SpecError` (or the options' own
    :class:`~gametree.options.OptionError`) naming what is wrong."""
    items = _items(text)
    keys = [key for key, _ in items]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise SpecError(f"engine {text!r}: {', '.join(repeated)} given twice")
    settings = dict(items)
    name = settings.pop("name", None) or text.strip()
    if "uci" in settings:
        return _uci_engine(text, name, settings)
    return _search_engine(text, name, settings)


def _whole_setting(key: str, value: str | None, low: int, high: int | None = None) -> int:
    if value is None:
        raise SpecError(f"{key} needs a value: {key}=N")
    try:
        number = whole_number(value)
    except ValueError:
        raise SpecError(f"{key}={value}: expected a whole number") from None
    if number < low or (high is not None and number > high):
        within = f"{low}..{high}" if high is not None else f">= {low}"
        raise SpecError(f"{key}={value}: expected a whole number {within}")
    return number


def _search_engine(text: str, name: str, settings: dict[str, str | None]) -> EngineConfig:
    declared = _declared()
    values: dict[str, Any] = {}
    level = evaluation = None
    perfect = False
    tuning = DEFAULT_TUNING
    for key, value in settings.items():
        if key == "level":
            level = _whole_setting(key, value, LOWEST, HIGHEST)
        elif key == "table":
            tuning = replace(tuning, table=_whole_setting(key, value, 0))
        elif key == "eval":
            if not value:
                raise SpecError("eval needs a function: eval=module:function")
            evaluation = value
        elif key == "perfect":
            if value is not None:
                raise SpecError("perfect is a switch: write it alone, without '='")
            perfect = True
        elif key in declared:
            values[declared[key].name] = _value(declared[key], key, value)
        else:
            known = ", ".join(sorted([*SEARCH_WORDS, *declared, "uci"]))
            raise SpecError(f"engine {text!r}: unknown setting {key!r}; known: {known}")
    if perfect and any(values.get(field) is not None for field in ("depth", "time", "nodes")):
        raise SpecError(f"engine {text!r}: perfect searches to the end: it takes no depth, "
                        f"time or nodes")
    if evaluation is not None:
        if values.get("tier") == "compiled":
            raise SpecError(f"engine {text!r}: eval= runs on the Python tier, not with "
                            f"tier=compiled")
        values["tier"] = "python"
    if tuning is not DEFAULT_TUNING:
        values["tuning"] = tuning
    options = options_type()(**values)
    return EngineConfig(name, text, options=options, level=level, evaluation=evaluation)


def find_stockfish() -> str | None:
    """The path of a ``stockfish`` executable (on ``PATH`` or Debian's), or ``None``."""
    found = shutil.which("stockfish")
    if found:
        return found
    return next((path for path in STOCKFISH_PATHS if os.access(path, os.X_OK)), None)


def _uci_engine(text: str, name: str, settings: dict[str, str | None]) -> EngineConfig:
    path = settings.pop("uci") or ""
    if path == "stockfish":
        path = find_stockfish() or path
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        found = shutil.which(path) if path else None
        if found is None:
            raise SpecError(f"engine {text!r}: no executable UCI engine at {path!r}")
        path = found
    options: dict[str, str | int] = {}
    limit: dict[str, float | int] = {}
    for key, value in settings.items():
        if key.startswith("option."):
            if value is None:
                raise SpecError(f"{key} needs a value: option.NAME=VALUE")
            options[key[len("option."):]] = int(value) if value.lstrip("-").isdigit() else value
        elif key == "skill":
            options["Skill Level"] = _whole_setting(key, value, 0, 20)
        elif key in ("depth", "nodes"):
            limit[key] = _whole_setting(key, value, 1)
        elif key == "time":
            try:
                seconds = float(value or "")
            except ValueError:
                seconds = -1.0
            if not seconds > 0:
                raise SpecError(f"time={value}: expected a positive number of seconds")
            limit["time"] = seconds
        else:
            raise SpecError(f"engine {text!r}: unknown setting {key!r} for a UCI engine; "
                            f"known: {', '.join(UCI_WORDS)}, option.NAME=VALUE")
    if not limit:
        raise SpecError(f"engine {text!r}: a UCI engine needs a limit per move: time=SECONDS, "
                        f"depth=N or nodes=N")
    return EngineConfig(name, text, uci=path, uci_options=tuple(options.items()),
                        uci_limit=tuple(limit.items()))


def parse_engines(texts: list[str]) -> list[EngineConfig]:
    """The players of a match: at least two, with different names."""
    engines = [parse_engine(text) for text in texts]
    if len(engines) < 2:
        raise SpecError("a match needs at least two engines: give --engine twice or more")
    names = [engine.name for engine in engines]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise SpecError(f"two engines are called {twice[0]!r}: tell them apart with name=...")
    return engines


__all__ = ["CHESS", "EngineConfig", "Player", "SearchPlayer", "SpecError", "UciPlayer",
           "chess_board", "find_stockfish", "parse_engine", "parse_engines", "with_evaluation"]
