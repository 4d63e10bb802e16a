"""Sources that passed their schema's check are not checked again: the cache keeps
them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from deckforge import cache as kept
from deckforge.fsutil import Staging
from deckforge.pipeline.run import run_tasks
from deckforge.sources import schema
from deckforge.sources.source import parse_yaml

PLACES = b"""kind: places
categories:
  - {id: home, name: Home, colour: "#3366AA"}
places:
  - {id: kitchen, name: Kitchen, category: home}
"""


@pytest.fixture()
def cache(tmp_path, monkeypatch) -> Path:
    """A cache folder of this test's own, read afresh."""
    monkeypatch.setenv("DECKFORGE_CACHE", str(tmp_path / "cache"))
    schema._passed.cache_clear()
    schema._unsaved.clear()
    yield tmp_path / "cache"
    schema._passed.cache_clear()
    schema._unsaved.clear()


def _source(raw: bytes):
    source, problems = parse_yaml(raw, Path("places.yaml"), "places.yaml")
    assert problems == []
    return source


def _refusing(name):
    def check(data):
        raise AssertionError(f"{name} checked again")

    return check


def test_a_source_that_passed_is_not_checked_again(cache, monkeypatch):
    assert list(schema.schema_problems(_source(PLACES), "places")) == []
    schema.save_checks()
    assert kept.path_of(schema.PASSED_NAME).is_file()
    schema._passed.cache_clear()  # as in the next run
    monkeypatch.setattr(schema, "quick_check", _refusing)
    assert list(schema.schema_problems(_source(PLACES), "places")) == []


def test_a_changed_source_or_another_schema_is_checked(cache, monkeypatch):
    assert list(schema.schema_problems(_source(PLACES), "places")) == []
    schema.save_checks()
    schema._passed.cache_clear()
    changed = PLACES.replace(b"#3366AA", b"blue")
    problems = list(schema.schema_problems(_source(changed), "places"))
    assert [p.message for p in problems] == [
        "'blue' is not valid; use a colour written #RRGGBB, like '#E4572E'"
    ]
    monkeypatch.setattr(schema, "quick_check", _refusing)
    with pytest.raises(AssertionError, match="mess checked again"):
        list(schema.schema_problems(_source(PLACES), "mess"))


def test_sources_with_problems_are_never_kept(cache):
    bad = PLACES.replace(b"kitchen", b"Kitchen!")
    for _ in range(2):
        assert list(schema.schema_problems(_source(bad), "places")) != []
        schema.save_checks()
        schema._passed.cache_clear()
    assert kept.load(schema.PASSED_NAME, 1, kept.digests) is None


def test_only_the_newest_sources_are_kept(cache, monkeypatch):
    monkeypatch.setattr(schema, "PASSED_ENTRIES", 3)
    for n in range(5):
        schema._unsaved.add(f"{n:064x}")
        schema.save_checks()
    assert list(kept.load(schema.PASSED_NAME, 1, kept.digests)) == [f"{n:064x}" for n in (2, 3, 4)]


@dataclass(frozen=True)
class _Task:
    relpath: str


@dataclass(frozen=True)
class _Checked:
    written: bool = True


def _check_in_a_worker(context: None, task: _Task, path: Path) -> _Checked:
    """A build's task that reads a source only a worker reads (as a board's template is)."""
    place = task.relpath.removesuffix(".pdf").encode()
    assert list(schema.schema_problems(_source(PLACES.replace(b"Kitchen", place)), "places")) == []
    return _Checked()


def test_what_passed_in_a_builds_workers_is_kept(cache, tmp_path):
    tasks = [_Task(f"Place {n}.pdf") for n in range(12)]
    (tmp_path / "out").mkdir()
    run_tasks(tasks, Staging(tmp_path / "out"), _check_in_a_worker, None, jobs=2)
    assert schema._unsaved == set()  # nothing was checked in this process
    kept_keys = kept.load(schema.PASSED_NAME, 1, kept.digests) or {}
    for task in tasks:
        place = task.relpath.removesuffix(".pdf").encode()
        key = schema._check_key(_source(PLACES.replace(b"Kitchen", place)), "places")
        assert key in kept_keys, task.relpath
