"""Kernel games: a game's rules as small functions over a fixed-size state, compiled by numba.

A *kernel* is the compiled form of a game. Its state is an integer (a bitboard, a heap size) or
a tuple of a few integers; its rules are plain functions of that state, written in the subset
of Python that numba compiles (integers, arithmetic, bit operations, loops, small arrays). The
compiled engine (:mod:`gametree.compiled.engine`) searches it at native speed, and
:class:`gametree.compiled.KernelGame` turns it back into an ordinary :class:`gametree.Game`, so
a kernel game can be played, counted and solved like any other.

The functions (``state`` is the kernel state, ``out`` an int64 array of ``max_moves`` slots):

Required
    ``to_move(state) -> int``: the player to move, 0 or 1 (defined on finished states too).
    ``moves(state, out) -> int``: write the legal moves (integers) into ``out[0..n)`` in the
    order to try them, return ``n``. Called only on states that are not finished.
    ``play(state, move) -> state``: the state after ``move``.
    ``outcome(state) -> int``: :data:`ONGOING` while the game goes on; once it is over, the
    utility for player 0 (positive: player 0 won, negative: lost, 0: a draw).

Optional (each has a sensible default)
    ``evaluate(state) -> int``: a heuristic for player 0 within ``±HEURISTIC_LIMIT`` (default 0).
    ``key(state) -> int``: a unique integer identity for the transposition table (default: the
    state itself when it is an integer; without it, tuple states get no table).
    ``move_score(state, move) -> int``: a move-ordering hint, higher first (stable: ties keep
    the order of ``moves``).

Threat hooks (optional, all three or none; they let the engine solve like Pascal Pons' Connect
Four solver — see docs/kernels.md for the exact promises they make)
    ``can_win_next(state) -> bool``: the player to move has a move that wins at once.
    ``non_losing_moves(state, out) -> int``: like ``moves``, but only the moves after which the
    opponent cannot win at once; called only when ``can_win_next`` is false.
    ``plies_left(state) -> int``: the most plies the game can still last.

Solving hooks (optional, each alone; docs/kernels.md, "Whole-board solving hooks")
    ``mirror_key(state) -> int``: ``key`` of the state's mirror image (a position of the same
    value), so that both images share one table entry. Needs ``key``.
    ``upper_bound(state) -> int``: what the player to move can get at most, known without a
    search: :data:`NO_UPPER_BOUND` (nothing known), 0 (a draw at best) or ``-k`` (a loss
    within ``k`` plies at the latest). Needs the threat hooks.
    ``enhanced_cutoffs(state) -> bool``: look every child up in the table before searching
    any (worth it where subtrees are large; the engine asks only once a search has visited
    a few thousand positions, when the table holds enough to find). Needs the threat hooks.
    ``forced_reply(state) -> int``: what ``non_losing_moves`` would give, when the engine
    plays out forced lines: the one move when there is exactly one, :data:`NO_REPLY` when
    there is none, :data:`SEVERAL_REPLIES` when there are more (neither is ever a move);
    called only when ``can_win_next`` is false. Saves writing the list. Needs the threat
    hooks.

A kernel is usually written as a *rules factory*: a function that takes the game's parameters
and a ``jit`` decorator and returns its rules. Called with ``jit=plain`` it gives ordinary Python
functions (what :class:`KernelGame` uses, with no compiler involved); the engine calls it with
``numba.njit``. Parameters become constants of the compiled code, as a C programmer's
``#define`` would. Functions already compiled with ``numba.njit`` are accepted as well. A
function the search calls for every move it looks at may be marked ``@jit(inline="always")``
(numba's option, which ``plain`` ignores): numba then writes its body into the search instead
of a call, which LLVM leaves as a call once a function is larger than a few dozen instructions.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ONGOING: int = -(2**62)
"""What ``outcome`` returns while the game goes on (no utility can be this value)."""

REQUIRED: tuple[str, ...] = ("to_move", "moves", "play", "outcome")
"""The functions every kernel has."""

OPTIONAL: tuple[str, ...] = ("evaluate", "key", "move_score")
"""Functions a kernel may add; the engine has defaults for them."""

THREAT_HOOKS: tuple[str, ...] = ("can_win_next", "non_losing_moves", "plies_left")
"""The hooks of Pons-style solving: all three, or none (``plies_left`` may come alone)."""

SOLVER_HOOKS: tuple[str, ...] = ("mirror_key", "upper_bound", "enhanced_cutoffs",
                                  "forced_reply")
"""Whole-board solving hooks (each optional, see docs/kernels.md): ``mirror_key`` needs
``key``; ``upper_bound``, ``enhanced_cutoffs`` and ``forced_reply`` need the threat hooks."""

NO_UPPER_BOUND: int = ONGOING
"""What ``upper_bound`` returns when it knows no bound."""

NO_REPLY: int = ONGOING
"""What ``forced_reply`` returns when the player to move has no non-losing move."""

SEVERAL_REPLIES: int = ONGOING + 1
"""What ``forced_reply`` returns when the player to move has more than one non-losing move."""

ALL_FUNCTIONS: tuple[str, ...] = REQUIRED + OPTIONAL + THREAT_HOOKS + SOLVER_HOOKS

Rules = Mapping[str, Callable[..., Any]]
"""A kernel's functions by name."""


def plain(function: Callable[..., Any] | None = None, /, **options: Any) -> Any:
    """The ``jit`` of a rules factory that compiles nothing: the Python function itself.

    Like ``numba.njit`` it may be given options first (``@jit(inline="always")``); they only
    matter to a compiler, so here they change nothing."""
    if function is None:
        return plain
    return function


class KernelError(ValueError):
    """A kernel description that the engine cannot use (a missing function, a bad size)."""


@dataclass(frozen=True)
class Kernel:
    """A game's rules as compiled functions, with what the engine needs to know about them.

    Build one from a rules factory with :meth:`from_factory`, or from functions with
    :meth:`from_functions`. Nothing is compiled until an engine is made
    (:class:`gametree.compiled.CompiledEngine`, as :func:`gametree.search` does).
    """

    name: str
    """A short name for messages (``connect4 7x6``) and for the cache files."""

    initial_state: Any
    """The state the game starts in: an ``int`` or a tuple of ``int``."""

    max_moves: int
    """The most legal moves any state has (the size of a move buffer)."""

    max_plies: int
    """The most plies a game can last from the initial state (the engine's recursion limit;
    a search reaching it values the state by ``evaluate``)."""

    factory: Callable[..., Rules] | None = None
    """The rules factory, called as ``factory(jit=..., **parameters)``; or ``None``."""

    parameters: Mapping[str, Any] = field(default_factory=dict)
    """The factory's parameters (board size, rule set): part of the cache identity."""

    functions: Rules | None = None
    """The rules given directly (numba-compiled or plain functions), when there is no factory."""

    alternating: bool = True
    """True if the players always alternate (no move leaves the same player to move)."""

    winner_moves_last: bool = False
    """True if a finished game is always won by the player who made the last move (or drawn):
    no move ever loses for the player who makes it. True for Connect Four, tic-tac-toe,
    normal-play Nim and subtraction games; false for misère games. The threat hooks require
    it, and with ``alternating`` it lets exact solving step two plies at a time, as Pons'
    scores do."""

    table_min_plies_left: int = 0
    """Positions with fewer plies left than this (by the ``plies_left`` hook, which it needs)
    are searched without the transposition table: neither looked up nor stored. Near the end
    of a game a probe (a trip to main memory, the table being far larger than the caches)
    can cost more than the few positions it saves; Connect Four sets 10 (its empty boards
    solved 6-17% sooner, see docs/kernels.md). 0, the default: every position uses the
    table. Values are the same either way; node counts differ."""

    player_names: tuple[str, str] = ("first player", "second player")
    """How to call players 0 and 1 (for :class:`KernelGame`)."""

    format_move: Callable[[Any, int], str] | None = None
    """``format_move(state, move)``: a move as text for people (default: ``str(move)``)."""

    render: Callable[[Any], str] | None = None
    """``render(state)``: the state drawn as text (default: ``repr``)."""

    def __post_init__(self) -> None:
        if (self.factory is None) == (self.functions is None):
            raise KernelError("a kernel needs either a rules factory or its functions")
        if self.max_moves < 1 or self.max_moves > 250:
            raise KernelError(f"max_moves must be within 1..250, got {self.max_moves}")
        if self.max_plies < 1:
            raise KernelError(f"max_plies must be at least 1, got {self.max_plies}")
        state = self.initial_state
        if not is_state(state):
            raise KernelError("a kernel state is an int or a non-empty tuple of ints, "
                              f"got {state!r}")
        names = set(self.python_rules())
        missing = [name for name in REQUIRED if name not in names]
        if missing:
            raise KernelError(f"kernel {self.name} lacks {', '.join(missing)}")
        unknown = sorted(names - set(ALL_FUNCTIONS))
        if unknown:
            raise KernelError(f"kernel {self.name}: unknown function(s) {', '.join(unknown)}; "
                              f"known: {', '.join(ALL_FUNCTIONS)}")
        hooks = [name for name in ("can_win_next", "non_losing_moves") if name in names]
        if hooks and not self.has_threat_hooks:
            raise KernelError(f"kernel {self.name}: the threat hooks come together "
                              f"({', '.join(THREAT_HOOKS)}); it has only {', '.join(hooks)}")
        for hook in ("upper_bound", "enhanced_cutoffs", "forced_reply"):
            if hook in names and not self.has_threat_hooks:
                raise KernelError(f"kernel {self.name}: {hook} needs the threat hooks "
                                  f"({', '.join(THREAT_HOOKS)})")
        if "mirror_key" in names and "key" not in names and self.state_size != 0:
            raise KernelError(f"kernel {self.name}: mirror_key needs key")
        if self.table_min_plies_left < 0:
            raise KernelError(f"kernel {self.name}: table_min_plies_left must be at least 0, "
                              f"got {self.table_min_plies_left}")
        if self.table_min_plies_left and "plies_left" not in names:
            raise KernelError(f"kernel {self.name}: table_min_plies_left needs the plies_left "
                              "function")
        if self.has_threat_hooks and not self.winner_moves_last:
            raise KernelError(f"kernel {self.name}: the threat hooks need a game whose "
                              "winner always made the last move (winner_moves_last=True)")

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def from_factory(cls, name: str, factory: Callable[..., Rules], *, initial_state: Any,
                     max_moves: int, max_plies: int, **options: Any) -> Kernel:
        """A kernel whose rules come from ``factory(jit=..., **parameters)``.

        ``options`` are the other fields (``parameters``, ``alternating``, ``player_names``,
        ``format_move``, ``render``).
        """
        return cls(name=name, initial_state=initial_state, max_moves=max_moves,
                   max_plies=max_plies, factory=factory, **options)

    @classmethod
    def from_functions(cls, name: str, *, initial_state: Any, max_moves: int, max_plies: int,
                       functions: Rules, **options: Any) -> Kernel:
        """A kernel from its functions (numba-compiled with ``@numba.njit``, or plain Python
        functions, which the engine compiles; helpers they call must be compiled ones)."""
        return cls(name=name, initial_state=initial_state, max_moves=max_moves,
                   max_plies=max_plies, functions=dict(functions), **options)

    # -- the rules ---------------------------------------------------------------------------

    def python_rules(self) -> Rules:
        """The rules as Python callables (the factory's plain functions, or those given)."""
        cached = self.__dict__.get("_python_rules")
        if cached is None:
            if self.factory is not None:
                cached = dict(self.factory(jit=plain, **self.parameters))
            else:
                assert self.functions is not None
                cached = dict(self.functions)
            object.__setattr__(self, "_python_rules", cached)
        rules: Rules = cached
        return rules

    def compiled_rules(self, jit: Callable[..., Any]) -> Rules:
        """The rules compiled with ``jit`` (``numba.njit``): what the engine binds to."""
        if self.factory is not None:
            functions = dict(self.factory(jit=jit, **self.parameters))
        else:
            assert self.functions is not None
            functions = dict(self.functions)
        # Every function goes through ``jit``: one the factory did not decorate (a plain
        # module-level one it reuses) is compiled here, and one compiled elsewhere is compiled
        # again by the engine's isolating ``jit``. Helpers it calls must be compiled ones.
        return {name: jit(function) for name, function in functions.items()}

    @property
    def has_threat_hooks(self) -> bool:
        """True if the kernel has all three threat hooks."""
        names = set(self.python_rules())
        return all(name in names for name in THREAT_HOOKS)

    @property
    def state_size(self) -> int:
        """0 for an integer state, else the length of the state tuple."""
        state = self.initial_state
        return 0 if isinstance(state, int) else len(state)

    # -- identity for the cache --------------------------------------------------------------

    def identity(self) -> str | None:
        """A digest of everything the compiled code depends on, or ``None`` if some source
        cannot be read (a function typed at the interactive prompt): then nothing is cached.

        The source *files* of the factory or functions are hashed whole, so a change to a helper
        in the same file is noticed too (numba's own cache does not notice it: its invalidation
        only looks at the file of the function it compiles). So are the plain values the rules
        read from outside their code (:func:`_captured_data`), which may come from elsewhere:
        Connect Four's cell weights and tic-tac-toe's lines are computed by the Python games'
        modules. Computed once per kernel.
        """
        if "_identity" not in self.__dict__:
            object.__setattr__(self, "_identity", self._digest())
        identity: str | None = self.__dict__["_identity"]
        return identity

    def _digest(self) -> str | None:
        digest = hashlib.sha256()
        digest.update(repr((self.name, self.max_moves, self.max_plies, self.alternating,
                            self.winner_moves_last, self.state_size,
                            self.table_min_plies_left,
                            sorted(self.parameters.items()))).encode())
        roles: list[tuple[str, Any]] = [("factory", self.factory)] \
            if self.factory is not None else []
        if self.functions is not None:
            roles.extend((name, self.functions[name]) for name in sorted(self.functions))
        for role, obj in roles:
            text = _source_of(obj)
            if text is None or not _module_importable(obj):
                return None
            # Which function plays which role, not only the files they are in: two kernels of
            # one file that differ in a function (a key here, an evaluation there) differ.
            target = getattr(obj, "py_func", obj)
            named = f"{getattr(target, '__module__', '')}.{getattr(target, '__qualname__', '')}"
            digest.update(f"{role}={named}\n".encode())
            digest.update(text.encode())
        for value in _captured_data(self.python_rules().values()):
            digest.update(value.encode())
        return digest.hexdigest()[:16]


_DATA = (bool, int, float, str, bytes, tuple, frozenset)


def _captured_data(functions: Iterable[Any]) -> list[str]:
    """The plain values (numbers, strings, tuples) that ``functions`` and the functions they
    call read from closure cells and module globals, as sorted ``name=value`` texts.

    numba freezes such values into the machine code as constants, so they are part of what
    the compiled code depends on, wherever they were computed.
    """
    found: list[str] = []
    seen: set[int] = set()
    todo = [getattr(function, "py_func", function) for function in functions]
    while todo:
        function = todo.pop()
        code = getattr(function, "__code__", None)
        if code is None or id(function) in seen:
            continue
        seen.add(id(function))
        outside: list[tuple[str, Any]] = []
        for name, cell in zip(code.co_freevars, function.__closure__ or (), strict=True):
            with contextlib.suppress(ValueError):  # a cell not yet filled
                outside.append((name, cell.cell_contents))
        outside.extend((name, function.__globals__[name]) for name in code.co_names
                       if name in function.__globals__)
        for name, value in outside:
            if isinstance(value, _DATA):
                found.append(f"{function.__qualname__}.{name}={value!r}")
            else:
                todo.append(getattr(value, "py_func", value))  # kept if it is a function
    return sorted(found)


def is_state(state: Any) -> bool:
    """True for a kernel state: an ``int``, or a non-empty tuple of ``int`` (never ``bool``)."""
    if isinstance(state, bool):
        return False
    if isinstance(state, int):
        return True
    return (isinstance(state, tuple) and len(state) > 0
            and all(isinstance(part, int) and not isinstance(part, bool) for part in state))


def _is_dispatcher(function: Any) -> bool:
    """True for a numba-compiled function (it keeps the Python original as ``py_func``)."""
    return hasattr(function, "py_func")


def _module_importable(obj: Any) -> bool:
    """True if the module defining ``obj`` can be imported by name: numba's cached code names
    the module of every function compiled into it and imports it when it loads the code, so a
    function from an anonymous namespace (``exec``, a notebook cell's module that is not in
    ``sys.modules``) can be compiled but not cached."""
    name = getattr(getattr(obj, "py_func", obj), "__module__", None)
    return isinstance(name, str) and name in sys.modules


def _source_of(obj: Any) -> str | None:
    """The text of the file that defines ``obj`` (else its own source), or ``None``."""
    target = getattr(obj, "py_func", obj)
    try:
        filename = inspect.getsourcefile(target)
    except TypeError:
        filename = None
    if filename and Path(filename).is_file():
        return f"{filename}\n{Path(filename).read_text(encoding='utf-8')}"
    try:
        return inspect.getsource(target)
    except (OSError, TypeError):
        return None
