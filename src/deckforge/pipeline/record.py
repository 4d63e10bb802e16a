"""The incremental build's record, ``<out>/.deckforge-cache.json``, as data that is
checked before it is believed.

The file is an entry as the cache keeps them (:mod:`deckforge.cache`): a header line
naming the format, the version and the SHA-256 of the rest, then the record as JSON::

    {"format": "deckforge-cache", "version": "build-record-3", "sha256": "<of the rest>"}
    {"editions": {...}, "outputs": {...}, "toolchain": "..."}

A record that does not match its checksum, is not JSON, or has entries of the wrong
shape is not trusted: what cannot be read is dropped with a warning that names the
file, and the files it described are made again. Nothing in it is ever executed, and
the paths it names are checked to stay inside the build or the project before they are
used. A record written by another version of deckforge is set aside without a word.
"""

from __future__ import annotations

import json
from pathlib import Path

from deckforge import cache as kept
from deckforge.errors import WARNING, Problem, SourceRef, display_path
from deckforge.fsutil import read_regular, relative, write_atomic
from deckforge.manifest import Entry

CACHE_NAME = ".deckforge-cache.json"
_VERSION = "build-record-3"
#: The header's format in records of earlier versions, which had their own.
_EARLIER_FORMAT = b'{"format": "deckforge-build-cache"'
#: The largest record read (a 100,000-card deck's is a few megabytes).
_MAX_BYTES = 256 * 1024 * 1024


def save(data: dict, target: Path) -> None:
    """Write a record, with its header and checksum, atomically at ``target``."""
    write_atomic(target, kept.encode(_VERSION, data, readable=True))


def load(out_dir: Path) -> tuple[dict, list[Problem]]:
    """The record of a build folder, with what could not be trusted left out, and a
    warning for each part left out (none when there is no record)."""
    path = Path(out_dir) / CACHE_NAME
    where = SourceRef(display_path(path))
    try:
        raw = read_regular(path, _MAX_BYTES)  # a pipe put in its place is not waited on
    except FileNotFoundError:
        return {}, []
    except OSError as exc:
        return {}, [_damaged(where, exc.strerror or str(exc))]
    try:
        current, data = kept.decode(raw, _VERSION)
    except kept.Damaged as exc:
        if raw.startswith(_EARLIER_FORMAT) or _older(raw):
            return {}, []
        return {}, [_damaged(where, str(exc))]
    if not current:
        return {}, []
    return _checked(data, where)


def _older(raw: bytes) -> bool:
    """Whether a file is the record of a deckforge from before records had a header."""
    try:
        data = json.loads(raw)
    except ValueError:
        return False
    return isinstance(data, dict) and "format" not in data and set(data) <= _KEYS


_KEYS = {"editions", "outputs", "toolchain"}


def _damaged(where: SourceRef, reason: str) -> Problem:
    return Problem(
        where,
        f"the incremental build record cannot be used ({reason}); every file is made again",
        WARNING,
    )


def _checked(data: object, where: SourceRef) -> tuple[dict, list[Problem]]:
    """The parts of a record that have the shape deckforge writes."""
    if not isinstance(data, dict):
        return {}, [_damaged(where, "it is not a mapping")]
    bad: list[str] = []
    outputs = _table(data.get("outputs", {}), _output, bad, "outputs")
    editions = _table(data.get("editions", {}), _edition, bad, "editions")
    toolchain = data.get("toolchain")
    clean: dict[str, object] = {"outputs": outputs, "editions": editions}
    if isinstance(toolchain, str):
        clean["toolchain"] = toolchain
    if not bad:
        return clean, []
    listed = ", ".join(bad[:3]) + (f" and {len(bad) - 3} more" if len(bad) > 3 else "")
    message = (
        f"the incremental build record has entries deckforge did not write ({listed}); "
        "what they describe is made again"
    )
    return clean, [Problem(where, message, WARNING)]


def _table(value: object, check, bad: list[str], what: str) -> dict:
    if not isinstance(value, dict):
        bad.append(f"'{what}'")
        return {}
    kept = {}
    for key, item in value.items():
        if _name(key) and check(key, item):
            kept[key] = item
        else:
            bad.append(repr(key)[:80])
    return kept


def _name(key: object) -> bool:
    """A path relative to the build or project folder that stays inside it."""
    try:
        relative(key)
    except ValueError:
        return False
    return True


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _output(relpath: str, record: object) -> bool:
    """A record of one built file: what it was made from, its size and time, its
    manifest entry and the warnings found making it."""
    if not isinstance(record, dict):
        return False
    if not isinstance(record.get("hash"), str) or not _count(record.get("size")):
        return False
    if not _count(record.get("mtime_ns")):
        return False
    try:
        entry = Entry.from_json(record.get("entry"))
    except (ValueError, TypeError):
        return False
    if entry.path != relpath or entry.sha256 is None:
        return False
    warnings = record.get("warnings", [])
    return isinstance(warnings, list) and all(_warning(item) for item in warnings)


def _warning(item: object) -> bool:
    if not isinstance(item, dict):
        return False
    texts = ("file", "path", "message")
    numbers = ("line", "column")
    return all(isinstance(item.get(k), str) for k in texts) and all(
        _count(item.get(k)) for k in numbers
    )


def _edition(key: str, record: object) -> bool:
    """A record of one edition: its inputs, their fingerprint, and its outputs by
    profile."""
    if not isinstance(record, dict):
        return False
    inputs, profiles = record.get("inputs"), record.get("profiles")
    if not isinstance(record.get("id"), str) or not isinstance(record.get("fingerprint"), str):
        return False
    if not isinstance(inputs, list) or not all(_name(name) for name in inputs):
        return False
    if not isinstance(profiles, dict):
        return False
    for done in profiles.values():
        if not isinstance(done, dict) or not isinstance(done.get("profile"), str):
            return False
        outputs, colours = done.get("outputs"), done.get("colours", [])
        if not isinstance(outputs, list) or not isinstance(colours, list):
            return False
        if not all(_warning(item) for item in colours):
            return False
        for output in outputs:
            path = output.get("path") if isinstance(output, dict) else None
            if not (isinstance(path, str) and _name(path) and _output(path, output)):
                return False
    return True
