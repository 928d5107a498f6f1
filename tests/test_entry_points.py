"""The installed distributions' entry points, kept between processes (gametree.entry_points):
the same answer as a scan, whatever was installed or removed since the last one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gametree import entry_points
from gametree.cachedir import CACHE_ENV
from gametree.remembered import recall, remember

GROUP = "gametree.test-entry-points"


def _install(directory: Path, name: str, value: str) -> Path:
    """A distribution's metadata as pip writes it, declaring ``name = value`` in GROUP."""
    info = directory / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{name} = {value}\n")
    return info


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory of installed distributions on ``sys.path``, and a cache of this test's."""
    packages = tmp_path / "site"
    packages.mkdir()
    monkeypatch.syspath_prepend(str(packages))
    (tmp_path / "cache").mkdir()
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    return packages


def _names() -> list[str]:
    return [entry.name for entry in entry_points.declared(GROUP)]


def test_installing_and_removing_a_distribution_is_seen_at_once(site: Path) -> None:
    assert _names() == []
    first = _install(site, "alpha", "json:dumps")
    assert _names() == ["alpha"]
    _install(site, "beta", "json:loads")
    assert _names() == ["alpha", "beta"]
    shutil.rmtree(first)
    assert _names() == ["beta"]
    (beta,) = entry_points.declared(GROUP)
    assert beta.source == "plugin beta 1.0 (json:loads)"
    assert beta.load(GROUP) is json.loads


def test_an_unchanged_path_is_answered_from_the_cache(site: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _install(site, "alpha", "json:dumps")
    assert _names() == ["alpha"]

    def no_scan(group: str) -> list[entry_points.Declared]:
        raise AssertionError("scanned again")

    monkeypatch.setattr(entry_points, "_scan", no_scan)
    assert _names() == ["alpha"]
    monkeypatch.syspath_prepend(str(site.parent))  # another path: scanned again
    with pytest.raises(AssertionError, match="scanned again"):
        _names()


def test_the_scans_of_the_last_few_paths_are_kept(site: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # As `gametree` and `python -m gametree`, or one command run from two directories: each
    # path's scan is kept, up to KEPT of them, the oldest forgotten first.
    _install(site, "alpha", "json:dumps")
    scanned: list[str] = []
    real_scan = entry_points._scan

    def scan(group: str) -> list[entry_points.Declared]:
        scanned.append(sys.path[0])
        return real_scan(group)

    monkeypatch.setattr(entry_points, "_scan", scan)

    def names_from(directory: str) -> list[str]:
        sys.path.insert(0, directory)
        try:
            return _names()
        finally:
            sys.path.remove(directory)

    paths = [str(site.parent / f"directory {index}") for index in range(entry_points.KEPT + 1)]
    assert [names_from(path) for path in paths[:-1]] == [["alpha"]] * entry_points.KEPT
    assert [names_from(path) for path in reversed(paths[:-1])] == [["alpha"]] * len(paths[:-1])
    assert scanned == paths[:-1]  # each scanned once, then found
    assert names_from(paths[-1]) == ["alpha"]  # one more: the oldest is forgotten
    assert names_from(paths[1]) == ["alpha"] and scanned[-1] == paths[-1]
    assert names_from(paths[0]) == ["alpha"] and scanned[-1] == paths[0]


def test_a_cache_that_cannot_be_read_or_written_only_costs_a_scan(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(site, "alpha", "json:dumps")
    assert _names() == ["alpha"]
    (cache,) = (tmp_path / "cache").glob("entry-points-*.json")
    cache.write_text("{not json")
    assert _names() == ["alpha"]
    assert [entries for _stamp, entries in json.loads(cache.read_text())["scans"]] == [
        [["alpha", "json:dumps", "plugin alpha 1.0 (json:dumps)"]]]
    cache.unlink()
    cache.parent.chmod(0o500)  # a directory this user cannot write in
    try:
        assert _names() == ["alpha"]
    finally:
        cache.parent.chmod(0o700)
    assert list(cache.parent.iterdir()) == [] or os.geteuid() == 0  # root writes anyway
    missing = tmp_path / "never made"
    monkeypatch.setenv(CACHE_ENV, str(missing))
    assert _names() == ["alpha"] and not missing.exists()  # no cache directory is made


def test_a_process_that_finds_the_cache_imports_no_metadata_reader(tmp_path: Path) -> None:
    env = dict(os.environ, **{CACHE_ENV: str(tmp_path)})
    program = ("import sys; from gametree.registry import games; games(); "
               "print('importlib.metadata' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                           text=True, check=True, timeout=120).stdout.strip()
            for _ in range(2)]
    assert runs == ["True", "False"]


def test_a_kept_finding_its_reader_cannot_use_is_replaced_not_kept_twice(
        tmp_path: Path) -> None:
    file = tmp_path / "findings.json"
    remember(file, 1, "older", ["kept"], {})
    remember(file, 1, "stamp", {"not": "what the reader wants"}, recall(file, 1))
    remember(file, 1, "stamp", ["found again"], recall(file, 1))
    assert json.loads(file.read_text())["scans"] == [["older", ["kept"]],
                                                     ["stamp", ["found again"]]]
