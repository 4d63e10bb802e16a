"""The static font instances: the same glyphs as instancing the whole variable font,
and a cache that is checked, so that a damaged file is made again, not trusted."""

from __future__ import annotations

import hashlib
import io
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fontTools.misc.roundTools import otRound
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

from deckforge import cache as kept
from deckforge.text import fonts, instances

FACES = [(family, weight) for family in fonts.FAMILIES for weight in (fonts.REGULAR, fonts.BOLD)]
DATA = Path(__file__).parents[1] / "data" / "minimal"


@pytest.fixture(scope="module")
def made() -> dict[tuple[str, str], bytes]:
    """Every face's instance as deckforge cuts it now."""
    return {key: fonts.cut(fonts.instance_of(*key)) for key in FACES}


@pytest.fixture(scope="module")
def cut(made) -> dict[tuple[str, str], TTFont]:
    """Every face's instance read back with fontTools."""
    return {key: TTFont(io.BytesIO(data)) for key, data in made.items()}


def _location(key: tuple[str, str]) -> dict[str, float]:
    return {"wght": 700 if key[1] == fonts.BOLD else 400, "wdth": 100}


def _reference(key: tuple[str, str]) -> TTFont:
    """The whole variable font, layout tables and all, instanced with fontTools."""
    source = TTFont(fonts.instance_of(*key).source)
    return instancer.instantiateVariableFont(source, _location(key), updateFontNames=False)


def _outline(font: TTFont, name: str) -> tuple:
    """A glyph as saved: its points, or its components and their offsets, rounded as
    saving rounds them (the reference is not saved: compiling its GPOS takes seconds)."""
    glyf = font["glyf"]
    glyph = glyf[name]
    if glyph.isComposite():
        return tuple(
            (c.glyphName, otRound(c.x), otRound(c.y), getattr(c, "transform", None))
            for c in glyph.components
        )
    coordinates, ends, flags = glyph.getCoordinates(glyf)
    points = [(otRound(x), otRound(y)) for x, y in coordinates]
    return points, ends, [f & 1 for f in flags]  # on or off the curve


def _bounds(font: TTFont, name: str) -> tuple | None:
    """A glyph's bounding box as its header gives it (none for an empty glyph)."""
    glyph = font["glyf"][name]
    if not glyph.numberOfContours:
        return None
    return glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax


def _same_glyphs(ours: TTFont, reference: TTFont, every: bool = True) -> None:
    """The glyphs of ``ours`` (or, not ``every``, those a PDF can draw from it) are the
    reference's, with its advances and side bearings."""
    assert ours.getGlyphOrder() == reference.getGlyphOrder()
    assert ours.getBestCmap() == reference.getBestCmap()
    for table, theirs in zip(ours["cmap"].tables, reference["cmap"].tables, strict=True):
        assert table.cmap == theirs.cmap
    drawn = instances.reachable(ours)
    assert drawn == instances.reachable(reference)
    for name in reference.getGlyphOrder():
        if every or name in drawn:
            assert _outline(ours, name) == _outline(reference, name), name
            assert ours["hmtx"][name] == reference["hmtx"][name], name
            assert _bounds(ours, name) == _bounds(reference, name), name
    # The vertical metrics ReportLab reads (varied by MVAR).
    for tag, fields in (
        ("hhea", ("ascent", "descent", "lineGap")),
        ("OS/2", ("sTypoAscender", "sTypoDescender", "usWinAscent", "usWinDescent")),
        ("OS/2", ("sxHeight", "sCapHeight", "usWeightClass", "usWidthClass", "fsType")),
        ("post", ("italicAngle", "underlinePosition", "underlineThickness", "isFixedPitch")),
        ("head", ("unitsPerEm", "macStyle", "flags")),  # its bounding box: see below
        ("maxp", ("numGlyphs",)),
    ):
        for field in fields:
            assert getattr(ours[tag], field) == getattr(reference[tag], field), (tag, field)


def _drawn_by_nothing(font: TTFont) -> set[str]:
    """The glyphs of ``font`` that no character, no composite glyph and no Arabic
    shaping (its substitutions for Arabic script) draws."""
    return set(font.getGlyphOrder()) - instances.reachable(font, instances.shaped_glyphs(font))


# Bold is away from the default location: there the variations move outlines and
# advances (and GPOS and GSUB variations had to be merged too, which took nearly all of
# the time). Instancing Noto Sans whole takes a quarter of a minute a weight.
@pytest.mark.slow  # instances whole fonts as a reference
@pytest.mark.parametrize("family", list(fonts.FAMILIES))
def test_bold_instances_have_the_glyphs_of_a_reference_instancing(cut, family):
    reference = _reference((family, fonts.BOLD))
    ours = cut[(family, fonts.BOLD)]
    _same_glyphs(ours, reference, every=False)
    # Only the glyphs nothing draws were left out (the small capitals, alternates and
    # the rest that only the layout tables reach), and they are empty in the file.
    blank = {name for name in ours.getGlyphOrder() if ours["glyf"][name].numberOfContours == 0}
    assert _drawn_by_nothing(reference) <= blank
    emptied = {n for n in blank if reference["glyf"][n].numberOfContours != 0}
    assert emptied <= _drawn_by_nothing(reference)
    drawable = instances.reachable(ours, instances.shaped_glyphs(reference))
    assert emptied.isdisjoint(drawable)
    if not instances.shaped_glyphs(reference):
        # (Persian shaping draws nearly every glyph of Noto Sans Arabic.)
        assert len(_drawn_by_nothing(reference)) > len(ours.getGlyphOrder()) // 20
    # The bounding box of the glyphs a PDF can draw, no larger.
    head = ours["head"]
    drawn = [ours["glyf"][n] for n in drawable if ours["glyf"][n].numberOfContours]
    assert (head.xMin, head.yMin, head.xMax, head.yMax) == (
        min(g.xMin for g in drawn),
        min(g.yMin for g in drawn),
        max(g.xMax for g in drawn),
        max(g.yMax for g in drawn),
    )


# Regular is the variable font's default location: its glyphs are the font's own.
@pytest.mark.parametrize("family", list(fonts.FAMILIES))
def test_regular_instances_have_the_variable_fonts_default_glyphs(cut, family):
    _same_glyphs(cut[(family, fonts.REGULAR)], TTFont(fonts.instance_of(family, "regular").source))


def _instanced(instance: fonts.Instance) -> bytes:
    """The instance as fontTools' instancer makes it from the tables ReportLab reads and
    their variations, named as :func:`fonts.cut` names it."""
    font = TTFont(instance.source, recalcTimestamp=False)
    for tag in (
        set(font.keys()) - instances.READ_BY_REPORTLAB - instances._VARIATIONS - {"GlyphOrder"}
    ):
        del font[tag]
    static = instancer.instantiateVariableFont(
        font, {"wght": instance.weight, "wdth": 100}, inplace=True, updateFontNames=False
    )
    family, _, style = instance.ps_name.partition("-")
    names = static["name"]
    names.names = [
        r for r in names.names if r.nameID < 256 and r.nameID not in (1, 2, 4, 6, 16, 17, 25)
    ]
    for name_id, text in ((1, family), (2, style), (4, f"{family} {style}"), (6, instance.ps_name)):
        names.setName(text, name_id, 3, 1, 0x409)
    static["OS/2"].usWeightClass = instance.weight
    out = io.BytesIO()
    static.save(out)
    return out.getvalue()


# At the default location the static font is made without the instancer: the same
# bytes, the overlap flags it sets on each glyph and the average advance included.
# (Noto Sans Arabic has no italic font.)
@pytest.mark.parametrize(
    "key", [("latin", fonts.REGULAR), ("latin", fonts.ITALIC), ("arabic", fonts.REGULAR)]
)
@pytest.mark.slow  # instances the fonts again
def test_default_instances_are_the_instancers_bytes(key):
    instance = fonts.instance_of(*key)
    assert TTFont(instance.source)["fvar"].axes[0].defaultValue == instance.weight
    assert fonts.cut(instance) == _instanced(instance)


def test_instances_keep_only_what_reportlab_reads(cut):
    for font in cut.values():
        assert set(font.keys()) - {"GlyphOrder"} <= instances.READ_BY_REPORTLAB
        assert {"GSUB", "GPOS", "GDEF", "fvar", "gvar"}.isdisjoint(font.keys())


def test_persian_needs_no_glyph_substitution(cut):
    """arabic-reshaper turns every Persian letter into a presentation form (and lam-alef
    into its ligature); every one of them is in the instance's character map."""
    import arabic_reshaper

    letters = "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهیآأؤإئةك"
    words = [a + b + c for a in letters for b in letters for c in "بال"] + ["لا", "لأ", "لآ"]
    shaped = {ch for word in words for ch in arabic_reshaper.reshape(word)}
    cmap = cut[("arabic", fonts.REGULAR)].getBestCmap()
    assert {ch for ch in shaped if "\ufb50" <= ch <= "\ufeff"}, "nothing was shaped"
    assert sorted(f"U+{ord(ch):04X}" for ch in shaped if ord(ch) not in cmap) == []


@pytest.mark.slow  # instances the fonts again
def test_instances_are_the_same_bytes_every_time():
    instance = fonts.instance_of("arabic", fonts.BOLD)
    assert fonts.cut(instance) == fonts.cut(instance)


@pytest.fixture(scope="module")
def filled_cache(made, tmp_path_factory) -> Path:
    """A cache folder holding every face, for the tests that damage it."""
    folder = tmp_path_factory.mktemp("font-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DECKFORGE_CACHE", str(folder))
        for key, data in made.items():
            fonts.keep(fonts.instance_of(*key), data)
    return folder


@pytest.fixture()
def cache(filled_cache, tmp_path, monkeypatch) -> Path:
    """A cache folder of this test's own, filled; faces are registered afresh from it."""
    folder = tmp_path / "cache"
    shutil.copytree(filled_cache, folder)
    monkeypatch.setenv("DECKFORGE_CACHE", str(folder))
    fonts.face.cache_clear()
    yield folder
    fonts.face.cache_clear()  # registered again from the usual cache when next asked


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 3])
    elif how == "corrupt":
        middle = len(data) // 2
        path.write_bytes(
            data[:middle]
            + bytes(b ^ 0x5A for b in data[middle : middle + 64])
            + data[middle + 64 :]
        )


@pytest.mark.parametrize("how", ["truncated", "corrupt", "its entry damaged"])
def test_a_damaged_cached_font_is_made_again_with_a_warning(cache, caplog, how):
    instance = fonts.instance_of("arabic", fonts.REGULAR)
    path = fonts.cached_path(instance)
    good = path.read_bytes()
    entry = kept.path_of(fonts._name(instance))
    if how == "its entry damaged":
        entry.write_text("not an entry\n")
        victim, reason = entry, "it is not a cache entry deckforge wrote"
    else:
        _damage(path, how)
        victim, reason = path, "it does not match its checksum: truncated or changed"
    with caplog.at_level(logging.WARNING, logger=kept.__name__):
        face = fonts.face("arabic", fonts.REGULAR)
    assert [r.getMessage() for r in caplog.records] == [
        f"{victim}: the cache entry is damaged ({reason}); it is made again"
    ]
    assert fonts.cached_path(instance) == path and path.read_bytes() == good
    assert hashlib.sha256(good).hexdigest() == path.name.removesuffix(".ttf")
    assert ord("\ufefb") in face.coverage
    assert fonts.width("\ufefb", face.name, 10) > 0


def test_a_sound_cache_is_used_without_a_word(cache, caplog, monkeypatch):
    def refuse(instance):
        raise AssertionError(f"{instance.ps_name} was cut again")

    monkeypatch.setattr(fonts, "cut", refuse)
    with caplog.at_level(logging.WARNING):
        fonts.prepare(2)
    assert caplog.records == []


def test_fonts_missing_from_the_cache_are_cut_in_parallel(cache):
    for key in [("arabic", fonts.REGULAR), ("arabic", fonts.BOLD)]:
        path = fonts.cached_path(fonts.instance_of(*key))
        path.unlink()
    fonts.prepare(2)
    for key in FACES:
        path = fonts.cached_path(fonts.instance_of(*key))
        assert hashlib.sha256(path.read_bytes()).hexdigest() == path.name.removesuffix(".ttf")
    assert fonts.face.cache_info().currsize == len(FACES)


@pytest.mark.slow  # a first build's fonts cut again
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_build_with_a_damaged_font_cache_warns_and_succeeds(cache, tmp_path, jobs):
    latin = fonts.cached_path(fonts.instance_of("latin", fonts.BOLD))
    _damage(latin, "truncated")
    shutil.copytree(DATA, tmp_path / "decks" / "minimal")
    done = subprocess.run(
        [sys.executable, "-m", "deckforge", "build", "--profile", "pnp-a4", "--jobs", jobs],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    warning = (
        f"{latin}: the cache entry is damaged (it does not match its checksum: "
        "truncated or changed); it is made again"
    )
    assert done.stderr.splitlines().count(warning) == 1, done.stderr
    assert "internal error" not in done.stderr
    assert (tmp_path / "build" / "minimal-en" / "pnp-a4" / "places.pdf").is_file()
    assert hashlib.sha256(latin.read_bytes()).hexdigest() == latin.name.removesuffix(".ttf")


def _vera(ps_name: str) -> TTFont:
    """ReportLab's own Bitstream Vera Sans, named as another face may be."""
    import reportlab

    font = TTFont(Path(reportlab.__file__).parent / "fonts" / "Vera.ttf")
    for record in font["name"].names:
        if record.nameID == 6:
            record.string = ps_name
        elif record.nameID in (1, 4, 16):
            record.string = "Noto Sans"
    return font


def _quiz_with_font(tmp_path: Path, write) -> tuple[Path, Path]:
    """A project made by 'deckforge new game quiz' whose questions are set in the font
    file ``write`` makes (given its path), and where its PDF of trivia cards is built."""
    from deckforge.authoring.game import new_game
    from deckforge.sources.load import Project

    decks = tmp_path / "decks"
    decks.mkdir()
    new_game(Project(decks), "quiz")
    own = decks / "quiz" / "templates"
    write(own / "Mine.ttf")
    (own / "trivia.yaml").write_text(
        "kind: template\nextends: trivia\nstyles:\n  question: {font: Mine.ttf, weight: regular}\n"
    )
    return decks, tmp_path / "build" / "quiz" / "printer" / "trivia.pdf"


def _outlines(font: TTFont) -> set[tuple]:
    """Every glyph's outline (its points and contours), of the glyphs that have one."""
    glyf = font["glyf"]
    found = set()
    for name in font.getGlyphOrder():
        coordinates, ends, _ = glyf[name].getCoordinates(glyf)
        if len(coordinates):
            found.add((tuple(coordinates), tuple(ends)))
    return found


def test_a_project_font_named_as_a_shipped_face_is_embedded_as_itself(tmp_path, capsys):
    import pikepdf

    from deckforge.cli import main

    mine = _vera("NotoSans-Regular")
    decks, pdf = _quiz_with_font(tmp_path, mine.save)
    build = ["--decks", str(decks), "build", "--profile", "printer", "--out"]
    assert main([*build, str(tmp_path / "build"), "--quiet"]) == 0, capsys.readouterr().err
    embedded = {}
    with pikepdf.open(pdf) as document:
        for page in document.pages[:2]:
            for font in page.Resources.Font.values():
                program = font.FontDescriptor.FontFile2.read_bytes()
                embedded[str(font.BaseFont).split("+", 1)[1]] = TTFont(io.BytesIO(program))
    own = [name for name in embedded if name.startswith("Mine-")]
    assert len(own) == 1 and "NotoSans-Regular" not in embedded, sorted(embedded)
    subset = embedded[own[0]]
    assert subset["head"].unitsPerEm == mine["head"].unitsPerEm == 2048
    assert _outlines(subset) and _outlines(subset) <= _outlines(mine)


def test_a_project_font_whose_glyphs_cannot_be_read_is_an_error_naming_it(tmp_path, capsys):
    import reportlab

    from deckforge.cli import main

    def garbled(path: Path) -> None:
        raw = bytearray((Path(reportlab.__file__).parent / "fonts" / "Vera.ttf").read_bytes())
        font = TTFont(io.BytesIO(bytes(raw)))
        offset, length = next(
            (entry.offset, entry.length)
            for tag, entry in font.reader.tables.items()
            if tag == "glyf"
        )
        raw[offset : offset + length] = bytes((n * 7919 + 13) % 251 for n in range(length))
        path.write_bytes(bytes(raw))

    decks, pdf = _quiz_with_font(tmp_path, garbled)
    build = ["--decks", str(decks), "build", "--profile", "printer", "--out"]
    assert main([*build, str(tmp_path / "build"), "--quiet"]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        "decks/quiz/templates/trivia.yaml:4:20: styles.question.font: "
        "cannot use the font 'Mine.ttf': its glyphs cannot be read (unpack requires a "
        "buffer of 2 bytes)"
    )
    assert not pdf.exists()
