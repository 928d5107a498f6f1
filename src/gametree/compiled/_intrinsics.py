"""What numba does not offer by name: a cache prefetch, a cycle counter, a call by address.

* :func:`prefetch` asks the processor to start loading the cache line of ``array[index]``. The
  engine issues it for a position's table slot as soon as it knows the position, so that the
  slot (usually in main memory: the table is far larger than the caches) arrives while the
  position's moves are being generated.
* :func:`cycles` reads the processor's time-stamp counter. The benchmark loop uses it to time
  each solve without the table clearing between positions (Pons' benchmark likewise clears
  the table before it starts the clock).
* :func:`call_int` calls a C function ``int f(void)`` given its address as an integer. The
  engine asks CPython this way whether Ctrl-C was pressed (``PyOS_InterruptOccurred``): the
  address is data, read from the workspace at run time, so the compiled code caches like any
  other (numba will not cache code that holds a ctypes function, whose address changes from
  one process to the next).

They are numba intrinsics, so they compile to single instructions (a call) and cache like any
other compiled code. They are only usable from compiled functions.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _prefetch(typingctx: Any, array: Any, index: Any) -> Any:
    """Start loading the cache line that holds ``array[index]`` (a hint: it never faults)."""
    signature = types.void(array, index)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> None:
        array_type = sig.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, array_type, view, [args[1]], wraparound=False)
        byte_pointer = ir.IntType(8).as_pointer()
        int32 = ir.IntType(32)
        function = builder.module.declare_intrinsic(
            "llvm.prefetch", fnty=ir.FunctionType(ir.VoidType(),
                                                  [byte_pointer, int32, int32, int32]))
        # read access, high temporal locality, data cache
        builder.call(function, [builder.bitcast(pointer, byte_pointer), int32(0), int32(3),
                                int32(1)])

    return signature, codegen


def _cycles(typingctx: Any) -> Any:
    """The processor's cycle counter (x86 ``rdtsc``): a clock for timing inside compiled code."""
    signature = types.int64()

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        int64 = ir.IntType(64)
        function = builder.module.declare_intrinsic("llvm.readcyclecounter",
                                                    fnty=ir.FunctionType(int64, []))
        return builder.call(function, [])

    return signature, codegen


def _call_int(typingctx: Any, address: Any) -> Any:
    """Call the C function ``int f(void)`` at ``address`` (an integer): its result, widened."""
    if not isinstance(address, types.Integer):
        return None
    signature = types.int64(address)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        function_type = ir.FunctionType(ir.IntType(32), [])
        function = builder.inttoptr(args[0], function_type.as_pointer())
        return builder.sext(builder.call(function, []), ir.IntType(64))

    return signature, codegen


prefetch: Any = intrinsic(_prefetch)
"""``prefetch(array, index)``: start loading the cache line of ``array[index]``."""

cycles: Any = intrinsic(_cycles)
"""``cycles()``: the processor's cycle counter."""

call_int: Any = intrinsic(_call_int)
"""``call_int(address)``: the result of the C function ``int f(void)`` at ``address``."""
