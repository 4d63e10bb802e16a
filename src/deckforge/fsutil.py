"""Files as deckforge reads and writes them: only regular files read, every file written
atomically, a build published whole.

Reading: a file the sources name is read only if it is a regular file. A named pipe, a
device or a socket is refused before it is opened (a pipe would wait for a writer
forever), and :func:`inside` says whether a path, with its links resolved, stays in a
folder.

Writing: every file deckforge writes into its cache or an export folder appears by an
atomic rename of a temporary file made beside it (``.<name>.<random>.tmp``), so a reader
never sees a half-written file and a failed write leaves the previous one as it was.
Temporary files are created private and made readable as the user's umask says when
they are published.

Publishing a build: a build writes all of its files into its staging folder
(:class:`Staging`), then names them in a journal and moves them into place. Writing the
journal (atomically, once every file is on disk) is the moment the new build exists:
a build killed before it leaves the previous build as it was, and the next build removes
the staging folder, which holds nothing but what a build put there; a build killed
after it is finished by whatever deckforge runs next on the folder
(:func:`finish_publishing`), which moves the rest of the files. The journal also names
the files of earlier builds that this one no longer makes, with their SHA-256: each is
removed once the new files are in place, if it is still that file. Everything that reads a
build folder finishes first, so it sees the previous build or the new one, whole.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from io import BufferedReader
from pathlib import Path, PurePosixPath

from deckforge.errors import DeckforgeError

#: The lock file a build holds in its output folder.
LOCK_NAME = ".deckforge.lock"
#: How the names of temporary files end (they start with a dot and the target's name).
TEMP_SUFFIX = ".tmp"
#: The folder of a build folder that a build writes its files into before publishing.
STAGING_NAME = ".deckforge-staging"
#: The file that marks a staging folder as one deckforge made (it is made first).
_STAGING_MARK = ".made-by-deckforge"
#: The journal of a build being published: the files to move into place.
JOURNAL_NAME = ".deckforge-publish.json"
_JOURNAL_FORMAT = "deckforge-publish-1"


_log = logging.getLogger(__name__)


class Busy(DeckforgeError):
    """Another build is writing to the same output folder."""


class NotAFile(OSError):
    """A path that names something other than a regular file: a folder, a named pipe, a
    device or a socket (``strerror`` says which)."""


class TooLarge(OSError):
    """A file larger than a reader accepts; ``size`` is how large it is."""

    def __init__(self, path: Path, size: int, limit: int):
        super().__init__(f"the file is {size:,} bytes; the limit is {limit:,}")
        self.filename = str(path)
        self.size = size


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def kind_of(path: Path) -> str | None:
    """What ``path`` is (links followed) when it is not a regular file: 'a folder', 'a
    named pipe (FIFO)', 'a device', 'a socket'; None for a regular file. Raises OSError
    (FileNotFoundError) when there is nothing there. Looks without opening it."""
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def open_regular(path: Path) -> BufferedReader:
    """A regular file opened for reading; NotAFile for anything else, refused before it
    is opened, and checked again once open (it may have been swapped meanwhile: the open
    does not wait for a pipe's writer)."""
    kind = kind_of(path)
    if kind is not None:
        raise NotAFile(0, f"it is {kind}, not a file", str(path))
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)
    handle = os.open(path, flags)
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise NotAFile(0, "it is not a regular file", str(path))
        os.set_blocking(handle, True)
        return os.fdopen(handle, "rb")
    except BaseException:
        os.close(handle)
        raise


def read_regular(path: Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file (see :func:`open_regular`); TooLarge past ``limit``."""
    with open_regular(path) as handle:
        if limit is None:
            return handle.read()
        size = os.fstat(handle.fileno()).st_size
        if size > limit:
            raise TooLarge(path, size, limit)
        data = handle.read(limit + 1)
    if len(data) > limit:  # it grew while being read
        raise TooLarge(path, len(data), limit)
    return data


def inside(path: Path, root: Path) -> bool:
    """Whether a path, with links resolved, stays inside root."""
    try:
        Path(path).resolve().relative_to(Path(root).resolve())
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a loop of links
        return False
    return True


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


def temp_beside(target: Path) -> Path:
    """A new private temporary file in the target's folder (made if missing)."""
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


def _sync(path: Path) -> None:
    """Make what has been written to a file or folder durable (a rename published after
    it must not point at bytes still only in memory when the power goes)."""
    handle = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(handle)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename is still atomic
    finally:
        os.close(handle)


def relative(name: object) -> PurePosixPath:
    """A path relative to a folder, as a file deckforge keeps there names it (the
    journal, the incremental build's record), that stays inside the folder and is not
    one of deckforge's own; ValueError if it is not."""
    if not isinstance(name, str) or not name or "\0" in name:
        raise ValueError(f"{name!r} is not a file name")
    path = PurePosixPath(name)
    ours = (STAGING_NAME, JOURNAL_NAME, LOCK_NAME)
    if path.is_absolute() or not path.parts or ".." in path.parts or path.parts[0] in ours:
        raise ValueError(f"{name!r} is not a path inside the build folder")
    return path


class Staging:
    """Where a build writes its files before they are published: the build folder's
    staging folder, marked as deckforge's before anything is written into it."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.folder = out_dir / STAGING_NAME
        self.folder.mkdir()
        (self.folder / _STAGING_MARK).touch()

    def path(self, relpath: str) -> Path:
        """Where the file the build publishes at ``relpath`` is written first (its folder
        made)."""
        staged = self.folder / relative(relpath)
        staged.parent.mkdir(parents=True, exist_ok=True)
        return staged

    def publish(self, relpaths: list[str], remove: dict[str, str] | None = None) -> None:
        """Move the files written for ``relpaths`` into place, and remove the files of
        earlier builds in ``remove`` (relative path → the SHA-256 they must still have):
        every one, or, if this process is killed before the journal is written, none."""
        held = [name for name in relpaths if _held(self.out_dir / relative(name))]
        if held:
            raise DeckforgeError(
                f"{self.out_dir / held[0]} is open in another program (a PDF viewer?), which "
                "keeps it from being replaced; close it and build again (the previous build "
                "is left as it was)"
            )
        for relpath in relpaths:
            _sync(self.folder / relative(relpath))
        for relpath in remove or {}:
            relative(relpath)
        journal = {"format": _JOURNAL_FORMAT, "files": list(relpaths), "remove": remove or {}}
        with replacing(self.out_dir / JOURNAL_NAME) as temp:
            with open(temp, "w", encoding="utf-8") as handle:
                json.dump(journal, handle)
                handle.flush()
                os.fsync(handle.fileno())
        _sync(self.out_dir)
        _finish(self.out_dir)


def _held(target: Path) -> bool:
    """Whether another program holds ``target`` open so that it cannot be replaced, as
    Windows does for a PDF open in Acrobat (POSIX lets a file be replaced while open)."""
    try:
        if not stat.S_ISREG(os.lstat(target).st_mode):
            return False  # replaced whole; opening a named pipe would wait for a reader
        with open(target, "ab"):
            return False
    except FileNotFoundError:
        return False
    except PermissionError:
        return True


def _finish(out_dir: Path) -> None:
    """Move into place every file the journal names that is still in the staging folder,
    then remove the journal and the staging folder."""
    journal = out_dir / JOURNAL_NAME
    staging = out_dir / STAGING_NAME
    try:
        data = json.loads(read_regular(journal, 64 * 1024 * 1024))
        if not isinstance(data, dict) or data.get("format") != _JOURNAL_FORMAT:
            raise ValueError("it is not a journal deckforge wrote")
        names = [relative(name) for name in data.get("files", [])]
        removed = data.get("remove", {})
        if not isinstance(removed, dict) or not all(map(_sha256, removed.values())):
            raise ValueError("what it removes is not files and their digests")
        removed = {relative(name): sha for name, sha in removed.items()}
    except (OSError, ValueError, TypeError) as exc:
        _log.warning(
            "%s: cannot finish publishing the build that was interrupted (%s); the next "
            "build makes again every file that is not the one it recorded",
            journal,
            exc,
        )
        names, removed = [], {}
    folders = set()
    umask = os.umask(0)
    os.umask(umask)
    for name in names:
        staged, target = staging / name, out_dir / name
        if not staged.is_file() or staged.is_symlink():
            continue  # moved already
        target.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(staged, 0o666 & ~umask)
        os.replace(staged, target)
        folders.add(target.parent)
    for folder in folders:
        _sync(folder)
    for name, sha256 in removed.items():
        remove_made(out_dir, name, sha256)
    journal.unlink(missing_ok=True)
    _remove_staging(out_dir)


def _sha256(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64


def file_sha256(path: Path) -> str | None:
    """The SHA-256 of a regular file that is not a link; None for anything else."""
    try:
        if Path(path).is_symlink():
            return None
        with open_regular(path) as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None


def remove_made(out_dir: Path, name: PurePosixPath, sha256: str) -> bool:
    """Remove a file a build made at ``name`` in ``out_dir`` if it is still the file it
    made (a regular file, inside the folder, with that SHA-256), and the folders it
    leaves empty up to ``out_dir``; whether it was removed."""
    target = out_dir / relative(str(name))
    if not inside(target.parent, out_dir) or file_sha256(target) != sha256:
        return False
    target.unlink()
    folder = target.parent
    while folder != out_dir and inside(folder, out_dir):
        try:
            folder.rmdir()
        except OSError:
            break  # not empty
        folder = folder.parent
    return True


def _remove_staging(out_dir: Path) -> None:
    """Remove the staging folder of a build that did not publish (or just did): only a
    folder deckforge made, and marked before putting anything in it."""
    staging = out_dir / STAGING_NAME
    if not os.path.lexists(staging):
        return
    if staging.is_dir() and not staging.is_symlink():
        if (staging / _STAGING_MARK).is_file():
            shutil.rmtree(staging)
            return
        with contextlib.suppress(OSError):
            staging.rmdir()  # made, and killed before it was marked
            return
    raise DeckforgeError(
        f"{staging} is not a folder deckforge made, but deckforge builds there; "
        "move it out of the build folder"
    )


def _lock(out_dir: Path):
    """The output folder's build lock (``filelock``: an OS lock on POSIX and Windows)."""
    from filelock import FileLock

    return FileLock(Path(out_dir) / LOCK_NAME, thread_local=False)


def finish_publishing(out_dir: Path) -> None:
    """Finish publishing a build that was killed while moving its files into place, so
    that what is read of ``out_dir`` is one build, whole. Waits for a build that is
    publishing now."""
    from filelock import Timeout

    journal = Path(out_dir) / JOURNAL_NAME
    if not journal.exists():
        return
    lock = _lock(out_dir)
    while True:
        try:
            lock.acquire(timeout=0)
            break
        except Timeout:
            if not journal.exists():
                return  # the build publishing it finished
            time.sleep(0.05)
    try:
        if journal.exists():
            _finish(Path(out_dir))
    finally:
        lock.release()


@contextlib.contextmanager
def locked(out_dir: Path) -> Iterator[Staging]:
    """Hold the output folder's lock for a build, and give its staging folder; refuse at
    once if another build has the lock.

    Once the lock is held, a build that was killed while publishing is finished, and the
    staging folder of one killed before is removed: no other build can be writing them.
    A build that fails leaves no folder it created behind.
    """
    created = missing_folders(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    from filelock import Timeout

    lock = _lock(out_dir)
    failed = True
    try:
        try:
            lock.acquire(timeout=0)
        except Timeout:
            created = []  # the folder is another build's
            raise Busy(
                f"another deckforge build is writing to {out_dir}/; "
                "run this one when it has finished"
            ) from None
        if (out_dir / JOURNAL_NAME).exists():
            _finish(out_dir)
        _remove_staging(out_dir)
        staging = Staging(out_dir)
        try:
            yield staging
        finally:
            _remove_staging(out_dir)  # what was not published
        failed = False
    finally:
        if lock.is_locked:
            lock.release()
        if failed and created:
            (out_dir / LOCK_NAME).unlink(missing_ok=True)
        if failed:
            remove_empty(created)


def digest(path: Path, root: Path | None = None) -> str:
    """A file's content hash; a folder's hash covers the names and contents of the files
    in it. Only regular files are read, and with ``root`` only those inside it (links
    resolved): anything else is hashed by what it is, so replacing it is still a change."""
    try:
        if root is not None and not inside(path, root):
            return "outside"
        kind = kind_of(path)
        if kind == "a folder":
            listing = hashlib.sha256()
            for child in sorted(Path(path).iterdir()):
                if not child.is_dir():  # the files of the folder itself
                    found = digest(child, root)
                    listing.update(child.name.encode() + b"\0" + found.encode() + b"\0")
            return "dir:" + listing.hexdigest()
        if kind is not None:
            return kind
        with open_regular(path) as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return "missing"
