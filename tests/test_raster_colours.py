"""Raster outputs show the colours of the PDF they come from.

Every exported PNG, Tabletop Simulator sheet and preview image is compared with the
same PDF page rasterized by another engine (poppler's ``pdftoppm``), for cards of every
deck of every shipped edition. Both images are softened by a Gaussian blur of 1 px first,
since two engines anti-alias edges differently; the tolerance is then a mean absolute
difference of at most ``TOLERANCE`` (of 255) per channel. Measured at 50 dpi: 0.4–2.8 for the same
page; red and blue swapped gave 10–146, and each deck's compared cards are checked to hold
a colour far from grey, where a swap shows.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from deckforge.render.raster import contact_sheet, export_png, export_tts

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")

#: Mean absolute difference per channel (0–255) allowed between two engines' pixels.
TOLERANCE = 4.0
#: A card must have pixels this far from grey (max − min channel) for the test to mean much.
CHROMA = 60
DPI = 50


def _poppler(
    pdf: Path,
    page: int,
    dpi: float,
    crop: tuple[float, float, float, float] | None,
    size: tuple[int, int],
    tmp: Path,
) -> Image.Image:
    """Page ``page`` (from 0) of ``pdf`` rasterized by poppler, the whole page or the
    ``crop`` box (left, bottom, right, top in points), scaled to ``size``."""
    from pypdf import PdfReader

    out = tmp / f"ref-{page}"
    box = PdfReader(pdf).pages[page].mediabox
    scale = dpi / 72
    if crop is None:
        # The whole page onto exactly ``size`` pixels, as the export maps it.
        where = ["-scale-to-x", str(size[0]), "-scale-to-y", str(size[1])]
    else:
        where = ["-r", str(dpi)]
    args = [
        "pdftoppm",
        "-png",
        *where,
        "-f",
        str(page + 1),
        "-l",
        str(page + 1),
        "-singlefile",
        str(pdf),
        str(out),
    ]
    subprocess.run(args, check=True, capture_output=True)
    image = Image.open(f"{out}.png").convert("RGB")
    if crop is not None:
        left, bottom, right, top = crop
        image = image.crop(
            (
                round((left - float(box.left)) * scale),
                round((float(box.top) - top) * scale),
                round((right - float(box.left)) * scale),
                round((float(box.top) - bottom) * scale),
            )
        )
    return image.resize(size, Image.Resampling.BILINEAR) if image.size != size else image


def _difference(ours: Image.Image, reference: Image.Image) -> float:
    """Mean absolute difference per channel after softening both images' edges."""
    soft = ImageFilter.GaussianBlur(1)
    difference = ImageChops.difference(ours.filter(soft), reference.filter(soft))
    return sum(ImageStat.Stat(difference).mean) / 3


def _chroma(image: Image.Image) -> int:
    """How far the most colourful pixel is from grey."""
    small = image.resize((max(1, image.width // 4), max(1, image.height // 4)))
    return max(max(p) - min(p) for p in small.get_flattened_data())


def _card_decks(manifest: list[dict]) -> list[dict]:
    return [e for e in manifest if e["kind"] == "cards" and e["profile"] == "printer"]


def _decks(manifest_path: Path) -> list[str]:
    outputs = json.loads(manifest_path.read_text(encoding="utf-8"))["outputs"]
    return sorted(f"{e['edition']}/{e['deck']}" for e in _card_decks(outputs))


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
        reference = _poppler(pdf, index, DPI, None, ours.size, tmp_path)
        colourful += _chroma(reference) >= CHROMA
        difference = _difference(ours, reference)
        assert difference <= TOLERANCE, f"{deck} {files[index].name}: {difference:.1f}"
    assert colourful, f"no card compared in {deck} has a colour far from grey"


@pytest.mark.parametrize(
    "deck", ["guess-the-mess-en/places", "gomaneh-fa/votes", "guess-the-mess-fa/players"]
)
def test_tts_sheets_and_backs_have_the_colours_of_the_pdf(built, deck, tmp_path):
    from pypdf import PdfReader

    edition, name = deck.split("/")
    pdf = built / edition / "printer" / f"{name}.pdf"
    files = export_tts(pdf, tmp_path / "tts", max_side=1024)
    sheet = Image.open(files[0]).convert("RGB")
    back = Image.open(files[-1]).convert("RGB")
    width, height = back.size
    trim = tuple(float(v) for v in PdfReader(pdf).pages[0].trimbox)
    dpi = 72 * width / (trim[2] - trim[0])
    colourful = 0
    for slot in (0, 1, 2):
        ours = sheet.crop((slot * width, 0, (slot + 1) * width, height))
        reference = _poppler(pdf, 2 * slot + 1, dpi, trim, (width, height), tmp_path)
        colourful += _chroma(reference) >= CHROMA
        assert _difference(ours, reference) <= TOLERANCE, f"{deck} slot {slot}"
    assert colourful
    reference = _poppler(pdf, 0, dpi, trim, (width, height), tmp_path)
    assert _difference(back, reference) <= TOLERANCE, f"{deck} back"


def test_contact_sheets_have_the_colours_of_the_pdf(built, tmp_path):
    from pypdf import PdfReader

    pdf = built / "guess-the-mess-en" / "printer" / "players.pdf"
    width = 90
    image = Image.open(contact_sheet(pdf, tmp_path / "sheet.png", "face", 8, width)).convert("RGB")
    trim = tuple(float(v) for v in PdfReader(pdf).pages[0].trimbox)
    height = round(width * (trim[3] - trim[1]) / (trim[2] - trim[0]))
    gap = max(2, width // 30)
    dpi = 72 * width / (trim[2] - trim[0])
    # Card 1 (first colour) and card 9 (second colour), in the first column of rows 1 and 2.
    for card in (0, 8):
        row, column = divmod(card, 8)
        x, y = gap + column * (width + gap), gap + row * (height + gap)
        ours = image.crop((x, y, x + width, y + height))
        reference = _poppler(pdf, 2 * card + 1, dpi, trim, (width, height), tmp_path)
        assert _chroma(reference) >= CHROMA
        assert _difference(ours, reference) <= TOLERANCE, f"card {card + 1}"
