"""Running a build's tasks: each file laid out and rendered into a temporary file beside
its target, in parallel; then, once the build has accepted what they found, every file
moved into place.

Nothing in the output folder changes until every task has finished, and each file
appears by an atomic rename, so a failed or interrupted build never leaves a
half-written PDF or destroys the previous one.

Workers are forked: what every task reads (the :class:`Workshop`: the build's editions,
tool versions, art digests) is handed to each worker once, when the pool starts it, and
shared with the parent's memory pages rather than copied; tasks themselves are small.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from deckforge.build import cache
from deckforge.build.outputs import Output, calibration_output, part_output
from deckforge.build.plan import Task
from deckforge.errors import Problem, errors_only
from deckforge.fsutil import publish, remove_empty, temp_beside
from deckforge.layout.cards import lay_out_deck
from deckforge.layout.ops import Card
from deckforge.manifest import Entry
from deckforge.model import Edition
from deckforge.render import pdf


class Progress(Protocol):
    """Told how many files a build renders, then of each one as it is done."""

    def start(self, total: int) -> None: ...

    def advance(self, relpath: str, written: bool) -> None:
        """A file is done: ``written``, or found unchanged (or empty) and left alone."""


@dataclass
class Workshop:
    """What every task of a build reads."""

    editions: list[Edition]
    out_dir: Path
    #: The versions of the tools (:func:`deckforge.build.cache.toolchain`).
    tools: str
    #: The digests of the art files the editions name, by path.
    art: dict[str, str]
    strict: bool
    #: Each deck's cards as this process laid them out, by (edition, deck).
    cards: dict[tuple[int, str], tuple[list[Card], list[Problem]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Made:
    """What a task did: the file's manifest entry (None if the part prints nothing),
    whether it was written (or found unchanged), and the problems found."""

    relpath: str
    entry: Entry | None
    hash: str
    written: bool
    problems: tuple[Problem, ...]


def make(shop: Workshop, task: Task, temp: Path) -> Made:
    """Lay out and render one file into ``temp``; unless the previous build made it from
    the same model, profile, art and tools, in which case it is left as it is, not even
    laid out (and the warnings that build found are given again)."""
    if task.edition is None:
        edition, part = None, None
        source: tuple = ("calibration", task.profile)
        art = []
    else:
        edition = shop.editions[task.edition]
        part = next(p for p in (*edition.decks, *edition.components) if p.id == task.part)
        source, art = cache.made_from(edition, task.profile, part), cache.art_of(part, edition)
    hash = cache.output_hash(source, art, shop.art, shop.tools)
    known = cache.unchanged(task.record, hash, shop.out_dir / task.relpath)
    if known is not None and not shop.strict:
        return Made(task.relpath, known[0], hash, False, known[1])
    problems: list[Problem] = []
    if edition is None:
        output: Output | None = calibration_output(task.profile)
    elif any(part is deck for deck in edition.decks):
        key = (task.edition, task.part)
        if key not in shop.cards:
            shop.cards[key] = lay_out_deck(edition, part)
        cards, problems = shop.cards[key]
        output, found = part_output(edition, task.profile, part, cards)
        problems = problems + found
    else:
        output, problems = part_output(edition, task.profile, part, None)
    if output is None:
        return Made(task.relpath, None, hash, False, tuple(problems))
    if errors_only(problems, shop.strict):
        return Made(task.relpath, output.entry, hash, False, tuple(problems))
    pdf.render(output.document, temp)
    return Made(task.relpath, output.entry, hash, True, tuple(problems))


class _Done(Protocol):
    written: bool


T = TypeVar("T", bound=Task)
C = TypeVar("C")
M = TypeVar("M", bound=_Done)

#: In a worker process: the function that makes a file, and what it reads.
_WORKER: tuple[Callable, object] | None = None


def _start_worker(work: Callable, context: object) -> None:
    global _WORKER
    _WORKER = (work, context)


def _work(task: Task, temp: Path):
    assert _WORKER is not None, "tasks run in workers the pool has started"
    work, context = _WORKER
    return work(context, task, temp)


def run_tasks(
    tasks: Sequence[T],
    out_dir: Path,
    work: Callable[[C, T, Path], M],
    context: C,
    progress: Progress | None = None,
    jobs: int | None = None,
    accept: Callable[[list[M]], None] | None = None,
) -> list[M]:
    """Run ``work(context, task, temp)`` for every task (in parallel over ``jobs``
    processes, in the order given), each writing its file to a temporary file beside its
    target; then, if ``accept`` does not raise on what they did, move the files written
    into place. Returns what each task did, in the order given.

    ``work`` must be a module-level function. Until every task has finished nothing in
    ``out_dir`` changes; on any failure or interrupt the temporary files are removed and
    the previous outputs stay.
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
        if jobs == 1:
            made = []
            for task, (temp, _) in zip(tasks, staged, strict=True):
                made.append(work(context, task, temp))
                if progress:
                    progress.advance(task.relpath, made[-1].written)
        else:
            made = _in_parallel(tasks, staged, work, context, progress, jobs)
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


def _in_parallel(
    tasks: Sequence[T],
    staged: list[tuple[Path, Path]],
    work: Callable[[C, T, Path], M],
    context: C,
    progress: Progress | None,
    jobs: int,
) -> list[M]:
    """Every task run in a pool of forked workers, each handed ``work`` and ``context``
    once as it starts."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    made: list[M] = [None] * len(tasks)  # type: ignore[list-item]
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_start_worker,
        initargs=(work, context),
    )
    with pool:
        futures = {
            pool.submit(_work, task, temp): index
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
    return made
