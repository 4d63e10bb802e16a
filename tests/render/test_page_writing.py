"""Pages are written out directly, not through ReportLab's general formatter: the files
are byte for byte those ReportLab writes, for every kind of page deckforge makes."""

from __future__ import annotations

import pytest

from deckforge.drawing.ops import Document, Face, Page, Placement, Rect, Tag, Text, Use
from deckforge.render import pdf
from deckforge.render.pdf import pdfx
from deckforge.rl import pdf as adapter
from deckforge.text import fonts
from deckforge.text.fit import TextStyle, fit

SHARED = Face((Rect(0, 0, 180, 252, fill=(0.9, 0.9, 1.0)),), key="test/shared")


def _name(number: int, tag: Tag | None = None) -> Text:
    fitted = fit(f"Card number {number}", 160, 60, TextStyle(18, 9, fonts.BOLD), "en")
    return Text(10, 100, 160, fitted, tag=tag)


def _pages(tagged: bool) -> tuple[Page, ...]:
    """Sheets of cards with crop marks, single cards with trim and bleed boxes, and
    (tagged) pages whose texts are in the structure tree."""
    pages = []
    for number in range(12):
        tag = Tag((("P", number),)) if tagged else None
        face = Face((Use(SHARED), _name(number, tag)))
        placements = tuple(
            Placement(face, 20 + 190 * i, 300, (20 + 190 * i, 300, 180, 252)) for i in range(3)
        )
        pages.append(Page(595, 842, placements))
        single = Placement(face, 9, 9, (0, 0, 198, 270))
        pages.append(Page(198, 270, (single,), (), (9, 9, 189, 261), (0, 0, 198, 270)))
    return tuple(pages)


@pytest.mark.parametrize(
    ("tagged", "colour", "standard"),
    [
        (False, "rgb", None),
        (True, "rgb", None),
        (False, "cmyk", pdfx.X4),
        (False, "cmyk", pdfx.X1A),
    ],
)
def test_pages_written_directly_are_those_reportlab_writes(
    tmp_path, monkeypatch, tagged, colour, standard
):
    document = Document(_pages(tagged), "pages", colour=colour, pdfx=standard)
    written, direct_page = [], adapter._direct_page

    def spying(page, doc):
        found = direct_page(page, doc)
        written.append(found)
        return found

    monkeypatch.setattr(adapter, "_direct_page", spying)
    pdf.render(document, tmp_path / "direct.pdf")
    assert len(written) == len(document.pages) and None not in written
    monkeypatch.setattr(adapter, "_direct_page", lambda page, doc: None)
    monkeypatch.setattr(adapter, "_direct_stream", lambda stream: None)
    pdf.render(document, tmp_path / "reportlab.pdf")
    direct = (tmp_path / "direct.pdf").read_bytes()
    assert direct == (tmp_path / "reportlab.pdf").read_bytes()
    # Each page's dictionary, as written directly, is in the file ReportLab wrote.
    assert all(direct.count(page + b"\nendobj") == 1 for page in written)


def test_text_is_split_into_subsets_as_reportlab_splits_it(tmp_path):
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen import canvas as rl_canvas

    doc = adapter.document(rl_canvas.Canvas(str(tmp_path / "split.pdf")))
    font = pdfmetrics.getFont(fonts.face("latin").name)
    # Over 256 characters, so that codes run into a second subset.
    many = "".join(chr(c) for c in range(0x20, 0x250) if chr(c).isprintable())
    texts = ["Place number 12", "Place\u00a0number", "", "Place 21", many, many[::-1], "Place"]
    for text in texts:
        # The first time a character is seen ReportLab gives it its code; after that,
        # the same text comes out the same.
        assert adapter.split_string(font, text, doc) == font.splitString(text, doc), text
    assert len({subset for subset, _ in font.splitString(many, doc)}) > 1
