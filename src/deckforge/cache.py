"""What deckforge makes once and keeps for later runs, in the cache folder
(``$DECKFORGE_CACHE``, else ``deckforge`` in the user's cache: :func:`folder`).

An entry is a file ``<name>.json``: a header line of JSON naming the format, the entry's
version and the SHA-256 of the rest, then the data as JSON. It is data, never code, and
it is checked before it is believed: an entry of another version is ignored (and
replaced), and one that does not match its checksum or is not JSON is damaged: it is
set aside with a warning, and what it held is made again. Callers check that the data
has the shape they wrote.

Binary payloads (a font, an ICC profile) are files named by their SHA-256 beside the
entry that names them (:func:`load_file`, :func:`store_file`): written as JSON they
would be a third larger and have to be decoded before every use, where a file can be
handed to the library that reads it as it is.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from deckforge.fsutil import read_regular, write_atomic

_log = logging.getLogger(__name__)

#: The header's name for the format.
_FORMAT = "deckforge-cache"
#: The largest entry read (the icon drawings of every shipped game take a few megabytes).
MAX_BYTES = 256 * 1024 * 1024


T = TypeVar("T")

#: Why an entry whose data is not what its caller wrote is not used.
NOT_KEPT = "it does not hold what deckforge keeps there"


class Damaged(ValueError):
    """Bytes that are not an entry deckforge wrote, and why."""


def folder() -> Path:
    """The cache folder: ``$DECKFORGE_CACHE``, else ``deckforge`` in the user's cache."""
    if "DECKFORGE_CACHE" in os.environ:
        return Path(os.environ["DECKFORGE_CACHE"])
    # Imported when asked for: most runs name the folder.
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("deckforge", appauthor=False))


def path_of(name: str) -> Path:
    """The file of the entry ``name``."""
    return folder() / f"{name}.json"


def encode(version: int | str, data: Any, readable: bool = False) -> bytes:
    """An entry's bytes: its header, then ``data`` as JSON (indented, its keys sorted,
    when it is to be ``readable``)."""
    if readable:
        body = json.dumps(data, indent=1, sort_keys=True)
    else:
        body = json.dumps(data, separators=(",", ":"))
    raw = body.encode("utf-8")
    header = {"format": _FORMAT, "version": version, "sha256": hashlib.sha256(raw).hexdigest()}
    return json.dumps(header).encode("utf-8") + b"\n" + raw


def decode(raw: bytes, version: int | str) -> tuple[bool, Any]:
    """What an entry's bytes hold: (True, the data), or (False, None) for an entry of
    another version; :class:`Damaged` for bytes that are not an entry."""
    head, newline, body = raw.partition(b"\n")
    try:
        header = json.loads(head)
    except ValueError:
        header = None
    if not newline or not isinstance(header, dict) or header.get("format") != _FORMAT:
        raise Damaged("it is not a cache entry deckforge wrote")
    if header.get("version") != version:
        return False, None
    if hashlib.sha256(body).hexdigest() != header.get("sha256"):
        raise Damaged("it does not match its checksum: truncated or changed")
    try:
        return True, json.loads(body)
    except ValueError as exc:
        raise Damaged(f"it is not JSON ({exc})") from None


def damaged(path: Path, reason: str) -> None:
    """Say that a cache file is damaged (``reason``) and is made again."""
    _log.warning("%s: the cache entry is damaged (%s); it is made again", path, reason)


def load(
    name: str, version: int | str, check: Callable[[Any], T | None], warn: bool = True
) -> T | None:
    """The data kept as ``name`` at ``version``, as ``check`` gives it (None: it is not
    the shape written); None if there is none, or it is damaged (said so, unless not to
    ``warn``): it fails its checks, or ``check`` refuses its data."""
    path = path_of(name)
    try:
        raw = read_regular(path, MAX_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:  # not a file (a pipe put in its place), or unreadable
        problem = exc.strerror or str(exc)
    else:
        try:
            current, data = decode(raw, version)
        except Damaged as exc:
            problem = str(exc)
        else:
            found = check(data) if current else None
            if found is not None or not current:
                return found
            problem = NOT_KEPT
    if warn:
        damaged(path, problem)
    return None


def digests(data: Any) -> dict[str, str] | None:
    """``data`` if it is a mapping of text to text (digests by digest, say)."""
    if isinstance(data, dict) and all(isinstance(v, str) for v in data.values()):
        return data
    return None


def store(name: str, version: int | str, data: Any) -> None:
    """Keep ``data`` (plain JSON data) as ``name`` at ``version``, atomically. A cache
    that cannot be written only means the work is done again next time."""
    try:
        write_atomic(path_of(name), encode(version, data))
    except (OSError, TypeError, ValueError) as exc:
        _log.debug("cannot keep %s in the cache: %s", name, exc)


@contextlib.contextmanager
def updating(name: str) -> Iterator[None]:
    """Hold the entry ``name`` while it is read, changed and stored again: processes that
    update it at once (a build's workers) then keep each other's changes. A cache
    folder that cannot be locked is updated as it is (what is lost is made again)."""
    from filelock import FileLock, Timeout

    lock = FileLock(f"{path_of(name)}.lock")
    try:
        path_of(name).parent.mkdir(parents=True, exist_ok=True)
        lock.acquire(timeout=30)
    except (OSError, Timeout) as exc:
        _log.debug("cannot lock %s in the cache: %s", name, exc)
    try:
        yield
    finally:
        if lock.is_locked:
            lock.release()


def load_file(name: str, version: int | str, suffix: str) -> tuple[Path, bytes] | None:
    """The binary payload kept as ``name`` (see :func:`store_file`): its file and bytes,
    checked against the digest its entry names; None if there is none whole."""
    path = file_named(name, version, suffix)
    if path is None:
        return None
    digest = path.name.removesuffix(suffix)
    try:
        data = read_regular(path, MAX_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        damaged(path, exc.strerror or str(exc))
        return None
    if hashlib.sha256(data).hexdigest() != digest:
        damaged(path, "it does not match its checksum: truncated or changed")
        return None
    return path, data


def file_named(name: str, version: int | str, suffix: str) -> Path | None:
    """The file the entry ``name`` names (not read: see :func:`load_file`); None if there
    is no such entry."""
    digest = load(name, version, _named_file)
    return None if digest is None else folder() / f"{digest}{suffix}"


def _named_file(entry: Any) -> str | None:
    """The digest that names an entry's file, if it is one."""
    digest = entry.get("sha256") if isinstance(entry, dict) else None
    if isinstance(digest, str) and len(digest) == 64 and set(digest) <= set("0123456789abcdef"):
        return digest
    return None


def store_file(name: str, version: int | str, data: bytes, suffix: str) -> Path:
    """Keep the binary payload ``data`` in a file named by its SHA-256 (and ``suffix``),
    and an entry ``name`` naming it; the file (written even where the entry cannot be)."""
    digest = hashlib.sha256(data).hexdigest()
    path = folder() / f"{digest}{suffix}"
    try:
        write_atomic(path, data)
    except OSError as exc:
        _log.debug("cannot keep %s in the cache: %s", path, exc)
    store(name, version, {"sha256": digest})
    return path


def tree_digest(root: Path, suffixes: tuple[str, ...], skip: Path | None = None) -> str:
    """A digest (16 hex digits) of the files under ``root`` whose names end in one of
    ``suffixes``, but not under ``skip``: their paths and contents. The files are read
    only when one of them was added, removed, or changed size or time since the digest
    was last worked out (kept in the cache)."""
    found = sorted(_files_under(root, suffixes, skip))
    listing = hashlib.sha256(str(root).encode())
    for parts, size, mtime_ns in found:
        listing.update(f"{'/'.join(parts)}\0{size}\0{mtime_ns}\0".encode())
    key = listing.hexdigest()
    known = load(_TREES, 1, digests) or {}
    if len(known.get(key, "")) == 16:
        return known[key]
    total = hashlib.sha256()
    for parts, _, _ in found:
        relpath = "/".join(parts)
        total.update(relpath.encode() + (root / relpath).read_bytes())
    # The newest few trees are kept: a checkout's code, each of its edits.
    known = {k: v for k, v in list(known.items())[-63:] if k != key}
    store(_TREES, 1, {**known, key: total.hexdigest()[:16]})
    return total.hexdigest()[:16]


#: The entry of :func:`tree_digest`'s digests, by the listing they were worked out from.
_TREES = "tree-digests"


@cache
def package_digest() -> str:
    """A digest of deckforge's own modules, profiles and templates (what turns sources
    into outputs); not of the shipped games' sources (``sources/games/``), which are
    inputs like any other."""
    package = Path(__file__).parent
    return tree_digest(package, (".py", ".yaml"), package / "sources" / "games")


def _files_under(
    root: str | Path, suffixes: tuple[str, ...], skip: Path | None, parts: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], int, int]]:
    """Each file under ``root`` named with one of ``suffixes``: its path's parts, its
    size and modification time. Bytecode folders hold no such file and are not looked
    into (every run walks deckforge's own tree)."""
    skipped = None if skip is None else os.fspath(skip)
    with os.scandir(root) as entries:
        for entry in entries:
            name = entry.name
            if entry.is_dir(follow_symlinks=False):
                if name != "__pycache__" and entry.path != skipped:
                    yield from _files_under(entry.path, suffixes, skip, (*parts, name))
            elif name.endswith(suffixes):
                found = entry.stat()
                yield (*parts, name), found.st_size, found.st_mtime_ns
