"""Mistakes in a kernel's rules, found before the engine is compiled and told in one line.

numba reports a rule it cannot compile with a long traceback that points into the generated
engine, after the engine has started compiling. gametree checks the rules first, when a
kernel is about to be compiled (never when it is loaded from the cache), and raises one
:class:`KernelError` that names the rule and says how to fix it:

1. :func:`check_python_rules`, no compiler involved: every rule takes the parameters the
   engine passes (``moves(state, out)``, ``play(state, move)``...), and the plain Python rules,
   called on the initial state, return what they must (an int, not ``None``; a state like the
   initial one) without raising;
2. :func:`check_compiled_rules`: each rule is compiled on its own, with the argument types
   the engine gives it, so that a failure belongs to one rule (a plain helper that is not
   compiled, a list read from outside, a typing error), and the type it returns is checked
   (``None`` on some path, a state of the wrong shape);
3. :func:`engine_error`: whatever numba still refuses once the rules passed alone, in one
   line naming the rule when numba's message does.

Rules that pass are compiled once: the engine reuses the machine code of step 2.
"""

from __future__ import annotations

import inspect
import numbers
import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .kernel import (
    ALL_FUNCTIONS,
    NO_REPLY,
    ONGOING,
    SEVERAL_REPLIES,
    Kernel,
    KernelError,
    _is_dispatcher,
)

PARAMETERS: dict[str, tuple[str, ...]] = {
    "to_move": ("state",),
    "moves": ("state", "out"),
    "play": ("state", "move"),
    "outcome": ("state",),
    "evaluate": ("state",),
    "key": ("state",),
    "move_score": ("state", "move"),
    "can_win_next": ("state",),
    "non_losing_moves": ("state", "out"),
    "plies_left": ("state",),
    "mirror_key": ("state",),
    "upper_bound": ("state",),
    "enhanced_cutoffs": ("state",),
    "forced_reply": ("state",),
}
"""The parameters the engine passes to each rule."""

DUTIES: dict[str, str] = {
    "to_move": "return the player to move, 0 or 1",
    "moves": "write the legal moves into out[0], out[1], ... and return how many there are",
    "play": "return the state after the move",
    "outcome": "return ONGOING while the game goes on, else the result for player 0 "
               "(+1, -1 or 0)",
    "evaluate": "return an integer estimate of the state for player 0",
    "key": "return a unique integer for the position",
    "move_score": "return an integer ordering hint for the move (higher is tried first)",
    "can_win_next": "return True if the player to move can win at once",
    "non_losing_moves": "write the moves after which the opponent cannot win at once into "
                        "out[0], out[1], ... and return how many there are",
    "plies_left": "return the most plies the game can still last",
    "mirror_key": "return the key of the position's mirror image",
    "upper_bound": "return NO_UPPER_BOUND, 0 (a draw at best) or -k (a loss within k plies "
                   "at the latest)",
    "enhanced_cutoffs": "return True where the children are worth looking up in the table",
    "forced_reply": "return the one non-losing move, NO_REPLY (none) or SEVERAL_REPLIES",
}
"""What each rule must do, as the messages say it."""

_COUNTING = ("moves", "non_losing_moves")


def _where(filename: str | None, line: int | None) -> str:
    """`` (file.py, line 12)``, or nothing if the place is unknown."""
    if not filename or line is None:
        return ""
    return f" ({Path(filename).name}, line {line})"


def _defined_at(function: Any) -> str:
    """Where ``function`` is defined, as :func:`_where` gives it."""
    code = getattr(getattr(function, "py_func", function), "__code__", None)
    if code is None:
        return ""
    return _where(code.co_filename, code.co_firstlineno)


def _state_text(state: Any) -> str:
    return repr(state if isinstance(state, int) else tuple(state))


# -- 1. parameters, and the plain rules on the initial state ---------------------------------


def check_python_rules(kernel: Kernel) -> None:
    """Raise a :class:`KernelError` if a rule takes the wrong parameters, or a plain Python
    rule fails or returns the wrong kind of value on the initial state.

    Rules compiled with numba, and plain ones that call compiled helpers, are not called here
    (that would compile them); :func:`check_compiled_rules` checks those.
    """
    rules = kernel.python_rules()
    for name in ALL_FUNCTIONS:
        if name in rules:
            _check_parameters(kernel, name, rules[name])
    _InitialState(kernel, rules).check()


def _check_parameters(kernel: Kernel, name: str, function: Any) -> None:
    target = getattr(function, "py_func", function)
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):  # not introspectable (a builtin): numba will tell
        return
    try:
        signature.bind(*PARAMETERS[name])
    except TypeError:
        mine = ", ".join(signature.parameters)
        wanted = ", ".join(PARAMETERS[name])
        raise KernelError(
            f"kernel {kernel.name}: the rule {name} must take ({wanted}), yours takes "
            f"({mine}): {name} must {DUTIES[name]}{_defined_at(function)}") from None


class _Skipped:
    """Stands for the result of a rule that was not called."""


_SKIPPED = _Skipped()


class _InitialState:
    """The plain rules called on the initial state, in the order the engine calls them."""

    def __init__(self, kernel: Kernel, rules: Mapping[str, Any]) -> None:
        self.kernel = kernel
        self.rules = rules
        self.state = kernel.initial_state

    def call(self, name: str, *args: Any) -> Any:
        """``rules[name](*args)``, or :data:`_SKIPPED` if the rule is absent or compiled."""
        function = self.rules.get(name)
        if function is None or _reaches_compiled(function):
            return _SKIPPED
        try:
            return function(*args)
        except Exception as error:  # any failure of the user's rule is reported
            raise KernelError(self._failure(name, function, error)) from None

    def _failure(self, name: str, function: Any, error: Exception) -> str:
        import traceback  # noqa: PLC0415 - only for a failing rule (with textwrap: 1.5 ms)

        frames = traceback.extract_tb(error.__traceback__)[1:]  # drop this module's frame
        where = _where(frames[-1].filename, frames[-1].lineno) if frames else ""
        hint = ""
        if name in _COUNTING and isinstance(error, IndexError):
            hint = (f"; out has max_moves = {self.kernel.max_moves} slots: is max_moves "
                    "large enough?")
        return (f"kernel {self.kernel.name}: the rule {name} failed on the initial state "
                f"{_state_text(self.state)} with {type(error).__name__}: {error}{where}{hint}")

    def wrong(self, name: str, value: Any, wanted: str) -> KernelError:
        """The error for ``name`` returning ``value`` where ``wanted`` was due."""
        missing = "; is a return statement missing?" if value is None else ""
        return KernelError(
            f"kernel {self.kernel.name}: the rule {name} returned {value!r} on the initial "
            f"state {_state_text(self.state)}: it must {wanted}{missing}"
            f"{_defined_at(self.rules[name])}")

    def integer(self, name: str, *args: Any, wanted: str | None = None) -> Any:
        """Call ``name`` and insist on an integer result (bool included)."""
        value = self.call(name, *args)
        if value is not _SKIPPED and not _integral(value):
            raise self.wrong(name, value, wanted or DUTIES[name])
        return value

    def count(self, name: str) -> tuple[Any, Any]:
        """Call a move generator (``moves``, ``non_losing_moves``) and check its count."""
        import numpy as np  # noqa: PLC0415 - numpy comes with numba, only when compiling

        out = np.zeros(self.kernel.max_moves, dtype=np.int64)  # what the engine passes
        value = self.integer(name, self.state, out)
        if value is not _SKIPPED and not 0 <= value <= self.kernel.max_moves:
            raise self.wrong(name, value, f"{DUTIES[name]}: from 0 to max_moves "
                                          f"({self.kernel.max_moves})")
        return value, out

    def check(self) -> None:
        """Run every rule the engine would run first, checking each result."""
        state = self.state
        mover = self.integer("to_move", state)
        if mover is not _SKIPPED and mover not in (0, 1):
            raise self.wrong("to_move", mover, DUTIES["to_move"])
        utility = self.integer("outcome", state)
        self.integer("evaluate", state)
        self.integer("key", state)
        left = self.integer("plies_left", state)
        if left is not _SKIPPED and left < 0:
            raise self.wrong("plies_left", left, DUTIES["plies_left"])
        if utility is not _SKIPPED and utility != ONGOING:
            return  # finished at once: nothing else is called on it
        count, out = self.count("moves")
        if count is not _SKIPPED and count > 0:
            move = int(out[0])
            child = self.call("play", state, move)
            if child is not _SKIPPED and not _same_shape(child, state):
                raise self.wrong("play", child, f"return the state after the move, "
                                                f"{_shape_text(state)} like the initial state")
            self.integer("move_score", state, move)
        winning = self.call("can_win_next", state)
        if winning is not _SKIPPED and not _integral(winning):
            raise self.wrong("can_win_next", winning, DUTIES["can_win_next"])
        if not winning:
            count, out = self.count("non_losing_moves")
            reply = self.integer("forced_reply", state)
            if reply is not _SKIPPED and count is not _SKIPPED and \
                    reply != forced_reply_of(count, out):
                raise self.wrong("forced_reply", reply,
                                 f"{DUTIES['forced_reply']}, as non_losing_moves gives "
                                 f"{count} move(s) here")


def forced_reply_of(count: int, moves: Any) -> int:
    """What ``forced_reply`` must return where ``non_losing_moves`` wrote ``count`` moves into
    ``moves``."""
    if count == 0:
        return NO_REPLY
    return int(moves[0]) if count == 1 else SEVERAL_REPLIES


def _integral(value: Any) -> bool:
    """True for an integer or a truth value, Python's or numpy's."""
    import numpy as np  # noqa: PLC0415 - numpy comes with numba, only when compiling

    return isinstance(value, (numbers.Integral, np.bool_))


def _same_shape(value: Any, state: Any) -> bool:
    """True if ``value`` is a state of the same form as ``state`` (an int; a tuple of as many
    ints)."""
    if isinstance(state, int):
        return _integral(value)
    return (isinstance(value, tuple) and len(value) == len(state)
            and all(_integral(part) for part in value))


def _shape_text(state: Any) -> str:
    if isinstance(state, int):
        return "an integer"
    return f"a tuple of {len(state)} integers"


def _referenced(function: Any) -> Iterator[Any]:
    """The values that ``function``'s code (nested functions and comprehensions included)
    reads from its closure and its module."""
    code = function.__code__
    codes = [code]
    while codes:
        current = codes.pop()
        codes.extend(const for const in current.co_consts if inspect.iscode(const))
        for name in current.co_names:
            if name in function.__globals__:
                yield function.__globals__[name]
    for cell in function.__closure__ or ():
        try:
            yield cell.cell_contents
        except ValueError:  # an empty cell
            continue


def _reaches_compiled(function: Any) -> bool:
    """True if calling ``function`` from Python would run (so compile) numba code: it is a
    compiled function, or calls one, directly or through plain helpers."""
    todo, seen = [function], set()
    while todo:
        current = todo.pop()
        if _is_dispatcher(current):
            return True
        if id(current) in seen or not inspect.isfunction(current):
            continue
        seen.add(id(current))
        todo.extend(_referenced(current))
    return False


# -- 2. each rule compiled alone ---------------------------------------------------------------


def check_compiled_rules(kernel: Kernel, bound: Mapping[str, Any]) -> None:
    """Compile each rule the kernel gives on its own, with the engine's argument types, and
    check the type it returns; raise one :class:`KernelError` for the first that fails.

    ``bound`` is the generated module's binding (:func:`gametree.compiled.build.binding`): the
    rules as ``k_<name>`` dispatchers, and the state's numba type as ``STATE_TYPE``.
    """
    from numba import types  # noqa: PLC0415 - only when compiling
    from numba.core.errors import NumbaError  # noqa: PLC0415

    state = bound["STATE_TYPE"]
    out = types.Array(types.int64, 1, "C")
    arguments = {"state": state, "out": out, "move": types.int64}
    given = kernel.python_rules()
    for name in ALL_FUNCTIONS:
        if name not in given:
            continue
        dispatcher = bound[f"k_{name}"]
        signature = tuple(arguments[parameter] for parameter in PARAMETERS[name])
        try:
            dispatcher.compile(signature)
        except (NumbaError, TypeError) as error:
            if _allocates(dispatcher, signature):
                raise KernelError(
                    f"kernel {kernel.name}: the rule {name} allocates memory (it makes a numpy "
                    "array, a list or a string while it runs), which the compiled engine does "
                    "not allow: it compiles the rules without numba's reference counting, as "
                    f"it searches without allocating; write into the buffer it passes (out) "
                    f"or use tuples{_defined_at(dispatcher)}") from None
            raise KernelError(rule_error(kernel, name, dispatcher, error)) from None
        returned = dispatcher.overloads[signature].signature.return_type
        problem = _return_problem(name, returned, kernel.initial_state, types)
        if problem is not None:
            raise KernelError(f"kernel {kernel.name}: the rule {name} {problem}"
                              f"{_defined_at(dispatcher)}")


def _allocates(dispatcher: Any, signature: tuple[Any, ...]) -> bool:
    """Whether a rule compiled without numba's reference counting failed for that alone: it
    compiles with them (a numpy array, a list or a string made inside needs them)."""
    import numba  # noqa: PLC0415 - only when compiling
    from numba.core.errors import NumbaError  # noqa: PLC0415

    options = dict(dispatcher.targetoptions)
    if options.pop("_nrt", True):
        return False
    options.pop("nopython", None)
    options.pop("cache", None)
    try:
        numba.njit(**options)(dispatcher.py_func).compile(signature)
    except (NumbaError, TypeError):
        return False
    return True


def _return_problem(name: str, returned: Any, state: Any, types: Any) -> str | None:
    """What is wrong with ``name`` returning the numba type ``returned``, or ``None``."""
    if isinstance(returned, types.NoneType):
        return (f"never returns a value (None): it must {DUTIES[name]}; is a return "
                "statement missing?")
    if isinstance(returned, types.Optional):
        return (f"returns None on some path (one that ends without a return statement): it "
                f"must {DUTIES[name]} on every path")
    integral = (types.Integer, types.Boolean)
    if name == "play":
        if isinstance(state, int):
            fits = isinstance(returned, integral)
        else:
            fits = (isinstance(returned, types.BaseTuple) and len(returned) == len(state)
                    and all(isinstance(part, integral) for part in returned))
        if not fits:
            return (f"returns {returned} when compiled: it must return the state after the "
                    f"move, {_shape_text(state)} like the initial state")
        return None
    if not isinstance(returned, integral):
        return f"returns {returned} when compiled: it must {DUTIES[name]} (an integer)"
    return None


_UNTYPED = re.compile(r"Untyped global name '(?P<name>[^']+)': Cannot determine Numba type "
                      r"of <class '(?P<kind>[^']+)'>")
_MODULE_ATTRIBUTE = re.compile(r"Unknown attribute '(?P<name>[^']+)' of type "
                               r"Module\(<module '(?P<module>[^']+)'")
_REFLECTED = re.compile(r"reflected (?P<kind>list|set)\(.*assigned to variable '(?P<name>[^']+)'")
_FREE_LIST = re.compile(r"(?:freevar|global)\((?P<name>\w+): (?P<kind>[\[{])")
_LOCATION = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')
_HELPERS = ("function", "builtin_function_or_method", "method", "functools.partial")
_NOISE = ("Failed in nopython mode pipeline", "During:", ">>>")


_TERMINAL_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def numba_text(error: BaseException) -> str:
    """numba's message in ``error`` without the colour codes it adds when colorama is
    installed (they would reach the user's one-line message and the parsing below)."""
    return _TERMINAL_ESCAPE.sub("", str(error))


def rule_error(kernel: Kernel, name: str, function: Any, error: Exception) -> str:
    """One line for numba's ``error`` in compiling the rule ``name`` (``function``)."""
    text = numba_text(error)
    where = _numba_location(text) or _defined_at(function)
    rule = f"kernel {kernel.name}: the rule {name}"
    untyped = _UNTYPED.search(text)
    if untyped is not None:
        used, kind = untyped.group("name"), untyped.group("kind")
        if kind in _HELPERS:
            fix = ("with @jit (the rules factory's jit argument), as the rules are"
                   if kernel.factory is not None else "with @numba.njit")
            return (f"{rule} calls {used}, a plain Python function that is not compiled: "
                    f"decorate {used} {fix}{where}")
        return (f"{rule} reads {used}, {_article(kind)} which compiled code cannot use: "
                f"use numbers, tuples of numbers or numpy arrays instead{where}")
    attribute = _MODULE_ATTRIBUTE.search(text)
    if attribute is not None:
        return _module_attribute_error(rule, attribute["module"], attribute["name"], where)
    reflected = _REFLECTED.search(text) or _FREE_LIST.search(text)
    if reflected is not None:
        used, kind = reflected.group("name"), reflected.group("kind")
        kind = {"[": "list", "{": "dict or set"}.get(kind, kind)
        return (f"{rule} reads {used}, a {kind}, which compiled code cannot use: make it a "
                f"tuple (or a numpy array){where}")
    return f"{rule} cannot be compiled: {first_line(text)}{where}"


def _module_attribute_error(rule: str, module_name: str, name: str, where: str) -> str:
    """The message for ``module.name`` in a rule, which numba could not type."""
    used = f"{module_name}.{name}"
    found = getattr(sys.modules.get(module_name), name, None)
    if inspect.isfunction(found):
        return (f"{rule} calls {used}, a plain Python function that is not compiled: "
                f"decorate {name} with @numba.njit in {module_name}{where}")
    if found is None:
        return f"{rule} uses {used}, which does not exist{where}"
    return (f"{rule} uses {used}, which compiled code cannot use: call a function compiled "
            f"with @numba.njit, or one numba supports (numba's documentation lists the "
            f"supported parts of math, numpy and the standard library){where}")


def _article(kind: str) -> str:
    short = kind.rpartition(".")[2]
    if kind in ("dict", "list", "set", "str", "module", "type"):
        return f"a {short},"
    return f"{'an' if short[:1].lower() in 'aeiou' else 'a'} {short} object,"


def _numba_location(text: str) -> str:
    """The first place in the user's code that numba's message points at (not the generated
    engine's)."""
    for found in _LOCATION.finditer(text):
        if "_gametree_engine_" not in found.group("file"):
            return _where(found.group("file"), int(found.group("line")))
    return ""


def first_line(text: str) -> str:
    """The line of a numba message that says what is wrong (with the signature it could not
    match, when there is one)."""
    lines = [line.strip() for line in text.splitlines()]
    for index, line in enumerate(lines):
        if not line or line.startswith(_NOISE):
            continue
        if line.endswith("found for signature:"):
            following = [other for other in lines[index + 1:] if other]
            if following and following[0].startswith(">>>"):
                return f"{line} {following[0].removeprefix('>>>').strip()}"
        return line
    return text.strip()


# -- 3. the engine itself ----------------------------------------------------------------------


def engine_error(kernel: Kernel, bound: Mapping[str, Any], error: Exception) -> KernelError:
    """numba's ``error`` in compiling the engine of ``kernel`` once its rules compiled alone,
    as one :class:`KernelError`: about the rule numba was typing, when its message names one."""
    text = numba_text(error)
    rules = {name: bound[f"k_{name}"] for name in ALL_FUNCTIONS if f"k_{name}" in bound}
    for found in re.finditer(r"<function (?P<qualname>[\w.<>]+) at 0x", text):
        for name, function in rules.items():
            if getattr(function, "py_func", function).__qualname__ == found.group("qualname"):
                return KernelError(rule_error(kernel, name, function, error))
    return KernelError(f"kernel {kernel.name}: the engine cannot be compiled with its rules: "
                       f"{first_line(text)}{_numba_location(text)}")


def is_numba_error(error: BaseException) -> bool:
    """True for the errors numba raises when it cannot compile something."""
    from numba.core.errors import NumbaError  # noqa: PLC0415 - only when compiling

    return isinstance(error, NumbaError)

