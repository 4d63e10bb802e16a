"""The files of a build: laid-out cards imposed on pages, or a component's pages, each
with its build-manifest entry (made here, and only here)."""

from __future__ import annotations

from dataclasses import dataclass

from deckforge.build import cache
from deckforge.build.plan import calibration_path, part_path
from deckforge.errors import Problem
from deckforge.fsutil import digest
from deckforge.layout.cards import lay_out_deck
from deckforge.layout.impose import ImpositionError, impose
from deckforge.layout.listing import card_listing
from deckforge.layout.ops import Card, Document, Page
from deckforge.manifest import Entry
from deckforge.model import Edition
from deckforge.profiles import Profile
from deckforge.units import to_mm


@dataclass(frozen=True)
class Output:
    """One file to write: where, what, and its build-manifest entry."""

    relpath: str
    document: Document
    entry: Entry


def _output(
    relpath: str,
    title: str,
    pages: list[Page],
    entry: dict,
    trim: tuple[float, float],
    bleed: float,
    profile: Profile | None = None,
) -> Output:
    """A file: its pages (in the profile's colours, if given) and its manifest entry,
    from the entry's edition, locale, profile, kind, deck and cards."""
    entry = Entry(
        path=relpath,
        pages=len(pages),
        trim_mm=(round(trim[0], 2), round(trim[1], 2)),
        bleed_mm=round(to_mm(bleed), 3),
        **entry,
    )
    colours = (
        {
            "colour": profile.colour,
            "ink_limit": profile.ink_limit,
            "pdfx": profile.pdfx,
            "output_intent": profile.output_intent,
        }
        if profile
        else {}
    )
    document = Document(tuple(pages), title, lang=entry.locale, **colours)
    return Output(relpath, document, entry)


def part_output(
    edition: Edition, profile: Profile, part, cards: list[Card] | None
) -> tuple[Output | None, list[Problem]]:
    """The file one deck (given its laid-out ``cards``) or one component (``cards`` None)
    makes under one profile, if it makes one."""
    if cards is not None:
        try:
            pages = impose(cards, profile)
        except ImpositionError as exc:
            return None, [Problem(part.ref, str(exc))]
        kind, count, trim, found = "cards", len(cards), part.size_mm, []
        bleed = profile.bleed if profile.mode == "single" else 0.0
    else:
        # Imported here: a build of cards alone never loads the components' layouts.
        from deckforge.layout.components import lay_out_component

        kind, pages, found = lay_out_component(edition, part, profile)
        if not pages:
            return None, found
        first = pages[0]
        box = first.trim_box or (0, 0, first.width, first.height)
        count, trim = 0, (to_mm(box[2] - box[0]), to_mm(box[3] - box[1]))
        bleed = profile.document_bleed
    entry = {
        "edition": edition.id,
        "locale": edition.locale,
        "profile": profile.id,
        "kind": kind,
        "deck": part.id,
        "cards": count,
    }
    if cards is not None:
        entry.update(_listing(edition, profile, part, cards))
    relpath = part_path(edition.id, profile.id, part.id)
    title = f"{edition.title} – {part.id}"
    return _output(relpath, title, pages, entry, trim, bleed, profile), found


def _listing(edition: Edition, profile: Profile, deck, cards: list[Card]) -> dict:
    """The manifest fields that name a deck's cards and tell its equal pages apart."""
    from deckforge.templates import dependencies

    # What the cards are drawn with: the tools, and the edition's own templates.
    drawn_with = cache.toolchain() + "".join(
        f";{path}={digest(path)}" for path in dependencies(edition)
    )
    listing = card_listing(edition, profile, deck, cards, drawn_with)
    return {"card_names": tuple(listing["card_names"]), "card_sides": listing.get("card_sides")}


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
    return _output(relpath, f"Duplex calibration – {profile.id}", pages, entry, trim, 0.0)


@dataclass(frozen=True)
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
