"""A match's picture (matplotlib, the optional extra ``plot``): each engine's rating against
the field with its 95% interval, and each pairing's score as the games went on."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .results import mine, tally
from .stats import Z95, Model

PLOT_EXTRA = "pip install 'gametree[plot]' (or pip install matplotlib)"
"""How to get what plotting needs."""

CLIP = 1000.0
"""Infinite Elo (an engine that won or lost every game, or an interval reaching a score of 0
or 1) is drawn at this many Elo; the interval written beside the point says ``inf``."""


class PlotError(ValueError):
    """Plotting is not possible here (matplotlib is missing)."""


def check_plotting() -> None:
    """:class:`PlotError` with the fix when matplotlib is not installed."""
    try:
        import matplotlib  # noqa: F401, PLC0415 - an optional extra
    except ImportError:
        raise PlotError(f"--plot needs matplotlib, which is not installed: "
                        f"{PLOT_EXTRA}") from None


def _clipped(value: float) -> float:
    return max(-CLIP, min(CLIP, value)) if not math.isnan(value) else 0.0


def plot_match(path: str, rows: Sequence[dict[str, Any]], names: Sequence[str], model: Model,
               title: str) -> None:
    """Write the PNG at ``path``: ratings with error bars (left), score over games (right)."""
    check_plotting()
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")  # no display: write files only
    import matplotlib.pyplot as plt  # noqa: PLC0415

    figure, (ratings, progress) = plt.subplots(1, 2, figsize=(11, 4.2))
    figure.suptitle(title)
    for engine in range(len(names)):
        estimate = tally(rows, engine).estimate(model)
        if estimate is None:
            continue
        elo, low, high = (_clipped(value) for value in (estimate.elo, estimate.low,
                                                        estimate.high))
        ratings.errorbar([engine], [elo], yerr=[[elo - low], [high - elo]], fmt="o",
                         capsize=6, markersize=7)
        # The interval in words beside the point: an unbounded end drawn at CLIP says so.
        ratings.annotate(estimate.text().removesuffix(" Elo"), (engine, elo),
                         textcoords="offset points", xytext=(10, 0), fontsize="small")
    ratings.axhline(0, color="grey", linewidth=0.8)
    ratings.set_xticks(range(len(names)), list(names))
    ratings.set_xlim(-0.5, len(names) - 0.5)
    ratings.set_ylabel(f"Elo against the field (95% interval, {model})")
    ratings.set_title("rating")
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            games = [row for row in rows if sorted(row["players"]) == [a, b]]
            if not games:
                continue
            games.sort(key=lambda row: int(row["game"]))
            total, means, lows, highs = 0.0, [], [], []
            for count, row in enumerate(games, 1):
                total += mine(row, a)
                mean = total / count
                means.append(mean)
                spread = Z95 * math.sqrt(max(mean * (1 - mean), 0) / count)
                lows.append(mean - spread)
                highs.append(mean + spread)
            counts = range(1, len(games) + 1)
            line = progress.plot(counts, means, label=f"{names[a]} vs {names[b]}")[0]
            progress.fill_between(counts, lows, highs, alpha=0.15, color=line.get_color())
    progress.axhline(0.5, color="grey", linewidth=0.8)
    progress.set_ylim(0, 1)
    progress.xaxis.get_major_locator().set_params(integer=True)
    progress.set_xlabel("games of the pairing")
    progress.set_ylabel("score of the first named (running mean)")
    progress.set_title("score over games")
    progress.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


__all__ = ["PLOT_EXTRA", "PlotError", "check_plotting", "plot_match"]
