"""Search results as text for people (the JSON form is ``SearchResult.to_dict``)."""

from __future__ import annotations

from typing import Any

from ..game import Game
from ..result import SearchResult


def line_text(game: Game[Any, Any], state: Any, moves: tuple[Any, ...]) -> str:
    """A line of moves from ``state`` as their texts, separated by spaces."""
    return " ".join(game.format_line(state, moves))


def mover_text(game: Game[Any, Any], state: Any) -> str:
    """Who is to move, in the game's words."""
    return f"{game.player_names[game.to_move(state)]} to move"


def position_text(game: Game[Any, Any], state: Any) -> str:
    """The board, and how the game ended if it has (the result says who is to move)."""
    outcome = game.outcome(state)
    if outcome is None:
        return game.render(state)
    if outcome == 0:
        return f"{game.render(state)}\ngame over: a draw"
    return f"{game.render(state)}\ngame over: {game.player_names[0 if outcome > 0 else 1]} won"


def result_text(game: Game[Any, Any], state: Any, result: SearchResult[Any], *,
                analysis: bool = False) -> str:
    """A readable report of ``result``: value, best move, line, every root move, cost.

    With ``analysis`` the root moves are listed as seed 000 prints them ("Score for move ...").
    """
    depth = "to the end" if result.depth is None else f"to depth {result.depth}"
    value = result.value_text()
    if result.value_kind() == "score" and not result.exhaustive:
        value += " (heuristic)"  # an explicit tree's leaves: exact, but the leaves are guesses
    lines = [f"{mover_text(game, state)}: value {value}"]
    if game.outcome(state) is not None:
        lines = ["the game is over: there is nothing to search"]
    if result.best_move is not None:
        lines.append(f"best move: {game.format_move(state, result.best_move)}")
        if result.weak:
            lines.append("principal variation: not computed (a weak solve proves the result "
                         "and one move that keeps it)")
        else:
            lines.append(f"principal variation: {line_text(game, state, result.pv)}")
    if result.moves:
        width = max(len(game.format_move(state, entry.move)) for entry in result.moves)
        if not analysis:
            lines.append("moves:")
        for entry in result.moves:
            name = game.format_move(state, entry.move)
            value_text = result.move_text(entry)
            if analysis:
                lines.append(f"Score for move {name:<{width}} = {value_text}")
            else:
                lines.append(f"  {name:<{width}}  {value_text}")
        # A footnote for bounds only: a depth-limited value is not exact either (it is not
        # proven), but its words say so themselves ("estimate +3").
        bounded = any(entry.bound != "exact" for entry in result.moves)
        if bounded and result.weak:
            lines.append("(\"at most\": not examined further; a weak solve stops at the first "
                         "move that keeps the result)")
        elif bounded:
            lines.append("(\"at most\": the move was refuted and searched no further; "
                         "use --exact for exact values)")
    stats = result.stats
    # Several threads: the counters are their sums (and vary from run to run), so say so.
    threads = f" on {stats.threads} threads" if stats.threads != 1 else ""
    lines.append(
        f"{result.algorithm} ({result.tier} tier{threads}), {depth}: {stats.nodes} nodes, "
        f"{stats.leaves} leaves, {stats.cutoffs} cut-offs, {stats.seconds:.4f} s"
    )
    return "\n".join(lines)
