"""Preflight: a clean build passes; files broken on purpose fail, each for its reason."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from deckforge import preflight as pf
from deckforge.cli import main
from deckforge.errors import DeckforgeError
from deckforge.preflight import CHECKS, Report, format_table, pdfobjects, preflight, preflight_file
from deckforge.preflight.interpret import Interpreter
from deckforge.preflight.measure import char_bbox, char_size
from deckforge.text import fonts
from deckforge.units import MM

MINIMAL = Path(__file__).parents[1] / "data" / "minimal"
BLEED_MM = 3.175
POKER_MM = (63.5, 88.9)
INCH = 72.0


@pytest.fixture(scope="module")
def minimal_build(tmp_path_factory) -> Path:
    """The minimal edition built with every profile."""
    root = tmp_path_factory.mktemp("preflight")
    decks = root / "decks" / "minimal"
    shutil.copytree(MINIMAL, decks)
    out = root / "out"
    assert main(["--decks", str(decks.parent), "build", "--out", str(out), "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def minimal_reports(minimal_build) -> dict[str, Report]:
    """Its preflight reports, by path."""
    return {report.path: report for report in preflight(minimal_build)}


def _latin() -> str:
    """deckforge's embedded text face, so broken files fail only for what they break."""
    return fonts.face("latin").name


def _entry(
    path: str,
    profile: str = "printer",
    kind: str = "cards",
    trim: tuple[float, float] = POKER_MM,
    bleed: float = BLEED_MM,
) -> dict:
    return {
        "path": path,
        "edition": "test",
        "locale": "en",
        "profile": profile,
        "kind": kind,
        "deck": "test",
        "cards": 1,
        "pages": 1,
        "trim_mm": list(trim),
        "bleed_mm": bleed,
    }


def _printer_card(
    path: Path,
    pages: list[Callable[[canvas.Canvas], None]],
    trim_mm: tuple[float, float] = POKER_MM,
    trim_box: bool = True,
    bleed_mm: float = BLEED_MM,
) -> Path:
    """A one-card-per-page file as the printer profile makes them: trim plus bleed."""
    b = bleed_mm * MM
    w, h = trim_mm[0] * MM, trim_mm[1] * MM
    c = canvas.Canvas(str(path), pagesize=(w + 2 * b, h + 2 * b), initialFontName=_latin())
    for draw in pages:
        if trim_box:
            c.setTrimBox((b, b, b + w, b + h))
        c.setBleedBox((0, 0, w + 2 * b, h + 2 * b))
        draw(c)
        c.showPage()
    c.save()
    return path


def _sheet(path: Path, draw: Callable[[canvas.Canvas], None], initial_font: str = "") -> Path:
    """An A4 sheet drawn by ``draw``."""
    c = canvas.Canvas(
        str(path), pagesize=(210 * MM, 297 * MM), initialFontName=initial_font or _latin()
    )
    draw(c)
    c.showPage()
    c.save()
    return path


def _text(x: float, y: float, text: str, size: float = 10.0):
    def draw(c: canvas.Canvas) -> None:
        c.setFont(_latin(), size)
        c.drawString(x, y, text)

    return draw


def _centred_card_text(c: canvas.Canvas) -> None:
    c.setFont(_latin(), 10)
    c.drawString(25 * MM, 45 * MM, "Kitchen")


# --- a real build ---------------------------------------------------------------------------


def test_every_output_of_a_clean_build_passes(minimal_build, minimal_reports):
    listed = json.loads((minimal_build / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    assert sorted(minimal_reports) == sorted(e["path"] for e in listed)
    edition = list(minimal_reports.values())  # the edition's files and the calibration sheets
    assert {r.profile for r in edition} >= {"pnp-a4", "pnp-letter", "printer"}
    for report in edition:
        assert not report.failed, format_table([report])
        assert tuple(c.name for c in report.checks) == CHECKS
        # No images in this edition: nothing to warn about either.
        assert {c.status for c in report.checks} <= {"ok", "n/a"}, report
        if report.profile == "printer-cmyk":
            assert report.check("colour") == pf.Check("colour", "ok", "DeviceCMYK only")
            assert report.check("ink").status == "ok"
        elif report.profile == "printer":
            assert report.check("colour").status == "n/a"
            assert "rendered through the output intent" in report.check("ink").detail
        else:
            assert report.check("colour").status == report.check("ink").status == "n/a"
        promised = report.profile.startswith("printer")
        for name in ("pdf/x", "output intent", "pdf/x colour"):
            assert report.check(name).status == ("ok" if promised else "n/a"), report


def test_printer_details_name_what_was_measured(minimal_reports):
    report = minimal_reports["minimal-en/printer/places.pdf"]
    assert report.check("boxes").detail == (
        "6 pages: TrimBox 63.5 × 88.9 mm, BleedBox 3.175 mm beyond it"
    )
    assert report.check("fonts").detail == "1 font, all embedded"
    assert report.check("safe area").status == "ok"
    assert report.check("colour").status == "n/a"
    assert "DeviceRGB" in report.check("colour").detail
    assert report.check("ink").status == "ok"
    assert report.check("pdf/x").detail == "PDF/X-4: version 1.6, Info and XMP agree"
    assert report.check("output intent").detail == "FOGRA39, profile embedded"
    assert report.check("pdf/x colour").detail == "RGB tagged as sRGB"
    assert report.check("images").detail == "no images"
    assert report.check("small text").detail.startswith("smallest ")
    mess = minimal_reports["minimal-en/printer/mess.pdf"]
    assert "TrimBox 44.0 × 68.0 mm" in mess.check("boxes").detail


def test_sheets_report_their_paper(minimal_reports):
    a4 = minimal_reports["minimal-en/pnp-a4/places.pdf"]
    letter = minimal_reports["minimal-en/pnp-letter/places.pdf"]
    assert a4.check("boxes").detail == "A4 210.0 × 297.0 mm"
    assert letter.check("boxes").detail == "Letter 215.9 × 279.4 mm"
    assert a4.check("safe area").status == "n/a"


def test_measured_chars_agree_with_pdfplumber(minimal_build):
    """Preflight interprets content itself (pdfminer re-reads every form on every page,
    far too slowly); its char boxes and sizes must be pdfplumber's."""
    path = minimal_build / "minimal-en" / "printer" / "places.pdf"
    reader = PdfReader(path)
    interpreter = Interpreter(reader)
    compared = 0
    with pdfplumber.open(path) as pdf:
        for index, (page, plumbed) in enumerate(zip(reader.pages, pdf.pages, strict=True)):
            height = float(page.mediabox.top)
            mine = interpreter.page(page, index).chars
            assert len(mine) == len(plumbed.chars)
            for (glyph, width, descent, text, _), char in zip(mine, plumbed.chars, strict=True):
                x0, y0, x1, y1 = char_bbox(glyph, width, descent)
                assert text == char["text"]
                assert (x0, x1) == pytest.approx((char["x0"], char["x1"]), abs=1e-6)
                assert (height - y1, height - y0) == pytest.approx(
                    (char["top"], char["bottom"]), abs=1e-6
                )
                assert char_size(glyph) == pytest.approx(char["size"], abs=1e-6)
                compared += 1
    assert compared > 20


# --- files broken on purpose ----------------------------------------------------------------


def test_unembedded_helvetica_fails_fonts(tmp_path):
    def draw(c: canvas.Canvas) -> None:
        c.setFont("Helvetica", 12)
        c.drawString(72, 700, "Not embedded")

    pdf = _sheet(tmp_path / "helvetica.pdf", draw, initial_font="Helvetica")
    report = preflight_file(pdf, _entry("helvetica.pdf", "pnp-a4", bleed=0.0))
    fonts_check = report.check("fonts")
    assert fonts_check.status == "fail"
    assert fonts_check.detail == "not embedded: Helvetica (first used on page 1)"
    assert report.failed


def test_unembedded_font_inside_a_form_fails_fonts(tmp_path):
    def draw(c: canvas.Canvas) -> None:
        c.beginForm("Back", 0, 0, 200, 200)
        c.setFont("Courier", 12)
        c.drawString(10, 10, "In a form")
        c.endForm()
        c.doForm("Back")

    report = preflight_file(_sheet(tmp_path / "form.pdf", draw), _entry("form.pdf", "pnp-a4"))
    assert report.check("fonts").status == "fail"
    assert "Courier" in report.check("fonts").detail


def test_printer_card_without_trimbox_fails_boxes(tmp_path):
    pdf = _printer_card(tmp_path / "notrim.pdf", [_centred_card_text], trim_box=False)
    report = preflight_file(pdf, _entry("notrim.pdf"))
    assert report.check("boxes").status == "fail"
    assert report.check("boxes").detail == "page 1: no TrimBox"
    assert report.check("fonts").status == "ok"


def test_trimbox_of_the_wrong_size_fails_boxes(tmp_path):
    pdf = _printer_card(tmp_path / "bridge.pdf", [_centred_card_text], trim_mm=(57.15, 88.9))
    report = preflight_file(pdf, _entry("bridge.pdf", trim=POKER_MM))
    assert report.check("boxes").status == "fail"
    assert report.check("boxes").detail == (
        "page 1: TrimBox 57.1 × 88.9 mm, expected 63.5 × 88.9 mm"
    )


def test_bleedbox_must_be_the_trim_grown_by_the_bleed(tmp_path):
    # A rulebook page: any trim size goes, but its bleed must match the manifest.
    pdf = _printer_card(tmp_path / "rules.pdf", [_centred_card_text], (148.0, 210.0), bleed_mm=2.0)
    good = preflight_file(pdf, _entry("rules.pdf", kind="rulebook", trim=(1, 1), bleed=2.0))
    assert good.check("boxes").status == "ok"
    assert good.check("safe area").status == "n/a"
    bad = preflight_file(pdf, _entry("rules.pdf", kind="rulebook", bleed=BLEED_MM))
    assert bad.check("boxes").status == "fail"
    assert "grown by 3.175 mm" in bad.check("boxes").detail


def test_text_at_five_points_fails_small_text(tmp_path):
    pdf = _printer_card(
        tmp_path / "tiny.pdf", [_centred_card_text, _text(25 * MM, 40 * MM, "tiny", 5.0)]
    )
    report = preflight_file(pdf, _entry("tiny.pdf"))
    small = report.check("small text")
    assert small.status == "fail"
    assert small.detail == "page 2: 5.0 pt text 'tiny', below 6 pt"


def test_text_shrunk_by_a_form_and_the_ctm_fails_small_text(tmp_path):
    # 12 pt inside a form, drawn at 40 %: 4.8 pt on paper.
    def draw(c: canvas.Canvas) -> None:
        c.beginForm("Label", 0, 0, 300, 100)
        c.setFont(_latin(), 12)
        c.drawString(0, 0, "shrunk")
        c.endForm()
        c.saveState()
        c.translate(100, 100)
        c.scale(0.4, 0.4)
        c.doForm("Label")
        c.restoreState()

    report = preflight_file(_sheet(tmp_path / "shrunk.pdf", draw), _entry("shrunk.pdf", "pnp-a4"))
    assert report.check("small text").status == "fail"
    assert "4.8 pt text 'shrunk'" in report.check("small text").detail


def test_rotated_text_keeps_its_size(tmp_path):
    def draw(c: canvas.Canvas) -> None:
        c.saveState()
        c.translate(300, 300)
        c.rotate(90)
        c.setFont(_latin(), 8)
        c.drawString(0, 0, "iiii")
        c.restoreState()

    report = preflight_file(_sheet(tmp_path / "rot.pdf", draw), _entry("rot.pdf", "pnp-a4"))
    assert report.check("small text").status == "ok"
    assert report.check("small text").detail == "smallest 8.0 pt"


def test_text_outside_the_safe_area_fails(tmp_path):
    near_edge = _text((BLEED_MM + 1.0) * MM, 45 * MM, "Edge")
    pdf = _printer_card(tmp_path / "edge.pdf", [_centred_card_text, near_edge])
    report = preflight_file(pdf, _entry("edge.pdf"))
    safe = report.check("safe area")
    assert safe.status == "fail"
    # Only the chars within 3.175 mm of the trim are quoted: "ge" is far enough in.
    assert safe.detail == ("page 2: text 'Ed' reaches 1.0 mm inside the trim, closer than 3.175 mm")
    assert report.check("boxes").status == "ok"


def test_text_just_inside_the_safe_area_passes(tmp_path):
    inside = _text((2 * BLEED_MM + 0.05) * MM, 45 * MM, "Inside")
    report = preflight_file(_printer_card(tmp_path / "in.pdf", [inside]), _entry("in.pdf"))
    assert report.check("safe area").status == "ok"


def test_rgb_fails_colour_under_a_cmyk_profile(tmp_path):
    def draw(c: canvas.Canvas) -> None:
        c.setFillColorRGB(1, 0, 0)
        c.rect(20, 20, 100, 100, fill=1, stroke=0)

    pdf = _printer_card(tmp_path / "rgb.pdf", [draw])
    report = preflight_file(pdf, _entry("rgb.pdf", "printer-cmyk"))
    assert report.check("colour").status == "fail"
    assert report.check("colour").detail == "page 1: rg operator"
    # The same file is fine for a profile that does not ask for CMYK.
    plain = preflight_file(pdf, _entry("rgb.pdf", "pnp-a4"))
    assert plain.check("colour") == pf.Check("colour", "n/a", "DeviceRGB")
    assert not plain.failed
    # PDF/X-4 takes RGB only with a profile: bare DeviceRGB fails.
    shop = preflight_file(pdf, _entry("rgb.pdf", "printer"))
    assert shop.check("colour").status == "n/a"
    assert shop.check("pdf/x colour").status == "fail"
    assert shop.check("pdf/x colour").detail == "page 1: rg operator without a profile"


def test_rgb_image_fails_colour_under_a_cmyk_profile(tmp_path):
    def draw(c: canvas.Canvas) -> None:
        c.setFillColorCMYK(0, 0, 0, 1)
        c.drawImage(ImageReader(Image.new("RGB", (400, 400), "red")), 20, 20, INCH, INCH)

    pdf = _printer_card(tmp_path / "rgbimage.pdf", [draw])
    report = preflight_file(pdf, _entry("rgbimage.pdf", "printer-cmyk"))
    assert report.check("colour").status == "fail"
    assert report.check("colour").detail == "page 1: DeviceRGB image of 400 × 400 px"


def test_cmyk_at_300_percent_fails_ink(tmp_path):
    def draw(c: canvas.Canvas) -> None:
        c.setFillColorCMYK(0.2, 0.2, 0.2, 0.2)
        c.rect(10, 10, 50, 50, fill=1, stroke=0)
        c.setFillColorCMYK(1, 1, 1, 0)
        c.rect(20, 20, 100, 100, fill=1, stroke=0)

    pdf = _printer_card(tmp_path / "ink.pdf", [_centred_card_text, draw])
    report = preflight_file(pdf, _entry("ink.pdf", "printer-cmyk"))
    assert report.check("ink").status == "fail"
    assert report.check("ink").detail == "page 2: a colour of 300 % total ink (limit 240 %)"
    # The text sets no colour (black by default): nothing but CMYK is named.
    assert report.check("colour") == pf.Check("colour", "ok", "DeviceCMYK only")
    relaxed = preflight_file(pdf, _entry("ink.pdf", "printer-cmyk"), ink_limit=320)
    assert relaxed.check("ink") == pf.Check(
        "ink", "ok", "at most 300 % total ink by colour (limit 320 %)"
    )
    assert preflight_file(pdf, _entry("ink.pdf", "pnp-a4")).check("ink").status == "n/a"


def test_cmyk_image_pixels_count_towards_ink(tmp_path):
    picture = Image.new("CMYK", (300, 300), (0, 0, 0, 0))
    picture.putpixel((150, 150), (255, 255, 255, 51))  # one pixel of 320 %

    def draw(c: canvas.Canvas) -> None:
        c.drawImage(ImageReader(picture), 20, 20, INCH, INCH)

    pdf = _printer_card(tmp_path / "inkimage.pdf", [draw])
    report = preflight_file(pdf, _entry("inkimage.pdf", "printer-cmyk"))
    assert report.check("ink").status == "fail"
    assert report.check("ink").detail == (
        "page 1: an image of 300 × 300 px of 320 % total ink (limit 240 %)"
    )
    assert report.check("images").status == "ok"


def _image_card(
    tmp_path: Path, name: str, pixels: int, drawn_in: float = 1.0, profile: str = "pnp-a4"
) -> Report:
    def draw(c: canvas.Canvas) -> None:
        picture = Image.new("RGB", (pixels, pixels), "white")
        c.drawImage(ImageReader(picture), 20, 20, drawn_in * INCH, drawn_in * INCH)

    pdf = _printer_card(tmp_path / name, [draw])
    return preflight_file(pdf, _entry(name, profile))


def test_image_at_100_dpi_fails(tmp_path):
    report = _image_card(tmp_path, "low.pdf", 100)
    images = report.check("images")
    assert images.status == "fail"
    assert images.detail == "page 1: image of 100 × 100 px at 100 dpi, below 150 dpi"


def test_image_at_200_dpi_warns(tmp_path):
    report = _image_card(tmp_path, "mid.pdf", 200)
    images = report.check("images")
    assert images.status == "warning"
    assert images.detail == "page 1: image of 200 × 200 px at 200 dpi, below 300 dpi"
    assert not report.failed


def test_image_at_200_dpi_fails_for_a_print_shop(tmp_path):
    images = _image_card(tmp_path, "shop.pdf", 200, profile="printer").check("images")
    assert images.status == "fail"
    assert images.detail == "page 1: image of 200 × 200 px at 200 dpi, below 300 dpi"
    assert images.advice == "use art with more pixels, or draw it smaller"


def test_image_at_300_dpi_passes(tmp_path):
    report = _image_card(tmp_path, "high.pdf", 450, drawn_in=1.5)
    assert report.check("images") == pf.Check("images", "ok", "1 drawn, lowest 300 dpi")


def test_image_resolution_follows_form_matrix_and_ctm(tmp_path):
    # 100 px drawn one inch wide inside a form, the form drawn at half size: 200 dpi.
    def draw(c: canvas.Canvas) -> None:
        c.beginForm("Art", 0, 0, 100, 100)
        c.drawImage(ImageReader(Image.new("RGB", (100, 100), "white")), 0, 0, INCH, INCH)
        c.endForm()
        c.saveState()
        c.scale(0.5, 0.5)
        c.doForm("Art")
        c.restoreState()

    report = preflight_file(_sheet(tmp_path / "art.pdf", draw), _entry("art.pdf", "pnp-a4"))
    assert report.check("images").status == "warning"
    assert "at 200 dpi" in report.check("images").detail


# --- files that cannot be checked -----------------------------------------------------------


def test_corrupt_pdf_is_a_failed_report(tmp_path):
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not a PDF at all\n")
    report = preflight_file(tmp_path / "broken.pdf", _entry("broken.pdf"))
    assert report.failed
    assert [c.name for c in report.checks] == ["file"]
    assert report.check("file").detail.startswith("not a readable PDF")


def test_missing_manifest_is_a_deckforge_error(tmp_path):
    with pytest.raises(DeckforgeError, match="no build manifest"):
        preflight(tmp_path)


def test_missing_listed_file_is_a_deckforge_error(tmp_path):
    manifest = {"outputs": [_entry("test/printer/gone.pdf")]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(DeckforgeError, match="test/printer/gone.pdf"):
        preflight(tmp_path)
    with pytest.raises(DeckforgeError, match="no such file"):
        preflight_file(tmp_path / "gone.pdf", _entry("gone.pdf"))


def test_manifest_that_is_not_json_is_a_deckforge_error(tmp_path):
    (tmp_path / "manifest.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(DeckforgeError, match="not a deckforge build manifest"):
        preflight(tmp_path)


# --- the table ------------------------------------------------------------------------------


def test_table_has_a_row_per_output_and_names_failures(tmp_path, minimal_build):
    out = tmp_path / "out"
    shutil.copytree(minimal_build / "minimal-en" / "printer", out / "minimal-en" / "printer")
    _printer_card(out / "tiny.pdf", [_text(25 * MM, 40 * MM, "tiny", 5.0)])
    _image_card(out, "mid.pdf", 200)
    names = " ".join(CHECKS)
    built = json.loads((minimal_build / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    entries = [e for e in built if e["path"].startswith("minimal-en/printer/")]
    entries += [_entry("tiny.pdf", "pnp-a4"), _entry("mid.pdf", "pnp-a4")]
    (out / "manifest.json").write_text(json.dumps({"outputs": entries}), encoding="utf-8")

    reports = preflight(out)
    assert len(reports) == 6
    lines = format_table(reports).splitlines()
    assert lines[0].split() == ["file", *names.split()]
    rows = lines[2 : 2 + len(reports)]
    assert lines[2 + len(reports)] == ""
    for entry in entries:
        assert sum(line.startswith(entry["path"] + " ") for line in rows) == 1
    (tiny_row,) = (line for line in rows if line.startswith("tiny.pdf "))
    statuses = dict(zip(CHECKS, tiny_row.split()[1:], strict=True))
    assert statuses["small text"] == "FAIL"
    assert [k for k, v in statuses.items() if v not in ("ok", "n/a")] == ["small text"]
    (places_row,) = (line for line in rows if line.startswith("minimal-en/printer/places.pdf"))
    assert set(places_row.split()[1:]) <= {"ok", "n/a"}
    details = lines[3 + len(reports) : -2]
    assert details == [
        "tiny.pdf: small text: FAIL: page 1: 5.0 pt text 'tiny', below 6 pt"
        " — set it at 6 pt or more",
        "mid.pdf: images: warning: page 1: image of 200 × 200 px at 200 dpi, below 300 dpi"
        " — use art with more pixels, or draw it smaller",
    ]
    assert lines[-1] == "6 outputs: 1 failed, 1 with warnings"


def test_table_of_an_unreadable_file_shows_the_reason(tmp_path):
    (tmp_path / "broken.pdf").write_bytes(b"garbage")
    report = preflight_file(tmp_path / "broken.pdf", _entry("broken.pdf"))
    table = format_table([report])
    assert "broken.pdf: file: FAIL: not a readable PDF" in table
    assert table.splitlines()[0].split()[-1] == "file"


# --- speed ----------------------------------------------------------------------------------


def test_forms_are_read_once_and_a_thousand_pages_take_seconds(tmp_path, monkeypatch):
    path = tmp_path / "thousand.pdf"
    b = BLEED_MM * MM
    w, h = POKER_MM[0] * MM, POKER_MM[1] * MM
    c = canvas.Canvas(str(path), pagesize=(w + 2 * b, h + 2 * b), initialFontName=_latin())
    for number in range(1000):
        c.setTrimBox((b, b, b + w, b + h))
        c.setBleedBox((0, 0, w + 2 * b, h + 2 * b))
        if number == 0:
            c.beginForm("Back", 0, 0, w, h)
            for i in range(200):  # a busy card back
                c.circle(20 + i % 10 * 12, 20 + i // 10 * 12, 4, fill=1)
            c.setFont(_latin(), 14)
            c.drawString(60, 120, "Back")
            c.endForm()
        c.doForm("Back")
        c.setFont(_latin(), 10)
        c.drawString(30 * MM, 40 * MM, f"Card {number + 1}")
        c.showPage()
    c.save()

    parsed = []
    tokenize = pdfobjects.operations

    def counting(stream, handled):
        parsed.append(stream)
        return tokenize(stream, handled)

    monkeypatch.setattr(pdfobjects, "operations", counting)
    start = time.perf_counter()
    report = preflight_file(path, _entry("thousand.pdf", "pnp-a4"))
    elapsed = time.perf_counter() - start
    assert not report.failed, format_table([report])
    assert report.check("boxes").detail.startswith("1000 pages: ")
    assert len(parsed) == 1000 + 1  # every page, and the form once
    assert elapsed < 15, f"{elapsed:.1f} s for 1,000 pages"


def test_the_preflight_command_passes_a_build_and_fails_a_broken_file(
    minimal_build, tmp_path, capsys
):
    from deckforge.cli import main

    out = tmp_path / "build"
    shutil.copytree(minimal_build, out)
    assert main(["preflight", "--out", str(out)]) == 0
    assert "minimal-en/printer/places.pdf" in capsys.readouterr().out
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    target = next(e for e in manifest["outputs"] if e["path"] == "minimal-en/printer/places.pdf")
    (out / target["path"]).write_bytes(b"%PDF-1.4\nthis is not a PDF\n")
    assert main(["preflight", "--out", str(out)]) == 1
    assert "not a readable PDF" in capsys.readouterr().out
