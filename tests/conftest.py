"""Shared fixtures: every shipped edition is built once per test session."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock

from deckforge.cli import main
from docs_support import mkdocs

ROOT = Path(__file__).resolve().parents[1]
DECKS = ROOT / "decks"
#: The cards of each deck of Guess the Mess!, as its rules give them (both languages).
GUESS_THE_MESS_COUNTS = {
    "places": 144,
    "mess": 400,
    "which-way": 8,
    "spots": 8,
    "players": 64,
    "blank-places": 16,
}


def _checkout_outputs() -> dict[str, int]:
    """Every file under the checkout's own build/ folder, with its modification time."""
    out = ROOT / "build"
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}


@pytest.fixture(scope="session", autouse=True)
def checkout_build_untouched():
    """No test writes into the checkout's build/ folder: that is the user's `make print`."""
    before = _checkout_outputs()
    yield
    after = _checkout_outputs()
    changed = sorted(
        name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
    )
    assert not changed, f"tests wrote into the checkout's build/: {changed[:10]}"


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """The output folder of a full build of every shipped edition and profile. Worker
    processes of pytest-xdist (``-n``) share one: the first to need it builds it."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        out = tmp_path_factory.mktemp("build")
        assert main(["--decks", str(DECKS), "build", "--out", str(out), "--quiet"]) == 0
        return out
    shared = tmp_path_factory.getbasetemp().parent
    out = shared / "build"
    with FileLock(shared / "build.lock"):
        if not (out / "manifest.json").is_file():
            assert main(["--decks", str(DECKS), "build", "--out", str(out), "--quiet"]) == 0
    return out


@pytest.fixture(scope="session")
def preflighted(built, tmp_path_factory) -> dict:
    """Preflight's report on every file of the shipped build, by the file's path in the
    manifest. Worker processes share them as they share the build."""
    from deckforge.preflight import preflight

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return {report.path: report for report in preflight(built)}
    shared = tmp_path_factory.getbasetemp().parent
    saved = shared / "preflight.pickle"
    with FileLock(shared / "preflight.lock"):
        if not saved.is_file():
            saved.write_bytes(pickle.dumps(preflight(built)))
    return {report.path: report for report in pickle.loads(saved.read_bytes())}


@pytest.fixture(scope="session")
def manifest(built) -> list[dict]:
    """The build manifest's entries."""
    return json.loads((built / "manifest.json").read_text(encoding="utf-8"))["outputs"]


@pytest.fixture(scope="session")
def preview(built, tmp_path_factory) -> Path:
    """The preview site of the full build."""
    from deckforge.render.raster import preview_site

    site = tmp_path_factory.mktemp("preview")
    preview_site(built, site)
    return site


@pytest.fixture()
def project(tmp_path) -> Path:
    """A scratch copy of the project's decks and schemas, for tests that break sources."""
    shutil.copytree(DECKS, tmp_path / "decks")
    return tmp_path


def entry(manifest: list[dict], **match) -> dict:
    """The one manifest entry matching every given field."""
    found = [e for e in manifest if all(e.get(k) == v for k, v in match.items())]
    assert len(found) == 1, f"{len(found)} entries match {match}"
    return found[0]


@pytest.fixture(scope="session")
def docs_copy(built, tmp_path_factory) -> Path:
    """A copy of docs/ and mkdocs.yml with the pictures drawn from the shipped build."""
    folder = tmp_path_factory.mktemp("docs-source")
    shutil.copytree(
        ROOT / "docs", folder / "docs", ignore=shutil.ignore_patterns("pictures", "gallery.md")
    )
    shutil.copy(ROOT / "mkdocs.yml", folder / "mkdocs.yml")
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "docs_tools" / "pictures.py"),
            "--build",
            str(built),
            "--docs",
            str(folder / "docs"),
        ],
        check=True,
    )
    return folder


@pytest.fixture(scope="session")
def site(docs_copy, tmp_path_factory) -> Path:
    """The site, built with --strict."""
    out = tmp_path_factory.mktemp("site")
    done = mkdocs(docs_copy / "mkdocs.yml", out)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A headless Chromium for a module of browser tests."""
    from browser import Browser, find_chromium  # POSIX-only: read by browser tests alone

    chromium = find_chromium()
    assert chromium is not None, "Chromium is missing: make test installs Debian's chromium"
    opened = Browser(chromium, tmp_path_factory.mktemp("chromium-profile"))
    yield opened
    opened.close()
