"""Planning a build: every file it may make, as a task of its own.

A task is a deck or component of an edition under a profile, or a profile's duplex
calibration sheet. Tasks carry indexes and ids, not the model, so that sending one to a
worker costs nothing; the largest are started first, so that workers finish together.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from deckforge.model import Edition
from deckforge.profiles import Profile


@dataclass(frozen=True, eq=False)
class Task:
    """One file a build may make: a deck or component of an edition under a profile, or
    a profile's calibration sheet (``edition`` None)."""

    relpath: str
    edition: int | None  # index into the build's editions
    profile: Profile
    part: str
    #: About how many pages it has: the largest are started first.
    size: int
    #: What the previous build recorded for this file, if it made it.
    record: dict | None
    #: Its place in the order of editions, profiles and parts.
    order: int = 0


def part_path(edition: str, profile: str, part: str) -> str:
    """Where the file of a deck or component goes in the build folder."""
    return f"{edition}/{profile}/{part}.pdf"


def calibration_path(profile: str) -> str:
    """Where a profile's duplex calibration sheet goes in the build folder."""
    return f"calibration/{profile}.pdf"


def plan(editions: list[Edition], profiles: list[Profile], known: dict) -> list[Task]:
    """Every file to make, largest first; ``known`` holds what the previous build recorded
    of each file, by path."""
    tasks = []
    for index, edition in enumerate(editions):
        for profile in profiles:
            per_card = 2 if profile.mode == "single" else 0.25
            sizes = [(deck.id, int(len(deck.cards) * per_card)) for deck in edition.decks]
            sizes += [(component.id, 20) for component in edition.components]
            for part, size in sizes:
                relpath = part_path(edition.id, profile.id, part)
                tasks.append(Task(relpath, index, profile, part, size, known.get(relpath)))
    for profile in profiles:
        if profile.mode == "sheets":
            relpath = calibration_path(profile.id)
            tasks.append(Task(relpath, None, profile, "calibration", 2, known.get(relpath)))
    tasks = [replace(task, order=order) for order, task in enumerate(tasks)]
    return sorted(tasks, key=lambda t: -t.size)
