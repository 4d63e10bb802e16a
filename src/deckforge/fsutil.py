"""Files as a build writes them: atomically, under a lock, with its temporary files cleared.

Every file deckforge writes into a build folder or its cache appears by an atomic rename
of a temporary file made beside it (``.<name>.<random>.tmp``), so a reader never sees a
half-written file and a failed write leaves the previous one as it was. Temporary files
are created private and made readable as the user's umask says when they are published.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from deckforge.errors import DeckforgeError

#: The lock file a build holds in its output folder.
LOCK_NAME = ".deckforge.lock"
#: How the names of temporary files end (they start with a dot and the target's name).
TEMP_SUFFIX = ".tmp"


class Busy(DeckforgeError):
    """Another build is writing to the same output folder."""


def missing_folders(path: Path) -> list[Path]:
    """The folders that creating ``path`` (with its parents) would make, deepest first."""
    missing = []
    while not path.exists() and path != path.parent:
        missing.append(path)
        path = path.parent
    return missing


def remove_empty(folders: list[Path]) -> None:
    """Remove the folders given (deepest first) that are empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            pass  # not empty, or already gone


def temp_beside(target: Path, created: list[Path] | None = None) -> Path:
    """A new private temporary file in the target's folder (made if missing, and added
    to ``created``)."""
    if created is not None:
        created[:0] = missing_folders(target.parent)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=TEMP_SUFFIX
    )
    os.close(handle)
    return Path(name)


def publish(temp: Path, target: Path) -> None:
    """Move a finished file into place, readable as any file the user makes (temporary
    files are created private)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temp, 0o666 & ~umask)
    os.replace(temp, target)


@contextlib.contextmanager
def replacing(target: Path) -> Iterator[Path]:
    """A temporary file beside ``target``, for a writer that wants a path (an image or
    font library, pickle); moved onto ``target`` when the block ends, removed if it
    fails, so a reader never sees a half-written file."""
    temp = temp_beside(target)
    try:
        yield temp
        publish(temp, target)
    finally:
        temp.unlink(missing_ok=True)


def write_atomic(target: Path, data: bytes | str) -> Path:
    """Write ``data`` (text as UTF-8) to ``target`` through a temporary file beside it."""
    with replacing(target) as temp:
        temp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return target


def clear_temporary_files(folder: Path) -> None:
    """Remove the temporary files writes into ``folder`` left when a process was killed
    outright; only safe while holding the folder's lock."""
    for stale in folder.rglob(f".*{TEMP_SUFFIX}"):
        stale.unlink(missing_ok=True)


@contextlib.contextmanager
def locked(out_dir: Path) -> Iterator[None]:
    """Hold the output folder's lock for a build; refuse at once if another build has it.

    Temporary files left by a build that was killed outright are removed once the lock
    is held, since no other build can be writing them then. A build that fails leaves
    no folder it created behind.
    """
    created = missing_folders(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    handle = open(out_dir / LOCK_NAME, "a+")  # noqa: SIM115 - held for the whole build
    failed = True
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            created = []  # the folder is another build's
            raise Busy(
                f"another deckforge build is writing to {out_dir}/; "
                "run this one when it has finished"
            ) from None
        clear_temporary_files(out_dir)
        yield
        failed = False
    finally:
        if failed and created:
            (out_dir / LOCK_NAME).unlink(missing_ok=True)
        handle.close()
        if failed:
            remove_empty(created)


def digest(path: Path) -> str:
    """A file's content hash; a folder's hash covers its files' names and contents."""
    if path.is_dir():
        listing = hashlib.sha256()
        for child in sorted(path.iterdir()):
            if child.is_file():
                listing.update(child.name.encode() + b"\0" + digest(child).encode() + b"\0")
        return "dir:" + listing.hexdigest()
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"
