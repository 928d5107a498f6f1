"""The API's requests: pydantic models whose search fields are made from the search options'
declarations (:func:`gametree.options.declared_options`), and the jobs they ask for.

A request maps straight to a :class:`~gametree.SearchOptions` and the game's option values
(read through :mod:`gametree.frontend`, as the command line reads them); nothing here builds
command-line arguments. Values of the wrong type or out of range, unknown fields and texts that
are not valid Unicode (a lone surrogate such as ``"\\ud800"``) are refused by the models (422);
what the models cannot know (a game's options, moves, options that do not go together, the
server's limits) is refused when the job is made (400).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    create_model,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ..algorithms import ENGINE
from ..frontend import TRACE_ALGORITHM, game_options, options_type
from ..levels import HIGHEST, LOWEST
from ..numbers import LONGEST, WHOLE_NUMBER
from ..options import SearchOption, SearchOptions, declared_options
from ..registry import GameOptionError, GameSpec, UnknownGameError
from .jobs import Job, LimitError, RequestError
from .limits import ServerLimits

# -- values ---------------------------------------------------------------------------------


def _whole_from_text(value: object) -> object:
    """A whole number written as a text (``"4"``, as an HTML form gives it) as an int; any
    other value unchanged, for the strict integer check that follows."""
    if isinstance(value, str):
        text = value.strip()
        if WHOLE_NUMBER.fullmatch(text) and len(text.lstrip("+-")) <= LONGEST:
            return int(text)
    return value


def _seconds_from_text(value: object) -> object:
    """A number written as a text (``"0.5"``) as a float; any other value unchanged."""
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return value
        return number if math.isfinite(number) else value
    return value


def _surrogates(document: object) -> str | None:
    """The place of the first text in ``document`` (keys included) that holds a lone
    surrogate, which no UTF-8 text can (``moves``, ``options.rows``); ``None`` if none."""
    pending: list[tuple[str, object]] = [("", document)]
    while pending:
        where, item = pending.pop()
        if isinstance(item, str):
            if not _encodable(item):
                return where or "the body"
        elif isinstance(item, dict):
            for key, value in item.items():
                inner = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and not _encodable(key):
                    return f"{where or 'the body'}: a field name"
                pending.append((inner, value))
        elif isinstance(item, list):
            pending.extend((f"{where}[{index}]", value) for index, value in enumerate(item))
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class ApiModel(BaseModel):
    """A request body: no unknown fields, and every text valid Unicode."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _valid_unicode(cls, data: Any) -> Any:
        """Refuse texts that hold a lone surrogate (JSON's ``"\\ud800"``), wherever they are,
        before any other check (a surrogate would fail later, when an answer is encoded)."""
        where = _surrogates(data)
        if where is not None:
            safe = where.encode("utf-8", "backslashreplace").decode("utf-8")
            raise PydanticCustomError(
                "invalid_unicode", "{where}: not valid Unicode (a lone surrogate such as "
                "\\ud800): send texts as UTF-8", {"where": safe})
        return data


def whole_number(**bounds: Any) -> Any:
    """The type of a whole number within ``bounds`` (``ge``, ``le``): a JSON integer (a text
    of digits is taken too, as HTML forms send it)."""
    return Annotated[int, Field(strict=True, **bounds), BeforeValidator(_whole_from_text)]


def seconds(**bounds: Any) -> Any:
    """The type of a finite number of seconds within ``bounds`` (``gt``, ``ge``): a JSON
    number (a text of a number is taken too)."""
    return Annotated[float, Field(strict=True, allow_inf_nan=False, **bounds),
                     BeforeValidator(_seconds_from_text)]

GameOptionValue = StrictStr | StrictInt | StrictFloat | StrictBool | list[StrictInt | StrictStr]
"""A game option's value: a text as typed on the command line, a number, a list, a switch."""


class PositionRequest(ApiModel):
    """A game and a position: the game's name and options and the moves played from its start.

    ``options`` are the game's options as ``gametree games`` names them (``rows``,
    ``misere``); values are texts as typed on the command line (``"1,3,5"``), numbers, lists
    of numbers, or ``true``/``false`` for switches. ``tree`` is an explicit tree as a JSON
    document (``docs/trees.md``), for the ``tree`` game instead of its ``file`` option.
    """

    game: StrictStr = Field(description="a game's name, as `GET /api/games` lists them",
                            examples=["connect4"])
    options: dict[StrictStr, GameOptionValue | None] = Field(
        default_factory=dict, description="the game's options, by name",
        examples=[{"width": 7, "height": 6}])
    tree: dict[StrictStr, Any] | list[Any] | None = Field(
        default=None, description="the tree game only: the tree as a JSON document")
    moves: StrictStr = Field(default="", description="the moves played from the start",
                             examples=["4455"])


class TranscriptText(ApiModel):
    """A game in the text format of its own that a game declares (chess's PGN), to read as a
    game record."""

    game: StrictStr = Field(description="a game's name, as `GET /api/games` lists them; its "
                                        "`transcript` says the format", examples=["chess"])
    text: StrictStr = Field(description="the game in the format (the first game is read)",
                            examples=["1. e4 e5 2. Nf3 *"])


class TranscriptRecord(ApiModel):
    """A game record (docs/records.md) to write in its game's own text format."""

    record: dict[StrictStr, Any] = Field(description="a game record, as the play page "
                                                     "downloads it")


class TreeRequest(PositionRequest):
    """A position to draw as a tree: every node of an explicit tree, or a game's moves to a
    small depth."""

    depth: whole_number(ge=0) | None = Field(  # type: ignore[valid-type]
        default=None, description="plies to draw (games; default 2, an explicit tree: all)")


def _field(option: SearchOption) -> tuple[Any, Any]:
    """The request field of a declared search option: its type (with its range) and default."""
    described = option.help
    if option.kind == "switch":
        return StrictBool, Field(default=False, description=described)
    if option.kind == "choice":
        choices: Any = Literal.__getitem__(option.choices)
        if option.name == "algorithm":
            described = f"{described} (default: {ENGINE}; trace: {TRACE_ALGORITHM})"
        else:
            described = f"{described} (default: {option.default})"
        return choices | None, Field(default=None, description=described)
    if option.kind == "seconds":
        bound: dict[str, Any] = {"gt": 0} if option.positive else {"ge": 0}
        return (seconds(**bound) | None,
                Field(default=None, description=described))
    if option.kind == "whole":
        bounds = (("ge", option.minimum), ("le", option.maximum))
        limits: dict[str, Any] = {key: value for key, value in bounds if value is not None}
        return (whole_number(**limits) | None,
                Field(default=None, description=described))
    raise TypeError(f"the search option {option.name} ({option.kind}) has no request field")


def _web_options(kind: type[SearchOptions], names: tuple[str, ...] | None = None
                 ) -> tuple[SearchOption, ...]:
    return tuple(option for option in declared_options(kind)
                 if option.web and option.kind != "object"
                 and (names is None or option.name in names))


MOVE_OPTIONS = ("depth", "time", "seed")
"""The search options of a move request (its strength and tie-break)."""

STRENGTHS = ("perfect", "depth", "time")
"""How strong the engine's reply is: to the end of the game, to a depth, within a time."""


class Models:
    """The request models of one application, made from the search options' declarations
    when it is created (an option declared before then is a field of its requests)."""

    def __init__(self) -> None:
        self.options_type = options_type()
        """The options class the requests' search options are made of."""
        self.fields = _web_options(self.options_type)
        """The declared search options that are fields of a search request."""
        self.search: type[PositionRequest] = create_model(  # type: ignore[call-overload]
            "SearchRequest", __base__=PositionRequest,
            __doc__="A position and the search options of `gametree solve` (the command "
                    "line's flags, as words: `--no-distance` is `no_distance`).",
            **{option.api_name: _field(option) for option in self.fields})
        self.move: type[PositionRequest] = create_model(  # type: ignore[call-overload]
            "MoveRequest", __base__=PositionRequest,
            __doc__="A position in a game, and how strong the engine's reply should be.",
            strength=(Literal.__getitem__(STRENGTHS), Field(
                default="perfect", description="perfect (to the end of the game, within the "
                "server's time limit), depth (plies) or time (seconds per move)")),
            level=(whole_number(ge=LOWEST, le=HIGHEST) | None, Field(
                default=None, description=f"play weaker: a level from {LOWEST} (looks one "
                f"ply ahead, often errs) to {HIGHEST} (the strength asked for); null: the "
                "engine's best move (docs/play.md#levels). With a level, best_move is the "
                "move the level plays and the answer's level object says how it chose it")),
            **{option.api_name: _field(option)
               for option in _web_options(self.options_type, MOVE_OPTIONS)})


# -- requests as jobs -------------------------------------------------------------------------


def _spec(specs: Mapping[str, GameSpec], request: PositionRequest) -> GameSpec:
    spec = specs.get(request.game)
    if spec is None:
        raise UnknownGameError(f"unknown game {request.game!r}; games: {', '.join(specs)}")
    return spec


def position_job(command: str, request: PositionRequest, specs: Mapping[str, GameSpec],
                 search: SearchOptions | None = None) -> Job:
    """The job of a request, its game options read (no search options: ``search``)."""
    spec = _spec(specs, request)
    for option in spec.options:
        if option.reads_file and option.name in request.options:
            document = " itself as \"tree\"" if spec.from_document is not None else ""
            raise GameOptionError(f"the {spec.name} option {option.name} names a file on the "
                                  f"server, which the API does not read: send the "
                                  f"document{document}")
    if request.tree is not None and spec.from_document is None:
        raise RequestError(f"\"tree\" gives a game as a JSON document (a tree's), not "
                           f"{spec.name}'s: {spec.name} takes none")
    values = game_options(spec, request.options)
    if request.tree is not None and values:
        raise RequestError(f"give the {spec.name} game either as \"tree\" or by its options "
                           f"({', '.join(values)}), not both")
    draw_depth = getattr(request, "depth", None) if command == "tree" else None
    return Job(command, spec.name, values, request.moves, request.tree, search, draw_depth)


def search_job(command: str, request: PositionRequest, specs: Mapping[str, GameSpec],
               limits: ServerLimits, models: Models) -> Job:
    """The job of a ``solve``, ``analyze`` or ``trace`` request (a ``models.search``): its
    search options made from the request's fields, within the server's limits."""
    values: dict[str, Any] = {}
    for option in models.fields:
        given = getattr(request, option.api_name)
        if option.kind == "switch":
            if given:
                values[option.name] = not option.default
        elif given is not None:
            values[option.name] = given
    values.setdefault("algorithm", TRACE_ALGORITHM if command == "trace" else ENGINE)
    if command == "analyze":
        values["exact_root"] = True
    options = within_limits(models.options_type(**values), limits)
    return position_job(command, request, specs, options)


def move_job(request: PositionRequest, specs: Mapping[str, GameSpec],
             limits: ServerLimits, models: Models) -> Job:
    """The job of a ``move`` request: the engine's reply at the strength asked for."""
    strength = getattr(request, "strength", "perfect")
    depth, time, seed = (getattr(request, name, None) for name in MOVE_OPTIONS)
    values: dict[str, Any] = {"seed": seed}
    if strength == "depth":
        if depth is None:
            raise RequestError("strength depth needs a depth (plies)")
        values["depth"] = depth
    elif strength == "time":
        if time is None:
            raise RequestError("strength time needs a time (seconds per move)")
        values["time"] = time
    options = within_limits(models.options_type(**values), limits)
    return replace(position_job("move", request, specs, options),
                   level=getattr(request, "level", None))


def within_limits(options: SearchOptions, limits: ServerLimits) -> SearchOptions:
    """``options`` within the server's limits: a depth above the limit is refused; the
    engine's time budget (and any search's asked for) is the smaller of the one asked for and
    the limit; one thread (the server's workers share the cores between clients)."""
    if options.depth is not None and options.depth > limits.max_depth:
        raise LimitError(f"depth {options.depth} is more than this server searches "
                         f"(at most {limits.max_depth}; gametree serve --max-depth)")
    capped = limits.max_time if options.time is None else min(options.time, limits.max_time)
    if options.time is not None or (options.algorithm == ENGINE and not options.weak):
        return replace(options, time=capped, threads=1)
    return replace(options, threads=1)
