"""Games from outside the package: installed plugins and games named by a path.

A *plugin* is an installed distribution that declares an entry point in the group
``gametree.games`` (:data:`ENTRY_POINT_GROUP`); the entry point's name is the game's name and
its value a :class:`~gametree.registry.GameSpec`, a factory returning a
:class:`~gametree.Game`, or a ``Game`` subclass. A game that is not installed is named by a
*path* instead: ``path/to/file.py:Factory`` or ``package.module:Factory`` (``--game`` on the
command line). Either way :func:`as_spec` turns what was found into a ``GameSpec``, reading a
factory's options from its signature.

A plugin that cannot be loaded is kept aside with its error (:func:`installed_games`), so one
broken plugin never hides the other games.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from .entry_points import declared
from .game import Game
from .registry import GameOption, GameSpec, UnknownGameError, added_games

ENTRY_POINT_GROUP = "gametree.games"
"""The entry point group a plugin declares its games in (``[project.entry-points."gametree.games"]``
in its ``pyproject.toml``)."""

PATHS_VARIABLE = "GAMETREE_GAMES"
"""An environment variable: the paths of games to load besides the built-in ones and the
plugins, separated by ``;``. The command line sets it for the games given with ``--game``, so
that the processes it starts (a database build's workers) load them too."""


def _docstring_line(found: object) -> str | None:
    """The first line of ``found``'s own docstring (not one it inherits from ``Game``)."""
    doc = getattr(found, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    return inspect.cleandoc(doc).splitlines()[0].rstrip(".")


def _parse_switch(text: str) -> bool:
    word = text.strip().lower()
    if word in ("true", "yes", "1", "on"):
        return True
    if word in ("false", "no", "0", "off"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def _parse_numbers(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.replace(" ", "").split(",") if part)
    except ValueError:
        raise ValueError(f"expected whole numbers separated by commas, got {text!r}") from None


def _parse_whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"expected a whole number, got {text!r}") from None


def _parse_number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"expected a number, got {text!r}") from None


def _option(name: str, annotation: object, default: object) -> GameOption:
    """One factory parameter as a game option, read by its annotation or its default's type."""
    kind = annotation if isinstance(annotation, type) else type(default)
    origin = typing.get_origin(annotation)
    if kind is bool:
        if default is True:  # a switch can only turn a thing on: take true/false instead
            return GameOption(name, f"{name} (true or false)", _parse_switch, True,
                              metavar="BOOL")
        return GameOption(name, name.replace("_", " "), bool, False, flag=True)
    if kind is int:
        return GameOption(name, name.replace("_", " "), _parse_whole, default, metavar="N")
    if kind is float:
        return GameOption(name, name.replace("_", " "), _parse_number, default, metavar="X")
    if kind in (tuple, list) or origin in (tuple, list):
        return GameOption(name, f"{name.replace('_', ' ')} (numbers separated by commas)",
                          _parse_numbers, default, metavar="N,N,...")
    return GameOption(name, name.replace("_", " "), str, default, metavar="TEXT")


def signature_options(factory: Callable[..., Any]) -> tuple[GameOption, ...]:
    """A factory's keyword parameters as game options: ``heaps: tuple[int, ...] = (3, 4, 5)``
    becomes ``--heaps N,N,...``, ``misere: bool = False`` the switch ``--misere``, an ``int``
    ``--NAME N``, any other a text. Raises ``TypeError`` for a parameter without a default
    (every option needs one)."""
    target = factory.__init__ if isinstance(factory, type) else factory  # type: ignore[misc]
    try:
        hints = typing.get_type_hints(target)
    except Exception:  # annotations that cannot be resolved: use the defaults
        hints = {}
    options = []
    parameters = list(inspect.signature(target).parameters.values())
    if isinstance(factory, type):
        parameters = parameters[1:]  # self
    for parameter in parameters:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if parameter.default is parameter.empty:
            raise TypeError(f"its parameter {parameter.name} has no default: every game "
                            f"option needs one (or give a GameSpec)")
        options.append(_option(parameter.name, hints.get(parameter.name), parameter.default))
    return tuple(options)


def as_spec(found: object, name: str | None = None) -> GameSpec:
    """A :class:`GameSpec` from a ``GameSpec`` (renamed to ``name`` if one is given), a
    ``Game`` subclass, or a factory returning a ``Game``. A class or factory gives the spec
    its docstring's first line as summary and its keyword parameters as options
    (:func:`signature_options`); its name is ``name``, else the class's own ``name`` (if it
    sets one), else the class's or function's name in lower case. Raises ``TypeError`` for
    anything else."""
    if isinstance(found, GameSpec):
        return found if name is None or name == found.name else \
            dataclasses.replace(found, name=name)
    if isinstance(found, Game):
        raise TypeError("it is a game object: name its class or a factory, so that its "
                        "options can be given")
    if not callable(found):
        raise TypeError(f"it is a {type(found).__name__}; expected a GameSpec, a Game "
                        f"subclass or a factory returning a Game")
    if isinstance(found, type) and not issubclass(found, Game):
        raise TypeError(f"{found.__name__} is not a subclass of gametree.Game")
    if name is None:
        own = getattr(found, "name", None) if isinstance(found, type) else None
        name = own if isinstance(own, str) and own != Game.name else \
            getattr(found, "__name__", "game").lower()
    factory = typing.cast("Callable[..., Any]", found)

    def build(**options: Any) -> Game[Any, Any]:
        game = factory(**options)
        if not isinstance(game, Game):
            raise TypeError(f"{name}: the factory returned a {type(game).__name__}, not a "
                            f"gametree.Game")
        return game

    return GameSpec(name=name,
                    summary=_docstring_line(found) or f"the game {name}",
                    notation=getattr(found, "notation", None) or "as the game writes its moves",
                    build=build, options=signature_options(factory))


def _module_of_file(file: str) -> ModuleType:
    """Import a Python file by its path, once per process, as a module of its own name."""
    path = Path(file).resolve()
    if not path.is_file():
        raise UnknownGameError(f"no such file: {file}")
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:8]
    module_name = f"_gametree_game_{path.stem}_{digest}"
    known = sys.modules.get(module_name)
    if known is not None:
        return known
    specification = importlib.util.spec_from_file_location(module_name, path)
    if specification is None or specification.loader is None:
        raise UnknownGameError(f"cannot import {file}: not a Python file")
    module = importlib.util.module_from_spec(specification)
    if str(path.parent) not in sys.path:  # its own imports find the files beside it
        sys.path.append(str(path.parent))
    sys.modules[module_name] = module  # dataclasses and numba's cache look modules up here
    try:
        specification.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def _split(path: str) -> tuple[str, str]:
    """``(file or module, attribute)``; the attribute is ``""`` when the path names none."""
    where, colon, attribute = path.rpartition(":")
    if not colon or not attribute.isidentifier():  # no name (or C:\\ of a Windows path)
        return path, ""
    return where, attribute


def _is_file(where: str) -> bool:
    return where.endswith(".py") or os.sep in where or "/" in where


def spec_at(path: str) -> GameSpec:
    """The game a path names: ``path/to/file.py:NAME`` or ``package.module:NAME`` (``NAME`` a
    ``GameSpec``, a ``Game`` subclass or a factory: :func:`as_spec`), or a file or module alone
    for its ``SPEC``. A game defined outside the package (a user's, a test's) reaches a server
    and its worker processes this way.

    Raises :class:`UnknownGameError` saying what is wrong: a module that cannot be imported
    (with its error), a name it lacks, an object that is not a game.
    """
    where, attribute = _split(path)
    attribute = attribute or "SPEC"
    try:
        module = _module_of_file(where) if _is_file(where) else importlib.import_module(where)
    except UnknownGameError:
        raise
    except Exception as error:  # any error of the user's module, in one line
        raise UnknownGameError(f"cannot import the game module {where!r} of {path!r}: "
                               f"{type(error).__name__}: {error}") from None
    found = getattr(module, attribute, None)
    if found is None:
        raise UnknownGameError(f"{path!r} names no game: {where} has no {attribute}")
    try:
        return as_spec(found)
    except TypeError as error:
        raise UnknownGameError(f"{path!r} names no game: {error}") from None


@dataclasses.dataclass(frozen=True)
class BrokenGame:
    """A plugin or path that could not be loaded, and why."""

    name: str
    """The game's name (an entry point's name, or the path)."""

    source: str
    """Where it comes from: ``plugin kayles-game 1.0 (kayles_game:Kayles)`` or the path."""

    error: str
    """What went wrong, in one line (the exception's type and message)."""

    def __str__(self) -> str:
        return f"the game {self.name!r} ({self.source}) cannot be loaded: {self.error}"


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def installed_games(taken: frozenset[str]) -> tuple[dict[str, GameSpec], list[BrokenGame]]:
    """The games of the installed plugins and of :data:`PATHS_VARIABLE`, by name, and those
    that could not be loaded. ``taken``: the built-in games' names, which a plugin cannot
    take."""
    specs: dict[str, GameSpec] = {}
    broken: list[BrokenGame] = []
    for entry in declared(ENTRY_POINT_GROUP):
        if entry.name in taken or entry.name in specs:
            broken.append(BrokenGame(entry.name, entry.source, "another game already has this "
                                                               "name"))
            continue
        try:
            specs[entry.name] = as_spec(entry.load(ENTRY_POINT_GROUP), entry.name)
        except Exception as error:  # a broken plugin must not break the others
            broken.append(BrokenGame(entry.name, entry.source, _one_line(error)))
    for path in os.environ.get(PATHS_VARIABLE, "").split(";"):
        if path.strip():
            try:
                spec = spec_at(path.strip())
            except Exception as error:
                broken.append(BrokenGame(path, f"${PATHS_VARIABLE}", _one_line(error)))
            else:
                specs[spec.name] = spec
    return specs, broken


def add_to_environment(path: str) -> None:
    """Name ``path`` in :data:`PATHS_VARIABLE` (made absolute if it is a file), so that the
    processes this one starts load the game too."""
    where, attribute = _split(path)
    if _is_file(where):
        path = str(Path(where).resolve()) + (f":{attribute}" if attribute else "")
    known = [item for item in os.environ.get(PATHS_VARIABLE, "").split(";") if item]
    if path not in known:
        os.environ[PATHS_VARIABLE] = ";".join([*known, path])


def reference_of(spec: GameSpec) -> str | None:
    """A path that names ``spec`` in a process started afresh (:func:`spec_at`), or ``None``:
    a module-level name bound to ``spec`` itself, in the module of its ``build`` or in the
    program's main script (``SPEC = GameSpec(...)`` in a script run as ``python wrapper.py``
    gives ``/abs/path/wrapper.py:SPEC``; the script's ``if __name__ == "__main__"`` part does
    not run when a process imports it by that path)."""
    owners = [sys.modules.get(getattr(spec.build, "__module__", None) or ""),
              sys.modules.get("__main__")]
    for module in owners:
        if module is None:
            continue
        for name, value in list(vars(module).items()):
            if value is spec and name.isidentifier():
                file = getattr(module, "__file__", None)
                if module.__name__ == "__main__" or module.__name__.startswith("_gametree_game_"):
                    return None if file is None else f"{Path(file).resolve()}:{name}"
                return f"{module.__name__}:{name}"
    return None


def share_added_games() -> None:
    """Name in :data:`PATHS_VARIABLE` every game :func:`~gametree.registry.register` added in
    this process, so that the processes it starts afresh (``serve``'s workers) load it too.

    Raises :class:`UnknownGameError` naming the ways that work for a game no path reaches (a
    ``GameSpec`` built inside a function, or in ``python -c``)."""
    for spec in added_games().values():
        reference = reference_of(spec)
        if reference is not None:
            add_to_environment(reference)
        elif spec.name not in _named_in_environment():
            raise UnknownGameError(
                f"the game {spec.name!r} was added by register() in this process only, and "
                f"the server's worker processes start afresh: bind its GameSpec to a name at "
                f"the top of its module or script (SPEC = GameSpec(...)), give it with --game "
                f"path/to/file.py:NAME, install it as a plugin (entry point group "
                f"{ENTRY_POINT_GROUP}), or name it in ${PATHS_VARIABLE}")


def _named_in_environment() -> set[str]:
    """The names of the games :data:`PATHS_VARIABLE` names (those that load)."""
    names = set()
    for path in os.environ.get(PATHS_VARIABLE, "").split(";"):
        try:
            names.add(spec_at(path.strip()).name)
        except Exception:  # a broken path is reported where it is loaded
            continue
    return names
