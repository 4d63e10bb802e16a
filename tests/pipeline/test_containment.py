"""Nothing outside the project is read while building it, however hostile its files:
every ``open`` of a build of hostile art is recorded by an audit hook
(:func:`sys.addaudithook`) and checked."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from deckforge.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"

#: Builds in a process of its own, recording the path of every file opened (and every
#: folder listed) from the moment the build starts, and writes them out as JSON.
_TRACER = """
import json, os, sys
opened = []

def hook(event, args):
    named = args and isinstance(args[0], (str, bytes, os.PathLike))
    if event in ("open", "os.listdir", "os.scandir") and named:
        opened.append(os.fsdecode(args[0]))

# Imported first: what Python and the libraries read as they load (ReportLab looks for
# its settings in the home folder and lists the system's font folders) is not the
# question; what the build reads is.
import reportlab.rl_config, svglib.svglib, PIL.Image, pypdfium2
from deckforge.cli import main

sys.addaudithook(hook)
code = main(sys.argv[2:])
record = opened[:]
with open(sys.argv[1], "w") as handle:
    json.dump({"code": code, "opened": record}, handle)
"""


def _hostile_art(art: Path, secret: Path) -> None:
    """Art files that reach for ``secret`` every way found so far, and one that does
    not: SVG art holding a picture."""
    art.mkdir(parents=True)
    rel = os.path.relpath(secret, art)
    (art / "link.png").symlink_to(secret)
    svg = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
    image = '<image xlink:href="{}" width="9" height="9"/></svg>'
    (art / "dotdot.svg").write_text(svg + 'width="9" height="9">' + image.format(f"data:/{rel}"))
    (art / "utf16.svg").write_bytes(
        ('<?xml version="1.0" encoding="UTF-16"?>' + svg + 'width="9" height="9">')
        .replace("xmlns:xlink", "xmlns:x")
        .encode("utf-16")
        + image.replace("xlink:", "").format(rel).encode("utf-16")[2:]
    )
    (art / "entity.svg").write_text(
        f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY s SYSTEM "file://{secret}">]>'
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><text>&s;</text></svg>'
    )
    picture = base64.b64encode(secret.read_bytes()).decode()
    (art / "placed.svg").write_text(
        svg + 'width="72" height="72">' + image.format(f"data:image/png;base64,{picture}")
    )


def _traced(project: Path, record: Path, args: list[str]) -> tuple[int, str, set[str]]:
    """Run a command in ``project`` under the audit hook: its exit code, what it said on
    standard error, and every file it opened, with links resolved."""
    command = [sys.executable, "-c", _TRACER, str(record), *args]
    # Run in the project: names opened relative to a folder (shutil.rmtree opens each
    # file by its name in its folder) are then taken as inside it, as they are.
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=project)
    traced = json.loads(record.read_text())
    opened = {os.path.realpath(os.path.join(project, path)) for path in traced["opened"]}
    return traced["code"], done.stderr, opened


def _outside(opened: set[str], project: Path) -> list[str]:
    allowed = [str(project.resolve()), *_installed()]
    return sorted(p for p in opened if not any(_under(p, folder) for folder in allowed))


@pytest.mark.parametrize(
    "art,code",
    [("link.png", 1), ("dotdot.svg", 1), ("utf16.svg", 1), ("entity.svg", 1), ("placed.svg", 0)],
)
def test_no_file_outside_the_project_is_opened_building_hostile_art(tmp_path, art, code):
    secret = tmp_path / "elsewhere" / "secret.png"
    secret.parent.mkdir()
    Image.new("RGB", (64, 64), (200, 60, 40)).save(secret)
    project = tmp_path / "project"
    decks = project / "decks"
    shutil.copytree(DATA / "minimal", decks / "minimal")
    _hostile_art(decks / "minimal" / "art", secret)
    places = decks / "minimal" / "places.yaml"
    places.write_text(
        places.read_text().replace(
            "    name: Kitchen\n", f"    name: Kitchen\n    art: art/{art}\n", 1
        )
    )
    record = tmp_path / "opened.json"
    out = project / "build"
    command = [sys.executable, "-c", _TRACER, str(record), "--decks", str(decks), "build"]
    command += ["--profile", "printer", "--out", str(out), "--quiet", "--jobs", "1"]
    # Run in the project: names opened relative to a folder (shutil.rmtree opens each
    # file by its name in its folder) are then taken as inside it, as they are.
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=project)
    traced = json.loads(record.read_text())
    assert traced["code"] == code, done.stderr
    if code:
        assert f"{art}'" in done.stderr, done.stderr
    opened = {os.path.realpath(os.path.join(project, path)) for path in traced["opened"]}
    assert str(secret) not in opened
    allowed = [str(project.resolve()), *_installed()]
    outside = sorted(p for p in opened if not any(_under(p, folder) for folder in allowed))
    assert outside == [], "\n".join(outside)


def _installed() -> list[str]:
    """Where deckforge and the libraries it uses are installed (their own files: schemas,
    fonts, icons, colour profiles), and the cache of fonts and icons."""
    import sysconfig

    from deckforge import cache as kept

    places = {sys.prefix, sys.base_prefix, sysconfig.get_paths()["purelib"]}
    places.add(str(Path(__file__).resolve().parents[2] / "src"))
    places.add(str(kept.folder()))
    return [os.path.realpath(p) for p in places]


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _build_gtm(project: Path, capsys) -> tuple[int, str]:
    args = ["--decks", str(project / "decks"), "build", "--out", str(project / "build")]
    code = main([*args, "--profile", "printer", "--edition", "guess-the-mess-en", "--quiet"])
    return code, capsys.readouterr().err


def test_a_template_that_links_out_of_the_project_is_refused(project, tmp_path_factory, capsys):
    outside = tmp_path_factory.mktemp("elsewhere") / "place.yaml"
    outside.write_text("kind: template\nextends: place\n", encoding="utf-8")
    own = project / "decks" / "guess-the-mess" / "templates"
    own.mkdir()
    (own / "place.yaml").symlink_to(outside)
    code, err = _build_gtm(project, capsys)
    assert code == 1
    assert (
        "decks/guess-the-mess/templates/place.yaml: is outside the project folder; templates "
        "and their files must stay inside it"
    ) in err
    assert not (project / "build").exists()


def test_a_templates_folder_that_links_out_of_the_project_is_refused(
    project, tmp_path_factory, capsys
):
    outside = tmp_path_factory.mktemp("elsewhere")
    (outside / "place.yaml").write_text("kind: template\nextends: place\n", encoding="utf-8")
    (project / "decks" / "guess-the-mess" / "templates").symlink_to(outside)
    code, err = _build_gtm(project, capsys)
    assert code == 1
    assert (
        "decks/guess-the-mess/templates: the templates folder is outside the project folder; "
        "templates must stay inside it"
    ) in err


def test_a_named_pipe_in_the_templates_folder_is_refused(project, capsys):
    own = project / "decks" / "guess-the-mess" / "templates"
    own.mkdir()
    os.mkfifo(own / "place.yaml")
    code, err = _build_gtm(project, capsys)
    assert code == 1
    assert "decks/guess-the-mess/templates/place.yaml: is a named pipe (FIFO), not a file" in err


@pytest.fixture()
def elsewhere(tmp_path) -> Path:
    """A picture, a template and a card file outside the project."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    Image.new("RGB", (64, 64), (200, 60, 40)).save(folder / "secret.png")
    (folder / "x.yaml").write_text("kind: template\nsize: poker\nelements: []\n")
    return folder


@pytest.fixture()
def quiz(tmp_path) -> Path:
    """A project holding the game 'deckforge new game quiz' makes."""
    from deckforge.authoring.game import new_game
    from deckforge.sources.load import Project

    project = tmp_path / "project"
    (project / "decks").mkdir(parents=True)
    new_game(Project(project / "decks"), "quiz")
    return project


def _answer(project: Path, value: str) -> None:
    """Make the first trivia card's answer ``value``."""
    data = project / "decks" / "quiz" / "cards.csv"
    lines = data.read_text().splitlines()
    cells = lines[1].split(",")
    lines[1] = ",".join([*cells[:-2], value, cells[-1]])
    data.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("how", ["relative", "absolute", "link"])
def test_a_data_cell_naming_a_picture_outside_the_project_is_an_error_at_its_cell(
    tmp_path, quiz, elsewhere, how
):
    secret = elsewhere / "secret.png"
    if how == "relative":
        value = os.path.relpath(secret, quiz / "decks" / "quiz")
    elif how == "absolute":
        value = str(secret)
    else:
        (quiz / "decks" / "quiz" / "art").mkdir()
        (quiz / "decks" / "quiz" / "art" / "link.png").symlink_to(secret)
        value = "art/link.png"
    _answer(quiz, value)
    args = ["build", "--profile", "printer", "--out", "build", "--quiet", "--jobs", "1"]
    code, err, opened = _traced(quiz, tmp_path / "opened.json", args)
    assert code == 1, err
    column = len("q01,What gas do plants take in from the air to make their food?,") + 1
    assert err.splitlines()[0] == (
        f"decks/quiz/cards.csv:2:{column}: '{value}' is outside the project folder; "
        "art must stay inside it"
    )
    assert str(secret) not in opened
    assert _outside(opened, quiz) == []
    assert not (quiz / "build").exists()


def test_a_data_cell_naming_a_picture_too_long_to_be_a_file_is_reported_at_its_cell(quiz, capsys):
    _answer(quiz, "a" * 300 + ".png")
    args = ["--decks", str(quiz / "decks"), "build", "--profile", "printer", "--quiet"]
    assert main([*args, "--out", str(quiz / "build")]) == 1
    column = len("q01,What gas do plants take in from the air to make their food?,") + 1
    first = capsys.readouterr().err.splitlines()[0]
    assert first.startswith(f"decks/quiz/cards.csv:2:{column}: card 'q01': cannot fit "), first


@pytest.mark.parametrize("name", ["../../../elsewhere/x", "ABSOLUTE"])
def test_templates_show_reads_no_file_named_outside_the_project(tmp_path, quiz, elsewhere, name):
    name = str(elsewhere / "x") if name == "ABSOLUTE" else name
    for edition in ([], ["--edition", "quiz"]):
        code, err, opened = _traced(
            quiz, tmp_path / "opened.json", ["templates", "show", name, *edition]
        )
        assert code == 2
        assert err == (
            f"deckforge: '{name}' is not a template name: use letters, digits, '-' and '_', "
            "starting with a letter\n"
        )
        assert str(elsewhere / "x.yaml") not in opened
        assert _outside(opened, quiz) == []


@pytest.mark.parametrize("command", ["list", "show"])
def test_templates_of_an_edition_outside_the_project_are_not_read(tmp_path, quiz, command):
    other = tmp_path / "other"
    (other / "templates").mkdir(parents=True)
    (other / "edition.yaml").write_text("kind: edition\nid: other\n")
    (other / "templates" / "sneaky.yaml").write_text("kind: template\nsize: poker\n")
    args = ["templates", command, *(["sneaky"] if command == "show" else [])]
    code, err, opened = _traced(quiz, tmp_path / "opened.json", [*args, "--edition", str(other)])
    assert code == 2
    assert err == (
        f"deckforge: the edition '{other}' is outside the project folder; its templates are "
        "not read\n"
    )
    assert _outside(opened, quiz) == []


def test_a_template_asked_for_by_a_path_is_refused(project):
    from deckforge.templates.load import Layer, Library

    own = project / "decks" / "guess-the-mess" / "templates"
    own.mkdir()
    (own / "place.yaml").write_text("kind: template\nextends: ../../x\n")
    library = Library([Layer(own, project)])
    template, problems = library.get("../../x")
    assert template is None
    assert [p.format() for p in problems] == [
        "templates/: '../../x' is not a template name: use letters, digits, '-' and '_', "
        "starting with a letter"
    ]


@pytest.mark.parametrize("how", ["absolute", "dotdot", "link"])
def test_preview_without_building_reads_no_pdf_a_tampered_manifest_names_outside(
    tmp_path, quiz, elsewhere, how
):
    out = quiz / "build"
    assert (
        main(
            [
                "--decks",
                str(quiz / "decks"),
                "build",
                "--profile",
                "printer",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    manifest = json.loads((out / "manifest.json").read_text())
    entry = next(e for e in manifest["outputs"] if e["deck"] == "trivia")
    stolen = elsewhere / "other.pdf"
    shutil.copy(out / entry["path"], stolen)
    if how == "absolute":
        entry["path"] = str(stolen)
    elif how == "dotdot":
        entry["path"] = os.path.relpath(stolen, out)
    else:
        (out / entry["path"]).unlink()
        (out / entry["path"]).symlink_to(stolen)
    (out / "manifest.json").write_text(json.dumps(manifest))
    args = ["preview", "--no-build", "--out", "build", "--jobs", "1"]
    code, err, opened = _traced(quiz, tmp_path / "opened.json", args)
    assert code == 1, err
    if how == "link":
        reason = f"'{entry['path']}' is a link out of the build folder"
    else:
        reason = f"an entry's 'path' '{entry['path']}' leads out of the build folder"
    assert err == f"deckforge: build/manifest.json: not a deckforge build manifest ({reason})\n"
    assert str(stolen) not in opened
    assert _outside(opened, quiz) == []


def test_a_yaml_card_naming_a_picture_outside_the_project_is_an_error_at_its_line(
    quiz, elsewhere, capsys
):
    roles = quiz / "decks" / "quiz" / "roles.yaml"
    text = roles.read_text()
    first = text.index("    icon: ")
    roles.write_text(f"{text[:first]}    portrait: {elsewhere / 'secret.png'}\n{text[first:]}")
    line = text[:first].count("\n") + 1
    assert main(["--decks", str(quiz / "decks"), "validate"]) == 1
    assert (
        f"decks/quiz/roles.yaml:{line}:15: cards[0].portrait: '{elsewhere / 'secret.png'}' is "
        "outside the project folder; art must stay inside it"
    ) in capsys.readouterr().err.splitlines()
