"""Watch mode: rebuild what a saved change affects, report it, keep going on errors.

Changes are the operating system's file events (inotify, FSEvents, ReadDirectoryChangesW
through watchfiles), grouped while a save is still being written, so that an editor's
save is one rebuild; nothing is scanned while no file changes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import watchfiles

from deckforge.errors import BuildFailed, Problem
from deckforge.pipeline.recipe import build
from deckforge.sources.load import Project

#: Milliseconds after which the watcher, armed, gives back an empty batch if nothing
#: changed: the first build starts then, so that a change saved while it runs is seen.
ARMED_AFTER = 200


@dataclass
class Round:
    """One rebuild: the files that changed, what was written, problems, and the time."""

    changed: list[str]
    written: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0


class _Sources(watchfiles.DefaultFilter):
    """The changes that matter: not to hidden files (an editor's swap and backup files,
    deckforge's own temporary files), nor to what DefaultFilter leaves out."""

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        return not Path(path).name.startswith(".") and super().__call__(change, path)


def watch(
    project: Project,
    out_dir: Path,
    editions: list[str] | None = None,
    profiles: list[str] | None = None,
    on_round: Callable[[Round], None] = print,
    stop: threading.Event | None = None,
    rebuild: Callable[[Round], None] | None = None,
    on_quiet: Callable[[int], None] | None = None,
) -> None:
    """Build, then rebuild whenever a file under the decks folder changes, until ``stop``
    is set (or the process is interrupted). ``rebuild``, given, does a round's work in
    place of the build (filling in the round); ``on_quiet`` is told, while nothing
    changes, how many checks in a row found no change."""
    folder = project.decks.resolve()
    changed = ["(start)"]
    quiet = 0
    for changes in watchfiles.watch(
        folder,
        watch_filter=_Sources(),
        stop_event=stop or threading.Event(),
        rust_timeout=ARMED_AFTER,
        yield_on_timeout=True,
    ):
        changed += sorted({Path(path).relative_to(project.root).as_posix() for _, path in changes})
        if not changed:
            quiet += 1
            if on_quiet:
                on_quiet(quiet)
            continue
        quiet = 0
        started = time.perf_counter()
        result = Round(changed=changed)
        if rebuild is not None:
            rebuild(result)
        else:
            build_round(project, out_dir, editions, profiles, result)
        result.seconds = time.perf_counter() - started
        on_round(result)
        changed = []


def build_round(
    project: Project,
    out_dir: Path,
    editions: list[str] | None,
    profiles: list[str] | None,
    result: Round,
) -> None:
    """The incremental build of a round: what it wrote, or its problems."""
    try:
        report = build(project, out_dir, editions, profiles)
        result.written = [entry.path for entry in report.written]
        result.problems = report.warnings
    except BuildFailed as exc:
        result.problems = exc.problems
