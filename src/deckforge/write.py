"""Write stage: render every output to a temporary file, then move them all into place.

Nothing in the output folder changes until every file has been rendered, and
each file appears by an atomic rename, so a failed or interrupted build never
leaves a half-written PDF or destroys the previous one.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from deckforge.errors import DeckforgeError
from deckforge.layout.ops import Document

LOCK_NAME = ".deckforge.lock"


class Progress(Protocol):
    """Told how many files a build renders, then of each one as it is done."""

    def start(self, total: int) -> None: ...

    def advance(self, relpath: str) -> None: ...


@dataclass(frozen=True)
class Output:
    """One file to write: where, what, and its build-manifest entry."""

    relpath: str
    document: Document
    entry: dict
    #: What the document is a function of (the model it was laid out from, the profile):
    #: incremental builds compare a hash of this, far quicker than of the pages.
    made_from: tuple = ()


class Busy(DeckforgeError):
    """Another build is writing to the same output folder."""


@contextlib.contextmanager
def locked(out_dir: Path) -> Iterator[None]:
    """Hold the output folder's lock for a build; refuse at once if another build has it.

    Temporary files left by a build that was killed outright are removed once the lock
    is held, since no other build can be writing them then.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    handle = open(out_dir / LOCK_NAME, "a+")  # noqa: SIM115 - held for the whole build
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Busy(
                f"another deckforge build is writing to {out_dir}/; "
                "run this one when it has finished"
            ) from None
        for stale in out_dir.rglob(".*.tmp"):
            stale.unlink(missing_ok=True)
        yield
    finally:
        handle.close()


def _temp_beside(target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(handle)
    return Path(name)


def _render_one(job: tuple[Callable[[Document, Path], None], Document, Path]) -> None:
    render, document, path = job
    render(document, path)


def write_all(
    outputs: Iterable[Output],
    out_dir: Path,
    render: Callable[[Document, Path], None],
    progress: Progress | None = None,
    jobs: int | None = None,
) -> list[dict]:
    """Render all outputs (in parallel over ``jobs`` processes), then rename each into
    place; returns their manifest entries.

    Until every file has rendered nothing in ``out_dir`` changes; on any failure or
    interrupt the temporary files are removed and the previous outputs stay.
    """
    outputs = list(outputs)
    staged: list[tuple[Path, Path]] = []
    for output in outputs:
        target = out_dir / output.relpath
        staged.append((_temp_beside(target), target))
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(outputs)))
    if progress:
        progress.start(len(outputs))
    try:
        work = [(render, o.document, temp) for o, (temp, _) in zip(outputs, staged, strict=True)]
        if jobs == 1:
            for output, item in zip(outputs, work, strict=True):
                _render_one(item)
                if progress:
                    progress.advance(output.relpath)
        else:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor, as_completed

            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
                # The longest first, so that no large file starts last.
                order = sorted(
                    zip(outputs, work, strict=True), key=lambda pair: -len(pair[0].document.pages)
                )
                futures = {pool.submit(_render_one, item): output for output, item in order}
                try:
                    for future in as_completed(futures):
                        future.result()
                        if progress:
                            progress.advance(futures[future].relpath)
                except BaseException:
                    pool.shutdown(wait=True, cancel_futures=True)
                    raise
        for temp, target in staged:
            os.replace(temp, target)
        staged.clear()
    finally:
        for temp, _ in staged:
            temp.unlink(missing_ok=True)
    return [o.entry for o in outputs]


def write_manifest(out_dir: Path, entries: list[dict], replaced: set[tuple[str, str]]) -> Path:
    """Merge entries into ``manifest.json``: rebuilt (edition, profile) pairs are replaced,
    other entries kept while their files exist."""
    path = out_dir / "manifest.json"
    kept: list[dict] = []
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8")).get("outputs", [])
        except (ValueError, AttributeError):
            old = []
        for entry in old:
            if not isinstance(entry, dict):
                continue
            if (entry.get("edition"), entry.get("profile")) in replaced:
                continue
            if (out_dir / str(entry.get("path", ""))).is_file():
                kept.append(entry)
    merged = sorted(kept + entries, key=lambda e: (e["edition"], e["profile"], e["path"]))
    temp = _temp_beside(path)
    try:
        temp.write_text(
            json.dumps({"outputs": merged}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
    return path
