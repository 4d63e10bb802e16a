"""Every command of the tutorial and the how-to guides is run as written, so that the
pages cannot drift from what deckforge does."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from docs_support import ROOT

pytestmark = pytest.mark.slow  # runs every command of the tutorial and the how-to guides

#: A command block: a fence of ``sh`` (indented too, inside a numbered step).
BLOCK = re.compile(r"^( *)```sh\n(.*?)^\1```", re.S | re.M)

#: Lines that install deckforge: the test runs the deckforge it is testing instead
#: (tests/test_install.py installs the wheel as a user would).
INSTALLS = ("pip install", "pipx install")

#: The tutorial and every how-to guide.
PAGES = ["tutorial.md", *sorted(p.name for p in (ROOT / "docs" / "how-to").glob("*.md"))]


def _path(name: str) -> Path:
    return ROOT / "docs" / ("tutorial.md" if name == "tutorial.md" else f"how-to/{name}")


def commands(page: Path) -> str:
    """The page's command blocks, in order, as one script."""
    script = []
    for indent, body in BLOCK.findall(page.read_text(encoding="utf-8")):
        for line in body.splitlines():
            line = line.removeprefix(indent)
            if not line.startswith(INSTALLS):
                script.append(line)
    return "\n".join(script) + "\n"


def _path(name: str) -> Path:
    return (
        ROOT / "docs" / name
        if name == "tutorial.md" or "/" in name
        else ROOT / "docs" / "how-to" / name
    )


@pytest.mark.parametrize("name", [name for name in PAGES if commands(_path(name)).strip()])
def test_the_commands_of_a_page_run(name, tmp_path):
    script = commands(_path(name))
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    # The tutorial starts from nothing; a how-to guide starts in a project.
    start = (
        ""
        if name == "tutorial.md"
        else "deckforge init proj --from example-en >/dev/null\ncd proj\n"
    )
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", start + script],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"{name}:\n{script}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
