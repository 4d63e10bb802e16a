"""The files of a build: laid-out cards imposed on pages, or a component's pages, each
with its build-manifest entry (made here, and only here)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any

from deckforge.drawing.ops import Card, Document, Page
from deckforge.errors import Problem
from deckforge.fsutil import digest
from deckforge.layout.cards import lay_out_deck
from deckforge.layout.impose import ImpositionError, imposed
from deckforge.layout.listing import Listing
from deckforge.manifest import Entry
from deckforge.model import Edition
from deckforge.pipeline import cache
from deckforge.pipeline.plan import calibration_path, part_path
from deckforge.profiles import Profile
from deckforge.text.script import is_rtl_locale
from deckforge.units import to_mm


@dataclass(frozen=True, eq=False)
class Output:
    """One file to write: where, what, and its build-manifest entry."""

    relpath: str
    document: Document
    entry: Entry
    #: The listing of a deck whose pages are made as they are drawn (their cards laid
    #: out as they are imposed): its cards are known once every page has been drawn.
    listing: Listing | None = None

    def drawn(self) -> Entry:
        """The manifest entry, once the document's pages have all been drawn."""
        if self.listing is None:
            return self.entry
        return replace(self.entry, **_fields(self.listing))


def _output(
    relpath: str,
    title: str,
    pages: tuple[Page, ...] | Iterator[Page],
    about: dict,
    trim: tuple[float, float],
    bleed: float,
    profile: Profile | None = None,
    count: int | None = None,
) -> Output:
    """A file: its pages (in the profile's colours, if given; ``count`` of them when they
    are made as they are drawn) and its manifest entry, from ``about``: the edition, locale,
    profile, kind, deck and cards."""
    entry = Entry(
        path=relpath,
        pages=len(pages) if count is None else count,  # type: ignore[arg-type]
        trim_mm=(round(trim[0], 2), round(trim[1], 2)),
        bleed_mm=round(to_mm(bleed), 3),
        **about,
    )
    colours: dict[str, Any] = (
        {
            "colour": profile.colour,
            "ink_limit": profile.ink_limit,
            "rich_black": profile.rich_black,
            "pdfx": profile.pdfx,
            "output_intent": profile.output_intent,
        }
        if profile
        else {}
    )
    # Pages made as they are drawn are of cards, whose texts templates never tag.
    tagged = None if count is None else False
    document = Document(pages, title, lang=entry.locale, tagged=tagged, **colours)
    return Output(relpath, document, entry)


def part_output(
    edition: Edition,
    profile: Profile,
    part,
    cards: Iterable[Card] | None,
    count: int | None = None,
) -> tuple[Output | None, list[Problem]]:
    """The file one deck (given its laid-out ``cards``) or one component (``cards`` None)
    makes under one profile, if it makes one. Given the ``count`` of a deck's cards,
    ``cards`` may be laid out as they are taken: the file's pages are then made as they
    are drawn, one sheet at a time, and its entry is complete once they all have been
    (:meth:`Output.drawn`)."""
    listing = None
    if cards is not None:
        streamed = count is not None
        listing = Listing(edition, profile, part, _drawn_with(edition))
        total = len(cards) if count is None else count  # type: ignore[arg-type]
        # The size the deck prints at is its first card's: the deck's own, else its
        # templates'.
        taken = iter(cards)
        first = next(taken, None)
        cards = taken if first is None else chain((first,), taken)
        try:
            rtl = is_rtl_locale(edition.locale)
            number, made = imposed(listing.watch(cards), total, profile, rtl)
        except ImpositionError as exc:
            return None, [Problem(part.ref, str(exc))]
        pages: tuple[Page, ...] | Iterator[Page] = made if streamed else tuple(made)
        kind = "cards"
        found: list[Problem] = []
        trim = part.size_mm or (0.0, 0.0)
        if first is not None:
            trim = (to_mm(first.width), to_mm(first.height))
        bleed = profile.bleed if profile.mode == "single" else 0.0
    else:
        # Imported here: a build of cards alone never loads the components' layouts.
        from deckforge.layout.components import lay_out_component

        kind, laid, found = lay_out_component(edition, part, profile)
        if not laid:
            return None, found
        pages, total, number, streamed = tuple(laid), 0, len(laid), False
        page = laid[0]
        box = page.trim_box or (0, 0, page.width, page.height)
        trim = (to_mm(box[2] - box[0]), to_mm(box[3] - box[1]))
        bleed = profile.document_bleed
    entry = {
        "edition": edition.id,
        "locale": edition.locale,
        "profile": profile.id,
        "kind": kind,
        "deck": part.id,
        "cards": total,
    }
    if listing is not None:
        entry.update(_fields(listing))
        shape = first.outline if first is not None else None
        if shape is not None:
            entry["shape"] = shape_name(shape)
    relpath = part_path(edition.id, profile.id, part.id)
    title = f"{edition.title} – {part.id}"
    output = _output(
        relpath, title, pages, entry, trim, bleed, profile, number if streamed else None
    )
    return (replace(output, listing=listing) if streamed else output), found


def shape_name(outline) -> str:
    """A cut shape as the manifest names it: circle, hexagon-pointy, rect-3mm."""
    if outline.kind == "hexagon":
        return f"hexagon-{outline.orientation}"
    if outline.kind == "rect":
        return f"rect-{round(to_mm(outline.radius), 2):g}mm"
    return outline.kind


def card_listing_of(edition: Edition, profile: Profile, deck) -> Listing:
    """The listing a deck's file is made with under ``profile``: what tells which of its
    cards' drawings changed, from their models alone."""
    return Listing(edition, profile, deck, _drawn_with(edition))


def _drawn_with(edition: Edition) -> str:
    """What a deck's cards are drawn with: the tools, and the edition's own templates."""
    from deckforge.templates import dependencies

    return cache.toolchain() + "".join(f";{path}={digest(path)}" for path in dependencies(edition))


def _fields(listing: Listing) -> dict:
    """The manifest fields that name a deck's cards and tell its equal pages apart."""
    found = listing.fields()
    return {
        "card_names": tuple(found["card_names"]),
        "card_sources": tuple(found["card_sources"]),
        "face_template": found["face_template"] or None,
        "face_elements": tuple(found["face_elements"]) or None,
        "card_sides": found.get("card_sides"),
    }


def outputs_for(laid: LaidOut, profile: Profile) -> tuple[list[Output], list[Problem]]:
    """The files one edition makes under one profile."""
    edition = laid.edition
    outputs: list[Output] = []
    problems: list[Problem] = []
    parts = [(deck, laid.cards[deck.id]) for deck in edition.decks]
    for part, cards in [*parts, *((component, None) for component in edition.components)]:
        output, found = part_output(edition, profile, part, cards)
        problems.extend(found)
        outputs.extend([output] if output else [])
    return outputs, problems


def calibration_output(profile: Profile) -> Output:
    """The duplex calibration sheet of a profile that prints backs on their own sheet."""
    from deckforge.layout.calibration import calibration_pages

    pages = calibration_pages(profile)
    entry = {
        "edition": "calibration",
        "locale": "en",
        "profile": profile.id,
        "kind": "calibration",
        "deck": "calibration",
        "cards": 0,
    }
    trim = (to_mm(pages[0].width), to_mm(pages[0].height))
    relpath = calibration_path(profile.id)
    title = f"Duplex calibration – {profile.id}"
    return _output(relpath, title, tuple(pages), entry, trim, 0.0)


@dataclass(frozen=True, eq=False)
class LaidOut:
    """An edition's cards per deck (the same under every profile)."""

    edition: Edition
    cards: dict[str, list[Card]]


def lay_out(edition: Edition) -> tuple[LaidOut, list[Problem]]:
    """Every card of every deck (the same under every profile)."""
    cards: dict[str, list[Card]] = {}
    problems: list[Problem] = []
    for deck in edition.decks:
        laid, found = lay_out_deck(edition, deck)
        cards[deck.id] = laid
        problems.extend(found)
    return LaidOut(edition, cards), problems
