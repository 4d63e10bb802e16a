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
