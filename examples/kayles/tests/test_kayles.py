"""Kayles keeps gametree's Game contract, its kernel is the same game, and both tiers agree
with the Sprague-Grundy theory of Kayles."""

from __future__ import annotations

import functools

import pytest
from gametree_kayles import Kayles

from gametree import check_game, search


@functools.cache
def grundy(pins: int) -> int:
    """The Sprague-Grundy value of a row of ``pins`` pins."""
    reached = {grundy(left) ^ grundy(pins - taken - left)
               for taken in (1, 2) if taken <= pins for left in range(pins - taken + 1)}
    return next(value for value in range(pins + 2) if value not in reached)


def test_the_rules_keep_the_contract_and_the_kernel_is_the_same_game() -> None:
    report = check_game(Kayles(8))
    assert report.passed, report.text()
    assert report.warnings == ()


@pytest.mark.parametrize("pins", range(1, 9))
def test_the_python_tier_agrees_with_sprague_grundy(pins: int) -> None:
    result = search(Kayles(pins), tier="python")
    assert (result.outcome == "win") == (grundy(pins) != 0)


def test_the_compiled_tier_agrees_with_the_python_tier() -> None:
    game = Kayles(8)
    compiled = search(game, tier="compiled")
    assert compiled.tier == "compiled"
    assert compiled.value == search(game, tier="python").value
    assert (compiled.outcome == "win") == (grundy(8) != 0)
