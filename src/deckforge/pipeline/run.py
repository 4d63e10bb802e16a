"""Running a build's tasks: each file laid out and rendered into the build's staging
folder, in parallel, and checked by what the build accepts.

Nothing in the output folder changes here: the build publishes the files afterwards, all
at once (:class:`deckforge.fsutil.Staging`), so a failed or interrupted build never
leaves a half-written PDF or destroys the previous one.

Workers start as the platform starts processes (fork on Linux, spawn on macOS and
Windows): what every task reads (the :class:`Workshop`: the build's editions, tool
versions, art digests) is handed to each worker once, through the pool's initializer;
a forked worker shares it with the parent's memory pages, a spawned one unpickles it
and reads fonts and icons from the cache as it needs them. Tasks themselves are small.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol, TypeVar

from deckforge.drawing.ops import Card
from deckforge.errors import Problem, Refused, errors_only
from deckforge.fsutil import Staging
from deckforge.layout.cards import lay_out_deck, stream_deck
from deckforge.layout.listing import card_sources
from deckforge.manifest import Entry
from deckforge.model import Deck, Edition
from deckforge.pipeline import cache
from deckforge.pipeline.outputs import Output, calibration_output, part_output
from deckforge.pipeline.plan import Task
from deckforge.render import pdf
from deckforge.sources.schema import save_checks


class Progress(Protocol):
    """Told how many files a build renders, then of each one as it is done."""

    def start(self, total: int) -> None: ...

    def advance(self, relpath: str, written: bool) -> None:
        """A file is done: ``written``, or found unchanged (or empty) and left alone."""


@dataclass(eq=False)
class Workshop:
    """What every task of a build reads."""

    editions: list[Edition]
    out_dir: Path
    #: The versions of the tools (:func:`deckforge.pipeline.cache.toolchain`).
    tools: str
    #: The digests of the art files the editions name, by path.
    art: dict[str, str]
    strict: bool
    #: Each deck's cards as this process laid them out, by (edition, deck).
    cards: dict[tuple[int | None, str], tuple[list[Card], list[Problem]]] = field(
        default_factory=dict
    )


@dataclass(frozen=True, eq=False)
class Made:
    """What a task did: the file's manifest entry (None if the part prints nothing; with
    the file's SHA-256), whether it was written (or found unchanged), the problems found,
    and the file's size and modification time (what a build with nothing to do checks)."""

    relpath: str
    entry: Entry | None
    hash: str
    written: bool
    problems: tuple[Problem, ...]
    size: int = 0
    mtime_ns: int = 0


def _written(relpath: str, entry: Entry, hash: str, problems: list[Problem], path: Path) -> Made:
    """What a task that wrote its file did, with the file's digest, size and time."""
    with open(path, "rb") as handle:
        sha256 = hashlib.file_digest(handle, "sha256").hexdigest()
        found = os.fstat(handle.fileno())
    entry = replace(entry, sha256=sha256)
    return Made(relpath, entry, hash, True, tuple(problems), found.st_size, found.st_mtime_ns)


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
        entry, warnings, status = known
        if entry.card_sources is not None and isinstance(part, Deck):
            # Not drawn again, but a line added above its cards moves where they are.
            entry = replace(entry, card_sources=card_sources(part))
        return Made(task.relpath, entry, hash, False, warnings, status.st_size, status.st_mtime_ns)
    problems: list[Problem] = []
    if edition is None:
        output: Output | None = calibration_output(task.profile)
    elif isinstance(part, Deck):  # a deck of the edition, the only Decks it holds
        if len(part.cards) > KEPT:
            return _streamed(shop, task, edition, part, hash, temp)
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
    try:
        pdf.render(output.document, temp)
    except Refused as exc:
        return Made(task.relpath, output.entry, hash, False, (*problems, exc.problem))
    return _written(task.relpath, output.entry, hash, problems, temp)


#: Decks of up to this many cards are laid out once in a process, for every profile
#: (a few megabytes of drawing operations); a larger deck is laid out, imposed and
#: written a sheet at a time for each profile, never held whole.
KEPT = 2000


def _streamed(shop: Workshop, task: Task, edition: Edition, part, hash: str, temp: Path) -> Made:
    """Make a large deck's file as its cards are laid out: each sheet is drawn and
    dropped. A card that cannot be drawn is found while writing, and the file written is
    then left unpublished."""
    laying = stream_deck(edition, part)
    output, found = part_output(edition, task.profile, part, laying, laying.count)
    if output is None:
        return Made(task.relpath, None, hash, False, tuple(laying.problems + found))
    drawn = output.entry.pages > 0  # none when no card could be laid out
    refused: list[Problem] = []
    if drawn:
        try:
            pdf.render(output.document, temp)
        except Refused as exc:
            refused.append(exc.problem)
    problems = laying.problems + found + refused  # the cards' problems found as drawn
    if errors_only(problems, shop.strict) or not drawn:
        temp.unlink(missing_ok=True)
        return Made(task.relpath, output.drawn(), hash, False, tuple(problems))
    return _written(task.relpath, output.drawn(), hash, problems, temp)


class _Done(Protocol):
    @property
    def written(self) -> bool: ...


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
    try:
        return work(context, task, temp)
    finally:
        # Templates that only a worker reads (a board's, a tuck box's) are checked there:
        # what passed is kept, so that the next build need not check them again.
        save_checks()


def run_tasks(
    tasks: Sequence[T],
    staging: Staging,
    work: Callable[[C, T, Path], M],
    context: C,
    progress: Progress | None = None,
    jobs: int | None = None,
    accept: Callable[[list[M]], None] | None = None,
) -> list[M]:
    """Run ``work(context, task, path)`` for every task (in parallel over ``jobs``
    processes, in the order given), each writing its file at the path ``staging`` gives
    it; then let ``accept`` see what they did (it raises to fail the build). Returns
    what each task did, in the order given.

    ``work`` must be a module-level function. Nothing is published here, and nothing
    outside the staging folder changes.
    """
    staged = [staging.path(task.relpath) for task in tasks]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
    if progress:
        progress.start(len(tasks))
    if jobs == 1:
        made = []
        for task, path in zip(tasks, staged, strict=True):
            made.append(work(context, task, path))
            if progress:
                progress.advance(task.relpath, made[-1].written)
    else:
        made = _in_parallel(tasks, staged, work, context, progress, jobs)
    save_checks()
    if accept:
        accept(made)
    return made


def _in_parallel(
    tasks: Sequence[T],
    staged: list[Path],
    work: Callable[[C, T, Path], M],
    context: C,
    progress: Progress | None,
    jobs: int,
) -> list[M]:
    """Every task run in a pool of worker processes, each handed ``work`` and ``context``
    once as it starts."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    made: list[M] = [None] * len(tasks)  # type: ignore[list-item]
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context(),
        initializer=_start_worker,
        initargs=(work, context),
    )
    with pool:
        futures = {
            pool.submit(_work, task, path): index
            for index, (task, path) in enumerate(zip(tasks, staged, strict=True))
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
