"""``deckforge init`` and ``new edition --from``: a project anywhere, started from
deckforge's own games as the installed package holds them; and what the commands say
outside a project."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

from deckforge.cli import main

SCHEMAS = resources.files("deckforge.sources") / "schemas"


def _init(folder: Path, *args: str) -> int:
    return main(["init", str(folder), *args])


def test_init_makes_a_project_that_validates_and_whose_editor_finds_the_schemas(tmp_path, capsys):
    folder = tmp_path / "game"
    assert _init(folder) == 0
    assert "started from example-en in" in capsys.readouterr().out
    decks = folder / "decks"
    assert sorted(p.name for p in (decks / "example").iterdir()) == [
        "edition.yaml",
        "numbers.yaml",
        "places.yaml",
        "rulebook.yaml",
    ]
    # The schemas are the package's, where every source's first line points.
    for schema in SCHEMAS.iterdir():
        if schema.name.endswith(".schema.json"):
            assert (folder / "schemas" / schema.name).read_bytes() == schema.read_bytes()
    first = (decks / "example" / "places.yaml").read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../schemas/places.schema.json"
    assert (decks / "example" / first.split("=")[1]).resolve().is_file()
    settings = json.loads((folder / ".vscode" / "settings.json").read_text())["yaml.schemas"]
    assert settings["./schemas/places.schema.json"] == ["decks/*/places.yaml"]
    assert all((folder / schema).is_file() for schema in settings)
    assert "build/" in (folder / ".gitignore").read_text().splitlines()
    assert "deckforge build" in (folder / "README.md").read_text()
    assert main(["--decks", str(decks), "validate"]) == 0
    assert capsys.readouterr().out.startswith("ok: 1 edition(s)")


def test_the_example_a_project_starts_from_builds_without_a_warning(tmp_path, capsys):
    # A starter project is clean: the rule of how many places Guess the Mess deals is
    # not applied to a game without mess cards.
    assert _init(tmp_path / "game") == 0
    decks = str(tmp_path / "game" / "decks")
    capsys.readouterr()
    out = str(tmp_path / "build")
    assert main(["--decks", decks, "build", "--out", out, "--profile", "pnp-a4"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "warning" not in captured.out
    assert (tmp_path / "build" / "example-en" / "pnp-a4" / "places.pdf").is_file()


def test_init_again_updates_the_schemas_and_leaves_the_users_files(tmp_path):
    assert _init(tmp_path, "--from", "gomaneh-fa") == 0
    votes = tmp_path / "decks" / "gomaneh" / "votes.yaml"
    votes.write_text(votes.read_text() + "# mine\n")
    (tmp_path / "README.md").write_text("my notes\n")
    stale = tmp_path / "schemas" / "places.schema.json"
    stale.write_text("{}")
    assert _init(tmp_path) == 0
    assert votes.read_text().endswith("# mine\n")
    assert (tmp_path / "README.md").read_text() == "my notes\n"
    assert stale.read_bytes() == (SCHEMAS / "places.schema.json").read_bytes()
    assert sorted(p.name for p in (tmp_path / "decks").iterdir()) == ["gomaneh"]


def test_new_edition_from_a_shipped_game_the_project_lacks(tmp_path, capsys):
    assert _init(tmp_path) == 0
    decks = str(tmp_path / "decks")
    for name, base in (("dreams", "gomaneh-fa"), ("messy", "guess-the-mess-fa")):
        assert main(["--decks", decks, "new", "edition", name, "--from", base]) == 0, base
    # The Persian Guess the Mess! reads the English one's decks: copied beside it.
    messy = tmp_path / "decks" / "messy"
    assert (messy / "mess.yaml").read_bytes() == (
        resources.files("deckforge.sources") / "games" / "guess-the-mess" / "mess.yaml"
    ).read_bytes()
    capsys.readouterr()
    assert main(["--decks", decks, "validate"]) == 0
    assert capsys.readouterr().out.startswith("ok: 3 edition(s)")


def test_without_a_decks_folder_the_commands_suggest_init(tmp_path, capsys):
    assert main(["--decks", str(tmp_path / "decks"), "list"]) == 2
    assert capsys.readouterr().err == (
        f"deckforge: no decks folder at '{tmp_path / 'decks'}': start a project here with "
        "'deckforge init', or name the folder with --decks DIR\n"
    )


def test_a_file_that_cannot_be_read_is_said_to_be_read(tmp_path):
    """An installation missing its schemas says so, as reading (it once said writing)."""
    assert _init(tmp_path) == 0
    empty = tmp_path / "no-schemas"
    empty.mkdir()
    code = (
        "import sys, pathlib; from deckforge.sources import schema; "
        f"schema._FOLDER = pathlib.Path({str(empty)!r}); "
        "from deckforge.cli import main; sys.exit(main(['validate']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=os.environ
    )
    assert done.returncode == 1
    assert "cannot read deckforge's schema" in done.stderr, done.stderr
    assert "write" not in done.stderr
