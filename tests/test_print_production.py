"""Print production: gutterfold sheets, duplex offset and calibration, CMYK for print shops."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from deckforge.cli import main
from deckforge.layout.impose import fold_grid_for
from deckforge.profiles import all_profiles
from deckforge.units import PAPER_SIZES_MM, mm

DATA = Path(__file__).parent / "data" / "minimal"
DPI = 200
SCALE = DPI / 72


@pytest.fixture(scope="module")
def minimal_build(tmp_path_factory) -> Path:
    """The small edition, and the same in a right-to-left locale (``minimal-fa``)."""
    root = tmp_path_factory.mktemp("print")
    shutil.copytree(DATA, root / "decks" / "minimal")
    shutil.copytree(DATA, root / "decks" / "minimal-fa")
    edition = root / "decks" / "minimal-fa" / "edition.yaml"
    text = edition.read_text(encoding="utf-8")
    text = text.replace("id: minimal-en", "id: minimal-fa").replace("locale: en", "locale: fa")
    edition.write_text(text, encoding="utf-8")
    assert (
        main(
            [
                "--decks",
                str(root / "decks"),
                "build",
                "--out",
                str(root / "build"),
                "--quiet",
                "--back-offset",
                "1.5,-2",
            ]
        )
        == 0
    )
    return root / "build"


def _image(path: Path, index: int):
    pdf = pdfium.PdfDocument(path)
    try:
        return pdf[index].render(scale=SCALE).to_pil().convert("RGB")
    finally:
        pdf.close()


def test_fold_profiles_appear_in_the_manifest_with_their_paper(minimal_build):
    entries = json.loads((minimal_build / "manifest.json").read_text())["outputs"]
    for profile, paper in (
        ("pnp-a4-fold", "A4"),
        ("pnp-letter-fold", "Letter"),
        ("printer-cmyk", None),
    ):
        mine = [e for e in entries if e["profile"] == profile and e["kind"] == "cards"]
        assert {e["deck"] for e in mine} == {"places", "mess", "which-way", "spots"}
        for entry in mine:
            pdf = pdfium.PdfDocument(minimal_build / entry["path"])
            try:
                assert len(pdf) == entry["pages"]
                if paper:
                    size = sorted(pdf[0].get_size())
                    assert size == pytest.approx(
                        sorted(mm(v) for v in PAPER_SIZES_MM[paper]), abs=0.1
                    )
            finally:
                pdf.close()


@pytest.mark.parametrize("edition", ["minimal-en", "minimal-fa"])
def test_gutterfold_puts_each_back_where_folding_lands_it_on_its_face(minimal_build, edition):
    profile = all_profiles()["pnp-a4-fold"]
    grid = fold_grid_for(profile, mm(63.5), mm(88.9))
    image = _image(minimal_build / edition / "pnp-a4-fold" / "places.pdf", 0)

    def pixel(x, y):
        return image.getpixel((int(x * SCALE), int(image.height - y * SCALE)))

    # The three places fill the row from its left end, or from its right end right to left.
    used = range(min(grid.cols, 3))
    if edition.endswith("-fa"):
        used = [grid.cols - 1 - col for col in used]
    for col in used:
        fx, fy = grid.face(0, col)
        bx, by = grid.back(0, col)
        # Folding along the line maps (x, fold + d) onto (x, fold - d).
        assert bx == pytest.approx(fx)
        assert (fy + by + grid.card_h) / 2 == pytest.approx(grid.fold)
        face_band = pixel(fx + grid.card_w / 2, fy + grid.card_h - 8)  # the coloured band
        # Off the back's title, whose white letters the middle may fall on.
        back = pixel(bx + grid.card_w / 4, by + grid.card_h / 4)
        assert face_band != (255, 255, 255) and back != (255, 255, 255)
    # The row's other places stay empty: the cards start at the reader's end of the row.
    for col in set(range(grid.cols)) - set(used):
        fx, fy = grid.face(0, col)
        assert pixel(fx + grid.card_w / 4, fy + grid.card_h / 4) == (255, 255, 255)
    # Folding turns the lower half over: its backs are drawn turned by 180 degrees.
    with pikepdf.open(minimal_build / edition / "pnp-a4-fold" / "places.pdf") as pdf:
        turns = [
            operands
            for operands, operator in pikepdf.parse_content_stream(pdf.pages[0])
            if str(operator) == "cm"
            and [round(float(v), 6) for v in operands[:4]] == [-1, 0, 0, -1]
        ]
    assert len(turns) == 3  # the three places of the small edition


def test_calibration_shows_the_back_offset_it_was_made_with(minimal_build):
    path = minimal_build / "calibration" / "pnp-a4.pdf"
    back = _image(path, 1)
    width, height = back.size
    reds_x = [
        x for x in range(width) if _red(back.getpixel((x, int(height * 0.5 + mm(20) * SCALE))))
    ]
    reds_y = [
        y for y in range(height) if _red(back.getpixel((int(width * 0.5 + mm(20) * SCALE), y)))
    ]
    assert reds_x and reds_y
    found_x = (sum(reds_x) / len(reds_x)) / SCALE - mm(210) / 2
    found_y = (height - sum(reds_y) / len(reds_y)) / SCALE - mm(297) / 2
    assert found_x == pytest.approx(mm(1.5), abs=mm(0.2))
    assert found_y == pytest.approx(mm(-2.0), abs=mm(0.2))
    front = _image(path, 0)
    assert not any(_red(front.getpixel((x, height // 2))) for x in range(width))


def _red(rgb) -> bool:
    r, g, b = rgb
    return r > 170 and g < 110 and b < 110


@pytest.mark.parametrize("edition", ["minimal-en", "minimal-fa"])
def test_duplex_backs_are_shifted_by_the_offset(minimal_build, edition):
    from deckforge.layout.impose import grid_for

    grid = grid_for(all_profiles()["pnp-a4"], mm(63.5), mm(88.9))
    backs = _image(minimal_build / edition / "pnp-a4" / "places.pdf", 1)
    # Mirrored there for long-edge duplex: the third card's back (left to right), or the
    # first card's (right to left, whose first face is at the top right).
    bx, by = grid.cell(0, 0)

    def dark(x, y):
        return sum(backs.getpixel((int(x * SCALE), int(backs.height - y * SCALE)))) < 600

    top = by + grid.card_h
    # The backs now start 1.5 mm right of the unshifted trim and end 2 mm below its top.
    assert not dark(bx + mm(1.0), by + grid.card_h / 2)
    assert dark(bx + mm(2.0), by + grid.card_h / 2)
    assert not dark(bx + grid.card_w / 2, top - mm(1.5))
    assert dark(bx + grid.card_w / 2, top - mm(2.5))


def test_cmyk_output_has_no_rgb_and_keeps_the_ink_limit(minimal_build):
    limit = 2.40
    for pdf_path in sorted((minimal_build / "minimal-en" / "printer-cmyk").glob("*.pdf")):
        with pikepdf.open(pdf_path) as pdf:
            for page in pdf.pages:
                for operands, operator in pikepdf.parse_content_stream(page):
                    assert str(operator) not in ("rg", "RG"), f"RGB in {pdf_path.name}"
                    if str(operator) in ("k", "K"):
                        assert sum(float(v) for v in operands) <= limit + 1e-6
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form":
                    for operands, operator in pikepdf.parse_content_stream(obj):
                        assert str(operator) not in ("rg", "RG"), f"RGB form in {pdf_path.name}"
                        if str(operator) in ("k", "K"):
                            assert sum(float(v) for v in operands) <= limit + 1e-6
                if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                    assert obj.get("/ColorSpace") == "/DeviceCMYK"


def _text_fills(stream, resources, current=None) -> list[tuple[float, ...]]:
    """The fill colour of every text run a content stream shows, the forms it draws
    (parts many cards share) included."""
    fills = []
    forms = resources.get("/XObject", {}) if resources is not None else {}
    for operands, operator in pikepdf.parse_content_stream(stream):
        if str(operator) == "k":
            current = tuple(float(v) for v in operands)
        elif str(operator) == "Tj":
            fills.append(current)
        elif str(operator) == "Do" and operands[0] in forms:
            form = forms[operands[0]]
            fills += _text_fills(form, form.get("/Resources"), current)
    return fills


def test_cmyk_text_black_is_pure_k(minimal_build):
    with pikepdf.open(minimal_build / "minimal-en" / "printer-cmyk" / "spots.pdf") as pdf:
        page = pdf.pages[1]
        fills = _text_fills(page, page.obj.get("/Resources"))
        assert (0.0, 0.0, 0.0, 1.0) in fills, fills


def test_a_bad_back_offset_is_a_usage_error(capsys):
    assert main(["build", "--back-offset", "left"]) == 2
    assert re.search(r"'left' is not X,Y in millimetres", capsys.readouterr().err)


def test_short_edge_duplex_mirrors_backs_top_to_bottom():
    from dataclasses import replace

    from deckforge.drawing.ops import Card, Face
    from deckforge.layout.impose import impose

    profile = replace(all_profiles()["pnp-a4"], duplex="short-edge")
    cards = [Card(f"c{n}", mm(63.5), mm(88.9), Face(()), Face((), key="back")) for n in range(9)]
    faces, backs = impose(cards, profile)
    grid_h = faces.height
    for face, back in zip(faces.placements, backs.placements, strict=True):
        assert back.x == pytest.approx(face.x)  # same column
        assert back.y == pytest.approx(grid_h - face.y - mm(88.9))  # mirrored top to bottom
    long_edge = impose(cards, all_profiles()["pnp-a4"])[1]
    for face, back in zip(faces.placements, long_edge.placements, strict=True):
        assert back.y == pytest.approx(face.y)
        assert back.x == pytest.approx(faces.width - face.x - mm(63.5))


def test_calibration_labels_are_7_pt_and_never_touch():
    from deckforge.drawing.ops import Text
    from deckforge.layout.calibration import calibration_pages

    front = calibration_pages(all_profiles()["pnp-a4"])[0]
    boxes = []
    for op in front.placements[0].face.ops:
        if not isinstance(op, Text):
            continue
        assert op.fitted.size >= 7, op
        for x, y, line in op.baselines():
            boxes.append((x, y - 0.25 * op.fitted.size, x + line.width, y + 0.75 * op.fitted.size))
    assert len(boxes) > 12
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (a, b)


def test_a_profiles_lengths_out_of_range_are_errors_at_their_lines(tmp_path, monkeypatch):
    from deckforge import profiles
    from deckforge.errors import BuildFailed

    text = (profiles.FOLDER / "pnp-a4.yaml").read_text(encoding="utf-8")
    text = text.replace("margin: 6mm", "margin: 90mm").replace(
        "gap: 0mm", "gap: 1" + "0" * 60 + "mm"
    )
    (tmp_path / "pnp-a4.yaml").write_text(text + "bleed: 2in\n", encoding="utf-8")
    monkeypatch.setattr(profiles, "FOLDER", tmp_path)
    profiles._loaded.cache_clear()
    try:
        with pytest.raises(BuildFailed) as failed:
            profiles._loaded(("pnp-a4",))
    finally:
        profiles._loaded.cache_clear()
    assert [p.format() for p in failed.value.problems] == [
        "deckforge/profiles/pnp-a4.yaml:7:9: margin: a margin, gap or gutter must be from 0mm "
        "to 50mm, not 90mm",
        "deckforge/profiles/pnp-a4.yaml:8:6: gap: a margin, gap or gutter must be from 0mm to "
        "50mm, not 1e+60mm",
        "deckforge/profiles/pnp-a4.yaml:13:8: bleed: the bleed must be from 0mm to 25.4mm, "
        "not 50.8mm",
    ]
