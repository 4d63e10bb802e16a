"""Every source file the tutorial and the how-to guides show whole (a YAML block whose
first line names its place, like ``# decks/our-town/templates/place.yaml``) builds."""

from __future__ import annotations

import re
import shutil

import pytest

from deckforge.cli import main
from deckforge.text import fonts
from docs_support import ROOT

#: A whole source file: a YAML block that starts by naming where it goes.
SOURCE = re.compile(r"^```yaml\n# (decks/[\w./-]+\.yaml)\n(.*?)^```", re.S | re.M)

PAGES = [ROOT / "docs" / "tutorial.md", *sorted((ROOT / "docs" / "how-to").glob("*.md"))]
SOURCES = [
    pytest.param(path, f"# {path}\n{body}", id=f"{page.stem}:{path}")
    for page in PAGES
    for path, body in SOURCE.findall(page.read_text(encoding="utf-8"))
]


def test_the_guides_show_whole_sources():
    assert len(SOURCES) >= 2


@pytest.mark.parametrize(("path", "text"), SOURCES)
def test_a_source_a_page_shows_builds(path, text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["init", "proj", "--from", "example-en"]) == 0
    monkeypatch.chdir(tmp_path / "proj")
    edition = path.split("/")[1]
    assert main(["new", "edition", edition, "--from", "guess-the-mess-en"]) == 0
    target = tmp_path / "proj" / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    # A font the page names is the reader's own file: any TrueType font stands in for it.
    for font in re.findall(r"font: ([\w./-]+\.ttf)", text):
        (target.parent / font).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(fonts.face("latin", fonts.REGULAR).path, target.parent / font)
    assert main(["build", "--edition", edition, "--profile", "pnp-a4", "--quiet"]) == 0
