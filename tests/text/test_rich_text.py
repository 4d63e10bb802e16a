"""Rich text: markup spans set the size, colour, weight and style of the words inside
them (``[size=14pt colour=#C8102E]word[/]``), in left-to-right and right-to-left text
alike, wrapped and fitted as the rest of the text is; copied text reads as written."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from deckforge.drawing.ops import Face
from deckforge.text import markup
from deckforge.text.fit import FitError, TextStyle, fit
from templates_support import H, W, close, one, render, text

RED = "#C8102E"
STYLE = TextStyle(size=10, min_size=7)
ONE_LINE = TextStyle(size=10, min_size=7, max_lines=1)


def test_a_span_sets_its_words_size_colour_and_emphasis():
    marked = markup.parse(f"A [size=14pt colour={RED}]big **red**[/] [weight=bold]b[/] [x]")
    assert marked.text == "A big red b [x]"
    (span, bold) = marked.spans
    assert (span.size, span.colour) == (14.0, RED) and bold.sets == markup.BOLD
    spans = [markup.span_of(marked, bits) for bits in marked.styles]
    assert spans[2:9] == [span] * 7 and spans[10] == bold and spans[0] is None
    assert marked.styles[6] & markup.BOLD and not marked.styles[2] & markup.BOLD
    assert markup.parse(r"\[size=3] [Hearts]").text == "[size=3] [Hearts]"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("a [size=14pt]b", "the span at character 3 is never closed by '[/]'"),
        ("a[/]", "'[/]' at character 2 closes no span"),
        (
            "[siz=12pt]Nothing[/]",
            "'[/]' at character 18 closes no span: '[siz=' at character 1 opens none, as a "
            "span sets size, colour, weight, style, font; did you mean 'size'?",
        ),
        (
            "[size=900pt]a[/]",
            "size=900pt in the span at character 1: give a size from 0.5pt to 500pt",
        ),
        (
            "[colour=#C81]a[/]",
            "colour=#C81 in the span at character 1: give #RRGGBB, like #C8102E, or a colour's "
            "name",
        ),
        ("[weight=heavy]a[/]", "weight=heavy in the span at character 1: give bold or regular"),
        (
            "[size=9 face=x]a[/]",
            "'face=x' in the span at character 1: a span sets size, colour, weight, style, font",
        ),
        (
            "[font=Noto Serif]a[/]",
            "'Serif' in the span at character 1: a span sets size, colour, weight, style, font, "
            "as key=value (quote a value with spaces)",
        ),
    ],
)
def test_a_malformed_span_is_an_error_at_its_character(source, message):
    with pytest.raises(markup.MarkupError) as caught:
        markup.parse(source)
    assert str(caught.value) == message


def _runs(value: str, width: float, locale: str = "en"):
    fitted = fit(value, width, 100, STYLE, locale)
    return fitted, [(run.text, run.size, run.colour, run.offset) for run in fitted.lines[0].runs]


def test_the_red_word_is_14pt_inside_10pt_text_and_shrinks_with_it():
    source = f"The [size=14pt colour={RED}]red[/] word"
    fitted, runs = _runs(source, 200)
    assert fitted.size == 10 and [r[:3] for r in runs] == [
        ("The ", 0.0, ""),
        ("red", 14.0, RED),
        (" word", 0.0, ""),
    ]
    # Room above the first line for the larger word.
    assert fitted.ascent > fit("The red word", 200, 100, STYLE, "en").ascent * 1.3
    # On one line in a narrower box, the text is set smaller and the span with it.
    narrow = fit(source, fitted.lines[0].width - 5, 100, ONE_LINE, "en")
    assert 7 <= narrow.size < 10
    assert narrow.lines[0].runs[1].size == pytest.approx(14 * narrow.size / 10)


def test_a_persian_span_keeps_its_place_right_to_left():
    _, runs = _runs(f"واژهٔ [size=14pt colour={RED}]سرخ[/] در متن", 200, "fa")
    red = [r for r in runs if r[2] == RED]
    assert len(red) == 1 and red[0][1] == 14.0
    # Right to left: the last word at the left, the first at the right, the span between.
    offsets = [r[3] for r in runs if r[0].strip()]
    assert offsets == sorted(offsets) and 0 < runs.index(red[0]) < len(runs) - 1


def test_a_span_in_a_card_draws_its_colour_and_copies_as_written(tmp_path):
    body = (
        "elements:\n  - {name: t, type: text, from: safe, h: 20%, font_size: 10pt, text: '{t}'}\n"
    )
    source = f"The [size=14pt colour={RED}]red[/] word"
    ops = one(tmp_path, body, [{"id": text("a"), "t": text(source)}])
    image = render(tmp_path, Face(tuple(ops)), W, H, dpi=150)
    reds = sum(
        1
        for x in range(image.width)
        for y in range(image.height // 4)
        if close(image.getpixel((x, y)), RED, 40)
    )
    assert reds > 100
    assert PdfReader(tmp_path / "card.pdf").pages[0].extract_text().split() == [
        "The",
        "red",
        "word",
    ]


def test_a_malformed_span_in_a_template_is_reported_at_its_line(tmp_path):
    from templates_support import problems_of

    body = "elements:\n  - {name: t, type: text, text: 'a [size=14pt]b'}\n"
    assert problems_of(tmp_path, body) == [
        "decks/test/templates/t.yaml:4:33: elements[0].text: the span at character 3 is never "
        "closed by '[/]'"
    ]
    with pytest.raises(FitError):
        fit("a [size=14pt]b", 100, 100, STYLE, "en")
