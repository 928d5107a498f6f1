"""Starting numba quickly in a process that only runs game kernels.

The first time numba loads compiled code in a process, it initialises its CPU target and, on
the way, checks whether a BLAS is available for ``np.dot`` and ``np.linalg`` by importing
``scipy.linalg`` (``numba.np.arraymath._check_blas``). When SciPy is installed that import
costs about 0.3 s — a third of a new process's wait before its first compiled search, for a
library that game kernels never call.

:func:`without_blas_probe` hides ``scipy.linalg`` while numba initialises, so numba concludes
there is no BLAS. In that process numba then refuses to compile ``np.dot`` or ``np.linalg``
(with its message "scipy 0.16+ is required for linear algebra"); SciPy itself stays importable
afterwards. The ``gametree`` command uses it around its compiled searches, whose kernels are the
built-in ones; a library caller who wants the same start-up can use it too.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

_HIDDEN = "scipy.linalg"


@contextmanager
def without_blas_probe() -> Iterator[None]:
    """Within this block, numba's first initialisation skips its SciPy BLAS probe.

    Nothing changes when ``scipy.linalg`` or numba's CPU target is already loaded.
    """
    if _HIDDEN in sys.modules or "numba.np.arraymath" in sys.modules:
        yield
        return
    sys.modules[_HIDDEN] = None  # type: ignore[assignment]  # import system: "not available"
    try:
        yield
    finally:
        if _HIDDEN in sys.modules and sys.modules[_HIDDEN] is None:
            del sys.modules[_HIDDEN]
