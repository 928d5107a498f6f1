"""Kayles for gametree: an example plugin (see the package's README)."""

from .game import DEFAULT_PINS, MAX_PINS, SPEC, Kayles

__all__ = ["DEFAULT_PINS", "MAX_PINS", "SPEC", "Kayles"]
