"""The model: an edition's decks and components as frozen records.

Built only from validated sources (:func:`deckforge.kinds.edition.build_edition`), with
every text already resolved to the edition's language and carrying its source place.
The cards and components are each kind's own records (:mod:`deckforge.kinds`); what
is here is what every kind shares.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from deckforge.errors import SourceRef, pickled_quickly


@pickled_quickly
@dataclass(frozen=True, slots=True)
class Text:
    """A text in the edition's language and where it was written."""

    value: str
    ref: SourceRef


@pickled_quickly
@dataclass(frozen=True, slots=True)
class Art:
    """A user's picture file for a card, and where the source names it."""

    path: Path
    ref: SourceRef


@pickled_quickly
@dataclass(frozen=True, slots=True)
class Deck:
    """A deck as printed: its cards, the trim size its entry gives (a trade name and its
    millimetres, turned as its entry says; "" and None: its templates' size) and back
    wording."""

    id: str
    kind: str
    size_name: str
    size_mm: tuple[float, float] | None
    cards: tuple[Card, ...]
    back_label: Text | None
    ref: SourceRef


@dataclass(frozen=True, slots=True)
class Palette:
    """The edition's colours."""

    ink: str = "#1D1D2C"
    paper: str = "#FFFDF7"
    accent: str = "#E4572E"
    accent_dark: str = "#7A2414"


@dataclass(frozen=True, slots=True)
class Edition:
    """An edition of a game in one language."""

    id: str
    game: str
    title: str
    locale: str
    players: tuple[int, int]
    palette: Palette
    decks: tuple[Deck, ...]
    components: tuple[Component, ...]
    folder: Path
    sources: tuple[Path, ...]
    #: Every file (and art folder) the edition's outputs depend on, with the digest of
    #: its content as read for this build.
    inputs: dict[Path, str] = field(default_factory=dict)
    #: The project folder: every file the edition's sources name must stay inside it.
    root: Path | None = None
    #: By deck id, a digest of everything the deck's model was built from besides
    #: deckforge's code (the bytes of its source, of the edition's manifest and of the
    #: files its kind reads, and where they are): equal digests, equal models.
    made_of: dict[str, str] = field(default_factory=dict, compare=False)


class Card(Protocol):
    """What the card of every kind has: an id, unique within its deck."""

    @property
    def id(self) -> str: ...


class Component(Protocol):
    """What every component has: an id, unique within its edition."""

    @property
    def id(self) -> str: ...
