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

Other templates go through the same machinery (:func:`kernel_module`): the retrograde analysis
of whole games (``gametree/solvers/_retrograde.py``) is generated, cached and checked per kernel in
the same way, as a module of its own.

The first use of a kernel in a fresh cache compiles every entry point and reports it through
:func:`set_compile_listener` (the CLI prints "compiling the Connect Four kernel...") before
anything is compiled; the search itself never prints. Later processes load the machine code
from disk. A process that needs a kernel while another one compiles it waits for that compile
(a lock file beside the generated module, :class:`gametree.compiled.cache.CompileLock`), says
so through the same listener, then loads it. :mod:`gametree.compiled.cache` lists and clears
the compiled kernels.

A cache never fails a command. Before a cached kernel is loaded, its files are checked against
the manifest written when its compile ended (:func:`gametree.compiled.cache.check_files`): a
kernel with a missing, truncated or garbled file is announced as damaged, in the one line that
also announces its compile, and compiled again in place (its old files deleted first, under the
compile lock). A cache that cannot be written is still read (numba is told where, by
:mod:`gametree.compiled.numbacache`), and a kernel it lacks, or one that cannot be saved (a full
disk), is compiled in memory for the process alone: nothing is written anywhere, no temporary
directory is left behind. What slips past the check is caught where numba reads or writes the
cache (:class:`gametree.compiled.numbacache.KernelCache`): reported in one line, compiled again
or kept in memory, never raised.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import itertools
import linecache
import os
import sys
import threading
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..cachedir import cache_directory
from . import authoring, native
from .cache import (
    LOCK_SUFFIX,
    READY_SUFFIX,
    CompileLock,
    check_files,
    discard,
    header,
    kernels_directory,
    module_name,
    write_manifest,
)
from .kernel import NO_REPLY, ONGOING, SEVERAL_REPLIES, Kernel, _is_dispatcher

if TYPE_CHECKING:
    from .numbacache import CacheGuard  # imports numba: only when a kernel is built

_TEMPLATE = Path(__file__).with_name("_engine.py")
ENGINE_COUNTED = False
"""Whether the search engine's functions, and the rules as compiled for it, keep numba's
reference counts (its NRT). They do not: the search never allocates (its move lists and table
are slices of one workspace array), and numba counted the references to that array's owner
at nearly every slice and table probe: an atomic increment and decrement, 38% of a Connect
Four solve's time, and on two threads a cache line that both cores write. A rule that
allocates is refused with a message saying so
(:func:`gametree.compiled.authoring.check_compiled_rules`).
Templates that allocate (the retrograde analysis) keep the counts."""
_BEGIN = "# BEGIN KERNEL BINDING"
_END = "# END KERNEL BINDING"

_listeners: list[Callable[[str], None]] = []
_lock = threading.Lock()
_modules: dict[str, ModuleType] = {}
_natives: dict[str, native.NativeEngine] = {}
_uncached = itertools.count(1)


def set_compile_listener(listener: Callable[[str], None] | None) -> None:
    """Call ``listener(message)`` before a kernel is compiled (not when it is loaded from the
    cache). Front-ends use it to say why the first run pauses; ``None`` removes it. Without a
    listener the message is logged as a warning of the ``gametree.compiled`` logger (with one,
    as information)."""
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


def _module_source(template: Path, title: str, *, counted: bool) -> str:
    """The generated module's text: a first line with its ``title`` (for ``gametree cache
    info``), then the template with its binding block replaced."""
    text = template.read_text(encoding="utf-8")
    start, end = text.index(_BEGIN), text.index(_END)
    return header(title) + text[:start] + _binding_stub(counted) + text[end + len(_END):]


def _binding_stub(counted: bool) -> str:
    """The text that replaces the template's binding block: the kernel arrives as a dict. It
    says whether the module keeps numba's reference counts, so that the module's identity (the
    digest of its text) differs when that does."""
    counting = "with" if counted else "without"
    return ("# Kernel binding: the functions and constants of one kernel game, set by\n"
            "# gametree.compiled.build before this module runs, and the njit of\n"
            "# gametree.compiled.numbacache, which caches through gametree (cache format 3).\n"
            f"# Compiled {counting} numba's reference counting.\n"
            "globals().update(__gametree_binding__)  # noqa: F821\n")


def numba_module() -> ModuleType:
    """numba itself, imported on first need: commands that never compile do not pay for it."""
    import numba  # noqa: PLC0415 - deliberately lazy

    return numba


def _identity(kernel: Kernel, source: str) -> str | None:
    kernel_id = kernel.identity()
    if kernel_id is None:
        return None
    digest = hashlib.sha256(f"{kernel_id}\n{_numba_version()}\n{source}".encode())
    return digest.hexdigest()[:16]


@functools.cache
def _numba_version() -> str:
    """numba's version, as installed (without importing it: a cached kernel may run without).
    Its distribution's metadata directory is looked for beside the package first, whose name
    carries the version (``numba-0.59.1.dist-info``, as the wheel format names it): neither a
    search of every directory of ``sys.path`` (a hundredth of a second) nor the import of
    :mod:`importlib.metadata` (another)."""
    spec = importlib.util.find_spec("numba")
    if spec is not None and spec.origin is not None:
        packages = Path(spec.origin).parent.parent
        with contextlib.suppress(OSError):
            found = [name for name in os.listdir(packages)
                     if name.startswith("numba-") and name.endswith(".dist-info")]
            if len(found) == 1:
                return found[0][len("numba-"):-len(".dist-info")]
    from importlib import metadata  # noqa: PLC0415 - numba installed some other way

    return metadata.version("numba")


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


def _default_mirror_key(state: Any) -> int:
    return 0


def _default_upper_bound(state: Any) -> int:
    return ONGOING


def _default_enhanced_cutoffs(state: Any) -> bool:
    return False


def _default_forced_reply(state: Any) -> int:
    return SEVERAL_REPLIES


def _row_functions(size: int) -> tuple[Callable[[Any], Any], Callable[[Any, Any, int], None]]:
    """The functions that read a kernel state (an int when ``size`` is 0, else a tuple of
    ``size`` ints) from a row of a two-dimensional int64 array, and write one into row ``i``."""
    if size == 0:
        def state_from_row(row: Any) -> Any:
            return row[0]

        def state_to_row(state: Any, rows: Any, i: int) -> None:
            rows[i, 0] = state
        return state_from_row, state_to_row
    namespace: dict[str, Any] = {"__name__": __name__}  # cached code names its module
    parts = ", ".join(f"row[{j}]" for j in range(size))
    stores = "".join(f"    rows[i, {j}] = state[{j}]\n" for j in range(size))
    exec(f"def state_from_row(row):\n    return ({parts},)\n\n"
         f"def state_to_row(state, rows, i):\n{stores}", namespace)
    return namespace["state_from_row"], namespace["state_to_row"]


class Isolator:
    """The ``jit`` of one kernel: compiles each function as a member of the kernel's own
    generated module, so that the machine code's symbols name that module (and so the kernel's
    digest) instead of the module that defines the function.

    Given a plain function (a rules factory decorating its closures), it compiles a copy whose
    ``__module__`` is the kernel's; the copy shares the original's closure cells, which the
    factory fills afterwards with the other compiled copies. Given a function already compiled
    elsewhere, it compiles a copy likewise, with the compiled functions it captures replaced
    by copies of their own. Each function is copied once, however often it is met. Unless
    ``counted``, the copies are compiled without numba's reference counting. Options may come
    first, as ``numba.njit`` takes them (``@jit(inline="always")``).
    """

    def __init__(self, module_name: str, *, counted: bool = True) -> None:
        self.module_name = module_name
        self.counted = counted
        # Keyed by id, so the originals are kept too: a freed one's id could be reused.
        self._copies: dict[int, tuple[Any, Any]] = {}

    def __call__(self, function: Any = None, /, **given: Any) -> Any:
        if function is None:  # options first, as numba.njit takes them: @jit(inline="always")
            return lambda decorated: self._copy(decorated, given)
        return self._copy(function, given)

    def _copy(self, function: Any, given: dict[str, Any]) -> Any:
        """The kernel's copy of ``function``, compiled with its own numba options (if it was
        compiled elsewhere) and then those ``given``."""
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
        # nopython: njit implies it (and warns when told again). cache: a copy is compiled into
        # the engine's functions, which are cached; cached alone, it would be written beside
        # the original's file, outside gametree's cache.
        options = {**getattr(function, "targetoptions", {}), **given}
        options = {name: value for name, value in options.items()
                   if name not in ("nopython", "cache")}
        if not self.counted:
            options["_nrt"] = False
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
        "mirror_key": _default_mirror_key, "upper_bound": _default_upper_bound,
        "enhanced_cutoffs": _default_enhanced_cutoffs, "forced_reply": _default_forced_reply,
    }
    bound: dict[str, Any] = {}
    for name, stub in stubs.items():
        bound[f"k_{name}"] = rules[name] if name in rules else jit(stub)
    for name in ("to_move", "moves", "play", "outcome"):
        bound[f"k_{name}"] = rules[name]
    size = kernel.state_size
    state_from_row, state_to_row = _row_functions(size)
    bound["k_state_from_row"] = jit(state_from_row)
    bound["k_state_to_row"] = jit(state_to_row)
    types = numba_module().types
    bound["STATE_TYPE"] = types.int64 if size == 0 else types.UniTuple(types.int64, size)
    bound.update(
        STATE_WIDTH=max(size, 1),
        HAS_KEY=has_key,
        HAS_MOVE_SCORE="move_score" in rules,
        HAS_THREATS=kernel.has_threat_hooks,
        HAS_PLIES_LEFT="plies_left" in rules,
        HAS_MIRROR=has_key and "mirror_key" in rules,
        HAS_UPPER_BOUND=kernel.has_threat_hooks and "upper_bound" in rules,
        HAS_ETC=kernel.has_threat_hooks and "enhanced_cutoffs" in rules,
        HAS_FORCED_REPLY=kernel.has_threat_hooks and "forced_reply" in rules,
        NO_REPLY=NO_REPLY,
        SEVERAL_REPLIES=SEVERAL_REPLIES,
        ALTERNATING=kernel.alternating,
        WINNER_MOVES_LAST=kernel.winner_moves_last,
        TABLE_MIN_LEFT=kernel.table_min_plies_left,
        MAX_MOVES=kernel.max_moves,
        MAX_PLY=kernel.max_plies + 2,
        ONGOING=ONGOING,
    )
    return bound


@dataclass
class _ModuleSource:
    """Where one kernel's engine module comes from (the cache, or a compile: in memory or into
    the cache), as :func:`engine_module` decided."""

    cache: Path
    """The cache directory (for messages)."""

    path: Path | None
    """The generated module's file in the cache; None when it is compiled in memory, for this
    process only (nothing is written anywhere)."""

    ready: bool = False
    """True when the cache holds the kernel, intact: it is loaded, not compiled."""

    notice: str = ""
    """What to announce before compiling (when not ready)."""

    lock: CompileLock | None = None
    """The kernel's compile lock, held while this process compiles it into the cache."""

    guard: CacheGuard | None = None
    """What the module's functions met in the cache, once it is loaded (with a file)."""

    def finish(self) -> None:
        """The kernel compiled: mark it ready in the cache (its manifest), unless some of its
        machine code could not be saved — then drop what was saved, so that the next process
        compiles it afresh — and let waiting processes go on."""
        if self.guard is not None and self.lock is not None:  # compiled into the cache
            if self.guard.save_failure is None:
                try:
                    write_manifest(self.guard.module)
                except OSError as error:
                    self.guard.unsaved(error)
                else:
                    self.guard.ready = True
            if not self.guard.ready:
                self.abandon()
        self.release()

    def abandon(self) -> None:
        """The kernel did not compile, or could not be saved: leave nothing of it in the
        cache."""
        if self.path is not None and self.lock is not None:  # files this process wrote
            discard(self.path)
            with contextlib.suppress(OSError):
                self.lock.path.unlink()
        self.release()

    def release(self) -> None:
        """Let processes waiting for this compile go on (idempotent)."""
        lock, self.lock = self.lock, None
        if lock is not None:
            lock.release()


def engine_module(kernel: Kernel) -> tuple[Any, bool]:
    """The compiled engine module of ``kernel``, and whether it still has to be compiled
    (:func:`kernel_module` of the engine template). A kernel cached whole, with images of its
    entry points that run on this machine, is given as a :class:`native.NativeEngine` that
    calls them without importing numba."""
    engine = _native_engine(kernel)
    if engine is not None:
        return engine, False
    return _numba_engine(kernel)


def _numba_engine(kernel: Kernel) -> tuple[ModuleType, bool]:
    return kernel_module(kernel, _TEMPLATE, "", counted=ENGINE_COUNTED)


def _engine_name(kernel: Kernel) -> tuple[str, str] | None:
    """The generated engine module's name for ``kernel`` and its source, or None when the
    kernel cannot be cached (its source cannot be identified)."""
    source = _module_source(_TEMPLATE, kernel.name, counted=ENGINE_COUNTED)
    identity = _identity(kernel, source)
    return None if identity is None else (module_name(kernel.name, identity), source)


def _cached_whole(name: str, source: str) -> Path | None:
    """The generated module ``name`` in the cache, if it is ready there and whole
    (:func:`_damage`)."""
    path = kernels_directory(cache_directory()) / f"{name}.py"
    return path if _is_ready(path) and _damage(path, source) is None else None


def _native_engine(kernel: Kernel) -> native.NativeEngine | None:
    """The kernel's engine from its images in the cache (:mod:`gametree.compiled.native`),
    unless this process already has its module through numba, or the cache holds no usable
    images of it, or the kernel is not whole in the cache (then numba's loading says so and
    compiles it again)."""
    named = _engine_name(kernel)
    if named is None:
        return None
    name, source = named
    with _lock:
        engine = _natives.get(name)
        if engine is not None or name in _modules:
            return engine
        path = _cached_whole(name, source)
        if path is None:
            return None
        engine = native.load(path.parent / "__pycache__", name,
                             lambda: _numba_engine(kernel)[0])
        if engine is not None:
            _natives[name] = engine
        return engine


def engine_cached(kernel: Kernel) -> bool | None:
    """Whether the compiled engine of ``kernel`` can be had without compiling: loaded in this
    process already (through numba or from its images), or in the cache, whole
    (:func:`_damage`). ``None`` when the kernel cannot be cached (its source cannot be
    identified): every process compiles it. Compiles nothing, writes nothing (a server asks
    it before a search, to compile elsewhere)."""
    named = _engine_name(kernel)
    if named is None:
        return None
    name, source = named
    with _lock:
        module = _modules.get(name)
        if name in _natives:  # loaded from its images: ready, whatever the cache holds now
            return True
    if module is not None:
        return bool(module.__dict__["_gametree_ready"])
    return _cached_whole(name, source) is not None


def kernel_module(kernel: Kernel, template: Path, part: str, *,
                  counted: bool = True) -> tuple[ModuleType, bool]:
    """The module generated from ``template`` for ``kernel`` (``part`` names what it does
    when it is not the engine, as in "retrograde analysis": said when it compiles, and listed
    by ``gametree cache info`` as the kernel's name and ``part``), and whether it still has to
    be compiled. Unless ``counted``, the module's functions and the rules compiled for it do
    without numba's reference counting (see :data:`ENGINE_COUNTED`).

    A kernel whose cached files are all there and intact (:func:`_damage`) is loaded without
    anything of what follows: its entry points load from numba's cache on first call, even
    from a cache that cannot be written. Otherwise its rules are checked first
    (:mod:`gametree.compiled.authoring`: a mistake is one :class:`KernelError` naming the
    rule), the compile is announced in one line (:func:`set_compile_listener`; it also says
    why when the cache was damaged or cannot take the kernel), and this process holds the
    kernel's compile lock until the caller's :func:`compiling` block ends, so that another
    process needing the same kernel waits (and says so) instead of compiling it too, then loads
    it. What a damaged or interrupted compile left is deleted first. When the cache cannot take
    the kernel (it cannot be written, the disk is full, the kernel cannot be identified), the
    kernel is compiled in memory for this process only: nothing is written anywhere. The
    second value is true when the caller must compile every entry point now, inside
    :func:`compiling`.
    """
    title = f"{kernel.name} {part}" if part else kernel.name
    source = _module_source(template, title, counted=counted)
    identity = _identity(kernel, source)
    with _lock:
        tag = identity or f"uncached{next(_uncached)}"  # an uncached kernel is always new
        name = module_name(kernel.name, tag)
        if identity is not None and name in _modules:
            module = _modules[name]
            return module, not module.__dict__["_gametree_ready"]
        label = f"the {kernel.name} kernel's {part}" if part else f"the {kernel.name} kernel"
        plan = _plan(kernel, name, source, label, identifiable=identity is not None)
        try:
            module = _load(kernel, name, source, plan, counted=counted)
        except BaseException:
            plan.abandon()
            raise
        module.__dict__.update(_gametree_ready=plan.ready, _gametree_plan=plan)
        _modules[name] = module
        return module, not plan.ready


def _plan(kernel: Kernel, name: str, source: str, label: str, *,
          identifiable: bool) -> _ModuleSource:
    """Decide where the module ``name`` generated for ``kernel`` (``label`` in messages)
    comes from (see :func:`kernel_module`); when it is to be compiled into the cache, take
    its lock and write the module."""
    cache = cache_directory()
    folder = kernels_directory(cache)
    path = folder / f"{name}.py"
    damage = None
    if identifiable and _is_ready(path):
        damage = _damage(path, source)
        if damage is None:
            return _ModuleSource(cache, path, ready=True)
    authoring.check_python_rules(kernel)  # no compiling: before the announcement
    if not identifiable:
        return _ModuleSource(cache, None, notice=(
            f"compiling {label} (its source cannot be identified, so it is not cached)..."))
    if not _writable(folder):
        if damage is not None:
            return _ModuleSource(cache, None, notice=(
                f"{label} cached in {cache} is damaged ({damage}) and {folder} cannot be "
                "written: compiling it for this process only..."))
        return _ModuleSource(cache, None, notice=(
            f"compiling {label} ({folder} cannot be written, so it is not cached)..."))
    lock = CompileLock(path.with_suffix(LOCK_SUFFIX))
    lock.acquire(on_wait=lambda: notify(waiting_message(label)))
    plan = _ModuleSource(cache, path, lock=lock)
    try:
        if _is_ready(path):  # compiled, or damaged, while this process waited for the lock
            damage = _damage(path, source)
            if damage is None:
                plan.release()
                return _ModuleSource(cache, path, ready=True)
        failed = discard(path)  # what a damaged or an interrupted compile left
        if failed:
            plan.release()
            why = f"is damaged ({damage})" if damage is not None else "was left incomplete"
            return _ModuleSource(cache, None, notice=(
                f"{label} cached in {cache} {why} and cannot be deleted ({failed[0]}): "
                "compiling it for this process only..."))
        try:
            _write(path, source)
        except OSError as error:
            plan.abandon()
            return _ModuleSource(cache, None, notice=(
                f"compiling {label} for this process only (it cannot be saved in {cache}: "
                f"{error.strerror or error})..."))
    except BaseException:
        plan.release()
        raise
    plan.notice = (f"{label} cached in {cache} is damaged ({damage}): compiling it again..."
                   if damage is not None else f"compiling {label} (once; cached in {cache})...")
    return plan


def _write(path: Path, source: str) -> None:
    """Write the generated module: all of it or nothing (a concurrent reader sees the old
    file or the new one, never half)."""
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        temporary.write_bytes(source.encode("utf-8"))
        temporary.replace(path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def _is_ready(path: Path) -> bool:
    try:
        return path.with_suffix(READY_SUFFIX).exists()
    except OSError:  # a directory that cannot be searched: nothing usable there
        return False


def _damage(path: Path, source: str) -> str | None:
    """What is wrong with the kernel cached as the generated module ``path`` (a few words),
    or None if it is whole: every file its manifest lists is there and unchanged (or, for an
    index file numba added to, numba accepts it)."""
    stamp: list[Any] = []

    def accept_index(index: Path) -> bool:
        from . import numbacache  # noqa: PLC0415 - imports numba, which loading needs anyway

        if not stamp:
            stamp.append(numbacache.source_stamp(path))
        return numbacache.index_problem(index, stamp[0]) is None

    return check_files(path, source, accept_index)


def _load(kernel: Kernel, name: str, source: str, plan: _ModuleSource, *,
          counted: bool) -> ModuleType:
    """Run the generated module ``name`` (from its file in the cache, or from ``source`` in
    memory); unless it is ready in the cache, announce the compile first."""
    from . import numbacache  # noqa: PLC0415 - imports numba

    if not plan.ready:
        notify(plan.notice)
    if plan.path is not None:
        plan.guard = numbacache.CacheGuard(kernel.name, plan.path, plan.cache, notify,
                                           ready=plan.ready)
        spec = importlib.util.spec_from_file_location(name, plan.path)
        filename = str(plan.path)
    else:
        # Nothing on disk: the source is registered with linecache, for numba's messages.
        filename = f"<{name}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        spec = importlib.util.spec_from_loader(name, loader=None, origin=filename)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    bound = binding(kernel, Isolator(name, counted=counted))
    # The module's njit caches through gametree (numbacache), or not at all in memory.
    namespace = {**bound, "njit": numbacache.engine_jit(plan.guard, counted=counted)}
    module.__dict__.update(__gametree_binding__=namespace, _gametree_kernel=kernel)
    # numba names the module of every function it compiles by looking it up in sys.modules,
    # and rebuilds a cached function's environment by importing that module by name: the
    # module must be there before anything of this kernel is compiled.
    sys.modules[name] = module
    try:
        if not plan.ready:
            # Each rule alone, so that numba's complaint belongs to one rule; the engine then
            # reuses their machine code.
            authoring.check_compiled_rules(kernel, bound)
        # Compiles (or loads) negamax: it has a signature.
        if spec.loader is not None:
            spec.loader.exec_module(module)
        else:
            exec(compile(source, filename, "exec"), module.__dict__)
    except Exception as error:
        del sys.modules[name]
        if not plan.ready and authoring.is_numba_error(error):
            raise authoring.engine_error(kernel, bound, error) from None
        raise
    return module


def notify(message: str) -> None:
    """Tell the front-end (if it listens), and the ``gametree.compiled`` logger, that
    something slow is about to happen: a warning there when no front-end listens (Python's
    default handler then prints it, so a first ``check_game`` or search does not pause in
    silence), else information (the front-end has said it)."""
    import logging  # noqa: PLC0415 - only before something slow (4 ms of every start-up)

    logging.getLogger("gametree.compiled").log(
        logging.INFO if _listeners else logging.WARNING, "gametree: %s", message)
    for listener in _listeners:
        listener(message)


def waiting_message(label: str) -> str:
    """What to tell the user while another process compiles what ``label`` names ("the
    connect4 7x6 kernel")."""
    return f"waiting for another process to finish compiling {label}..."


@contextlib.contextmanager
def compiling(module: ModuleType) -> Iterator[None]:
    """The block in which the caller of :func:`engine_module` compiles every entry point of
    ``module`` (when it said so): on success the kernel is marked ready in the cache; numba's
    errors become one :class:`KernelError` (and the kernel leaves nothing in the cache); and,
    however the block ends, processes waiting for this compile go on."""
    plan: _ModuleSource = module.__dict__["_gametree_plan"]
    try:
        try:
            yield
        except Exception as error:
            plan.abandon()
            if authoring.is_numba_error(error):
                raise authoring.engine_error(module.__dict__["_gametree_kernel"],
                                             module.__dict__["__gametree_binding__"],
                                             error) from None
            raise
        mark_ready(module)
    finally:
        plan.release()


def mark_ready(module: ModuleType) -> None:
    """Record that every entry point of ``module`` is compiled and in numba's cache (the
    kernel's manifest; unless some of it could not be saved), and let processes waiting for
    this compile go on."""
    module.__dict__["_gametree_ready"] = True
    module.__dict__["_gametree_plan"].finish()
