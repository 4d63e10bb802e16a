"""The documentation site builds with --strict, fails on a broken link or a page left out,
and the README's one picture is what the build draws."""

from __future__ import annotations

import json
import re
import shutil
import sys

import yaml
from PIL import Image, ImageChops

from deckforge.cli.docs import reference
from docs_support import ROOT, mkdocs


def _nav_pages(nav) -> list[str]:
    pages = []
    for item in nav:
        for value in item.values():
            pages += _nav_pages(value) if isinstance(value, list) else [value]
    return pages


def test_every_page_of_the_nav_is_built(site):
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    for page in _nav_pages(config["nav"]):
        built = site / (
            "index.html" if page == "index.md" else page.removesuffix(".md") + "/index.html"
        )
        assert built.is_file(), page


def test_the_pictures_are_in_the_site(site):
    gallery = (site / "gallery" / "index.html").read_text(encoding="utf-8")
    pictures = re.findall(r'<img alt="[^"]*" src="([^"]+)"', gallery)
    assert len(pictures) >= 20
    for src in pictures:
        assert (site / "gallery" / src).is_file(), src


def test_a_broken_link_fails_the_build(docs_copy, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(docs_copy, broken)
    tutorial = broken / "docs" / "tutorial.md"
    tutorial.write_text(tutorial.read_text(encoding="utf-8") + "\n[gone](how-to/no-such-page.md)\n")
    done = mkdocs(broken / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0
    assert "tutorial.md" in done.stderr and "no-such-page.md" in done.stderr


def test_a_missing_picture_fails_the_build(docs_copy, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(docs_copy, broken)
    (broken / "docs" / "pictures" / "starter-sheet.png").unlink()
    done = mkdocs(broken / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0 and "starter-sheet.png" in done.stderr


def test_a_page_left_out_of_the_nav_fails_the_build(docs_copy, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(docs_copy, broken)
    (broken / "docs" / "how-to" / "orphan.md").write_text("# Nobody links here\n")
    done = mkdocs(broken / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0 and "orphan.md" in done.stderr


def test_the_readme_picture_is_what_the_build_draws(docs_copy):
    kept = Image.open(ROOT / "docs" / "readme-cards.png").convert("RGB")
    drawn = Image.open(docs_copy / "docs" / "readme-cards.png").convert("RGB")
    assert kept.size == drawn.size, "docs/readme-cards.png is stale: run 'make docs'"
    difference = ImageChops.difference(kept, drawn).convert("L")
    far = sum(count for level, count in enumerate(difference.histogram()) if level > 24)
    # Rasterizers differ by a level here and there at edges; a changed card differs widely.
    assert far <= 0.002 * kept.width * kept.height, (
        "docs/readme-cards.png is stale: run 'make docs'"
    )


def test_the_command_line_reference_is_current():
    written = (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    assert written == reference(), "docs/reference/cli.md is stale: run 'make docs'"


def test_the_measurements_page_is_current():
    sys.path.insert(0, str(ROOT / "docs_tools"))
    try:
        from measured import RESULTS, page
    finally:
        sys.path.remove(str(ROOT / "docs_tools"))
    written = (ROOT / "docs" / "explanation" / "measured.md").read_text(encoding="utf-8")
    assert written == page(json.loads(RESULTS.read_text(encoding="utf-8"))), (
        "docs/explanation/measured.md is stale: run 'make docs'"
    )


def test_the_readme_is_a_front_page_of_working_links():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    assert re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme) == ["docs/readme-cards.png"]
    for target in re.findall(r"\]\(([^)#]+\.md)\)", readme):
        assert (ROOT / target).is_file(), target
