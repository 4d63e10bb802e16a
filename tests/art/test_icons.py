"""Pictures on the cards: every item has its own OpenMoji icon, stored once per file as vectors."""

from __future__ import annotations

import re

from pypdf import PdfReader

from conftest import DECKS
from deckforge.art import icons
from deckforge.cli import main
from deckforge.sources.source import load_yaml

EN = "guess-the-mess-en"


def _entries(file, key):
    source, problems = load_yaml(DECKS / "guess-the-mess" / file, file)
    assert not problems
    return source.data[key]


def test_every_mess_item_has_its_own_existing_icon():
    codes = [icons.resolve(item["icon"]) for item in _entries("mess.yaml", "items")]
    assert len(codes) == 400 and None not in codes
    assert len(set(codes)) == 400
    assert all((icons.svg_folder() / f"{code}.svg").is_file() for code in codes)


def test_every_place_has_an_existing_icon():
    places = _entries("places.yaml", "places")
    assert all(icons.resolve(p["icon"]) for p in places)


def test_icons_resolve_by_emoji_or_hexcode():
    assert icons.resolve("🧦") == icons.resolve("1f9e6") == "1F9E6"
    assert icons.resolve("❤️") == icons.resolve("2764")
    assert icons.resolve("not an icon") is None


def test_icons_and_backs_are_stored_once_and_drawn_as_vectors(built):
    reader = PdfReader(built / EN / "printer" / "mess.pdf")
    objects: dict[str, set[int]] = {}
    for page in reader.pages:
        for name, ref in (page["/Resources"].get("/XObject") or {}).items():
            assert ref.get_object()["/Subtype"] == "/Form", "pictures are vector forms, not images"
            objects.setdefault(str(name), set()).add(ref.idnum)
    assert all(len(ids) == 1 for ids in objects.values()), "each form is one shared object"
    icon_forms = [name for name in objects if name.startswith("/FormXob.I")]
    assert len(icon_forms) == 400, "400 distinct icons"
    # Besides the icons: the back, and the card face every item shares.
    assert len(objects) - len(icon_forms) == 2, sorted(set(objects) - set(icon_forms))


def test_a_shared_icon_is_an_error(project, capsys):
    mess = project / "decks" / "guess-the-mess" / "mess.yaml"
    text = mess.read_text(encoding="utf-8")
    codes = re.findall(r'icon: "([0-9A-F-]+)"', text)
    mess.write_text(text.replace(f'icon: "{codes[1]}"', f'icon: "{codes[0]}"', 1), encoding="utf-8")
    assert main(["--decks", str(project / "decks"), "validate", "guess-the-mess-en"]) == 1
    err = capsys.readouterr().err
    assert re.search(
        rf"mess\.yaml:\d+:\d+: items\[1\]\.icon: icon {codes[0]} is already the "
        r"picture of '[a-z0-9-]+' \(line \d+\); each item needs its own picture",
        err,
    )


def test_an_unknown_icon_is_an_error(project, capsys):
    places = project / "decks" / "guess-the-mess" / "places.yaml"
    text = places.read_text(encoding="utf-8")
    places.write_text(
        re.sub(r'icon: "[0-9A-F-]+"', 'icon: "FFFFF"', text, count=1), encoding="utf-8"
    )
    assert main(["--decks", str(project / "decks"), "validate", "guess-the-mess-en"]) == 1
    assert re.search(
        r"places\.yaml:\d+:\d+: places\[0\]\.icon: unknown icon 'FFFFF'", capsys.readouterr().err
    )
