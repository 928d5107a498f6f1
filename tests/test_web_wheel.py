"""``gametree serve`` from a fresh install: the wheel ships every file of the pages and asks for
everything the server needs, so that ``pip install gametree`` then ``gametree serve`` works
with no further step.

Building the wheel with hatchling (the project's build backend) takes a fraction of a second;
installing it into a new environment does not, and is checked by hand (docs/web.md).
"""

from __future__ import annotations

import zipfile
from email.parser import Parser
from pathlib import Path

from hatchling.builders.wheel import WheelBuilder

from gametree.web.app import STATIC

ROOT = Path(__file__).resolve().parent.parent


def build_wheel(directory: Path) -> zipfile.ZipFile:
    """The project's wheel, built as ``pip install .`` builds it."""
    built = list(WheelBuilder(str(ROOT)).build(directory=str(directory), versions=["standard"]))
    assert len(built) == 1
    return zipfile.ZipFile(built[0])


def test_the_wheel_ships_every_static_file_and_the_servers_dependencies(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    names = set(wheel.namelist())
    static = {f"gametree/web/{path.relative_to(STATIC.parent).as_posix()}"
              for path in STATIC.rglob("*") if path.is_file()}
    assert {"gametree/web/static/favicon.svg", "gametree/web/static/js/play.js",
            "gametree/web/static/style.css"} <= static
    assert static - names == set()
    shipped = {name for name in names if name.startswith("gametree/web/static/")}
    assert shipped == static  # nothing stale either
    info = next(name for name in names if name.endswith(".dist-info/METADATA"))
    metadata = Parser().parsestr(wheel.read(info).decode())
    required = {line.split(";")[0].split(">")[0].split("=")[0].strip().lower()
                for line in metadata.get_all("Requires-Dist") or [] if "extra ==" not in line}
    assert {"fastapi", "uvicorn", "fastapi-offline"} <= required
    entry_points = next(name for name in names if name.endswith(".dist-info/entry_points.txt"))
    assert "gametree = gametree.cli:run" in wheel.read(entry_points).decode()
