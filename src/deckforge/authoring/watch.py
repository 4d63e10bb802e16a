"""Watch mode: rebuild what a saved change affects, report it, keep going on errors."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from deckforge.build.pipeline import build
from deckforge.errors import BuildFailed, Problem
from deckforge.sources.load import Project


@dataclass
class Round:
    """One rebuild: the files that changed, what was written, problems, and the time."""

    changed: list[str]
    written: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0


def _snapshot(folder: Path) -> dict[Path, tuple[int, int]]:
    state: dict[Path, tuple[int, int]] = {}
    for path in folder.rglob("*"):
        if path.is_file() and not path.name.startswith("."):
            try:
                info = path.stat()
            except OSError:
                continue
            state[path] = (info.st_mtime_ns, info.st_size)
    return state


def watch(
    project: Project,
    out_dir: Path,
    editions: list[str] | None = None,
    profiles: list[str] | None = None,
    on_round: Callable[[Round], None] = print,
    stop: threading.Event | None = None,
    interval: float = 0.5,
) -> None:
    """Build, then rebuild whenever a file under the decks folder changes, until ``stop``
    is set (or the process is interrupted)."""
    stop = stop or threading.Event()
    state = _snapshot(project.decks.resolve())
    changed: list[str] = ["(start)"]
    while True:
        if changed:
            started = time.perf_counter()
            result = Round(changed=changed)
            try:
                report = build(project, out_dir, editions, profiles)
                result.written = [entry.path for entry in report.written]
                result.problems = report.warnings
            except BuildFailed as exc:
                result.problems = exc.problems
            result.seconds = time.perf_counter() - started
            on_round(result)
        if stop.wait(interval):
            return
        now = _snapshot(project.decks.resolve())
        changed = sorted(
            path.relative_to(project.root).as_posix()
            for path in set(now) | set(state)
            if now.get(path) != state.get(path)
        )
        state = now
