"""A book built on a real local Ray instance equals the local build (no mock: ``ray.init``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

from gametree.builder import BuildPlan, BuildRequest, build
from gametree.db.check import export_rows
from gametree.db.store import Database


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def exported(path: Path) -> list[str]:
    with Database.open(path) as database:
        return list(export_rows(database, "jsonl"))


@pytest.mark.slow
def test_a_ray_build_equals_the_local_build(local_ray: None, tmp_path: Path) -> None:
    options = {"width": 4, "height": 4}  # the kernel the other db tests compile already
    local = tmp_path / "local.db"
    expected = build(BuildRequest(str(local), "connect4", options, plies=5,
                                  plan=BuildPlan(workers=1)))
    on_ray = tmp_path / "ray.db"
    report = build(BuildRequest(str(on_ray), "connect4", options, plies=5,
                                plan=BuildPlan(executor="ray", workers=2)))
    # the frontier (436 positions, none symmetric: 218 mirror pairs), solved by the two actors
    assert report.solved == expected.solved == 218
    assert exported(on_ray) == exported(local)
