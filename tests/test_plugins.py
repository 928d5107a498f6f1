"""Games from outside the package: installed plugins (entry points of the group
``gametree.games``) and games named by a path (``--game file.py:Factory``).

The example plugin, ``examples/kayles``, is really installed (``pip install --target`` into a
directory of this run, put on the ``PYTHONPATH`` of the processes that use it) and then used
through the command line as a user would: listed, solved on both tiers against the
Sprague-Grundy values of Kayles, checked, played through ``play`` with moves typed on standard
input, and played in Chromium through ``gametree serve``. Those tests are slow (an install, a
kernel compile, a server and a browser); the tests of names, paths and broken plugins are not.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import random
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gametree import registry
from gametree.plugins import (
    PATHS_VARIABLE,
    as_spec,
    share_added_games,
    signature_options,
    spec_at,
)
from gametree.registry import GameSpec, UnknownGameError
from tests.cli_support import gametree, own_tests, run
from tests.served_game import SPEC as SERVED_SPEC
from tests.served_game import Kayles

# The fixture browser comes from web_support: its name is a parameter here.
# ruff: noqa: F811
from tests.web_support import (  # noqa: F401
    PREPARE_WAIT,
    browser,
    console_errors,
    data,
    free_port,
    idle,
    wait_for,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "kayles"
SERVED_FILE = ROOT / "tests" / "served_game.py"


@pytest.fixture
def own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games registered by the test stay in the test (others compare the registry with the
    built-in games), and so does ``$GAMETREE_GAMES``."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry.games()))
    monkeypatch.setenv(PATHS_VARIABLE, "")  # restored (or removed) after the test


def environment(*paths: Path | str) -> dict[str, str]:
    """This process's environment with ``paths`` first on the ``PYTHONPATH`` (and this
    worktree's sources, for the ``python -m gametree`` of the tests)."""
    env = dict(os.environ)
    env.pop(PATHS_VARIABLE, None)
    known = [entry for entry in env.get("PYTHONPATH", "").split(os.pathsep) if entry]
    env["PYTHONPATH"] = os.pathsep.join([*map(str, paths), *known, str(ROOT / "src"),
                                         str(ROOT)])
    return env


def test_each_built_in_game_is_named_as_its_module_defines_it() -> None:
    # A command imports only the module of the game it names: the registry's names must be
    # the specs' own, in a process that has imported none of them yet.
    script = ("import sys; from gametree import registry; "
              "names = [registry.get(name).name for name in registry.BUILTIN_GAMES]; "
              "print(names == list(registry.BUILTIN_GAMES), "
              "list(registry.games()) == list(registry.BUILTIN_GAMES))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, env=environment())
    assert done.stdout.split() == ["True", "True"]


# -- a game from a class, a factory or a spec --------------------------------------------


def make_heap(heap: int = 5, takes: tuple[int, ...] = (1, 2), misere: bool = False) -> Kayles:
    """Not a heap game at all: a factory whose parameters become options."""
    return Kayles(heap)


def test_a_factory_s_parameters_become_options() -> None:
    options = {option.name: option for option in signature_options(make_heap)}
    assert list(options) == ["heap", "takes", "misere"]
    assert options["heap"].parse("7") == 7 and options["heap"].default == 5
    assert options["takes"].parse("1,3") == (1, 3) and options["misere"].flag
    with pytest.raises(ValueError, match="expected a whole number, got 'x'"):
        options["heap"].parse("x")
    spec = as_spec(make_heap)
    assert spec.name == "make_heap" and spec.summary == "Not a heap game at all: a factory " \
        "whose parameters become options"
    assert spec.make(heap=3).initial_state() == (7, 0)


def test_a_game_class_becomes_a_spec_named_after_it_or_its_entry_point() -> None:
    spec = as_spec(Kayles)
    assert spec.name == "kayles" and [option.name for option in spec.options] == ["pins"]
    assert spec.make(pins=3).initial_state() == (7, 0)
    assert as_spec(Kayles, "rows").name == "rows"

    class Undocumented(Kayles):
        __doc__ = None

    # Its own docstring or none: not the Game contract's, which every game inherits.
    assert as_spec(Undocumented).summary == "the game undocumented"
    renamed = as_spec(registry.get("bones"), "my-bones")
    assert isinstance(renamed, GameSpec) and renamed.name == "my-bones"
    for wrong, reason in ((42, "it is a int"), (Kayles(), "it is a game object"),
                          (dict, "dict is not a subclass of gametree.Game")):
        with pytest.raises(TypeError, match=reason):
            as_spec(wrong)

    def no_default(pins: int) -> Kayles:
        return Kayles(pins)

    with pytest.raises(TypeError, match="its parameter pins has no default"):
        as_spec(no_default)


def test_paths_name_files_and_modules(tmp_path: Path) -> None:
    assert spec_at(f"{SERVED_FILE}:Kayles").name == "kayles"
    assert spec_at(f"{SERVED_FILE}:SMALL").name == "kayles3"
    assert spec_at(str(SERVED_FILE)).name == "kayles"  # a file alone: its SPEC
    assert spec_at("tests.served_game:Kayles").make().initial_state() == (31, 0)
    broken = tmp_path / "broken.py"
    broken.write_text("import nothing_of_that_name\n")
    for path, message in (
            (f"{tmp_path}/missing.py:Game", "no such file"),
            (f"{broken}:Game", "cannot import the game module .*ModuleNotFoundError: No module "
                               "named 'nothing_of_that_name'"),
            (f"{SERVED_FILE}:Nothing", "names no game: .*has no Nothing"),
            ("tests.served_game:DEFAULT_PINS", "names no game: it is a int")):
        with pytest.raises(UnknownGameError, match=message):
            spec_at(path)


def test_game_path_takes_the_place_of_the_game_s_name(
        capsys: pytest.CaptureFixture[str], own_registry: None) -> None:
    status, out, err = run(capsys, "solve", "--depth", "3", "--game", f"{SERVED_FILE}:Kayles",
                           "--pins", "4", "--tier", "python", "--json")
    assert status == 0, err
    assert json.loads(out)["outcome"] == "win"  # 4 pins: Grundy value 1
    status, out, err = run(capsys, "solve", f"--game={SERVED_FILE}:SMALL", "--json")
    assert status == 0 and json.loads(out)["outcome"] == "win"
    assert os.environ[PATHS_VARIABLE].split(";")[-2:] == [f"{SERVED_FILE}:Kayles",
                                                     f"{SERVED_FILE}:SMALL"]
    status, out, err = run(capsys, "solve", "--game", "no/such/file.py:Game")
    assert status == 2 and out == ""
    assert err == "gametree solve: error: no such file: no/such/file.py\n"


def _broken_plugin(directory: Path) -> Path:
    """An installed distribution (its metadata as pip writes it) whose plugin cannot load."""
    info = directory / "broken_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[gametree.games]\nshaky = broken_plugin:SPEC\nbones = broken_plugin:SPEC\n")
    (directory / "broken_plugin.py").write_text("raise RuntimeError('half-written')\n")
    return directory


@pytest.mark.slow
def test_a_broken_plugin_is_one_line_and_the_other_games_stay(tmp_path: Path) -> None:
    env = environment(_broken_plugin(tmp_path))
    listed = gametree("games", "--json", env=env)
    assert listed.returncode == 0
    assert "tictactoe" in [game["name"] for game in json.loads(listed.stdout)]
    assert listed.stderr.splitlines() == [
        "gametree: warning: the game 'bones' (plugin broken-plugin 0.1 "
        "(broken_plugin:SPEC)) cannot be loaded: another game already has this name",
        "gametree: warning: the game 'shaky' (plugin broken-plugin 0.1 "
        "(broken_plugin:SPEC)) cannot be loaded: RuntimeError: half-written"]
    solved = gametree("solve", "bones", "--heap", "5", "--json", env=env)
    assert solved.returncode == 0 and json.loads(solved.stdout)["outcome"] == "win"


# -- the example plugin, installed -----------------------------------------------------------


@pytest.fixture(scope="session")
def kayles_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a process that has the example plugin installed (``pip install
    --target``: the distribution and its entry point, as pip installs them anywhere)."""
    target = tmp_path_factory.mktemp("kayles-plugin")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-build-isolation", "--target", str(target), str(EXAMPLE)],
                   check=True, capture_output=True, timeout=300)
    assert (target / "gametree_kayles-1.0.0.dist-info" / "entry_points.txt").is_file()
    return environment(target)


@functools.cache
def grundy(pins: int) -> int:
    """The Sprague-Grundy value of a row of ``pins`` pins: the least value no move reaches
    (a move leaves two rows, whose values combine by exclusive or)."""
    reached = {grundy(left) ^ grundy(pins - taken - left)
               for taken in (1, 2) if taken <= pins for left in range(pins - taken + 1)}
    return next(value for value in range(pins + 2) if value not in reached)


def position_grundy(standing: list[bool]) -> int:
    """The Sprague-Grundy value of a row with gaps: its runs' values combined."""
    value, run_length = 0, 0
    for pin in [*standing, False]:
        if pin:
            run_length += 1
        else:
            value, run_length = value ^ grundy(run_length), 0
    return value


def random_lines(pins: int, count: int, seed: int) -> list[tuple[str, bool]]:
    """``count`` random positions of Kayles on ``pins`` pins, as moves texts, each with
    whether the player to move wins (by Sprague-Grundy)."""
    chooser = random.Random(seed)
    lines = []
    for _ in range(count):
        standing = [True] * pins
        texts: list[str] = []
        for _ply in range(chooser.randrange(pins)):
            choices = [[p] for p in range(pins) if standing[p]] + \
                [[p, p + 1] for p in range(pins - 1) if standing[p] and standing[p + 1]]
            if not choices:
                break
            chosen = chooser.choice(choices)
            for pin in chosen:
                standing[pin] = False
            texts.append("-".join(str(pin + 1) for pin in chosen))
        lines.append((" ".join(texts), position_grundy(standing) != 0))
    return lines


def test_grundy_values_are_those_of_kayles() -> None:
    # The sequence's start as the literature gives it (OEIS A002186), and its period of 12
    # from 71 pins on (Guy and Smith): the independent oracle of the solving test is right.
    assert [grundy(pins) for pins in range(12)] == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    assert all(grundy(pins) == grundy(pins + 12) for pins in range(71, 100))


@pytest.mark.slow
def test_the_installed_plugin_is_listed_with_its_options(kayles_env: dict[str, str]) -> None:
    listed = gametree("games", "--json", env=kayles_env)
    assert listed.returncode == 0 and listed.stderr == ""
    kayles = {game["name"]: game for game in json.loads(listed.stdout)}["kayles"]
    assert kayles["summary"].startswith("Kayles: knock down one pin or two neighbours")
    assert [option["name"] for option in kayles["options"]] == ["pins"]
    helped = gametree("check", "kayles", "--help", env=kayles_env)
    assert "--pins N" in helped.stdout


@pytest.mark.slow
@pytest.mark.parametrize("tier", ["python", "compiled"])
def test_the_plugin_solved_on_each_tier_agrees_with_sprague_grundy(
        kayles_env: dict[str, str], tier: str, tmp_path: Path) -> None:
    pins = 8
    lines = random_lines(pins, 40, seed=22)
    moves_file = tmp_path / "positions.txt"
    moves_file.write_text("".join(f"{text}\n" for text, _wins in lines if text))
    solved = gametree("solve", "kayles", "--pins", str(pins), "--tier", tier, "--weak",
                      "--moves-file", str(moves_file), env=kayles_env)
    assert solved.returncode == 0, solved.stderr
    answers = [json.loads(line) for line in solved.stdout.splitlines()]
    assert {answer["tier"] for answer in answers} == {tier}
    expected = {text: wins for text, wins in lines if text}
    assert {answer["position"]: answer["outcome"] == "win" for answer in answers} == expected
    for start in range(1, 10) if tier == "python" else (pins,):
        whole = gametree("solve", "kayles", "--pins", str(start), "--tier", tier, "--json",
                         env=kayles_env)
        assert whole.returncode == 0, whole.stderr
        assert (json.loads(whole.stdout)["outcome"] == "win") == (grundy(start) != 0), start


@pytest.mark.slow
def test_the_plugin_passes_check(kayles_env: dict[str, str]) -> None:
    checked = gametree("check", "kayles", "--pins", "8", env=kayles_env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[-1] == "passed: no problems found"
    assert any(line.startswith("ok    kernel") for line in checked.stdout.splitlines())


@pytest.mark.slow
def test_the_plugin_s_own_tests_pass(kayles_env: dict[str, str]) -> None:
    tested = own_tests(EXAMPLE, kayles_env, cwd=EXAMPLE)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "10 passed" in tested.stdout


@pytest.mark.slow
def test_the_plugin_played_through_play(kayles_env: dict[str, str]) -> None:
    # Four pins: knock down the middle two and take whichever pin the engine leaves.
    played = gametree("play", "kayles", "--pins", "4", "--tier", "python", "--color", "never",
                      typed="2-3\n1\n4\n", env=kayles_env)
    assert "You play 2-3." in played.stdout
    assert "Engine (second player) plays" in played.stdout
    assert "Game over: you won after 3 moves!" in played.stdout


@pytest.fixture
def served_kayles(kayles_env: dict[str, str]) -> Iterator[str]:
    """``gametree serve`` as a real process, the plugin installed: its worker processes find
    the game by its entry point as the server does."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "gametree", "serve", "--port", str(port),
                               "--workers", "1"], env=kayles_env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: urllib.request.urlopen(f"{base}/api/games", timeout=5).status == 200)
        yield base
    finally:
        server.terminate()
        server.communicate(timeout=30)


def _api(base: str, path: str, body: dict[str, Any]) -> Any:
    """The server's answer, once it has one: a variant whose kernel is still being prepared is
    answered 503 "preparing" (with Retry-After), and asked again as a page does."""
    deadline = time.monotonic() + PREPARE_WAIT
    while True:
        request = urllib.request.Request(f"{base}/api/{path}", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.load(response)
        except urllib.error.HTTPError as refused:
            preparing = refused.code == 503 and "preparing" in json.load(refused)
            if not preparing or time.monotonic() > deadline:
                raise
            time.sleep(min(float(refused.headers.get("Retry-After", "2")), 5.0))


@pytest.mark.slow
def test_the_plugin_played_in_chromium_through_serve(served_kayles: str, browser: Any) -> None:
    base = served_kayles
    solved = _api(base, "solve", {"game": "kayles", "options": {"pins": 4}})
    assert solved["tier"] == "compiled" and solved["outcome"] == "win"  # grundy(4) == 1
    browser.get(f"{base}/play/kayles?pins=4")
    console_errors(browser)
    idle(browser)
    assert browser.find_element("id", "title").text == "Play kayles"
    assert len(browser.find_elements("css selector", "#board [data-cell]")) == 4
    # A pair has no cell: it is played from the move list.
    browser.find_element("css selector", "#moves button[data-move='2-3']").click()
    wait_for(lambda: len(data(browser, "moves").split()) == 2)
    idle(browser)
    left = [text for text in ("1", "4") if text not in data(browser, "moves").split()[1:]]
    assert len(left) == 1
    browser.find_element("css selector",
                         f"#board [data-cell='0,{int(left[0]) - 1}'][role=button]").click()
    wait_for(lambda: data(browser, "over") == "1")
    assert browser.find_element("id", "status").text == "Game over: first player won."
    assert console_errors(browser) == []


@pytest.mark.slow
def test_serve_takes_games_by_file_path_several_times(tmp_path: Path) -> None:
    other = tmp_path / "countdown.py"
    other.write_text(textwrap.dedent('''
        from tests.view_games import Countdown as Base

        class Countdown(Base):
            """Countdown, from a file of its own."""
            name = "countdown"
    '''))
    port = free_port()
    env = environment()
    server = subprocess.Popen(
        [sys.executable, "-m", "gametree", "serve", "--port", str(port), "--workers", "1",
         "--game", f"{SERVED_FILE}:Kayles", "--game", f"{other}:Countdown"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: urllib.request.urlopen(f"{base}/api/games", timeout=5).status == 200)
        with urllib.request.urlopen(f"{base}/api/games", timeout=5) as response:
            assert [game["name"] for game in json.load(response)] == ["kayles", "countdown"]
        answer = _api(base, "solve", {"game": "kayles", "options": {"pins": 5}})
        assert answer["outcome"] == "win"
        assert _api(base, "solve", {"game": "countdown"})["best_move"] is not None
    finally:
        server.terminate()
        server.communicate(timeout=30)


# -- a game register()ed in a program that then runs the command line -------------------------

WRAPPER = """
import dataclasses
import sys

from gametree.cli import main
from gametree.registry import register
from tests.served_game import SPEC as SERVED

SPEC = dataclasses.replace(SERVED, name="wrapped-kayles")

if __name__ == "__main__":  # the workers import this file by its path: this part never runs
    register(SPEC)
    sys.exit(main())
"""


@pytest.mark.usefixtures("own_registry")
def test_a_registered_game_bound_to_a_name_is_named_for_the_workers() -> None:
    registry.register(SERVED_SPEC)
    share_added_games()
    assert os.environ[PATHS_VARIABLE].split(";") == ["tests.served_game:SPEC"]


@pytest.mark.usefixtures("own_registry")
def test_a_registered_game_no_name_reaches_is_refused_naming_the_ways() -> None:
    from gametree.web.app import create_app  # noqa: PLC0415 - the server's own imports

    registry.register(dataclasses.replace(SERVED_SPEC, name="unbound-kayles"))
    with pytest.raises(UnknownGameError) as refused:
        create_app()
    message = str(refused.value)
    assert message.startswith("the game 'unbound-kayles' was added by register() in this "
                              "process only")
    for way in ("SPEC = GameSpec(...)", "--game path/to/file.py:NAME", "gametree.games",
                "$GAMETREE_GAMES"):
        assert way in message
    assert os.environ[PATHS_VARIABLE] == ""


@pytest.mark.slow
def test_serve_from_a_wrapper_script_offers_its_registered_game(tmp_path: Path) -> None:
    wrapper = tmp_path / "wrapper.py"
    wrapper.write_text(WRAPPER)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, str(wrapper), "serve", "--port", str(port), "--workers", "1"],
        env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: urllib.request.urlopen(f"{base}/api/games", timeout=5).status == 200)
        with urllib.request.urlopen(f"{base}/api/games", timeout=5) as response:
            assert "wrapped-kayles" in [game["name"] for game in json.load(response)]
        answer = _api(base, "solve", {"game": "wrapped-kayles", "options": {"pins": 5}})
        assert answer["outcome"] == "win"  # found by the worker, which imported wrapper.py
    finally:
        server.terminate()
        server.communicate(timeout=30)
