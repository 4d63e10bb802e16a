"""deckforge as people install it: the sdist and the wheel that ``python -m build``
makes (the wheel from the sdist, as a user's ``pip`` would), installed into a fresh
virtual environment, work in an empty folder outside the repository, and draw what the
repository draws."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow  # builds the sdist and the wheel and installs them

EN = "guess-the-mess-en"
#: What the package reads at run time, besides its modules.
PACKAGE_DATA = [
    "sources/schemas/places.schema.json",
    "sources/schemas/edition.schema.json",
    "profiles/pnp-a4.yaml",
    "profiles/printer-cmyk.yaml",
    "templates/shipped/place.yaml",
    "render/raster/templates/index.html",
    "sources/games/example/edition.yaml",
    "sources/games/guess-the-mess/mess.yaml",
    "sources/games/guess-the-mess-fa/edition.yaml",
    "sources/games/gomaneh/pictures.yaml",
    "authoring/new_game/cards.csv",
    "authoring/new_game/templates/host-back.yaml",
]


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The folder holding the sdist and the wheel built from the repository."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def installed(dist, tmp_path_factory) -> Path:
    """The bin folder of a fresh virtual environment with the wheel installed (by the
    tests' own pip: a copy of pip of its own would take longer to set up than to use)."""
    env = tmp_path_factory.mktemp("venv")
    venv.create(env, with_pip=False)
    (wheel,) = dist.glob("deckforge-*.whl")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", env / "bin" / "python", "install", "--quiet"]
        + [wheel],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return env / "bin"


def _user(bin_dir: Path, folder: Path, *args: str) -> subprocess.CompletedProcess:
    """A command run as a user would: in ``folder``, with the environment's bin folder
    first on the PATH and nothing of the repository's on Python's path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(list(args), cwd=folder, env=env, capture_output=True, text=True)


def test_the_sdist_and_the_wheel_hold_the_package_data(dist):
    (sdist,) = dist.glob("deckforge-*.tar.gz")
    (wheel,) = dist.glob("deckforge-*.whl")
    with tarfile.open(sdist) as archive:
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    for data in PACKAGE_DATA:
        assert f"src/deckforge/{data}" in in_sdist, data
        assert f"deckforge/{data}" in in_wheel, data
    # The wheel holds the package alone; neither holds the repository's decks/ (links to
    # the package's games, and where a contributor's own editions would be).
    assert all(name.startswith(("deckforge/", "deckforge-")) for name in in_wheel)
    assert not any(name.startswith("decks/") for name in in_sdist)


def _page(path: Path, index: int):
    """A page of a PDF, rasterized."""
    document = pdfium.PdfDocument(path)
    try:
        return document[index].render(scale=50 / 72).to_pil().convert("RGB")
    finally:
        document.close()


def test_an_installed_deckforge_starts_builds_and_checks_a_project_anywhere(
    installed, tmp_path, built
):
    where = _user(
        installed, tmp_path, "python", "-c", "import deckforge; print(deckforge.__file__)"
    )
    assert Path(where.stdout.strip()).is_relative_to(installed.parent), where.stdout
    folder = tmp_path / "my-game"
    folder.mkdir()
    assert _user(installed, folder, "deckforge", "init").returncode == 0
    assert {p.name for p in (folder / "decks").iterdir()} == {"example"}
    assert (folder / "schemas" / "places.schema.json").is_file()
    assert "build/" in (folder / ".gitignore").read_text()
    made = _user(installed, folder, "deckforge", "new", "edition", "mine", "--from", EN)
    assert made.returncode == 0, made.stderr
    game = _user(installed, folder, "deckforge", "new", "game", "quiz")
    assert game.returncode == 0, game.stderr
    checked = _user(installed, folder, "deckforge", "validate")
    assert checked.returncode == 0 and checked.stdout.startswith("ok: 3 edition(s)"), checked
    built_here = _user(installed, folder, "deckforge", "build", "--profile", "pnp-a4")
    assert built_here.returncode == 0, built_here.stderr
    manifest = json.loads((folder / "build" / "manifest.json").read_text())["outputs"]
    decks = {(e["edition"], e.get("deck")): e for e in manifest if e["kind"] == "cards"}
    assert decks[("mine", "mess")]["cards"] == 400
    assert decks[("example-en", "places")]["cards"] == 6
    assert decks[("quiz", "trivia")]["cards"] == 12
    # The new edition's Mess deck is the shipped game's: page for page what the
    # repository draws.
    ours = folder / "build" / "mine" / "pnp-a4" / "mess.pdf"
    theirs = built / EN / "pnp-a4" / "mess.pdf"
    for index in (0, 1, 24):
        assert _page(ours, index).tobytes() == _page(theirs, index).tobytes(), index
