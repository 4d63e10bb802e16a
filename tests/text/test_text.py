"""The text engine: fitting, wrapping, shaping, bidi, digits and missing glyphs."""

from __future__ import annotations

import pytest

from deckforge.text.fit import FitError, TextStyle, fit, measure
from deckforge.text.script import localise_digits, visual_line


def test_text_shrinks_between_preferred_and_minimum_size():
    big = fit("Kitchen", 150, 40, TextStyle(20, 8), "en")
    assert big.size == 20 and len(big.lines) == 1
    long = fit(
        "The Back Seat of the Family Car on a Long Summer Holiday", 150, 40, TextStyle(20, 8), "en"
    )
    assert 8 <= long.size < 20
    assert long.height <= 40


def test_lines_never_exceed_the_box_width():
    fitted = fit(
        "one two three four five six seven eight nine ten", 60, 200, TextStyle(12, 12), "en"
    )
    assert len(fitted.lines) > 2
    for line in fitted.lines:
        assert line.width <= 60 + 1e-6
        assert measure(line.logical, "regular", 12) == pytest.approx(line.width, abs=0.01)


def test_wrapping_keeps_words_in_reading_order():
    fitted = fit("alpha beta gamma delta", 50, 200, TextStyle(12, 12), "en")
    assert " ".join(line.logical for line in fitted.lines) == "alpha beta gamma delta"


def test_text_that_cannot_fit_is_an_error_not_clipped():
    with pytest.raises(FitError, match="cannot fit"):
        fit("word " * 80, 100, 30, TextStyle(12, 8), "en")


def test_a_word_too_long_for_any_line_is_named():
    with pytest.raises(FitError, match="Supercalifragilistic"):
        fit("Supercalifragilisticexpialidocious", 40, 200, TextStyle(12, 10), "en")


def test_a_character_no_font_draws_is_named():
    with pytest.raises(FitError, match="U\\+1F600"):
        fit("smile \U0001f600", 200, 50, TextStyle(12, 8), "en")


def test_persian_lines_wrap_in_logical_order_then_reorder():
    text = "بازیکنی که راوی است به ۶ تصویری که در دستش است نگاه می‌کند"
    fitted = fit(text, 120, 500, TextStyle(12, 12), "fa")
    assert len(fitted.lines) > 1
    assert fitted.lines[0].logical.startswith("بازیکنی")
    assert " ".join(line.logical for line in fitted.lines) == text


def test_brackets_are_mirrored_in_right_to_left_text():
    visual = visual_line("(از ۱ تا ۴)", rtl=True)
    assert visual[0] == "(" and visual[-1] == ")"


def test_latin_and_numbers_keep_their_order_inside_persian():
    visual = visual_line(localise_digits("کارت 84 تایی Dixit", "fa"), rtl=True)
    assert visual.startswith("Dixit")
    assert "۸۴" in visual


def test_zwnj_draws_nothing():
    visual = visual_line("می‌دهد", rtl=True)
    assert "\u200c" not in visual


def test_persian_digits_for_persian_readers():
    assert localise_digits("4 players", "fa") == "۴ players"
    assert localise_digits("۴ players", "en") == "4 players"


# --- fitting is bounded in steps ---------------------------------------------------------------


@pytest.fixture
def tries(monkeypatch):
    """How many sizes fit() tries (each a wrap of the text); more than 64 is an error."""
    from deckforge.text import fit as fitting

    counted = []
    made = fitting._wrapper

    def counting(*args):
        lines_at, plain = made(*args)

        def at(size):
            counted.append(size)
            assert len(counted) <= 64, "fit() tried more than 64 sizes"
            return lines_at(size)

        return at, plain

    monkeypatch.setattr(fitting, "_wrapper", counting)
    fitting.fit.cache_clear()
    yield counted
    fitting.fit.cache_clear()


@pytest.mark.parametrize("size", [500, 14400])
def test_text_is_fitted_in_a_bounded_number_of_tries_whatever_its_sizes(tries, size):
    fitted = fit("Kitchen", 150, 40, TextStyle(size, 0.5), "en")
    assert len(tries) <= 64
    # The largest of the half points down from the preferred size at which it fits.
    assert fitted.size == 29
    fit("Kitchen", 150, 40, TextStyle(29, 29), "en")
    with pytest.raises(FitError):
        fit("Kitchen", 150, 40, TextStyle(29.5, 29.5), "en")


@pytest.mark.parametrize("size", [float("inf"), float("nan"), 0.0, -3.0, 1e6, 1e300])
def test_sizes_that_are_not_numbers_of_points_are_a_fit_error(tries, size):
    with pytest.raises(FitError, match="cannot set text at"):
        fit("Kitchen", 150, 40, TextStyle(size, size), "en")
    assert tries == []


LONG = (
    "Draw a card, read it aloud and pass it left; whoever guessed the mess scores "
    "the points printed in the corner, and the dealer scores one for each wrong guess."
)


@pytest.mark.parametrize(
    ("text", "width", "height", "size", "least"),
    [
        (LONG, 150, 60, 40, 4),
        (LONG, 80, 200, 72, 6),
        ("Kitchen", 20, 10, 100, 0.5),
        ("**Bold** and :sword: words " * 6, 120, 90, 60.25, 3.1),
        ("آشپزخانه و اتاق زیر شیروانی " * 4, 140, 70, 50, 5),
    ],
)
def test_fitting_by_halves_finds_the_size_trying_every_half_point_would(
    text, width, height, size, least
):
    """The sizes are tried in turn, then searched by halves: the size found is the first
    of the half points down from the preferred size at which the text fits."""
    locale = "fa" if not text.isascii() else "en"
    expected, candidate = None, size
    while candidate >= least - 1e-6:
        try:
            expected = fit(text, width, height, TextStyle(candidate, candidate), locale)
        except FitError:
            candidate = round(candidate - 0.5, 2)
        else:
            break
    found = fit(text, width, height, TextStyle(size, least), locale)
    assert expected is not None and found == expected
