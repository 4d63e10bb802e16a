"""The editions deckforge ships: its two games and the example a new project starts from.

They are package data in ``sources/games/`` (read with :mod:`importlib.resources`, so an
installed deckforge has them wherever it runs), one folder per edition, beside the
schemas their ``# yaml-language-server`` lines point at (``../../schemas/``). The
repository's ``decks/`` folder links to the games' folders, so that they are also the
project's own editions there; nothing else in ``decks/`` is ever part of the package.

An edition may use sources of another shipped edition (``../guess-the-mess/places.yaml``):
:func:`files_of` lists every file an edition reads, by its path inside ``games/``, so that
it can be copied into a project whole.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

import yaml

from deckforge.sources.load import EDITION_FILE

#: Where the shipped editions are: this package's ``games`` folder.
GAMES = resources.files(__package__) / "games"
#: The edition a new project starts from when nothing else is asked for.
EXAMPLE = "example-en"
#: The folder of an edition that holds its own card templates.
_TEMPLATES = "templates"


@dataclass(frozen=True)
class Shipped:
    """One shipped edition: its id, folder (inside ``games/``), title and language."""

    id: str
    folder: str
    title: str
    locale: str
    game: str


@cache
def editions() -> dict[str, Shipped]:
    """Every shipped edition by id, the example first, then by id."""
    found = {}
    for folder in sorted(GAMES.iterdir(), key=lambda f: f.name):
        manifest = folder / EDITION_FILE
        if not manifest.is_file():
            continue
        data = _yaml(manifest)
        found[data["id"]] = Shipped(
            data["id"], folder.name, data["title"], data["locale"], data["game"]
        )
    return dict(sorted(found.items(), key=lambda item: (item[0] != EXAMPLE, item[0])))


def find(edition_id: str) -> Shipped | None:
    """The shipped edition with that id (or folder name), if there is one."""
    for shipped in editions().values():
        if edition_id in (shipped.id, shipped.folder):
            return shipped
    return None


def manifest_of(shipped: Shipped) -> dict:
    """A shipped edition's manifest, as data."""
    return _yaml(GAMES / shipped.folder / EDITION_FILE)


def files_of(shipped: Shipped) -> list[str]:
    """Every file the edition reads, as paths inside ``games/`` (``guess-the-mess/
    places.yaml``): its manifest, the sources its decks and components name, and its own
    templates folder; each once, the manifest first."""
    manifest = manifest_of(shipped)
    found = [f"{shipped.folder}/{EDITION_FILE}"]
    for entry in [*manifest.get("decks", []), *manifest.get("components", [])]:
        found.append(posixpath.normpath(f"{shipped.folder}/{entry['source']}"))
    templates = GAMES / shipped.folder / _TEMPLATES
    if templates.is_dir():
        found.extend(f"{shipped.folder}/{_TEMPLATES}/{name}" for name in _tree(templates))
    return list(dict.fromkeys(found))


def read(path: str) -> bytes:
    """A file of the shipped editions, by its path inside ``games/``."""
    return _at(path).read_bytes()


def _at(path: str) -> Traversable:
    node = GAMES
    for part in path.split("/"):
        node = node / part
    return node


def _tree(folder: Traversable) -> list[str]:
    """Every file under a folder, by its path from there, sorted."""
    names: list[str] = []
    for item in folder.iterdir():
        if item.is_dir():
            names.extend(f"{item.name}/{name}" for name in _tree(item))
        elif item.is_file():
            names.append(item.name)
    return sorted(names)


def _yaml(file: Traversable) -> dict:
    return yaml.safe_load(file.read_text(encoding="utf-8"))
