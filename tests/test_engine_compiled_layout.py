"""The compiled engine's driver (compiled/engine.py) and its template (compiled/_engine.py) agree
on the workspace layout, the result slots, the modes and the value scale.

The driver keeps its own copies of the slot numbers as module constants (it must not import
numba, which the template needs, before a compiled search is asked for); this test is what
keeps the two declarations one: every constant the driver mirrors has the template's value.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import gametree.compiled.engine as driver
from gametree import values


def template_constants() -> SimpleNamespace:
    """The template's module-level constants, read from its source: importing the template
    would compile it (its recursive search has an explicit signature), and it is a template,
    whose kernel binding only a generated copy has."""
    source = Path(driver.__file__).with_name("_engine.py").read_text(encoding="utf-8")
    known: dict[str, Any] = {"WIN": values.WIN, "PROVEN": values.PROVEN}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.value is not None:
            name, value = node.target.id, node.value
        else:
            continue
        try:  # the constants are literals or expressions of earlier constants
            known[name] = eval(compile(ast.Expression(value), "_engine.py", "eval"),
                               {"__builtins__": {}}, dict(known))
        except Exception:  # not a constant (a function, a numba type): not layout
            continue
    return SimpleNamespace(**known)


template = template_constants()

MIRRORED = re.compile(r"_((?:C|R|B|S|MODE)_[A-Z_]+|HEAD_SIZE|BUSY_BITS|EXHAUSTIVE|INF)")
"""The driver's names for the template's constants: the template's name with a leading ``_``."""


def mirrored() -> dict[str, int]:
    return {match.group(1): value for name, value in vars(driver).items()
            if (match := MIRRORED.fullmatch(name)) and isinstance(value, int)}


def test_every_mirrored_slot_has_the_templates_value() -> None:
    names = mirrored()
    # Every region of the head, result and mode the driver touches is among them.
    assert {"C_NODES", "C_NODE_LIMIT", "C_TABLE", "C_FIRST_LEFT", "HEAD_SIZE", "R_VALUE",
            "R_COUNTERS", "R_ENTRIES", "MODE_FRESH", "S_SIZE", "B_EXACT", "INF"} <= names.keys()
    different = {name: (value, getattr(template, name, None))
                 for name, value in names.items() if getattr(template, name, None) != value}
    assert not different, f"driver and template disagree (driver, template): {different}"


def test_the_bounds_are_read_in_the_templates_order() -> None:
    assert driver._BOUNDS[template.B_EXACT] == "exact"
    assert driver._BOUNDS[template.B_UPPER] == "upper"


def test_the_head_holds_every_slot() -> None:
    slots = [value for name, value in vars(template).items()
             if name.startswith("C_") and isinstance(value, int)]
    assert sorted(slots) == list(range(template.HEAD_SIZE))  # each once, none beyond the head


def test_both_tiers_use_one_value_scale() -> None:
    assert (template.WIN, template.PROVEN) == (values.WIN, values.PROVEN)
    assert template.INF == driver._INF > values.WIN
    assert values.HEURISTIC_LIMIT < values.PROVEN
