"""Game records: one JSON format for a game played, kept by the terminal, the browser and the
command line (docs/records.md).

A record is a JSON object with exactly these keys::

    {"format": "gametree-record", "version": 1,
     "game": "connect4", "options": {"width": 7, "height": 6},
     "players": ["you", "gametree level 10"], "level": 10,
     "moves": ["4", "4", "5"], "values": [null, {...}, null],
     "result": null, "date": "2026-11-27T12:00:00Z"}

:class:`GameRecord` holds one; :func:`read_record` and :func:`parse_record` read and check
one (a :class:`RecordError` says what is wrong, naming the key), :func:`write_record` writes
one, and :func:`record_game` builds its game and plays its moves.

A game may declare a text format of its own (:attr:`GameSpec.transcript`: chess's PGN): a file
named with its suffix (``game.pgn``) is read and written in it, by :func:`read_record` and
:func:`write_record` as by :func:`transcript_record` and :func:`transcript_text`, the one place
that converts, for every front-end.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from .frontend import game_options
from .game import Game, GameError
from .levels import HIGHEST, LOWEST
from .registry import GameOptionError, GameSpec, Transcript, games, play_line
from .result import SearchResult
from .values import ValueKind, for_player, format_value

FORMAT = "gametree-record"
"""The value of a record's ``format`` key."""

VERSION = 1
"""The version of the format this module writes and reads."""

KEYS = ("format", "version", "game", "options", "players", "level", "moves", "values",
        "result", "date")
"""A record's keys, every one required, in the order they are written."""

VALUE_KEYS = ("value", "value_text", "value_kind", "depth")
"""The keys of one entry of ``values``, as the JSON API writes them for a search's root."""

MAX_RECORD_BYTES = 10_000_000
"""A record file larger than this is refused unread (a record of a long game is kilobytes)."""


class RecordError(ValueError):
    """A record that cannot be read: not JSON, a key missing or of the wrong kind, a game
    unknown here, a move that cannot be played."""


def now() -> str:
    """The time now, in UTC, as a record's ``date``: ``2026-11-27T12:00:00Z``."""
    from datetime import datetime, timezone  # noqa: PLC0415 - 2 ms of every command's start

    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def value_entry(result: SearchResult[Any]) -> dict[str, Any]:
    """An entry of ``values``: the engine's value of the position searched (seen from the
    player to move there), as the JSON API writes a result's root: ``value``, ``value_text``,
    ``value_kind``, ``depth``."""
    return {"value": result.value, "value_text": result.value_text(),
            "value_kind": result.value_kind(), "depth": result.depth}


@dataclass
class GameRecord:
    """One game: which game, its options, who played, the moves and what the engine thought."""

    game: str
    """The game's registry name (``gametree games``)."""

    options: dict[str, Any]
    """The game's options as JSON values (``{"width": 7, "height": 6}``)."""

    players: tuple[str, str]
    """Who played, the first player first (``"you"``, ``"gametree level 10"``)."""

    moves: list[str] = field(default_factory=list)
    """The moves as texts, exactly what ``--moves`` takes."""

    values: list[dict[str, Any] | None] = field(default_factory=list)
    """One entry per move: the engine's value of the position before it
    (:func:`value_entry`), or ``None`` where the engine did not search it."""

    level: int | None = None
    """The engine's level (1..10), or ``None`` for the engine at its plain strength."""

    result: dict[str, Any] | None = None
    """``None`` while the game goes on, else ``{"winner": 0, 1 or None, "text": ...}``."""

    date: str = field(default_factory=now)
    """When the game was played (ISO 8601, UTC)."""

    def moves_text(self) -> str:
        """The moves as one ``--moves`` text: ``4 4 5 3``."""
        return " ".join(self.moves)

    def to_json(self) -> dict[str, Any]:
        """The record as its JSON object (:data:`KEYS`, in order)."""
        return {"format": FORMAT, "version": VERSION, "game": self.game,
                "options": self.options, "players": list(self.players), "level": self.level,
                "moves": list(self.moves), "values": list(self.values),
                "result": self.result, "date": self.date}


def options_json(spec: GameSpec, values: Mapping[str, Any]) -> dict[str, Any]:
    """A game's option values as a record's ``options``: every option of ``spec``, its value
    from ``values`` or its default, tuples as lists (``None`` values left out)."""
    written: dict[str, Any] = {}
    for option in spec.options:
        value = values.get(option.name, option.default)
        if value is None:
            continue
        written[option.name] = list(value) if isinstance(value, tuple) else value
    return written


def result_of(game: Game[Any, Any], state: Any) -> dict[str, Any] | None:
    """A record's ``result`` for ``state``: ``None`` while the game goes on, else the winner
    (0, 1, or ``None`` for a draw or a numeric leaf) and the result in words."""
    utility = game.outcome(state)
    if utility is None:
        if game.moves(state):
            return None
        worth = format_value(game.evaluate(state), by_distance=False)  # a numeric leaf
        return {"winner": None, "text": f"no moves left; worth {worth} for "
                                        f"{game.player_names[0]}"}
    if utility == 0:
        return {"winner": None, "text": "draw"}
    winner = 0 if for_player(utility, 0) > 0 else 1
    return {"winner": winner, "text": f"{game.player_names[winner]} wins"}


# -- reading --------------------------------------------------------------------------------


def read_record(path: str | os.PathLike[str]) -> GameRecord:
    """The record in the file ``path``, checked (:func:`parse_record`)."""
    place = Path(path)
    try:
        size = place.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"{place}: {size:,} bytes is too large for a game record")
        text = place.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{place}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{place}: a directory, not a game record") from None
    except UnicodeDecodeError:
        raise RecordError(f"{place}: not a game record (not UTF-8 text)") from None
    except OSError as error:
        raise RecordError(f"{place}: {error.strerror or error}") from None
    spec = transcript_spec(place)
    if spec is not None and not text.lstrip().startswith("{"):  # else another game's JSON
        try:
            return transcript_record(spec, text)
        except RecordError as error:
            raise RecordError(f"{place}: {error}") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{place}: not a game record: invalid JSON at line {error.lineno}, "
                          f"column {error.colno} ({error.msg})") from None
    try:
        return parse_record(document)
    except RecordError as error:
        raise RecordError(f"{place}: {error}") from None


def parse_record(document: object) -> GameRecord:
    """A record from its JSON object, every key checked (:class:`RecordError` names the key
    at fault). The game and its moves are checked by :func:`record_game`."""
    if not isinstance(document, dict):
        raise RecordError(f"not a game record: expected a JSON object, got "
                          f"{type(document).__name__}")
    if document.get("format") != FORMAT:
        raise RecordError(f"not a game record: \"format\" must be {FORMAT!r}, got "
                          f"{document.get('format')!r}")
    version = document.get("version")
    if version != VERSION:
        newer = " (written by a newer gametree?)" \
            if isinstance(version, int) and version > VERSION else ""
        raise RecordError(f"\"version\" must be {VERSION}, got {version!r}{newer}")
    missing = [key for key in KEYS if key not in document]
    if missing:
        raise RecordError(f"missing {', '.join(repr(key) for key in missing)}")
    unknown = sorted(set(document) - set(KEYS))
    if unknown:
        raise RecordError(f"unknown {', '.join(repr(str(key)) for key in unknown)}; a record "
                          f"has exactly {', '.join(KEYS)}")
    game = _text(document["game"], "game")
    options = document["options"]
    if not isinstance(options, dict):
        raise RecordError(f"\"options\" must be an object (option: value), got {options!r}")
    players = document["players"]
    if not (isinstance(players, list) and len(players) == 2
            and all(isinstance(player, str) for player in players)):
        raise RecordError(f"\"players\" must be two texts, the first player first, got "
                          f"{players!r}")
    level = document["level"]
    if level is not None and not (isinstance(level, int) and not isinstance(level, bool)
                                  and LOWEST <= level <= HIGHEST):
        raise RecordError(f"\"level\" must be null or a whole number from {LOWEST} to "
                          f"{HIGHEST}, got {level!r}")
    moves = document["moves"]
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise RecordError(f"\"moves\" must be a list of move texts, got {moves!r}")
    values = _values(document["values"], len(moves))
    return GameRecord(game=game, options=options, players=(players[0], players[1]),
                      moves=list(moves), values=values, level=level,
                      result=_result(document["result"]), date=_date(document["date"]))


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: object, key: str) -> str:
    if not isinstance(value, str) or not value:
        raise RecordError(f"\"{key}\" must be a text, got {value!r}")
    return value


def _values(values: object, count: int) -> list[dict[str, Any] | None]:
    if not isinstance(values, list) or len(values) != count:
        raise RecordError(f"\"values\" must be a list with one entry per move ({count}), got "
                          f"{values!r}"[:300])
    kinds = get_args(ValueKind)
    for number, entry in enumerate(values, start=1):
        if entry is None:
            continue
        where = f"\"values\" entry {number}"
        if not isinstance(entry, dict) or set(entry) != set(VALUE_KEYS):
            raise RecordError(f"{where} must be null or an object with exactly "
                              f"{', '.join(VALUE_KEYS)}, got {entry!r}"[:300])
        value = entry["value"]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RecordError(f"{where}: \"value\" must be a number, got {value!r}")
        if not isinstance(entry["value_text"], str):
            raise RecordError(f"{where}: \"value_text\" must be a text")
        if entry["value_kind"] not in kinds:
            raise RecordError(f"{where}: \"value_kind\" must be one of {', '.join(kinds)}, "
                              f"got {entry['value_kind']!r}")
        depth = entry["depth"]
        if depth is not None and not (_whole(depth) and depth >= 0):
            raise RecordError(f"{where}: \"depth\" must be null or a whole number >= 0, got "
                              f"{depth!r}")
    return list(values)


def _result(result: object) -> dict[str, Any] | None:
    if result is None:
        return None
    if not isinstance(result, dict) or set(result) != {"winner", "text"}:
        raise RecordError(f"\"result\" must be null or an object with exactly winner and "
                          f"text, got {result!r}")
    if result["winner"] not in (0, 1, None) or isinstance(result["winner"], bool):
        raise RecordError(f"\"result\": \"winner\" must be 0, 1 or null, got "
                          f"{result['winner']!r}")
    if not isinstance(result["text"], str):
        raise RecordError("\"result\": \"text\" must be a text")
    return dict(result)


def _date(date: object) -> str:
    text = _text(date, "date")
    from datetime import datetime  # noqa: PLC0415 - 2 ms of every command's start

    try:
        # Python 3.10 reads no "Z" for UTC: it is written as the offset it stands for.
        datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    except ValueError:
        raise RecordError(f"\"date\" must be an ISO 8601 time such as 2026-11-27T12:00:00Z, "
                          f"got {text!r}") from None
    return text


def record_game(record: GameRecord, specs: Mapping[str, GameSpec] | None = None
                ) -> tuple[GameSpec, Game[Any, Any], list[Any]]:
    """The record's game spec, its game (built with the record's options), and the positions
    of the game: the start, then the position after each move. Raises :class:`RecordError`
    for a game unknown here, options it refuses, a move that cannot be played, or a result
    that the moves do not reach."""
    offered = dict(games()) if specs is None else specs
    spec = offered.get(record.game)
    if spec is None:
        raise RecordError(f"the record's game {record.game!r} is not known here; games: "
                          f"{', '.join(offered)}")
    try:
        game = spec.make(**game_options(spec, record.options))
    except (GameOptionError, GameError, ValueError) as error:
        raise RecordError(f"the record's options: {error}") from None
    states = [game.initial_state()]
    for number, text in enumerate(record.moves, start=1):
        try:
            state, _ = play_line(game, [text], states[-1])
        except (GameError, ValueError) as error:
            raise RecordError(f"the record's move {number} ({text!r}) cannot be played: "
                              f"{error}") from None
        states.append(state)
    if record.result is not None:
        reached = result_of(game, states[-1])
        if reached is None or reached["winner"] != record.result["winner"]:
            where = "the game goes on" if reached is None else reached["text"]
            raise RecordError(f"the record's result ({record.result['text']!r}) is not where "
                              f"its moves lead ({where})")
    return spec, game, states


def write_record(path: str | os.PathLike[str], record: GameRecord) -> None:
    """Write ``record`` to ``path`` (UTF-8 JSON, indented; in the game's own format when the
    name ends in its :class:`Transcript`'s suffix: ``game.pgn``), replacing the file whole: a
    reader never sees half a record."""
    place = Path(path)
    spec = transcript_spec(place)
    text = transcript_text(record) if spec is not None and spec.name == record.game \
        else json.dumps(record.to_json(), indent=1) + "\n"
    temporary = place.with_name(f".{place.name}.writing")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, place)
    except OSError as error:  # named by the record's file, not the temporary one
        raise OSError(error.errno, error.strerror, os.fspath(place)) from None


# -- a game's own text format (chess's PGN) ----------------------------------------------------


def transcript_spec(path: str | os.PathLike[str],
                    specs: Mapping[str, GameSpec] | None = None) -> GameSpec | None:
    """The game whose :class:`Transcript` a file named ``path`` is in (by its suffix, any
    case: ``game.PGN``), else ``None`` (a JSON record)."""
    suffix = Path(path).suffix.lower()
    offered = dict(games()) if specs is None else specs
    return next((spec for spec in offered.values()
                 if spec.transcript is not None and spec.transcript.suffix == suffix), None)


def _transcript(spec: GameSpec) -> Transcript:
    if spec.transcript is None:
        raise RecordError(f"{spec.name} records are kept in JSON only (no text format of "
                          f"its own)")
    return spec.transcript


def transcript_record(spec: GameSpec, text: str) -> GameRecord:
    """The record of the first game in ``text``, in ``spec``'s own format (PGN): its moves
    checked by playing them, its result where they lead, no engine values, no level.
    :class:`RecordError` in one line for a text the format cannot read."""
    form = _transcript(spec)
    try:
        fields = form.read(text)
    except (ValueError, GameError) as error:
        raise RecordError(str(error)) from None  # the format's reader says what and where
    moves = list(fields["moves"])
    record = GameRecord(game=spec.name, options=dict(fields["options"]),
                        players=(fields["players"][0], fields["players"][1]), moves=moves,
                        values=[None] * len(moves), date=fields.get("date") or now())
    _, game, states = record_game(record, {spec.name: spec})
    record.result = result_of(game, states[-1])
    return record


def transcript_text(record: GameRecord, specs: Mapping[str, GameSpec] | None = None) -> str:
    """``record`` in its game's own format (PGN for chess); :class:`RecordError` for a game
    that has none or a record whose moves cannot be played or do not reach its result."""
    offered = dict(games()) if specs is None else specs
    spec = offered.get(record.game)
    if spec is None:
        raise RecordError(f"the record's game {record.game!r} is not known here")
    form = _transcript(spec)
    record_game(record, offered)  # its moves and result checked, as a reader checks them
    try:
        return form.write(record.to_json())
    except (ValueError, GameError) as error:
        raise RecordError(f"cannot write the record in {form.name}: {error}") from None


def record_line(record: GameRecord) -> str:
    """The record's moves as a command line ends them: ``--moves "4 4 5 3"``."""
    return f"--moves \"{record.moves_text()}\""


__all__ = ["FORMAT", "KEYS", "VALUE_KEYS", "VERSION", "GameRecord", "RecordError",
           "options_json", "parse_record", "read_record", "record_game", "record_line",
           "result_of", "transcript_record", "transcript_spec", "transcript_text",
           "value_entry", "write_record"]
