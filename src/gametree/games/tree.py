"""Explicit game trees, as the textbooks draw them, played like any other game.

A tree is given by the values of its leaves. Four ways to write one are accepted:

* a flat list of the leaves of a complete tree with ``branching`` children per node, left to
  right (seed 003: ``3 5 2 9 12 5 23 23`` is a binary tree of depth 3) —
  :meth:`GameTree.from_leaves`;
* nested lists, one list per inner node (``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``) —
  :meth:`GameTree.from_nested`;
* a mapping from each inner node to its moves and children plus the leaf values, with the
  names the text uses (aima-python's Fig 5.2: root ``A``, moves ``a1`` .. ``a3``) —
  :meth:`GameTree.from_mapping`;
* a JSON document holding any of the above — :meth:`GameTree.from_json`, :func:`load_tree`.

MAX moves at the root, and the players alternate by level. A tree may have **chance nodes**
(expectiminimax, AIMA section 5.5): a node whose children come with probabilities. Chance
nodes do not take a turn: the players alternate over MAX and MIN nodes only, so MAX above a
chance node is followed by MIN below it. In nested lists a chance node is an object
``{"chance": [[probability, child], ...]}``; in the mapping form the ``probabilities`` object
gives the probability of each child of a chance node. A probability is a number or a fraction
text (``0.9``, ``"9/10"``), read exactly; those of a node must sum to 1. A tree with chance
nodes takes numeric leaves only (a win and a loss have no expected value).

A leaf value is a number, the heuristic "goodness" for MAX of the position where the
look-ahead stops (seeds 000, 003, 004), or one of ``win``, ``loss``, ``draw`` (also ``W``,
``L``, ``D``) for a finished game, seen from MAX. Only finished games are proven results
scored by their distance; numbers are used as they are, so the seeds' values come out
unchanged.

Every node has a label. Labels given in breadth-first order name the inner nodes (or all the
nodes); unnamed inner nodes are lettered ``A``, ``B``, ... breadth-first, and unnamed leaves
are called after their parent and their position (``H1``, ``H2``). A move is named after the
node it leads to, unless the mapping form names moves itself.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from ..game import CHANCE, Game, IllegalMoveError, PositionError
from ..numbers import is_digits, whole_number
from ..registry import GameOption, GameSpec
from ..values import HEURISTIC_LIMIT, WIN, Value, number_text, outcome_of
from ..view import MoveSpot, TreeChild, TreeNode, View

RESULT_WORDS: dict[str, int] = {"win": 1, "w": 1, "loss": -1, "l": -1, "draw": 0, "d": 0}
"""Leaf words for finished games, seen from MAX."""


class TreeFormatError(PositionError, ValueError):
    """A tree description that cannot be read; the message says what was expected."""


@dataclass(frozen=True)
class _Leaf:
    """A leaf's value: a heuristic number, or a finished game's result for MAX."""

    value: Value
    finished: bool


def parse_leaf(token: object) -> _Leaf:
    """Read one leaf value: a number, or ``win``/``loss``/``draw`` (``W``/``L``/``D``)."""
    if isinstance(token, bool):
        raise TreeFormatError(f"leaf value {token!r} is not a number or win/loss/draw")
    if isinstance(token, (int, float)):
        number: Value = token
    elif isinstance(token, str):
        word = token.strip().lower()
        if word in RESULT_WORDS:
            return _Leaf(RESULT_WORDS[word], True)
        try:
            number = int(word)
        except ValueError:
            try:
                number = float(word)
            except ValueError:
                raise TreeFormatError(
                    f"leaf value {token!r} is not a number or one of win, loss, draw"
                ) from None
    else:
        raise TreeFormatError(f"leaf value {token!r} is not a number or win/loss/draw")
    if not math.isfinite(number) or abs(number) > HEURISTIC_LIMIT:
        raise TreeFormatError(
            f"leaf value {token!r} must be a finite number within ±{HEURISTIC_LIMIT} "
            "(write win, loss or draw for a finished game)"
        )
    return _Leaf(number, False)


def parse_leaf_list(text: str) -> list[_Leaf]:
    """Read leaf values separated by spaces and/or commas (``"3 5 2 9"``, ``"3,5,2,9"``)."""
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise TreeFormatError("no leaf values given: expected numbers such as \"3 5 2 9\"")
    return [parse_leaf(token) for token in tokens]


def parse_probability(token: object) -> Fraction:
    """Read a probability exactly: a number (``0.9`` is nine tenths) or a text such as
    ``"9/10"`` or ``"0.9"``; it must lie in (0, 1]."""
    if isinstance(token, bool) or not isinstance(token, (int, float, str)):
        raise TreeFormatError(f"probability {token!r} is not a number such as 0.9 or \"9/10\"")
    try:
        # A JSON number is read as the decimal it is written as: 0.9 is 9/10, not a binary float.
        probability = Fraction(str(token).strip()) if not isinstance(token, int) else \
            Fraction(token)
    except (ValueError, ZeroDivisionError):
        raise TreeFormatError(f"probability {token!r} is not a number such as 0.9 or "
                              f"\"9/10\"") from None
    if not 0 < probability <= 1:
        raise TreeFormatError(f"probability {token!r} must be more than 0 and at most 1")
    return probability


def letters(index: int) -> str:
    """Spreadsheet-style letters: 0 -> A, 25 -> Z, 26 -> AA."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


class GameTree(Game[int, int]):
    """A finite game tree given explicitly. States and moves are node numbers (root: 0)."""

    name = "tree"
    player_names = ("MAX", "MIN")

    def __init__(
        self,
        children: Sequence[Sequence[int]],
        leaves: Mapping[int, _Leaf],
        labels: Sequence[str],
        move_names: Sequence[Sequence[str]] | None = None,
        chances: Mapping[int, Sequence[Fraction]] | None = None,
    ) -> None:
        """Build a tree from node numbers in breadth-first order; prefer the ``from_*`` builders.

        ``chances`` maps each chance node to the probabilities of its children, in order."""
        self._children = tuple(tuple(kids) for kids in children)
        self._leaves = dict(leaves)
        self._labels = tuple(labels)
        self._chances = {node: tuple(odds) for node, odds in (chances or {}).items()}
        self.has_chance = bool(self._chances)
        self._check_chances()
        # Players alternate over MAX and MIN nodes; a chance node takes no turn.
        turns = [0] * len(self._children)
        self._players = [CHANCE if 0 in self._chances else 0] + [0] * (len(self._children) - 1)
        for node, kids in enumerate(self._children):
            for kid in kids:
                turns[kid] = turns[node] + (0 if node in self._chances else 1)
                self._players[kid] = CHANCE if kid in self._chances else turns[kid] % 2
        self._turns = [turn % 2 if node not in self._chances else (turn - 1) % 2 if turn else 0
                       for node, turn in enumerate(turns)]
        if move_names is None:
            move_names = [[self._labels[kid] for kid in kids] for kids in self._children]
        self._move_names = tuple(tuple(names) for names in move_names)

    # -- the Game contract -------------------------------------------------------------------

    def initial_state(self) -> int:
        """The root, node 0."""
        return 0

    def to_move(self, state: int) -> int:
        """MAX (0) and MIN (1) in turn, level by level; :data:`~gametree.CHANCE` at a chance
        node (which takes no turn)."""
        return self._players[state]

    def turn(self, state: int) -> int:
        """The player to move, and at a chance node the player who moved into it (MAX at a
        chance root)."""
        return self._turns[state]

    def chance_outcomes(self, state: int) -> list[tuple[int, Fraction]]:
        """A chance node's children, each with its probability."""
        return list(zip(self._children[state], self._chances[state], strict=True))

    def value_bounds(self) -> tuple[Value, Value] | None:
        """In a tree with chance nodes, the least and the greatest leaf value (and 0, the
        value ``evaluate`` gives a node above the leaves); ``None`` in a tree without."""
        if not self.has_chance:
            return None
        values = [leaf.value for leaf in self._leaves.values()] + [0]
        return min(values), max(values)

    def moves(self, state: int) -> tuple[int, ...]:
        """The children of ``state``, left to right."""
        return self._children[state]

    def play(self, state: int, move: int) -> int:
        """A move is the child it leads to."""
        return move

    def outcome(self, state: int) -> Value | None:
        """For a ``win``/``loss``/``draw`` leaf, its result for MAX; ``None`` otherwise."""
        leaf = self._leaves.get(state)
        if leaf is None or not leaf.finished:
            return None
        return leaf.value * WIN

    def evaluate(self, state: int) -> Value:
        """A numeric leaf's value (nodes above the leaves have none: 0)."""
        leaf = self._leaves.get(state)
        return leaf.value if leaf is not None and not leaf.finished else 0

    def format_move(self, state: int, move: int) -> str:
        """The move's name (by default the label of the child it leads to)."""
        return self._move_names[state][self._children[state].index(move)]

    def parse_move(self, state: int, text: str) -> int:
        """A move by its name or the label of its child (any case), or by number (1 = leftmost)."""
        wanted = text.strip()
        kids = self._children[state]
        for kid, name in zip(kids, self._move_names[state], strict=True):
            if wanted.lower() in (name.lower(), self._labels[kid].lower()):
                return kid
        if is_digits(wanted) and 1 <= int(wanted) <= len(kids):
            return kids[int(wanted) - 1]
        if not kids:
            raise IllegalMoveError(f"node {self._labels[state]} is a leaf: there is no move")
        names = ", ".join(self._move_names[state])
        raise IllegalMoveError(f"{wanted!r} is not a move from node {self._labels[state]}; "
                               f"moves: {names}")

    def render(self, state: int) -> str:
        """The subtree below ``state`` as an indented outline (at most 40 lines)."""
        lines: list[str] = []

        def walk(node: int, indent: int, odds: str) -> None:
            if len(lines) >= 40:
                return
            leaf = self._leaves.get(node)
            if leaf is None:
                lines.append(f"{'  ' * indent}{odds}{self._labels[node]} ({self._role(node)})")
            else:
                text = _leaf_text(leaf)
                lines.append(f"{'  ' * indent}{odds}{self._labels[node]} = {text}")
            chances = self._chances.get(node)
            for index, kid in enumerate(self._children[node]):
                walk(kid, indent + 1, "" if chances is None else f"[p {chances[index]}] ")

        walk(state, 0, "")

        if len(lines) >= 40:
            lines.append("...")
        return "\n".join(lines)

    def view(self, state: int, last: int | None = None) -> View:
        """The node with its children (a leaf's value written under it); a move goes to its
        child, keys ``1`` .. ``9`` play the first nine children (1 = leftmost); the text is
        the subtree's outline (:meth:`render`)."""
        kids = self._children[state]
        odds = self._chances.get(state)
        children = tuple(TreeChild(self._labels[kid], None if (leaf := self._leaves.get(kid))
                                   is None else _leaf_text(leaf),
                                   None if odds is None else str(odds[index]))
                         for index, kid in enumerate(kids))
        moves = tuple(
            MoveSpot(name, label=f"play {name}" if name == self._labels[kid]
                     else f"play {name} (to {self._labels[kid]})",
                     key=str(index + 1) if index < 9 else None, child=index)
            for index, (kid, name) in enumerate(zip(kids, self._move_names[state], strict=True)))
        return View(kind="tree", text=self.render(state), moves=moves,
                    node=TreeNode(self._labels[state], self._role(state), children))

    def _role(self, node: int) -> Literal["MAX", "MIN", "CHANCE"]:
        player = self._players[node]
        return "CHANCE" if player == CHANCE else "MAX" if player == 0 else "MIN"

    def probability(self, state: int, move: int) -> Fraction | None:
        """The probability of ``move`` at the chance node ``state``; ``None`` at a player's
        node."""
        odds = self._chances.get(state)
        return None if odds is None else odds[self._children[state].index(move)]

    def _check_chances(self) -> None:
        for node, odds in self._chances.items():
            label = self._labels[node]
            if len(odds) != len(self._children[node]):
                raise TreeFormatError(f"chance node {label!r} has {len(self._children[node])} "
                                      f"children but {len(odds)} probabilities")
            if sum(odds) != 1:
                raise TreeFormatError(f"the probabilities of chance node {label!r} sum to "
                                      f"{sum(odds)}, not 1")
        if self._chances:
            finished = [self._labels[node] for node, leaf in self._leaves.items()
                        if leaf.finished]
            if finished:
                raise TreeFormatError(
                    f"a tree with chance nodes takes numeric leaves only (a win and a loss "
                    f"have no expected value); {', '.join(finished[:5])} are win/loss/draw")

    def node_label(self, state: int) -> str:
        """The label of node ``state``, as the text names it."""
        return self._labels[state]

    # -- facts about the tree ----------------------------------------------------------------

    @property
    def size(self) -> int:
        """The number of nodes, leaves included."""
        return len(self._children)

    @property
    def leaf_count(self) -> int:
        """The number of leaves."""
        return len(self._leaves)

    def node(self, label: str) -> int:
        """The node number of the node labelled ``label``."""
        try:
            return self._labels.index(label)
        except ValueError:
            raise KeyError(f"no node is labelled {label!r}") from None

    # -- builders ----------------------------------------------------------------------------

    @classmethod
    def from_leaves(
        cls,
        leaves: Sequence[object] | str,
        branching: int = 2,
        labels: Sequence[str] | None = None,
    ) -> GameTree:
        """A complete tree with ``branching`` children per inner node, given its leaves in order.

        ``leaves`` is a sequence of values or a string of them separated by spaces or commas.
        The number of leaves must be a power of ``branching`` (``branching``, ``branching**2``,
        ...).
        """
        if isinstance(branching, bool) or not isinstance(branching, int) or branching < 2:
            raise TreeFormatError(f"branching must be an integer of at least 2, got {branching!r}")
        values = parse_leaf_list(leaves) if isinstance(leaves, str) else [
            parse_leaf(token) for token in leaves
        ]
        count, depth = len(values), 0
        while count > 1 and count % branching == 0:
            count //= branching
            depth += 1
        if count != 1 or depth == 0:
            powers = ", ".join(str(branching ** power) for power in range(1, 5))
            raise TreeFormatError(
                f"{len(values)} leaves given, but a complete tree with branching {branching} has "
                f"a power of {branching} leaves ({powers}, ...)"
            )
        inner = (branching ** depth - 1) // (branching - 1)
        children = [
            [node * branching + offset + 1 for offset in range(branching)] if node < inner else []
            for node in range(inner + len(values))
        ]
        leaf_map = {inner + index: value for index, value in enumerate(values)}
        return cls._build(children, leaf_map, labels)

    @classmethod
    def from_nested(cls, nested: Sequence[Any] | Mapping[str, Any],
                    labels: Sequence[str] | None = None) -> GameTree:
        """A tree from nested lists: a list is an inner node, an object ``{"chance": [[p,
        child], ...]}`` a chance node, anything else a leaf value."""
        if not isinstance(nested, (list, tuple, Mapping)) or not nested:
            raise TreeFormatError(
                "a nested tree must be a non-empty list, such as [[3, 5], [2, 9]]"
            )
        children: list[list[int]] = [[]]
        leaf_map: dict[int, _Leaf] = {}
        chances: dict[int, list[Fraction]] = {}
        queue: list[tuple[int, Any]] = [(0, nested)]
        for node, item in queue:  # breadth-first: the queue grows while we walk it
            if isinstance(item, Mapping):
                pairs = _chance_pairs(item)
                chances[node] = [parse_probability(odds) for odds, _kid in pairs]
                item = [kid_item for _odds, kid_item in pairs]  # noqa: PLW2901 - its children
            if isinstance(item, (list, tuple)):
                if not item:
                    raise TreeFormatError("an inner node of a nested tree has no children ([])")
                for kid_item in item:
                    kid = len(children)
                    children.append([])
                    children[node].append(kid)
                    queue.append((kid, kid_item))
            else:
                leaf_map[node] = parse_leaf(item)
        return cls._build(children, leaf_map, labels, chances)

    @classmethod
    def from_mapping(
        cls,
        root: str,
        children: Mapping[str, Mapping[str, str] | Sequence[str]],
        values: Mapping[str, object],
        probabilities: Mapping[str, object] | None = None,
    ) -> GameTree:
        """A tree from named nodes, as aima-python writes its Fig 5.2.

        ``children[node]`` is either ``{move: child}`` (named moves) or ``[child, ...]`` (moves
        named after their children); ``values[leaf]`` is each leaf's value;
        ``probabilities[child]`` the probability of each child of a chance node (a node is a
        chance node when its children have probabilities: all of them, or none).
        """
        odds = dict(probabilities or {})
        order: list[str] = [root]
        index = {root: 0}
        kid_lists: list[list[int]] = []
        move_names: list[list[str]] = []
        leaf_map: dict[int, _Leaf] = {}
        for name in order:  # breadth-first over the growing list of names
            node = index[name]
            entry = children.get(name)
            if entry is None:
                if name not in values:
                    raise TreeFormatError(f"node {name!r} has neither children nor a leaf value")
                leaf_map[node] = parse_leaf(values[name])
                kid_lists.append([])
                move_names.append([])
                continue
            if name in values:
                raise TreeFormatError(f"node {name!r} has both children and a leaf value")
            pairs = _children_of(name, entry)
            if not pairs:
                raise TreeFormatError(f"node {name!r} has an empty list of children")
            kids: list[int] = []
            for _move, kid_name in pairs:
                if kid_name in index:
                    raise TreeFormatError(
                        f"node {kid_name!r} is reached twice (a tree node has one parent)"
                    )
                index[kid_name] = len(order)
                order.append(kid_name)
                kids.append(index[kid_name])
            kid_lists.append(kids)
            move_names.append([str(move) for move, _kid in pairs])
        unreachable = sorted((set(values) | set(children) | set(odds)) - set(index))
        if unreachable:
            raise TreeFormatError(
                f"nodes not reachable from the root {root!r}: {', '.join(unreachable)}"
            )
        chances: dict[int, list[Fraction]] = {}
        for node, kids in enumerate(kid_lists):
            given = [order[kid] in odds for kid in kids]
            if any(given) and not all(given):
                missing = [order[kid] for kid in kids if order[kid] not in odds]
                raise TreeFormatError(f"chance node {order[node]!r}: no probability for "
                                      f"{', '.join(missing)}")
            if kids and all(given):
                chances[node] = [parse_probability(odds[order[kid]]) for kid in kids]
        if root in odds:
            raise TreeFormatError(f"the root {root!r} has no parent to give it a probability")
        return cls(kid_lists, leaf_map, order, move_names, chances=chances)

    @classmethod
    def from_json(cls, document: str | Mapping[str, Any] | Sequence[Any]) -> GameTree:
        """A tree from a JSON text or an already parsed document.

        Accepted shapes: ``{"leaves": [...], "branching": 2, "labels": [...]}``,
        ``{"nested": [...], "labels": [...]}`` or a bare nested list, and
        ``{"root": "A", "children": {...}, "values": {...}}``.
        """
        if isinstance(document, str):
            document = _parse_json(document)
        if isinstance(document, list):
            return cls.from_nested(document)
        if not isinstance(document, Mapping):
            raise TreeFormatError("a tree document must be a JSON object or a nested list")
        labels = document.get("labels")
        if labels is not None and (
            not isinstance(labels, list) or not all(isinstance(x, str) for x in labels)
        ):
            raise TreeFormatError("\"labels\" must be a list of strings")
        if "leaves" in document:
            if not isinstance(document["leaves"], (str, list)):
                raise TreeFormatError("\"leaves\" must be a list of leaf values or a text of "
                                      "them, such as [3, 5, 2, 9] or \"3 5 2 9\"")
            branching = document.get("branching", 2)
            return cls.from_leaves(document["leaves"], branching, labels)
        if "nested" in document:
            return cls.from_nested(document["nested"], labels)
        if "root" in document:
            kids, values = document.get("children"), document.get("values")
            if not isinstance(kids, Mapping) or not isinstance(values, Mapping):
                raise TreeFormatError(
                    "a tree with \"root\" needs \"children\" and \"values\" objects"
                )
            odds = document.get("probabilities", {})
            if not isinstance(odds, Mapping):
                raise TreeFormatError("\"probabilities\" must be an object of node names and "
                                      "probabilities, such as {\"C\": \"9/10\", \"D\": "
                                      "\"1/10\"}")
            return cls.from_mapping(str(document["root"]), kids, values, odds)
        raise TreeFormatError(
            "a tree document needs one of the keys \"leaves\", \"nested\" or \"root\""
        )

    @classmethod
    def _build(
        cls,
        children: Sequence[Sequence[int]],
        leaf_map: Mapping[int, _Leaf],
        labels: Sequence[str] | None,
        chances: Mapping[int, Sequence[Fraction]] | None = None,
    ) -> GameTree:
        """Attach labels to nodes numbered breadth-first (the inner nodes come first)."""
        inner = [node for node in range(len(children)) if children[node]]
        given = list(labels or [])
        if given and len(given) not in (len(inner), len(children)):
            raise TreeFormatError(
                f"{len(given)} labels given: expected {len(inner)} (the inner nodes) or "
                f"{len(children)} (every node), in breadth-first order"
            )
        names: list[str] = [""] * len(children)
        for position, node in enumerate(inner):
            names[node] = given[position] if given else letters(position)
        if len(given) == len(children):
            names = [given[node] for node in range(len(children))]
        else:
            for node, kids in enumerate(children):
                for position, kid in enumerate(kids):
                    if not children[kid]:
                        names[kid] = f"{names[node]}{position + 1}"
        if len(set(names)) != len(names):
            duplicates = sorted({name for name in names if names.count(name) > 1})
            raise TreeFormatError(f"node labels must be unique; repeated: {', '.join(duplicates)}")
        return cls(children, leaf_map, names, chances=chances)


def _children_of(name: str, entry: object) -> list[tuple[str, str]]:
    """A named node's ``(move, child)`` pairs from its ``children`` entry: an object of
    ``move: child`` names, or a list of child names (each move named after its child)."""
    if isinstance(entry, Mapping) and all(isinstance(move, str) and isinstance(kid, str)
                                          for move, kid in entry.items()):
        return list(entry.items())
    if isinstance(entry, list) and all(isinstance(kid, str) for kid in entry):
        return [(kid, kid) for kid in entry]
    raise TreeFormatError(f"the children of {name!r} must be a list of node names, such as "
                          f"[\"B\", \"C\"], or an object of moves and node names, such as "
                          f"{{\"b1\": \"B\"}}; got {json.dumps(entry)[:60]}")


def _chance_pairs(item: Mapping[Any, Any]) -> list[tuple[object, Any]]:
    """The ``(probability, child)`` pairs of a nested chance node ``{"chance": [[p, child],
    ...]}``."""
    pairs = item.get("chance")
    if set(item) != {"chance"} or not isinstance(pairs, list) or not pairs or not all(
            isinstance(pair, list) and len(pair) == 2 for pair in pairs):
        raise TreeFormatError("a chance node of a nested tree is {\"chance\": [[probability, "
                              "child], ...]}, such as {\"chance\": [[\"9/10\", [2, 2]], "
                              "[\"1/10\", [3, 3]]]}")
    return [(odds, kid) for odds, kid in pairs]


MAX_NESTING = 500
"""The deepest nesting a tree document may have (JSON arrays and objects inside each other):
deeper ones would exhaust Python's recursion in the JSON reader and the searches."""


def _parse_json(text: str) -> Any:
    """A JSON document, refused with a :class:`TreeFormatError` when it is not valid JSON or
    nests deeper than :data:`MAX_NESTING`."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:  # count brackets outside strings before the recursive reader meets them
        if in_string:
            escaped = not escaped and char == "\\"
            in_string = escaped or char != '"'
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    if deepest > MAX_NESTING:
        raise TreeFormatError(f"the document nests {deepest} levels deep; at most "
                              f"{MAX_NESTING} are read")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise TreeFormatError(f"not valid JSON: {error}") from None


def _leaf_text(leaf: _Leaf) -> str:
    if leaf.finished:
        return outcome_of(leaf.value)
    return number_text(leaf.value)


def load_tree(path: str | Path) -> GameTree:
    """Read a tree from a JSON file (see :meth:`GameTree.from_json` for the shapes)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise TreeFormatError(f"cannot read tree file {str(path)!r}: {error.strerror}") from None
    return GameTree.from_json(text)


PRESETS: dict[str, dict[str, Any]] = {
    # AIMA (3rd edition) Figure 5.12, left: MAX chooses a1 or a2, a die-like chance node
    # follows (0.9 / 0.1), then MIN; a1 is worth 2.1 and a2 1.3 (the figure's point is that
    # turning the leaves 1 2 3 4 into 1 20 30 400 makes a2 better: 40.9 against 21).
    "aima-chance": {
        "root": "A",
        "children": {"A": {"a1": "B", "a2": "C"}, "B": ["D", "E"], "C": ["F", "G"],
                     "D": ["D1", "D2"], "E": ["E1", "E2"], "F": ["F1", "F2"],
                     "G": ["G1", "G2"]},
        "probabilities": {"D": "0.9", "E": "0.1", "F": "0.9", "G": "0.1"},
        "values": {"D1": 2, "D2": 2, "E1": 3, "E2": 3, "F1": 1, "F2": 1, "G1": 4, "G2": 4},
    },
}
"""Trees of the textbooks, by name (``--preset``): ``aima-chance``, the chance tree of AIMA's
Figure 5.12 (3rd edition; section 5.5, "Stochastic games")."""


def _preset(text: str) -> str:
    name = text.strip().lower()
    if name not in PRESETS:
        raise ValueError(f"no preset tree {text!r}; presets: {', '.join(PRESETS)}")
    return name


def build_tree(
    leaves: str | None = None,
    branching: int = 2,
    labels: str | None = None,
    nested: str | None = None,
    file: str | None = None,
    preset: str | None = None,
) -> GameTree:
    """Build a tree from command-line texts: exactly one of ``leaves``, ``nested``, ``file``,
    ``preset``."""
    given = [name for name, value in (("--leaves", leaves), ("--nested", nested),
                                       ("--file", file), ("--preset", preset))
             if value is not None]
    if len(given) != 1:
        raise TreeFormatError(
            "give the tree with exactly one of --leaves \"3 5 2 9\", --nested \"[[3,5],[2,9]]\", "
            f"--file tree.json or --preset NAME (got {', '.join(given) or 'none'})"
        )
    if preset is not None:
        if labels is not None:
            raise TreeFormatError("--labels applies to --leaves and --nested; a preset has "
                                  "its own")
        return GameTree.from_json(PRESETS[preset])
    names = labels.replace(",", " ").split() if labels is not None else None
    if leaves is not None:
        return GameTree.from_leaves(leaves, branching, names)
    if nested is not None:
        return GameTree.from_nested(_parse_json(nested), names)
    if names is not None:
        raise TreeFormatError("--labels applies to --leaves and --nested; a file carries its own")
    assert file is not None
    return load_tree(file)


def _branching(text: str) -> int:
    try:
        value = whole_number(text)
    except ValueError:
        raise ValueError(f"expected a whole number of at least 2, got {text!r}") from None
    if value < 2:
        raise ValueError(f"expected a whole number of at least 2, got {text!r}")
    return value


SPEC = GameSpec(
    name="tree",
    summary="an explicit game tree given by its leaf values (MAX moves at the root)",
    notation="the label of the child node (A, B, ...) or its number, 1 = leftmost",
    build=build_tree,
    from_document=GameTree.from_json,
    options=(
        GameOption("leaves", "leaf values left to right, e.g. \"3 5 2 9 12 5 23 23\" "
                   "(numbers, or win/loss/draw)", metavar="\"V V ...\""),
        GameOption("branching", "children per inner node for --leaves", _branching, 2,
                   metavar="B"),
        GameOption("labels", "node labels in breadth-first order, e.g. \"A B C\"",
                   metavar="\"L L ...\""),
        GameOption("nested", "the tree as nested JSON lists, e.g. \"[[3,12,8],[2,4,6]]\"",
                   metavar="JSON"),
        GameOption("file", "a JSON file holding the tree (see docs/trees.md)", metavar="F",
                   reads_file=True),
        GameOption("preset", f"a textbook's tree by name: {', '.join(PRESETS)} (AIMA's "
                   f"Figure 5.12, a tree with chance nodes)", _preset, metavar="NAME"),
    ),
)
