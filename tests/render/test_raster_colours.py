"""Raster outputs show the colours of the PDF they come from.

Every exported PNG, Tabletop Simulator sheet (faces, backs, the hidden-card slot) and
preview image (thumbnails and enlargements) is compared with the same PDF page rasterized
by another engine (poppler's ``pdftoppm``, see ``reference.py``), for cards of every deck
of every shipped edition: a mean absolute difference of at most ``TOLERANCE`` (of 255)
per channel after a 1 px blur. Each deck's compared cards are checked to hold a colour far
from grey, where a red/blue swap shows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from deckforge.render.raster import contact_sheet, export_png, export_tts
from reference import CHROMA, TOLERANCE, chroma, difference, poppler, trim_box

#: poppler draws the reference pages.
pytestmark = pytest.mark.engines

DPI = 50


def _card_decks(manifest: list[dict]) -> list[dict]:
    return [e for e in manifest if e["kind"] == "cards" and e["profile"] == "printer"]


DECKS = [
    "gomaneh-fa/pictures",
    "gomaneh-fa/votes",
    *(
        f"guess-the-mess-{lang}/{deck}"
        for lang in ("en", "fa")
        for deck in ("places", "mess", "which-way", "spots", "players", "blank-places")
    ),
]


def test_every_shipped_card_deck_is_compared(manifest):
    assert sorted(DECKS) == sorted(f"{e['edition']}/{e['deck']}" for e in _card_decks(manifest))


@pytest.mark.parametrize("deck", DECKS)
def test_exported_pngs_have_the_colours_of_the_pdf(built, deck, tmp_path):
    edition, name = deck.split("/")
    pdf = built / edition / "printer" / f"{name}.pdf"
    files = export_png(pdf, tmp_path / "png", dpi=DPI)
    # The first card's back and face, a face from the middle and the last card's back
    # and face (other colours in player and vote decks).
    chosen = sorted({0, 1, len(files) // 2 | 1, len(files) - 2, len(files) - 1})
    colourful = 0
    for index in chosen:
        ours = Image.open(files[index]).convert("RGB")
        reference = poppler(pdf, index, DPI, None, ours.size, tmp_path)
        colourful += chroma(reference) >= CHROMA
        found = difference(ours, reference)
        assert found <= TOLERANCE, f"{deck} {files[index].name}: {found:.1f}"
    assert colourful, f"no card compared in {deck} has a colour far from grey"


def _tts(built: Path, deck: str, tmp_path: Path) -> tuple[Path, dict, list[Path]]:
    edition, name = deck.split("/")
    pdf = built / edition / "printer" / f"{name}.pdf"
    files = export_tts(pdf, tmp_path / "tts", max_side=1024)
    saved = json.loads(files[-1].read_text(encoding="utf-8"))
    return pdf, saved["ObjectStates"][0], files


def _slot(sheet: Image.Image, custom: dict, slot: int) -> Image.Image:
    width = sheet.width // custom["NumWidth"]
    height = sheet.height // custom["NumHeight"]
    row, column = divmod(slot, custom["NumWidth"])
    return sheet.crop((column * width, row * height, (column + 1) * width, (row + 1) * height))


def _sheet(url: str) -> Image.Image:
    return Image.open(url.removeprefix("file://")).convert("RGB")


@pytest.mark.parametrize(
    "deck", ["guess-the-mess-en/places", "gomaneh-fa/votes", "guess-the-mess-fa/players"]
)
def test_tts_faces_backs_and_hidden_slot_have_the_colours_of_the_pdf(built, deck, tmp_path):
    pdf, state, _ = _tts(built, deck, tmp_path)
    custom = next(iter(state["CustomDeck"].values()))
    faces, backs = _sheet(custom["FaceURL"]), _sheet(custom["BackURL"])
    trim = trim_box(pdf)
    hidden = custom["NumWidth"] * custom["NumHeight"] - 1
    size = _slot(faces, custom, 0).size
    dpi = 72 * size[0] / (trim[2] - trim[0])
    colourful = 0
    for card in (0, 1, 2, 8):
        reference = poppler(pdf, 2 * card + 1, dpi, trim, size, tmp_path)
        colourful += chroma(reference) >= CHROMA
        assert difference(_slot(faces, custom, card), reference) <= TOLERANCE, f"face {card}"
        back = _slot(backs, custom, card) if custom["UniqueBack"] else backs
        reference = poppler(pdf, 2 * card, dpi, trim, size, tmp_path)
        assert difference(back, reference) <= TOLERANCE, f"back {card}"
    assert colourful
    # The hidden-card slot: the deck's back; in grey when the cards' backs differ.
    reference = poppler(pdf, 0, dpi, trim, size, tmp_path)
    if custom["UniqueBack"]:
        reference = reference.convert("L").convert("RGB")
    for sheet in (faces, backs) if custom["UniqueBack"] else (faces,):
        assert difference(_slot(sheet, custom, hidden), reference) <= TOLERANCE


def test_contact_sheets_have_the_colours_of_the_pdf(built, tmp_path):
    pdf = built / "guess-the-mess-en" / "printer" / "players.pdf"
    width = 90
    image = Image.open(contact_sheet(pdf, tmp_path / "sheet.png", "face", 8, width)).convert("RGB")
    trim = trim_box(pdf)
    height = round(width * (trim[3] - trim[1]) / (trim[2] - trim[0]))
    gap = max(2, width // 30)
    dpi = 72 * width / (trim[2] - trim[0])
    # Card 1 (first colour) and card 9 (second colour), in the first column of rows 1 and 2.
    for card in (0, 8):
        row, column = divmod(card, 8)
        x, y = gap + column * (width + gap), gap + row * (height + gap)
        ours = image.crop((x, y, x + width, y + height))
        reference = poppler(pdf, 2 * card + 1, dpi, trim, (width, height), tmp_path)
        assert chroma(reference) >= CHROMA
        assert difference(ours, reference) <= TOLERANCE, f"card {card + 1}"


@pytest.mark.parametrize("deck", DECKS)
def test_preview_thumbnails_and_enlargements_have_the_colours_of_the_pdf(
    built, preview, deck, tmp_path
):
    edition, name = deck.split("/")
    pdf = built / edition / "printer" / f"{name}.pdf"
    folder = preview / edition / name
    trim = trim_box(pdf)
    faces = sorted(folder.glob("face-*.jpg"))
    last = len(faces) - 1
    colourful = 0
    for side, number, page in (("face", 0, 1), ("face", last, 2 * last + 1), ("back", 0, 0)):
        stem = faces[number].stem if side == "face" else "back-1"
        for suffix in (".jpg", "-small.png"):
            ours = Image.open(folder / f"{stem}{suffix}").convert("RGB")
            dpi = 72 * ours.width / (trim[2] - trim[0])
            reference = poppler(pdf, page, dpi, trim, ours.size, tmp_path)
            colourful += chroma(reference) >= CHROMA
            found = difference(ours, reference)
            assert found <= TOLERANCE, f"{deck} {stem}{suffix}: {found:.1f}"
    assert colourful
