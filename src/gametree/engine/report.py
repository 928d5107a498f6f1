"""The per-depth report of iterative deepening: :class:`gametree.result.Iteration`, which
both tiers return (kept importable from here)."""

from ..result import Iteration

__all__ = ["Iteration"]
