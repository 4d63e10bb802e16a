"""Colours given as inks, ``cmyk(c, m, y, k)``, and by name, in templates and in card
data: printer-cmyk writes the inks as they are, as DeviceCMYK, and stays PDF/X-1a; RGB
files draw what they print as through the press profile; bad inks are errors at their
template line and column or their data cell."""

from __future__ import annotations

import re

import pikepdf
import pytest
from test_templates_data import _csv, _rows

from deckforge.cli import main
from deckforge.drawing.ops import BLACK, WHITE, Inks
from deckforge.render import colour
from deckforge.render.raster import rasterize
from deckforge.templates import compile_named, needs, stream_cards
from deckforge.templates.data import check
from golden_pages import build_features
from templates_support import context, flat, library, problems_of

WHERE = "decks/test/templates/t.yaml"
RICH = (0.6, 0.4, 0.4, 1.0)


@pytest.fixture(scope="module")
def features(tmp_path_factory):
    """The edition of template features built in printer and printer-cmyk."""
    return build_features(tmp_path_factory.mktemp("features"))


def _drawn(pdf: pikepdf.Pdf, index: int) -> str:
    """A page's content with that of every form it draws, as text."""
    found, stack, seen = [], [pdf.pages[index].obj], set()
    while stack:
        node = stack.pop()
        if node.objgen in seen:
            continue
        seen.add(node.objgen)
        contents = node.get("/Contents")
        if contents is not None:
            parts = contents if isinstance(contents, pikepdf.Array) else [contents]
            found += [part.read_bytes().decode("latin-1") for part in parts]
        elif isinstance(node, pikepdf.Stream):
            found.append(node.read_bytes().decode("latin-1"))
        forms = node.get("/Resources", {}).get("/XObject", {})
        stack.extend(form for _, form in forms.items())
    return "\n".join(found)


def _fills(text: str) -> set[tuple[float, ...]]:
    """Every CMYK fill colour set (``c m y k k``)."""
    number = r"[-+]?(?:\d+\.?\d*|\.\d+)"
    return {
        tuple(float(v) for v in found.split()[:4])
        for found in re.findall(rf"(?:{number}\s+){{4}}k(?!\S)", text)
    }


@pytest.mark.engines  # draws card suits: needs Debian's DejaVu Sans
def test_printer_cmyk_writes_the_inks_unchanged_and_stays_pdf_x1a(features):
    out, entries = features
    cmyk = next(e for e in entries if e["profile"] == "printer-cmyk")
    with pikepdf.open(out / cmyk["path"]) as pdf:
        # Back first: page 4 is the second card's face, the rich black one.
        rich = _drawn(pdf, 3)
        assert RICH in _fills(rich)
        assert re.search(r"(?<!\S)\.6 \.4 \.4 1 k", rich)  # as written: 0.6 0.4 0.4 1 k
        white_sword = _fills(_drawn(pdf, 1))
        # The black card is large black: the profile's rich black; the tint white is no ink.
        assert {(0.0, 0.0, 0.0, 0.0), RICH} <= white_sword
        assert (0.0, 1.0, 1.0, 0.0) in _fills(_drawn(pdf, 5))  # cmyk() in a data cell
        assert str(pdf.trailer.Info["/GTS_PDFXConformance"]) == "PDF/X-1a:2001"
        for index in range(len(pdf.pages)):
            assert not re.search(r"(?<!\S)rg(?!\S)|(?<!\S)RG(?!\S)", _drawn(pdf, index))
    assert main(["preflight", "--out", str(out)]) == 0


@pytest.mark.engines  # draws card suits: needs Debian's DejaVu Sans
def test_an_rgb_file_draws_the_inks_as_the_press_prints_them(features):
    out, entries = features
    rgb = next(e for e in entries if e["profile"] == "printer")
    page = rasterize(out / rgb["path"], 3, 50)
    want = tuple(round(v * 255) for v in colour.printed(RICH))
    assert all(abs(a - b) <= 2 for a, b in zip(page.getpixel((8, 8)), want, strict=True))
    assert max(want) < 60 and want != (0, 0, 0)  # a rich black prints dark, not as RGB 0


def test_bad_inks_in_a_template_are_errors_at_their_line_and_column(tmp_path):
    found = problems_of(
        tmp_path,
        """
colours: {rich: "cmyk(60, 40, 40, 140)"}
elements:
  - {name: a, type: rect, fill: "cmyk(60, 40, 40)"}
  - {name: b, type: rect, fill: "cmyk(1, 2, 3, 4, 5)"}
  - {name: c, type: rect, fill: "cmyk(-5, 0, 0, 0)"}
  - {name: d, type: rect, fill: "cmyk(0, 0, zero, 0)"}
  - {name: e, type: rect, fill: rich}
  - {name: f, type: rect, fill: "mix(cmyk(0, 100, 0, 0), #FF0000, 0.5)"}
""",
    )
    assert found == [
        f"{WHERE}:4:17: colours.rich: in the colour 'rich': cmyk() inks are from 0 to 100 "
        "(per cent); 140 is not",
        f"{WHERE}:6:33: elements[0].fill: cmyk() takes four inks, cyan, magenta, yellow "
        "and black, from 0 to 100; found 3: cmyk(60, 40, 40)",
        f"{WHERE}:7:33: elements[1].fill: cmyk() takes four inks, cyan, magenta, yellow "
        "and black, from 0 to 100; found 5: cmyk(1, 2, 3, 4, 5)",
        f"{WHERE}:8:33: elements[2].fill: cmyk() inks are from 0 to 100 (per cent); -5 is not",
        f"{WHERE}:9:33: elements[3].fill: cmyk() takes numbers from 0 to 100, not 'zero'",
        f"{WHERE}:10:33: elements[4].fill: in the colour 'rich': cmyk() inks are from 0 to "
        "100 (per cent); 140 is not",
        f"{WHERE}:11:33: elements[5].fill: mix() of inks, cmyk(0, 100, 0, 0), and an RGB "
        "colour, #FF0000: give both as cmyk(), or both in RGB",
    ]


BAND = "kind: template\nsize: poker\nelements:\n  - {name: a, type: rect, fill: '{band}'}\n"


def test_data_cells_give_inks_and_colour_names(tmp_path):
    lib = library(tmp_path, t=BAND)
    compiled, _ = compile_named(lib, "t", context())
    text = (
        'id,band\na,black\nb,White\nc,"cmyk(60, 40, 40, 100)"\nd,"cmyk(0, 0, 0)"\n'
        'e,"cmyk(0, 0, 0, 101)"\nf,blak\n'
    )
    data = _rows(_csv(tmp_path, text))
    cards, problems = check(data, [("t", needs(compiled))], tmp_path)
    assert [p.format() for p in problems] == [
        "cards.csv:5:3: 'cmyk(0, 0, 0)' is not a colour: cmyk() takes four inks, cyan, "
        "magenta, yellow and black, from 0 to 100; found 3: cmyk(0, 0, 0)",
        "cards.csv:6:3: 'cmyk(0, 0, 0, 101)' is not a colour: cmyk() inks are from 0 to 100 "
        "(per cent); 101 is not",
        "cards.csv:7:3: 'blak' is not a colour: use #RRGGBB, like '#E4572E'; did you mean 'black'?",
    ]
    good = _rows(_csv(tmp_path, text.split("\nd,")[0] + "\n"))
    laid, problems = stream_cards(good.rows, lib, context(), "t", None, data=good).whole()
    assert problems == []
    assert [flat(card.face)[0].fill for card in laid] == [BLACK, WHITE, Inks(*RICH)]


def test_the_references_example_of_icons_and_inks_is_the_one_drawn_for_the_goldens():
    from deckforge.authoring import template_examples
    from golden_pages import FEATURES_SOURCE

    template = (FEATURES_SOURCE / "templates" / "mark.yaml").read_text(encoding="utf-8")
    assert template_examples.MARKS == template
    assert template_examples.MARKS_CSV == (FEATURES_SOURCE / "marks.csv").read_text(
        encoding="utf-8"
    )


def test_inks_mixed_with_white_are_a_tint_of_the_inks(tmp_path):
    from templates_support import one as one_card

    body = "elements:\n  - {name: a, type: rect, fill: 'mix(cmyk(60, 40, 40, 100), white, 0.5)'}\n"
    assert one_card(tmp_path, body)[0].fill == Inks(0.3, 0.2, 0.2, 0.5)
