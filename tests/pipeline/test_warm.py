"""A first build fills the caches before its workers start: the font instances its
editions' scripts need and the drawings of the icons its cards show; what it makes is
the same bytes whenever it is made."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from deckforge import cache as kept
from deckforge.render.pdf import icon_cache

pytestmark = pytest.mark.slow  # first builds from empty caches

GAMES = Path(icon_cache.__file__).parents[2] / "sources" / "games"
EXAMPLE, GOMANEH = GAMES / "example", GAMES / "gomaneh"


def _build(project: Path, cache: Path, *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "deckforge", "build", "--jobs", "2", "--quiet", *args],
        cwd=project,
        env={**os.environ, "DECKFORGE_CACHE": str(cache)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def _faces(cache: Path) -> set[str]:
    """The faces kept in the cache folder ``cache``, each of them whole."""
    for font in cache.glob("*.ttf"):
        assert hashlib.sha256(font.read_bytes()).hexdigest() == font.name.removesuffix(".ttf")
    return {p.name.removeprefix("font-").rsplit("-", 1)[0] for p in cache.glob("font-*.json")}


def _icons(cache: Path) -> dict:
    """The icon drawings kept in the cache folder ``cache``."""
    raw = (cache / f"{icon_cache.NAME}.json").read_bytes()
    return icon_cache.decode(kept.decode(raw, icon_cache.entry_version())[1])


def test_a_first_build_cuts_the_fonts_and_draws_the_icons_its_cards_need(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "decks" / "example")
    cache = tmp_path / "cache"
    _build(tmp_path, cache)
    # An English edition: the Latin faces only (the Arabic faces and the line faces made
    # from both are for right-to-left editions).
    assert {"NotoSans-Bold", "NotoSans-Regular"} <= _faces(cache)
    assert not any(face.startswith("NotoSansArabic") for face in _faces(cache))
    codes = {code for code, colour in _icons(cache) if colour is None}
    assert {"1F333", "1F373", "1F3D6", "1F409", "1F3F0"} <= codes


def test_a_first_build_of_a_persian_edition_makes_the_arabic_and_line_faces(tmp_path):
    shutil.copytree(GOMANEH, tmp_path / "decks" / "gomaneh")
    args = ("--edition", "gomaneh-fa", "--profile", "pnp-a4")
    cold, again = tmp_path / "cold", tmp_path / "again"
    _build(tmp_path, cold, *args, "--out", "first")
    for family in ("NotoSans", "NotoSansArabic", "NotoSansArabicLatin"):
        assert {f"{family}-Bold", f"{family}-Regular"} <= _faces(cold)
    # Built from another empty cache, later: the same faces, byte for byte, and the
    # same PDFs (nothing in them depends on when the faces were made); and the same
    # PDFs from the cache the first build filled.
    _build(tmp_path, again, *args, "--out", "second")
    _build(tmp_path, cold, *args, "--out", "warm")
    fonts = {p.name for p in cold.glob("*.ttf")}
    assert fonts and fonts == {p.name for p in again.glob("*.ttf")}  # named by their digest
    pdfs = sorted((tmp_path / "first").rglob("*.pdf"))
    assert pdfs
    for pdf in pdfs:
        mine = pdf.read_bytes()
        for other in ("second", "warm"):
            twin = tmp_path / other / pdf.relative_to(tmp_path / "first")
            assert twin.read_bytes() == mine, twin


def test_a_first_build_for_a_press_makes_its_profile_beside_the_fonts(tmp_path):
    """The press profile deckforge makes (seconds) is made by one of the build's
    processes while the others cut the fonts; the icons are then drawn in its inks. The
    PDFs are those of a build that finds everything in the cache."""
    shutil.copytree(EXAMPLE, tmp_path / "decks" / "example")
    cache = tmp_path / "cache"
    _build(tmp_path, cache, "--profile", "printer-cmyk", "--out", "first")
    (profile,) = cache.glob("*.icc")
    assert profile.read_bytes()[16:20] == b"CMYK"
    assert {"NotoSans-Bold", "NotoSans-Regular"} <= _faces(cache)
    inks = {colour for code, colour in _icons(cache) if code == "1F333"}
    assert len(inks) == 1 and None not in inks  # in CMYK only
    _build(tmp_path, cache, "--profile", "printer-cmyk", "--out", "warm")
    pdfs = sorted((tmp_path / "first").rglob("*.pdf"))
    assert pdfs
    for pdf in pdfs:
        twin = tmp_path / "warm" / pdf.relative_to(tmp_path / "first")
        assert twin.read_bytes() == pdf.read_bytes(), twin


def test_a_first_build_that_stops_at_its_sources_keeps_the_fonts_it_cut(tmp_path):
    """The Latin faces are cut while the sources are read; a source with an error stops
    the build as ever (its message, a failing exit, no output), and what was cut is kept
    for the next build, not lost."""
    shutil.copytree(EXAMPLE, tmp_path / "decks" / "example")
    places = next((tmp_path / "decks" / "example").glob("places*.yaml"))
    places.write_text(places.read_text(encoding="utf-8") + "\nthis: [is broken\n", "utf-8")
    cache = tmp_path / "cache"
    done = subprocess.run(
        [sys.executable, "-m", "deckforge", "build", "--jobs", "2", "--out", "out"],
        cwd=tmp_path,
        env={**os.environ, "DECKFORGE_CACHE": str(cache)},
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    assert f"{places.name}:39:1: YAML syntax error" in done.stderr
    assert "nothing was written" in done.stderr
    assert not (tmp_path / "out").exists()
    assert {"NotoSans-Bold", "NotoSans-Regular"} <= _faces(cache)
