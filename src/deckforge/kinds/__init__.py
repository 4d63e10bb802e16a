"""The kinds of decks and components an edition holds, one module each.

A kind module defines the dataclass of its cards (or of its component) and ``KIND``, an
instance of :class:`DeckKind` or :class:`ComponentKind` that says everything the stages
need to know of the kind: the schema its sources are checked against, the rules no
schema can say, how the cards or the component are built from a validated source, and
what lint advises on. The registry finds every module of this package that has a
``KIND``, so a new kind is a new module here and its schema in ``sources/schemas/``.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from deckforge.art import icons
from deckforge.errors import Problem
from deckforge.model import Art, Edition, Text
from deckforge.sources.load import LoadedEdition
from deckforge.sources.rules import art_fields, text_in
from deckforge.sources.source import Source


@dataclass(frozen=True)
class Checked:
    """What the rules of one source may look at beyond it: the edition's language and
    player counts, the project folder, and every source of the edition that passed its
    schema, by deck or component id."""

    locale: str
    players: tuple[int, int]
    root: Path
    sources: dict[str, Source]

    def of_kind(self, name: str) -> list[Source]:
        """The sound sources of one kind."""
        return [s for s in self.sources.values() if s.data["kind"] == name]


class Reader:
    """What builds cards and components from validated sources: texts resolved to the
    edition's language with their places, icons resolved to OpenMoji codes, art files."""

    def __init__(self, loaded: LoadedEdition):
        self.loaded = loaded
        self.locale = loaded.manifest.data["locale"]

    def text(self, source: Source, path: tuple, value: object) -> Text:
        """A text of a source in the edition's language, with where it was written."""
        resolved = text_in(value, self.locale)
        assert resolved is not None, "validation guarantees every text has the edition's language"
        if isinstance(value, dict):
            path = (*path, self.locale)
        return Text(resolved, source.ref(path))

    @staticmethod
    def icon(entry: dict) -> str | None:
        """The OpenMoji code of an entry's icon, if it names one."""
        return icons.resolve(entry["icon"]) if "icon" in entry else None

    @staticmethod
    def art(source: Source, path: tuple, entry: dict) -> Art | None:
        """The art file an entry names, if it names one."""
        if "art" not in entry:
            return None
        return Art(source.path.parent / entry["art"], source.ref(path))


@dataclass(frozen=True)
class Kind:
    """What every kind says: its name in sources and where it is listed."""

    #: The name sources give in ``kind:``.
    name: str
    #: Where it stands when kinds are listed (messages naming every kind, the reference).
    listed: int

    @property
    def schema(self) -> str:
        """The schema its sources are checked against: ``sources/schemas/<name>.schema.json``."""
        return self.name

    def rules(self, source: Source, checked: Checked) -> Iterator[Problem]:
        """The problems of a schema-valid source that no schema can find."""
        return iter(())

    def art(self, data: dict) -> list[tuple[tuple, str, bool]]:
        """The art a source names: (data path, value, whether it is a folder)."""
        return []


@dataclass(frozen=True)
class DeckKind(Kind):
    """A kind of deck: its sources make cards."""

    #: Whether its cards have a ``name`` players must take in at a glance (lint advises).
    named: bool = False
    #: The list of a source whose entries are its cards, one each, if there is one.
    entries: str = ""

    def count(self, data: dict) -> int:
        """How many cards a schema-valid source makes: by default one per entry."""
        return len(data[self.entries])

    def art(self, data: dict) -> list[tuple[tuple, str, bool]]:
        """The art files its entries name."""
        return art_fields(data, self.entries) if self.entries else []

    def cards(self, source: Source, reader: Reader) -> list:
        """The cards of a validated source, in order."""
        raise NotImplementedError

    def advice(self, edition: Edition) -> Iterator[Problem]:
        """Lint's advice on how the edition's decks of this kind play together with others."""
        return iter(())


class ComponentKind(Kind):
    """A kind of component: a score pad, a rulebook, a board."""

    def component(self, id: str, source: Source, reader: Reader) -> object:
        """The component a validated source describes."""
        raise NotImplementedError


@cache
def _registry() -> tuple[Kind, ...]:
    found = []
    for module in pkgutil.iter_modules(__path__):
        kind = getattr(importlib.import_module(f"{__name__}.{module.name}"), "KIND", None)
        if isinstance(kind, Kind):
            found.append(kind)
    return tuple(sorted(found, key=lambda k: k.listed))


def all_kinds() -> tuple[Kind, ...]:
    """Every kind, decks first, in the order they are listed."""
    return _registry()


@cache
def deck_kinds() -> dict[str, DeckKind]:
    """Every kind of deck, by name, in the order they are listed."""
    return {k.name: k for k in _registry() if isinstance(k, DeckKind)}


@cache
def component_kinds() -> dict[str, ComponentKind]:
    """Every kind of component, by name, in the order they are listed."""
    return {k.name: k for k in _registry() if isinstance(k, ComponentKind)}


def kind_named(name: str | None) -> Kind | None:
    """The kind of deck or component sources call ``name``, if there is one."""
    return next((k for k in _registry() if k.name == name), None)
