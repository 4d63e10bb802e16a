"""The shipped editions, built and opened: counts, page boxes, fonts, text, structure."""

from __future__ import annotations

import pikepdf
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from conftest import DECKS, GUESS_THE_MESS_COUNTS, entry
from deckforge.sources.source import load_yaml
from deckforge.units import CARD_SIZES_MM, MM, PAPER_SIZES_MM

EN = "guess-the-mess-en"
PROFILES = ("pnp-a4", "pnp-letter", "printer")
BLEED_MM = 3.175


def _names(deck_file: str, list_key: str, locale: str = "en") -> list[str]:
    source, problems = load_yaml(DECKS / "guess-the-mess" / deck_file, deck_file)
    assert not problems
    return [item["name"][locale] for item in source.data[list_key]]


@pytest.mark.parametrize("profile", PROFILES)
def test_manifest_lists_every_english_deck_and_document(manifest, profile):
    for deck, count in GUESS_THE_MESS_COUNTS.items():
        e = entry(manifest, edition=EN, profile=profile, deck=deck)
        assert e["kind"] == "cards" and e["cards"] == count and e["locale"] == "en"
        assert e["path"] == f"{EN}/{profile}/{deck}.pdf"
    for kind in ("score-pad", "rulebook"):
        e = entry(manifest, edition=EN, profile=profile, kind=kind)
        assert e["pages"] >= 1


@pytest.mark.parametrize("profile", PROFILES)
def test_manifest_page_counts_match_files(built, manifest, profile):
    for e in (e for e in manifest if e["profile"] == profile):
        assert len(PdfReader(built / e["path"]).pages) == e["pages"], e["path"]


@pytest.mark.parametrize("profile,paper", [("pnp-a4", "A4"), ("pnp-letter", "Letter")])
def test_pnp_sheets_are_the_paper_size(built, manifest, profile, paper):
    w, h = (v * MM for v in PAPER_SIZES_MM[paper])
    for e in (e for e in manifest if e["profile"] == profile and e["kind"] == "cards"):
        for page in PdfReader(built / e["path"]).pages:
            size = sorted((float(page.mediabox.width), float(page.mediabox.height)))
            assert size == pytest.approx(sorted((w, h)), abs=0.01), e["path"]


def test_nine_poker_cards_per_pnp_sheet(manifest):
    for profile in ("pnp-a4", "pnp-letter"):
        e = entry(manifest, edition=EN, profile=profile, deck="places")
        assert e["pages"] == 2 * 16  # 144 cards, nine a sheet, each sheet with its backs


def test_printer_pages_have_trim_and_bleed_boxes(built, manifest):
    for e in (e for e in manifest if e["profile"] == "printer" and e["kind"] == "cards"):
        tw, th = e["trim_mm"]
        assert e["bleed_mm"] == pytest.approx(BLEED_MM)
        reader = PdfReader(built / e["path"])
        assert len(reader.pages) == 2 * e["cards"]
        for page in reader.pages:
            trim, bleed = page.trimbox, page.bleedbox
            assert float(trim.width) == pytest.approx(tw * MM, abs=0.01)
            assert float(trim.height) == pytest.approx(th * MM, abs=0.01)
            assert float(bleed.width) == pytest.approx((tw + 2 * BLEED_MM) * MM, abs=0.01)
            assert float(bleed.height) == pytest.approx((th + 2 * BLEED_MM) * MM, abs=0.01)
            assert float(trim.left) == pytest.approx(BLEED_MM * MM, abs=0.01)


def test_card_sizes_are_trade_sizes(manifest):
    sizes = {tuple(v) for v in CARD_SIZES_MM.values()}
    for e in (e for e in manifest if e["kind"] == "cards"):
        assert tuple(e["trim_mm"]) in sizes


def _fonts(resources, seen: dict) -> None:
    if resources is None:
        return
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        font = font.get_object()
        descriptor = font.get("/FontDescriptor")
        if descriptor is None and "/DescendantFonts" in font:
            descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
        embedded = descriptor is not None and any(
            k in descriptor.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3")
        )
        seen[str(font.get("/BaseFont"))] = embedded
    for xobject in (resources.get("/XObject") or {}).values():
        _fonts(xobject.get_object().get("/Resources"), seen)


def test_every_font_is_embedded_and_subset(built, manifest):
    for e in manifest:
        seen: dict[str, bool] = {}
        for page in PdfReader(built / e["path"]).pages:
            _fonts(page.get("/Resources"), seen)
        assert seen, e["path"]
        for name, embedded in seen.items():
            assert embedded, f"{name} not embedded in {e['path']}"
            assert "+" in name, f"{name} not subset in {e['path']}"


def test_qpdf_finds_no_structural_problem(built, manifest):
    for e in manifest:
        with pikepdf.open(built / e["path"]) as pdf:
            assert pdf.check_pdf_syntax() == [], e["path"]


def _page_texts(path) -> list[str]:
    pdf = pdfium.PdfDocument(path)
    try:
        return [" ".join(pdf[i].get_textpage().get_text_range().split()) for i in range(len(pdf))]
    finally:
        pdf.close()


@pytest.mark.parametrize(
    "deck,file,key", [("places", "places.yaml", "places"), ("mess", "mess.yaml", "items")]
)
def test_every_name_is_text_on_its_own_card(built, deck, file, key):
    texts = _page_texts(built / EN / "printer" / f"{deck}.pdf")
    names = _names(file, key)
    assert len(texts) == 2 * len(names)
    for index, name in enumerate(names):
        face = texts[2 * index + 1]  # back first, then face, as print shops take them
        assert " ".join(name.split()) in face, (index, name, face)


def test_rulebook_text_is_searchable(built):
    text = " ".join(_page_texts(built / EN / "pnp-a4" / "rulebook.pdf"))
    for phrase in ("Guess the Mess!", "Which Way", "Places Everyone!", "In Case of a Tie"):
        assert phrase in text


@pytest.mark.slow  # preflights all 128 shipped files
def test_preflight_passes_everything_that_is_shipped(preflighted):
    from deckforge.preflight import format_table

    reports = list(preflighted.values())
    assert len(reports) > 100
    failed = [report for report in reports if report.failed]
    assert not failed, format_table(failed)
