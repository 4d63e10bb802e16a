"""Write stage: run the tasks that make each file, in parallel, each into a temporary
file beside its target; then move them all into place.

Nothing in the output folder changes until every task has finished and the build has
accepted what they found, and each file appears by an atomic rename, so a failed or
interrupted build never leaves a half-written PDF or destroys the previous one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from deckforge.fsutil import publish, remove_empty, temp_beside
from deckforge.layout.ops import Document
from deckforge.manifest import Entry

T = TypeVar("T", bound="Task")
M = TypeVar("M", bound="Made")


class Progress(Protocol):
    """Told how many files a build renders, then of each one as it is done."""

    def start(self, total: int) -> None: ...

    def advance(self, relpath: str, written: bool) -> None:
        """A file is done: ``written``, or found unchanged (or empty) and left alone."""


@dataclass(frozen=True)
class Output:
    """One file to write: where, what, and its build-manifest entry."""

    relpath: str
    document: Document
    entry: Entry


class Task(Protocol):
    """Something that makes one file."""

    relpath: str


class Made(Protocol):
    """What a task did: whether it wrote its file (or left the old one as it is)."""

    written: bool


def write_all(
    tasks: Sequence[T],
    out_dir: Path,
    make: Callable[[T, Path], M],
    progress: Progress | None = None,
    jobs: int | None = None,
    accept: Callable[[list[M]], None] | None = None,
) -> list[M]:
    """Run every task (in parallel over ``jobs`` processes, in the order given), each
    writing its file to a temporary file beside its target; then, if ``accept`` does not
    raise on what they did, move the files written into place. Returns what each task
    did, in the order given.

    ``make`` must be a module-level function (workers are forked and receive it by
    name). Until every task has finished nothing in ``out_dir`` changes; on any failure
    or interrupt the temporary files are removed and the previous outputs stay.
    """
    staged: list[tuple[Path, Path]] = []
    created: list[Path] = []
    try:
        for task in tasks:
            target = out_dir / task.relpath
            staged.append((temp_beside(target, created), target))
        jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
        if progress:
            progress.start(len(tasks))
        made: list[M] = [None] * len(tasks)  # type: ignore[list-item]
        if jobs == 1:
            for index, task in enumerate(tasks):
                made[index] = make(task, staged[index][0])
                if progress:
                    progress.advance(task.relpath, made[index].written)
        else:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor, as_completed

            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
                futures = {
                    pool.submit(make, task, temp): index
                    for index, (task, (temp, _)) in enumerate(zip(tasks, staged, strict=True))
                }
                try:
                    for future in as_completed(futures):
                        index = futures[future]
                        made[index] = future.result()
                        if progress:
                            progress.advance(tasks[index].relpath, made[index].written)
                except BaseException:
                    pool.shutdown(wait=True, cancel_futures=True)
                    raise
        if accept:
            accept(made)
        for (temp, target), result in zip(staged, made, strict=True):
            if result.written:
                publish(temp, target)
            else:
                temp.unlink(missing_ok=True)
        staged.clear()
    finally:
        for temp, _ in staged:
            temp.unlink(missing_ok=True)
        remove_empty(created)  # folders made for files that were not written
    return made
