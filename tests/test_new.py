"""``gametree new NAME``: a project for a game of one's own, whose tests pass as written.

The slow test does what a user does: ``gametree new demo --kernel``, ``pip install ./demo``
(here ``--target`` a directory of the test, so that the environment stays as it was) and
``pytest demo``; then every command knows the game by its entry point.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gametree.cli.new import project_files
from gametree.game import GameError
from tests.cli_support import gametree, own_tests, run

SOURCES = Path(__file__).resolve().parent.parent / "src"


def test_new_writes_a_project_of_valid_python(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "new", "my-game", "--kernel", "--directory",
                           str(tmp_path / "mine"))
    assert status == 0 and err == ""
    written = sorted(str(path.relative_to(tmp_path / "mine"))
                     for path in (tmp_path / "mine").rglob("*") if path.is_file())
    assert written == ["README.md", "pyproject.toml", "src/my_game/__init__.py",
                       "src/my_game/game.py", "src/my_game/kernel.py",
                       "tests/test_my_game.py"]
    assert f"wrote {tmp_path / 'mine' / 'pyproject.toml'}" in out
    for path in (tmp_path / "mine").rglob("*.py"):
        ast.parse(path.read_text(), str(path))  # raises on a template that is not Python
    pyproject = (tmp_path / "mine" / "pyproject.toml").read_text()
    assert '[project.entry-points."gametree.games"]\nmy-game = "my_game:MyGame"' in pyproject
    game = (tmp_path / "mine" / "src" / "my_game" / "game.py").read_text()
    assert game.count("TODO") >= 5 and "def compiled_form" in game


def test_new_without_a_kernel_writes_none() -> None:
    files = project_files("demo", kernel=False)
    assert "src/demo/kernel.py" not in files
    assert "compiled_form" not in files["src/demo/game.py"]
    assert "compiled" not in files["tests/test_demo.py"]


def test_new_refuses_bad_names_and_full_directories(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("My Game", "9lives", "game-", "import"):
        with pytest.raises(GameError):
            project_files(name, kernel=False)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    status, out, err = run(capsys, "new", "taken", "--directory", str(tmp_path / "taken"))
    assert status == 2 and out == ""
    assert err == (f"gametree new: error: {tmp_path / 'taken'} already exists and is not an "
                   f"empty directory: nothing written\n")
    assert [path.name for path in (tmp_path / "taken").iterdir()] == ["notes.txt"]


@pytest.mark.slow
def test_new_project_installs_and_its_tests_pass(tmp_path: Path) -> None:
    made = gametree("new", "demo", "--kernel", "--directory", str(tmp_path / "demo"))
    assert made.returncode == 0, made.stderr
    target = tmp_path / "installed"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-build-isolation", "--target", str(target), str(tmp_path / "demo")],
                   check=True, capture_output=True, timeout=300)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(target), str(SOURCES),
                                         *filter(None, env.get("PYTHONPATH", "").split(
                                             os.pathsep))])
    tested = own_tests(tmp_path / "demo", env, cwd=tmp_path)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "3 passed" in tested.stdout
    listed = gametree("games", "--json", env=env)
    assert "demo" in [game["name"] for game in json.loads(listed.stdout)]
    solved = gametree("solve", "demo", "--heap", "12", "--json", env=env)
    assert json.loads(solved.stdout)["outcome"] == "loss"  # 12 is a multiple of 4
