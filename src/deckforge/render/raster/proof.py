"""Proofs: which cards of a build differ from an earlier build's, shown old beside new.

Two builds' printer-profile card files are compared deck by deck. Cards are matched by
their ids (the manifest's ``card_sides``; by name where an older build has none), and a
card counts as changed when its face or back looks different: pages whose drawings have
the same digest are equal, and any other pair is drawn and compared pixel by pixel, so a
new version of deckforge that writes the same picture in other bytes changes nothing.
The proof is a page (``index.html``) and a PDF (``proof.pdf``) of every added, removed
and changed card, with the changed area marked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from deckforge.fsutil import replacing, write_atomic
from deckforge.render.raster.pdfread import Deck, opened, pixels, read_deck, render, side_page

#: How wide each card is drawn to be compared and shown, in pixels.
WIDTH = 300
#: A pixel differs when a channel moves by more than this (anti-aliasing moves less).
CHANNEL = 24
#: The mark drawn around a changed area.
MARK = (230, 0, 60)
SIDES = ("face", "back")
#: What can have happened to a card, in the order a proof lists them.
STATES = ("changed", "added", "removed")


@dataclass(frozen=True)
class CardProof:
    """One card that is not the same in both builds."""

    key: tuple[str, int]
    name: str
    #: 'added', 'removed' or 'changed'
    state: str
    #: The sides that differ, with the changed area of each (pixels of the new image).
    areas: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    old: int | None = None
    new: int | None = None


@dataclass(frozen=True, eq=False)
class DeckProof:
    """What differs in one deck, and how many cards are the same."""

    edition: str
    deck: str
    cards: list[CardProof]
    unchanged: int
    old: Deck | None
    new: Deck | None


def _keys(deck: Deck, entry: dict) -> list[tuple[str, int]]:
    """Each card's id (its name where the build records none), with how many cards
    before it have the same one: copies of a card are matched in order."""
    ids = (entry.get("card_sides") or {}).get("ids")
    names = ids if isinstance(ids, list) and len(ids) == deck.cards else deck.names
    seen: Counter[str] = Counter()
    keys = []
    for name in names:
        keys.append((str(name), seen[str(name)]))
        seen[str(name)] += 1
    return keys


def _decks(build: Path, editions: Iterable[str] | None) -> dict[tuple[str, str], tuple]:
    from deckforge.render.raster.pdfread import manifest_entries

    chosen = set(editions or ())
    found: dict[tuple[str, str], tuple] = {}
    if not (build / "manifest.json").is_file():
        return found  # nothing was built: every card of the other build is new
    for entry in manifest_entries(build):
        if entry.get("profile") != "printer" or entry.get("kind") != "cards":
            continue
        if chosen and entry.get("edition") not in chosen:
            continue
        deck = read_deck(build / entry["path"], entry)
        found[(entry["edition"], entry["deck"])] = (deck, _keys(deck, entry))
    return found


def draw(deck: Deck, card: int, side: str) -> Image.Image:
    """A card side at its trim, :data:`WIDTH` pixels wide."""
    trim_w, trim_h = deck.geometry.trim_size
    with opened(deck.pdf, die_line=False) as document:
        return render(
            document,
            side_page(card, side),
            deck.geometry.trim,
            (WIDTH, pixels(WIDTH * trim_h / trim_w)),
        )


def _digest(deck: Deck, card: int, side: str) -> str:
    return deck.faces[card] if side == "face" else deck.backs[deck.back_of[card]]


def changed_area(old: Image.Image, new: Image.Image) -> tuple[int, int, int, int] | None:
    """The box around the pixels that differ (in the new image's pixels), or None."""
    if old.size != new.size:
        return (0, 0, *new.size)
    moved = ImageChops.difference(old, new).convert("L").point(lambda v: 255 if v > CHANNEL else 0)
    return moved.getbbox()


def _compare(old: Deck, o: int, new: Deck, n: int) -> dict[str, tuple[int, int, int, int]]:
    areas = {}
    for side in SIDES:
        if _digest(old, o, side) == _digest(new, n, side):
            continue  # the same drawing
        area = changed_area(draw(old, o, side), draw(new, n, side))
        if area is not None:
            areas[side] = area
    return areas


def compare(
    old_build: Path, new_build: Path, editions: Iterable[str] | None = None
) -> list[DeckProof]:
    """Every printer-profile card deck of either build, with what differs."""
    editions = list(editions) if editions else None
    before, after = _decks(old_build, editions), _decks(new_build, editions)
    proofs = []
    for name in sorted(set(before) | set(after)):
        old, old_keys = before.get(name, (None, []))
        new, new_keys = after.get(name, (None, []))
        old_at = {key: i for i, key in enumerate(old_keys)}
        cards, unchanged = [], 0
        for n, key in enumerate(new_keys):
            o = old_at.pop(key, None)
            label = new.names[n]
            if o is None:
                cards.append(CardProof(key, label, "added", new=n))
                continue
            areas = _compare(old, o, new, n)
            if areas:
                cards.append(CardProof(key, label, "changed", areas, old=o, new=n))
            else:
                unchanged += 1
        for key, o in sorted(old_at.items(), key=lambda item: item[1]):
            cards.append(CardProof(key, old.names[o], "removed", old=o))
        proofs.append(DeckProof(name[0], name[1], cards, unchanged, old, new))
    return proofs


def _marked(image: Image.Image, area: tuple[int, int, int, int] | None) -> Image.Image:
    if area is None:
        return image
    marked = image.copy()
    left, top, right, bottom = area
    pad = 3
    box = (max(0, left - pad), max(0, top - pad), min(image.width, right + pad) - 1,
           min(image.height, bottom + pad) - 1)  # fmt: skip
    ImageDraw.Draw(marked).rectangle(box, outline=MARK, width=3)
    return marked


def _pictures(proof: DeckProof, card: CardProof) -> dict[str, Image.Image]:
    """The card's old and new face (or, if only its back changed, back), marked."""
    side = "face" if card.state != "changed" or "face" in card.areas else "back"
    found = {}
    if card.old is not None and proof.old is not None:
        found["old"] = _marked(draw(proof.old, card.old, side), card.areas.get(side))
    if card.new is not None and proof.new is not None:
        found["new"] = _marked(draw(proof.new, card.new, side), card.areas.get(side))
    return found


def write(proofs: list[DeckProof], folder: Path, against: str) -> list[Path]:
    """``index.html``, ``proof.pdf`` and their images in ``folder`` for one edition's
    decks; the paths written."""
    import jinja2

    from deckforge.render.raster.preview import TEMPLATES

    images = folder / "img"
    written, decks, pages = [], [], []
    for proof in proofs:
        rows = []
        for index, card in enumerate(proof.cards):
            shown = {}
            for which, picture in _pictures(proof, card).items():
                target = images / f"{proof.deck}-{index + 1:03d}-{which}.png"
                with replacing(target) as temp:
                    picture.save(temp, format="PNG")
                shown[which] = f"img/{target.name}"
                written.append(target)
            rows.append({"card": card, "images": shown, "sides": sorted(card.areas)})
            pages.append(_pdf_page(proof, card))
        decks.append({"proof": proof, "rows": rows})
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
        undefined=jinja2.StrictUndefined,
    )  # fmt: skip
    page = environment.get_template("proof.html").render(decks=decks, against=against)
    written.append(write_atomic(folder / "index.html", page))
    pdf = folder / "proof.pdf"
    with replacing(pdf) as temp:
        pages = pages or [_blank_page()]
        pages[0].save(temp, format="PDF", save_all=True, append_images=pages[1:], resolution=100)
    written.append(pdf)
    return written


def _pdf_page(proof: DeckProof, card: CardProof) -> Image.Image:
    """A page of the PDF: the card's old image beside its new one, state above."""
    from PIL import ImageFont

    pictures = _pictures(proof, card)
    height = max(p.height for p in pictures.values())
    page = Image.new("RGB", (2 * WIDTH + 90, height + 90), "white")
    font = ImageFont.load_default(16)  # the labels are ids and states: ASCII
    pen = ImageDraw.Draw(page)
    sides = f" ({', '.join(sorted(card.areas))})" if card.areas else ""
    pen.text((30, 20), f"{proof.deck}: {card.key[0]}  {card.state}{sides}", fill="black", font=font)
    for which, x in (("old", 30), ("new", 60 + WIDTH)):
        if which in pictures:
            page.paste(pictures[which], (x, 60))
        else:
            pen.rectangle((x, 60, x + WIDTH - 1, 60 + height - 1), outline=(180, 180, 180))
    return page


def _blank_page() -> Image.Image:
    return Image.new("RGB", (2 * WIDTH + 90, 200), "white")
