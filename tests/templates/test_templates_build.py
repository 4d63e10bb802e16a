"""An edition's own template, in a real build: it changes that edition's cards only, and
editing it rebuilds the files drawn from it."""

from __future__ import annotations

import json

from deckforge.cli import main
from deckforge.render.raster import rasterize
from templates_support import close

OWN_PLACE = """\
# yaml-language-server: $schema=../../../schemas/template.schema.json
kind: template
extends: place
colours:
  category: "#00AA00"
"""


def _build(project, out, capsys) -> dict[str, bool]:
    args = ["--decks", str(project / "decks"), "build", "--out", str(out)]
    assert main([*args, "--profile", "printer", "--edition", "guess-the-mess-en"]) == 0
    capsys.readouterr()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return {e["deck"]: e for e in manifest["outputs"]}


def test_an_editions_template_changes_its_cards_and_rebuilds_when_edited(project, tmp_path, capsys):
    own = project / "decks" / "guess-the-mess" / "templates" / "place.yaml"
    own.parent.mkdir()
    own.write_text(OWN_PLACE, encoding="utf-8")
    out = tmp_path / "build"
    _build(project, out, capsys)
    places = out / "guess-the-mess-en" / "printer" / "places.pdf"
    face = rasterize(places, 1, 72)
    assert close(face.getpixel((20, 20)), "#00AA00")  # the band, in the edition's colour
    assert close(face.getpixel((20, 150)), "#D6EED6")  # the background, mixed from it
    blank = rasterize(out / "guess-the-mess-en" / "printer" / "blank-places.pdf", 1, 72)
    assert not close(blank.getpixel((20, 20)), "#00AA00")  # other decks as they were

    before = {p.name: p.stat().st_mtime_ns for p in places.parent.glob("*.pdf")}
    own.write_text(OWN_PLACE.replace("#00AA00", "#0000AA"), encoding="utf-8")
    _build(project, out, capsys)
    after = {p.name: p.stat().st_mtime_ns for p in places.parent.glob("*.pdf")}
    # Blank Place cards are drawn from a template extending the Place card's: they are
    # made again too (and keep their own colour); no other deck is.
    changed = [name for name in sorted(after) if after[name] != before[name]]
    assert changed == ["blank-places.pdf", "places.pdf"]
    assert close(rasterize(places, 1, 72).getpixel((20, 20)), "#0000AA")
