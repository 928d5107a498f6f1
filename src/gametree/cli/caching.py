"""The ``cache`` command: where compiled kernels are kept, what they take, and emptying it.

Pure file operations (:mod:`gametree.compiled.cache`): numba is never imported, so both
sub-commands answer at once.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..compiled.cache_contents import (
    CachedKernel,
    CacheInfo,
    Cleared,
    cache_info,
    clear_cache,
    format_size,
)


def _kernels(count: int) -> str:
    return f"{count} compiled kernel{'s' if count != 1 else ''}"


def info_text(info: CacheInfo) -> str:
    """The cache as a few lines: its directory, one line per kernel (with how many variants of
    it are compiled, when more than one), the total."""
    lines = [f"cache directory: {info.directory}"]
    if not info.kernels:
        lines.append("no compiled kernels")
        return "\n".join(lines)
    variants: dict[str, list[CachedKernel]] = {}
    for kernel in info.kernels:
        variants.setdefault(kernel.name, []).append(kernel)
    rows = []
    for name, compiled in variants.items():
        unfinished = sum(not kernel.ready for kernel in compiled)
        status = "ready" if not unfinished else "incomplete" if len(compiled) == 1 else \
            f"{unfinished} incomplete"
        label = name if len(compiled) == 1 else f"{name} ({len(compiled)} variants)"
        rows.append((label, status, format_size(sum(kernel.size for kernel in compiled))))
    header = ("kernel", "status", "size")
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(2)]
    for row in [header, *rows]:
        lines.append(f"{row[0].ljust(widths[0])}  {row[1].ljust(widths[1])}  {row[2]}".rstrip())
    several = len(variants) != len(info.kernels)
    counted = (f"{len(variants)} kernels in {len(info.kernels)} compiled variants" if several
               else _kernels(len(info.kernels)))
    lines.append(f"total: {counted}, {format_size(info.size)}")
    if several:
        lines.append("(variants: a kernel compiled again after its source, its parameters or "
                     "numba changed; the older ones stay until 'gametree cache clear')")
    if any(not kernel.ready for kernel in info.kernels):
        lines.append("(incomplete: being compiled now, or its compile was interrupted; "
                     "the next use completes it)")
    return "\n".join(lines)


def cleared_text(cleared: Cleared) -> str:
    """What ``cache clear`` did, in a line or a few."""
    folder = cleared.directory / "kernels"
    if cleared.removed:
        lines = [f"removed {_kernels(len(cleared.removed))} ({format_size(cleared.freed)}) "
                 f"from {folder}"]
    elif not (cleared.busy or cleared.failed):
        lines = [f"nothing to remove: no compiled kernels in {cleared.directory}"]
    else:
        lines = [f"removed nothing from {folder}"]
    if cleared.busy:
        names = ", ".join(kernel.name for kernel in cleared.busy)
        lines.append(f"left {_kernels(len(cleared.busy))} that another process is compiling "
                     f"now: {names}")
    lines.extend(f"could not remove {failure}" for failure in cleared.failed)
    return "\n".join(lines)


def run_info(args: argparse.Namespace) -> int:
    """``gametree cache info``: the cache directory and its compiled kernels."""
    info = cache_info()
    print(json.dumps(info.as_dict()) if args.json else info_text(info))
    return 0


def run_clear(args: argparse.Namespace) -> int:
    """``gametree cache clear``: delete the compiled kernels (1 if some file stayed)."""
    cleared = clear_cache()
    print(json.dumps(cleared.as_dict()) if args.json else cleared_text(cleared))
    return 1 if cleared.failed else 0


def add_commands(subparsers: Any) -> None:
    """Register ``cache`` with its sub-commands ``info`` and ``clear``."""
    command = subparsers.add_parser(
        "cache", help="show or clear the compiled kernels kept on disk",
        description="Compiled kernels are kept on disk so that a game compiles once: in "
                    "$GAMETREE_CACHE_DIR, else $XDG_CACHE_HOME/gametree, else "
                    "~/.cache/gametree.")
    actions = command.add_subparsers(dest="action", metavar="ACTION", required=True,
                                     parser_class=type(command))
    info = actions.add_parser(
        "info", help="where the cache is, each compiled kernel and its size",
        description="Show the cache directory, each compiled kernel (ready, or incomplete "
                    "while it is being compiled) with its size on disk, and the total.")
    info.add_argument("--json", action="store_true", help="print the report as JSON")
    info.set_defaults(run=run_info)
    clear = actions.add_parser(
        "clear", help="delete the compiled kernels (they compile again on next use)",
        description="Delete every compiled kernel in the cache and say how much space was "
                    "freed. Only gametree's own files in the cache's kernels directory are "
                    "deleted; a kernel another process is compiling right now is left alone.")
    clear.add_argument("--json", action="store_true", help="print the report as JSON")
    clear.set_defaults(run=run_clear)
