"""What a search is asked to do: one options type for every algorithm and both tiers.

:class:`SearchOptions` is checked once, when it is made (a bad value raises
:class:`ValueError` with a message a person can act on), and is frozen, so a front-end builds
it once and searches any number of positions with it::

    >>> from gametree import SearchOptions
    >>> SearchOptions(depth=4, exact_root=True).depth
    4
    >>> SearchOptions(algorithm="minimax", nodes=1000)
    Traceback (most recent call last):
    ...
    gametree.options.OptionError: nodes needs the engine: minimax cannot stop half-way
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import Field, dataclass, field, fields
from dataclasses import replace as replaced
from typing import Any, Literal

from .algorithms import ALGORITHMS, ENGINE
from .limits import MAX_NODES

ChancePruning = Literal["star2", "star1", "none"]
"""How the engine cuts at chance nodes: Star2, Star1 or not at all (plain expectiminimax at
chance nodes): :mod:`gametree.engine.chance`."""

TierChoice = Literal["auto", "python", "compiled"]
"""Which tier to search on: ``auto`` (the compiled one when the game has a kernel and the
options allow it), or ``python`` / ``compiled`` to insist."""

TIERS: tuple[TierChoice, ...] = ("auto", "python", "compiled")

DEFAULT_TABLE_BITS = 22
"""The compiled tier's table size by default: ``2**22`` entries of 16 bytes (64 MiB)."""

MIN_TABLE_MEMORY = 2**12
"""The least :attr:`SearchOptions.table_memory`: a table of 2**8 entries of 16 bytes."""

MAX_TABLE_MEMORY = 2**34
"""The most :attr:`SearchOptions.table_memory`: a table of 2**30 entries of 16 bytes (16
GiB)."""

MAX_THREADS = 64
"""The most threads a search may be given (:attr:`SearchOptions.threads`); the compiled
engine's own limit (``gametree.compiled.engine.MAX_THREADS``) is the same."""


class OptionError(ValueError):
    """Options that cannot go together, or that cannot search a game; the message names the
    options at fault in the words of whoever reads it (:meth:`text`)."""

    def __init__(self, template: str, **details: object) -> None:
        self.template = template
        """The message with ``{option}`` placeholders: a search option's field name, or
        ``compiled`` (``tier='compiled'``); see :func:`option_names`."""
        self.details = details
        super().__init__(self.text(OPTION_NAMES))

    def text(self, names: Mapping[str, str]) -> str:
        """The message with the options called by ``names`` (an option ``names`` leaves out
        keeps its field name)."""
        return self.template.format_map(_Names({**names, **self.details}))


class _Names(dict[str, object]):
    """Placeholders of an :class:`OptionError` message: a name not given stays as it is."""

    def __missing__(self, key: str) -> str:
        return key


def _check_flag(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, got {value!r}")


@dataclass(frozen=True)
class EngineTuning:
    """How the engine is built: table sizes and the search techniques it uses.

    The defaults are the measured best (``docs/engine.md``); the other settings exist to
    measure what each technique brings. All but :attr:`table_bits` apply to the Python tier's
    engine only, so changing them keeps a search on the Python tier.
    """

    table: int | bool = True
    """The Python tier's transposition table: ``True`` for the default size, a number of
    entries, or ``False`` (or 0) for none."""

    table_bits: int = DEFAULT_TABLE_BITS
    """The compiled tier's table: ``2**table_bits`` entries (8 to 30)."""

    iterative: bool | None = None
    """Iterative deepening: always, never, or (``None``) where it pays (see
    :class:`gametree.engine.Engine`)."""

    window: Literal["pvs", "mtdf"] = "pvs"
    """The root driver: principal variation search or MTD(f)."""

    pvs: bool = True
    """Null-window tests after the first move at every node."""

    killers: bool = True
    """The killer-move ordering heuristic."""

    history: bool = False
    """The history ordering heuristic."""

    def __post_init__(self) -> None:
        table = self.table
        if not isinstance(table, (bool, int)) or (not isinstance(table, bool) and table < 0):
            raise ValueError(f"table must be True, False or a number of entries, got {table!r}")
        bits = self.table_bits
        if isinstance(bits, bool) or not isinstance(bits, int) or not 8 <= bits <= 30:
            raise ValueError(f"table_bits must be a whole number within 8..30, got {bits!r}")
        if self.window not in ("pvs", "mtdf"):
            raise ValueError(f"window must be 'pvs' or 'mtdf', got {self.window!r}")
        for name in ("pvs", "killers", "history"):
            _check_flag(name, getattr(self, name))
        if self.iterative is not None:
            _check_flag("iterative", self.iterative)

    @property
    def python_only(self) -> bool:
        """True if a setting differs from the default that only the Python tier has."""
        return any(getattr(self, item.name) != item.default for item in fields(self)
                   if item.name != "table_bits")


DEFAULT_TUNING = EngineTuning()




# -- the declaration of the search options ----------------------------------------------------

OptionKind = Literal["choice", "whole", "bytes", "seconds", "switch", "object"]
"""What values an option takes: one of a few names (``choice``), a whole number (``whole``),
a number of bytes (``bytes``: a whole number, which the command line also reads with a unit,
``64MiB``, ``1GiB``: :func:`parse_bytes`), a number of seconds (``seconds``), true or false
(``switch``), or an object of a given class that no front-end types in (``object``: the
engine's tuning)."""

Front = Literal["python", "cli", "api"]
"""Who reads an option's name in a message: Python code, the command line, the web API."""


@dataclass(frozen=True)
class SearchOption:
    """The declaration of one search option: everything a front-end needs to offer it, and
    everything :class:`SearchOptions` checks of it.

    Each field of :class:`SearchOptions` carries one (made with :func:`option`); the command
    line's flags (:func:`gametree.cli.parser.add_search_options`), the web API's request fields
    (:mod:`gametree.web.requests`), the names in error messages (:func:`option_names`), each
    algorithm's options (:attr:`gametree.algorithms.Algorithm.options`) and the checks of
    :class:`SearchOptions` are made from these declarations, so an option is declared once.
    """

    kind: OptionKind
    """What values it takes."""

    help: str
    """One or two sentences for ``--help`` and the API's schema."""

    flag: str | None = None
    """The command line's flag (``--depth``); a ``switch`` whose default is ``True`` is
    turned off by it (``--no-distance``), any other switch on (``--exact``). The web API
    calls the option by the flag's words (``no_distance``, ``exact``). ``None``: no front-end
    offers it as a value (the engine's tuning)."""

    metavar: str | None = None
    """The placeholder in help (``N``, ``SECONDS``)."""

    minimum: int | None = None
    """``whole``: the smallest value allowed."""

    maximum: int | None = None
    """``whole``: the largest value allowed."""

    positive: bool = False
    """``seconds``: more than zero (else zero or more)."""

    choices: tuple[str, ...] = ()
    """``choice``: the names allowed."""

    named: tuple[tuple[str, int], ...] = ()
    """``whole``: words the command line reads as numbers (``auto`` threads is 0)."""

    note: str = ""
    """Words added to the range in messages (``(0: every core)``)."""

    object_type: type | None = None
    """``object``: the class its values have."""

    algorithms: frozenset[str] | None = None
    """The algorithms that take it (``None``: every one)."""

    tiers: tuple[str, ...] = ("python", "compiled")
    """The tiers that take it: given (see :attr:`given`) to a search on another tier, it is
    refused (:func:`tier_refusal`), never ignored."""

    tier_note: str = ""
    """Why the other tiers do not take it, for the refusal (``the Python tier searches on
    one thread``)."""

    refusal: str | None = None
    """The :class:`OptionError` message when it is given to an algorithm not in
    :attr:`algorithms` (placeholders: the options, ``{name}`` the algorithm, ``{count}`` the
    value); ``None``: other algorithms ignore it (minimax's moves are exact already)."""

    given: Callable[[Any], bool] | None = None
    """Whether a value counts as given for :attr:`refusal` (default: unlike the default)."""

    web: bool = True
    """Whether the web API's search requests take it (a server keeps its own threads)."""

    cli_name: str | None = None
    """The command line's name in messages when the option has no :attr:`flag`."""

    name: str = ""
    """The field of :class:`SearchOptions` (set by :func:`declared_options`)."""

    default: Any = None
    """The field's default (set by :func:`declared_options`)."""

    @property
    def optional(self) -> bool:
        """Whether ``None`` is allowed (the default is ``None``: no limit, no seed)."""
        return self.default is None

    @property
    def inverted(self) -> bool:
        """A switch that is on by default: its flag turns it off (``--no-distance``)."""
        return self.kind == "switch" and self.default is True

    @property
    def api_name(self) -> str:
        """The web API's name: the flag's words (``no_distance``), else the field's."""
        if self.flag is None:
            return self.name
        return self.flag.lstrip("-").replace("-", "_")

    def front_name(self, front: Front) -> str:
        """How ``front`` names the option in messages (``fail_soft=False``, ``--fail-hard``,
        ``fail_hard``)."""
        if front == "api":
            return self.api_name
        if front == "cli":
            return self.flag or self.cli_name or self.name
        return f"{self.name}={not self.default}" if self.inverted else self.name

    def range_text(self) -> str:
        """The values allowed, in words (``a whole number within 0..64``)."""
        if self.kind == "choice":
            return f"one of {', '.join(self.choices)}"
        if self.kind == "switch":
            return "True or False"
        if self.kind == "seconds":
            return "a positive number of seconds" if self.positive else \
                "a number of seconds >= 0"
        if self.kind == "object":
            return f"a {getattr(self.object_type, '__name__', 'value')}"
        low, high = self.minimum, self.maximum
        if low is not None and high is not None:
            within = f"within {low}..{high}" if high - low <= 1000 else \
                f"from {low:,} to {high:,}"
        elif low is not None:
            within = f">= {low}"
        else:
            within = ""
        if self.kind == "bytes":
            within = f"from {bytes_text(low or 0)} to {bytes_text(high)}" if high is not None \
                else within
            return " ".join(part for part in ("a number of bytes", within, self.note) if part)
        words = " ".join(part for part in ("a whole number", within, self.note) if part)
        return words

    def check(self, value: object) -> None:
        """Raise :class:`ValueError` (naming the option and what it takes) unless ``value``
        is one this option allows."""
        if value is None and self.optional:
            return
        if not self.allows(value):
            none = " or None" if self.optional else ""
            if self.kind == "choice" and self.name == "algorithm":
                raise ValueError(f"unknown algorithm {value!r}; algorithms: "
                                 f"{', '.join(self.choices)}")
            raise ValueError(f"{self.name} must be {self.range_text()}{none}, got {value!r}")

    def allows(self, value: object) -> bool:
        """Whether ``value`` (not ``None``) is of the option's kind and range."""
        kind = self.kind
        if kind == "switch":
            return isinstance(value, bool)
        if kind == "choice":
            return isinstance(value, str) and value in self.choices
        if kind == "object":
            return self.object_type is not None and isinstance(value, self.object_type)
        if isinstance(value, bool) or not isinstance(value, (int, float) if kind == "seconds"
                                                     else int):  # whole, bytes
            return False
        if kind == "seconds":
            return math.isfinite(value) and (value > 0 if self.positive else value >= 0)
        return (self.minimum is None or value >= self.minimum) and \
            (self.maximum is None or value <= self.maximum)

    def takes(self, algorithm: str) -> bool:
        """Whether ``algorithm`` takes this option."""
        return self.algorithms is None or algorithm in self.algorithms

    def is_given(self, value: object) -> bool:
        """Whether ``value`` counts as given (:attr:`given`; by default: unlike the
        default)."""
        return self.given(value) if self.given is not None else value != self.default


_UNITS = {"": 1, "b": 1, "k": 2**10, "kb": 10**3, "kib": 2**10, "m": 2**20, "mb": 10**6,
          "mib": 2**20, "g": 2**30, "gb": 10**9, "gib": 2**30, "t": 2**40, "tb": 10**12,
          "tib": 2**40}
"""The units :func:`parse_bytes` reads (case aside): ``KiB``, ``MiB``, ``GiB``, ``TiB`` (and
``K``, ``M``, ``G``, ``T``) are powers of 1024, ``kB``, ``MB``, ``GB``, ``TB`` powers of
1000."""

_BYTES = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]*)")


def parse_bytes(text: str) -> int:
    """A number of bytes as people write it: ``1GiB``, ``64MiB``, ``512M``, ``1.5GB``,
    ``4096`` (whole bytes, rounded down); :class:`ValueError` naming the units otherwise.

    >>> parse_bytes("64MiB"), parse_bytes("1gib"), parse_bytes("2 GB")
    (67108864, 1073741824, 2000000000)
    """
    found = _BYTES.fullmatch(text.strip())
    unit = found.group(2).lower() if found is not None else ""
    if found is None or unit not in _UNITS or len(found.group(1)) > 30:
        raise ValueError(f"expected a number of bytes such as 64MiB or 1GiB (units: KiB, MiB, "
                         f"GiB, TiB, kB, MB, GB, TB), got {text!r}")
    number: str = found.group(1)
    if "." in number:
        whole, fraction = number.split(".")
        scale: int = 10 ** len(fraction)
        return (int(whole) * scale + int(fraction)) * _UNITS[unit] // scale
    return int(number) * _UNITS[unit]


def bytes_text(count: int) -> str:
    """``count`` bytes in the largest binary unit that writes it whole (``64 MiB``,
    ``1 GiB``), else with one decimal (``1.5 GiB``).

    >>> bytes_text(2**26), bytes_text(3 * 2**29), bytes_text(100)
    ('64 MiB', '1.5 GiB', '100 bytes')
    """
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= size:
            if count % size == 0:
                return f"{count // size} {unit}"
            return f"{count / size:.1f} {unit}"
    return f"{count} bytes"


def tier_refusal(options: SearchOptions, tier: str, reason: str | None = None
                 ) -> OptionError | None:
    """The error for an option ``options`` give that ``tier`` does not take (its declaration's
    :attr:`SearchOption.tiers`), or ``None``; ``reason`` (why the search is on ``tier``)
    replaces the declaration's :attr:`SearchOption.tier_note`."""
    for declaration in declared_options(type(options)):
        if tier in declaration.tiers:
            continue
        value = getattr(options, declaration.name)
        if declaration.is_given(value):
            why = reason or declaration.tier_note or f"the {tier} tier does not take it"
            return OptionError(f"{{{declaration.name}}}={{count}} needs the "
                               f"{' or '.join(declaration.tiers)} tier: {{reason}}",
                               count=value, reason=why)
    return None


def option(default: Any, declaration: SearchOption) -> Any:
    """A :class:`SearchOptions` field with its default and its declaration (a subclass of
    :class:`SearchOptions` declares a new option the same way)."""
    return field(default=default, metadata={"option": declaration})


_DECLARED: dict[type, tuple[SearchOption, ...]] = {}


def declared_options(options_type: type[SearchOptions] | None = None
                     ) -> tuple[SearchOption, ...]:
    """The declarations of ``options_type``'s fields (default: :class:`SearchOptions`), in
    field order, each with its name and default filled in."""
    kind = SearchOptions if options_type is None else options_type
    found = _DECLARED.get(kind)
    if found is None:
        found = tuple(_declaration(item) for item in fields(kind))
        _DECLARED[kind] = found
    return found


def _declaration(item: Field[Any]) -> SearchOption:
    declaration = item.metadata.get("option")
    if not isinstance(declaration, SearchOption):
        raise TypeError(f"the search option {item.name} has no declaration: make its field "
                        f"with gametree.options.option(default, SearchOption(...))")
    return replaced(declaration, name=item.name, default=item.default)


def option_names(front: Front, options_type: type[SearchOptions] | None = None
                 ) -> dict[str, str]:
    """How ``front`` names each search option in :class:`OptionError` messages, by field
    name (plus ``compiled``: the compiled tier asked for)."""
    names = {item.name: item.front_name(front) for item in declared_options(options_type)}
    names["compiled"] = {"python": "tier='compiled'", "cli": "--tier compiled",
                         "api": "tier \"compiled\""}[front]
    return names


@dataclass(frozen=True)
class _Checks:
    """What :meth:`SearchOptions.__post_init__` checks, made once per options class from its
    declarations (a search builds options on every call: the checks stay a short loop)."""

    values: tuple[tuple[str, Any, Callable[[object], None]], ...]
    """Each option's name, default (not checked again) and check."""

    refusing: tuple[SearchOption, ...]
    """The options that some algorithms refuse."""

    takes_all: frozenset[str]
    """The algorithms that take every option (no refusal to look for)."""


_CHECKS: dict[type, _Checks] = {}


def _checks_of(options_type: type[SearchOptions]) -> _Checks:
    declarations = declared_options(options_type)
    refusing = tuple(item for item in declarations if item.refusal is not None)
    takes_all = frozenset(name for name in ALGORITHMS
                          if all(item.takes(name) for item in refusing))
    checks = _Checks(tuple((item.name, item.default, item.check) for item in declarations),
                     refusing, takes_all)
    _CHECKS[options_type] = checks
    return checks


def _more_than_one(threads: Any) -> bool:
    return bool(threads > 1)


@dataclass(frozen=True)
class SearchOptions:
    """Everything a search can be asked, for any algorithm and either tier.

    Budgets: ``depth`` (plies, then the game's heuristic), ``time`` (seconds) and ``nodes``;
    the answer is that of the deepest search completed. Without any, the game is solved to
    its end.

    Each field is declared once, with :func:`option`: its kind, range, help, command-line flag
    and the algorithms and tiers that take it (:class:`SearchOption`). The front-ends and the
    checks here are made from those declarations.
    """

    algorithm: str = option(ENGINE, SearchOption(
        "choice", "search algorithm", flag="--algorithm", choices=tuple(ALGORITHMS)))
    """``engine`` (the fast search, default), or a reference algorithm: ``minimax``,
    ``alphabeta``, ``negamax`` (:mod:`gametree.algorithms`)."""

    depth: int | None = option(None, SearchOption(
        "whole", "look N plies ahead, then use the game's heuristic (default: search to the "
        "end of the game)", flag="--depth", metavar="N", minimum=0))
    """Plies to look ahead; ``None`` searches to the end of the game."""

    time: float | None = option(None, SearchOption(
        "seconds", "think at most this long, then answer with the deepest search completed "
        "(with or without a depth; the reference algorithms keep it approximately, by "
        "iterative deepening)", flag="--time", metavar="SECONDS", positive=True))
    """Seconds for the whole search. The engine keeps it itself; the reference algorithms
    cannot stop half-way and keep it by iterative deepening, approximately."""

    nodes: int | None = option(None, SearchOption(
        "whole", "engine only: visit at most about N positions, then answer with the deepest "
        "search completed", flag="--nodes", metavar="N", minimum=1, maximum=MAX_NODES,
        algorithms=frozenset({ENGINE}),
        refusal="{nodes} needs the engine: {name} cannot stop half-way"))
    """The most positions to visit (the engine only)."""

    by_distance: bool = option(True, SearchOption(
        "switch", "plain values: do not score wins and losses by their distance (reproduces "
        "the seeds' numbers)", flag="--no-distance"))
    """Score wins and losses by their distance (a quick win beats a slow one); ``False``:
    plain values, as the game's ``outcome`` gives them."""

    weak: bool = option(False, SearchOption(
        "switch", "prove only win, draw or loss (faster on the compiled tier)", flag="--weak",
        algorithms=frozenset({ENGINE}), refusal="{weak} needs the engine, not {name}"))
    """Prove only win, draw or loss (values 1, 0, -1): often faster. The engine only, to the
    end of the game."""

    exact_root: bool = option(False, SearchOption(
        "switch", "search every root move with a full window so that every move's value is "
        "exact, not a bound", flag="--exact",
        algorithms=frozenset({"alphabeta", "negamax", ENGINE})))
    """Give every root move its exact value, not just a bound (``analyze``)."""

    seed: int | None = option(None, SearchOption(
        "whole", "break ties between equally good moves at random from seed N",
        flag="--seed", metavar="N"))
    """Break ties between equally good moves at random from this seed (implies
    :attr:`exact_root`); ``None``: the first best move in move order."""

    fail_soft: bool = option(True, SearchOption(
        "switch", "alphabeta only: return window bounds at pruned nodes (seed 004's "
        "pseudo-code) instead of the best value seen", flag="--fail-hard",
        algorithms=frozenset({"alphabeta"}),
        refusal="{fail_soft} is an option of alphabeta, not {name}"))
    """``alphabeta`` only: ``False`` returns window bounds at pruned nodes (seed 004)."""

    chance_pruning: ChancePruning = option("star2", SearchOption(
        "choice", "engine, games with chance (pig): how to cut off at chance nodes: star2 "
        "(default: probes, then star1), star1 (Ballard's bounds), none (every outcome)",
        flag="--chance-pruning", choices=("star2", "star1", "none"),
        algorithms=frozenset({ENGINE}),
        refusal="{chance_pruning} is an option of the engine, not {name}"))
    """How the engine cuts at chance nodes (:mod:`gametree.engine.chance`); a game without
    chance has none, and any setting searches it the same."""

    tier: TierChoice = option("auto", SearchOption(
        "choice", "python: search the game's Python form; compiled: its compiled (numba) "
        "form; auto (default): compiled when the game has one and the search is the "
        "engine's, untraced", flag="--tier", choices=TIERS))
    """Where to search: ``auto``, ``python`` or ``compiled`` (see :data:`TierChoice`)."""

    tuning: EngineTuning = option(DEFAULT_TUNING, SearchOption(
        "object", "how the engine is built", object_type=EngineTuning,
        algorithms=frozenset({ENGINE}), refusal="{tuning} does not apply to {name}",
        web=False, cli_name="engine tuning"))
    """How the engine is built (the engine only)."""

    threads: int = option(1, SearchOption(
        "whole", "compiled tier: solve with N threads sharing one table (auto or 0: every "
        "core; default 1); the value is the same, faster on a hard position",
        flag="--threads", metavar="N", minimum=0, maximum=MAX_THREADS, named=(("auto", 0),),
        note="(0: every core)", algorithms=frozenset({ENGINE}), tiers=("compiled",),
        refusal="{threads}={count} needs the compiled engine, not {name}",
        given=_more_than_one, web=False, tier_note="the Python tier searches on one thread"))
    """Threads searching one position, sharing one transposition table (the compiled tier
    only; ``0``: every core). They speed up solves to the end of the game (strong or weak);
    depth-limited and budgeted searches run on one thread. The value, outcome, distance and
    best move are those of one thread; node counts, summed over the threads, vary from run
    to run. More than one thread on a game or options the compiled tier cannot search is an
    error; ``0`` there means one thread."""

    table_memory: int | None = option(None, SearchOption(
        "bytes", "compiled tier: the transposition table's memory, e.g. 64MiB (default) or "
        "1GiB for a whole board; the largest table that fits is used",
        flag="--table-memory", metavar="BYTES", minimum=MIN_TABLE_MEMORY,
        maximum=MAX_TABLE_MEMORY, algorithms=frozenset({ENGINE}), tiers=("compiled",),
        refusal="{table_memory} needs the compiled engine, not {name}", web=False,
        tier_note="the Python tier's table is sized in entries (tuning.table)"))
    """Bytes for the compiled tier's transposition table (``None``: the tuning's
    ``table_bits``, 64 MiB by default). The engine turns it into a table size
    (:func:`gametree.compiled.engine.table_bits_for`: the largest that fits). Not offered by
    the web API (a server bounds its own memory)."""

    book: bool = option(True, SearchOption(
        "switch", "do not answer from an opening book: search even a position that an "
        "installed book covers (docs/solving.md, 'Opening books')", flag="--no-book",
        algorithms=frozenset({ENGINE})))
    """Answer a position that an installed opening book covers from the book: its exact
    values, 0 nodes searched, the result's :attr:`~gametree.SearchResult.source` ``book``
    (:mod:`gametree.books`). The engine only, for searches scored by distance and not weak
    (the book stores distances) and not traced; ``False``: always search."""

    line: bool = option(True, SearchOption(
        "switch", "report the best move without the line after it: spares the searches "
        "that find the line (a book's frontier stores no line)", flag="--no-line",
        algorithms=frozenset({ENGINE}),
        refusal="{line} is an option of the engine: {name} finds its line as it searches"))
    """Find the principal variation (:attr:`~gametree.SearchResult.pv`) beyond the best move.
    ``False`` (the engine only): the result's line is the best move alone, and the searches
    that would confirm the rest of it are not run (7-8% of an exact solve 8 plies into
    Connect Four 7x6); the value, best move and every root move's value are the same."""

    def __post_init__(self) -> None:
        checks = _CHECKS.get(type(self)) or _checks_of(type(self))
        values = self.__dict__
        for name, default, check in checks.values:
            value = values[name]
            if value is not default:
                check(value)
        algorithm = self.algorithm
        if algorithm not in checks.takes_all:
            for declaration in checks.refusing:
                if declaration.takes(algorithm):
                    continue
                value = values[declaration.name]
                if declaration.is_given(value):
                    raise OptionError(str(declaration.refusal), name=algorithm, count=value)
        self._check_combination()

    @property
    def budgeted(self) -> bool:
        """True if a depth, time or node budget is given (without one, the game is solved to
        its end)."""
        return self.depth is not None or self.time is not None or self.nodes is not None

    def _check_combination(self) -> None:
        """The checks that concern more than one option."""
        if self.weak and self.budgeted:
            raise OptionError("{weak} proves the result of the game: it takes no {depth}, "
                              "{time} or {nodes}")
        if self.tier == "compiled" and self.algorithm != ENGINE:
            raise OptionError("{compiled}: the compiled tier runs the engine, not {algorithm} "
                              "{name}", name=self.algorithm)
        if self.tier != "auto":
            refused = tier_refusal(self, self.tier)
            if refused is not None:
                raise refused
        if self.table_memory is not None and \
                self.tuning.table_bits != DEFAULT_TUNING.table_bits:
            raise OptionError("{table_memory} and the tuning's table_bits both size the "
                              "table: give one")
        if self.tier == "compiled" and self.tuning.python_only:
            raise OptionError("{compiled}: the compiled tier has none of the Python engine's "
                              "tuning settings but table_bits")


OPTION_NAMES: Mapping[str, str] = option_names("python")
"""How :class:`OptionError` messages name the options in Python (a front-end passes its own
names to :meth:`OptionError.text`: the command line says ``--fail-hard``)."""
