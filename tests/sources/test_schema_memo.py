"""Sources that passed their schema's check are not checked again: a memo in the cache
folder keeps them, as data that is checked when it is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckforge import memo
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
    """A cache folder of this test's own, and a memo read afresh from it."""
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
    assert (cache / schema.MEMO_NAME).is_file()
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
    assert memo.read(schema.MEMO_NAME) == {}


@pytest.mark.parametrize(
    "text",
    [
        "not a memo\n",
        "deckforge memo 1\n" + "a" * 64 + " x\n",  # a value that is not a digest
        "deckforge memo 1\n" + "a" * 63 + " \n",  # a key too short
        "deckforge memo 1\n" + "a" * 64 + " \n" + "junk\n",
    ],
)
def test_a_memo_that_is_not_as_written_is_no_memo(cache, text):
    cache.mkdir()
    (cache / "some.memo").write_text(text)
    assert memo.read("some.memo") == {}


def test_a_memo_keeps_its_newest_entries(cache):
    entries = {f"{n:064x}": f"{n:016x}" for n in range(memo.MEMO_ENTRIES + 10)}
    memo.write("some.memo", entries)
    kept = memo.read("some.memo")
    assert list(kept) == list(entries)[10:]
    assert kept[f"{20:064x}"] == f"{20:016x}"


def test_the_digest_of_a_folder_follows_its_files(cache, tmp_path):
    folder = tmp_path / "code"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.py").write_text("one")
    (folder / "sub" / "b.yaml").write_text("two")
    (folder / "c.txt").write_text("not hashed")
    first = memo.tree_digest(folder, (".py", ".yaml"))
    assert memo.tree_digest(folder, (".py", ".yaml")) == first  # from the memo
    (folder / "c.txt").write_text("still not hashed")
    assert memo.tree_digest(folder, (".py", ".yaml")) == first
    (folder / "a.py").write_text("uno")
    changed = memo.tree_digest(folder, (".py", ".yaml"))
    assert changed != first
    assert memo.tree_digest(folder, (".py",), skip=folder / "sub") not in (first, changed)
    # The same digest from the files themselves, whatever the memo says.
    (cache / "tree-digests.memo").unlink()
    assert memo.tree_digest(folder, (".py", ".yaml")) == changed
