"""Raster exports: card PNGs, Tabletop Simulator sheets, contact sheets and the preview site."""

from __future__ import annotations

import json
import math
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest
from PIL import Image, ImageChops, ImageStat

from deckforge.cli import main
from deckforge.errors import DeckforgeError
from deckforge.render.raster import (
    contact_sheet,
    export_png,
    export_tts,
    png_plan,
    preview_site,
    rasterize,
    read_deck,
)

MINIMAL = Path(__file__).parents[1] / "data" / "minimal"
EDITION = "minimal-en"
SIDES = ("back", "face")


def _build(root: Path, *profiles: str) -> Path:
    """Build the small test edition under ``root``; returns the output folder."""
    shutil.copytree(MINIMAL, root / "decks" / "minimal")
    out = root / "build"
    args = ["--decks", str(root / "decks"), "build", "--out", str(out), "--quiet"]
    for profile in profiles:
        args += ["--profile", profile]
    assert main(args) == 0
    return out


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    """The small edition built once for this module, for print shops and home printers."""
    return _build(tmp_path_factory.mktemp("raster"), "printer", "pnp-a4")


@pytest.fixture(scope="module")
def outputs(build) -> list[dict]:
    return json.loads((build / "manifest.json").read_text(encoding="utf-8"))["outputs"]


def _printer(build: Path, deck: str) -> Path:
    return build / EDITION / "printer" / f"{deck}.pdf"


def _entry(outputs: list[dict], deck: str, profile: str = "printer") -> dict:
    found = [e for e in outputs if e.get("deck") == deck and e["profile"] == profile]
    assert len(found) == 1
    return found[0]


def _blank(image: Image.Image) -> bool:
    """True when every pixel of the image has the same colour."""
    return all(low == high for low, high in image.getextrema())


def _centre(image: Image.Image, size: int = 40) -> Image.Image:
    x, y = image.width // 2, image.height // 2
    return image.crop((x - size, y - size, x + size, y + size))


# --- export_png ----------------------------------------------------------------------------


def test_export_png_writes_every_side_at_trim_plus_bleed(build, outputs, tmp_path):
    entry = _entry(outputs, "places")
    files = export_png(_printer(build, "places"), tmp_path / "png")
    expected = [f"{n:03d}-{side}.png" for n in range(1, entry["cards"] + 1) for side in SIDES]
    assert [f.name for f in files] == expected
    assert len(files) == 2 * entry["cards"]
    # Besides the PNGs, only the hidden record of what each was made from.
    names = sorted(p.name for p in (tmp_path / "png").iterdir())
    assert names == sorted([*expected, ".deckforge-images.json"])
    for path in files:
        with Image.open(path) as image:
            # Poker trim 63.5 × 88.9 mm + 2 × 1/8 in bleed = 2.75 × 3.75 in at 300 dpi.
            assert image.size == (825, 1125)
            assert image.mode == "RGB"
    with Image.open(files[0]) as back, Image.open(files[1]) as face:
        back_mean = ImageStat.Stat(_centre(back)).mean
        face_mean = ImageStat.Stat(_centre(face)).mean
    assert max(abs(a - b) for a, b in zip(back_mean, face_mean, strict=True)) > 20


def test_export_png_follows_dpi_and_matches_rasterize(build, tmp_path):
    pdf = _printer(build, "places")
    files = export_png(pdf, tmp_path / "png", dpi=150)
    with Image.open(files[3]) as saved:
        assert saved.size == (413, 563)  # 412.5 × 562.5 rounded
        page = rasterize(pdf, 3, 150)
        assert page.size == saved.size
        assert page.tobytes() == saved.convert("RGB").tobytes()


def test_export_png_removes_sides_of_an_earlier_longer_export(build, tmp_path):
    folder = tmp_path / "png"
    folder.mkdir()
    (folder / "004-back.png").write_bytes(b"old")
    (folder / "notes.png").write_bytes(b"mine")
    export_png(_printer(build, "spots"), folder, dpi=50)
    assert not (folder / "004-back.png").exists()
    assert (folder / "notes.png").read_bytes() == b"mine"


def test_rasterize_gives_the_whole_page_in_rgb(build):
    pdf = _printer(build, "mess")
    image = rasterize(pdf, 0, 72)
    # Mini Euro trim 44 × 68 mm + 2 × 3.175 mm bleed, at one pixel per point.
    assert image.size == (round(50.35 / 25.4 * 72), round(74.35 / 25.4 * 72))
    assert image.mode == "RGB"
    with pytest.raises(DeckforgeError, match="no page 6"):
        rasterize(pdf, 6, 72)


# --- export_tts ----------------------------------------------------------------------------


def _slots(sheet: Image.Image, card: tuple[int, int]) -> list[Image.Image]:
    columns, rows = sheet.width // card[0], sheet.height // card[1]
    return [
        sheet.crop((c * card[0], r * card[1], (c + 1) * card[0], (r + 1) * card[1]))
        for r in range(rows)
        for c in range(columns)
    ]


def _check_tts(files: list[Path], cards: int, columns: int, rows: int, max_side: int) -> None:
    """Sheets within limits, a consistent grid, cards where they should be, the last slot
    of every sheet the hidden image (the back), the saved object last."""
    *images, saved = files
    assert saved.suffix == ".json"
    sheets = [p for p in images if p.name.startswith("sheet-")]
    assert [s.name for s in sheets] == [f"sheet-{n}.png" for n in range(1, len(sheets) + 1)]
    assert images[len(sheets) :] == [images[0].with_name("back.png")]
    with Image.open(images[-1]) as back:
        card_w, card_h = back.size
        back = back.convert("RGB")
        assert not _blank(back)
    placed = 0
    for sheet_path in sheets:
        with Image.open(sheet_path) as sheet:
            assert sheet.width <= max_side and sheet.height <= max_side
            # The sheet is a whole grid of back.png-sized cards (what TTS divides it by).
            assert sheet.width % card_w == 0 and sheet.height % card_h == 0
            grid_columns, grid_rows = sheet.width // card_w, sheet.height // card_h
            assert grid_columns in range(1, columns + 1), grid_columns
            assert grid_rows in range(1, rows + 1), grid_rows
            slots = _slots(sheet.convert("RGB"), (card_w, card_h))
            on_sheet = min(len(slots) - 1, cards - placed)
            for slot, cell in enumerate(slots[:-1]):
                assert _blank(cell) != (slot < on_sheet), f"{sheet_path.name} slot {slot}"
            assert slots[-1].tobytes() == back.tobytes(), "the hidden slot shows the back"
            placed += on_sheet
    assert placed == cards
    # Cards are as large as fit: one pixel more and the grid would not.
    assert card_w + 1 > max_side // grid_columns or card_h + 1 > max_side // grid_rows


@pytest.mark.parametrize("deck", ["mess", "places", "spots", "which-way"])
def test_export_tts_sheets_fit_and_hold_every_card(build, outputs, tmp_path, deck):
    cards = _entry(outputs, deck)["cards"]
    files = export_tts(_printer(build, deck), tmp_path / "tts")
    _check_tts(files, cards, 10, 7, 4096)
    with Image.open(files[0]) as sheet, Image.open(files[-2]) as back:
        # A small deck gets large cards, not a 10 × 7 grid of thumbnails.
        assert back.width > 4096 // 10
        # The card shape is the trim's (poker 63.5 × 88.9, mini Euro 44 × 68 mm).
        trim_w, trim_h = (44, 68) if deck == "mess" else (63.5, 88.9)
        assert back.width / back.height == pytest.approx(trim_w / trim_h, rel=0.01)
        # The middle of the first slot shows the first card's picture or words.
        first = sheet.crop((0, 0, back.width, back.height))
        assert not _blank(_centre(first, back.width // 4))


def test_export_tts_spreads_a_deck_over_several_sheets(build, tmp_path):
    # Three cards on sheets of 2 × 1 with the hidden-card slot: one card a sheet, three sheets.
    files = export_tts(_printer(build, "places"), tmp_path / "tts", columns=2, rows=1, max_side=500)
    assert len(files) == 5
    _check_tts(files, 3, 2, 1, 500)
    state = json.loads(files[-1].read_text(encoding="utf-8"))["ObjectStates"][0]
    # One TTS deck number per sheet, each card in the first slot of its own.
    numbers = sorted(int(n) for n in state["CustomDeck"])
    assert numbers == [numbers[0], numbers[0] + 1, numbers[0] + 2]
    assert state["DeckIDs"] == [n * 100 for n in numbers]


def test_export_tts_keeps_to_max_side_with_a_full_grid(build, tmp_path):
    files = export_tts(_printer(build, "mess"), tmp_path / "tts", columns=3, rows=1, max_side=600)
    _check_tts(files, 3, 3, 1, 600)
    with Image.open(files[0]) as sheet, Image.open(files[-2]) as back:
        assert sheet.size == (3 * back.width, back.height)
        assert back.width == 200  # 600 / 3, the height (309 px) is in bounds


def test_the_back_is_the_back_of_card_one(build, tmp_path):
    pdf = _printer(build, "places")
    files = export_tts(pdf, tmp_path / "tts")
    page = rasterize(pdf, 0, 72)
    with Image.open(files[-2]) as back:
        small = back.resize((50, 70))
    # The printed back, cropped to its trim at 9 pt of bleed a side, at the same size.
    trimmed = page.crop((9, 9, page.width - 9, page.height - 9)).resize((50, 70))
    assert max(ImageStat.Stat(ImageChops.difference(small.convert("RGB"), trimmed)).mean) < 12


# --- contact sheets ------------------------------------------------------------------------


@pytest.mark.parametrize(("columns", "rows"), [(8, 1), (2, 2), (1, 3)])
def test_contact_sheet_lays_cards_out_in_the_grid(build, tmp_path, columns, rows):
    path = contact_sheet(_printer(build, "places"), tmp_path / "cs.png", columns=columns)
    used = min(columns, 3)
    assert math.ceil(3 / used) == rows
    with Image.open(path) as image:
        card_h = 252  # 180 px × 88.9 / 63.5
        gap = (image.width - used * 180) / (used + 1)
        assert gap == int(gap) and 1 <= gap <= 10
        assert image.height == rows * card_h + (rows + 1) * int(gap)
        # Each card is drawn where the grid puts it; the gaps show the background.
        for card in range(3):
            row, column = divmod(card, used)
            left = int(gap) + column * (180 + int(gap))
            top = int(gap) + row * (card_h + int(gap))
            assert not _blank(image.crop((left, top, left + 180, top + card_h)))
        assert _blank(image.crop((0, 0, image.width, int(gap))))


def test_contact_sheet_of_backs_differs_from_faces(build, tmp_path):
    pdf = _printer(build, "places")
    faces = contact_sheet(pdf, tmp_path / "faces.png")
    backs = contact_sheet(pdf, tmp_path / "backs.png", side="back")
    with Image.open(faces) as f, Image.open(backs) as b:
        assert f.size == b.size
        assert f.tobytes() != b.tobytes()
    with pytest.raises(DeckforgeError, match="side"):
        contact_sheet(pdf, tmp_path / "x.png", side="edge")


# --- preview site --------------------------------------------------------------------------


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self.images: list[dict] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("src", "href"):
            if attrs.get(name):
                self.links.append((tag, attrs[name]))
        if tag == "img":
            self.images.append(attrs)

    def handle_data(self, data):
        self.text.append(data)


def _words(parser: _Links) -> str:
    """The page's text with runs of white space as one space."""
    return " ".join("".join(parser.text).split())


def _parse(page: Path) -> _Links:
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    for _, link in parser.links:
        assert "://" not in link and not link.startswith("/"), "links must be relative"
        target = unquote(link.partition("#")[0])
        assert (page.parent / target).resolve().is_file(), f"{page.name}: {link}"
    assert all(i.get("alt") is not None for i in parser.images)
    return parser


def test_preview_site_shows_every_deck_and_links_only_real_files(build, outputs, tmp_path):
    site = tmp_path / "site"
    warning = "decks/minimal/places.yaml:6:3: places: warning: 3 places"
    index = preview_site(build, site, {f"{EDITION}/printer/places.pdf": [warning]})
    assert index == site / "index.html"
    parser = _parse(index)
    text = _words(parser)
    linked = {(site / unquote(link)).resolve() for _, link in parser.links}
    # Every output of every profile is there to download.
    for entry in outputs:
        assert (build / entry["path"]).resolve() in linked, entry["path"]
    assert EDITION in text and warning in text
    decks = {e["deck"] for e in outputs if e["kind"] == "cards"}
    assert decks == {"places", "mess", "which-way", "spots"}
    for deck in decks:
        entry = _entry(outputs, deck)
        page = site / EDITION / f"{deck}.html"
        assert page.resolve() in linked
        deck_page = _parse(page)
        deck_text = _words(deck_page)
        assert f"{entry['cards']} cards" in deck_text
        assert (warning in deck_text) == (deck == "places")
        thumbs = [i for i in deck_page.images if i.get("class") == "thumb"]
        # Every face, then the deck's one back, once.
        assert [i["alt"] for i in thumbs] == [*entry["card_names"], "Back 1"]
        enlarged = [link for tag, link in deck_page.links if tag == "a" and "-small" not in link]
        for image in thumbs:
            large = image["src"].replace("-small.png", ".jpg")
            assert large in enlarged
            with Image.open(page.parent / unquote(image["src"])) as small:
                assert small.size == (int(image["width"]), int(image["height"]))
            with Image.open(page.parent / unquote(large)) as big:
                assert big.width > 2 * small.width


def test_preview_says_when_it_is_stale(build, tmp_path):
    index = preview_site(build, tmp_path / "site", stale="the sources have changed")
    for page in (index, tmp_path / "site" / EDITION / "places.html"):
        assert "Out of date: the sources have changed" in _words(_parse(page))


def test_identical_pages_are_drawn_once(build, tmp_path):
    deck = read_deck(_printer(build, "mess"))
    plan = png_plan(deck, tmp_path / "png")
    # Three faces and the one back the three cards share.
    assert len(deck.backs) == 1 and len(plan.jobs) == 4
    files = export_png(_printer(build, "mess"), tmp_path / "png", dpi=50)
    backs = {path.read_bytes() for path in files[0::2]}
    assert len(backs) == 1


def _mtimes(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.glob("*.png")}


def test_export_makes_again_only_what_changed(tmp_path):
    out = _build(tmp_path, "printer")
    decks, folder = str(tmp_path / "decks"), out / EDITION / "png" / "places"
    assert main(["--decks", decks, "export", "png", "--out", str(out)]) == 0
    first = _mtimes(folder)
    assert main(["--decks", decks, "export", "png", "--out", str(out)]) == 0
    assert _mtimes(folder) == first
    places = tmp_path / "decks" / "minimal" / "places.yaml"
    places.write_text(places.read_text(encoding="utf-8").replace("Bakery", "Bake house"))
    assert main(["--decks", decks, "build", "--out", str(out), "--quiet"]) == 0
    assert main(["--decks", decks, "export", "png", "--out", str(out)]) == 0
    again = _mtimes(folder)
    assert {name for name in first if again[name] != first[name]} == {"002-face.png"}


def test_preview_site_needs_a_manifest(tmp_path):
    with pytest.raises(DeckforgeError, match="manifest"):
        preview_site(tmp_path, tmp_path / "site")


# --- refusing files that are not printer-profile card decks --------------------------------


def test_home_print_sheets_are_refused(build, tmp_path):
    sheets = build / EDITION / "pnp-a4" / "places.pdf"
    assert sheets.is_file()
    for export in (export_png, export_tts):
        with pytest.raises(DeckforgeError, match="not a printer-profile card file"):
            export(sheets, tmp_path / "out")
    with pytest.raises(DeckforgeError, match="not a printer-profile card file"):
        contact_sheet(sheets, tmp_path / "cs.png")
    assert not (tmp_path / "out").exists()


def test_the_manifest_decides_what_a_file_is(build, tmp_path):
    # A trim + bleed page that the build manifest says is no card deck (like a rulebook).
    copy = tmp_path / "build"
    shutil.copytree(build, copy)
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    for entry in manifest["outputs"]:
        if entry.get("deck") == "places" and entry["profile"] == "printer":
            entry["kind"] = "rulebook"
    (copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(DeckforgeError, match="'rulebook'"):
        export_png(_printer(copy, "places"), tmp_path / "png")


def test_missing_and_unreadable_files_are_reported(tmp_path):
    with pytest.raises(DeckforgeError, match="no such PDF"):
        export_png(tmp_path / "nothing.pdf", tmp_path / "png")
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"not a pdf")
    with pytest.raises(DeckforgeError, match="not a readable PDF"):
        export_tts(junk, tmp_path / "tts")


# --- reproducibility -----------------------------------------------------------------------


def _all_pngs(build: Path, out: Path) -> dict[str, bytes]:
    for deck in ("places", "mess"):
        export_png(_printer(build, deck), out / deck / "png", dpi=100)
        export_tts(_printer(build, deck), out / deck / "tts", max_side=1024)
        contact_sheet(_printer(build, deck), out / deck / "faces.png")
    preview_site(build, out / "site")
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.png"))}


def test_building_twice_gives_byte_identical_pngs(build, tmp_path):
    first = _all_pngs(build, tmp_path / "first")
    again = _build(tmp_path / "again", "printer", "pnp-a4")
    second = _all_pngs(again, tmp_path / "second")
    assert len(first) > 20
    assert first.keys() == second.keys()
    for name, data in first.items():
        assert data == second[name], name
    for data in first.values():
        # No text or time chunks: only the image header, data and end.
        assert not any(chunk in data for chunk in (b"tEXt", b"zTXt", b"iTXt", b"tIME"))


def test_export_and_preview_commands(tmp_path, capsys):
    shutil.copytree(Path(__file__).parents[1] / "data" / "minimal", tmp_path / "decks" / "minimal")
    decks, out = str(tmp_path / "decks"), tmp_path / "build"
    assert main(["--decks", decks, "export", "png", "--out", str(out)]) == 2
    assert "run 'deckforge build' first" in capsys.readouterr().err
    assert (
        main(["--decks", decks, "build", "--profile", "printer", "--out", str(out), "--quiet"]) == 0
    )
    assert main(["--decks", decks, "export", "png", "--out", str(out)]) == 0
    faces = sorted((out / "minimal-en" / "png" / "places").glob("*-face.png"))
    assert [p.name for p in faces] == ["001-face.png", "002-face.png", "003-face.png"]
    assert main(["--decks", decks, "export", "tts", "--out", str(out)]) == 0
    assert (out / "minimal-en" / "tts" / "mess" / "back.png").is_file()
    assert (out / "minimal-en" / "tts" / "mess" / "minimal-en-mess.json").is_file()
    assert main(["--decks", decks, "preview", "--out", str(out)]) == 0
    assert (out / "preview" / "index.html").is_file()


def test_a_preview_of_changed_sources_builds_first_or_says_it_is_stale(tmp_path, capsys):
    out = _build(tmp_path, "printer")
    decks = str(tmp_path / "decks")
    places = tmp_path / "decks" / "minimal" / "places.yaml"
    places.write_text(places.read_text(encoding="utf-8").replace("Bakery", "Bake house"))
    args = ["--decks", decks, "preview", "--out", str(out)]
    assert main([*args, "--no-build"]) == 0
    index = _words(_parse(out / "preview" / "index.html"))
    assert "Out of date: the sources have changed since this build" in index
    assert "Bake house" not in _words(_parse(out / "preview" / EDITION / "places.html"))
    assert main(args) == 0
    assert "building first" in capsys.readouterr().out
    assert "Out of date" not in _words(_parse(out / "preview" / "index.html"))
    assert "Bake house" in _words(_parse(out / "preview" / EDITION / "places.html"))
    # Sources that do not build: the last build is shown, and said to be stale.
    places.write_text(places.read_text(encoding="utf-8").replace("Bake house", ""))
    assert main(args) == 0
    assert "do not build" in _words(_parse(out / "preview" / "index.html"))
