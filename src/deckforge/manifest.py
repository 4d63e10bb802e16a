"""The build manifest, ``<out>/manifest.json``: what each file of a build is.

A build writes one :class:`Entry` per file it made or found unchanged, merged with the
entries of earlier builds into the same folder; exports, previews, preflight and the
command line read them back through :func:`read`. Each entry holds its file's SHA-256:
:func:`checked` says whether a file is still the one the build made (the next build
makes again one that is not). The file is JSON so that other tools can read it too:
``{"outputs": [entry, ...]}``. It is published with the build's files, all at once
(:mod:`deckforge.fsutil`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from deckforge.errors import DeckforgeError, display_path
from deckforge.fsutil import (
    file_sha256,
    finish_publishing,
    inside,
    open_regular,
    read_regular,
    relative,
    write_atomic,
)

MANIFEST_NAME = "manifest.json"


class ManifestError(DeckforgeError):
    """A build folder without a manifest, or with one deckforge did not write."""


@dataclass(frozen=True)
class Entry:
    """One file of a build."""

    edition: str
    locale: str
    profile: str
    #: Where the file is, relative to the build folder, with forward slashes.
    path: str
    #: What the file holds: cards, score-pad, rulebook, board, pawns or calibration.
    kind: str
    #: The id of the deck or component (``calibration`` for a calibration sheet).
    deck: str
    #: How many cards it holds (0 for anything but a deck).
    cards: int
    pages: int
    trim_mm: tuple[float, float]
    bleed_mm: float
    #: What players call each card, in order (files of cards only).
    card_names: tuple[str, ...] | None = None
    #: Where each card is written, in order: ``file:line:column`` or ``book.xlsx!Sheet:B12``
    #: ('' for a card no source line names).
    card_sources: tuple[str, ...] | None = None
    #: The template the cards' faces are drawn from (decks drawn from templates).
    face_template: str | None = None
    #: The names of the elements that template draws, in drawing order.
    face_elements: tuple[str, ...] | None = None
    #: For a file of one card side per page: a digest of each card's face (``faces``), the
    #: index of each card's back among the distinct backs (``backs``) and a digest of each
    #: distinct back (``distinct_backs``); equal digests are equal pages.
    card_sides: dict | None = None
    #: A deck's cut shape, when it is not a plain rectangle: ``circle``,
    #: ``hexagon-pointy``, ``hexagon-flat`` or ``rect-3mm`` (its corners' radius).
    shape: str | None = None
    #: The SHA-256 of the file as the build wrote it.
    sha256: str | None = None

    def to_json(self) -> dict:
        """The entry as it is written in the manifest (fields a file has not, left out)."""
        # Field by field, not through asdict(), which copies each of a large deck's
        # 100,000 card names one at a time.
        data = {field.name: getattr(self, field.name) for field in fields(self)}
        data["trim_mm"] = list(self.trim_mm)
        for name in _OPTIONAL:
            if data[name] is None:
                del data[name]
            elif _OPTIONAL[name] is tuple:
                data[name] = list(data[name])
            elif name == "card_sides":
                data[name] = {k: _copied(v) for k, v in data[name].items()}
        return data

    @classmethod
    def from_json(cls, data: object) -> Entry:
        """An entry as the manifest holds it; ValueError if it is not one."""
        if not isinstance(data, dict):
            raise ValueError("an entry is not a mapping")
        values: dict[str, Any] = {name: data.get(name) for name in _TYPES}
        trim = values["trim_mm"]
        if isinstance(trim, list) and len(trim) == 2 and all(map(_number, trim)):
            values["trim_mm"] = tuple(trim)
        for name, wanted in _TYPES.items():
            value = values[name]
            if wanted is float:
                ok = _number(value)
            else:
                ok = isinstance(value, wanted) and not isinstance(value, bool)
            if not ok:
                raise ValueError(f"an entry's {name!r} is {value!r}")
        try:
            relative(values["path"])
        except ValueError:
            raise ValueError(
                f"an entry's 'path' {values['path']!r} leads out of the build folder"
            ) from None
        for name, wanted in _OPTIONAL.items():
            found = data.get(name)
            if found is None:
                continue
            if wanted is tuple:
                ok = isinstance(found, list) and all(isinstance(n, str) for n in found)
            elif name == "sha256":
                ok = isinstance(found, str) and len(found) == 64
            else:
                ok = isinstance(found, wanted)
            if not ok:
                raise ValueError(f"an entry's {name!r} is {found!r}")
            values[name] = tuple(found) if wanted is tuple else found
        return cls(**values)


def _copied(value: object) -> object:
    """A value of an entry as JSON holds it, copied (lists and mappings, all the way)."""
    if isinstance(value, (list, tuple)):
        return [_copied(v) for v in value]
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    return value


#: The type of each field in JSON (the trim size: two numbers).
_TYPES: dict[str, type] = {
    "edition": str,
    "locale": str,
    "profile": str,
    "path": str,
    "kind": str,
    "deck": str,
    "cards": int,
    "pages": int,
    "trim_mm": tuple,
    "bleed_mm": float,
}


#: The fields only some files have, and their type in an entry (a tuple: a list of
#: strings in JSON; the SHA-256, 64 hexadecimal digits), in the order they are checked.
_OPTIONAL: dict[str, type] = {
    "sha256": str,
    "card_names": tuple,
    "card_sources": tuple,
    "face_elements": tuple,
    "shape": str,
    "face_template": str,
    "card_sides": dict,
}


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def read(out_dir: Path) -> list[Entry]:
    """The entries of a build folder's manifest, in the order written (once a build
    that was killed while publishing has been finished)."""
    finish_publishing(Path(out_dir))
    path = Path(out_dir) / MANIFEST_NAME
    if not path.is_file():
        raise ManifestError(
            f"{display_path(path)}: no build manifest; run 'deckforge build --out "
            f"{display_path(Path(out_dir))}' first"
        )
    try:
        outputs = json.loads(read_regular(path))["outputs"]
        if not isinstance(outputs, list):
            raise TypeError("'outputs' is not a list")
        entries = [Entry.from_json(item) for item in outputs]
        for entry in entries:
            if not inside(Path(out_dir) / entry.path, out_dir):
                raise ValueError(f"{entry.path!r} is a link out of the build folder")
        return entries
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ManifestError(
            f"{display_path(path)}: not a deckforge build manifest ({error})"
        ) from None


def write(
    out_dir: Path, entries: list[Entry], replaced: set[tuple[str, str]], into: Path | None = None
) -> Path:
    """Merge entries into the manifest (written at ``into``, by default in place): the
    (edition, profile) pairs in ``replaced`` are the build's own, and entries of other
    pairs are kept while their files exist."""
    kept = [
        entry
        for entry in _readable(out_dir)
        if (entry.edition, entry.profile) not in replaced and (out_dir / entry.path).is_file()
    ]
    merged = sorted(kept + entries, key=lambda e: (e.edition, e.profile, e.path))
    text = json.dumps({"outputs": [e.to_json() for e in merged]}, indent=2, ensure_ascii=False)
    return write_atomic(into or out_dir / MANIFEST_NAME, text + "\n")


def no_longer_made(
    out_dir: Path, entries: list[Entry], replaced: set[tuple[str, str]]
) -> tuple[dict[str, str], list[str]]:
    """The files the manifest lists for the (edition, profile) pairs in ``replaced`` that
    ``entries`` (this build's) no longer do: those still as the build made them, by path
    with their SHA-256, which the build removes, and the paths of those that have changed
    since (or whose digest is not known), which it keeps."""
    made = {entry.path for entry in entries}
    remove: dict[str, str] = {}
    kept: list[str] = []
    for entry in _readable(out_dir):
        if (entry.edition, entry.profile) not in replaced or entry.path in made:
            continue
        path = Path(out_dir) / entry.path
        if not path.is_file() and not path.is_symlink():
            continue  # gone already
        if entry.sha256 is not None and file_sha256(path) == entry.sha256:
            remove[entry.path] = entry.sha256
        else:
            kept.append(entry.path)
    return remove, kept


def checked(out_dir: Path, entry: Entry) -> Path:
    """The file of an entry, once it is found to be the file the build made: ManifestError
    if it is missing or has changed since (entries of builds before files had digests
    are taken as they are)."""
    path = Path(out_dir) / entry.path
    where = display_path(path)
    try:
        with open_regular(path) as handle:
            found = hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        raise ManifestError(
            f"{where}: the build manifest lists it, but it cannot be read; rebuild with "
            f"'deckforge build --out {display_path(Path(out_dir))}'"
        ) from None
    if entry.sha256 is not None and found != entry.sha256:
        raise ManifestError(
            f"{where}: not the file the build made (it has changed since); rebuild with "
            f"'deckforge build --out {display_path(Path(out_dir))}'"
        )
    return path


def _readable(out_dir: Path) -> list[Entry]:
    """The entries of an earlier build that can still be read (none if the file cannot)."""
    try:
        outputs = json.loads(read_regular(out_dir / MANIFEST_NAME))["outputs"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    found = []
    for item in outputs if isinstance(outputs, list) else []:
        try:
            entry = Entry.from_json(item)
        except ValueError:
            continue
        if inside(out_dir / entry.path, out_dir):
            found.append(entry)
    return found
