"""A build is published whole: killed at any moment (rendering, writing the manifest,
moving files into place), it leaves the previous build or the new one, never a mix;
and the next build cleans up only what a build made."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from deckforge import manifest
from deckforge.cli import main
from deckforge.fsutil import JOURNAL_NAME, STAGING_NAME

DATA = Path(__file__).resolve().parents[1] / "data"

#: Runs a build in a process of its own that kills itself outright (SIGKILL: nothing is
#: cleaned up) at the N-th call of what it is told to break: rendering a file, any
#: ``os.replace`` (every write and every publishing step is one), or a move of a staged
#: file into place.
_RUNNER = """
import os, signal, sys
from deckforge.pipeline import run

point, at = sys.argv[1], int(sys.argv[2])
calls = 0

def hit():
    global calls
    calls += 1
    if calls == at:
        os.kill(os.getpid(), signal.SIGKILL)

if point == "render":
    real_render = run.pdf.render
    def render(document, path):
        hit()
        real_render(document, path)
    run.pdf.render = render
else:
    real_replace = os.replace
    def replace(source, target):
        # "move": only the moves of staged files into place count.
        staging = ".deckforge-staging"
        if point != "move" or (staging in str(source) and staging not in str(target)):
            hit()
        real_replace(source, target)
    os.replace = replace

from deckforge.cli import main
sys.exit(main(sys.argv[3:]))
"""


def _arguments(decks: Path, out: Path) -> list[str]:
    return ["--decks", str(decks), "build", "--profile", "pnp-a4", "--out", str(out)] + [
        "--quiet",
        "--jobs",
        "1",
    ]


def _visible(folder: Path) -> dict[str, str]:
    """What a reader of a build folder sees: its files and their contents (deckforge's
    own hidden files aside)."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    }


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """A project; its old build; its sources changed, and the build they make."""
    root = tmp_path_factory.mktemp("publishing")
    decks = root / "decks"
    shutil.copytree(DATA / "minimal", decks / "minimal")
    old = root / "old"
    assert main(_arguments(decks, old)) == 0
    places = decks / "minimal" / "places.yaml"
    places.write_text(places.read_text().replace("Kitchen", "Scullery"))
    new = root / "new"
    assert main(_arguments(decks, new)) == 0
    assert _visible(old) != _visible(new)
    return decks, old, new


def _killed(decks: Path, out: Path, point: str, at: int) -> int:
    # Every file made again, so that there are many moments to be killed at.
    command = [sys.executable, "-c", _RUNNER, point, str(at), *_arguments(decks, out), "--force"]
    env = {**os.environ, "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", "")}
    return subprocess.run(command, env=env, capture_output=True, check=False).returncode


@pytest.mark.parametrize(
    "point,at",
    # Writing the manifest, the record and the journal, then moving seven files into
    # place, are the ten replaces of this build: each is a moment to be killed at.
    [("render", 1), ("render", 3)] + [("replace", n) for n in range(1, 11)],
)
def test_a_build_killed_at_any_moment_leaves_one_whole_build(builds, tmp_path, point, at):
    decks, old, new = builds
    out = tmp_path / "build"
    shutil.copytree(old, out)
    user_file = out / "notes.tmp"
    user_file.write_text("the user's own file")
    code = _killed(decks, out, point, at)
    # What any reader sees: the manifest, and the files it lists, of one build.
    entries = manifest.read(out)
    seen = _visible(out)
    seen.pop("notes.tmp")
    assert code == -signal.SIGKILL, "the build was not killed: choose points it reaches"
    assert seen in (_visible(old), _visible(new)), (point, at)
    for entry in entries:
        manifest.checked(out, entry)
    # The next build finishes the job, and removes only what a build made.
    assert main(_arguments(decks, out)) == 0
    after = _visible(out)
    assert after.pop("notes.tmp") and after == _visible(new)
    assert not (out / STAGING_NAME).exists() and not (out / JOURNAL_NAME).exists()
    assert user_file.read_text() == "the user's own file"


def test_a_build_keeps_the_users_tmp_files(builds, tmp_path):
    decks, old, _ = builds
    out = tmp_path / "build"
    shutil.copytree(old, out)
    mine = [out / "draft.tmp", out / "minimal-en" / "pnp-a4" / ".places.pdf.abc123.tmp"]
    for path in mine:
        path.write_text("mine")
    assert main(_arguments(decks, out)) == 0
    assert all(path.read_text() == "mine" for path in mine)


def test_a_file_changed_after_the_build_is_not_taken_for_it(builds, tmp_path, capsys):
    decks, old, _ = builds
    out = tmp_path / "build"
    shutil.copytree(old, out)
    entry = next(e for e in manifest.read(out) if e.path.endswith("places.pdf"))
    (out / entry.path).write_bytes(b"%PDF-1.4 something else")
    with pytest.raises(manifest.ManifestError, match="not the file the build made"):
        manifest.checked(out, entry)
    # and the next build makes it again, though its sources have not changed
    assert main(_arguments(decks, out)) == 0
    remade = next(e for e in manifest.read(out) if e.path == entry.path)
    assert manifest.checked(out, remade).read_bytes().startswith(b"%PDF-")
    assert (out / entry.path).stat().st_size > 1000


@pytest.mark.parametrize(
    "journal",
    [
        b'{"format": "deckforge-publish-1", "files": ["../escape.pdf"]}',
        b'{"format": "deckforge-publish-1", "files": ["/tmp/escape.pdf"]}',
        b'{"format": "deckforge-publish-1", "files": [".deckforge-staging/x"]}',
        b'{"format": "something else", "files": []}',
        b"\x80not json",
    ],
)
def test_a_journal_deckforge_did_not_write_moves_nothing(builds, tmp_path, caplog, journal):
    decks, old, new = builds
    out = tmp_path / "build"
    shutil.copytree(old, out)
    staging = out / STAGING_NAME
    staging.mkdir()
    (staging / ".made-by-deckforge").touch()
    (staging / "escape.pdf").write_bytes(b"planted")
    (out / JOURNAL_NAME).write_bytes(journal)
    entries = manifest.read(out)  # finishes publishing first: here, nothing to finish
    assert "cannot finish publishing the build that was interrupted" in caplog.text
    assert not (tmp_path / "escape.pdf").exists() and not Path("/tmp/escape.pdf").exists()
    assert not staging.exists() and not (out / JOURNAL_NAME).exists()
    assert _visible(out) == _visible(old) and len(entries) > 3
    assert main(_arguments(decks, out)) == 0
    assert _visible(out) == _visible(new)


def _without_spots(decks: Path) -> None:
    """The minimal edition with its deck of spots removed."""
    edition = decks / "minimal" / "edition.yaml"
    lines = edition.read_text().splitlines(keepends=True)
    edition.write_text("".join(line for line in lines if "id: spots" not in line))


def _spots(out: Path) -> Path:
    return out / "minimal-en" / "pnp-a4" / "spots.pdf"


@pytest.fixture()
def removed(tmp_path) -> tuple[Path, Path]:
    """A build of the minimal edition, and its decks with one deck removed since."""
    decks = tmp_path / "decks"
    shutil.copytree(DATA / "minimal", decks / "minimal")
    out = tmp_path / "build"
    assert main(_arguments(decks, out)) == 0
    assert _spots(out).is_file()
    _without_spots(decks)
    return decks, out


def test_a_file_the_build_no_longer_makes_is_removed(removed, capsys):
    decks, out = removed
    others = {p: p.read_bytes() for p in out.rglob("*.pdf") if p != _spots(out)}
    mine = out / "minimal-en" / "pnp-a4" / "notes.txt"
    mine.write_text("mine")
    capsys.readouterr()
    assert main(_arguments(decks, out)) == 0
    assert not _spots(out).exists()
    assert [e.path for e in manifest.read(out) if e.deck == "spots"] == []
    assert {p: p.read_bytes() for p in others} == others
    assert mine.read_text() == "mine"  # the manifest does not list it
    assert "spots" not in capsys.readouterr().err


def test_a_file_no_longer_made_that_was_changed_is_kept_with_a_warning(removed, capsys):
    decks, out = removed
    _spots(out).write_bytes(b"%PDF-1.4 the user's own version")
    capsys.readouterr()
    assert main(_arguments(decks, out)) == 0
    assert _spots(out).read_bytes() == b"%PDF-1.4 the user's own version"
    assert (
        f"{_spots(out)}: warning: the build no longer makes this file, but it has changed "
        "since a build made it, so it is kept; remove it if it is not wanted"
    ) in capsys.readouterr().err.splitlines()


@pytest.mark.parametrize("how", ["dotdot", "absolute", "link"])
def test_a_build_removes_nothing_outside_its_folder(removed, tmp_path, how):
    decks, out = removed
    victim = tmp_path / "elsewhere" / "spots.pdf"
    victim.parent.mkdir()
    shutil.copy(_spots(out), victim)
    listed = out / "manifest.json"
    data = json.loads(listed.read_text())
    entry = next(e for e in data["outputs"] if e["deck"] == "spots")
    if how == "link":
        _spots(out).unlink()
        _spots(out).symlink_to(victim)
    else:
        entry["path"] = str(victim) if how == "absolute" else os.path.relpath(victim, out)
    listed.write_text(json.dumps(data))
    assert main(_arguments(decks, out)) == 0
    assert victim.is_file()


def test_a_build_killed_while_publishing_removes_what_it_no_longer_makes_when_finished(
    removed,
):
    decks, out = removed
    # Killed at the first move into place: the journal is written, nothing moved yet.
    command = [sys.executable, "-c", _RUNNER, "move", "1", *_arguments(decks, out)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert (out / JOURNAL_NAME).is_file() and _spots(out).is_file()
    manifest.read(out)  # finishes publishing
    assert not _spots(out).exists()
