"""The ``new`` command: write a small project for a game of one's own.

``gametree new NAME`` writes the directory ``NAME`` with a ``pyproject.toml`` declaring the game
as a plugin (the entry point ``NAME`` in the group ``gametree.games``), the game's module with the
five methods of the Game contract (a working take-away game, each method marked ``TODO``), tests
that run ``check_game`` and a solve, and with ``--kernel`` a compiled form of the same rules. Its
tests pass as written: ``gametree new demo && pip install ./demo && pytest demo``.
"""

from __future__ import annotations

import argparse
import keyword
import re
from pathlib import Path
from typing import Any

from ..game import GameError

_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[-_]", name) if part) or "Game"


PYPROJECT = '''\
[build-system]
requires = ["hatchling>=1.18"]
build-backend = "hatchling.build"

[project]
name = "{name}"
version = "0.1.0"
description = "{title}: a game for gametree"
requires-python = ">=3.10"
dependencies = ["gametree"]

[project.optional-dependencies]
test = ["pytest"]

# This makes the game a gametree plugin: once the project is installed, `gametree games`, every
# command, `gametree play`, `check`, `db` and `serve` know it as "{name}".
[project.entry-points."gametree.games"]
{name} = "{module}:{cls}"

[tool.hatch.build.targets.wheel]
packages = ["src/{module}"]

[tool.pytest.ini_options]
testpaths = ["tests"]
'''

README = '''\
# {title}

A game for [gametree](https://pypi.org/project/gametree/), written by `gametree new {name}`.

```console
$ pip install ./{name}            # or pip install -e ./{name} while you work on it
$ pytest {name}                   # check_game and a solve
$ gametree solve {name} --heap 12
$ gametree play {name}
$ gametree check {name}
```

Edit `src/{module}/game.py` (each method marked TODO) to make it your game, then the position
and its value in `tests/test_{module}.py`.{kernel_note}
'''

KERNEL_NOTE = '''
`src/{module}/kernel.py` holds the same rules as a kernel, which gametree compiles with numba
(docs/kernels.md of gametree): change it with the Python rules, and `gametree check {name}`
compares the two.'''

INIT = '''\
"""{title}: a game for gametree."""

from .game import {cls}

__all__ = ["{cls}"]
'''

GAME = '''\
"""{title}: the rules, as gametree's Game contract (docs/contract.md of gametree).

As written it is a take-away game: a heap of counters, each move takes 1, 2 or 3, and whoever
takes the last counter wins. Replace each TODO with your game's rules; `gametree check {name}`
(or the tests) say what does not keep the contract.
"""

from __future__ import annotations
{kernel_import}
from gametree import Game, IllegalMoveError

State = tuple[int, int]
"""TODO: your state. Here ``(counters left, player to move)``: a state must be immutable and
hashable (tuples, ints, frozen dataclasses)."""


class {cls}(Game[State, int]):
    """{title}: take 1, 2 or 3 counters; whoever takes the last one wins."""

    name = "{name}"
    notation = "the number of counters to take"

    def __init__(self, heap: int = 10) -> None:
        # Each keyword parameter (with its default) is an option on the command line and in
        # the browser: --heap 12.
        if heap < 1:
            raise ValueError(f"heap must be at least 1, got {{heap}}")
        self.heap = heap

    def initial_state(self) -> State:
        """TODO: the state the game starts in."""
        return (self.heap, 0)

    def to_move(self, state: State) -> int:
        """TODO: the player to move, 0 (who moved first) or 1."""
        return state[1]

    def moves(self, state: State) -> list[int]:
        """TODO: the legal moves, the most promising first; none once the game is over."""
        return [take for take in (3, 2, 1) if take <= state[0]]

    def play(self, state: State, move: int) -> State:
        """TODO: the state after ``move`` (a new state: ``state`` stays as it is)."""
        return (state[0] - move, 1 - state[1])

    def outcome(self, state: State) -> int | None:
        """TODO: None while the game goes on, else the result for player 0: +1 won, -1 lost,
        0 a draw."""
        if state[0] > 0:
            return None
        return -1 if state[1] == 0 else 1  # the player to move has nothing left to take

    def parse_move(self, state: State, text: str) -> int:
        """A move typed by a person (optional: the default reads ``str(move)`` back)."""
        if text.strip() not in {{str(move) for move in self.moves(state)}}:
            raise IllegalMoveError(f"take 1, 2 or 3 counters, at most {{state[0]}}")
        return int(text)

    def render(self, state: State) -> str:
        """The state as text for a terminal (optional)."""
        return f"{{state[0]}} counters: " + "o" * state[0]
{compiled_form}'''

COMPILED_FORM = '''
    def compiled_form(self) -> CompiledForm[State, int]:
        """The same rules as a kernel (``kernel.py``): the compiled tier searches it."""
        from .kernel import compiled_form  # noqa: PLC0415 - numba's side only when asked

        return compiled_form(self)
'''

KERNEL = '''\
"""{title}: the compiled form, the rules of ``game.py`` as a kernel numba compiles.

A kernel's state has a fixed size (an int or a tuple of ints) and its moves are ints; here
both are the Python form's own, so nothing needs translating (``same_move``). Keep the two
in step: ``gametree check {name}`` compares them position by position. See docs/kernels.md of
gametree for every rule and hook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gametree.compiled import ONGOING, CompiledForm, Kernel, KernelError, plain, same_move

from .game import State, {cls}

MAX_PLIES = 1000
"""The longest game the kernel searches. A kernel's fields are part of what is compiled: kept
constant, one compilation serves every heap up to it."""


def rules(*, jit: Callable[..., Any] = plain) -> dict[str, Callable[..., Any]]:
    """TODO: the rules, each decorated with ``jit`` (numba's, or ``plain`` Python)."""

    @jit
    def to_move(state: State) -> int:
        return state[1]

    @jit
    def moves(state: State, out: Any) -> int:
        # Write the moves into out[0], out[1], ... and return how many: no lists here.
        count = 0
        for take in (3, 2, 1):
            if take <= state[0]:
                out[count] = take
                count += 1
        return count

    @jit
    def play(state: State, move: int) -> State:
        return (state[0] - move, 1 - state[1])

    @jit
    def outcome(state: State) -> int:
        if state[0] > 0:
            return ONGOING
        return -1 if state[1] == 0 else 1

    @jit
    def key(state: State) -> int:
        # One integer per position for the transposition table (the Python key is not used).
        return 2 * state[0] + state[1]

    return {{"to_move": to_move, "moves": moves, "play": play, "outcome": outcome, "key": key}}


def compiled_form(game: {cls}) -> CompiledForm[State, int]:
    """The kernel of ``game`` and how its states and moves translate (a ``KernelError``,
    a ``ValueError``, when the kernel cannot hold the game: the Python tier searches it)."""
    if game.heap >= MAX_PLIES:
        raise KernelError(f"the kernel searches heaps below {{MAX_PLIES}}")
    kernel = Kernel.from_factory("{name}", rules, initial_state=game.initial_state(),
                                 max_moves=3, max_plies=MAX_PLIES, winner_moves_last=True)
    return CompiledForm(game=game, kernel=kernel, encode=_encode, decode_move=same_move)


def _encode(state: State) -> State:
    return (int(state[0]), int(state[1]))
'''

TESTS = '''\
"""{title}: the rules keep gametree's Game contract, and a solve gives a known value."""

from gametree import check_game, search

from {module} import {cls}


def test_the_rules_keep_the_game_contract() -> None:
    report = check_game({cls}())
    assert report.passed, report.text()


def test_a_solve_gives_the_known_value() -> None:
    # TODO: a position of your game whose value you know. A heap of 8 is a multiple of 4:
    # whatever the first player takes, the second takes the rest of 4, and wins.
    assert search({cls}(heap=8), tier="python").outcome == "loss"
    assert search({cls}(heap=9), tier="python").outcome == "win"
{kernel_test}'''

KERNEL_TEST = '''

def test_the_compiled_tier_agrees() -> None:
    for heap in (8, 9, 10):
        game = {cls}(heap=heap)
        compiled = search(game, tier="compiled")
        assert (compiled.outcome, compiled.value) == (search(game, tier="python").outcome,
                                                     search(game, tier="python").value)
'''


def project_files(name: str, *, kernel: bool) -> dict[str, str]:
    """The files of a new project for the game ``name``, by path inside its directory."""
    if not _NAME.match(name) or name.endswith(("-", "_")):
        raise GameError(f"{name!r} cannot name a game project: use lower-case letters, digits, "
                        f"'-' and '_', starting with a letter (such as my-game)")
    module = name.replace("-", "_")
    if keyword.iskeyword(module):
        raise GameError(f"{name!r} is a Python keyword: choose another name")
    words = {"name": name, "module": module, "cls": _class_name(name),
             "title": _class_name(name)}
    files = {
        "pyproject.toml": PYPROJECT.format(**words),
        "README.md": README.format(**words, kernel_note=KERNEL_NOTE.format(**words)
                                   if kernel else ""),
        f"src/{module}/__init__.py": INIT.format(**words),
        f"src/{module}/game.py": GAME.format(
            **words,
            kernel_import="\nfrom typing import TYPE_CHECKING\n" if kernel else "",
            compiled_form=COMPILED_FORM if kernel else ""),
        f"tests/test_{module}.py": TESTS.format(
            **words, kernel_test=KERNEL_TEST.format(**words) if kernel else ""),
    }
    if kernel:
        files[f"src/{module}/game.py"] = files[f"src/{module}/game.py"].replace(
            "from gametree import Game, IllegalMoveError\n",
            "from gametree import Game, IllegalMoveError\n\nif TYPE_CHECKING:\n"
            "    from gametree.compiled import CompiledForm\n")
        files[f"src/{module}/kernel.py"] = KERNEL.format(**words)
    return files


def write_project(directory: Path, name: str, *, kernel: bool) -> list[Path]:
    """Write the project into ``directory`` (which must not exist, or be empty); returns the
    files written."""
    files = project_files(name, kernel=kernel)
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise GameError(f"{directory} already exists and is not an empty directory: "
                        f"nothing written")
    written = []
    for relative, text in files.items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(path)
    return written


def run_new(args: argparse.Namespace) -> int:
    """``gametree new NAME``: write the project and say what to do next."""
    directory = Path(args.directory or args.name)
    written = write_project(directory, args.name, kernel=args.kernel)
    for path in written:
        print(f"wrote {path}")
    shown = str(directory) if directory.is_absolute() or str(directory).startswith(".") \
        else f"./{directory}"
    print(f"\nnext: pip install {shown}   (then: pytest {shown}; gametree play {args.name})")
    print(f"edit the TODOs of {written[3]}")
    return 0


def add_command(subparsers: Any) -> None:
    """Register ``new``."""
    command = subparsers.add_parser(
        "new", help="write a small project for a game of your own (a plugin)",
        description="Write the directory NAME: a pyproject.toml that declares the game as a "
                    "gametree plugin, the game with the five methods of the Game contract "
                    "(a working take-away game, each method marked TODO), and tests that run "
                    "check_game and a solve. Install it (pip install ./NAME) and every "
                    "gametree command knows the game.")
    command.add_argument("name", metavar="NAME",
                         help="the game's name (lower case: letters, digits, - and _)")
    command.add_argument("--kernel", action="store_true",
                         help="also write a compiled form of the rules (a numba kernel)")
    command.add_argument("--directory", metavar="DIR",
                         help="where to write the project (default: ./NAME)")
    command.set_defaults(run=run_new)
