"""One request's work: the game and position, the search, and the JSON answer.

The server runs :func:`check` on each request before queueing it (bad input is answered at
once, with the command line's message); a worker process runs :func:`run`. Both build the
game and the position as the command line does, from the arguments the command line would
get (:mod:`gametree.web.requests`), and the answers are the command line's ``--json`` objects
(:meth:`gametree.registry.GameSpec.result_json`, :meth:`gametree.trace.TraceEvent.as_dict`).
"""

from __future__ import annotations

import argparse
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..algorithms import ENGINE
from ..cli import FLAGS
from ..cli.parser import game_options, non_negative_int
from ..cli.searching import search_options
from ..game import Game, GameError
from ..games.tree import GameTree
from ..options import OptionError, SearchOptions
from ..registry import GameSpec, get, play_moves
from ..service import SearchSession, search
from ..trace import Tracer, format_event
from .boards import position_json
from .limits import ServerLimits
from .requests import UsageError, parse

COMMANDS = ("solve", "analyze", "trace", "move", "tree", "position")
"""What a job can ask: the three searches of the command line, the engine's reply in a game,
a tree to draw, a position to show."""

DEFAULT_TREE_DEPTH = 2
"""Plies of a game drawn as a tree when the request names no depth."""


@dataclass(frozen=True)
class Job:
    """A request's work, as sent to a worker process (picklable)."""

    command: str
    """One of :data:`COMMANDS`."""

    arguments: list[str]
    """The ``gametree`` arguments that ask for it (:mod:`gametree.web.requests`)."""

    tree: Any = None
    """An explicit tree as a JSON document, for the ``tree`` game."""

    draw_depth: str | None = None
    """``tree`` jobs: plies to draw, as given."""


class LimitError(ValueError):
    """A request asks for more than the server's limits allow."""


def failure_message(error: BaseException) -> str | None:
    """The one-line message the command line prints for ``error`` (without its
    ``gametree COMMAND: error:`` prefix), or ``None`` if it is not an input error."""
    if isinstance(error, OptionError):
        return error.text(FLAGS)
    if isinstance(error, (GameError, ValueError)):
        return str(error)
    return None


class Workshop:
    """What a process keeps between jobs: its parser, and games already built (a game's
    compiled form and search plans are made once per game object, so a server reuses the
    game objects of the options it sees most)."""

    def __init__(self, parser: argparse.ArgumentParser, limits: ServerLimits,
                 keep: int = 32) -> None:
        self.parser = parser
        self.limits = limits
        self._games: OrderedDict[str, Game[Any, Any]] = OrderedDict()
        self._keep = keep

    # -- building --------------------------------------------------------------------------

    def _game(self, spec: GameSpec, args: argparse.Namespace, tree: Any) -> Game[Any, Any]:
        options = game_options(args)
        if tree is not None:
            if spec.name != "tree":
                raise UsageError(f"\"tree\" gives the tree game's tree, not {spec.name}'s")
            given = [name for name in ("leaves", "nested", "labels")
                     if options.get(name) is not None]
            if given:
                raise UsageError(f"give the tree either as \"tree\" or as the option "
                                 f"{given[0]}, not both")
            game: Game[Any, Any] = GameTree.from_json(tree)
        elif spec.name == "tree":
            game = spec.make(**options)
        else:
            key = f"{spec.name}{sorted(options.items())!r}"
            cached = self._games.get(key)
            if cached is not None:
                self._games.move_to_end(key)
                return cached
            game = spec.make(**options)
            self._games[key] = game
            if len(self._games) > self._keep:
                self._games.popitem(last=False)
            return game
        limit = self.limits.max_tree_nodes
        if isinstance(game, GameTree) and game.size > limit:
            raise LimitError(f"the tree has {game.size:,} nodes; this server takes trees of "
                             f"at most {limit:,} (gametree serve --max-tree-nodes)")
        return game

    def position(self, job: Job) -> tuple[argparse.Namespace, GameSpec, Game[Any, Any], Any]:
        """The parsed arguments, the game and the position of ``job``."""
        args = parse(self.parser, job.arguments)
        spec = get(args.game)
        game = self._game(spec, args, job.tree)
        moves = getattr(args, "moves", None)
        state = play_moves(game, spec.split_moves(moves)) if moves else game.initial_state()
        return args, spec, game, state

    def options(self, job: Job, args: argparse.Namespace) -> SearchOptions:
        """The search options of ``job`` within the server's limits: a depth above the
        limit is refused; the engine's time budget is the smaller of the one asked for and
        the limit."""
        # One thread per job: the server's own workers share the cores between clients.
        options = replace(search_options(args, exact_root=job.command == "analyze"),
                          threads=1)
        limits = self.limits
        if options.depth is not None and options.depth > limits.max_depth:
            raise LimitError(f"depth {options.depth} is more than this server searches "
                             f"(at most {limits.max_depth}; gametree serve --max-depth)")
        capped = limits.max_time if options.time is None else min(options.time,
                                                                   limits.max_time)
        if options.algorithm == ENGINE and not options.weak:
            return replace(options, time=capped)
        if options.time is not None:
            return replace(options, time=capped)
        return options

    def draw_depth(self, job: Job, game: Game[Any, Any]) -> int | None:
        """Plies of the tree to draw: as asked, else all of an explicit tree, else
        :data:`DEFAULT_TREE_DEPTH`."""
        if job.draw_depth is None:
            return None if isinstance(game, GameTree) else DEFAULT_TREE_DEPTH
        try:
            return non_negative_int(job.draw_depth)
        except argparse.ArgumentTypeError as error:
            raise UsageError(f"argument --depth: {error}") from None

    def check(self, job: Job) -> None:
        """Everything :meth:`run` checks before searching (raises with the message)."""
        if job.command not in COMMANDS:
            raise UsageError(f"unknown command {job.command!r}")
        args, _spec, game, _state = self.position(job)
        if job.command == "tree":
            self.draw_depth(job, game)
        elif job.command != "position":
            self.options(job, args)

    # -- running ----------------------------------------------------------------------------

    def run(self, job: Job, started: Callable[[], None] = lambda: None) -> dict[str, Any]:
        """The JSON answer of ``job`` (raises for bad input, with the message); ``started``
        is called once the search is about to start, what it needs loaded."""
        args, spec, game, state = self.position(job)
        if job.command == "position":
            return position_json(game, state)
        if job.command == "tree":
            return tree_json(game, state, self.draw_depth(job, game),
                             self.limits.max_tree_nodes)
        options = self.options(job, args)
        if job.command == "trace":
            tracer: Tracer[Any, Any] = Tracer(game, max_events=self.limits.max_events)
            started()
            result = search(game, state, options, tracer=tracer)
            document = spec.result_json(game, state, result)
            document["events"] = [event.as_dict() for event in tracer.events]
            document["log"] = [format_event(event, by_distance=options.by_distance)
                               for event in tracer.events]
            return document
        with SearchSession(game, options) as session:
            session.prepare()  # a compiled kernel is loaded (or compiled) before the clock
        started()
        result = search(game, state, options)
        document = spec.result_json(game, state, result)
        if job.command == "move":
            after = state if result.best_move is None else game.play(state, result.best_move)
            document["position"] = position_json(game, after)
        return document


def tree_json(game: Game[Any, Any], state: Any, depth: int | None,
              max_nodes: int) -> dict[str, Any]:
    """The tree below ``state`` to ``depth`` plies (``None``: to the leaves), breadth-first:
    each node's parent, the move to it, its label, MAX or MIN (MAX: the player to move at
    ``state``) and, for leaves, the value the textbook draws (an explicit tree's number, or
    ``win``/``loss``/``draw`` for the root player)."""
    root_player = game.to_move(state)
    label = getattr(game, "node_label", None)
    nodes: list[dict[str, Any]] = []
    queue: list[tuple[Any, int | None, str | None, list[str]]] = [(state, None, None, [])]
    for item_state, parent, move_text, path in queue:
        if len(queue) > max_nodes:
            raise LimitError(f"the tree to draw has more than {max_nodes:,} nodes (gametree "
                             f"serve --max-tree-nodes): draw fewer plies")
        index = len(nodes)
        ply = len(path)
        outcome = game.outcome(item_state)
        moves = [] if outcome is not None or (depth is not None and ply >= depth) \
            else list(game.moves(item_state))
        node: dict[str, Any] = {
            "id": index, "parent": parent, "move": move_text, "path": path,
            "label": label(item_state) if callable(label) else (move_text or "root"),
            "role": "MAX" if game.to_move(item_state) == root_player else "MIN",
            "leaf": not moves, "value": None, "result": None,
        }
        if outcome is not None:
            mine = outcome if root_player == 0 else -outcome
            node["result"] = "win" if mine > 0 else "loss" if mine < 0 else "draw"
        elif not moves and isinstance(game, GameTree):
            value = game.evaluate(item_state)
            node["value"] = value if root_player == 0 else -value
        nodes.append(node)
        for move in moves:
            text = game.format_move(item_state, move)
            queue.append((game.play(item_state, move), index, text, [*path, text]))
    return {"depth": depth, "nodes": nodes, "position": position_json(game, state)}
