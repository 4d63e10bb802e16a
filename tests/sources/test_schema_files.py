"""The JSON Schemas ship inside the package, and the project's top-level ``schemas/`` (what
editors' modelines name) is the same folder."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from deckforge.sources.schema import document, schema_names

ROOT = Path(__file__).resolve().parents[2]
PACKAGED = ROOT / "src" / "deckforge" / "sources" / "schemas"
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def test_the_top_level_schemas_folder_is_the_packaged_one():
    assert (ROOT / "schemas").is_symlink()
    assert (ROOT / "schemas").resolve() == PACKAGED.resolve()
    assert sorted(p.name for p in PACKAGED.glob("*.schema.json")) == [
        f"{name}.schema.json" for name in schema_names()
    ]
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "sources/schemas/*.json" in data["tool"]["setuptools"]["package-data"]["deckforge"]


def test_every_modeline_names_a_schema_that_exists():
    sources = [*(ROOT / "decks").rglob("*.yaml"), *(ROOT / "src").rglob("*.yaml")]
    named = 0
    for path in sources:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        found = MODELINE.match(first)
        if found:
            named += 1
            target = (path.parent / found.group(1)).resolve()
            assert target.is_file(), f"{path.relative_to(ROOT)}: {found.group(1)} does not exist"
            assert document(target.name)["$schema"].startswith("https://json-schema.org/")
    assert named > 20
