"""Authoring: scaffolding a custom edition, lint advice, and errors people can act on."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from pypdf import PdfReader

from conftest import DECKS
from deckforge.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "minimal"


def test_a_new_user_scaffolds_an_edition_and_builds_their_own_20_places(tmp_path, capsys):
    shutil.copytree(DECKS, tmp_path / "decks")
    shutil.copytree(DECKS.parent / "schemas", tmp_path / "schemas")
    decks = str(tmp_path / "decks")
    assert (
        main(["--decks", decks, "new", "edition", "our-town", "--from", "guess-the-mess-en"]) == 0
    )
    places = tmp_path / "decks" / "our-town" / "places.yaml"
    assert places.is_file()
    text = places.read_text(encoding="utf-8")
    head = text[: text.index("places:\n") + len("places:\n")]
    ours = "".join(
        f"  - id: spot-{n}\n    name: {{en: Our Spot {n}, fa: جای ما {n}}}\n    category: home\n"
        for n in range(1, 21)
    )
    places.write_text(head + ours, encoding="utf-8")
    capsys.readouterr()
    assert (
        main(
            [
                "--decks",
                decks,
                "build",
                "--edition",
                "our-town",
                "--out",
                str(tmp_path / "build"),
                "--quiet",
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert "warning: 20 places; a game of six rounds deals eight places a round" in err
    for profile in ("pnp-a4", "pnp-letter", "printer"):
        reader = PdfReader(tmp_path / "build" / "our-town" / profile / "places.pdf")
        pages = len(reader.pages)
        assert pages == (40 if profile == "printer" else 6)  # 20 cards; 3 sheets + backs
    printer = PdfReader(tmp_path / "build" / "our-town" / "printer" / "places.pdf")
    assert "Our Spot 20" in printer.pages[39].extract_text()


def test_new_place_deck_is_valid_and_refuses_to_overwrite(tmp_path, capsys):
    shutil.copytree(DECKS, tmp_path / "decks")
    target = tmp_path / "decks" / "extra" / "more-places.yaml"
    assert main(["--decks", str(tmp_path / "decks"), "new", "place-deck", str(target)]) == 0
    assert target.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=")
    assert main(["--decks", str(tmp_path / "decks"), "new", "place-deck", str(target)]) == 2
    assert "already exists" in capsys.readouterr().err


def _minimal(tmp_path: Path) -> Path:
    shutil.copytree(DATA, tmp_path / "decks" / "minimal")
    return tmp_path / "decks"


def test_lint_gives_advice_and_strict_fails(tmp_path, capsys):
    decks = _minimal(tmp_path)
    places = decks / "minimal" / "places.yaml"
    places.write_text(
        places.read_text()
        .replace("places:\n", '  - {id: garden, name: Garden, colour: "#3A7D44"}\nplaces:\n')
        .replace("name: Attic", "name: Kitchens")
        .replace("name: Kitchen\n", "name: {en: Kitchen}\n")
        .replace("name: Bakery", "name: {en: The Bakery Round The Corner Street, fa: نانوایی}"),
        encoding="utf-8",
    )
    mess = decks / "minimal" / "mess.yaml"
    mess.write_text(
        mess.read_text().replace("suggests: [food]", "suggests: [garden]"), encoding="utf-8"
    )
    assert main(["--decks", str(decks), "lint"]) == 0
    err = capsys.readouterr().err
    assert re.search(
        r"places\.yaml:16:11: places\[2\]\.name: warning: 'Kitchens' reads almost "
        r"like 'Kitchen' \(line 8\)",
        err,
    )
    assert "warning: 'The Bakery Round The Corner Street' is 34 characters; 22 or fewer" in err
    assert (
        "mess.yaml:12:11: items[2].name: warning: 'Spoon' suggests no place in this edition" in err
    )
    assert re.search(
        r"places\.yaml:8:11: places\[0\]\.name: warning: missing 'fa' translation", err
    )
    assert main(["--decks", str(decks), "lint", "--strict"]) == 1


def _validate_err(tmp_path, old, new, capsys):
    decks = _minimal(tmp_path)
    places = decks / "minimal" / "places.yaml"
    places.write_text(places.read_text().replace(old, new, 1), encoding="utf-8")
    capsys.readouterr()
    assert main(["--decks", str(decks), "validate"]) == 1
    return capsys.readouterr().err


def test_misspelt_key_shows_the_line_a_caret_and_a_suggestion(tmp_path, capsys):
    err = _validate_err(tmp_path, "    category: food", "    categroy: food", capsys)
    assert err.startswith(
        "decks/minimal/places.yaml:12:5: places[1].categroy: unknown key 'categroy'; "
        "did you mean 'category'?\n"
        "   12 |     categroy: food\n"
        "      |     ^\n"
    )


def test_wrong_type_shows_the_line_and_what_was_expected(tmp_path, capsys):
    err = _validate_err(tmp_path, "    name: Bakery", "    name: 42", capsys)
    assert err.startswith(
        "decks/minimal/places.yaml:11:11: places[1].name: expected text, got the number 42 "
        "(quote it if it is text)\n"
        "   11 |     name: 42\n"
        "      |           ^\n"
    )


def test_duplicate_id_points_at_the_second_and_names_the_first(tmp_path, capsys):
    err = _validate_err(tmp_path, "  - id: attic", "  - id: kitchen", capsys)
    assert err.startswith(
        "decks/minimal/places.yaml:14:9: places[2].id: duplicate id 'kitchen' (also at line 6)\n"
        "   14 |   - id: kitchen\n"
        "      |         ^\n"
    )


def test_bad_indentation_shows_the_line_and_how_to_fix_it(tmp_path, capsys):
    err = _validate_err(
        tmp_path,
        '    category: home\n    icon: "1F373"',
        '    category: home\n      icon: "1F373"',
        capsys,
    )
    assert err.startswith(
        "decks/minimal/places.yaml:9:11: YAML syntax error: mapping values are not allowed "
        "in this context; check this line's indentation against the line before, or put "
        "quotes around "
        "a value that contains ': '\n"
        '    9 |       icon: "1F373"\n'
        "      |           ^\n"
    )


def test_the_field_reference_is_generated_from_the_schemas():
    from deckforge.authoring.docs import reference

    written = (DECKS.parent / "docs" / "reference.md").read_text(encoding="utf-8")
    assert written == reference(), "docs/reference.md is stale: run 'make docs'"
    for field in ("`places[].category`", "`items[].suggests`", "`decks[].count`"):
        assert field in written
