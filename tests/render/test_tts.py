"""Tabletop Simulator decks: the saved object holds what TTS reads, and the sheets hold
every card where the saved object says.

The saved object is checked against ``data/tts-saved-object.schema.json``, a JSON Schema
of the fields TTS reads, written from its save-file format, and then for what a schema
cannot say: card ids agree with the sheets, every card is named as in the sources. Each
card's face in the sheets is compared with its page of the PDF drawn by poppler, and must
be nearer its own page than the next card's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from PIL import Image

from conftest import entry
from deckforge.render.raster import Sheets, carry_out, read_deck, tts_plan
from reference import TOLERANCE, all_pages, crop_points, difference

#: poppler draws the reference pages.
pytestmark = pytest.mark.engines

SCHEMA = json.loads(
    (Path(__file__).parents[1] / "data" / "tts-saved-object.schema.json").read_text(
        encoding="utf-8"
    )
)
DECKS = [
    ("guess-the-mess-en", "players", 8),
    ("gomaneh-fa", "votes", 6),
    ("guess-the-mess-en", "mess", 1),
    ("guess-the-mess-fa", "places", 1),
]


def _export(built: Path, manifest: list[dict], edition: str, deck: str, folder: Path, **limits):
    found = entry(manifest, edition=edition, deck=deck, profile="printer")
    plan = tts_plan(
        read_deck(built / found["path"], found), folder, f"{edition}-{deck}", deck, Sheets(**limits)
    )
    carry_out([plan])
    saved = json.loads((folder / f"{edition}-{deck}.json").read_text(encoding="utf-8"))
    return found, saved


def _path(url: str) -> Path:
    assert url.startswith("file:///")
    return Path(url.removeprefix("file://"))


@pytest.mark.parametrize(("edition", "deck", "backs"), DECKS)
def test_the_saved_object_is_what_tts_reads(built, manifest, tmp_path, edition, deck, backs):
    found, saved = _export(built, manifest, edition, deck, tmp_path)
    errors = [e.message for e in Draft202012Validator(SCHEMA).iter_errors(saved)]
    assert not errors
    state = saved["ObjectStates"][0]
    cards = state["ContainedObjects"]
    assert [c["Nickname"] for c in cards] == found["card_names"]
    assert len(set(found["card_names"])) > 1 or deck == "blank-places"
    assert state["DeckIDs"] == [c["CardID"] for c in cards]
    assert len(set(state["DeckIDs"])) == found["cards"]
    for card in cards:
        number, slot = divmod(card["CardID"], 100)
        custom = state["CustomDeck"][str(number)]
        assert card["CustomDeck"] == {str(number): custom}
        # Never the last slot of a sheet: TTS keeps that for the hidden-card image.
        assert slot < custom["NumWidth"] * custom["NumHeight"] - 1
    for custom in state["CustomDeck"].values():
        assert custom["BackIsHidden"] is True
        assert custom["UniqueBack"] is (backs > 1)
        with Image.open(_path(custom["FaceURL"])) as faces:
            assert max(faces.size) <= 4096
            assert faces.width % custom["NumWidth"] == 0
            assert faces.height % custom["NumHeight"] == 0
            with Image.open(_path(custom["BackURL"])) as back:
                # A back sheet laid out like the faces, or one card.
                card = (faces.width // custom["NumWidth"], faces.height // custom["NumHeight"])
                assert back.size == (faces.size if backs > 1 else card)
    assert len(found["card_sides"]["distinct_backs"]) == backs


def test_a_base_url_replaces_the_local_paths(built, manifest, tmp_path):
    found = entry(manifest, edition="gomaneh-fa", deck="votes", profile="printer")
    plan = tts_plan(
        read_deck(built / found["path"], found),
        tmp_path,
        "votes",
        "Votes",
        base_url="https://example.org/decks/votes/",
    )
    state = json.loads(plan.texts["votes.json"])["ObjectStates"][0]
    for custom in state["CustomDeck"].values():
        assert custom["FaceURL"] == "https://example.org/decks/votes/sheet-1.png"
        assert custom["BackURL"] == "https://example.org/decks/votes/back-1.png"
    assert not Draft202012Validator(SCHEMA).is_valid({"ObjectStates": [{**state, "DeckIDs": []}]})


@pytest.mark.parametrize(
    ("url", "message"),
    [
        (
            "javascript:alert(1)",
            "'javascript:alert(1)' is a 'javascript:' address; give an http://, https:// or "
            "file:// one, like https://example.org/build/",
        ),
        (
            "example.org/build/",
            "'example.org/build/' has no scheme: give an http://, https:// or file:// "
            "address, like https://example.org/build/",
        ),
        (
            "https://example.org/my decks/",
            "'https://example.org/my decks/' has a space in it; write it as %20",
        ),
        (
            'https://example.org/"x"/',
            '\'https://example.org/"x"/\' has a quote or bracket (") in it; an address '
            "cannot hold one",
        ),
        (
            "https:///build/",
            "'https:///build/' names no host: give one, like https://example.org/build/",
        ),
        (
            "https://example.org/build/?x=1",
            "'https://example.org/build/?x=1' has a query or fragment ('?' or '#'); give the "
            "address of the folder the build is served from",
        ),
    ],
)
def test_a_base_url_that_is_not_an_http_https_or_file_address_is_refused(capsys, url, message):
    from deckforge.cli import main

    assert main(["export", "tts", "--base-url", url]) == 2
    err = capsys.readouterr().err
    assert err.endswith(f"deckforge export: error: argument --base-url: {message}\n"), err


def test_a_base_url_is_percent_encoded_in_the_saved_object(built, manifest, tmp_path):
    from deckforge.cli.values import base_url

    url = base_url("HTTPS://example.org/بازی/50%25/")
    assert url == "https://example.org/%D8%A8%D8%A7%D8%B2%DB%8C/50%25/"
    found = entry(manifest, edition="gomaneh-fa", deck="votes", profile="printer")
    plan = tts_plan(
        read_deck(built / found["path"], found), tmp_path, "votes", "Votes", base_url=url
    )
    for custom in json.loads(plan.texts["votes.json"])["ObjectStates"][0]["CustomDeck"].values():
        assert custom["FaceURL"] == f"{url}sheet-1.png"


@pytest.mark.parametrize(("edition", "deck", "backs"), DECKS[:3])
def test_every_face_in_the_sheets_is_its_card(built, manifest, tmp_path, edition, deck, backs):
    found, saved = _export(built, manifest, edition, deck, tmp_path, max_side=1536)
    state = saved["ObjectStates"][0]
    pdf = built / found["path"]
    deck_info = read_deck(pdf, found)
    first = next(iter(state["CustomDeck"].values()))
    with Image.open(_path(first["FaceURL"])) as sheet:
        size = (sheet.width // first["NumWidth"], sheet.height // first["NumHeight"])
    width_pt = deck_info.geometry.trim_size[0]
    dpi = 72 * size[0] / width_pt
    # Drawn finer than the sheets and shrunk, so that cropping to whole pixels shifts
    # the reference by at most half a sheet pixel.
    pages = all_pages(pdf, 2 * dpi, tmp_path)
    page_box = (0.0, 0.0, *deck_info.geometry.page_size)
    faces = [
        crop_points(pages[2 * card + 1], page_box, deck_info.geometry.trim, 2 * dpi).resize(
            size, Image.Resampling.BOX
        )
        for card in range(found["cards"])
    ]
    sheets: dict[str, Image.Image] = {}
    for index, card in enumerate(state["ContainedObjects"]):
        number, slot = divmod(card["CardID"], 100)
        custom = state["CustomDeck"][str(number)]
        if custom["FaceURL"] not in sheets:
            sheets[custom["FaceURL"]] = Image.open(_path(custom["FaceURL"])).convert("RGB")
        row, column = divmod(slot, custom["NumWidth"])
        box = (column * size[0], row * size[1], (column + 1) * size[0], (row + 1) * size[1])
        ours = sheets[custom["FaceURL"]].crop(box)
        own = difference(ours, faces[index])
        assert own <= TOLERANCE, f"{deck} card {index + 1}: {own:.1f}"
        following = faces[(index + 1) % len(faces)]
        if following.tobytes() != faces[index].tobytes():
            assert own < difference(ours, following), f"{deck} card {index + 1} is another card"
