"""Arrays of 64-bit integers without numpy: the compiled engine's workspace and buffers.

An engine run from its images (:mod:`gametree.compiled.native`) passes its arrays to machine
code as a data pointer, a size, a shape and strides: nothing in it needs numpy, whose import
takes about a twentieth of a second, more than a third of a small board's whole solve. A
:class:`Words` array is memory of the operating system's (an anonymous mapping for a large
one: zero pages, taken on first use, in huge pages where the system gives them, as numpy asks
for its large arrays) read and written through a :class:`memoryview`, with the few operations
the engine uses: items, contiguous slices (views of the same memory), emptying, ``tolist``.

Where numba runs the code (a kernel compiled in this process, or an entry point without an
image), it is given numpy's view of the same memory, made without copying it
(:func:`gametree.compiled.native.numpy_view`), so that both see every write of the other.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import mmap
from collections.abc import Iterable
from typing import Any, SupportsIndex

_MAPPED_BYTES = 1 << 22
"""Arrays of at least this many bytes are mapped anonymously (numpy's own threshold for asking
for huge pages)."""


class Words:
    """A C-ordered array of int64 of one or two dimensions over memory that it keeps alive;
    slices of one dimension are views of the same memory. Made by :func:`zeros`."""

    __slots__ = ("__weakref__", "_items", "_memory", "_start", "address", "numpy_view", "shape")

    def __init__(self, memory: Any, items: memoryview, start: int, shape: tuple[int, ...],
                 address: int) -> None:
        self._memory = memory  # the buffer: kept alive as long as any view of it
        self._items = items  # all of it, as int64 items
        self._start = start
        self.shape = shape
        """Its dimensions (numpy's meaning)."""
        self.address = address
        """The address of its first item."""
        self.numpy_view: Any = None
        """numpy's view of its memory, once numba has been given it (made once: the engine
        passes its arrays on every call); a view of :attr:`memory`, not of this object, so
        that the two do not keep each other alive (freeing a table waits for no collection
        of cycles)."""

    @property
    def memory(self) -> Any:
        """The memory it is a view of (shared by every view of it)."""
        return self._memory

    @property
    def offset(self) -> int:
        """The bytes from the start of :attr:`memory` to its first item."""
        return 8 * self._start

    @property
    def ndim(self) -> int:
        """Its number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """Its number of items."""
        return math.prod(self.shape)

    @property
    def strides(self) -> tuple[int, ...]:
        """The bytes from one item to the next along each dimension (numpy's meaning)."""
        return (8 * self.shape[1], 8) if len(self.shape) == 2 else (8,)

    def __len__(self) -> int:
        return self.shape[0]

    def _row(self, index: SupportsIndex) -> Words:
        row = _checked(index, self.shape[0])
        columns = self.shape[1]
        return Words(self._memory, self._items, self._start + row * columns, (columns,),
                     self.address + 8 * row * columns)

    def __getitem__(self, index: SupportsIndex | slice) -> Any:
        if isinstance(index, slice):
            start, stop = _span(index, self.shape[0], self.ndim)
            return Words(self._memory, self._items, self._start + start,
                         (stop - start,), self.address + 8 * start)
        if self.ndim == 2:
            return self._row(index)
        return self._items[self._start + _checked(index, self.shape[0])]

    def __setitem__(self, index: SupportsIndex | slice, value: Any) -> None:
        if isinstance(index, slice):
            start, stop = _span(index, self.shape[0], self.ndim)
            self[start:stop].fill(value)
        elif self.ndim == 2:
            self._row(index).assign(value)
        else:
            self._items[self._start + _checked(index, self.shape[0])] = int(value)

    def fill(self, value: int) -> None:
        """Set every item to ``value``."""
        if value == 0:  # the table's emptying: at memory speed
            ctypes.memset(self.address, 0, 8 * self.size)
        else:
            items, start = self._items, self._start
            for i in range(start, start + self.size):
                items[i] = int(value)

    def assign(self, values: Iterable[int]) -> None:
        """Set the items of a one-dimensional array, in order, to ``values`` (as many)."""
        values = [int(value) for value in values]
        if len(values) != self.size:
            raise ValueError(f"{len(values)} values for {self.size} items")
        self._items[self._start:self._start + self.size] = _packed(values)

    def tolist(self) -> list[Any]:
        """Its items as Python ints (a list of rows for two dimensions)."""
        if self.ndim == 2:
            return [self._row(row).tolist() for row in range(self.shape[0])]
        return self._items[self._start:self._start + self.shape[0]].tolist()


def zeros(shape: int | tuple[int, int]) -> Words:
    """A new array of zeros: ``shape`` items, or ``(rows, columns)``."""
    dimensions = (shape,) if isinstance(shape, int) else tuple(shape)
    size = max(8 * math.prod(dimensions), 8)
    memory: Any
    if size >= _MAPPED_BYTES:
        private = getattr(mmap, "MAP_PRIVATE", None)
        # Private: Linux backs shared anonymous memory with ordinary pages only.
        memory = mmap.mmap(-1, size) if private is None else \
            mmap.mmap(-1, size, flags=private | mmap.MAP_ANONYMOUS)  # zero pages until written
        advise = getattr(memory, "madvise", None)
        huge = getattr(mmap, "MADV_HUGEPAGE", None)
        if advise is not None and huge is not None:
            with contextlib.suppress(OSError):  # not offered here: ordinary pages
                advise(huge)
    else:
        memory = bytearray(size)
    address = ctypes.addressof(ctypes.c_char.from_buffer(memory))
    return Words(memory, memoryview(memory).cast("q"), 0, dimensions, address)


def _packed(values: list[int]) -> memoryview:
    return memoryview((ctypes.c_int64 * len(values))(*values)).cast("B").cast("q")


def _checked(index: SupportsIndex, length: int) -> int:
    position = index.__index__()
    if position < 0:
        position += length
    if not 0 <= position < length:
        raise IndexError(f"index {index.__index__()} out of range for {length} items")
    return position


def _span(index: slice, length: int, ndim: int) -> tuple[int, int]:
    if ndim != 1:
        raise TypeError("only a one-dimensional array is sliced")
    start, stop, step = index.indices(length)
    if step != 1:
        raise ValueError("only contiguous slices are views")
    return start, max(start, stop)
