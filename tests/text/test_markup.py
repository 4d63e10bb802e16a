"""Inline markup: parsing, bold and italic runs in both directions, inline icons, errors."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckforge.text import fit as fitter
from deckforge.text import fonts, lineface, lines
from deckforge.text.fit import FitError, TextStyle, fit, measure
from deckforge.text.inline import ICON_ADVANCE, ICON_HEIGHT
from deckforge.text.markup import BOLD, ITALIC, OBJECT, has_markup, parse

LATIN = {style: fonts.face("latin", style).name for style in fonts.STYLES}
#: Lines that hold Arabic script are drawn in one face (see deckforge.text.lineface).
LINE = {style: lineface.face(style).name for style in (fonts.REGULAR, fonts.BOLD)}


def _styles(text: str) -> list[tuple[str, int]]:
    """(text, style bits) for each stretch of one style of parsed text."""
    marked = parse(text)
    out: list[tuple[str, int]] = []
    for ch, bits in zip(marked.text, marked.styles, strict=True):
        if out and out[-1][1] == bits:
            out[-1] = (out[-1][0] + ch, bits)
        else:
            out.append((ch, bits))
    return out


def test_bold_italic_and_both():
    assert _styles("a **b** *c* ***d*** e") == [
        ("a ", 0),
        ("b", BOLD),
        (" ", 0),
        ("c", ITALIC),
        (" ", 0),
        ("d", BOLD | ITALIC),
        (" e", 0),
    ]
    assert _styles("**bold *and italic* inside**") == [
        ("bold ", BOLD),
        ("and italic", BOLD | ITALIC),
        (" inside", BOLD),
    ]


def test_emphasis_inside_a_word_and_next_to_punctuation():
    assert _styles("un**break**able (**so**).") == [
        ("un", 0),
        ("break", BOLD),
        ("able (", 0),
        ("so", BOLD),
        (").", 0),
    ]


def test_literal_asterisks_colons_and_braces():
    assert (
        parse(r"5 * 3 \*starred\* a\:b\: \{icon:x} \\").text == "5 * 3 *starred* a:b: {icon:x} \\"
    )
    assert (
        parse("ratio 2:1:3 at 10:30: {not an icon}").text == "ratio 2:1:3 at 10:30: {not an icon}"
    )
    assert parse(r"C:\Games").text == r"C:\Games"  # a backslash before anything else stays


def test_line_breaks_by_newline_and_by_token():
    assert parse("one\ntwo").text == "one\ntwo"
    assert parse(r"one\ntwo").text == "one\ntwo"  # as typed in a CSV or XLSX cell
    fitted = fit(r"Draw\n**two**", 200, 100, TextStyle(12, 8), "en")
    assert [line.logical for line in fitted.lines] == ["Draw", "two"]


def test_icons_by_short_name_unicode_name_hexcode_and_emoji():
    marked = parse(":sword: :crossed_swords: :game-die: {icon:1F5E1} {icon:🧦} :Coin:")
    assert marked.text == " ".join([OBJECT] * 6)
    assert marked.icons == ("1F5E1", "2694", "1F3B2", "1F5E1", "1F9E6", "1FA99")


def test_text_without_markup_is_recognised_quickly():
    for text in ("Kitchen", "آشپزخانه", "Note: bring 2:1 odds", "C: drive", "a {b} c"):
        assert not has_markup(text), text
    for text in ("**x**", r"a\*", ":sword:", "{icon:1F5E1}"):
        assert has_markup(text), text


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        (
            "Draw **two cards",
            r"'**' at character 6 opens bold that is never closed "
            r"(write \* for an asterisk)",
            5,
        ),
        (
            "Draw two** cards",
            r"'**' at character 9 closes bold that is not open "
            r"(write \* for an asterisk)",
            8,
        ),
        ("**a* b", "'*' at character 4 closes italic that is not open", 3),
        ("**a **b** c**", "'**' at character 5 opens bold inside bold opened at character 1", 4),
        ("a ****b", r"'****' at character 3: write \* for each literal asterisk", 2),
        ("Gain :swrod:", "no icon is called ':swrod:' (character 6); did you mean ':sword:'?", 5),
        ("Gain :zzyzx:", r"no icon is called ':zzyzx:' (character 6) (write \: for a colon)", 5),
        ("Gain {icon:1F5E1", "'{icon:' at character 6 is not closed by '}'", 5),
        ("Gain {icon:XYZ}", "'{icon:XYZ}' at character 6: OpenMoji has no icon 'XYZ'", 5),
        ("این **کلمه است", "'**' at character 5 opens bold that is never closed", 4),
    ],
)
def test_malformed_markup_is_an_error_naming_where(text, message, position):
    with pytest.raises(FitError) as caught:
        fit(text, 300, 100, TextStyle(12, 8), "fa" if "ا" in text else "en")
    assert str(caught.value).startswith(message), str(caught.value)
    if position is not None:
        assert caught.value.position == position


def _runs(fitted):
    return [(run.text, run.font) for line in fitted.lines for run in line.runs]


def test_bold_and_italic_runs_in_left_to_right_text():
    fitted = fit("Draw **two** cards *now*", 300, 100, TextStyle(12, 8), "en")
    assert _runs(fitted) == [
        ("Draw ", LATIN["regular"]),
        ("two", LATIN["bold"]),
        (" cards ", LATIN["regular"]),
        ("now", LATIN["italic"]),
    ]
    line = fitted.lines[0]
    assert line.logical == "Draw two cards now"
    # Runs abut, and the line is as wide as its runs.
    for before, after in zip(line.runs, line.runs[1:], strict=False):
        assert after.offset == pytest.approx(before.offset + before.width)
    assert line.width == pytest.approx(sum(run.width for run in line.runs))


def test_markup_on_bold_text_keeps_it_bold_and_adds_italic():
    fitted = fit("**a** *b*", 300, 100, TextStyle(12, 8, fonts.BOLD), "en")
    assert _runs(fitted) == [("a ", LATIN["bold"]), ("b", LATIN["bold-italic"])]


def _logical_from_visual(visual: str) -> str:
    return unicodedata.normalize("NFKC", visual[::-1])


def test_a_bold_word_in_persian_stays_bold_and_in_its_place():
    text = "این کلمه **مهم** است"
    fitted = fit(text, 300, 100, TextStyle(12, 8), "fa")
    line = fitted.lines[0]
    assert line.logical == "این کلمه مهم است"
    # Drawn left to right: است, مهم (bold), کلمه, این — read right to left.
    words = sorted(line.runs, key=lambda run: -run.offset)
    assert [_logical_from_visual(run.text.strip()) for run in words] == [
        "این",
        "کلمه",
        "مهم",
        "است",
    ]
    assert [run.font for run in words] == [LINE["regular"]] * 2 + [LINE["bold"]] + [LINE["regular"]]


def test_letters_join_across_a_change_of_style():
    plain = fit("کتابها", 300, 100, TextStyle(12, 8), "fa").lines[0]
    split = fit("کتاب**ها**", 300, 100, TextStyle(12, 8), "fa").lines[0]
    # The same joined forms, now in two faces: the word is not broken where bold starts.
    assert "".join(run.text for run in sorted(split.runs, key=lambda run: run.offset)) == "".join(
        run.text for run in plain.runs
    )
    assert {run.font for run in split.runs} == {LINE["regular"], LINE["bold"]}


def test_italic_leaves_persian_upright_and_slants_latin_in_it():
    fitted = fit("*کلمه Dixit*", 300, 100, TextStyle(12, 8), "fa")
    runs = fitted.lines[0].runs
    persian = next(run for run in runs if _logical_from_visual(run.text.strip()) == "کلمه")
    latin = next(run for run in runs if run.text.strip() == "Dixit")
    assert (persian.font, latin.font) == (LINE["regular"], LATIN["italic"])


def test_an_icon_in_english_sits_where_it_is_written():
    fitted = fit("Gain :coin: now", 300, 100, TextStyle(12, 8), "en")
    line = fitted.lines[0]
    (icon,) = line.icons
    gain, now = line.runs
    assert (gain.text, now.text) == ("Gain ", " now")
    assert icon.code == "1FA99"
    assert icon.offset == pytest.approx(gain.offset + gain.width)
    assert now.offset == pytest.approx(icon.offset + icon.width)
    assert icon.width == pytest.approx(12 * ICON_ADVANCE)
    assert line.logical == "Gain 🪙 now"


def test_an_icon_is_sized_to_the_line_and_stands_on_the_baseline():
    (icon,) = fit(":star:", 300, 100, TextStyle(20, 8), "en").lines[0].icons
    margin = icon.side / 6  # OpenMoji's free border
    assert icon.y + margin == pytest.approx(0.0)  # the drawing area starts at the baseline
    assert icon.side - 2 * margin == pytest.approx(20 * ICON_HEIGHT)
    cap_height, ascent = 0.714 * 20, 1.069 * 20
    assert cap_height < icon.side - 2 * margin < ascent
    # Centred in its advance.
    assert icon.x + icon.side / 2 == pytest.approx(icon.offset + icon.width / 2)


def test_an_icon_in_persian_sits_at_its_logical_position():
    fitted = fit("اول :sword: دوم", 300, 100, TextStyle(12, 8), "fa")
    line = fitted.lines[0]
    (icon,) = line.icons
    first = next(run for run in line.runs if _logical_from_visual(run.text.strip()) == "اول")
    second = next(run for run in line.runs if _logical_from_visual(run.text.strip()) == "دوم")
    # Read right to left: اول, the sword, دوم.
    assert second.offset + second.width < icon.offset < icon.offset + icon.width < first.offset
    assert line.logical == "اول 🗡 دوم"


def test_an_icon_between_latin_words_in_persian_text_follows_them():
    line = fit("بازی Dixit :star: Cards است", 400, 100, TextStyle(12, 8), "fa").lines[0]
    dixit = next(run for run in line.runs if "Dixit" in run.text)
    cards = next(run for run in line.runs if "Cards" in run.text)
    (icon,) = line.icons
    # A left-to-right stretch inside right-to-left text keeps its own order, icon included.
    assert dixit.offset < icon.offset < cards.offset


def test_wrapping_counts_the_icons_widths():
    text = "one :star: two :star: three :star: four"
    fitted = fit(text, 70, 500, TextStyle(12, 12), "en")
    plain = fit(text.replace(":star:", "x"), 70, 500, TextStyle(12, 12), "en")
    assert len(fitted.lines) > len(plain.lines)
    space = measure(" ", "regular", 12)
    for line in fitted.lines:
        words = line.logical.split(" ")
        expected = space * (len(words) - 1) + sum(
            12 * ICON_ADVANCE if word == "⭐" else measure(word, "regular", 12) for word in words
        )
        assert line.width == pytest.approx(expected)
        assert line.width <= 70 + 1e-6
    assert " ".join(line.logical for line in fitted.lines) == text.replace(":star:", "⭐")


def test_wrapped_lines_are_exactly_as_wide_as_measured():
    text = "Draw **two** cards, gain :coin: and *then* 3:heart: each; **all** told"
    for width in (60, 90, 120, 200):
        fitted = fit(text, width, 500, TextStyle(11, 11), "en")
        for line in fitted.lines:
            assert line.width <= width + 1e-6


def test_shrinking_to_fit_counts_the_icons():
    words = "Draw two cards"
    style = TextStyle(14, 6, max_lines=1)
    without = fit(words, 100, 50, style, "en")
    with_icons = fit(words + " :coin: :coin: :coin:", 100, 50, style, "en")
    assert with_icons.size < without.size
    assert with_icons.lines[0].width <= 100 + 1e-6


def test_marked_up_text_that_cannot_fit_is_an_error():
    with pytest.raises(FitError, match="cannot fit .* at the minimum size 8 pt"):
        fit("**word** :coin: " * 40, 100, 30, TextStyle(12, 8), "en")
    with pytest.raises(FitError, match="the word 'Supercalifragilisticexpialidocious' is too long"):
        fit("**Supercalifragilisticexpialidocious**", 40, 200, TextStyle(12, 10), "en")
    with pytest.raises(FitError, match="needs more than 1 line"):
        fit(r"one\ntwo", 400, 200, TextStyle(12, 12, max_lines=1), "en")


def test_a_character_no_font_draws_is_named_in_marked_up_text():
    with pytest.raises(FitError, match=r"U\+6F22"):
        fit("**漢**", 200, 50, TextStyle(12, 8), "en")


def test_digits_are_localised_but_not_inside_icon_codes():
    fitted = fit("۳ {icon:1F5E1} و 4 **5**", 300, 100, TextStyle(12, 8), "fa")
    assert fitted.lines[0].icons[0].code == "1F5E1"
    assert fitted.lines[0].logical == "۳ 🗡 و ۴ ۵"


def test_the_marked_up_way_sets_plain_text_exactly_as_the_plain_way(monkeypatch):
    samples = [
        ("The Back Seat of the Family Car on a Long Summer Holiday", "en"),
        ("بازیکنی که راوی است به ۶ تصویری که در دستش است نگاه می‌کند", "fa"),
        ("کارت‌های Dixit (از ۱ تا ۴)، 1,000 «نقطه»؛ لا", "fa"),
        ("one\ntwo  three", "en"),
    ]
    style = TextStyle(12, 7, leading=1.2)
    plain = [fit(text, 110, 400, style, locale) for text, locale in samples]
    fit.cache_clear()
    monkeypatch.setattr(fitter, "has_markup", lambda text: True)
    try:
        marked = [fit(text, 110, 400, style, locale) for text, locale in samples]
    finally:
        fit.cache_clear()
    assert marked == plain


def test_marked_up_english_sets_the_same_by_the_shortcut_and_the_general_way(monkeypatch):
    samples = [
        "Draw **two** cards, then gain :coin: and *now*.",
        "3:coin: each, **bold *both* bold** {icon:1F5E1}:star:",
        r"one\n**two** three",
    ]
    style = TextStyle(12, 7, fonts.BOLD)
    quick = [fit(text, 110, 400, style, "en") for text in samples]
    fit.cache_clear()
    monkeypatch.setattr(lines, "_latin_line", lambda *args: None)
    monkeypatch.setattr(lines, "_marked_latin_line", lambda *args: None)
    try:
        general = [fit(text, 110, 400, style, "en") for text in samples]
    finally:
        fit.cache_clear()
    assert quick == general


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "word",
                "کلمه",
                "**",
                "*",
                " ",
                ":star:",
                "{icon:1F5E1}",
                "\\*",
                "\\n",
                "\n",
                ":nope:",
                "{icon:",
                "5",
                "(",
                "Dixit",
                "\u200c",
            ]
        ),
        max_size=14,
    )
)
def test_any_mix_of_markup_sets_or_fails_cleanly(parts):
    text = "".join(parts)
    for locale in ("en", "fa"):
        try:
            fitted = fit(text, 120, 300, TextStyle(12, 6), locale)
        except FitError:
            continue
        for line in fitted.lines:
            assert line.width <= 120 + 1e-6
            assert len(line.icons) == line.logical.count("⭐") + line.logical.count("🗡")


def test_the_sources_reference_lists_every_short_icon_name():
    from conftest import ROOT
    from deckforge.art.icons import GAME_ICONS, resolve

    readme = (ROOT / "docs" / "reference" / "sources.md").read_text(encoding="utf-8")
    listed = next(line for line in readme.splitlines() if line.startswith("| `:sword:`"))
    names = listed.split("`")[3].split()
    assert names == list(GAME_ICONS)
    assert all(resolve(code) == code for code in GAME_ICONS.values())


def test_markup_in_a_projects_font_file_shows_in_the_shipped_faces(tmp_path):
    import shutil

    mine = tmp_path / "Mine.ttf"
    shutil.copy(fonts.face("latin", fonts.REGULAR).path, mine)
    key = fonts.register_file(mine)
    fitted = fit("plain **bold** *slanted*", 300, 100, TextStyle(12, 8, key), "en")
    runs = [(run.text, run.font) for run in fitted.lines[0].runs]
    assert runs[0][1].startswith("Mine-") and runs[0][0] == "plain "
    assert runs[1:] == [("bold", LATIN["bold"]), (" ", runs[0][1]), ("slanted", LATIN["italic"])]
