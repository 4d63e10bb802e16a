"""The icon drawings kept between builds: data that is checked, never code that runs.

A build from an empty cache draws what a build from a filled one draws, and a damaged
cache entry is not used: the icons are made again, with a warning, and the entry
replaced.
"""

from __future__ import annotations

import logging
import pickle
import shutil
from pathlib import Path

import pytest

from deckforge import cache as kept
from deckforge.cli import main
from deckforge.render.pdf import icon_cache
from deckforge.text import fonts

EXAMPLE = Path(icon_cache.__file__).parents[2] / "sources" / "games" / "example"


@pytest.fixture()
def cache(tmp_path, monkeypatch) -> Path:
    """An empty icon cache (with the font instances already made, which are not what
    is tested here) and an empty table of drawings in this process."""
    for family in fonts.FAMILIES:
        for weight in (fonts.REGULAR, fonts.BOLD):
            fonts.face(family, weight)  # made in the usual cache if it lacks them
    folder = tmp_path / "cache"
    folder.mkdir()
    for kept_font in [*kept.folder().glob("font-*.json"), *kept.folder().glob("*.ttf")]:
        shutil.copy2(kept_font, folder / kept_font.name)
    monkeypatch.setenv("DECKFORGE_CACHE", str(folder))
    monkeypatch.setattr(icon_cache, "ICON_CODE", {})
    return folder


def _build(project: Path, out: Path, jobs: str = "2", profile: str = "pnp-a4") -> bytes:
    """The example's place deck built in a profile, from a fresh table of drawings."""
    icon_cache.ICON_CODE.clear()
    decks = str(project / "decks")
    args = ["--decks", decks, "build", "--out", str(out), "--profile", profile, "--force"]
    assert main([*args, "--quiet", "--jobs", jobs]) == 0
    return (out / "example-en" / profile / "places.pdf").read_bytes()


def _drawings(raw: bytes) -> dict:
    """The drawings in a cache entry's bytes."""
    return icon_cache.decode(kept.decode(raw, icon_cache.entry_version())[1])


def _entry(drawings: dict) -> bytes:
    """A cache entry's bytes holding ``drawings``."""
    return kept.encode(icon_cache.entry_version(), icon_cache.encode(drawings))


@pytest.fixture()
def project(tmp_path) -> Path:
    """A project holding the example edition."""
    shutil.copytree(EXAMPLE, tmp_path / "project" / "decks" / "example")
    return tmp_path / "project"


@pytest.mark.parametrize("profile", ["pnp-a4", "printer-cmyk"])
def test_a_build_from_an_empty_cache_draws_what_one_from_the_filled_cache_draws(
    cache, project, tmp_path, profile
):
    # One process makes each icon as a card draws it; two make them all ahead, together.
    alone = _build(project, tmp_path / "alone", "1", profile)
    path = icon_cache.cache_path()
    assert path.parent == cache and _drawings(path.read_bytes())
    path.unlink()
    cold = _build(project, tmp_path / "cold", "2", profile)
    drawn = _drawings(path.read_bytes())
    # The example's five place icons (and the rulebook's), in the profile's colours.
    places = {"1F333", "1F373", "1F3D6", "1F409", "1F3F0"}
    assert places <= {code for code, _ in drawn}
    assert {colour is None for _, colour in drawn} == {profile == "pnp-a4"}
    warm = _build(project, tmp_path / "warm", "2", profile)
    assert alone == cold == warm


def test_the_icons_a_builds_workers_draw_are_kept_too(cache, project, tmp_path):
    # The rulebook's :die: and :star: are drawn in running text by the workers,
    # not ahead with the cards' icons: they are handed back and kept as well.
    _build(project, tmp_path / "cold", "2")
    drawn = {code for code, _ in _drawings(icon_cache.cache_path().read_bytes())}
    assert {"1F3B2", "2B50"} <= drawn


def _with_operator(data: bytes, operator: str) -> bytes:
    """The cache entry with an operator added to its first icon, under a checksum that
    fits: only the check of what the operators are can find it."""
    drawings = _drawings(data)
    key = next(iter(drawings))
    width, height, ops = drawings[key]
    drawings[key] = (width, height, (*ops, operator))
    return _entry(drawings)


_CHECKSUM = "it does not match its checksum: truncated or changed"
_NOT_DRAWING = "it does not hold what deckforge keeps there"
DAMAGES = {
    "truncated": (_CHECKSUM, lambda data: data[:-100]),
    "a flipped byte": (_CHECKSUM, lambda data: data[:-50] + bytes([data[-50] ^ 1]) + data[-49:]),
    "a pickle": ("it is not a cache entry deckforge wrote", lambda data: pickle.dumps({})),
    "another format": (
        "it is not a cache entry deckforge wrote",
        lambda data: data.replace(b"deckforge-cache", b"deckforge-cache-9", 1),
    ),
    "an image drawn": (_NOT_DRAWING, lambda d: _with_operator(d, "/Im0 Do")),
    "text drawn": (_NOT_DRAWING, lambda d: _with_operator(d, "BT /F1 9 Tf")),
    "not a number": (_NOT_DRAWING, lambda d: _with_operator(d, "1 x 3 re")),
}


@pytest.mark.parametrize("how", DAMAGES)
def test_a_damaged_icon_cache_is_made_again_with_a_warning(cache, project, tmp_path, caplog, how):
    sound = _build(project, tmp_path / "first")
    path = icon_cache.cache_path()
    reason, damage = DAMAGES[how]
    path.write_bytes(damage(path.read_bytes()))
    with caplog.at_level(logging.WARNING, logger=kept.__name__):
        again = _build(project, tmp_path / "again")
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: the cache entry is damaged ({reason}); it is made again"
    ]
    assert again == sound
    assert {code for code, _ in _drawings(path.read_bytes())} >= {"1F333", "1F409"}


def test_a_sound_cache_is_used_without_a_word(cache, project, tmp_path, caplog):
    first = _build(project, tmp_path / "first")
    stored = icon_cache.cache_path().read_bytes()
    with caplog.at_level(logging.WARNING):
        assert _build(project, tmp_path / "again") == first
    assert caplog.records == []
    assert icon_cache.cache_path().read_bytes() == stored, "nothing new: not written again"


def test_only_plain_drawing_operators_are_kept():
    assert icon_cache.only_drawing(["q", "1 0 0 1 0 0 cm", "0 .5 -1.25 rg", "[3 1] 0 d", "Q"])
    assert not icon_cache.only_drawing(["/GS0 gs"])
    assert not icon_cache.only_drawing(["BT", "(x) Tj", "ET"])
    assert not icon_cache.only_drawing(["1 2 m", "1e5 3 l"])


def test_a_build_that_draws_no_icon_does_not_read_the_cache(cache, tmp_path, caplog):
    # Reading the file costs more than the rest of a small build's start-up: a deck of
    # cards without icons leaves it unread (a damaged file is neither reported nor
    # replaced), and the first icon a build draws reads it.
    decks = tmp_path / "plain" / "decks" / "plain"
    decks.mkdir(parents=True)
    (decks / "places.yaml").write_text(
        "kind: places\ncategories:\n  - {id: home, name: Home, colour: '#3366AA'}\nplaces:\n"
        + "".join(f"  - {{id: p{n}, name: Place {n}, category: home}}\n" for n in range(9))
    )
    (decks / "edition.yaml").write_text(
        "kind: edition\nid: plain\ngame: plain\ntitle: Plain\nlocale: en\n"
        "decks:\n  - {id: places, source: places.yaml, size: poker, back: Place}\n"
    )
    path = icon_cache.cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps({}))
    for jobs in ("1", "2"):
        with caplog.at_level(logging.WARNING, logger=kept.__name__):
            icon_cache.ICON_CODE.clear()
            args = ["--decks", str(decks.parent), "build", "--out", str(tmp_path / "out")]
            assert main([*args, "--profile", "pnp-a4", "--force", "--quiet", "--jobs", jobs]) == 0
        assert caplog.records == [] and path.read_bytes() == pickle.dumps({})
    with caplog.at_level(logging.WARNING, logger=kept.__name__):
        icon_cache.begin()
        assert icon_cache.fetch(("1F333", None)) is None  # not in the file: to be made
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: the cache entry is damaged (it is not a cache entry deckforge wrote); "
        "it is made again"
    ]
