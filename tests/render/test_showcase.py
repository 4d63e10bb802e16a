"""Showcase pictures: a fanned hand and a row of cards, each card the printer file's
face as another engine (poppler) draws it, at the width asked, on a transparent or
coloured background."""

from __future__ import annotations

import shutil

import pytest
from PIL import Image

from conftest import entry
from deckforge.cli import main
from deckforge.render.raster import read_deck
from deckforge.render.raster.showcase import CORNER, row, row_places
from reference import TOLERANCE, difference, poppler

EN, FA = "guess-the-mess-en", "gomaneh-fa"


@pytest.fixture(scope="module")
def shown(built, tmp_path_factory):
    """A copy of the build's printer card files, with showcases exported into it."""
    out = tmp_path_factory.mktemp("showcase") / "build"
    shutil.copytree(built, out)
    args = ["export", "showcase", "--out", str(out), "--width", "1000"]
    assert main([*args, "--edition", EN, "--deck", "places", "--cards", "2,5,9"]) == 0
    assert main([*args, "--edition", FA, "--deck", "pictures", "--background", "#1A1A2E"]) == 0
    return out


@pytest.mark.parametrize("shape", ["hand", "row"])
def test_pictures_are_as_wide_as_asked_and_transparent_around_the_cards(shown, shape):
    picture = Image.open(shown / EN / "showcase" / f"places-{shape}.png")
    assert picture.mode == "RGBA" and picture.width == 1000 and picture.height > 200
    alpha = picture.getchannel("A")
    corners = [(0, 0), (999, 0), (0, picture.height - 1), (999, picture.height - 1)]
    assert [alpha.getpixel(c) for c in corners] == [0, 0, 0, 0]
    assert alpha.getextrema() == (0, 255)  # cards opaque, the space around them clear
    soft = [a for a in alpha.get_flattened_data() if 0 < a < 255]
    assert len(soft) > picture.width  # the shadow's soft edge


@pytest.mark.parametrize("shape", ["hand", "row"])
def test_a_background_colour_fills_the_picture(shown, shape):
    picture = Image.open(shown / FA / "showcase" / f"pictures-{shape}.png")
    assert picture.width == 1000 and picture.getchannel("A").getextrema() == (255, 255)
    assert picture.getpixel((0, 0)) == (0x1A, 0x1A, 0x2E, 255)


@pytest.mark.engines
def test_each_card_of_the_row_is_its_printed_face(shown, manifest, tmp_path):
    # The chosen cards 2, 5 and 9, in order, each compared inside its rounded corners with
    # poppler's drawing of the printer file's face page at the same size.
    found = entry(manifest, edition=EN, profile="printer", deck="places")
    pdf = shown / found["path"]
    deck = read_deck(pdf, found)
    picture = Image.open(shown / EN / "showcase" / "places-row.png")
    card_w, places, size = row_places(3, deck.geometry.trim_size, 1000)
    assert picture.size == size
    card_h = round(card_w * deck.geometry.trim_size[1] / deck.geometry.trim_size[0])
    inset = round(CORNER * card_w) + 1
    far = []
    for card, (x, y) in zip((1, 4, 8), places, strict=True):
        ours = picture.crop((x, y, x + card_w, y + card_h)).convert("RGB")
        theirs = poppler(pdf, 2 * card + 1, 72 * card_w / deck.geometry.trim_size[0],
                         deck.geometry.trim, (card_w, card_h), tmp_path)  # fmt: skip
        inner = (inset, inset, card_w - inset, card_h - inset)
        assert difference(ours.crop(inner), theirs.crop(inner)) < TOLERANCE
        # and it is not a neighbour's face: another card differs from it
        far.append(ours.crop(inner))
    assert difference(far[0], far[1]) > TOLERANCE


def test_a_right_to_left_row_starts_at_the_right(built, manifest):
    found = entry(manifest, edition=FA, profile="printer", deck="pictures")
    deck = read_deck(built / found["path"], found)
    ltr = row(deck, [0, 1, 2], 600).convert("RGB")
    rtl = row(deck, [0, 1, 2], 600, rtl=True).convert("RGB")
    card_w, places, _ = row_places(3, deck.geometry.trim_size, 600)
    (x0, y), (x2, _) = places[0], places[2]
    first = ltr.crop((x0, y, x0 + card_w, y + card_w))
    assert difference(rtl.crop((x2, y, x2 + card_w, y + card_w)), first) < 1
    assert difference(rtl.crop((x0, y, x0 + card_w, y + card_w)), first) > TOLERANCE


@pytest.mark.parametrize(
    "extra,code,message",
    [
        (["--cards", "0"], 2, "'0': give 1 to 12 card numbers, counted from 1"),
        (["--cards", "1,x"], 2, "'1,x' is not a list of card numbers such as 1,4,9"),
        (["--cards", "200"], 1, "places.pdf has cards 1 to 144; there is no card 200"),
        (["--width", "50"], 1, "a showcase picture is 200 to 8000 pixels wide, not 50"),
        (["--background", "red"], 2, "'red' is not a background: give 'transparent' or"),
        (["--deck", "nope"], 2, "no printer-profile deck 'nope' in the build (it has:"),
    ],
)
def test_bad_choices_are_named(shown, capsys, extra, code, message):
    args = ["export", "showcase", "--out", str(shown), "--edition", EN, "--deck", "places"]
    if extra[0] == "--deck":
        args = args[:-2]
    assert main([*args, *extra]) == code
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_out_of_date_note_is_of_the_editions_drawn(tmp_path, capsys):
    # Only the English edition is built: a showcase of it is current, while the
    # editions never built are what makes a showcase of all of them out of date.
    import shutil

    from conftest import DECKS

    shutil.copytree(DECKS, tmp_path / "decks")
    out = tmp_path / "build"
    decks = ["--decks", str(tmp_path / "decks")]
    build = ["build", "--edition", EN, "--profile", "printer", "--out", str(out), "--quiet"]
    assert main([*decks, *build]) == 0
    capsys.readouterr()
    show = ["export", "showcase", "--out", str(out), "--deck", "spots", "--width", "400"]
    assert main([*decks, *show, "--edition", EN]) == 0
    assert "sources have changed" not in capsys.readouterr().out
    assert main([*decks, *show]) == 0
    assert "note: the sources have changed since this build" in capsys.readouterr().out


def test_exports_are_out_of_date_only_when_their_printer_files_are(tmp_path, capsys):
    # pnp-a3 is built only when named: its files left from before an edit do not make
    # a PNG export of the current printer files out of date (building again would not
    # change them, and the note would never go).
    from deckforge.authoring.game import new_game
    from deckforge.sources.load import Project

    (tmp_path / "decks").mkdir()
    data = new_game(Project(tmp_path / "decks"), "quiz") / "cards.csv"
    decks, out = ["--decks", str(tmp_path / "decks")], ["--out", str(tmp_path / "build")]
    export = [*decks, "export", "png", *out, "--edition", "quiz"]
    assert main([*decks, "build", *out, "--quiet", "--profile", "pnp-a3"]) == 0
    data.write_text(data.read_text(encoding="utf-8") + "q99,Why?,Because,science\n")
    assert main([*decks, "build", *out, "--quiet"]) == 0
    capsys.readouterr()
    assert main(export) == 0
    assert "sources have changed" not in capsys.readouterr().out
    data.write_text(data.read_text(encoding="utf-8") + "q100,How?,So,science\n")
    assert main(export) == 0
    assert "note: the sources have changed since this build" in capsys.readouterr().out
