"""The checks of a game's compiled form: its kernel's rules against the game's on every state
met (``kernel``), and the compiled engine's values against the Python tier's (``values``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ..values import WIN, Value, format_value, plies_to_result
from ._base import (
    _RAISED,
    ERROR_TEXT_LIMIT,
    _equal,
    _error_text,
    _Node,
    _number_problem,
    _outcome_text,
    _Position,
    _same_outcome,
    _searchable,
    _shortened,
    _shown,
    _value_text,
)
from .searches import _Budgeted, _GameRaisedError, _OverBudgetError, _tier_search

if TYPE_CHECKING:
    from ..compiled.adapter import KernelGame
    from ..compiled.form import CompiledForm
    from ..result import MoveValue, SearchResult
    from .contract import _Checker

VALUE_DEPTH: Final = 2
"""The depth of the depth-limited searches whose values are compared."""

NEAR_END: Final = (8, 4, 2, 0)
"""How many plies before the end of a playout the exact comparisons try positions, in turn
(the first whose exact search fits in the node budget is taken)."""


def check_kernel(checker: _Checker, *, compiled: bool) -> None:
    """Compare the game with its kernel: rules on every state met, then values."""
    form = _compiled_form(checker)
    if form is None:
        return
    from ..compiled.adapter import KernelGame  # noqa: PLC0415 - only for games with kernels

    try:
        kernel_game = KernelGame(form.kernel)
    except Exception as error:
        checker.fail("kernel", "kernel", f"raised {type(error).__name__}",
                     f"its rules could not be loaded: {_error_text(error)}")
        checker.skipped["values"] = "the kernel's rules could not be loaded"
        return
    _KernelComparison(checker, form, kernel_game).compare_rules(checker.all_nodes())
    _warn_of_a_missing_key(checker, form)
    if not compiled:
        checker.skipped["values"] = ("the compiled engine was not run (compiled=False, "
                                     "--no-compiled)")
        return
    _ValueComparison(checker, form, kernel_game).run()


def _warn_of_a_missing_key(checker: _Checker, form: CompiledForm[Any, Any]) -> None:
    """Warn when the game's own key makes positions one but the kernel has no key: the
    compiled tier never calls the Python ``key``, so it searches each of them again."""
    if not checker.custom_key or not checker.key_pairs or \
            "key" in form.kernel.python_rules():
        return
    first, second = checker.key_pairs[0]
    without = ("keeps no transposition table at all (its state is a tuple)"
               if form.kernel.state_size else "tells them apart (its key is the state)")
    checker.warnings.append(
        f"the game's key makes positions one ({len(checker.key_pairs)} states met share a key "
        f"with another, such as {checker.state_text(first.position.state)} and "
        f"{checker.state_text(second.position.state)}), but its kernel has no key: the "
        f"compiled tier never calls the Python key, so it {without} and searches each of "
        f"them again; give the kernel a key(state) -> int that makes the same positions one "
        f"(docs/kernels.md, \"Keys\")")


def _compiled_form(checker: _Checker) -> CompiledForm[Any, Any] | None:
    """The game's compiled form, or None (with the reason in the skipped checks)."""
    # Imported here: `import gametree` (which imports this package) stays light.
    from ..compiled.form import (  # noqa: PLC0415
        NotACompiledFormError,
        compiled_form_of,
        no_form_reason,
    )

    game = checker.game
    try:
        found: CompiledForm[Any, Any] | str = compiled_form_of(game)
    except NotACompiledFormError as error:
        checker.fail("kernel", "compiled_form", "not a form", error.problem)
        found = "compiled_form returned no CompiledForm"
    except Exception as error:
        checker.fail("kernel", "compiled_form", f"raised {type(error).__name__}",
                     f"raised {_error_text(error)}; expected a CompiledForm, None, or a "
                     "ValueError (KernelError) for options the kernel cannot hold")
        found = "compiled_form raised"
    else:
        if found == no_form_reason(game):
            found = "the game has no compiled form"
        elif isinstance(found, str):  # its compiled_form raised a ValueError (KernelError)
            checker.note(f"no kernel for these options: {_shortened(found, ERROR_TEXT_LIMIT)}")
            found = "no kernel for these options"
    if isinstance(found, str):
        checker.skipped.setdefault("kernel", found)
        checker.skipped.setdefault("values", found)
        return None
    return found


class _KernelComparison:
    """The kernel's rules, run as plain Python, against the game's on the states met."""

    def __init__(self, checker: _Checker, form: CompiledForm[Any, Any],
                 kernel_game: KernelGame) -> None:
        self.checker = checker
        self.form = form
        self.kernel = kernel_game
        self.encodings: dict[Any, Any] | None = None
        """Each state met by its encoding (built when a next state differs)."""

    def compare_rules(self, nodes: list[_Node]) -> None:
        """Compare player, outcome, moves, evaluation and next states on every node."""
        for node in nodes:
            if node.player is _RAISED or node.outcome is _RAISED:
                continue
            self.checker.counts["kernel"] += 1
            self.compare_node(node)
        self.compare_mirror_keys(nodes)
        self.compare_forced_replies(nodes)

    def compare_forced_replies(self, nodes: list[_Node]) -> None:
        """The kernel's ``forced_reply`` (a solving hook), where it has one, says what its
        ``non_losing_moves`` says on every unfinished state met where the player to move
        cannot win at once: the one move, none or several."""
        rules = self.form.kernel.python_rules()
        if "forced_reply" not in rules:
            return
        from ..compiled.authoring import forced_reply_of  # noqa: PLC0415 - kernels only

        out = [0] * self.form.kernel.max_moves
        for node in nodes:
            if node.player is _RAISED or node.outcome is not None:
                continue
            position = node.position
            encoded = self.kernel_call("compiled_form().encode", position, self.form.encode,
                                       position.state)
            if encoded is _RAISED or self.kernel_call(
                    "kernel can_win_next", position, rules["can_win_next"], encoded) in \
                    (_RAISED, True):
                continue
            count = self.kernel_call("kernel non_losing_moves", position,
                                     rules["non_losing_moves"], encoded, out)
            reply = self.kernel_call("kernel forced_reply", position, rules["forced_reply"],
                                     encoded)
            if count is _RAISED or reply is _RAISED:
                continue
            wanted = forced_reply_of(count, out)
            self.checker.value_counts["forced replies"] += 1
            if reply != wanted:
                self.checker.fail("kernel", "kernel forced_reply", "forced reply differs",
                                  f"gives {reply}, where non_losing_moves gives {count} "
                                  f"move(s) ({wanted} expected): the engine would play out "
                                  "another forced line", position)

    def compare_mirror_keys(self, nodes: list[_Node]) -> None:
        """The kernel's ``mirror_key`` (a solving hook), where it has one: a state met whose
        key is another's mirror key must be a position like it (the same player to move,
        outcome and number of moves), since the table gives both one entry."""
        rules = self.form.kernel.python_rules()
        if "mirror_key" not in rules:
            return
        by_key: dict[Any, _Node] = {}
        mirrors: list[tuple[_Node, Any]] = []
        for node in nodes:
            if node.player is _RAISED or node.outcome is _RAISED:
                continue
            encoded = self.kernel_call("compiled_form().encode", node.position,
                                       self.form.encode, node.position.state)
            if encoded is _RAISED:
                continue
            key = self.kernel_call("kernel key", node.position, rules["key"], encoded)
            mirror = self.kernel_call("kernel mirror_key", node.position, rules["mirror_key"],
                                      encoded)
            if key is not _RAISED and mirror is not _RAISED:
                by_key[key] = node
                mirrors.append((node, mirror))
        for node, mirror in mirrors:
            image = by_key.get(mirror)
            if image is None:
                continue
            if (image.player, _outcome_text(image.outcome), len(image.moves)) != \
                    (node.player, _outcome_text(node.outcome), len(node.moves)):
                self.checker.fail("kernel", "kernel mirror_key", "not a mirror image",
                                  "gives the key of a state with another player to move, "
                                  "outcome or number of moves: the table would share their "
                                  "values", node.position)

    def kernel_call(self, method: str, position: _Position, function: Callable[..., Any],
                    *args: Any) -> Any:
        """A call of the kernel side, problems recorded under the kernel check."""
        return self.checker.call("kernel", method, position, function, *args)

    def compare_node(self, node: _Node) -> None:
        """The kernel agrees with the game on one state."""
        position, checker = node.position, self.checker
        encoded = self.kernel_call("compiled_form().encode", position, self.form.encode,
                                   position.state)
        if encoded is _RAISED:
            return
        player = self.kernel_call("kernel to_move", position, self.kernel.to_move, encoded)
        if player is not _RAISED and player != node.player:
            checker.fail("kernel", "kernel to_move", "player differs",
                         f"says player {player} moves, the game says {node.player}", position)
        outcome = self.kernel_call("kernel outcome", position, self.kernel.outcome, encoded)
        if outcome is not _RAISED and not _same_outcome(outcome, node.outcome):
            checker.fail("kernel", "kernel outcome", "outcome differs",
                         f"gives {_outcome_text(outcome)}, the game {_outcome_text(node.outcome)}",
                         position)
        if node.outcome is None:
            self.compare_evaluate(node, encoded)
        kernel_moves = self.compare_moves(node, encoded)
        if kernel_moves is not None:
            self.compare_play(node, encoded, kernel_moves)

    def compare_evaluate(self, node: _Node, encoded: Any) -> None:
        """The kernel's heuristic is the game's."""
        position, ours = node.position, node.estimate
        if _number_problem(ours) is not None:
            return  # the evaluate check has said why
        theirs = self.kernel_call("kernel evaluate", position, self.kernel.evaluate, encoded)
        if theirs is not _RAISED and theirs != ours:
            self.checker.fail("kernel", "kernel evaluate", "evaluate differs",
                              f"gives {theirs}, the game's evaluate {ours}: depth-limited "
                              "values would differ between the tiers", position)

    def compare_moves(self, node: _Node, encoded: Any) -> list[int] | None:
        """The kernel's moves, decoded, are the game's in the same order; returns the kernel
        moves when they agree, else None."""
        position = node.position
        kernel_moves = self.kernel_call("kernel moves", position, self.kernel.moves, encoded)
        if kernel_moves is _RAISED:
            return None
        decoded = [self.kernel_call("compiled_form().decode_move", position,
                                    self.form.decode_move, position.state, move)
                   for move in kernel_moves]
        if any(move is _RAISED for move in decoded):
            return None
        if _equal(decoded, node.moves):
            return list(kernel_moves)
        texts = self.texts(position.state, decoded), self.texts(position.state, node.moves)
        try:
            reordered = Counter(decoded) == Counter(node.moves)
        except Exception:
            reordered = False
        if reordered:
            self.checker.fail("kernel", "kernel moves", "order differs",
                              f"lists the same moves in another order: {texts[0]} against the "
                              f"game's {texts[1]}; both tiers must try moves in the same order "
                              "(it decides ties)", position)
        else:
            self.checker.fail("kernel", "kernel moves", "moves differ",
                              f"gives {texts[0]}, the game {texts[1]}", position)
        return None

    def compare_play(self, node: _Node, encoded: Any, kernel_moves: list[int]) -> None:
        """After each move, the kernel's state is the game's next state, encoded."""
        position = node.position
        for index in node.playable():
            ours = self.kernel_call("compiled_form().encode", position, self.form.encode,
                                    node.children[index])
            theirs = self.kernel_call("kernel play", position, self.kernel.play, encoded,
                                      kernel_moves[index])
            if ours is _RAISED or theirs is _RAISED or _equal(ours, theirs):
                continue
            self.checker.fail("kernel", "kernel play", "next state differs",
                              f"after {node.texts[index]} the kernel's state is "
                              f"{self.position_text(theirs)}, the game's next position is "
                              f"{self.checker.state_text(node.children[index])} (encoded: "
                              f"{_shown(ours)})", position)

    def position_text(self, encoded: Any) -> str:
        """A kernel state as the position it encodes (the game's own text), when a state met
        encodes to it; else as the kernel draws it."""
        if self.encodings is None:
            self.encodings = {}
            for node in self.checker.all_nodes():
                try:
                    self.encodings.setdefault(self.form.encode(node.position.state),
                                              node.position.state)
                except Exception:
                    continue  # reported where it was met
        try:
            state = self.encodings.get(encoded, self.encodings)
        except TypeError:
            state = self.encodings
        if state is not self.encodings:
            return f"{self.checker.state_text(state)} (encoded: {_shown(encoded)})"
        try:
            drawn = " ".join(str(self.kernel.render(encoded)).split())
        except Exception:
            drawn = ""
        return (f"{_shown(encoded)}, which encodes no position met"
                + (f" (the kernel draws it as {_shortened(drawn, 60)})"
                   if drawn and drawn != _shown(encoded) else ""))

    def texts(self, state: Any, moves: list[Any]) -> str:
        """Moves as the game writes them: ``[1, 2, 3]``."""
        return "[" + ", ".join(self.checker.move_text(state, move) for move in moves) + "]"


class _ValueComparison:
    """The compiled engine's values against the Python tier's on positions from the
    playouts: exact near the end of a game, depth-limited elsewhere."""

    def __init__(self, checker: _Checker, form: CompiledForm[Any, Any],
                 kernel_game: KernelGame) -> None:
        self.checker = checker
        self.form = form
        self.kernel = kernel_game
        self.suspect: str | None = None
        """What the kernel's key has to do with a difference (found once, when needed)."""
        self.broken = False
        self.first_fit = 0
        """The entry of :data:`NEAR_END` whose position last fitted the node budget."""

    def run(self) -> None:
        """Compare exact values, then depth-limited ones."""
        for candidates in self.near_end_positions():
            if self.broken:
                return
            self.compare_exact(candidates)
        if self.form.kernel.has_threat_hooks:
            self.checker.note(
                f"the kernel has threat hooks, with which the compiled engine proves wins and "
                f"losses beyond a depth limit: depth-{VALUE_DEPTH} values are compared where "
                "the Python tier proves a result")
        for position in self.sampled_positions():
            if self.broken:
                return
            if self.compare(position, VALUE_DEPTH):
                self.checker.value_counts["tiers limited"] += 1

    def near_end_positions(self) -> list[list[_Position]]:
        """For each of the first playouts, its unfinished positions :data:`NEAR_END` plies
        before its end (one for each entry; the first position of a shorter playout)."""
        chosen: list[list[_Position]] = []
        for line in self.checker.playout_lines:
            unfinished = [node.position for node in line if _searchable(node)]
            if not unfinished:
                continue
            chosen.append([unfinished[max(0, len(unfinished) - 1 - back)] for back in NEAR_END])
            if len(chosen) == self.checker.searches:
                break
        return chosen

    def sampled_positions(self) -> list[_Position]:
        """Unfinished positions drawn at random (seeded) from every state met."""
        unfinished = [node.position for node in self.checker.all_nodes() if _searchable(node)]
        count = min(self.checker.searches, len(unfinished))
        return random.Random(self.checker.seed).sample(unfinished, count)

    def compare_exact(self, candidates: list[_Position]) -> None:
        """The first candidate whose Python-tier exact search fits the budget is compared.

        The candidates are tried from the distance to the end that fitted last time (the
        farthest at first) towards the end, so searches over the budget are not repeated
        playout after playout.
        """
        tried = None
        for index in range(self.first_fit, len(candidates)):
            position = candidates[index]
            if self.broken:
                return
            if position is tried:
                continue
            tried = position
            if self.compare(position, None):
                self.first_fit = index
                self.checker.value_counts["tiers exact"] += 1
                return

    def compare(self, position: _Position, depth: int | None) -> bool:
        """Search ``position`` on both tiers and compare; False if the Python tier's search
        did not fit the node budget (or failed)."""
        python = self.python_result(position, depth)
        if python is None:
            return False
        try:
            compiled = _tier_search(self.checker.game, position.state, form=self.form,
                                    depth=depth)
        except Exception as error:
            self.broken = True
            self.checker.fail("values", "compiled engine", f"raised {type(error).__name__}",
                              f"searching the compiled form raised {_error_text(error)}",
                              position)
            return False
        self.report_difference(position, depth, python, compiled)
        if depth is None:
            self.check_upper_bound(position, python.value)
        return True

    def check_upper_bound(self, position: _Position, value: Value) -> None:
        """The kernel's ``upper_bound`` (a solving hook), where it has one, holds at a position
        whose exact value (for the player to move) the Python tier found."""
        rules = self.form.kernel.python_rules()
        if "upper_bound" not in rules:
            return
        from ..compiled.kernel import NO_UPPER_BOUND  # noqa: PLC0415 - kernels only

        encoded = self.checker.call("values", "compiled_form().encode", position,
                                    self.form.encode, position.state)
        if encoded is _RAISED:
            return
        bound = self.checker.call("values", "kernel upper_bound", position,
                                  rules["upper_bound"], encoded)
        if bound is _RAISED or bound == NO_UPPER_BOUND:
            return
        self.checker.value_counts["upper bounds"] += 1
        limit = 0 if bound >= 0 else -(WIN - (-bound))
        if value > limit:
            said = "a draw at best" if bound >= 0 else f"a loss within {-bound} plies"
            self.checker.fail("values", "kernel upper_bound", "bound broken",
                              f"says {said}, but the position is worth {format_value(value)} "
                              "to the player to move", position)

    def python_result(self, position: _Position, depth: int | None) -> SearchResult[Any] | None:
        """The Python tier's result, or None if over the node budget or the game raised."""
        budgeted = _Budgeted(self.checker.game, self.checker.search_nodes)
        try:
            return _tier_search(budgeted, position.state, form=None, depth=depth)
        except (_OverBudgetError, RecursionError):  # too large, or too deep, to search
            return None
        except _GameRaisedError as raised:
            self.checker.fail("values", raised.method,
                              f"raised {type(raised.error).__name__} in search",
                              f"raised {_error_text(raised.error)} while the Python tier "
                              "searched from here", position)
        except Exception as error:
            self.checker.fail("values", "(search)", f"search raised {type(error).__name__}",
                              f"the Python tier's search stopped with {_error_text(error)}",
                              position)
        return None

    def report_difference(self, position: _Position, depth: int | None,
                          python: SearchResult[Any], compiled: SearchResult[Any]) -> None:
        """Record a problem if the root values or any root move's value differ.

        With threat hooks the compiled engine proves wins and losses beyond a depth limit (an
        immediate win, or no move that saves the game, seen at the horizon), so its
        depth-limited values may rightly differ from the Python tier's: there only the values
        the Python tier proves within the depth are compared.
        """
        kind = "exact" if depth is None else f"depth-{depth}"
        proven_only = depth is not None and self.form.kernel.has_threat_hooks

        def compared(value: Value) -> bool:
            return not proven_only or plies_to_result(value) is not None

        detail: str | None
        if compared(python.value) and python.value != compiled.value:
            detail = (f"the {kind} value is {format_value(compiled.value)} on the compiled "
                      f"tier, {format_value(python.value)} on the Python tier")
        else:
            detail = self.move_difference(position, kind, [
                entry for entry in python.moves if compared(entry.value)], compiled)
        if detail is not None:
            self.checker.fail("values", "compiled engine", f"{kind} values differ",
                              f"{detail}; the kernel and the game must be the same game"
                              f"{self.key_suspect()}", position)

    def key_suspect(self) -> str:
        """``; ...`` naming the kernel's key when it gives two positions met that cannot have
        the same value (another player to move, outcome or number of moves) one key, or when
        nothing else explains a difference; empty for a kernel without a key."""
        if self.suspect is not None:
            return self.suspect
        self.suspect = ""
        if "key" not in self.form.kernel.python_rules():
            return ""
        seen: dict[Any, tuple[Any, tuple[Any, Any, int]]] = {}
        for node in self.checker.all_nodes():
            try:
                encoded = self.form.encode(node.position.state)
                mark = (self.kernel.to_move(encoded), self.kernel.outcome(encoded),
                        len(self.kernel.moves(encoded)))
                key = self.kernel.key(encoded)
            except Exception:
                continue  # the kernel check has said what raised
            known = seen.setdefault(key, (node.position.state, mark))
            if known[1] != mark:
                show = self.checker.state_text
                self.suspect = (
                    f"; the kernel's key is at fault: it gives {show(known[0])} and "
                    f"{show(node.position.state)} the same key {key}, though they differ in "
                    f"{self.difference(known[1], mark)}, so the table takes one for the "
                    f"other (two positions may share a key only if they have the same value)")
                return self.suspect
        if not any(check == "kernel" for check, _method, _problem in self.checker.problems):
            self.suspect = ("; the kernel's rules agree with the game's on every state met, "
                            "so suspect the kernel's key: two positions may share a key only "
                            "if they have the same value")
        return self.suspect

    @staticmethod
    def difference(first: tuple[Any, Any, int], second: tuple[Any, Any, int]) -> str:
        """Which of (player to move, outcome, number of moves) differ, in words."""
        names = ("the player to move", "the outcome", "the number of moves")
        return " and ".join(name for name, one, other in zip(names, first, second, strict=True)
                            if one != other)

    def move_difference(self, position: _Position, kind: str, ours: list[MoveValue[Any]],
                        compiled: SearchResult[Any]) -> str | None:
        """The first of ``ours`` (root moves valued by the Python tier) that the compiled
        tier values otherwise, in words; None if there is none."""
        for entry in ours:
            theirs = next((other.value for other in compiled.moves
                           if _equal(other.move, entry.move)), None)
            if theirs != entry.value:
                text = self.checker.move_text(position.state, entry.move)
                return (f"the {kind} value of the move {text} is {_value_text(theirs)} on the "
                        f"compiled tier, {format_value(entry.value)} on the Python tier")
        return None


__all__ = ["NEAR_END", "VALUE_DEPTH", "check_kernel"]
