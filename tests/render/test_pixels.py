"""Rasterized pages: duplex backs land behind their faces, bleed is painted, marks stay clear."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from deckforge.drawing.ops import hex_colour
from deckforge.layout.impose import EDGE_CLEAR, MARK_OFFSET, grid_for
from deckforge.profiles import all_profiles
from deckforge.units import mm

EN = "guess-the-mess-en"
FA = "guess-the-mess-fa"
SCALE = 100 / 72  # 100 dpi


def _raster(path, index):
    pdf = pdfium.PdfDocument(path)
    try:
        return pdf[index].render(scale=SCALE).to_pil().convert("RGB")
    finally:
        pdf.close()


def _pixel(image, x_pt, y_pt):
    """The colour at a point given in PDF coordinates (origin lower left)."""
    return image.getpixel((int(x_pt * SCALE), int(image.height - y_pt * SCALE)))


def _close(rgb, hex_value, tolerance=40):
    want = [round(c * 255) for c in hex_colour(hex_value)]
    return all(abs(a - b) <= tolerance for a, b in zip(rgb, want, strict=True))


@pytest.mark.parametrize("profile", ["pnp-a4", "pnp-letter"])
@pytest.mark.parametrize("edition", [EN, FA])
def test_each_back_lands_behind_its_face_on_long_edge_duplex(built, profile, edition):
    path = built / edition / profile / "players.pdf"
    grid = grid_for(all_profiles()[profile], mm(63.5), mm(88.9))
    faces, backs = _raster(path, 0), _raster(path, 1)
    # Cards 1–8 are orange, the ninth is the first sky-blue card: bottom right, or bottom
    # left on a right-to-left sheet, whose rows run from the right.
    for index, colour in ((0, "#E69F00"), (8, "#56B4E9")):
        row, col = divmod(index, grid.cols)
        if edition == FA:
            col = grid.cols - 1 - col
        fx, fy = grid.cell(row, col)
        bx, by = grid.cell(row, grid.cols - 1 - col)
        # The coloured border of a player card, just inside its trim.
        assert _close(_pixel(faces, fx + 4, fy + 4), colour)
        assert _close(_pixel(backs, bx + 4, by + 4), colour)
        # Long-edge flip: the back sits at the mirrored column, same row.
        assert bx == pytest.approx(grid.page_w - fx - grid.card_w)


@pytest.mark.parametrize("profile", ["pnp-a4", "pnp-letter"])
def test_crop_marks_are_drawn_and_stay_off_the_paper_edge(built, profile):
    image = _raster(built / EN / profile / "places.pdf", 0)
    width, height = image.size
    clear = int(EDGE_CLEAR * SCALE) - 1
    for x in range(width):
        for y in list(range(clear)) + list(range(height - clear, height)):
            assert min(image.getpixel((x, y))) > 200, (x, y)
    grid = grid_for(all_profiles()[profile], mm(63.5), mm(88.9))
    left, bottom = grid.cell(grid.rows - 1, 0)
    mark = _pixel(image, left, bottom - MARK_OFFSET - mm(0.6))
    assert max(mark) < 128, "a crop mark below the first cut line"


def test_printer_faces_paint_the_bleed(built):
    image = _raster(built / EN / "printer" / "places.pdf", 1)  # the first card's face
    for x, y in ((2, 2), (image.width - 3, 2), (2, image.height - 3)):
        assert min(image.getpixel((x, y))) < 245, "bleed must carry the card's background"
