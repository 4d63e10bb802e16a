"""PNG files of every card side, for print-on-demand shops, and contact sheets for authors."""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image

from deckforge.errors import DeckforgeError
from deckforge.fsutil import write_atomic
from deckforge.render.raster.pdfread import (
    SIDES,
    Deck,
    opened,
    page_pixels,
    pixels,
    read_deck,
    render,
    side_page,
)
from deckforge.render.raster.work import ImageJob, Plan, Slot, carry_out, encode_png

#: Behind the cards of a contact sheet: light enough to print, dark enough to show white edges.
SHEET_BACKGROUND = (208, 208, 208)
#: The PNG files of one export; others in the folder are left alone.
PNG_FILES = r"\d{3,}-(back|face)\.png"


def png_name(deck: Deck, card: int, side: str) -> str:
    """``001-face.png``: the card number (from 1) padded to the deck's digits, and the side."""
    digits = max(3, len(str(deck.cards)))
    return f"{card + 1:0{digits}d}-{side}.png"


def png_plan(deck: Deck, folder: Path, dpi: int = 300, proof: tuple | None = None) -> Plan:
    """Every card side of ``deck`` as a PNG at trim + bleed in ``folder``: one job per
    distinct page, saved to every file that shows it (a deck's identical backs are drawn
    once); with ``proof`` (an output intent and ink limit), as the press prints them."""
    if dpi <= 0:
        raise DeckforgeError(f"dpi must be positive, not {dpi}")
    size = page_pixels(deck.geometry.page_size, dpi)
    plan = Plan(Path(folder), PNG_FILES)
    pdf = str(deck.pdf)
    for back in range(len(deck.backs)):
        files = tuple(
            str(plan.folder / png_name(deck, card, "back"))
            for card in range(deck.cards)
            if deck.back_of[card] == back
        )
        slot = Slot(deck.back_page(back), deck.backs[back], None, size)
        plan.jobs.append(ImageJob(pdf, size, (slot,), files, proof=proof))
    for card in range(deck.cards):
        slot = Slot(side_page(card, "face"), deck.faces[card], None, size)
        files = (str(plan.folder / png_name(deck, card, "face")),)
        plan.jobs.append(ImageJob(pdf, size, (slot,), files, proof=proof))
    return plan


def export_png(pdf: Path, out_folder: Path, dpi: int = 300, processes: int | None = None):
    """Every card side of a printer-profile card PDF as a PNG at trim + bleed.

    Files are ``001-back.png``, ``001-face.png``, ``002-back.png``, ... (825 × 1125 px for a
    poker card at 300 dpi, the size The Game Crafter takes). Returns the files in order.
    PNGs of an earlier, longer export in ``out_folder`` are removed; files already made
    from the same pages are left as they are.
    """
    deck = read_deck(pdf)
    plan = png_plan(deck, out_folder, dpi)
    carry_out([plan], processes)
    return [
        plan.folder / png_name(deck, card, side) for card in range(deck.cards) for side in SIDES
    ]


def contact_sheet(
    pdf: Path, out_png: Path, side: str = "face", columns: int = 8, card_width: int = 180
) -> Path:
    """All faces (or backs) of a printer-profile card PDF on one image, for authors to review.

    Cards are cropped to the trim, ``card_width`` px wide, in a grid of ``columns`` (fewer
    if the deck is smaller) with a thin gap around each. Returns ``out_png``.
    """
    if side not in SIDES:
        raise DeckforgeError(f"side must be 'face' or 'back', not {side!r}")
    if columns < 1 or card_width < 1:
        raise DeckforgeError("a contact sheet needs at least one column of cards 1 px wide")
    deck = read_deck(pdf)
    trim_w, trim_h = deck.geometry.trim_size
    size = (card_width, pixels(card_width * trim_h / trim_w))
    gap = max(2, card_width // 30)
    used_columns = min(columns, deck.cards)
    used_rows = math.ceil(deck.cards / used_columns)
    sheet = Image.new(
        "RGB",
        (used_columns * (size[0] + gap) + gap, used_rows * (size[1] + gap) + gap),
        SHEET_BACKGROUND,
    )
    with opened(deck.pdf, die_line=False) as document:
        for card in range(deck.cards):
            row, column = divmod(card, used_columns)
            image = render(document, side_page(card, side), deck.geometry.trim, size)
            sheet.paste(image, (gap + column * (size[0] + gap), gap + row * (size[1] + gap)))
    write_atomic(Path(out_png), encode_png(sheet))
    return Path(out_png)
