"""The layering contract (docs/architecture.md), checked over the package's import graph.

Data flows one way: rules -> search -> service -> front-ends. A module may import its own layer
and the layers below it, never one above; no front-end imports another but where the table
below allows it (the command line launches the others); the solution store never imports the
player; nothing outside ``gametree.reference`` imports its private helpers.

The graph is read from the source with :mod:`ast`, every ``import`` counted wherever it stands
(in a function, under ``TYPE_CHECKING``): a type-only import is a dependency of the code's
meaning too. A new module must be placed in :data:`LAYERS`, so that nobody adds a package the
contract does not speak of.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import gametree

SOURCE = Path(gametree.__file__).resolve().parent
"""The package's source directory."""

RULES, SEARCH, SERVICE, FRONT_END = range(4)
LAYER_NAMES = ("rules", "search", "service", "front-end")

LAYERS: dict[str, int] = {
    # The vocabulary every layer shares: values, numbers in text, a game's contract, the
    # built-in games, the registry that names them, how a position is drawn, what a search
    # returns, and the language kernels are written in (a game's compiled form stands next
    # to the game).
    "gametree.values": RULES,
    "gametree.numbers": RULES,
    "gametree.game": RULES,
    "gametree.games": RULES,
    # The bridge to OpenSpiel's games: a game like any other (pyspiel is imported only when
    # one is built, and only here).
    "gametree.games.openspiel": RULES,
    "gametree.registry": RULES,
    "gametree.plugins": RULES,
    "gametree.entry_points": RULES,
    "gametree.cachedir": RULES,
    # Plumbing any layer may use: names imported on first use, findings kept between
    # processes in the cache directory.
    "gametree.lazy": RULES,
    "gametree.remembered": RULES,
    "gametree.view": RULES,
    "gametree.result": RULES,
    "gametree.compiled.kernel": RULES,
    "gametree.compiled.form": RULES,
    "gametree.compiled.authoring": RULES,
    "gametree.compiled._intrinsics": RULES,
    # The searches: the reference algorithms, the engines of both tiers, their options and
    # the solvers beside them.
    "gametree.trace": SEARCH,
    "gametree.options": SEARCH,
    "gametree.limits": SEARCH,
    "gametree.algorithms": SEARCH,
    "gametree.reference": SEARCH,
    "gametree.engine": SEARCH,
    "gametree.compiled": SEARCH,
    "gametree.solvers": SEARCH,
    "gametree.count": SEARCH,
    "gametree.levels": SEARCH,
    # One way to search, the solution store it may probe, and the tools built on the search.
    "gametree.service": SERVICE,
    "gametree.pool": SERVICE,
    "gametree.db": SERVICE,
    "gametree.check": SERVICE,
    "gametree.frontend": SERVICE,
    "gametree.records": SERVICE,
    # The front-ends.
    "gametree.cli": FRONT_END,
    "gametree.web": FRONT_END,
    "gametree.play": FRONT_END,
    "gametree.builder": FRONT_END,
    "gametree.arena": FRONT_END,
    # The UCI engine: chess on standard input and output, over the search service.
    "gametree.uci": FRONT_END,
}
"""Each package or module of gametree and its layer (the longest matching name counts)."""

FACADES = {"gametree", "gametree.__main__"}
"""The package itself (which gathers the public names) and ``python -m gametree``."""

FRONT_ENDS_ALLOWED: dict[str, set[str]] = {
    # The command line starts the others: `serve` the web app, `play` the terminal player,
    # `db build` the builder, `match` the arena, `uci` the UCI engine.
    "gametree.cli": {"gametree.web", "gametree.play", "gametree.builder", "gametree.arena",
                     "gametree.uci"},
    # A match's players are the terminal's opponents (play.SearchOpponent), made from specs.
    "gametree.arena": {"gametree.play"},
}
"""The only imports from one front-end into another."""

FORBIDDEN: list[tuple[str, str, str]] = [
    ("gametree.db", "gametree.play", "the solution store never imports the player"),
    ("gametree.web", "gametree.cli", "the web speaks to the service, not to the command line"),
]
"""Pairs (importer, imported) ruled out on their own, with the reason."""


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(SOURCE.rglob("*.py")):
        parts = ("gametree", *path.relative_to(SOURCE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def _imports(name: str, path: Path) -> set[str]:
    """The gametree modules (or names in them) that ``path`` imports."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            # ``from . import x`` and ``from .pkg import mod``: the names may be modules.
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return {item for item in found if item == "gametree" or item.startswith("gametree.")}


def _owner(name: str) -> str | None:
    """The longest entry of :data:`LAYERS` that ``name`` is or lies in."""
    best = None
    for entry in LAYERS:
        if (name == entry or name.startswith(entry + ".")) and \
                (best is None or len(entry) > len(best)):
            best = entry
    return best


GRAPH = {name: _imports(name, path) for name, path in _modules()}


def _edges() -> Iterator[tuple[str, str, str, str]]:
    """(importer, imported, importer's entry, imported's entry) for every import between
    modules of different entries; names that are not modules (``from x import y``) are
    matched by their module."""
    for importer, targets in GRAPH.items():
        if importer in FACADES:
            continue
        mine = _owner(importer)
        assert mine is not None
        for target in targets:
            theirs = _owner(target)
            if theirs is not None and theirs != mine and target not in FACADES:
                yield importer, target, mine, theirs


def test_every_module_has_a_layer() -> None:
    unplaced = [name for name in GRAPH if name not in FACADES and _owner(name) is None]
    assert not unplaced, f"modules the layering contract does not place: {unplaced}"


def test_no_module_imports_a_layer_above_its_own() -> None:
    upward = [f"{importer} ({LAYER_NAMES[LAYERS[mine]]}) imports {target} "
              f"({LAYER_NAMES[LAYERS[theirs]]})"
              for importer, target, mine, theirs in _edges()
              if LAYERS[theirs] > LAYERS[mine]]
    assert not upward, "\n".join(upward)


def test_no_front_end_imports_another() -> None:
    crossing = []
    for importer, target, mine, theirs in _edges():
        if LAYERS[mine] == FRONT_END and LAYERS[theirs] == FRONT_END and \
                theirs not in FRONT_ENDS_ALLOWED.get(mine, set()):
            crossing.append(f"{importer} imports {target}")
    assert not crossing, "\n".join(crossing)


@pytest.mark.parametrize(("importer", "imported", "reason"), FORBIDDEN)
def test_forbidden_imports(importer: str, imported: str, reason: str) -> None:
    found = [f"{name} imports {target}" for name, targets in GRAPH.items()
             if name == importer or name.startswith(importer + ".")
             for target in targets
             if target == imported or target.startswith(imported + ".")]
    assert not found, f"{reason}: " + "; ".join(found)


def test_nothing_outside_reference_imports_its_private_helpers() -> None:
    private = [f"{name} imports {target}" for name, targets in GRAPH.items()
               if not name.startswith("gametree.reference")
               for target in targets
               if target.startswith("gametree.reference.")
               and target.split(".")[2].startswith("_")]
    assert not private, "\n".join(private)


def test_the_contract_sees_a_violation() -> None:
    """The graph is read right: a known import is in it (the checks above are not vacuous)."""
    assert "gametree.service" in GRAPH["gametree.cli.searching"] or any(
        target.startswith("gametree.service") for target in GRAPH["gametree.cli.searching"])
    assert _owner("gametree.compiled.engine") == "gametree.compiled"
    assert _owner("gametree.compiled.form") == "gametree.compiled.form"
