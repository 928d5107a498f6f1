"""The compiled engine's arrays without numpy (gametree.compiled.words): items, slices that are
views of the same memory, emptying, rows of two dimensions, numpy's view of the same memory
(for numba), and the fields the images are given; bad indices are refused."""

from __future__ import annotations

import gc
import mmap
import weakref
from pathlib import Path

import numpy as np
import pytest

from gametree.compiled import native, words


def test_items_and_slices_share_one_memory() -> None:
    array = words.zeros(10)
    assert array.tolist() == [0] * 10 and (array.ndim, array.size, array.strides) == (1, 10, (8,))
    view = array[3:]
    view[0] = -5
    view[-1] = 2**62
    assert (array[3], array[9], len(view)) == (-5, 2**62, 7)
    assert view.address == array.address + 24 and view.memory is array.memory
    array[4:8] = 7
    assert array.tolist() == [0, 0, 0, -5, 7, 7, 7, 7, 0, 2**62]
    view.fill(0)
    assert array.tolist() == [0] * 10
    assert array[8:3].tolist() == []  # an empty slice, as Python's


def test_rows_of_two_dimensions() -> None:
    rows = words.zeros((3, 2))
    rows[1] = (4, 5)
    rows[-1] = [6, 7]
    assert rows.tolist() == [[0, 0], [4, 5], [6, 7]]
    assert (rows.shape, rows.strides, rows.size, len(rows)) == ((3, 2), (16, 8), 6, 3)
    with pytest.raises(ValueError, match="3 values for 2 items"):
        rows[0] = (1, 2, 3)


def test_numpy_sees_the_same_memory() -> None:
    array = words.zeros(10)[4:]  # a view: numpy's starts where it starts
    seen = native.numpy_view(array)
    seen[2] = 9
    array[5] = -1
    assert array[2] == 9 and seen[5] == -1
    assert seen.flags.c_contiguous and seen.flags.writeable and seen.dtype == np.int64
    rows = words.zeros((2, 3))
    native.numpy_view(rows)[1, 2] = 4
    assert rows.tolist() == [[0, 0, 0], [0, 0, 4]]


def test_a_large_array_is_mapped_memory() -> None:
    large = words.zeros(1 << 20)  # 8 MiB: zero pages from the system, not Python's heap
    small = words.zeros(16)
    assert isinstance(large.memory, mmap.mmap) and isinstance(small.memory, bytearray)
    assert large.address % mmap.PAGESIZE == 0 and len(large.memory) == 8 << 20
    large[(1 << 20) - 1] = 3
    assert large[-1] == 3


def vm_flags(address: int) -> list[str]:
    """The kernel's flags of the mapping holding ``address`` (Linux's /proc/self/smaps)."""
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        first = line.split()[0]
        if "-" in first and not first.endswith(":"):
            start, end = (int(part, 16) for part in first.split("-"))
            inside = start <= address < end
        elif inside and first == "VmFlags:":
            return line.split()[1:]
    raise AssertionError("no mapping holds the address")


@pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="Linux's /proc only")
def test_a_large_array_is_private_memory_advised_for_huge_pages() -> None:
    # Linux backs shared anonymous memory with ordinary pages only (a 6x5 solve took 0.19 s on
    # them, 0.14 s on huge pages), so the mapping must be private, and advised.
    large = words.zeros(1 << 20)
    flags = vm_flags(large.address)
    assert "sh" not in flags
    if hasattr(mmap, "MADV_HUGEPAGE"):
        assert "hg" in flags


def test_the_images_get_its_fields() -> None:
    array = words.zeros((4, 3))
    assert native._array_fields(array, 2) == (None, None, 12, 8, array.address, 4, 3, 24, 8)
    with pytest.raises(TypeError):
        native._array_fields(words.zeros(5), 2)
    with pytest.raises(TypeError):  # numpy's arrays go through numba, which takes them
        native._array_fields(np.zeros(5, dtype=np.int64), 1)


@pytest.mark.parametrize("index", [10, -11])
def test_an_index_out_of_range_is_refused(index: int) -> None:
    with pytest.raises(IndexError, match="out of range"):
        words.zeros(10)[index]


def test_only_contiguous_slices_of_one_dimension() -> None:
    with pytest.raises(ValueError, match="contiguous"):
        words.zeros(10)[::2]
    with pytest.raises(TypeError, match="one-dimensional"):
        words.zeros((2, 2))[0:1]


def test_numba_is_given_one_numpy_view_of_each_array() -> None:
    # The engine passes its workspace on every call: the view is made once, not per call.
    array = words.zeros(4)
    first = native._for_numba(array)
    assert native._for_numba(array) is first
    first[1] = 3
    assert array[1] == 3
    assert native._for_numba(7) == 7


def test_an_array_given_to_numba_is_freed_at_once() -> None:
    # Its numpy view is a view of the memory, not of the array: no cycle between them, so a
    # dropped engine's table goes back to the system at once, not at the next collection.
    array = words.zeros(1 << 20)
    view = native._for_numba(array)
    assert view.base is not None and not isinstance(view.base, words.Words)
    gone = weakref.ref(array)
    gc.disable()
    try:
        del array, view
        assert gone() is None
    finally:
        gc.enable()
