"""Memos in the cache folder: what was worked out before, by the digest of what it was
worked out from, so that a run need not work it out again (the sources that passed their
schema's check, the digest of deckforge's own code, of the variable fonts).

A memo is a file of lines, each a key and a value, both hexadecimal digests, after a
line naming the format: data, checked line by line as it is read; a file that fails the
check is no memo, and what it held is worked out again.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from deckforge.fsutil import Log, cache_dir, read_regular, write_atomic

_log = Log(__name__)

#: The first line of a memo file (:func:`read`), naming its format.
_MEMO_MAGIC = "deckforge memo 1\n"
#: A memo's line: a key, a space and a value, both lowercase hexadecimal digests.
_MEMO_LINE = re.compile(r"([0-9a-f]{64}) ([0-9a-f]{0,64})")
#: The most entries a memo keeps (the newest): a few hundred kilobytes at most.
MEMO_ENTRIES = 4096


def read(name: str) -> dict[str, str]:
    """A memo kept in the cache folder: what was worked out before, by the digest of
    what it was worked out from. The file is data only, checked line by line: a file
    that is missing, not regular, or has a line that is not two digests is no memo."""
    path = cache_dir() / name
    try:
        text = read_regular(path, 130 * MEMO_ENTRIES + 64).decode("ascii")
    except (FileNotFoundError, NotADirectoryError):
        return {}  # none kept yet
    except (OSError, UnicodeDecodeError):
        text = ""
    lines = text[len(_MEMO_MAGIC) :].splitlines() if text.startswith(_MEMO_MAGIC) else None
    found = [_MEMO_LINE.fullmatch(line) for line in lines or ()]
    if lines is None or not all(found):
        _log.warning("%s: not a memo deckforge wrote; it is made again", path)
        return {}
    return {match[1]: match[2] for match in found if match}


def write(name: str, memo: dict[str, str]) -> None:
    """Keep a memo (its newest entries, the last added) in the cache folder, atomically.
    A cache that cannot be written only means the work is done again next time."""
    lines = [f"{key} {value}\n" for key, value in list(memo.items())[-MEMO_ENTRIES:]]
    try:
        write_atomic(cache_dir() / name, _MEMO_MAGIC + "".join(lines))
    except OSError as exc:
        _log.debug("cannot keep %s in the cache: %s", name, exc)


def tree_digest(folder: Path, suffixes: tuple[str, ...], skip: Path | None = None) -> str:
    """A digest (16 hex digits) of the files under ``folder`` whose names end in one of
    ``suffixes``, but not under ``skip``: their paths and contents. The files are read
    only when one of them was added, removed, or changed size or time since the digest
    was last worked out (kept in a memo in the cache folder)."""
    found = sorted(_files_under(folder, suffixes, skip))
    listing = hashlib.sha256(str(folder).encode())
    for parts, size, mtime_ns in found:
        listing.update(f"{'/'.join(parts)}\0{size}\0{mtime_ns}\0".encode())
    key = listing.hexdigest()
    memo = read(_TREE_MEMO)
    known = memo.get(key)
    if known is not None and len(known) == 16:
        return known
    total = hashlib.sha256()
    for parts, _, _ in found:
        name = "/".join(parts)
        total.update(name.encode() + (folder / name).read_bytes())
    memo[key] = total.hexdigest()[:16]
    write(_TREE_MEMO, {k: v for k, v in memo.items() if len(v) == 16})
    return memo[key]


@cache
def package_digest() -> str:
    """A digest of deckforge's own modules, profiles and templates (what turns sources
    into outputs); not of the shipped games' sources (``sources/games/``), which are
    inputs like any other."""
    package = Path(__file__).parent
    return tree_digest(package, (".py", ".yaml"), package / "sources" / "games")


#: The memo of :func:`tree_digest`.
_TREE_MEMO = "tree-digests.memo"


def _files_under(
    folder: str | Path, suffixes: tuple[str, ...], skip: Path | None, parts: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], int, int]]:
    """Each file under ``folder`` named with one of ``suffixes``: its path's parts (in
    the order paths sort in), its size and modification time. Bytecode folders hold no
    such file and are not looked into (every run walks deckforge's own tree)."""
    skipped = None if skip is None else os.fspath(skip)
    with os.scandir(folder) as entries:
        for entry in entries:
            name = entry.name
            if entry.is_dir(follow_symlinks=False):
                if name != "__pycache__" and entry.path != skipped:
                    yield from _files_under(entry.path, suffixes, skip, (*parts, name))
            elif name.endswith(suffixes):
                found = entry.stat()
                yield (*parts, name), found.st_size, found.st_mtime_ns
