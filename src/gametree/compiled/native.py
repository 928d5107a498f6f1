"""A kernel's cached engine, run without importing numba: its machine code, loaded by LLVM.

A process that loads a cached kernel through numba first imports numba, about a third of a
second before the first search (numba imports its whole compiler: type inference, the
dispatcher, its typing and lowering registries), which is more than a small board's whole
solve. Yet what runs is only machine code that numba compiled once: the engine's entry points
(:data:`ENTRY_POINTS`) are plain functions of numba's calling convention, with no Python
objects in them. So, when numba saves an entry point's machine code into the kernel cache
(:class:`gametree.compiled.numbacache.KernelCache`), :func:`export` writes beside it an
*image*: the object code with a header saying its symbol and how its arguments and result are
laid out. A later process loads the images with llvmlite (numba's own binding to LLVM, a few
hundredths of a second to import) and calls them through :mod:`ctypes`: :func:`load` gives a
:class:`NativeEngine` that stands for the engine module. Where the system's linker made a
shared library of an image when it was written (:mod:`gametree.compiled.sharedlib`), that is
opened instead, and llvmlite is not imported at all.

The machine code is numba's, byte for byte, so every search gives what it gives through numba
(node counts included). An image is used only where numba would have used its code: the same
numba, Python, processor and numba settings that chose the code (:func:`_machine`), and only if
every symbol it needs is found (CPython's C functions, the C library; numba's helpers for
raising exceptions, which the engine never calls, get a stand-in that fails the call). Anything
else (no image for these argument types, another machine, a damaged file) is not an error: that
entry point goes through numba, imported then, as before.

numba's calling convention, as its ``CPUCallConv`` defines it: ``int32 f(ret *result,
excinfo **error, arguments...)``, each argument flattened to scalars (a tuple of ints to its
ints; an array to its meminfo, parent, size, item size, data pointer, shape and strides); the
status is 0 (or -2 for "returned None") on success. Entry points declared ``nogil`` run without
the interpreter lock (:class:`ctypes.CFUNCTYPE`), the others with it (:class:`ctypes.PYFUNCTYPE`),
as numba runs them: the search asks CPython for Ctrl-C with the lock held.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import json
import os
import struct
import sys
import threading
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from . import sharedlib
from .words import Words

ENTRY_POINTS = frozenset({
    "search_root", "line", "solve", "solve_many", "search_root_parallel", "helper", "clock",
    "legal_moves", "play", "status", "clear_share",
})
"""The engine module's functions that Python calls (:mod:`gametree.compiled.engine`)."""

CONSTANTS = ("R_SIZE", "SMALL_TABLE_BITS")
"""The engine module's constants that Python reads."""

SUFFIX = ".native"
"""The file suffix of an image (in the ``__pycache__`` beside the generated module, named after
it, so that the kernel cache lists, checks and deletes images with the kernel's other files)."""

FORMAT = 1
"""The images' format; a header of another format is not read."""

_STATUS_OK = (0, -2)  # numba's RETCODE_OK and RETCODE_NONE
_HELPERS = frozenset({
    "numba_do_raise", "numba_gil_ensure", "numba_gil_release", "numba_unpickle",
    "numba_runtime_build_excinfo_struct", "numba_adapt_ndarray", "NRT_Free",
    "NRT_MemInfo_call_dtor",
})
"""numba's helpers that machine code reaches only to raise an exception (or, from numba's
wrapper for Python callers, which the images never call): given a stand-in when numba is not
loaded."""
_SETTINGS = ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "NUMBA_ENABLE_AVX", "NUMBA_OPT",
             "NUMBA_BOUNDSCHECK", "NUMBA_FASTMATH")
"""numba's settings that change the code it compiles (an image is used only under the ones it
was compiled under)."""

_SCALARS: dict[str, Any] = {
    "i64": ctypes.c_int64, "i32": ctypes.c_int32, "i16": ctypes.c_int16, "i8": ctypes.c_int8,
    "u64": ctypes.c_uint64, "u32": ctypes.c_uint32, "u16": ctypes.c_uint16,
    "u8": ctypes.c_uint8, "bool": ctypes.c_uint8,
}
_FLAT: dict[str, Any] = {"i64": ctypes.c_int64, "i32": ctypes.c_int32, "i8": ctypes.c_int8,
                         "i16": ctypes.c_int16, "i1": ctypes.c_bool}


class NativeError(RuntimeError):
    """Machine code loaded without numba failed (it raised an exception numba would have
    raised): a kernel's rule divided by zero, say."""


# -- writing an image (in a process that has numba) ---------------------------------------------


def export(folder: Path, module: str, entry: str, *, argument_types: Any, return_type: Any,
           symbol: str, code: bytes, constants: dict[str, int], nogil: bool) -> None:
    """Write the image of ``entry`` of the generated module ``module``, compiled for
    ``argument_types`` (numba's) into the function ``symbol`` of the object ``code``, into
    ``folder`` (the module's ``__pycache__``). Nothing is written for types the images do not
    carry; the file appears whole or not at all. Raises ``OSError``."""
    arguments = [_argument_kind(kind) for kind in argument_types]
    returned = _return_kinds(return_type)
    if None in arguments or returned is None:
        return
    from numba.core.registry import cpu_target  # noqa: PLC0415 - numba is loaded here

    context = cpu_target.target_context
    flat = [_flat_name(str(kind))
            for kind in context.get_arg_packer(argument_types).argument_types]
    try:
        imports = sorted(undefined_symbols(code))
    except ValueError:  # not ELF (macOS, Windows): the images are for Linux's objects alone
        return
    if None in flat or _flat_count(arguments) != len(flat):
        return
    name = f"{module}.{entry}.{hashlib.sha256(repr(arguments).encode()).hexdigest()[:12]}"
    try:
        library = sharedlib.make(folder, name, code, sorted(set(imports) & _HELPERS),
                                 _stub_object, _settings())
    except OSError:  # the library is an optimisation of an optimisation: the image goes on
        library = None
    header = {
        "format": FORMAT, "entry": entry, "symbol": symbol,
        "arguments": arguments, "flat": flat, "returns": returned, "nogil": nogil,
        "imports": imports, "machine": _machine(),
        "constants": constants, "sha256": hashlib.sha256(code).hexdigest(),
        "library": library,
    }
    path = folder / f"{name}{SUFFIX}"
    temporary = folder / f"{name}.tmp.{os.getpid()}"
    try:
        temporary.write_bytes(json.dumps(header, sort_keys=True).encode() + b"\n" + code)
        temporary.replace(path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def _argument_kind(kind: Any) -> str | None:
    """How an argument of numba type ``kind`` is passed: ``int64``, ``bool``, ``tuple:N`` (N
    int64), ``array:D`` (a C-ordered int64 array of D dimensions); None for other types."""
    from numba.core import types  # noqa: PLC0415 - numba is loaded here

    if isinstance(kind, types.Literal):
        return None  # compiled for one value (a constant False, say), not for any
    if kind == types.int64:
        return "int64"
    if isinstance(kind, types.Boolean):
        return "bool"
    if isinstance(kind, types.UniTuple) and kind.dtype == types.int64:
        return f"tuple:{kind.count}"
    if isinstance(kind, types.Array) and kind.dtype == types.int64 and kind.layout == "C" \
            and kind.mutable and kind.aligned:
        return f"array:{kind.ndim}"
    return None


def _return_kinds(kind: Any) -> list[str] | None:
    """The scalars a result of numba type ``kind`` is stored as (none for ``None``), or None
    for a type the images do not carry."""
    from numba.core import types  # noqa: PLC0415 - numba is loaded here

    parts: list[Any] = [] if isinstance(kind, types.NoneType) else \
        list(getattr(kind, "types", None) or [kind])  # a tuple's parts, or the one value
    kinds = []
    for part in parts:
        if isinstance(part, types.Boolean):
            kinds.append("bool")
        elif isinstance(part, types.Integer):
            number: Any = part  # numba's Integer has no annotations for these
            kinds.append(f"{'i' if number.signed else 'u'}{number.bitwidth}")
        else:
            return None
    return kinds


def _flat_name(llvm_type: str) -> str | None:
    return "ptr" if llvm_type.endswith("*") else llvm_type if llvm_type in _FLAT else None


def _flat_count(arguments: Iterable[str | None]) -> int:
    count = 0
    for kind in arguments:
        assert kind is not None
        if kind.startswith("tuple:"):
            count += int(kind[6:])
        elif kind.startswith("array:"):
            count += 5 + 2 * int(kind[6:])
        else:
            count += 1
    return count


def undefined_symbols(code: bytes) -> set[str]:
    """The symbols an ELF-64 object file ``code`` needs from elsewhere (its symbol table's
    undefined entries). Raises ``ValueError`` for another format."""
    if code[:4] != b"\x7fELF" or code[4] != 2 or code[5] != 1:
        raise ValueError("not a little-endian ELF-64 object")
    section_offset, = struct.unpack_from("<Q", code, 0x28)
    entry_size, count = struct.unpack_from("<HH", code, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", code, section_offset + i * entry_size)
                for i in range(count)]
    names: set[str] = set()
    for section in sections:
        if section[1] != 2:  # SHT_SYMTAB
            continue
        strings = sections[section[6]]
        for offset in range(section[4], section[4] + section[5], 24):
            name_at, _info, _other, index = struct.unpack_from("<IBBH", code, offset)
            if index == 0 and name_at:
                start = strings[4] + name_at
                names.add(code[start:code.index(b"\0", start)].decode())
    return names


def _machine() -> dict[str, Any]:
    """What decides the machine code numba compiles here: the processor as LLVM sees it,
    Python's version and numba's settings."""
    import llvmlite.binding as llvm  # noqa: PLC0415 - only with the compiled tier

    try:
        features = llvm.get_host_cpu_features().flatten()
    except RuntimeError:
        features = ""
    return {"triple": llvm.get_process_triple(), "cpu": llvm.get_host_cpu_name(),
            "features": features, "python": list(sys.version_info[:2]),
            "settings": _settings()}


def _settings() -> dict[str, str | None]:
    return {name: os.environ.get(name) for name in _SETTINGS}


def _stub_object(helpers: list[str]) -> bytes:
    """Object code defining each of numba's ``helpers`` as a function that returns 0 (the
    stand-ins of :func:`_stand_in`, for a shared library)."""
    llvm = _llvm()
    module = llvm.parse_assembly("".join(
        f"define i64 @{name}() {{\n  ret i64 0\n}}\n" for name in helpers))
    machine = llvm.Target.from_default_triple().create_target_machine(reloc="pic")
    return bytes(machine.emit_object(module))


# -- loading images (in any process) -----------------------------------------------------------


_lock = threading.Lock()
_keep: list[Any] = []
"""The LLVM engines and stand-ins of every image loaded (machine code must outlive its
callers: the process's)."""


def loaded() -> bool:
    """True once this process has loaded machine code from an image (by LLVM or as a shared
    library): the process then ends without tearing itself down (:func:`gametree.cli.run`)."""
    return bool(_keep)


@functools.cache
def _llvm() -> Any:
    """llvmlite's binding, ready to load object code for this machine (once per process)."""
    import llvmlite.binding as llvm  # noqa: PLC0415 - only with the compiled tier

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return llvm


@functools.cache
def _stand_in() -> int:
    """The address of the function given for numba's helpers when numba is not loaded: it
    returns 0 (reached only on the way to a failed status)."""
    def failed() -> int:
        return 0

    stand_in = ctypes.CFUNCTYPE(ctypes.c_int64)(failed)
    _keep.append(stand_in)
    return ctypes.cast(stand_in, ctypes.c_void_p).value or 0


@functools.cache
def _target_machine() -> Any:
    """LLVM's description of this machine, made once (the engines' object code is already
    compiled: it serves only to make them)."""
    return _llvm().Target.from_default_triple().create_target_machine()


def _caller(header: dict[str, Any], address: int, fallback: Callable[..., Any],
            calls: list[int], promote: Callable[[], None]) -> Any:
    """A Python function that calls the image's machine code at ``address`` with the arguments
    the entry point takes (unpacked as its header says), and returns its result as numba
    would; arguments of other types go to ``fallback`` (numba's dispatcher). It counts the
    engine's ``calls`` and has it ``promote`` itself at :data:`PROMOTE_AFTER`."""
    kinds: list[str] = header["arguments"]
    flat = [ctypes.c_void_p if name == "ptr" else _FLAT[name] for name in header["flat"]]
    factory = ctypes.CFUNCTYPE if header["nogil"] else ctypes.PYFUNCTYPE
    function = factory(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, *flat)(address)
    returns: list[str] = header["returns"]
    result_type = type("Result", (ctypes.Structure,), {"_fields_": [
        (f"f{i}", _SCALARS[kind]) for i, kind in enumerate(returns)] or [("f", ctypes.c_int64)]})
    parameters = [f"a{i}" for i in range(len(kinds))]
    unpack, passed = [], []
    for name, kind in zip(parameters, kinds, strict=True):
        if kind == "int64":
            passed.append(name)
        elif kind == "bool":
            passed.append(f"1 if {name} else 0")
        elif kind.startswith("tuple:"):
            parts = [f"{name}_{i}" for i in range(int(kind[6:]))]
            unpack.append(f"{', '.join(parts)}, = {name}")
            passed.extend(parts)
        else:
            unpack.append(f"{name}_f = fields({name}, {int(kind[6:])})")
            passed.append(f"*{name}_f")
    values = [f"bool(r.f{i})" if kind == "bool" else f"r.f{i}" for i, kind in enumerate(returns)]
    answer = "None" if not values else values[0] if len(values) == 1 else \
        f"({', '.join(values)},)"
    signature = ", ".join(parameters)
    source = "\n".join([
        f"def call({signature}):",
        "    calls[0] += 1",
        "    if calls[0] == PROMOTE_AFTER:",
        "        promote()",
        "    try:",
        *[f"        {line}" for line in unpack or ["pass"]],
        "    except (TypeError, ValueError):",
        f"        return fallback({signature})",
        "    r = Result()",
        f"    status = function(byref(r), ERROR, {', '.join(passed)})",
        "    if status not in OK:",
        "        failed(status)",
        f"    return {answer}",
    ])
    namespace: dict[str, Any] = {
        "fields": _array_fields, "fallback": fallback, "Result": result_type,
        "function": function, "byref": ctypes.byref, "ERROR": _ERROR, "OK": _STATUS_OK,
        "failed": _failed, "calls": calls, "promote": promote, "PROMOTE_AFTER": PROMOTE_AFTER,
    }
    exec(compile(source, f"<gametree image {header['entry']}>", "exec"), namespace)
    call = namespace["call"]
    call.kinds = tuple(kinds)
    return call


PROMOTE_AFTER = 2000
"""Calls after which an engine run from images turns to numba's dispatchers. A call through
:mod:`ctypes` costs a few microseconds more than numba's dispatcher (its arguments are
converted one by one in Python), while importing numba costs a third of a second: a process
that makes more calls than this (a server, a long book build) gains by the switch, a command
that solves or plays a game never makes it."""

_ERROR = ctypes.byref(ctypes.c_void_p())
"""Where numba's code puts a raised exception's description (never read: a failure is
reported by its status alone)."""
_arrays: dict[int, tuple[Any, tuple[int, ...], tuple[Any, ...]]] = {}
"""The fields of the arrays passed lately, by ``id`` (the engine passes its workspace and
buffers on every call): a weak reference to the array, its shape, its fields."""


def _array_fields(array: Any, ndim: int) -> tuple[Any, ...]:
    """An engine's array (:class:`~gametree.compiled.words.Words`) of ``ndim`` dimensions as
    numba passes it (meminfo, parent, size, item size, data, shape, strides); ``TypeError``
    for anything else (a numpy array, say: the call then goes through numba, which takes
    it)."""
    known = _arrays.get(id(array))
    if known is not None and known[0]() is array and known[1] == array.shape:
        return known[2]
    if not isinstance(array, Words) or array.ndim != ndim:
        raise TypeError("not an engine array of that shape")
    fields = (None, None, array.size, 8, array.address, *array.shape, *array.strides)
    if len(_arrays) >= 256:
        _arrays.clear()
    _arrays[id(array)] = (weakref.ref(array), array.shape, fields)
    return fields


def _failed(status: int) -> None:
    raise NativeError(f"the compiled engine failed (numba status {status})")


def _kind_of(value: Any) -> str:
    """The argument kind (as in an image's header) of a Python value."""
    if value.__class__ is bool:
        return "bool"
    if isinstance(value, int):
        return "int64"
    if isinstance(value, tuple):
        return f"tuple:{len(value)}"
    return f"array:{getattr(value, 'ndim', 0)}"


def _entry_point(callers: list[Any], fallback: Callable[..., Any]) -> Any:
    """The function a :class:`NativeEngine` gives for an entry point: its one image
    (whose caller turns to ``fallback`` for other argument types), or a choice among several
    by the arguments' kinds. Its ``signatures`` are the argument kinds it runs natively."""
    if len(callers) == 1:
        chosen = callers[0]
    else:
        by_kinds = {caller.kinds: caller for caller in callers}

        def chosen(*arguments: Any) -> Any:
            caller = by_kinds.get(tuple(_kind_of(value) for value in arguments), fallback)
            return caller(*arguments)

    chosen.signatures = [caller.kinds for caller in callers]
    return chosen


class NativeEngine:
    """Stands for a kernel's generated engine module: its entry points run from images where
    there are images for the call's argument types, through numba otherwise (the module
    ``fallback()`` gives, loaded on first need); its constants come from the images.

    An entry point's images are linked on its first use (:meth:`link`): a command that solves
    one position calls one entry point of the eleven, and each link costs a few milliseconds
    of a start-up that a small board's whole solve is measured with."""

    def __init__(self, images: dict[str, list[tuple[dict[str, Any], bytes]]],
                 fallback: Callable[[], Any], folder: Path) -> None:
        self._fallback = fallback
        self._folder = folder
        """Where the images and their libraries are."""
        self._unlinked = dict(images)
        """The images of the entry points not linked yet, by entry point."""
        self.calls = [0]
        """Calls made to the images so far (a list: the callers count in it)."""
        self.native = tuple(images)
        """The entry points that run from images, once linked (until :meth:`promote`)."""

    def link(self, name: str) -> bool:
        """Link the images of entry point ``name`` now, if not yet; True if it runs from an
        image (else it goes through numba)."""
        with _lock:
            images = self._unlinked.pop(name, None)
            if images is not None:
                through_numba = self._numba_entry(name)
                callers = []
                for header, code in images:
                    try:
                        address = _link(header, code, self._folder)
                    except (RuntimeError, OSError, TypeError, AttributeError):
                        # LLVM refused the object, or this system has no process-wide symbol
                        # lookup through ctypes (Windows): through numba, then
                        address = 0
                    if address:
                        callers.append(_caller(header, address, through_numba, self.calls,
                                               self.promote))
                        self.__dict__.update(header["constants"])
                if callers:
                    self.__dict__[name] = _entry_point(callers, through_numba)
                else:
                    self.native = tuple(entry for entry in self.native if entry != name)
        return name in self.native and name in self.__dict__

    def promote(self) -> None:
        """Run every entry point through numba's dispatchers from now on (importing numba and
        loading the kernel's cached machine code, the same code): a process that calls the
        engine this often pays numba's import once and then its faster calls."""
        self._fallback()
        with _lock:
            self._unlinked.clear()
            for name in self.native:
                self.__dict__[name] = self._numba_entry(name)
            self.native = ()

    def _numba_entry(self, name: str) -> _ThroughNumba:
        return _ThroughNumba(self._fallback, name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_fallback", "_folder", "_unlinked", "native"):
            raise AttributeError(name)
        # An entry point with images links here (or waits while another thread links it).
        if name in self.native and self.link(name):
            return self.__dict__[name]
        if name in ENTRY_POINTS:  # no image here: numba's
            entry = self.__dict__[name] = self._numba_entry(name)
            return entry
        return getattr(self._fallback(), name)


class _ThroughNumba:
    """An entry point through numba's dispatcher (loaded on the first call), given the engine's
    arrays as numpy's views of the same memory: numba takes numpy's arrays only."""

    def __init__(self, module: Callable[[], Any], name: str) -> None:
        self._module = module
        self._name = name
        self._dispatcher: Any = None

    @property
    def dispatcher(self) -> Any:
        """numba's dispatcher of the entry point (importing numba and the module)."""
        if self._dispatcher is None:
            self._dispatcher = getattr(self._module(), self._name)
        return self._dispatcher

    @property
    def signatures(self) -> list[Any]:
        """The argument types numba has loaded machine code for (none before a call)."""
        return list(self.dispatcher.signatures)

    def __call__(self, *arguments: Any) -> Any:
        return self.dispatcher(*map(_for_numba, arguments))


def _for_numba(argument: Any) -> Any:
    """An argument as numba takes it: an engine's array as numpy's view of its memory."""
    return numpy_view(argument) if isinstance(argument, Words) else argument


def numpy_view(array: Words) -> Any:
    """numpy's view of ``array``'s memory (the same items, no copy), made once per array."""
    if array.numpy_view is None:
        import numpy  # noqa: PLC0415 - only where numba runs the code, which imports it anyway

        flat = numpy.frombuffer(array.memory, dtype=numpy.int64, count=array.size,
                                offset=array.offset)
        array.numpy_view = flat.reshape(array.shape)
    return array.numpy_view


def load(folder: Path, module: str, fallback: Callable[[], Any]) -> NativeEngine | None:
    """The images of the generated module ``module`` in ``folder`` (its ``__pycache__``) as a
    :class:`NativeEngine`, or None when no image of its searches can be used here (the
    engine then loads through numba, as ever). ``fallback`` gives the module through numba."""
    try:  # names as strings: a cache of many kernels holds thousands of files
        files = [folder / name for name in os.listdir(folder)
                 if name.startswith(f"{module}.") and name.endswith(SUFFIX)]
    except OSError:
        return None
    headers = []
    for path in files:
        read = _read(path)
        if read is not None:
            headers.append(read)
    if not any(header["entry"] == "search_root" for header, _code in headers):
        return None
    settings = _settings()
    machine: dict[str, Any] | None = None  # LLVM's view, asked only if a library does not fit
    usable: dict[str, list[tuple[dict[str, Any], bytes]]] = {}
    for header, code in headers:
        if not sharedlib.fits(header.get("library"), settings):
            machine = machine or _machine()
            if header["machine"] != machine:
                continue
        usable.setdefault(header["entry"], []).append((header, code))
    engine = NativeEngine(usable, fallback, folder)
    # The root search is linked at once: without it no image is worth using, and its images
    # carry the module's constants.
    if not engine.link("search_root") or not set(CONSTANTS) <= set(engine.__dict__):
        return None
    return engine


def _read(path: Path) -> tuple[dict[str, Any], bytes] | None:
    """An image's header and object code, or None if it cannot be read or is not whole."""
    try:
        data = path.read_bytes()
        line, _, code = data.partition(b"\n")
        header = json.loads(line)
    except (OSError, ValueError):
        return None
    if not isinstance(header, dict) or header.get("format") != FORMAT or \
            header.get("entry") not in ENTRY_POINTS or \
            hashlib.sha256(code).hexdigest() != header.get("sha256") or \
            not set(header) >= _HEADER_KEYS:
        return None
    return header, code


_HEADER_KEYS = frozenset({"symbol", "arguments", "flat", "returns", "nogil", "imports",
                          "machine", "constants"})


@functools.cache
def _process() -> ctypes.CDLL:
    """This process's symbols (CPython's C functions, the C library), opened once."""
    return ctypes.CDLL(None)


def _link(header: dict[str, Any], code: bytes, folder: Path) -> int:
    """The address of the image's entry point, loaded from its shared library in ``folder``
    where it has one that fits this machine, else from ``code`` into an LLVM engine of its own
    (0 if a symbol it needs is not in this process, or LLVM's view of the machine is not the
    image's)."""
    process = _process()
    library = header.get("library")
    if sharedlib.fits(library, _settings()):
        if all(name in _HELPERS or hasattr(process, name) for name in header["imports"]):
            with contextlib.suppress(OSError, AttributeError):  # refused: LLVM links it
                opened, entry = sharedlib.open_symbol(folder, library, header["symbol"])
                _keep.append(opened)
                return entry
        if header["machine"] != _machine():  # not asked yet: the library was to be used
            return 0
    llvm = _llvm()
    for name in header["imports"]:
        if llvm.address_of_symbol(name) is not None:
            continue
        try:
            address = ctypes.cast(getattr(process, name), ctypes.c_void_p).value
        except AttributeError:
            if name not in _HELPERS:
                return 0
            address = _stand_in()
        llvm.add_symbol(name, address)
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), _target_machine())
    engine.add_object_file(llvm.ObjectFileRef.from_data(code))
    engine.finalize_object()
    _keep.append(engine)
    return int(engine.get_function_address(header["symbol"]))
