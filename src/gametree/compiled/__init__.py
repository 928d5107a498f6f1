"""The compiled tier: games written as numba kernels, searched at native speed.

A kernel (:class:`Kernel`) is a game's rules as small functions over a fixed-size integer
state; :class:`CompiledEngine` searches it (negamax alpha-beta, transposition table, null-window
solving) and returns the same :class:`gametree.SearchResult` as the Python tier;
:class:`KernelGame` makes a kernel an ordinary :class:`gametree.Game`; a Python game's
:meth:`~gametree.Game.compiled_form` returns a :class:`CompiledForm` (its kernel and the two
translations, :func:`same_move` when the moves are the kernel's own integers). See docs/kernels.md.

numba is imported only when an engine is built, so importing this package is cheap.
"""

from ..cachedir import cache_directory
from .adapter import KernelGame
from .build import set_compile_listener
from .engine import DEFAULT_TABLE_BITS, BatchResult, CompiledEngine
from .form import CompiledForm, same_move
from .kernel import ONGOING, Kernel, KernelError, plain
from .startup import without_blas_probe

__all__ = [
    "DEFAULT_TABLE_BITS",
    "ONGOING",
    "BatchResult",
    "CompiledEngine",
    "CompiledForm",
    "Kernel",
    "KernelError",
    "KernelGame",
    "cache_directory",
    "plain",
    "same_move",
    "set_compile_listener",
    "without_blas_probe",
]
