"""The symbol face: card suits and game symbols the Noto faces lack are drawn in DejaVu
Sans (Debian's fonts-dejavu-core); a character no font draws is refused with the icon
that draws it and, where the symbol face is missing, what to install."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckforge.text import fit, fonts, lines

SYMBOLS = "♠♣♥♦★☆✦⚔"


def _forget_faces() -> None:
    fonts.symbol_face.cache_clear()
    lines.face_for.cache_clear()


@pytest.fixture
def no_symbol_face(monkeypatch):
    missing = Path("/nonexistent/DejaVuSans.ttf")
    monkeypatch.setattr(fonts, "SYMBOL_FILES", {fonts.REGULAR: missing, fonts.BOLD: missing})
    _forget_faces()
    yield
    _forget_faces()


@pytest.mark.engines  # draws card suits: needs Debian's DejaVu Sans
def test_suits_and_game_symbols_are_drawn_in_the_symbol_face():
    style = fit.TextStyle(size=12, min_size=6)
    for weight in (fonts.REGULAR, fonts.BOLD):
        faces = {ch: lines.face_for(ch, weight) for ch in SYMBOLS}
        symbol = fonts.symbol_face(weight)
        assert symbol is not None and symbol.name.startswith("DejaVuSans")
        assert faces == dict.fromkeys(SYMBOLS, symbol.name)
    fitted = fit.fit("A♠ 10♥ ★ ⚔ Draw", 200, 40, style, "en")
    assert [line.logical for line in fitted.lines] == ["A♠ 10♥ ★ ⚔ Draw"]
    # The Latin face keeps every letter it has: only the symbols change face; emoji are
    # left to OpenMoji's icons, though DejaVu Sans has some.
    assert lines.face_for("A", fonts.REGULAR) == fonts.face("latin").name
    assert lines.face_for("😀", fonts.REGULAR) is None


@pytest.mark.engines  # draws card suits: needs Debian's DejaVu Sans
def test_a_character_no_font_draws_names_its_icon():
    with pytest.raises(fit.FitError) as caught:
        fit.fit("Wear 🧦", 200, 40, fit.TextStyle(size=12, min_size=6), "en")
    assert str(caught.value) == (
        "no font can draw the character '🧦' (U+1F9E6); its icon is drawn by ':socks:'"
    )


def test_without_the_symbol_face_a_suit_says_what_to_install(no_symbol_face):
    with pytest.raises(fit.FitError) as caught:
        fit.fit("A♠", 200, 40, fit.TextStyle(size=12, min_size=6), "en")
    assert str(caught.value) == (
        "no font can draw the character '♠' (U+2660); its icon is drawn by "
        "':black_spade_suit:'; card suits and game symbols are drawn in DejaVu Sans, not "
        "installed here (install Debian's fonts-dejavu-core)"
    )


def test_without_the_symbol_face_a_character_it_would_not_draw_says_nothing_of_it(
    no_symbol_face,
):
    with pytest.raises(fit.FitError) as caught:
        fit.fit("A漢", 200, 40, fit.TextStyle(size=12, min_size=6), "en")
    assert str(caught.value) == "no font can draw the character '漢' (U+6F22)"
