"""Builds never lose a good output: failures mid-write, interrupts, concurrent builds;
and the same sources always give the same bytes."""

from __future__ import annotations

import fcntl
import hashlib
import os
from pathlib import Path

import pytest

from conftest import DECKS
from deckforge.cli import main
from deckforge.fsutil import LOCK_NAME, STAGING_NAME
from deckforge.pipeline import run
from deckforge.pipeline.record import CACHE_NAME

EN = "guess-the-mess-en"


def _args(out, *extra):
    # One process, so that failures injected into rendering happen in this one.
    return [
        "--decks",
        str(DECKS),
        "build",
        "--edition",
        EN,
        "--profile",
        "pnp-a4",
        "--out",
        str(out),
        "--quiet",
        "--jobs",
        "1",
        "--force",
        *extra,
    ]


def _snapshot(folder):
    # The build's record for incremental builds holds the times its files were written:
    # it is this machine's, not an output.
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name not in (LOCK_NAME, CACHE_NAME)
    }


@pytest.fixture()
def good_build(tmp_path):
    out = tmp_path / "build"
    assert main(_args(out)) == 0
    return out


@pytest.mark.parametrize(
    "failure,code",
    [
        (RuntimeError("disk on fire"), 3),
        (KeyboardInterrupt(), 130),
        (OSError(28, "No space left on device"), 1),
    ],
)
def test_a_build_failing_mid_write_keeps_every_previous_output(
    good_build, monkeypatch, failure, code, capsys
):
    before = _snapshot(good_build)
    calls = {"n": 0}
    real = run.pdf.render

    def flaky(document, path):
        calls["n"] += 1
        if calls["n"] == 4:
            path.write_bytes(b"%PDF-1.4 half a file")
            raise failure
        real(document, path)

    monkeypatch.setattr(run.pdf, "render", flaky)
    assert main(_args(good_build)) == code
    assert calls["n"] == 4
    assert _snapshot(good_build) == before
    assert not [p for p in good_build.rglob("*") if p.name.endswith(".tmp")]
    assert "Traceback" not in capsys.readouterr().err


def test_a_second_build_into_the_same_folder_is_refused_while_one_runs(good_build, capsys):
    before = _snapshot(good_build)
    with open(good_build / LOCK_NAME, "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert main(_args(good_build)) == 1
    assert "another deckforge build is writing to" in capsys.readouterr().err
    assert _snapshot(good_build) == before
    assert main(_args(good_build)) == 0  # and once it is released, building works again


def test_what_a_killed_build_staged_is_cleared(good_build):
    # What a build writes goes into its staging folder, marked as deckforge's first; a
    # build killed before publishing leaves it, and the next build removes it (and
    # nothing else: a user's own .tmp files are theirs).
    staging = good_build / STAGING_NAME
    stale = staging / EN / "pnp-a4" / "places.pdf"
    stale.parent.mkdir(parents=True)
    (staging / ".made-by-deckforge").touch()
    stale.write_bytes(b"left by a build that was killed")
    assert main(_args(good_build)) == 0
    assert not staging.exists()


def test_a_staging_folder_deckforge_did_not_make_is_left_alone(good_build, capsys):
    staging = good_build / STAGING_NAME
    staging.mkdir()
    (staging / "precious.txt").write_text("not deckforge's")
    assert main(_args(good_build)) == 1
    assert "is not a folder deckforge made" in capsys.readouterr().err
    assert (staging / "precious.txt").read_text() == "not deckforge's"


def test_the_same_sources_build_to_the_same_bytes(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    first, second = tmp_path / "one", tmp_path / "two"
    assert main(_args(first)) == 0
    assert main(_args(second)) == 0
    assert _snapshot(first) == _snapshot(second)
    text = (first / EN / "pnp-a4" / "spots.pdf").read_bytes()
    assert b"D:20231114221320" in text  # the date comes from SOURCE_DATE_EPOCH


def test_built_files_get_the_permissions_the_users_umask_gives(tmp_path):
    # Temporary files are created private; the files moved into place must not stay so
    # (a print shop's upload folder, a web server, a colleague must be able to read them).
    previous = os.umask(0o027)
    try:
        assert main(_args(tmp_path / "build")) == 0
    finally:
        os.umask(previous)
    built = sorted((tmp_path / "build").rglob("*.pdf")) + [tmp_path / "build" / "manifest.json"]
    assert len(built) > 5
    modes = {p.relative_to(tmp_path).as_posix(): oct(p.stat().st_mode & 0o777) for p in built}
    assert set(modes.values()) == {oct(0o640)}, modes


def test_a_build_that_fails_leaves_no_folder_it_made(tmp_path, monkeypatch):
    real = run.pdf.render

    def failing(document, path):
        real(document, path)
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(run.pdf, "render", failing)
    out = tmp_path / "new" / "build"
    assert main(_args(out)) == 3
    assert not (tmp_path / "new").exists()


def test_builds_in_separate_processes_give_the_same_bytes(tmp_path):
    # A print-shop file embeds colour profiles: one made afresh in each process must not
    # carry the time it was made (littleCMS writes it into the profile's header).
    import shutil
    import subprocess
    import sys
    import time

    decks = tmp_path / "decks"
    shutil.copytree(Path(__file__).parents[1] / "data" / "minimal", decks / "minimal")
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000"}
    outs = []
    for name in ("one", "two"):
        if outs:
            time.sleep(1.1)  # the profile's header holds the time to the second
        out = tmp_path / name
        command = [sys.executable, "-m", "deckforge", "--decks", str(decks), "build"]
        command += ["--edition", "minimal-en", "--profile", "printer", "--out", str(out)]
        subprocess.run(command + ["--quiet"], check=True, env=env, capture_output=True)
        outs.append(out)
    assert _snapshot(outs[0]) == _snapshot(outs[1])


def test_a_file_held_open_by_another_program_is_named_and_the_build_left_whole(
    good_build, capsys, monkeypatch
):
    # Windows keeps a file that Acrobat has open from being replaced; POSIX never does,
    # so the other program's hold is stood in for where the build asks about it.
    from deckforge import fsutil

    before = _snapshot(good_build)
    held = good_build / EN / "pnp-a4" / "places.pdf"
    real = fsutil._held
    monkeypatch.setattr(fsutil, "_held", lambda target: target == held or real(target))
    assert main(_args(good_build, "--force")) == 1
    err = capsys.readouterr().err
    assert f"{held} is open in another program (a PDF viewer?)" in err
    assert "Traceback" not in err and "internal error" not in err
    assert _snapshot(good_build) == before
    monkeypatch.setattr(fsutil, "_held", real)
    assert main(_args(good_build, "--force")) == 0


def test_asking_whether_a_named_pipe_is_held_open_does_not_wait(tmp_path):
    # Opening a named pipe to write waits for a reader; it is replaced whole, not asked.
    from deckforge import fsutil

    pipe = tmp_path / "places.pdf"
    os.mkfifo(pipe)
    assert fsutil._held(pipe) is False
    assert fsutil._held(tmp_path / "missing.pdf") is False
