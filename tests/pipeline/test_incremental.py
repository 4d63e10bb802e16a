"""Incremental and parallel builds: only what changed is made again, and the files are
the same whichever way they were made."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from PIL import Image

from deckforge.cli import main
from deckforge.pipeline import run
from deckforge.pipeline.recipe import build
from deckforge.sources.load import Project

DATA = Path(__file__).resolve().parents[1] / "data" / "minimal"


def _project(tmp_path: Path) -> Path:
    shutil.copytree(DATA, tmp_path / "decks" / "minimal")
    return tmp_path


def _hashes(out: Path) -> dict[str, str]:
    return {
        p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*.pdf"))
    }


def test_a_build_with_nothing_changed_renders_nothing(tmp_path, capsys):
    root = _project(tmp_path)
    args = ["--decks", str(root / "decks"), "build", "--out", str(root / "build")]
    assert main(args) == 0
    before = {p: p.stat().st_mtime_ns for p in (root / "build").rglob("*.pdf")}
    capsys.readouterr()
    assert main(args) == 0
    assert re.match(r"nothing to do: the edition in .* is up to date", capsys.readouterr().out)
    assert {p: p.stat().st_mtime_ns for p in (root / "build").rglob("*.pdf")} == before


def test_a_one_card_edit_rebuilds_only_the_files_of_its_deck(tmp_path):
    root = _project(tmp_path)
    project, out = Project(root / "decks"), root / "build"
    profiles = ["pnp-a4", "pnp-letter", "printer"]
    first = build(project, out, profile_names=profiles)
    # Four decks in three profiles, and a duplex calibration sheet for each pnp profile.
    assert len(first.written) == 14
    places = root / "decks" / "minimal" / "places.yaml"
    places.write_text(places.read_text().replace("name: Attic", "name: Loft"))
    second = build(project, out, profile_names=profiles)
    assert sorted(e.path for e in second.written) == [
        f"minimal-en/{profile}/places.pdf" for profile in profiles
    ]
    assert len(second.unchanged) == 11


def test_the_build_lists_only_the_files_it_rendered(tmp_path, capsys):
    root = _project(tmp_path)
    args = ["--decks", str(root / "decks"), "build", "--out", str(root / "build")]
    assert main([*args, "--profile", "pnp-a4"]) == 0
    capsys.readouterr()
    places = root / "decks" / "minimal" / "places.yaml"
    places.write_text(places.read_text().replace("name: Attic", "name: Loft"))
    assert main([*args, "--profile", "pnp-a4"]) == 0
    out = capsys.readouterr().out
    rendered = re.findall(r"^  rendered (\S+)$", out, re.MULTILINE)
    assert rendered == [str(root / "build" / "minimal-en" / "pnp-a4" / "places.pdf")], out
    assert re.search(r"built 1 file \(\d+ pages\), 4 unchanged in ", out), out


def test_a_build_that_fails_lists_no_file_as_rendered(tmp_path, capsys):
    # The starter's other parts are rendered into the staging folder before the trivia
    # deck's bad colour stops the build; nothing is published, so none is listed.
    decks = tmp_path / "decks"
    decks.mkdir()
    assert main(["--decks", str(decks), "new", "game", "quiz"]) == 0
    cards = decks / "quiz" / "cards.csv"
    cards.write_text(cards.read_text().replace("1969,history", "1969,histry"))
    args = ["--decks", str(decks), "build", "--out", str(tmp_path / "build")]
    capsys.readouterr()
    assert main([*args, "--profile", "pnp-a4", "--jobs", "1"]) == 1
    captured = capsys.readouterr()
    assert "'histry' is not a colour" in captured.err
    assert "rendered" not in captured.out, captured.out
    assert not (tmp_path / "build" / "quiz").exists()


def test_changed_art_with_the_same_name_is_drawn_again(tmp_path):
    root = _project(tmp_path)
    folder = root / "decks" / "minimal"
    (folder / "art").mkdir()
    Image.new("RGB", (450, 450), (200, 30, 30)).save(folder / "art" / "attic.png")
    places = folder / "places.yaml"
    places.write_text(
        places.read_text()
        .replace("    category: home\n", "    category: home\n    art: art/attic.png\n", 2)
        .replace("    art: art/attic.png\n", "", 1)
    )
    project, out = Project(root / "decks"), root / "build"
    build(project, out, profile_names=["printer"])
    Image.new("RGB", (450, 450), (30, 30, 200)).save(folder / "art" / "attic.png")
    again = build(project, out, profile_names=["printer"])
    assert [e.path for e in again.written] == ["minimal-en/printer/places.pdf"]


def test_parallel_and_single_process_builds_give_the_same_bytes(tmp_path):
    root = _project(tmp_path)
    decks = str(root / "decks")
    assert (
        main(["--decks", decks, "build", "--out", str(root / "one"), "--jobs", "1", "--quiet"]) == 0
    )
    assert (
        main(["--decks", decks, "build", "--out", str(root / "two"), "--jobs", "2", "--quiet"]) == 0
    )
    assert _hashes(root / "one") == _hashes(root / "two")


def test_force_rebuilds_everything(tmp_path):
    root = _project(tmp_path)
    project, out = Project(root / "decks"), root / "build"
    build(project, out, profile_names=["printer"])
    assert len(build(project, out, profile_names=["printer"], force=True).written) == 4


def test_problems_found_while_laying_out_are_reported_alike_in_parallel(tmp_path, capsys):
    # Files are laid out in parallel, largest first; what is reported must not depend on
    # which finished first.
    root = _project(tmp_path)
    folder = root / "decks" / "minimal"
    long = "Unwieldy " * 40
    for name, old in (("mess.yaml", "name: Socks"), ("places.yaml", "name: Attic")):
        path = folder / name
        path.write_text(path.read_text().replace(old, f"name: {long}"))
    args = ["--decks", str(root / "decks"), "build", "--out", str(root / "build")]
    reports = []
    for jobs in ("1", "2", "2"):
        assert main([*args, "--jobs", jobs]) == 1
        reports.append(capsys.readouterr().err)
    files = re.findall(r"^decks/minimal/(\w+)\.yaml:\d+:\d+: ", reports[0], re.MULTILINE)
    assert files == ["mess", "places"], reports[0]
    assert reports[1] == reports[0] and reports[2] == reports[0]
    assert not (root / "build").exists()


def test_files_found_unchanged_are_not_even_laid_out(tmp_path, monkeypatch):
    root = _project(tmp_path)
    project, out = Project(root / "decks"), root / "build"
    build(project, out, profile_names=["pnp-a4", "printer"], jobs=1)
    laid_out = []
    real = run.lay_out_deck

    def counting(edition, deck):
        laid_out.append(deck.id)
        return real(edition, deck)

    monkeypatch.setattr(run, "lay_out_deck", counting)
    places = root / "decks" / "minimal" / "places.yaml"
    places.write_text(places.read_text().replace("name: Attic", "name: Loft"))
    second = build(project, out, profile_names=["pnp-a4", "printer"], jobs=1)
    # Laid out once for both profiles; the other decks are known to be unchanged.
    assert laid_out == ["places"]
    assert sorted(e.path for e in second.written) == [
        "minimal-en/pnp-a4/places.pdf",
        "minimal-en/printer/places.pdf",
    ]
    manifest = json.loads((out / "manifest.json").read_text())["outputs"]
    assert {e["path"]: e["pages"] for e in manifest} == {
        e.path: e.pages for e in second.written + second.unchanged
    }
    assert len(manifest) == 9  # four decks in two profiles, and one calibration sheet


def test_warnings_of_unchanged_files_are_given_again(tmp_path):
    root = _project(tmp_path)
    folder = root / "decks" / "minimal"
    side = round(1.4 * 200)  # the place card's round picture is 1.4 in across: 200 dpi
    Image.new("RGB", (side, side), (200, 60, 40)).save(folder / "kitchen.png")
    places = folder / "places.yaml"
    places.write_text(places.read_text().replace('icon: "1F373"', "art: kitchen.png", 1))
    project, out = Project(root / "decks"), root / "build"
    first = build(project, out, profile_names=["printer"])
    dpi = "'kitchen.png' is 280 × 280 px, 200 dpi at print size; 300 dpi is recommended"
    assert dpi in [w.message for w in first.warnings]
    mess = folder / "mess.yaml"
    mess.write_text(mess.read_text().replace("name: Socks", "name: Odd socks"))
    second = build(project, out, profile_names=["printer"])
    assert [e.path for e in second.written] == ["minimal-en/printer/mess.pdf"]
    assert second.warnings == first.warnings


def test_files_are_found_unchanged_across_processes(tmp_path):
    # What a file is made from is hashed; the hash must not depend on the process (a set
    # pickled in string-hash order would make every build redo everything).
    root = _project(tmp_path)
    args = [sys.executable, "-m", "deckforge", "--decks", str(root / "decks"), "build"]
    args += ["--out", str(root / "build"), "--profile", "pnp-a4"]

    def run(seed: str) -> str:
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
        return done.stdout

    run("1")
    places = root / "decks" / "minimal" / "places.yaml"
    places.write_text(places.read_text().replace("name: Attic", "name: Loft"))
    assert re.search(r"built 1 file \(\d+ pages\), 4 unchanged in ", run("2"))


def test_an_edit_to_a_decks_data_file_rebuilds_only_that_decks_files(tmp_path):
    # A deck's file is known unchanged from the bytes its model is built from: the
    # data file a deck of cards reads is one of them, as much as the deck's own file.
    from deckforge.authoring.game import new_game

    decks = tmp_path / "decks"
    decks.mkdir()
    new_game(Project(decks), "quiz")
    out = tmp_path / "build"
    build(Project(decks), out, profile_names=["printer"])
    before = _hashes(out)
    data = decks / "quiz" / "cards.csv"
    data.write_text(data.read_text(encoding="utf-8").replace("?", "??", 1), encoding="utf-8")
    second = build(Project(decks), out, profile_names=["printer"])
    # The tuck box is sized from the trivia deck and shows its back: made again too.
    written = sorted(e.path for e in second.written)
    assert written == ["quiz/printer/trivia-box.pdf", "quiz/printer/trivia.pdf"]
    others = ("board", "roles", "journeys", "tokens", "tiles")
    assert sorted(e.path for e in second.unchanged) == sorted(
        f"quiz/printer/{name}.pdf" for name in others
    )
    after = _hashes(out)
    assert after["quiz/printer/trivia.pdf"] != before["quiz/printer/trivia.pdf"]


def test_an_edit_to_a_boards_template_draws_the_board_again(tmp_path):
    from deckforge.authoring.game import new_game

    decks = tmp_path / "decks"
    decks.mkdir()
    new_game(Project(decks), "quiz")
    out = tmp_path / "build"
    build(Project(decks), out, profile_names=["printer"])
    before = _hashes(out)
    template = decks / "quiz" / "templates" / "board.yaml"
    text = template.read_text(encoding="utf-8")
    template.write_text(text.replace("font_size: 60pt", "font_size: 50pt"), encoding="utf-8")
    second = build(Project(decks), out, profile_names=["printer"])
    assert "quiz/printer/board.pdf" in [e.path for e in second.written]
    assert _hashes(out)["quiz/printer/board.pdf"] != before["quiz/printer/board.pdf"]


def test_an_edit_to_the_edition_manifest_draws_the_decks_again(tmp_path):
    root = _project(tmp_path)
    project, out = Project(root / "decks"), root / "build"
    build(project, out, profile_names=["printer"])
    before = _hashes(out)
    manifest = root / "decks" / "minimal" / "edition.yaml"
    manifest.write_text(manifest.read_text().replace("back: Place}", "back: Spot}"))
    second = build(project, out, profile_names=["printer"])
    assert "minimal-en/printer/places.pdf" in {e.path for e in second.written}
    assert _hashes(out)["minimal-en/printer/places.pdf"] != before["minimal-en/printer/places.pdf"]
