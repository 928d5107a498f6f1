"""numba's side of the kernel cache: where a generated engine module's machine code is read and
written, and why a damaged, read-only or full cache never fails a command.

numba's own ``cache=True`` picks a *locator* for each compiled function: the ``__pycache__``
beside its file if that directory can be written, else a user-wide directory. It then loads
the function's index and data files with :mod:`pickle`, and saves them after a compile, letting
every error through: a truncated file raises ``EOFError``, a garbled one ``UnpicklingError``,
a full disk ``OSError`` out of the compile. A cache that is complete but read-only is not read
at all (its locator refuses it).

The generated engine modules (:mod:`gametree.compiled.build`) use instead the ``njit`` of this
module, :func:`engine_jit`, which gives each of their functions a :class:`KernelCache`:

* its locator (:class:`KernelLocator`) is always the ``__pycache__`` beside the generated
  module, the directory numba's in-tree locator would choose, and it is read even when it cannot
  be written (numba checks that a directory can be written only before it saves);
* machine code that cannot be loaded (a damaged file that escaped
  :func:`gametree.compiled.build`'s check) is reported once through a :class:`CacheGuard` and
  compiled again, never raised;
* machine code that cannot be saved (a full disk, a read-only directory) is reported once, and
  nothing more is saved for that kernel: the process keeps its compiled code in memory;
* machine code is loaded without numba's refresh of its typing and lowering registries, which
  loading does not need (a fifth of a second of a process's start-up); numba refreshes them
  itself before anything is compiled.

:func:`index_problem` checks one of numba's index files the way numba will read it.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numba.core.caching
import numba.core.runtime
from numba.core import typeinfer

from . import native
from .cache import write_manifest

# numba's classes, as Any: whether mypy sees their types depends on numba's version.
_numba_caching: Any = numba.core.caching
_SourceFileBacked: Any = _numba_caching._SourceFileBackedLocatorMixin
_runtime: Any = numba.core.runtime.nrt.rtsys
_log = logging.getLogger("gametree.compiled")


class KernelLocator(_SourceFileBacked, _numba_caching._CacheLocator):  # type: ignore[misc]
    """numba's cache locator for the functions of a generated engine module: the
    ``__pycache__`` directory beside the module, whether or not it can be written (numba's
    ``ensure_cache_path`` checks that before each save, and :class:`KernelCache` reports a save
    that fails). File names and the source stamp are numba's own, as for its in-tree locator."""

    def __init__(self, py_file: str, lineno: int = 0) -> None:
        self._py_file = py_file
        self._lineno = lineno
        self._cache_path = os.path.join(os.path.dirname(py_file), "__pycache__")

    def get_cache_path(self) -> str:
        """The directory of the machine code: ``__pycache__`` beside the generated module."""
        return self._cache_path

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> KernelLocator:
        """The locator of ``py_func``, a function of the generated module ``py_file``."""
        return cls(py_file, py_func.__code__.co_firstlineno)


class _KernelCacheImpl(_numba_caching.CompileResultCacheImpl):  # type: ignore[misc]
    # numba's list of locators to try, for these functions: only ours. (numba's
    # NUMBA_CACHE_LOCATOR_CLASSES would replace it; the manifest then lists no files.)
    _locator_classes = [KernelLocator]  # noqa: RUF012 - numba's class attribute


class CacheGuard:
    """What one generated module's functions met in the cache, said once each through
    ``notify`` (the compile listener): machine code that could not be loaded, or saved.

    ``saving`` is false where nothing is to be saved (after a failed save). ``ready`` is true
    while the kernel is marked ready in the cache: machine code saved then (compiled again
    after a failed load, or for new argument types) goes into the kernel's manifest.
    """

    def __init__(self, kernel_name: str, module: Path, directory: Path,
                 notify: Callable[[str], None], *, ready: bool) -> None:
        self.kernel_name = kernel_name
        self.module = module
        """The generated module's file."""
        self.directory = directory
        """The cache directory (for messages)."""
        self.notify = notify
        self.ready = ready
        self.saving = True
        self.save_failure: str | None = None
        """Why a save failed (then nothing more is saved), or None."""
        self.load_failure: str | None = None
        """Why some machine code could not be loaded (it was compiled again), or None."""

    def unloadable(self, function: str, error: BaseException) -> None:
        """Machine code of ``function`` could not be loaded: it is compiled again."""
        if self.load_failure is None:
            self.load_failure = f"{function}: {describe(error)}"
            self.notify(f"the {self.kernel_name} kernel cached in {self.directory} is damaged "
                        f"(cannot load {self.load_failure}): compiling the damaged part "
                        "again...")

    def saved(self) -> None:
        """Machine code was saved: a ready kernel's manifest takes it in."""
        if self.ready:
            with contextlib.suppress(OSError):  # then the next process finds it changed
                write_manifest(self.module)

    def unsaved(self, error: BaseException) -> None:
        """Machine code could not be saved: nothing more is, for this kernel."""
        self.saving = False
        if self.save_failure is None:
            self.save_failure = describe(error)
            self.notify(f"could not save the compiled {self.kernel_name} kernel in "
                        f"{self.directory} ({self.save_failure}): it is compiled for this "
                        "process only")


def describe(error: BaseException) -> str:
    """An error in a few words on one line: ``No space left on device``,
    ``EOFError: Ran out of input``."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


class KernelCache(_numba_caching.FunctionCache):  # type: ignore[misc]
    """numba's per-function cache, for a function of a generated engine module: located by
    :class:`KernelLocator`; a load that fails is a miss (the function is compiled again), a
    save that fails is reported to the module's :class:`CacheGuard`, never raised."""

    _impl_class = _KernelCacheImpl

    def __init__(self, py_func: Any, guard: CacheGuard, *, nogil: bool = False) -> None:
        self._guard = guard
        self._nogil = nogil
        super().__init__(py_func)

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        """The cached compile result for ``sig``, or None (absent or unreadable).

        numba's own ``load_overload`` first *refreshes* the target context: it imports and
        installs every typing and lowering registry numba has (numpy's functions, the typed
        containers, the random generators...), the fifth of a second that is most of a
        cached kernel's loading time. Machine code being loaded needs none of them, only
        numba's runtime (whose symbols, ``NRT_*``, it links to), so this load starts that
        alone. Nothing is lost: numba refreshes the contexts itself before anything is
        compiled (its compiler does, for a miss or new argument types, and so does its
        lowering on the first function it does not know).
        """
        _runtime.initialize(target_context)
        try:
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)
        except Exception as error:  # pickle's and numba's, whatever the damage
            self._guard.unloadable(self._py_func.__qualname__, error)
            return None

    def save_overload(self, sig: Any, data: Any) -> None:
        """Save the compile result for ``sig`` if the kernel is still being saved."""
        if not self._guard.saving:
            return
        try:
            super().save_overload(sig, data)
        except Exception as error:  # a full disk, a read-only directory...
            self._guard.unsaved(error)
            return
        try:
            self._export(sig, data)
        except Exception as error:  # an image is an optimisation: never a failed compile
            _log.debug("no image of %s: %s", self._py_func.__qualname__, describe(error))
        self._guard.saved()

    def _export(self, sig: Any, cres: Any) -> None:
        """Write the image of an engine entry point just saved, for processes that run it
        without numba (:mod:`gametree.compiled.native`)."""
        entry = self._py_func.__name__
        namespace = self._py_func.__globals__
        if entry not in native.ENTRY_POINTS or not self._impl.check_cachable(cres) or \
                not all(name in namespace for name in native.CONSTANTS):
            return  # not an engine's entry point (another template's function, say)
        native.export(Path(self._cache_path), self._guard.module.stem, entry,
                      argument_types=sig, return_type=cres.signature.return_type,
                      symbol=cres.fndesc.mangled_name,
                      code=cres.library.serialize_using_object_code()[2][0],
                      constants={name: int(namespace[name]) for name in native.CONSTANTS},
                      nogil=self._nogil)


def engine_jit(guard: CacheGuard | None, *, counted: bool = True) -> Callable[..., Any]:
    """The ``njit`` that a generated engine module uses instead of numba's: the same options,
    but a function declared ``cache=True`` is cached through a :class:`KernelCache` reporting
    to ``guard`` (not cached at all when ``guard`` is None), and, unless ``counted``, compiled
    without numba's reference counting (see :data:`gametree.compiled.build.ENGINE_COUNTED`).
    Explicit signatures are compiled at once, as numba's ``njit`` does.

    It reaches the module through its kernel binding (:func:`gametree.compiled.build`), which
    runs after the template's ``from numba import njit``."""

    def njit(*args: Any, **options: Any) -> Any:
        if args and inspect.isfunction(args[0]):
            return njit(**options)(args[0])  # bare @njit
        signatures = args[0] if args else options.pop("signature_or_function", None)
        if signatures is not None and not isinstance(signatures, list):
            signatures = [signatures]
        cache = bool(options.pop("cache", False))
        if not counted:
            options["_nrt"] = False

        def decorate(function: Any) -> Any:
            dispatcher = numba.njit(**options)(function)  # lazy: nothing compiled yet
            if cache and guard is not None:
                dispatcher._cache = KernelCache(dispatcher.py_func, guard,
                                                nogil=bool(options.get("nogil")))
            if signatures:
                # What numba's own decorator does with signatures, once the cache is in place.
                with typeinfer.register_dispatcher(dispatcher):
                    for signature in signatures:
                        dispatcher.compile(signature)
                    dispatcher.disable_compile()
            return dispatcher

        return decorate

    return njit


def source_stamp(module: Path) -> Any:
    """numba's stamp of the generated module's source, as its index files record it."""
    return KernelLocator(str(module)).get_source_stamp()


def index_problem(index: Path, stamp: Any) -> str | None:
    """What is wrong with numba's index file ``index`` (written for a source whose stamp is
    ``stamp``), or None: it must load as numba loads it, for this numba version and this
    source, and every data file it names must exist."""
    try:
        with index.open("rb") as file:
            version = pickle.load(file)  # as numba reads it
            stamped, overloads = pickle.loads(file.read())
    except FileNotFoundError:
        return "missing"
    except Exception as error:  # whatever a damaged pickle raises
        return f"unreadable ({describe(error)})"
    if version != numba.__version__ or stamped != stamp or not isinstance(overloads, dict):
        return "out of date"
    for name in overloads.values():
        if not isinstance(name, str) or not (index.parent / name).is_file():
            return "names a missing file"
    return None
