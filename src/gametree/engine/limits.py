"""The budgets of a search: :class:`gametree.limits.Limits` (kept importable from here)."""

from ..limits import MAX_NODES, NO_LIMITS, Limits, limits_of

__all__ = ["MAX_NODES", "NO_LIMITS", "Limits", "limits_of"]
