"""A markup span names a font the template's styles use (``[font="Noto Serif"]…[/]``)
and a colour the template knows (``[colour=accent]…[/]``); its words are drawn in that
face, with its own bold and italic, in English and in Persian text alike."""

from __future__ import annotations

import re
import subprocess

import pytest
from pypdf import PdfReader

from deckforge.drawing.ops import Face
from deckforge.text import fonts, markup
from deckforge.text.packages import package_family
from templates_support import (
    HEAD,
    PALETTE,
    H,
    W,
    close,
    flat,
    lay_out,
    library,
    one,
    problems_of,
    render,
    text,
)

#: A template with a style in Noto Serif (fontpkg-noto-serif), whose text is in sans.
STYLES = "styles:\n  serif: {font: Noto Serif}\n"


def _serif(bold: bool = False, italic: bool = False) -> str:
    """The name of Noto Serif's face in a style, as the template registers it."""
    files, labels = package_family("Noto Serif")
    key = fonts.register_family(files, labels=labels)
    return fonts.face("latin", fonts.styled(key, bold, italic)).name


def _embedded(name: str) -> str:
    """A face's name as the PDF's font names it (letters, digits and '-' only)."""
    return re.sub(r"[^A-Za-z0-9-]", "", name)


def _element(value: str) -> str:
    return f"elements:\n  - {{name: t, type: text, from: safe, h: 30%, text: '{value}'}}\n"


def _faces(op) -> list[tuple[str, str]]:
    return [(run.text.strip(), run.font) for line in op.fitted.lines for run in line.runs]


def test_a_quoted_font_name_is_read_whole():
    marked = markup.parse('a [font="Noto Serif" weight=bold]b[/]')
    assert marked.text == "a b" and marked.spans[0].font == "Noto Serif"
    assert marked.spans[0].sets == markup.BOLD


def test_a_span_sets_its_words_in_the_font_with_its_own_bold_and_italic(tmp_path):
    source = 'Plain [font="Noto Serif"]serif **bold** *slant*[/] sans'
    (op,) = one(tmp_path, STYLES + _element(source))
    faces = [(word, font) for word, font in _faces(op) if word]
    words = [word for word, _ in faces]
    assert words == ["Plain", "serif", "bold", "slant", "sans"], faces
    by_word = dict(faces)
    assert by_word["serif"] == _serif()
    assert by_word["bold"] == _serif(bold=True)
    assert by_word["slant"] == _serif(italic=True)
    assert len({by_word["serif"], by_word["bold"], by_word["slant"]}) == 3
    serif = {_serif(), _serif(bold=True), _serif(italic=True), _serif(True, True)}
    assert by_word["Plain"] not in serif and by_word["sans"] not in serif


def _pdf(tmp_path, source: str, locale: str = "en"):
    lib = library(tmp_path, t=HEAD + STYLES + _element("{t}"))
    cards = [{"id": text("a"), "t": text(source)}]
    laid, problems = lay_out(lib, cards, "t", locale=locale)
    assert problems == []
    ops = flat(laid[0].face)
    image = render(tmp_path, Face(tuple(ops)), W, H, dpi=150)
    path = tmp_path / "card.pdf"
    fonts = {
        str(font["/BaseFont"]).split("+")[-1]
        for font in PdfReader(path).pages[0]["/Resources"]["/Font"].values()
    }
    words = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout.split()
    return image, fonts, words


@pytest.mark.engines  # reads the words back with poppler's pdftotext
def test_the_span_font_is_embedded_and_its_words_copy_in_order(tmp_path):
    _, fonts, words = _pdf(tmp_path, 'The [font="Noto Serif"]serif **word**[/] here')
    assert {_embedded(_serif()), _embedded(_serif(bold=True))} <= fonts, fonts
    assert words == ["The", "serif", "word", "here"]


@pytest.mark.engines  # reads the words back with poppler's pdftotext
def test_a_latin_word_in_a_persian_line_is_set_in_the_span_font(tmp_path):
    source = 'واژهٔ [font="Noto Serif"]Serif[/] در متن'
    lib = library(tmp_path, t=HEAD + STYLES + _element("{t}"))
    laid, problems = lay_out(lib, [{"id": text("a"), "t": text(source)}], "t", locale="fa")
    assert problems == []
    (op,) = flat(laid[0].face)
    faces = dict(_faces(op))
    assert faces["Serif"] == _serif(), faces
    assert all(font != _serif() for word, font in faces.items() if word != "Serif")
    _, embedded, words = _pdf(tmp_path, source, "fa")
    assert _embedded(_serif()) in embedded, embedded
    # Copied text reads in its logical order (bidi embedding marks aside).
    assert [word.strip("\u202a\u202b\u202c\u200e\u200f") for word in words] == source.replace(
        '[font="Noto Serif"]', ""
    ).replace("[/]", "").split()


def test_an_unknown_font_in_a_span_is_an_error_naming_the_fonts_it_can_use(tmp_path):
    body = STYLES + "elements:\n  - {name: t, type: text, text: 'a [font=Nope]b[/]'}\n"
    cards = [{"id": text("a")}, {"id": text("b")}]
    assert problems_of(tmp_path, body, cards) == [
        "decks/test/templates/t.yaml:6:33: elements[0].text: "
        'font="Nope" in the span at '
        "character 3: the fonts a span can use are those the template's styles use: "
        '"Noto Serif"'
    ]


def test_a_span_names_a_colour_of_the_palette_or_the_template(tmp_path):
    body = "colours:\n  blood: '#C8102E'\n" + _element(
        "The [colour=blood]red[/] [colour=accent]x[/]"
    )
    (op,) = one(tmp_path, body)
    colours = {run.text.strip(): run.colour for run in op.fitted.lines[0].runs}
    assert colours["red"] == "#C8102E" and colours["x"] == PALETTE["accent"].upper()
    image = render(tmp_path, Face((op,)), W, H, dpi=150)
    reds = sum(
        1
        for x in range(image.width)
        for y in range(image.height // 3)
        if close(image.getpixel((x, y)), "#C8102E", 40)
    )
    assert reds > 50


def test_an_unknown_colour_in_a_span_is_an_error(tmp_path):
    body = "elements:\n  - {name: t, type: text, text: 'a [colour=blod]b[/]'}\n"
    (problem,) = problems_of(tmp_path, body)
    assert problem.startswith(
        "decks/test/templates/t.yaml:4:33: elements[0].text: colour=blod in the span at "
        "character 3: no colour is called 'blod' (give #RRGGBB or one of: white, black, ink,"
    ), problem

    assert "accent" in problem
