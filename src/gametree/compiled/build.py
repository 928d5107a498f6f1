"""Compiling a kernel game's engine, once: generated modules and numba's on-disk cache.

How numba caches (``cache=True``), and why gametree generates a module per kernel:

* numba keeps compiled code beside the *file* of each compiled function (``__pycache__``),
  indexed by the function's name and argument types, and trusts it as long as that file's
  timestamp and size are unchanged. Functions it calls are compiled *into* the caller's cached
  code, but their files are not checked (numba issues #8851, #9483): a changed kernel would
  silently keep its old machine code under a shared engine.
* Module globals are frozen into the compiled code as constants, and a function defined in a
  closure that captures another compiled function is recompiled in every new process (the
  captured function's identity differs each time: numba issue #6264). Passing kernel functions
  as arguments ("first-class functions") specialises per function but goes through function
  pointers that LLVM cannot inline.

* The machine code of a function and of everything it calls is kept under symbol names made of
  the function's module, its qualified name and a counter that restarts in every process. Two
  kernels of one rules factory (Connect Four 7x6 and 4x4) have closures of the same module and
  name, compiled in separate processes under the same counter: loaded into one process, both
  cached libraries define the same symbols, and whichever loads first answers for both.

So the engine template (``_engine.py``) is written out once per kernel, to a file whose name
carries a digest of the kernel's sources and parameters, the template and the numba version
(:meth:`Kernel.identity`). The kernel's functions are bound as globals of that module, so
numba inlines them into the search, and the file's own cache entries belong to that one kernel:
any change to the kernel gives a new file, hence a fresh compilation, never stale code. Every
function compiled for the kernel (its rules, their helpers, the defaults) is compiled as a
member of that module (:class:`Isolator`), so its symbols carry the kernel's digest too and no
two kernels' machine code can be confused, in memory or on disk.

The first use of a kernel in a fresh cache compiles every entry point and reports it through
:func:`set_compile_listener` (the CLI prints "compiling the Connect Four kernel...") before
anything is compiled; the search itself never prints. Later processes load the machine code
from disk. A process that needs a kernel while another one compiles it waits for that compile
(a lock file beside the generated module, :class:`gametree.compiled.cache.CompileLock`), says
so through the same listener, then loads it. :mod:`gametree.compiled.cache` lists and clears
the compiled kernels.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import itertools
import os
import sys
import tempfile
import threading
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from . import authoring
from .cache import (
    LOCK_SUFFIX,
    MODULE_PREFIX,
    READY_SUFFIX,
    CompileLock,
    header,
    kernels_directory,
)
from .kernel import ONGOING, Kernel, _is_dispatcher

_TEMPLATE = Path(__file__).with_name("_engine.py")
_BEGIN = "# BEGIN KERNEL BINDING"
_END = "# END KERNEL BINDING"

_listeners: list[Callable[[str], None]] = []
_lock = threading.Lock()
_modules: dict[str, ModuleType] = {}
_uncached = itertools.count(1)


def set_compile_listener(listener: Callable[[str], None] | None) -> None:
    """Call ``listener(message)`` before a kernel is compiled (not when it is loaded from the
    cache). Front-ends use it to say why the first run pauses; ``None`` removes it."""
    _listeners[:] = [] if listener is None else [listener]


def _writable(directory: Path) -> bool:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / f".probe-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError:
        return False
    return True


def _module_source(kernel: Kernel) -> str:
    """The generated module's text: a first line naming the kernel (for ``gametree cache
    info``), then the template with its binding block replaced."""
    text = _TEMPLATE.read_text(encoding="utf-8")
    start, end = text.index(_BEGIN), text.index(_END)
    return header(kernel.name) + text[:start] + _binding_stub() + text[end + len(_END):]


def _binding_stub() -> str:
    """The text that replaces the template's binding block: the kernel arrives as a dict."""
    return ("# Kernel binding: the functions and constants of one kernel game, set by\n"
            "# gametree.compiled.build before this module runs.\n"
            "globals().update(__gametree_binding__)  # noqa: F821\n")


def numba_module() -> ModuleType:
    """numba itself, imported on first need: commands that never compile do not pay for it."""
    import numba  # noqa: PLC0415 - deliberately lazy

    return numba


def _identity(kernel: Kernel, source: str) -> str | None:
    numba = numba_module()
    kernel_id = kernel.identity()
    if kernel_id is None:
        return None
    digest = hashlib.sha256(f"{kernel_id}\n{numba.__version__}\n{source}".encode())
    return digest.hexdigest()[:16]


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_") or "kernel"


def _default_key(state: int) -> int:
    return state


def _default_evaluate(state: Any) -> int:
    return 0


def _default_move_score(state: Any, move: int) -> int:
    return 0


def _default_can_win_next(state: Any) -> bool:
    return False


def _default_non_losing_moves(state: Any, out: Any) -> int:
    return 0


def _default_plies_left(state: Any) -> int:
    return 0


class Isolator:
    """The ``jit`` of one kernel: compiles each function as a member of the kernel's own
    generated module, so that the machine code's symbols name that module (and so the kernel's
    digest) instead of the module that defines the function.

    Given a plain function (a rules factory decorating its closures), it compiles a copy whose
    ``__module__`` is the kernel's; the copy shares the original's closure cells, which the
    factory fills afterwards with the other compiled copies. Given a function already compiled
    elsewhere, it compiles a copy likewise, with the compiled functions it captures replaced
    by copies of their own. Each function is copied once, however often it is met.
    """

    def __init__(self, module_name: str) -> None:
        self.module_name = module_name
        # Keyed by id, so the originals are kept too: a freed one's id could be reused.
        self._copies: dict[int, tuple[Any, Any]] = {}

    def __call__(self, function: Any) -> Any:
        original = getattr(function, "py_func", function)
        if getattr(original, "__module__", None) == self.module_name:
            return function  # one of this kernel's copies already
        known = self._copies.get(id(original))
        if known is not None:
            return known[1]
        closure = original.__closure__
        if closure and _is_dispatcher(function):
            closure = tuple(self._isolated_cell(cell) for cell in closure)
        twin = types.FunctionType(original.__code__, original.__globals__, original.__name__,
                                  original.__defaults__, closure)
        twin.__kwdefaults__ = original.__kwdefaults__
        twin.__qualname__ = original.__qualname__
        twin.__doc__ = original.__doc__
        twin.__module__ = self.module_name
        options = {name: value for name, value in getattr(function, "targetoptions", {}).items()
                   if name != "nopython"}  # njit implies it (and warns when told again)
        copy = numba_module().njit(**options)(twin)
        self._copies[id(original)] = (original, copy)
        return copy

    def _isolated_cell(self, cell: Any) -> Any:
        try:
            contents = cell.cell_contents
        except ValueError:  # an empty cell: nothing to copy
            return cell
        return types.CellType(self(contents)) if _is_dispatcher(contents) else cell


def binding(kernel: Kernel, jit: Callable[..., Any]) -> dict[str, Any]:
    """The globals a generated engine module gets: compiled rules, defaults, constants.

    ``jit`` compiles every function (the engine passes the kernel's :class:`Isolator`).
    """
    rules = dict(kernel.compiled_rules(jit))
    has_key = "key" in rules or kernel.state_size == 0
    stubs: dict[str, Callable[..., Any]] = {
        "evaluate": _default_evaluate, "key": _default_key,
        "move_score": _default_move_score, "can_win_next": _default_can_win_next,
        "non_losing_moves": _default_non_losing_moves, "plies_left": _default_plies_left,
    }
    bound: dict[str, Any] = {}
    for name, stub in stubs.items():
        bound[f"k_{name}"] = rules[name] if name in rules else jit(stub)
    for name in ("to_move", "moves", "play", "outcome"):
        bound[f"k_{name}"] = rules[name]
    size = kernel.state_size
    if size == 0:
        def state_from_row(row: Any) -> Any:
            return row[0]
    else:
        namespace: dict[str, Any] = {"__name__": __name__}  # cached code names its module
        parts = ", ".join(f"row[{i}]" for i in range(size))
        exec(f"def state_from_row(row):\n    return ({parts},)\n", namespace)
        state_from_row = namespace["state_from_row"]
    bound["k_state_from_row"] = jit(state_from_row)
    types = numba_module().types
    bound["STATE_TYPE"] = types.int64 if size == 0 else types.UniTuple(types.int64, size)
    bound.update(
        HAS_KEY=has_key,
        HAS_MOVE_SCORE="move_score" in rules,
        HAS_THREATS=kernel.has_threat_hooks,
        HAS_PLIES_LEFT="plies_left" in rules,
        ALTERNATING=kernel.alternating,
        WINNER_MOVES_LAST=kernel.winner_moves_last,
        MAX_MOVES=kernel.max_moves,
        MAX_PLY=kernel.max_plies + 2,
        ONGOING=ONGOING,
    )
    return bound


def engine_module(kernel: Kernel) -> tuple[ModuleType, bool]:
    """The compiled engine module of ``kernel``, and whether it still has to be compiled.

    When the kernel is not in the cache yet, its rules are checked first
    (:mod:`gametree.compiled.authoring`: a mistake is one :class:`KernelError` naming the
    rule), the compile is announced (:func:`set_compile_listener`) and this process holds the
    kernel's compile lock until the caller's :func:`compiling` block ends, so that another
    process needing the same kernel waits (and says so) instead of compiling it too, then loads
    it. A kernel in the cache is loaded without any of this: its entry points load from numba's
    cache on first call. The second value is true when the caller must compile every entry
    point now, inside :func:`compiling`.
    """
    source = _module_source(kernel)
    identity = _identity(kernel, source)
    with _lock:
        tag = identity or f"uncached{next(_uncached)}"  # an uncached kernel is always new
        name = f"{MODULE_PREFIX}{_slug(kernel.name)}_{tag}"
        if identity is not None and name in _modules:
            module = _modules[name]
            return module, not module.__dict__["_gametree_ready"]
        directory = kernels_directory()
        cached = identity is not None and _writable(directory)
        if cached:
            where = f"once; cached in {directory.parent}"
        else:
            where = ("its source cannot be identified" if identity is None
                     else f"{directory} cannot be written") + ", so it is not cached"
            directory = Path(tempfile.mkdtemp(prefix="gametree-kernels-"))
        path = directory / f"{name}.py"
        ready = cached and _is_ready(path)
        lock = None
        if cached and not ready:
            lock = CompileLock(path.with_suffix(LOCK_SUFFIX))
            lock.acquire(on_wait=lambda: notify(waiting_message(kernel)))
            ready = _is_ready(path)  # compiled by the process this one waited for
            if ready:
                lock.release()
                lock = None
        try:
            module = _load(kernel, name, path, source, ready=ready, where=where)
        except BaseException:
            if not ready:  # a kernel that does not compile leaves nothing in the cache
                for leftover in (path, path.with_suffix(LOCK_SUFFIX)):
                    with contextlib.suppress(OSError):
                        leftover.unlink()
                if not cached:  # nor an empty temporary directory
                    with contextlib.suppress(OSError):
                        directory.rmdir()
            if lock is not None:
                lock.release()
            raise
        module.__dict__.update(_gametree_ready=ready, _gametree_lock=lock)
        _modules[name] = module
        return module, not ready


def _is_ready(path: Path) -> bool:
    return path.with_suffix(READY_SUFFIX).exists()


def _load(kernel: Kernel, name: str, path: Path, source: str, *, ready: bool,
          where: str) -> ModuleType:
    """Write (if needed) and run the generated module ``name`` at ``path``; unless it is
    ``ready`` in the cache, check the rules and announce the compile first."""
    if not ready:
        authoring.check_python_rules(kernel)  # no compiling: before the announcement
        notify(f"compiling the {kernel.name} kernel ({where})...")
    if not path.exists() or path.read_text(encoding="utf-8") != source:
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(source, encoding="utf-8")
        temporary.replace(path)  # atomic: a concurrent process sees old or new, not half
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    bound = binding(kernel, Isolator(name))
    module.__dict__.update(__gametree_binding__=bound, _gametree_path=path,
                           _gametree_kernel=kernel)
    # numba names the module of every function it compiles by looking it up in sys.modules,
    # and rebuilds a cached function's environment by importing that module by name: the
    # module must be there before anything of this kernel is compiled.
    sys.modules[name] = module
    try:
        if not ready:
            # Each rule alone, so that numba's complaint belongs to one rule; the engine then
            # reuses their machine code.
            authoring.check_compiled_rules(kernel, bound)
        spec.loader.exec_module(module)  # compiles (or loads) negamax: it has a signature
    except Exception as error:
        del sys.modules[name]
        if not ready and authoring.is_numba_error(error):
            raise authoring.engine_error(kernel, bound, error) from None
        raise
    return module


def notify(message: str) -> None:
    """Tell the front-end (if it listens) that something slow is about to happen."""
    for listener in _listeners:
        listener(message)


def waiting_message(kernel: Kernel) -> str:
    """What to tell the user while another process compiles ``kernel``."""
    return f"waiting for another process to finish compiling the {kernel.name} kernel..."


@contextlib.contextmanager
def compiling(module: ModuleType) -> Iterator[None]:
    """The block in which the caller of :func:`engine_module` compiles every entry point of
    ``module`` (when it said so): on success the kernel is marked ready in the cache; numba's
    errors become one :class:`KernelError`; and, however the block ends, processes waiting
    for this compile go on."""
    try:
        try:
            yield
        except Exception as error:
            if authoring.is_numba_error(error):
                raise authoring.engine_error(module.__dict__["_gametree_kernel"],
                                             module.__dict__["__gametree_binding__"],
                                             error) from None
            raise
        mark_ready(module)
    finally:
        _release(module)


def mark_ready(module: ModuleType) -> None:
    """Record that every entry point of ``module`` is compiled and in numba's cache, and let
    processes waiting for this compile go on."""
    module.__dict__["_gametree_ready"] = True
    path: Path = module.__dict__["_gametree_path"]
    with contextlib.suppress(OSError):
        path.with_suffix(READY_SUFFIX).write_text("")
    _release(module)


def _release(module: ModuleType) -> None:
    lock: CompileLock | None = module.__dict__.pop("_gametree_lock", None)
    if lock is not None:
        lock.release()
