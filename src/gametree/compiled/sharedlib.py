"""An image's machine code as a shared library, opened by the system's dynamic loader.

An image (:mod:`gametree.compiled.native`) holds the object code numba compiled for one entry
point. Loading object code takes a linker: LLVM's, through llvmlite, whose import and link cost
a short command about 30-40 ms of its start-up (a 6x5 board's whole solve takes 150 ms). So,
when an image is written (in a process that has numba, and so llvmlite), the system's linker
``ld`` also turns the same object code into a shared library beside it (:func:`make`); a later
process opens that with :mod:`ctypes` in about 2 ms (:func:`open_symbol`), without llvmlite.

The machine code is still numba's, byte for byte: the linker only places it and fills in its
addresses (at load time, by the dynamic loader, since numba's code model takes absolute
addresses). numba's helpers that the code reaches only to raise an exception get a stand-in in
the library that returns 0, as the LLVM path gives them. A library is used only on the
processor it was made on, as the kernel describes it (:func:`host`), under the same Python and
numba settings; anywhere else, or without ``ld``, or if the dynamic loader refuses it, the image
is linked by LLVM as before.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import os
import sys
from pathlib import Path
from typing import Any, TypeGuard

SUFFIX = ".so"
"""The file suffix of a library (after the image's own name, so it belongs to the kernel)."""

_CPU_FIELDS = ("vendor_id", "cpu family", "model", "model name", "stepping", "flags",
               "CPU implementer", "CPU architecture", "CPU variant", "CPU part",
               "CPU revision", "Features", "isa")
"""The fields of ``/proc/cpuinfo`` that say which processor this is and what it can run (x86,
Arm, RISC-V): the ones from which LLVM's view of the host follows."""


@functools.cache
def _processor() -> str | None:
    """A digest of this processor as the operating system describes it (its first
    processor's :data:`_CPU_FIELDS`), or None where there is no ``/proc/cpuinfo``."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as file:
            first = file.read().split("\n\n", 1)[0]
    except OSError:
        return None
    fields = dict(sorted((name.strip(), value.strip()) for name, _, value in
                         (line.partition(":") for line in first.splitlines())
                         if name.strip() in _CPU_FIELDS))
    return hashlib.sha256(repr(fields).encode()).hexdigest() if fields else None


def host(settings: dict[str, str | None]) -> dict[str, Any] | None:
    """What decides whether a library made here runs somewhere: this processor, Python's
    version and numba's ``settings``; None where the processor cannot be told."""
    processor = _processor()
    if processor is None:
        return None
    return {"processor": processor, "python": list(sys.version_info[:2]),
            "settings": settings}


def make(folder: Path, name: str, code: bytes, helpers: list[str], stub_object: Any,
         settings: dict[str, str | None]) -> dict[str, Any] | None:
    """Link the object ``code`` into the shared library ``folder/name.so``, with a stand-in
    for each of numba's ``helpers`` it needs (their object made by ``stub_object(helpers)``).
    Returns what an image's header records of it (its file, digest and :func:`host`), or None
    if it cannot be made here (no ``ld``, no ``/proc/cpuinfo``, the linker refused, the folder
    cannot be written)."""
    import shutil  # noqa: PLC0415 - these three only where numba compiles, not on start-up
    import subprocess  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    linker = shutil.which("ld")
    made_on = host(settings)
    if linker is None or made_on is None:
        return None
    path = folder / f"{name}{SUFFIX}"
    # Linked beside its place, then renamed into it: the file appears whole or not at all.
    temporary = folder / f"{name}.{os.getpid()}.tmp{SUFFIX}"
    with tempfile.TemporaryDirectory(prefix="gametree-link-") as scratch:
        objects = [Path(scratch) / "code.o"]
        objects[0].write_bytes(code)
        if helpers:
            objects.append(Path(scratch) / "helpers.o")
            objects[1].write_bytes(stub_object(helpers))
        # -Bsymbolic: the stand-ins serve this library's own calls, whatever else is loaded;
        # -z notext: numba's absolute addresses are filled in when the library is opened.
        command = [linker, "-shared", "-Bsymbolic", "-z", "notext", "-o", str(temporary),
                   *map(str, objects)]
        try:
            done = subprocess.run(command, capture_output=True, timeout=60, check=False)
            if done.returncode != 0:
                temporary.unlink(missing_ok=True)
                return None
            digest = hashlib.sha256(temporary.read_bytes()).hexdigest()
            temporary.replace(path)
        except (OSError, subprocess.SubprocessError):
            with contextlib.suppress(OSError):
                temporary.unlink()
            return None
    return {"file": path.name, "sha256": digest, "host": made_on}


def fits(library: Any, settings: dict[str, str | None]) -> TypeGuard[dict[str, Any]]:
    """True if the library an image's header records (``library``, None for none) was made on
    a host like this one."""
    return isinstance(library, dict) and library.get("host") == host(settings)


def open_symbol(folder: Path, library: dict[str, Any], symbol: str) -> tuple[Any, int]:
    """Open the library an image's header records, in ``folder``, and give it (to be kept for
    as long as its code may run) and the address of ``symbol`` in it. Raises ``OSError`` if
    it is missing, not the file recorded, or the dynamic loader refuses it (a symbol missing
    from this process, say); ``AttributeError`` if it lacks ``symbol``."""
    path = folder / str(library["file"])
    if hashlib.sha256(path.read_bytes()).hexdigest() != library.get("sha256"):
        raise OSError(f"{path.name} is not the library its image was made with")
    opened = ctypes.CDLL(str(path))
    address = ctypes.cast(getattr(opened, symbol), ctypes.c_void_p).value
    if not address:
        raise AttributeError(symbol)
    return opened, address
