"""Serve's quick round: the cards whose drawing changed, drawn from a file of just them.

A save that changes a few cards of decks already built is shown without building their
decks' files again: the sources are modelled, each card's drawing digest (the one the
build manifest records) tells which cards changed, a printer-profile file of only those
cards is built into a scratch folder (as a reprint is), and the preview draws their
images from it. Anything else (cards added, removed or moved, a changed back, many
cards, no earlier build) is left to the full round, which builds the decks' files.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from deckforge.errors import BuildFailed, errors_only
from deckforge.pipeline.outputs import card_listing_of
from deckforge.pipeline.plan import part_path
from deckforge.pipeline.recipe import build, gather
from deckforge.profiles import select_profiles
from deckforge.render.raster.pdfread import Deck, read_deck, side_page
from deckforge.sources.load import Project, select_editions

#: More changed cards than this go to the full round: its parallel build is then sooner.
MOST_CARDS = 24


@dataclass
class Quick:
    """What a quick round found: each card file's deck as the sources are now (by the
    file's path), and where the changed faces are drawn from."""

    current: dict[str, Deck] = field(default_factory=dict)
    redraw: dict[str, tuple[str, int]] = field(default_factory=dict)
    cards: int = 0


def quick_round(
    project: Project,
    out_dir: Path,
    scratch: Path,
    editions: list[str] | None,
    known: dict[str, tuple[Deck, tuple]],
) -> Quick | None:
    """The quick round for the sources as they are now against ``known`` (the card files
    as last shown), or None when only the full round can show them."""
    models, problems = gather(project, select_editions(project, editions))
    if errors_only(problems) or not models:
        return None
    profile = select_profiles(["printer"])[0]
    found = Quick()
    only: dict[str, dict[str, list[str]]] = {}
    numbers: dict[str, list[int]] = {}
    for edition in models:
        for deck in edition.decks:
            pdf = str(Path(out_dir) / part_path(edition.id, profile.id, deck.id))
            if pdf not in known:
                return None
            shown, ids = known[pdf]
            if tuple(str(card.id) for card in deck.cards) != ids:
                return None
            listing = card_listing_of(edition, profile, deck)
            faces = tuple(listing.face_digest(card) for card in deck.cards)
            described = [listing.describe(card) for card in deck.cards]
            names = tuple(name for name, _ in described)
            sources = tuple(where for _, where in described)
            changed = [n for n, face in enumerate(faces) if face != shown.faces[n]]
            if changed:
                only.setdefault(edition.id, {})[deck.id] = [ids[n] for n in changed]
                numbers[pdf] = changed
                found.cards += len(changed)
            found.current[pdf] = replace(
                shown,
                names=names,
                sources=sources,
                faces=faces,
                template=listing.template or "",
                elements=tuple(listing.elements),
            )
    if found.cards > MOST_CARDS:
        return None
    if only:
        try:
            build(project, scratch, list(only), [profile.id], only=only, modelled=models)
        except BuildFailed:
            return None  # the full round reports why
        for edition_id, decks in only.items():
            for deck_id in decks:
                pdf = str(Path(out_dir) / part_path(edition_id, profile.id, deck_id))
                small = Path(scratch) / part_path(edition_id, profile.id, deck_id)
                if not _drawn_from(small, known[pdf][0], numbers[pdf], found):
                    return None
    return found


def _drawn_from(small: Path, shown: Deck, numbers: list[int], found: Quick) -> bool:
    """Record the pages of ``small`` (the file of the cards ``numbers`` of ``shown``, in
    order) the faces are drawn from; False when a card's back is not the one shown or its
    face not the one expected (a full round draws them)."""
    cards = read_deck(small)
    if cards.cards != len(numbers):
        return False
    current = found.current[str(shown.pdf)]
    for page, number in enumerate(numbers):
        old_back = shown.backs[shown.back_of[number]]
        if cards.backs[cards.back_of[page]] != old_back:
            return False
        if cards.faces[page] != current.faces[number]:
            return False
        found.redraw[cards.faces[page]] = (str(small), side_page(page, "face"))
    return True
