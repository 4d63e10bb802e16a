"""The kinds of decks and components an edition holds, one module each.

A kind module defines the record of its cards (or of its component) and ``KIND``, an
instance of :class:`DeckKind` or :class:`ComponentKind` that says everything the stages
need to know of the kind: the schema its sources are checked against, the rules no
schema can say, how the cards or the component are built from a validated source, the
templates its cards are drawn from (:class:`Look`), what players call each card, and
what lint advises on. The registry finds every module of this package that has a
``KIND``, so a new kind is a new module here, named after the kind (``score-pad`` in
``score_pad.py``: a kind is looked up by name in its module alone), and its schema in
``sources/schemas/``.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from deckforge.art import icons
from deckforge.errors import Problem, SourceRef
from deckforge.model import Art, Component, Deck, Edition, Text
from deckforge.sources.load import LoadedEdition
from deckforge.sources.rules import art_fields, text_in
from deckforge.sources.source import Source

if TYPE_CHECKING:
    from deckforge.kinds.cards import Value

#: A sort of kind: of deck or of component.
K = TypeVar("K", bound="Kind")


@dataclass(frozen=True, eq=False)
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

    def texts(self, source: Source, path: tuple, key: str) -> list[Text]:
        """:meth:`text` of ``key`` in each entry of the list at ``path``, their places
        found in one pass over the list (a deck's every card has a name)."""
        entries = source.data
        for part in path:
            entries = entries[part]
        values = [entry[key] for entry in entries]
        inner = [(key, self.locale) if isinstance(v, dict) else (key,) for v in values]
        refs = source.each_ref(path, inner)
        texts = []
        for value, ref in zip(values, refs, strict=True):
            found = text_in(value, self.locale)
            assert found is not None, "every text has the edition's language"
            texts.append(Text(found, ref))
        return texts

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


@dataclass(frozen=True, eq=False)
class Rows:
    """Cards that are rows of data (a CSV or XLSX file, or a list in a deck's YAML): the
    values each template binds are checked against what it needs before anything is
    drawn, so a field no row has is an error naming both places."""

    #: Each card's values by field name, each with its place (``value`` and ``ref``).
    rows: Sequence[Mapping[str, Value]]
    #: The fields the data names (a spreadsheet's header; every key the cards use).
    fields: tuple[str, ...]
    #: Where the fields are named: the header row, or the list of cards.
    ref: SourceRef
    #: The data as problems name it: ``cards.csv``, ``roles.yaml``.
    display: str
    #: Whether the fields are a spreadsheet's columns (else keys in YAML).
    columns: bool
    #: The folder art paths in the data are relative to.
    folder: Path


@dataclass(frozen=True, eq=False)
class Look:
    """How a deck's cards are drawn: the face template, the back template (one for the
    deck, one per card where backs differ, or none), and, for cards that are rows of
    data, the data to check against the templates."""

    #: The face template ('' when there is nothing to draw: data that could not be read).
    face: str
    back: str | tuple[str | None, ...] | None
    data: Rows | None = None
    #: The folder of the deck's file, whose ``templates/`` is looked in after the
    #: edition's own (a deck file of one game that another edition prints).
    folder: Path | None = None
    #: Where each template is named, for problems with it (else the deck's entry).
    named: Mapping[str, SourceRef] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """Every template it draws with, each once."""
        backs = (self.back,) if isinstance(self.back, str) else self.back or ()
        return tuple(dict.fromkeys((self.face, *(back for back in backs if back is not None))))


@dataclass(frozen=True, eq=False)
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

    def inputs(self, source: Source, root: Path) -> list[Path]:
        """The files and folders besides the source, inside the project ``root``, that its
        outputs depend on (a change to any of them is a change to the edition): by
        default the art it names."""
        return [source.path.parent / value for _, value, _ in self.art(source.data)]

    def drawn_only(self, source: Source) -> set[Path]:
        """The :meth:`inputs` that shape only how the cards are drawn, not what they are
        (templates): a change to them leaves the model as it was. None by default."""
        return set()


@dataclass(frozen=True, eq=False)
class DeckKind(Kind):
    """A kind of deck: its sources make cards."""

    #: Whether its cards have a ``name`` players must take in at a glance (lint advises).
    named: bool = False
    #: The list of a source whose entries are its cards, one each, if there is one.
    entries: str = ""
    #: The templates its faces and backs are drawn from, unless :meth:`look` says.
    face: str = ""
    back: str = ""

    def count(self, source: Source, checked: Checked) -> int:
        """How many cards a schema-valid source makes: by default one per entry."""
        return len(source.data[self.entries])

    def art(self, data: dict) -> list[tuple[tuple, str, bool]]:
        """The art files its entries name."""
        return art_fields(data, self.entries) if self.entries else []

    def cards(self, source: Source, reader: Reader) -> list:
        """The cards of a validated source, in order."""
        raise NotImplementedError

    def advice(self, edition: Edition) -> Iterator[Problem]:
        """Lint's advice on how the edition's decks of this kind play together with others."""
        return iter(())

    def look(self, deck: Deck) -> Look:
        """The templates a deck's cards are drawn from: by default the kind's own."""
        return Look(self.face, self.back)

    def card_name(self, card: Any, locale: str) -> str:
        """What players call a card, in the edition's language (Tabletop Simulator shows
        it, the build manifest lists it): by default its ``name``, else its id."""
        name = getattr(card, "name", None)
        return name.value if isinstance(name, Text) else str(getattr(card, "id", ""))

    def card_source(self, card: Any) -> SourceRef | None:
        """Where a card is written (the build manifest lists it, the live preview shows
        it): by default where its ``name`` is, else its first value (a row of data)."""
        name = getattr(card, "name", None)
        if isinstance(name, Text):
            return name.ref
        values = getattr(card, "values", None)
        if isinstance(values, Mapping):
            return next((v.ref for v in values.values() if isinstance(v, Text)), None)
        return None

    def card_art(self, card: Any) -> tuple[Path, ...]:
        """The picture files a card draws (a new picture at the same path is a change)."""
        art = getattr(card, "art", None)
        return (art.path,) if isinstance(art, Art) else ()


class ComponentKind(Kind):
    """A kind of component: a score pad, a rulebook, a board."""

    def component(self, id: str, source: Source, reader: Reader) -> Component:
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


class _ByName(Mapping[str, K]):
    """The kinds of one sort by name, in the order they are listed. A kind is in the
    module named after it (``score-pad`` in ``score_pad.py``): looking one up imports
    that module alone, so that a build imports the kinds its editions use."""

    def __init__(self, sort: type[K]):
        self._sort = sort

    @cached_property
    def _every(self) -> dict[str, K]:
        return {k.name: k for k in _registry() if isinstance(k, self._sort)}

    def __getitem__(self, name: str) -> K:
        module = name.replace("-", "_") if isinstance(name, str) else ""
        if module.isidentifier() and any((Path(p) / f"{module}.py").is_file() for p in __path__):
            kind = getattr(importlib.import_module(f"{__name__}.{module}"), "KIND", None)
            if isinstance(kind, self._sort) and kind.name == name:
                return kind
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._every)

    def __len__(self) -> int:
        return len(self._every)


@cache
def deck_kinds() -> Mapping[str, DeckKind]:
    """Every kind of deck, by name, in the order they are listed."""
    return _ByName(DeckKind)


@cache
def component_kinds() -> Mapping[str, ComponentKind]:
    """Every kind of component, by name, in the order they are listed."""
    return _ByName(ComponentKind)


def kind_named(name: str | None) -> Kind | None:
    """The kind of deck or component sources call ``name``, if there is one."""
    if not isinstance(name, str):
        return None
    return deck_kinds().get(name) or component_kinds().get(name)
