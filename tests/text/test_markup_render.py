"""Inline markup as drawn: icons where the layout puts them (checked on rasterized pages),
bold ink, text that copies as written, and markup in a shipped deck end to end."""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata

import pypdfium2 as pdfium
import pytest

from deckforge.cli import main
from deckforge.drawing.ops import Document, Page, Text
from deckforge.render import pdf
from deckforge.render.raster import rasterize
from deckforge.text.fit import TextStyle, fit

DPI = 200
SCALE = DPI / 72
#: Lines with a bold word and icons, in both directions; the icons are coloured (coin,
#: fire, heart, star), the text black.
ENGLISH = [
    ("Draw **two** cards, then gain :coin: and {icon:1F525} *now*.", "en"),
    ("Gain 3:coin: each, wrapping :heart: round a narrow :star: box", "en"),
]
PERSIAN = [
    ("بازیکن **دو** کارت برمی‌دارد و :coin: می‌گیرد.", "fa"),
    ("در هر دور {icon:1F525} **حمله** کن و ۳ :heart: بگیر.", "fa"),
]
LINES = ENGLISH + PERSIAN
#: Directional marks and embeddings that extraction may add around runs.
_MARKS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e"


def _page(tmp_path, lines=LINES):
    ops, top = [], 800.0
    for text, locale in lines:
        width = 160.0 if "narrow" in text else 480.0
        fitted = fit(text, width, 200, TextStyle(14, 8), locale)
        ops.append(Text(40, top, width, fitted))
        top -= fitted.height + 40
    path = tmp_path / "markup.pdf"
    pdf.render(Document(pages=(Page(595, 842, ops=tuple(ops)),), title="markup"), path)
    return path, ops


def _box(image, x, y, w, h):
    """The pixels of a box given in PDF points (origin lower left)."""
    left, right = round(x * SCALE), round((x + w) * SCALE)
    top, bottom = round(image.height - (y + h) * SCALE), round(image.height - y * SCALE)
    return image.crop((left, top, right, bottom))


def _coloured(image) -> int:
    """How many pixels are clearly coloured (the icons; the text is black on white)."""
    hsv = image.convert("HSV")
    return sum(1 for _, s, v in hsv.get_flattened_data() if s > 90 and v > 60)


def test_each_inline_icon_is_drawn_where_the_layout_puts_it(tmp_path):
    path, ops = _page(tmp_path)
    image = rasterize(path, 0, DPI)
    icons = [icon for op in ops for icon in op.inline_icons()]
    assert len(icons) == 8
    inside = 0
    for icon in icons:
        # OpenMoji draws in the frame's middle two thirds: there is the colour.
        margin = icon.w / 6
        found = _coloured(
            _box(image, icon.x + margin, icon.y + margin, icon.w - 2 * margin, icon.h - 2 * margin)
        )
        assert found > 0.08 * (icon.w - 2 * margin) * (icon.h - 2 * margin) * SCALE**2, icon
        inside += _coloured(_box(image, icon.x, icon.y, icon.w, icon.h))
    # And nowhere else: all the colour on the page is inside the icons' frames.
    assert _coloured(image) == pytest.approx(inside, rel=0.02)


def test_an_icon_stands_on_the_baseline(tmp_path):
    path, ops = _page(tmp_path, [("x:heart:x", "en")])
    image = rasterize(path, 0, DPI)
    (icon,) = ops[0].inline_icons()
    ((_, baseline, _),) = ops[0].baselines()
    frame = _box(image, icon.x, icon.y, icon.w, icon.h).convert("HSV")
    rows = [
        row
        for row in range(frame.height)
        if any(frame.getpixel((col, row))[1] > 90 for col in range(frame.width))
    ]
    bottom = icon.y + icon.h - (rows[-1] + 1) / SCALE  # the heart's lowest point, in points
    top = icon.y + icon.h - rows[0] / SCALE
    size = ops[0].fitted.size
    assert abs(bottom - baseline) < 0.2 * size  # about on the baseline (the heart's tip)
    assert 0.5 * size < top - baseline < 1.0 * size  # about as tall as the capitals


def test_a_bold_word_is_drawn_heavier(tmp_path):
    path, ops = _page(tmp_path, [("dwarf **dwarf**", "en")])
    image = rasterize(path, 0, DPI).convert("L")
    ((x, y, line),) = ops[0].baselines()
    regular, bold = line.runs
    size = ops[0].fitted.size

    def ink(run):
        crop = _box(image, x + run.offset, y - 0.3 * size, run.width, 1.3 * size)
        return sum(255 - v for v in crop.get_flattened_data())

    assert ink(bold) > 1.3 * ink(regular)


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return " ".join("".join(ch for ch in text if ch not in _MARKS).split())


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (
            ENGLISH,
            [
                "Draw two cards, then gain 🪙 and 🔥 now.",
                "Gain 3🪙 each,",
                "wrapping ❤ round a",
                "narrow ⭐ box",
            ],
        ),
        (PERSIAN, ["بازیکن دو کارت برمی‌دارد و 🪙 می‌گیرد.", "در هر دور 🔥 حمله کن و ۳ ❤ بگیر."]),
    ],
)
@pytest.mark.engines
def test_marked_up_text_copies_as_written_and_icons_as_their_emoji(tmp_path, lines, expected):
    # One direction per page: poppler reads a page of mostly English as left to right,
    # and moves a Persian line's final full stop to its start (with or without markup).
    assert shutil.which("pdftotext"), "pdftotext (Debian's poppler-utils) is needed for this test"
    path, ops = _page(tmp_path, lines)
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    extracted = [_clean(line) for line in out.splitlines() if line.strip()]
    assert [_clean(line.logical) for op in ops for line in op.fitted.lines] == [
        _clean(line) for line in expected
    ]
    # Each line whole, in reading order, icons read as their emoji: without text in an
    # icon's place, poppler takes the gap for a column gutter and splits the line.
    assert extracted == [_clean(line) for line in expected]


def test_icons_read_as_a_space_where_actual_text_is_not_read(tmp_path):
    path, _ = _page(tmp_path, ENGLISH)
    document = pdfium.PdfDocument(path)
    try:
        text = document[0].get_textpage().get_text_range()
    finally:
        document.close()
    # PDFium reads no /ActualText over a blank glyph: the icon is a space between words.
    assert _clean(text).startswith("Draw two cards, then gain and now. Gain 3 each, wrapping")


@pytest.fixture()
def marked_project(project):
    places = project / "decks" / "guess-the-mess" / "places.yaml"
    text = places.read_text(encoding="utf-8")
    marked = '{en: "**Kitchen** :heart:", fa: "**آشپزخانه** :heart:"}'
    places.write_text(text.replace("{en: Kitchen, fa: آشپزخانه}", marked, 1), encoding="utf-8")
    return project


@pytest.mark.parametrize(
    ("edition", "name", "icon_side"),
    [("guess-the-mess-en", "Kitchen ❤", "right"), ("guess-the-mess-fa", "آشپزخانه ❤", "left")],
)
@pytest.mark.engines
def test_markup_in_a_deck_source_prints_and_copies(
    marked_project, tmp_path, edition, name, icon_side
):
    out = tmp_path / "build"
    decks = str(marked_project / "decks")
    argv = ["--decks", decks, "build", "--edition", edition, "--profile", "printer"]
    assert main([*argv, "--out", str(out), "--quiet"]) == 0
    path = out / edition / "printer" / "places.pdf"
    face = subprocess.run(
        ["pdftotext", "-f", "2", "-l", "2", "-enc", "UTF-8", str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert _clean(name) in _clean(face)
    assert "*" not in face and ":heart:" not in face
    # Below the picture, the name in dark ink and the red heart at its end.
    image = rasterize(path, 1, 100)
    band = image.crop((0, int(image.height * 0.65), image.width, image.height)).convert("HSV")
    red, dark = [], []
    for index, (hue, saturation, value) in enumerate(band.get_flattened_data()):
        x = index % band.width
        if saturation > 150 and value > 120 and (hue < 15 or hue > 240):
            red.append(x)
        elif value < 90:
            dark.append(x)
    assert len(red) > 50 and len(dark) > 200
    heart, text = sum(red) / len(red), sum(dark) / len(dark)
    # The name's end: its right in English, its left in Persian (40 px: half the name).
    assert (heart - text if icon_side == "right" else text - heart) > 40, (heart, text)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            '"**Kitchen"',
            r"places\[0\]\.name\.en: card 'kitchen': '\*\*' at character 1 opens "
            r"bold that is never closed \(write \\\* for an asterisk\)",
        ),
        (
            '"Kitchen :swrod:"',
            r"places\[0\]\.name\.en: card 'kitchen': no icon is called "
            r"':swrod:' \(character 9\); did you mean ':sword:'\?",
        ),
    ],
)
def test_malformed_markup_in_a_deck_is_an_error_at_its_line(project, capsys, value, message):
    places = project / "decks" / "guess-the-mess" / "places.yaml"
    text = places.read_text(encoding="utf-8")
    line = text[: text.index("{en: Kitchen,")].count("\n") + 1
    places.write_text(text.replace("{en: Kitchen,", "{en: " + value + ",", 1), encoding="utf-8")
    assert main(["--decks", str(project / "decks"), "validate", "guess-the-mess-en"]) == 1
    err = capsys.readouterr().err
    assert re.search(rf"places\.yaml:{line}:\d+: {message}", err), err


def test_icons_in_a_shared_face_are_drawn_on_every_card(tmp_path):
    from deckforge.drawing.ops import Face, Placement

    fitted = fit("Gain :coin:", 100, 40, TextStyle(14, 8), "en")
    face = Face((Text(10, 40, 100, fitted),), key="shared/label")
    placements = tuple(Placement(face, x, 700, (x, 700, 120, 50)) for x in (40, 300))
    path = tmp_path / "shared.pdf"
    pdf.render(Document(pages=(Page(595, 842, placements),), title="shared"), path)
    image = rasterize(path, 0, DPI)
    (icon,) = face.ops[0].inline_icons()
    for x in (40, 300):
        assert _coloured(_box(image, x + icon.x, 700 + icon.y, icon.w, icon.h)) > 100


# --- markup in card templates ----------------------------------------------------------------


def _template_text(tmp_path, body: str, cards, locale: str = "en"):
    from templates_support import flat, lay_out, library

    lib = library(tmp_path, t="kind: template\nsize: poker\n" + body)
    laid, problems = lay_out(lib, cards, "t", locale=locale)
    return laid, [p.format() for p in problems], flat


@pytest.mark.parametrize(
    ("locale", "value", "expected"),
    [
        ("en", "Role: **Guard**", "Role: Guard 🗡 — blocks 1 ❤"),
        ("fa", "نقش: **نگهبان**", "نقش: نگهبان 🗡 — blocks ۱ ❤"),
    ],
)
def test_template_text_sets_markup_from_data_and_from_the_template(
    tmp_path, locale, value, expected
):
    from templates_support import render, text

    body = (
        "elements:\n"
        "  - {name: t, type: text, text: '{role} {icon:1F5E1} — blocks 1 :heart:',"
        " from: safe, h: 40pt}\n"
    )
    laid, problems, flat = _template_text(tmp_path, body, [{"role": text(value)}], locale)
    assert problems == []
    (op,) = flat(laid[0].face)
    assert [line.logical for line in op.fitted.lines] == [expected]
    fonts_used = {run.font for line in op.fitted.lines for run in line.runs}
    assert any(font.endswith("-Bold") for font in fonts_used)
    # In visual order: the heart is the last icon read, rightmost in English, leftmost in
    # Persian.
    codes = [icon.code for line in op.fitted.lines for icon in line.icons]
    assert codes == (["1F5E1", "2764"] if locale == "en" else ["2764", "1F5E1"])
    image = render(tmp_path, laid[0].face, laid[0].width, laid[0].height, dpi=DPI)
    heart = next(icon for icon in op.inline_icons() if icon.name == "2764")
    assert _coloured(_box(image, heart.x, heart.y, heart.w, heart.h)) > 100


def test_malformed_markup_in_card_data_is_an_error_at_its_cell(tmp_path):
    from templates_support import text

    body = "elements:\n  - {name: t, type: text, text: '{role}', from: safe}\n"
    cards = [{"id": text("guard"), "role": text("**Guard :sheild:", 7, 3, "roles.csv")}]
    _, problems, _ = _template_text(tmp_path, body, cards)
    # The first problem in the text: the misspelt icon comes before the end of the text,
    # where the bold would be found unclosed.
    assert problems == [
        "roles.csv:7:3: card 'guard': no icon is called ':sheild:' (character 9); "
        "did you mean ':shield:'?"
    ]
