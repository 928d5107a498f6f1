"""Search results as text for people (the JSON form is ``SearchResult.to_dict``)."""

from __future__ import annotations

from typing import Any

from ..game import Game, is_chance
from ..result import SearchResult, SolveProgress
from ..values import read_value


def line_text(game: Game[Any, Any], state: Any, moves: tuple[Any, ...]) -> str:
    """A line of moves from ``state`` as their texts, separated by spaces."""
    return " ".join(game.format_line(state, moves))


def mover_text(game: Game[Any, Any], state: Any) -> str:
    """Who is to move, in the game's words (at a chance state: whose turn it is, who rolls)."""
    verb = "to roll" if is_chance(game, state) else "to move"
    return f"{game.player_names[game.turn(state)]} {verb}"


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


_ORDINAL = ("first", "second")


def end_text(game: Game[Any, Any], state: Any, result: SearchResult[Any],
             played: int) -> str | None:
    """When the game ends with best play, counted in moves from the game's start (``played``
    moves led to ``state``): ``the first player (X) wins on move 41``, ``a draw``; ``None``
    when the result is not a proven one with its distance."""
    if result.outcome is None or result.weak or not result.by_distance or \
            game.outcome(state) is not None:
        return None
    if result.outcome == "draw":
        return "with best play: a draw"
    if result.plies is None:
        return None
    mover = game.turn(state)
    winner = mover if result.outcome == "win" else 1 - mover
    name = game.player_names[winner]
    who = f"the {_ORDINAL[winner]} player"
    if "player" not in name:  # X, O: named as well; "second player" says it already
        who += f" ({name})"
    return f"with best play: {who} wins on move {played + result.plies}"


def progress_text(progress: SolveProgress) -> str:
    """A long solve's progress in one line: the root's null window (the range its value is
    known to lie in, and the value the window tests), positions searched, their rate and the
    time so far::

        window 8: [loss in 36, win in 34], above draw? · 74.0 M positions · 2.9 M/s · 0:25.5
    """
    parts = []
    if progress.windows and progress.lower is not None and progress.upper is not None \
            and progress.testing is not None:
        low = read_value(progress.lower, exhaustive=True)[1]
        high = read_value(progress.upper, exhaustive=True)[1]
        test = read_value(progress.testing, exhaustive=True)[1]
        parts.append(f"window {progress.windows}: [{low}, {high}], above {test}?")
    parts.append(f"{_count(progress.nodes)} positions")
    parts.append(f"{_count(int(progress.rate))}/s")
    minutes, seconds = divmod(progress.seconds, 60)
    parts.append(f"{int(minutes)}:{seconds:04.1f}")
    return " · ".join(parts)


def _count(number: int) -> str:
    """``1.2 M``, ``34.5 k``, ``999``: a count short enough for a progress line."""
    for unit, size in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if number >= size:
            return f"{number / size:.1f} {unit}"
    return str(number)
