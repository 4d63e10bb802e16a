"""The cache: entries are checked JSON, binary payloads files named by their digest; a
damaged entry is set aside with a warning, one of another version is not used."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

import pytest

from deckforge import cache


@pytest.fixture()
def folder(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("DECKFORGE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _same(data):
    return data


def test_an_entry_is_kept_and_read_as_written(folder):
    cache.store("things", 3, {"a": [1, 2.5, "x"], "b": None})
    assert cache.load("things", 3, _same) == {"a": [1, 2.5, "x"], "b": None}
    head = json.loads(cache.path_of("things").read_bytes().partition(b"\n")[0])
    assert head["format"] == "deckforge-cache" and head["version"] == 3
    assert cache.path_of("things").parent == folder


def test_an_entry_of_another_version_is_not_used_and_not_said(folder, caplog):
    cache.store("things", 3, [1])
    with caplog.at_level(logging.WARNING, logger=cache.__name__):
        assert cache.load("things", 4, _same) is None
    assert caplog.records == []


def _header_kept_body_changed(path: Path) -> None:
    head, _, _ = path.read_bytes().partition(b"\n")
    path.write_bytes(head + b"\n[2]")


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: path.write_bytes(path.read_bytes()[:20]),
        lambda path: path.write_bytes(b"garbage\x00\xff" * 10),
        _header_kept_body_changed,
        lambda path: path.write_bytes(cache.encode(3, {"a": 1})),  # not what `valid` takes
        lambda path: path.write_bytes(b'{"format": "deckforge-cache", "version": 3}'),
    ],
    ids=["truncated", "garbage", "body changed", "wrong shape", "no body"],
)
def test_a_damaged_entry_is_set_aside_with_a_warning(folder, caplog, damage):
    cache.store("things", 3, {"a": "b"})
    damage(cache.path_of("things"))
    with caplog.at_level(logging.WARNING, logger=cache.__name__):
        assert cache.load("things", 3, cache.digests) is None
    (said,) = [r.getMessage() for r in caplog.records]
    assert said.startswith(f"{cache.path_of('things')}: the cache entry is damaged (")
    cache.store("things", 3, {"a": "b"})  # made again
    assert cache.load("things", 3, cache.digests) == {"a": "b"}


def test_a_named_pipe_in_place_of_an_entry_is_not_waited_on(folder, caplog):
    folder.mkdir()
    os.mkfifo(cache.path_of("things"))
    with caplog.at_level(logging.WARNING, logger=cache.__name__):
        assert cache.load("things", 1, _same) is None
    assert "the cache entry is damaged (it is a named pipe" in caplog.text


def test_a_binary_payload_is_a_file_named_by_its_digest(folder, caplog):
    data = bytes(range(256)) * 10
    path = cache.store_file("font", 1, data, ".ttf")
    assert path == folder / f"{hashlib.sha256(data).hexdigest()}.ttf"
    assert cache.load_file("font", 1, ".ttf") == (path, data)
    path.write_bytes(data[:100])
    with caplog.at_level(logging.WARNING, logger=cache.__name__):
        assert cache.load_file("font", 1, ".ttf") is None
    assert caplog.text.count("the cache entry is damaged (it does not match its checksum") == 1
    path.unlink()
    assert cache.load_file("font", 1, ".ttf") is None  # gone: made again, without a word
    cache.store("font", 1, {"sha256": "../../etc/passwd"})
    with caplog.at_level(logging.WARNING, logger=cache.__name__):
        assert cache.load_file("font", 1, ".ttf") is None
    assert "does not hold what deckforge keeps there" in caplog.text


def test_the_digest_of_a_folder_follows_its_files(folder, tmp_path):
    code = tmp_path / "code"
    (code / "sub").mkdir(parents=True)
    (code / "a.py").write_text("one")
    (code / "sub" / "b.yaml").write_text("two")
    (code / "c.txt").write_text("not hashed")
    first = cache.tree_digest(code, (".py", ".yaml"))
    assert cache.tree_digest(code, (".py", ".yaml")) == first  # from the cache
    (code / "c.txt").write_text("still not hashed")
    assert cache.tree_digest(code, (".py", ".yaml")) == first
    (code / "a.py").write_text("uno")
    changed = cache.tree_digest(code, (".py", ".yaml"))
    assert changed != first
    assert cache.tree_digest(code, (".py",), skip=code / "sub") not in (first, changed)
    # The same digest from the files themselves, whatever the cache says.
    cache.path_of("tree-digests").unlink()
    assert cache.tree_digest(code, (".py", ".yaml")) == changed
