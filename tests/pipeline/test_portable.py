"""deckforge on the systems designers use: a whole build with the start method macOS and
Windows use (``spawn``) and without POSIX's ``fcntl``, and a wheel of every dependency
for Windows and macOS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: A build as on Windows: workers spawned (they inherit nothing from the parent), and
#: ``import fcntl`` failing.
_SPAWNED_BUILD = """
import multiprocessing, sys
sys.modules["fcntl"] = None
if __name__ == "__main__":
    multiprocessing.set_start_method("spawn")
    from deckforge.cli import main
    sys.exit(main(sys.argv[1:]))
"""


def _digests(out: Path) -> dict[str, str]:
    """Each built file's SHA-256, as the manifest records it."""
    outputs = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    return {entry["path"]: entry["sha256"] for entry in outputs}


@pytest.mark.slow  # a whole build in spawned workers
def test_a_spawned_build_without_fcntl_makes_the_same_files(built, tmp_path):
    script = tmp_path / "spawned_build.py"
    script.write_text(_SPAWNED_BUILD, encoding="utf-8")
    out = tmp_path / "out"
    args = ["--decks", str(ROOT / "decks"), "build", "--out", str(out), "--quiet"]
    args += ["--edition", "guess-the-mess-en", "--edition", "gomaneh-fa", "--jobs", "2"]
    done = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    made = _digests(out)
    whole = _digests(built)
    assert made and {path: whole[path] for path in made} == made


def _requirements() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)["project"]["dependencies"]


@pytest.mark.parametrize("python", ["3.11", "3.12", "3.13"])
@pytest.mark.parametrize(
    "platform,target",
    [("x86_64-pc-windows-msvc", None), ("aarch64-apple-darwin", "14.0")],
    ids=["win_amd64", "macosx_14_0_arm64"],
)
@pytest.mark.slow  # asks the package index for every wheel
def test_every_dependency_has_a_wheel_for_windows_and_macos(tmp_path, platform, target, python):
    # Resolved against the package index with uv (installed beside deckforge by make),
    # wheels only, for the other system and Python: nothing is installed.
    env = dict(os.environ)
    if target:
        env["MACOSX_DEPLOYMENT_TARGET"] = target
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("\n".join(_requirements()), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "uv", "pip", "install", "--dry-run", "--only-binary", ":all:",
         "--python-platform", platform, "--python-version", python,
         "--target", str(tmp_path / "target"), "-r", str(requirements)],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Would install" in done.stderr
