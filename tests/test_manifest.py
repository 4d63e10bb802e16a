"""The build manifest: typed entries read back as they were written, and clear errors for
a folder without one or with one deckforge did not write."""

from __future__ import annotations

import json
import re

import pytest

from deckforge import manifest
from deckforge.manifest import Entry, ManifestError


def _entry(path: str, edition: str = "minimal-en", profile: str = "printer") -> Entry:
    return Entry(edition, "en", profile, path, "cards", "places", 6, 12, (63.5, 88.9), 3.175)


def test_entries_are_read_back_as_written(tmp_path):
    entries = [_entry("minimal-en/printer/places.pdf"), _entry("minimal-en/printer/mess.pdf")]
    manifest.write(tmp_path, entries, set())
    assert manifest.read(tmp_path) == sorted(entries, key=lambda e: e.path)
    written = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert written["outputs"][0] == {
        "edition": "minimal-en",
        "locale": "en",
        "profile": "printer",
        "path": "minimal-en/printer/mess.pdf",
        "kind": "cards",
        "deck": "places",
        "cards": 6,
        "pages": 12,
        "trim_mm": [63.5, 88.9],
        "bleed_mm": 3.175,
    }


def test_entries_of_other_builds_are_kept_while_their_files_exist(tmp_path):
    kept, gone = _entry("a/pnp-a4/x.pdf", "a", "pnp-a4"), _entry("b/pnp-a4/y.pdf", "b", "pnp-a4")
    (tmp_path / "a" / "pnp-a4").mkdir(parents=True)
    (tmp_path / kept.path).write_bytes(b"%PDF")
    manifest.write(tmp_path, [kept, gone, _entry("c/printer/old.pdf", "c")], set())
    new = _entry("c/printer/new.pdf", "c")
    manifest.write(tmp_path, [new], {("c", "printer")})
    assert manifest.read(tmp_path) == [kept, new]


def test_a_folder_without_a_manifest_says_so(tmp_path):
    with pytest.raises(ManifestError, match="no build manifest; run 'deckforge build --out"):
        manifest.read(tmp_path)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("{not json", "Expecting property name"),
        ('{"outputs": {}}', "'outputs' is not a list"),
        ('{"outputs": [{"path": "x.pdf"}]}', "an entry's 'edition' is None"),
        ('{"outputs": [1]}', "an entry is not a mapping"),
    ],
)
def test_a_manifest_deckforge_did_not_write_says_what_is_wrong(tmp_path, text, reason):
    (tmp_path / "manifest.json").write_text(text, encoding="utf-8")
    with pytest.raises(ManifestError, match="not a deckforge build manifest") as error:
        manifest.read(tmp_path)
    assert reason in str(error.value)


def test_counts_must_be_whole_numbers(tmp_path):
    data = _entry("x.pdf").to_json()
    assert Entry.from_json(data) == _entry("x.pdf")
    for field, value in (("cards", True), ("pages", 2.5), ("trim_mm", [1.0]), ("bleed_mm", "3")):
        with pytest.raises(ValueError, match=field):
            Entry.from_json({**data, field: value})


def test_persian_card_names_are_written_with_persian_digits(manifest):
    # The names are what the preview's captions and Tabletop Simulator's nicknames show.
    names = [
        name
        for e in manifest
        if e.get("locale") == "fa" and e["profile"] == "printer"
        for name in e.get("card_names", [])
    ]
    assert any("۱" in name for name in names)
    assert [name for name in names if re.search("[0-9]", name)] == []


def test_each_card_is_listed_with_where_it_is_written_and_its_template(manifest):
    from conftest import DECKS, entry

    for deck, field in (("places", "name"), ("mess", "name")):
        found = entry(manifest, edition="guess-the-mess-en", profile="printer", deck=deck)
        assert found["face_template"] == {"places": "place", "mess": "mess"}[deck]
        lines = (DECKS / "guess-the-mess" / f"{deck}.yaml").read_text("utf-8").splitlines()
        assert len(found["card_sources"]) == found["cards"]
        for name, source in zip(found["card_names"], found["card_sources"], strict=True):
            file, line, column = source.rsplit(":", 2)
            assert file == f"decks/guess-the-mess/{deck}.yaml"
            written = lines[int(line) - 1]
            assert written.lstrip().startswith(f"{field}:"), source
            assert written[int(column) - 1 :].lstrip("\"'").startswith(name), (source, name)


def test_each_deck_names_the_elements_of_its_face_template(manifest):
    # In drawing order, as the template writes them; a group (place.yaml's picture) is
    # drawn as its children.
    from conftest import entry

    found = entry(manifest, edition="guess-the-mess-en", profile="printer", deck="places")
    elements = found["face_elements"]
    assert elements[:4] == ["background", "band", "deck", "category"]
    assert elements[4:9] == ["disc", "ring", "art", "art-ring", "icon"]
    assert "name" in elements and len(set(elements)) == len(elements)


def test_card_sources_and_template_are_read_back(tmp_path):
    data = {**_entry("x.pdf").to_json(), "card_sources": ["a.yaml:3:5"], "face_template": "t"}
    data["face_elements"] = ["band", "name"]
    read = Entry.from_json(data)
    assert (read.card_sources, read.face_template) == (("a.yaml:3:5",), "t")
    assert read.face_elements == ("band", "name")
    assert read.to_json() == data
    for field, value in (("card_sources", ["a", 3]), ("face_template", 7), ("face_elements", "x")):
        with pytest.raises(ValueError, match=field):
            Entry.from_json({**data, field: value})
