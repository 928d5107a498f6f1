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

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Literal

from .algorithms import ALGORITHMS, ENGINE
from .engine.limits import Limits

TierChoice = Literal["auto", "python", "compiled"]
"""Which tier to search on: ``auto`` (the compiled one when the game has a kernel and the
options allow it), or ``python`` / ``compiled`` to insist."""

TIERS: tuple[TierChoice, ...] = ("auto", "python", "compiled")

DEFAULT_TABLE_BITS = 22
"""The compiled tier's table size by default: ``2**22`` entries of 16 bytes (64 MiB)."""

MAX_THREADS = 64
"""The most threads a search may be given (:attr:`SearchOptions.threads`); the compiled
engine's own limit (``gametree.compiled.engine.MAX_THREADS``) is the same."""


OPTION_NAMES: Mapping[str, str] = {
    "algorithm": "algorithm", "depth": "depth", "time": "time", "nodes": "nodes",
    "weak": "weak", "exact_root": "exact_root", "seed": "seed", "tier": "tier",
    "fail_hard": "fail_soft=False", "tuning": "tuning", "compiled": "tier='compiled'",
    "threads": "threads",
}
"""How :class:`OptionError` messages name the options in Python (a front-end passes its own
names to :meth:`OptionError.text`: the command line says ``--fail-hard``)."""


class OptionError(ValueError):
    """Options that cannot go together, or that cannot search a game; the message names the
    options at fault in the words of whoever reads it (:meth:`text`)."""

    def __init__(self, template: str, **details: object) -> None:
        self.template = template
        """The message with ``{option}`` placeholders (keys of :data:`OPTION_NAMES`)."""
        self.details = details
        super().__init__(self.text(OPTION_NAMES))

    def text(self, names: Mapping[str, str]) -> str:
        """The message with the options called by ``names``."""
        return self.template.format(**names, **self.details)


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


@dataclass(frozen=True)
class SearchOptions:
    """Everything a search can be asked, for any algorithm and either tier.

    Budgets: ``depth`` (plies, then the game's heuristic), ``time`` (seconds) and ``nodes``;
    the answer is that of the deepest search completed. Without any, the game is solved to
    its end.
    """

    algorithm: str = ENGINE
    """``engine`` (the fast search, default), or a reference algorithm: ``minimax``,
    ``alphabeta``, ``negamax`` (:mod:`gametree.algorithms`)."""

    depth: int | None = None
    """Plies to look ahead; ``None`` searches to the end of the game."""

    time: float | None = None
    """Seconds for the whole search. The engine keeps it itself; the reference algorithms
    cannot stop half-way and keep it by iterative deepening, approximately."""

    nodes: int | None = None
    """The most positions to visit (the engine only)."""

    by_distance: bool = True
    """Score wins and losses by their distance (a quick win beats a slow one); ``False``:
    plain values, as the game's ``outcome`` gives them."""

    weak: bool = False
    """Prove only win, draw or loss (values 1, 0, -1): often faster. The engine only, to the
    end of the game."""

    exact_root: bool = False
    """Give every root move its exact value, not just a bound (``analyze``)."""

    seed: int | None = None
    """Break ties between equally good moves at random from this seed (implies
    :attr:`exact_root`); ``None``: the first best move in move order."""

    fail_soft: bool = True
    """``alphabeta`` only: ``False`` returns window bounds at pruned nodes (seed 004)."""

    tier: TierChoice = "auto"
    """Where to search: ``auto``, ``python`` or ``compiled`` (see :data:`TierChoice`)."""

    tuning: EngineTuning = field(default=DEFAULT_TUNING)
    """How the engine is built (the engine only)."""

    threads: int = 1
    """Threads searching one position, sharing one transposition table (the compiled tier
    only; ``0``: every core). They speed up solves to the end of the game (strong or weak);
    depth-limited and budgeted searches run on one thread. The value, outcome, distance and
    best move are those of one thread; node counts, summed over the threads, vary from run
    to run. More than one thread on a game or options the compiled tier cannot search is an
    error; ``0`` there means one thread."""

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {self.algorithm!r}; algorithms: "
                             f"{', '.join(ALGORITHMS)}")
        Limits(self.depth, self.nodes, self.time)  # the limits' own checks
        for name in ("by_distance", "weak", "exact_root", "fail_soft"):
            _check_flag(name, getattr(self, name))
        seed = self.seed
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"seed must be a whole number or None, got {seed!r}")
        if self.tier not in TIERS:
            raise ValueError(f"tier must be one of {', '.join(TIERS)}, got {self.tier!r}")
        if not isinstance(self.tuning, EngineTuning):
            raise ValueError(f"tuning must be an EngineTuning, got {self.tuning!r}")
        threads = self.threads
        if isinstance(threads, bool) or not isinstance(threads, int) or \
                not 0 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be a whole number within 0..{MAX_THREADS} "
                             f"(0: every core), got {threads!r}")
        self._check_combination()

    def _check_combination(self) -> None:
        algorithm = self.algorithm
        engine = algorithm == ENGINE
        if self.weak and not engine:
            raise OptionError("{weak} needs the engine, not {name}", name=algorithm)
        if self.weak and (self.depth is not None or self.time is not None
                          or self.nodes is not None):
            raise OptionError("{weak} proves the result of the game: it takes no {depth}, "
                              "{time} or {nodes}")
        if self.nodes is not None and not engine:
            raise OptionError("{nodes} needs the engine: {name} cannot stop half-way",
                              name=algorithm)
        if not self.fail_soft and algorithm != "alphabeta":
            raise OptionError("{fail_hard} is an option of alphabeta, not {name}",
                              name=algorithm)
        if self.tuning != DEFAULT_TUNING and not engine:
            raise OptionError("{tuning} does not apply to {name}", name=algorithm)
        if self.tier == "compiled" and not engine:
            raise OptionError("{compiled}: the compiled tier runs the engine, not {algorithm} "
                              "{name}", name=algorithm)
        if self.threads > 1 and not engine:
            raise OptionError("{threads}={count} needs the compiled engine, not {name}",
                              count=self.threads, name=algorithm)
        if self.threads > 1 and self.tier == "python":
            raise OptionError("{threads}={count} needs the compiled tier: the Python tier "
                              "searches on one thread", count=self.threads)
        if self.tier == "compiled" and self.tuning.python_only:
            raise OptionError("{compiled}: the compiled tier has none of the Python engine's "
                              "tuning settings but table_bits")
