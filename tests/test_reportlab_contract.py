"""The contract with ReportLab's private API that deckforge.rl (rl/pdf.py, rl/faces.py) relies on.

A ReportLab release that renames or reshapes one of these fails here first, naming
what moved, instead of somewhere inside a build.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from reportlab.graphics import renderPDF, shapes
from reportlab.pdfbase import pdfdoc, ttfonts
from reportlab.pdfgen import canvas as rl_canvas

from deckforge.rl import pdf as adapter
from deckforge.text import fonts

SRC = Path(__file__).resolve().parents[1] / "src" / "deckforge"


@pytest.fixture()
def drawn(tmp_path):
    """A canvas with a form in use on a finished page."""
    c = rl_canvas.Canvas(str(tmp_path / "contract.pdf"), invariant=1)
    c.beginForm("Back", 0, 0, 10, 10)
    c.rect(0, 0, 5, 5, fill=1)
    c.endForm()
    c.doForm("Back")
    return c


def test_every_attribute_the_adapter_names_exists(drawn):
    doc = drawn._doc
    owners = {
        "Canvas": drawn,
        "PDFDocument": doc,
        "PDFCatalog": doc.Catalog,
        "PDFInfo": doc.info,
        "shapes": shapes,
        "renderPDF": renderPDF,
    }
    for owner, names in adapter.RELIED_ON.items():
        if owner not in owners:
            continue
        for name in names:
            assert hasattr(owners[owner], name), f"ReportLab's {owner} has no {name}"
    drawn.showPage()
    page = doc.Pages.pages[-1]
    for name in adapter.RELIED_ON["PDFPage"]:
        assert hasattr(page, name), f"ReportLab's PDFPage has no {name}"
    form = doc.idToObject[pdfdoc.xObjectName("Back")]
    for name in adapter.RELIED_ON["PDFFormXObject"]:
        assert hasattr(form, name), f"ReportLab's PDFFormXObject has no {name}"
    font = ttfonts.TTFont("Contract", str(fonts.face("latin").path))
    font.splitString("a", doc)
    stream = pdfdoc.PDFStream(content="")
    owners = {
        "TTFont": font,
        "TTFont.State": font.state[doc],
        "TTFontFace": font.face,
        "ttfonts": ttfonts,
        "PDFStream": stream,
    }
    for owner, value in owners.items():
        for name in adapter.RELIED_ON[owner]:
            assert hasattr(value, name), f"ReportLab's {owner} has no {name}"


def test_the_shapes_the_adapter_relies_on(drawn):
    # Drawing appends operator strings to a list that replaces itself per page and form.
    assert isinstance(adapter.code(drawn), list)
    before = len(adapter.code(drawn))
    drawn.rect(0, 0, 1, 1)
    assert len(adapter.code(drawn)) > before
    assert adapter.xobject_name(drawn, "Back") == pdfdoc.xObjectName("Back").lstrip("/")
    assert isinstance(drawn._formsinuse, list)
    assert isinstance(shapes.STATE_DEFAULTS, dict) and "fontName" in shapes.STATE_DEFAULTS
    assert isinstance(pdfdoc.PDFCatalog.__NoDefault__, list)
    assert len(drawn._doc._timeStamp.YMDhms) == 6
    assert tuple(drawn._doc._pdfVersion) >= (1, 3)


def test_a_page_written_out_early_keeps_its_forms(tmp_path):
    path = tmp_path / "early.pdf"
    c = rl_canvas.Canvas(str(path), invariant=1)
    c.beginForm("Back", 0, 0, 10, 10)
    c.rect(0, 0, 5, 5, fill=1)
    c.endForm()
    shared: dict = {}
    for _ in range(2):
        c.doForm("Back")
        c.showPage()
        adapter.write_out_last_page(c, shared, None)
    c.save()
    import pikepdf

    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) == 2
        assert pdf.pages[0].Resources.objgen == pdf.pages[1].Resources.objgen
        assert "/XObject" in pdf.pages[0].Resources


def test_private_reportlab_names_appear_in_the_adapter_only():
    private = {
        "_code",
        "_doc",
        "_formsinuse",
        "idToObject",
        "STATE_DEFAULTS",
        "_pdfVersion",
        "_timeStamp",
        "__NoDefault__",
        "_full_font",
        "_pdfScale",
        "_asciiReadable",
        "extractInfo",
    }
    found = []
    for path in SRC.rglob("*.py"):
        if path.parent.name == "rl":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node, "attr", None) or getattr(node, "id", None)
            if name in private:
                found.append(f"{path.relative_to(SRC)}:{node.lineno}: {name}")
            if isinstance(node, ast.ImportFrom) and any(a.name in private for a in node.names):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}: import")
    assert found == []


def test_a_reading_font_writes_what_each_character_reads_as(tmp_path):
    # ReportLab maps each code of a subset to the character drawn; the reading font maps
    # it to what that character stands for (here: every "a" reads as "b").
    path = tmp_path / "reading.pdf"
    latin = fonts.face("latin")
    font = adapter.reading_font(latin.name, str(latin.path), _a_as_b)
    c = rl_canvas.Canvas(str(path), invariant=1)
    doc = adapter.document(c)
    code = [
        f"BT 1 0 0 1 10 10 Tm {font.getSubsetInternalName(subset, doc)} 12 Tf ({chars}) Tj ET"
        for subset, chars in font.splitString("ac", doc)
    ]
    adapter.code(c).extend(code)
    c.showPage()
    c.save()
    import pikepdf

    with pikepdf.open(path) as pdf:
        fonts_used = pdf.pages[0].Resources.Font.values()
        (cmap,) = [f.ToUnicode.read_bytes().decode() for f in fonts_used if "/ToUnicode" in f]
    assert "<0062>" in cmap and "<0061>" not in cmap and "<0063>" in cmap


def _a_as_b(code: int) -> str:
    return "b" if chr(code) == "a" else chr(code)
