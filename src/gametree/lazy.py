"""Names of a package imported on first use (a module-level ``__getattr__``, PEP 562)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_names(package: str, modules: dict[str, str],
               namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The ``__getattr__`` of the package ``package`` whose names ``modules`` maps each to its
    submodule: the first use of a name imports that submodule and keeps the name in the
    package's ``namespace`` (its ``globals()``), so that later uses cost nothing."""

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module hook's own name
        if name not in modules:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{modules[name]}", package), name)
        namespace[name] = value
        return value

    return __getattr__


__all__ = ["lazy_names"]
