"""Persian typesetting: shaping, bidi, brackets, ZWNJ, diacritics, digits, search and copy."""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata

import pytest
from fontTools.ttLib import TTFont

from conftest import DECKS, GUESS_THE_MESS_COUNTS
from deckforge.cli import main
from deckforge.sources.source import load_yaml
from deckforge.text import fonts, lineface
from deckforge.text.fit import TextStyle, fit, set_line
from deckforge.text.script import visual_glyphs, visual_line

FA = "guess-the-mess-fa"


def _presentation(ch: str) -> bool:
    return "\ufb50" <= ch <= "\ufdff" or "\ufe70" <= ch <= "\ufeff"


def _logical_from_visual(visual: str) -> str:
    return unicodedata.normalize("NFKC", visual[::-1])


@pytest.mark.parametrize("letter", list("پچژگکی"))
def test_persian_letters_take_every_joining_form(letter):
    # Isolated, initial, medial and final: the same letter drawn as four different glyphs
    # wherever the letter joins on that side (ژ never joins forwards: two forms).
    words = {
        "isolated": letter,
        "initial": letter + "ب",
        "medial": "ب" + letter + "ب",
        "final": "ب" + letter,
    }
    forms = {}
    for position, word in words.items():
        visual = visual_line(word, rtl=True)
        assert all(_presentation(ch) for ch in visual), (position, visual)
        assert _logical_from_visual(visual) == word
        index = {"isolated": 0, "initial": -1, "medial": 1, "final": 0}[position]
        forms[position] = visual[index]
    expected = 2 if letter == "ژ" else 4
    assert len(set(forms.values())) == expected, forms


def test_lam_alef_is_one_ligature_glyph():
    visual = visual_line("لا", rtl=True)
    assert visual == "\ufefb"
    assert _logical_from_visual(visual) == "لا"


def test_diacritics_are_kept():
    for word in ("مُهره", "کاملاً"):
        visual = visual_line(word, rtl=True)
        marks = [ch for ch in word if unicodedata.category(ch) == "Mn"]
        assert marks and all(mark in visual for mark in marks)


def test_zwnj_breaks_joining_and_draws_an_empty_glyph():
    joined, broken = visual_line("میدهد", True), visual_line("می‌دهد", True)
    assert joined != broken  # the ی before the ZWNJ takes its final form
    line = set_line("می‌دهد", fonts.REGULAR, 12, True)
    # Drawn in place, inside a text object with the letters before it (PDFium drops a
    # text object that has no extent), in the line's one face.
    (run,) = [run for run in line.runs if "\u200c" in run.text]
    assert run.text.index("\u200c") > 0 and run.font == lineface.face(fonts.REGULAR).name
    assert {r.font for r in line.runs} == {run.font}
    assert fonts.width("\u200c", run.font, 12) == 0
    font = TTFont(lineface.face(fonts.REGULAR).path)
    glyph = font["glyf"][font.getBestCmap()[0x200C]]
    assert glyph.numberOfContours == 0, "the face drawing ZWNJ must show nothing"


def test_mirrored_brackets_read_as_the_bracket_typed():
    glyphs = visual_glyphs("(از ۱ تا ۴)", True)
    assert glyphs[0][:2] == ("(", ")") and glyphs[-1][:2] == (")", "(")
    # Drawn as the mirror image, read (through /ToUnicode) as the bracket typed.
    text = "".join(run.text for run in set_line("(از ۱ تا ۴)", fonts.REGULAR, 12, True).runs)
    first, last = text[0], text[-1]
    assert lineface.reads_as(ord(first)) == ")" and lineface.reads_as(ord(last)) == "("
    assert fonts.width(first, lineface.face().name, 12) == fonts.width("(", "NotoSans-Regular", 12)


def test_a_mark_ending_a_word_is_drawn_with_the_space_before_it():
    # pdf.js left a space on both sides of such a mark, and its search failed.
    line = set_line("بوفهٔ مدرسه", fonts.BOLD, 12, True)
    text = "".join(run.text for run in line.runs)
    alias = lineface.SPACED_MARKS["\u0654"]
    assert alias in text and "\u0654" not in text and " " not in text
    assert lineface.reads_as(ord(alias)) == " \u0654"
    face = lineface.face(fonts.BOLD)
    assert fonts.width(alias, face.name, 12) == fonts.width(" ", "NotoSans-Bold", 12)
    # The glyph is the mark, moved right by the space's advance: where the mark stood
    # when it was drawn after the space.
    font = TTFont(face.path)
    cmap = font.getBestCmap()
    (component,) = font["glyf"][cmap[ord(alias)]].components
    assert component.glyphName == cmap[0x0654]
    assert (component.x, component.y) == (font["hmtx"][cmap[0x20]][0], 0)
    # Stacked marks stay as they were.
    stacked = "".join(r.text for r in set_line("مکانِّ رو", fonts.BOLD, 12, True).runs)
    assert not set(stacked) & set(lineface.SPACED_MARKS.values())


def test_latin_inside_persian_keeps_the_latin_faces_glyphs():
    line = set_line("کارت‌های Dixit", fonts.REGULAR, 12, True)
    assert all(run.font == lineface.face(fonts.REGULAR).name for run in line.runs)
    text = "".join(run.text for run in line.runs)
    assert "Dixit" in text
    assert all(lineface.default_family(ch) == "latin" for ch in "Dixit")


def test_a_right_to_left_mark_keeps_numbers_in_place_for_poppler():
    # poppler would read "با ۸ در" as "با ۸در": a mark of no width, in a text object of
    # its own, stands left of the number.
    line = set_line("با ۸ در", fonts.REGULAR, 12, True)
    marks = [run for run in line.runs if run.text == "\u200f"]
    (number,) = [run for run in line.runs if "۸" in run.text]
    assert len(marks) == 1 and marks[0].width == 0
    assert number.offset - 0.1 < marks[0].offset < number.offset
    assert "".join(run.text for run in line.runs if run.text != "\u200f") == visual_line(
        "با ۸ در", True
    )


def test_punctuation_between_words_has_no_mark():
    # poppler's search looks for "این، هر" as drawn: a mark beside the comma kept it from
    # finding the phrase. A number keeps its mark, and so does punctuation beside it.
    line = set_line("این، هر کارت ۸، یا", fonts.REGULAR, 12, True)
    marks = [run.offset for run in line.runs if run.text == "\u200f"]
    starts = {run.text: run.offset for run in line.runs if run.text != "\u200f"}
    assert len(marks) == 2
    assert all(any(0 < starts[text] - mark < 0.1 for mark in marks) for text in ("۸ ", "،"))
    assert not [run for run in set_line("این، هر", fonts.REGULAR, 12, True).runs if not run.width]


def test_paragraphs_wrap_first_words_first():
    text = "در هر دور، هر بازیکن یک کارت مکان مخفی دارد و باید در سی ثانیه خرت‌وپرت جمع کند"
    fitted = fit(text, 110, 1000, TextStyle(11, 11), "fa")
    assert len(fitted.lines) >= 3
    assert fitted.lines[0].logical.startswith("در هر دور")
    assert " ".join(line.logical for line in fitted.lines) == text
    # Each line is right-aligned and read right to left: its first word is drawn rightmost.
    first = fitted.lines[0]
    drawn = "".join(run.text for run in sorted(first.runs, key=lambda run: run.offset))
    assert _logical_from_visual(drawn.split(" ")[-1]) == "در"


def test_a_character_no_font_has_is_an_error_naming_card_and_character(project, capsys):
    places = project / "decks" / "guess-the-mess" / "places.yaml"
    text = places.read_text(encoding="utf-8")
    places.write_text(text.replace("fa: آشپزخانه}", "fa: آشپزخانه 漢}", 1), encoding="utf-8")
    assert main(["--decks", str(project / "decks"), "validate", FA]) == 1
    err = capsys.readouterr().err
    assert re.search(
        r"places\.yaml:\d+:\d+: places\[0\]\.name\.fa: card 'kitchen': no font can "
        r"draw the character '漢' \(U\+6F22\)",
        err,
    ), err


def _pdftotext(path) -> list[str]:
    assert shutil.which("pdftotext"), "pdftotext (Debian's poppler-utils) is needed for this test"
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    return out.split("\f")


#: Directional marks and embeddings that extraction may add around runs; they draw nothing.
_MARKS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e"


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for ch in text if ch not in _MARKS)
    return " ".join(text.split())


#: Punctuation between two right-to-left words (letters, not digits), with the spaces
#: and brackets after it.
_LETTER = "[\u0621-\u064a\u0671-\u06d3]"
_BETWEEN_WORDS = re.compile(
    f"({_LETTER}[)\\]»]?)([.,:،][ ()\\[\\]«»]* [ ()\\[\\]«»]*)(?={_LETTER})"
)


def _as_poppler_copies(line: str) -> str:
    """A right-to-left line as poppler copies it: it counts . , : ، as part of a number
    with the neutral characters after it, and puts that piece in drawing order
    ("این ،هر" for "این، هر"; see deckforge.text.lines)."""
    return _BETWEEN_WORDS.sub(lambda m: m.group(1) + m.group(2)[::-1], line)


def _card_lines(face) -> list[str]:
    """The logical text of every line drawn on a card side, as laid out."""
    from deckforge.drawing.ops import Text

    return [line.logical for op in face.ops if isinstance(op, Text) for line in op.fitted.lines]


@pytest.fixture(scope="module")
def persian_cards():
    from pathlib import Path

    from deckforge.pipeline.recipe import check
    from deckforge.sources.load import Project

    laid_out, _, problems = check(
        Project(Path(DECKS)), ["guess-the-mess-fa", "gomaneh-fa"], ["printer"]
    )
    assert not [p for p in problems if p.severity == "error"]
    return {
        (laid.edition.id, deck): cards for laid in laid_out for deck, cards in laid.cards.items()
    }


@pytest.mark.engines
def test_pdftotext_reads_every_persian_card_as_written(built, persian_cards):
    checked = 0
    for (edition, deck), cards in persian_cards.items():
        pages = _pdftotext(built / edition / "printer" / f"{deck}.pdf")
        for index, card in enumerate(cards):
            for side, page in ((card.back, pages[2 * index]), (card.face, pages[2 * index + 1])):
                text = _clean(page)
                for line in _card_lines(side):
                    assert _clean(line) in text, (edition, deck, card.id, line, text)
                    checked += 1
    assert checked > 2000


@pytest.mark.parametrize(
    "deck,file,key", [("places", "places.yaml", "places"), ("mess", "mess.yaml", "items")]
)
@pytest.mark.engines
def test_pdftotext_gives_back_every_persian_name(built, deck, file, key):
    source, _ = load_yaml(DECKS / "guess-the-mess" / file, file)
    names = [entry["name"]["fa"] for entry in source.data[key]]
    pages = _pdftotext(built / FA / "printer" / f"{deck}.pdf")
    for index, name in enumerate(names):
        face = _clean(pages[2 * index + 1])
        assert unicodedata.normalize("NFKC", name) in face, (index, name, face)


def test_persian_cards_use_persian_digits(built):
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(built / FA / "printer" / "spots.pdf")
    try:
        texts = [pdf[i].get_textpage().get_text_range() for i in range(1, 16, 2)]
    finally:
        pdf.close()
    for number, text in enumerate(texts, start=1):
        assert str(number).translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")) in text
        assert not re.search(r"[0-9]", text)


@pytest.mark.engines
@pytest.mark.parametrize("edition", ["guess-the-mess-fa", "gomaneh-fa"])
def test_pdftotext_reads_the_persian_rulebook_line_by_line(built, edition):
    from pathlib import Path

    from deckforge.kinds.rulebook import Rulebook
    from deckforge.layout.components import lay_out_component
    from deckforge.pipeline.recipe import gather
    from deckforge.profiles import all_profiles
    from deckforge.sources.load import Project, select_editions

    editions, _ = gather(Project(Path(DECKS)), select_editions(Project(Path(DECKS)), [edition]))
    book = next(c for c in editions[0].components if isinstance(c, Rulebook))
    _, pages, problems = lay_out_component(editions[0], book, all_profiles()["pnp-a4"])
    assert not problems
    text = _clean(" ".join(_pdftotext(built / edition / "pnp-a4" / "rulebook.pdf")))
    lines = [
        line
        for page in pages
        for placement in page.placements
        for line in _card_lines(placement.face)
    ]
    assert len(lines) > 100
    missing = [line for line in lines if _clean(_as_poppler_copies(line)) not in text]
    assert not missing, missing[:5]


def test_manifest_lists_the_persian_editions(manifest):
    for profile in ("pnp-a4", "pnp-letter", "printer"):
        for deck, count in GUESS_THE_MESS_COUNTS.items():
            found = [
                e
                for e in manifest
                if e["edition"] == FA and e["profile"] == profile and e["deck"] == deck
            ]
            assert len(found) == 1 and found[0]["cards"] == count and found[0]["locale"] == "fa"
        gomaneh = {
            e["deck"]: e
            for e in manifest
            if e["edition"] == "gomaneh-fa" and e["profile"] == profile
        }
        assert gomaneh["pictures"]["kind"] == "cards" and gomaneh["pictures"]["cards"] == 84
        assert gomaneh["votes"]["kind"] == "cards" and gomaneh["votes"]["cards"] == 36
        # The board whole for a shop; on two sheets that join at home.
        sheets = 1 if profile == "printer" else 2
        assert gomaneh["score-track"]["kind"] == "board"
        assert gomaneh["score-track"]["pages"] == sheets
        assert gomaneh["pawns"]["kind"] == "pawns"
        assert gomaneh["rulebook"]["kind"] == "rulebook"


def test_a_missing_translation_is_reported(project, capsys):
    mess = project / "decks" / "guess-the-mess" / "mess.yaml"
    text = mess.read_text(encoding="utf-8")
    mess.write_text(
        re.sub(r"name: \{en: ([^,]+), fa: [^}]+\}", r"name: {en: \1}", text, count=1),
        encoding="utf-8",
    )
    assert main(["--decks", str(project / "decks"), "validate", FA]) == 1
    assert re.search(
        r"mess\.yaml:\d+:\d+: items\[0\]\.name: missing 'fa' translation \(has en\)",
        capsys.readouterr().err,
    )
    # The English edition does not need the Persian name.
    assert main(["--decks", str(project / "decks"), "validate", "guess-the-mess-en"]) == 0


def _type_sizes(pdf_path, pages: int = 6) -> dict[str, float]:
    """The smallest size each script is drawn at on a file's first pages, in points, as
    PDFium reads the glyphs: {"arabic": …, "latin": …}."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    smallest = {"arabic": float("inf"), "latin": float("inf")}
    doc = pdfium.PdfDocument(pdf_path)
    try:
        for index in range(min(pages, len(doc))):
            textpage = doc[index].get_textpage()
            for char in range(raw.FPDFText_CountChars(textpage)):
                ch = chr(raw.FPDFText_GetUnicode(textpage, char))
                if not ch.isalnum():
                    continue  # spaces, marks of no width, punctuation
                script = "arabic" if "\u0600" <= ch <= "\u06ff" else "latin"
                size = raw.FPDFText_GetFontSize(textpage, char)
                smallest[script] = min(smallest[script], size)
    finally:
        doc.close()
    return smallest


@pytest.mark.parametrize("profile", ["pnp-a4", "printer"])
def test_persian_card_type_is_as_large_as_the_english(built, manifest, profile):
    # Print shops want type of at least 7 pt; Persian labels were set about 2 pt smaller
    # than the English ones on the same cards, measured by the taller Arabic letters.
    cards = [e for e in manifest if e["profile"] == profile and e["kind"] == "cards"]
    persian = [e for e in cards if e["locale"] == "fa"]
    assert len(persian) >= 8
    for each in persian:
        assert _type_sizes(built / each["path"])["arabic"] >= 7 - 1e-6, each["path"]
    for deck in GUESS_THE_MESS_COUNTS:
        english = _type_sizes(built / "guess-the-mess-en" / profile / f"{deck}.pdf")["latin"]
        farsi = _type_sizes(built / FA / profile / f"{deck}.pdf")["arabic"]
        assert farsi >= english - 1e-6, (deck, farsi, english)


def _leaves(font, name: str) -> list[str]:
    """The simple glyphs a glyph draws (its own outline, or its components')."""
    glyph = font["glyf"][name]
    if glyph.isComposite():
        return [leaf for part in glyph.components for leaf in _leaves(font, part.glyphName)]
    return [name] if glyph.numberOfContours else []


def _joining(names: list[str]) -> str:
    """The joining form of a letter's glyphs, read from its skeleton's name."""
    forms = [f for name in names for f in ("init", "medi", "fina") if f".{f}" in name]
    return forms[0] if forms else "isol"


def _source_words() -> list[str]:
    """Every Persian word in the shipped decks' source files, as the build reads it."""
    from deckforge.text.script import normalise_letters

    words = set()
    game_folders = (folder.resolve() for folder in sorted(DECKS.iterdir()))
    for path in sorted(p for folder in game_folders for p in folder.rglob("*")):
        if path.suffix in (".yaml", ".csv") and path.is_file():
            text = normalise_letters(path.read_text(encoding="utf-8"))
            words.update(re.findall("[\u0621-\u065f\u0670-\u06d3\u200c]+", text))
    return sorted(w.strip("\u200c") for w in words if re.search("[\u0621-\u064a]", w))


@pytest.mark.parametrize("weight", [fonts.REGULAR, fonts.BOLD])
def test_persian_is_drawn_with_the_glyphs_harfbuzz_chooses(weight):
    # Each letter's glyphs as drawn (through the line face's character map and its
    # composite glyphs' components, not through the PDF's text) against HarfBuzz's for
    # the letter with the same font, compared as the outlines drawn, whatever their places.
    import unicodedata as ud

    from deckforge.text.script import visual_order
    from deckforge.text.shaping import _shape

    face = lineface.face(weight)
    font = TTFont(face.path)
    cmap = font.getBestCmap()
    words = _source_words()
    assert len(words) > 1000
    same, joined, wrong = 0, 0, []
    for word in words:
        line = set_line(word, weight, 12, True)
        drawn = "".join(run.text for run in sorted(line.runs, key=lambda r: r.offset) if run.width)
        glyphs = [g for g in visual_order(word, True) if g.char != "\u200c"]
        drawn = drawn.replace("\u200c", "")
        assert len(drawn) == len(glyphs), word
        harfbuzz = _shape(word, weight)
        ok = joins = True
        for glyph, ch in zip(glyphs, drawn, strict=True):
            span = len(ud.normalize("NFKC", glyph.char)) if 0xFB50 <= ord(glyph.char) else 1
            theirs = [
                leaf
                for index in range(glyph.index, glyph.index + span)
                for name, _, _ in harfbuzz.get(index, ())
                for leaf in _leaves(font, name)
            ]
            mine = _leaves(font, cmap[ord(ch)])
            ok = ok and sorted(mine) == sorted(theirs)
            joins = joins and _joining(mine) == _joining(theirs)
        same += ok
        joined += joins
        if not ok:
            wrong.append(word)
    assert joined == len(words)
    assert same >= 0.99 * len(words), (f"{same} of {len(words)}", wrong[:20])
