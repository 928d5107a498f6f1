"""One request's work: the game and position, the search, and the JSON answer.

The server makes each request's :class:`Job` (:mod:`gametree.web.requests`: its game options
read, its :class:`~gametree.SearchOptions` made and kept within the server's limits) and checks
its position (:meth:`Workshop.check`) before queueing it, so bad input is answered at once; a
worker process runs it (:meth:`Workshop.run`) as it is, reading nothing again. The answers are
the command line's ``--json`` objects (:meth:`gametree.registry.GameSpec.result_json`,
:meth:`gametree.trace.TraceEvent.as_dict`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import levels
from ..compiled.build import engine_cached
from ..compiled.form import compiled_form_of
from ..compiled.kernel import Kernel
from ..frontend import option_error_text, trace_options
from ..game import Game, GameError, Probability, is_chance
from ..options import OptionError, SearchOptions
from ..records import options_json
from ..registry import GameSpec, UnknownGameError, play_line
from ..service import SearchSession, search, tier_for
from ..trace import Tracer, format_event, probability_text
from .boards import position_json
from .limits import ServerLimits

COMMANDS = ("solve", "analyze", "trace", "move", "tree", "position")
"""What a job can ask: the three searches of the command line, the engine's reply in a game,
a tree to draw, a position to show."""

SEARCHES = ("solve", "analyze", "trace", "move")
"""The jobs that search (and carry :attr:`Job.search`)."""

DEFAULT_TREE_DEPTH = 2
"""Plies of a game drawn as a tree when the request names no depth."""


@dataclass(frozen=True)
class Job:
    """A request's work, as sent to a worker process (picklable): everything already read."""

    command: str
    """One of :data:`COMMANDS`."""

    game: str
    """The game's name among the games the server offers."""

    options: dict[str, Any] = field(default_factory=dict)
    """The game's option values, read (:func:`gametree.frontend.game_options`)."""

    moves: str = ""
    """The moves played from the start, as given."""

    tree: Any = None
    """An explicit tree as a JSON document, for the ``tree`` game."""

    search: SearchOptions | None = None
    """The search's options, within the server's limits (searches only)."""

    draw_depth: int | None = None
    """``tree`` jobs: plies to draw (``None``: the default)."""

    level: int | None = None
    """``move`` jobs: the level the engine plays at (1..10, :mod:`gametree.levels`), or
    ``None``: its best move."""


class LimitError(ValueError):
    """A request asks for more than the server's limits allow."""


class RequestError(ValueError):
    """A request whose fields do not go together (a tree for a game that is not the tree)."""


class NotCompiledError(Exception):
    """A search's kernel is not compiled yet: a worker compiles nothing, the server has it
    compiled in a process of its own (:mod:`gametree.web.prepare`)."""


def failure_message(error: BaseException) -> str | None:
    """The one-line message for an input error, the search options named as the API names
    them (``fail_hard``); ``None`` if ``error`` is not an input error."""
    if isinstance(error, OptionError):
        return option_error_text(error, "api")
    if isinstance(error, (GameError, ValueError)):
        return str(error)
    return None


class Workshop:
    """What a process keeps between jobs: the games it offers, its limits, and games already
    built (a game's compiled form and search plans are made once per game object, so a server
    reuses the game objects of the options it sees most)."""

    def __init__(self, specs: Mapping[str, GameSpec], limits: ServerLimits,
                 keep: int = 32) -> None:
        self.specs = specs
        self.limits = limits
        self._games: OrderedDict[str, Game[Any, Any]] = OrderedDict()
        self._keep = keep
        self._lock = threading.Lock()
        self._compiled: set[str] = set()
        """The identities of the kernels found compiled (they stay so in this process)."""

    # -- building --------------------------------------------------------------------------

    def _spec(self, name: str) -> GameSpec:
        spec = self.specs.get(name)
        if spec is None:
            raise UnknownGameError(f"unknown game {name!r}; games: {', '.join(self.specs)}")
        return spec

    def _game(self, spec: GameSpec, options: dict[str, Any], document: Any) -> Game[Any, Any]:
        if document is not None:
            if spec.from_document is None:
                raise RequestError(f"{spec.name} takes no JSON document")
            return self._bounded(spec.from_document(document))
        key = f"{spec.name}{sorted(options.items())!r}"
        with self._lock:
            cached = self._games.get(key)
            if cached is not None:
                self._games.move_to_end(key)
                return cached
        game = self._bounded(spec.make(**options))
        with self._lock:  # the server checks requests in threads
            self._games[key] = game
            if len(self._games) > self._keep:
                self._games.popitem(last=False)
        return game

    def _bounded(self, game: Game[Any, Any]) -> Game[Any, Any]:
        """``game``, unless it states its size (an explicit tree's ``size``: its nodes) and
        that is more than the server takes; a game that states none is bounded by its own
        options' checks."""
        size = _stated_size(game)
        limit = self.limits.max_tree_nodes
        if size is not None and size > limit:
            raise LimitError(f"the tree has {size:,} nodes; this server takes trees of "
                             f"at most {limit:,} (gametree serve --max-tree-nodes)")
        return game

    def position(self, job: Job) -> tuple[GameSpec, Game[Any, Any], Any, Any]:
        """The game's spec, the game, the position of ``job`` and the move that led to it
        (``None`` at the start), which the position's view may mark."""
        spec = self._spec(job.game)
        game = self._game(spec, job.options, job.tree)
        state, last = play_line(game, spec.split_moves(job.moves)) if job.moves \
            else (game.initial_state(), None)
        return spec, game, state, last

    def draw_depth(self, job: Job, game: Game[Any, Any]) -> int | None:
        """Plies of the tree to draw: as asked, else all of an explicit tree, else
        :data:`DEFAULT_TREE_DEPTH`."""
        if job.draw_depth is None:
            return None if _stated_size(game) is not None else DEFAULT_TREE_DEPTH
        return job.draw_depth

    def check(self, job: Job) -> None:
        """Everything :meth:`run` checks before searching (raises with the message)."""
        if job.command not in COMMANDS:
            raise RequestError(f"unknown command {job.command!r}")
        if (job.search is None) == (job.command in SEARCHES):
            needs = "needs" if job.search is None else "takes no"
            raise RequestError(f"a {job.command} job {needs} search options")
        self.position(job)

    def kernel(self, job: Job) -> Kernel | None:
        """The kernel ``job``'s search runs on (``None``: it searches on the Python tier, or
        is no search); the job is checked already."""
        if job.search is None or job.command == "trace":
            return None
        _spec, game, _state, _last = self.position(job)
        if tier_for(game, job.search) != "compiled":
            return None
        form = compiled_form_of(game)
        return None if isinstance(form, str) else form.kernel

    def _needs_compiling(self, kernel: Kernel) -> bool:
        """Whether ``kernel``'s engine would be compiled (not loaded) by a search here; a
        kernel that cannot be cached is compiled where it runs, as it must be."""
        identity = kernel.identity()
        if identity in self._compiled:
            return False
        if engine_cached(kernel) is False:
            return True
        if identity is not None:
            self._compiled.add(identity)
        return False

    # -- running ----------------------------------------------------------------------------

    def run(self, job: Job, started: Callable[[], None] = lambda: None) -> dict[str, Any]:
        """The JSON answer of ``job`` (raises for bad input, with the message); ``started``
        is called once the search is about to start, what it needs loaded."""
        spec, game, state, last = self.position(job)
        if job.command == "position":
            return _position_answer(spec, job, game, state, last)
        if job.command == "tree":
            return tree_json(game, state, self.draw_depth(job, game),
                             self.limits.max_tree_nodes)
        options = job.search
        if options is None:
            raise RequestError(f"a {job.command} job needs search options")
        if job.command == "trace":
            options = trace_options(game, options)  # expectiminimax for a game with chance
            tracer: Tracer[Any, Any] = Tracer(game, max_events=self.limits.max_events)
            started()
            result = search(game, state, options, tracer=tracer)
            document = spec.result_json(game, state, result)
            document["events"] = [event.as_dict(by_distance=options.by_distance)
                                  for event in tracer.events]
            document["log"] = [format_event(event, by_distance=options.by_distance)
                               for event in tracer.events]
            return document
        kernel = self.kernel(job)
        if kernel is not None and self._needs_compiling(kernel):
            raise NotCompiledError(kernel.name)
        with SearchSession(game, options) as session:
            session.prepare()  # a compiled kernel is loaded (or compiled) before the clock
        started()
        choice = None
        if job.command == "move" and job.level is not None:
            result, choice = levels.choose(
                state, job.level, lambda **changes: search(game, state, options, **changes),
                depth=options.depth, seed=options.seed)
        else:
            result = search(game, state, options)
        document = spec.result_json(game, state, result)
        if choice is not None:
            document["level"] = choice.as_dict(lambda move: game.format_move(state, move))
        if job.command == "move":
            after = state if result.best_move is None else game.play(state, result.best_move)
            document["position"] = _position_answer(spec, job, game, after, result.best_move)
        return document


def _stated_size(game: Game[Any, Any]) -> int | None:
    """The number of positions ``game`` states it has (an explicit tree's ``size``), or
    ``None``: such a game is drawn whole and bounded by the server's tree limit."""
    size = getattr(game, "size", None)
    return size if isinstance(size, int) and not isinstance(size, bool) else None


def tree_json(game: Game[Any, Any], state: Any, depth: int | None,
              max_nodes: int) -> dict[str, Any]:
    """The tree below ``state`` to ``depth`` plies (``None``: to the leaves), breadth-first:
    each node's parent, the move to it, its label, MAX, MIN or CHANCE (MAX: the player to move
    at ``state``; below a chance node, each child's ``probability`` as text) and, for leaves,
    the value the textbook draws (an explicit tree's number, or ``win``/``loss``/``draw`` for
    the root player)."""
    root_player = game.turn(state)  # at a chance root: the player rolling
    label = getattr(game, "node_label", None)
    nodes: list[dict[str, Any]] = []
    queue: list[tuple[Any, int | None, str | None, list[str], Probability | None]] = [
        (state, None, None, [], None)]
    for item_state, parent, move_text, path, odds in queue:
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
            "role": "CHANCE" if is_chance(game, item_state) else
            "MAX" if game.to_move(item_state) == root_player else "MIN",
            "leaf": not moves, "value": None, "result": None,
        }
        if odds is not None:
            node["probability"] = probability_text(odds)
        if outcome is not None:
            mine = outcome if root_player == 0 else -outcome
            node["result"] = "win" if mine > 0 else "loss" if mine < 0 else "draw"
        elif not moves and (depth is None or ply < depth):  # a leaf with no result:
            value = game.evaluate(item_state)  # an explicit tree's number, as drawn
            node["value"] = value if root_player == 0 else -value
        nodes.append(node)
        chances = dict(game.chance_outcomes(item_state)) if node["role"] == "CHANCE" else {}
        for move in moves:
            text = game.format_move(item_state, move)
            queue.append((game.play(item_state, move), index, text, [*path, text],
                          chances.get(move)))
    return {"depth": depth, "nodes": nodes, "position": position_json(game, state)}


def _position_answer(spec: GameSpec, job: Job, game: Game[Any, Any], state: Any,
                     last: Any) -> dict[str, Any]:
    """A position as the API answers it: drawn, with the game's options typed as a game record
    writes them (``docs/records.md``), so that a page's record is the terminal's."""
    return {**position_json(game, state, last), "options": options_json(spec, job.options)}
