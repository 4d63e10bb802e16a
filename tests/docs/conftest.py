"""The documentation site, built as `make docs` builds it, from a copy of docs/."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from docs_support import ROOT, mkdocs


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
