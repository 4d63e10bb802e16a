"""``deckforge proof``: the cards that changed since a git revision or a build, old beside
new with the change marked, and sheets of just those cards to reprint."""

from __future__ import annotations

import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from deckforge.cli import main

EN = "guess-the-mess-en"
PLACES = Path("decks") / "guess-the-mess" / "places.yaml"


def _git(root: Path, *args: str) -> None:
    who = ["-c", "user.name=Designer", "-c", "user.email=designer@example.org"]
    subprocess.run(["git", "-C", str(root), *who, *args], check=True, capture_output=True)


def _edit(root: Path) -> None:
    """Three places renamed and one added (the deck's count raised to match)."""
    text = (root / PLACES).read_text(encoding="utf-8")
    for old, new in (("Kitchen", "Cookery"), ("Bathroom", "Washroom"), ("Garage", "Workshop")):
        text = text.replace(f"{{en: {old},", f"{{en: {new},", 1)
    den = '  - id: den\n    name: {en: Den, fa: پستو}\n    category: home\n    icon: "1F3E0"\n'
    text = text.replace("places:\n", "places:\n" + den, 1)
    (root / PLACES).write_text(text, encoding="utf-8")
    edition = root / "decks" / "guess-the-mess" / "edition.yaml"
    text = edition.read_text(encoding="utf-8")
    edition.write_text(text.replace("count: 144,", "count: 145,", 1), encoding="utf-8")


class _Rows(HTMLParser):
    """The proof page's rows: each card's state (its row's class), id and images."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict] = []
        self._code = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr" and attrs.get("class"):
            self.rows.append({"state": attrs["class"], "id": None, "images": []})
        elif tag == "code":
            self._code = True
        elif tag == "img" and self.rows:
            self.rows[-1]["images"].append(attrs["src"])

    def handle_data(self, data):
        if self._code and self.rows:
            self.rows[-1]["id"] = data
            self._code = False


@pytest.fixture(scope="module")
def proofed(tmp_path_factory):
    """A project in git, changed after its commit, proofed against that commit with
    reprint sheets; what the command printed."""
    import shutil

    root = tmp_path_factory.mktemp("proof")
    shutil.copytree(Path(__file__).resolve().parents[2] / "decks", root / "decks")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "the game as printed")
    _edit(root)
    args = ["--decks", str(root / "decks"), "proof", "--edition", EN, "--reprint"]
    return root, _run(args + ["--out", str(root / "build")])


def _run(args: list[str]) -> str:
    import contextlib
    import io

    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        assert main(args) == 0
    return said.getvalue()


def test_the_proof_lists_exactly_the_changed_and_added_cards(proofed):
    root, said = proofed
    assert f"{EN}/places: 3 changed, 1 added; 141 unchanged" in said
    for deck, count in (("mess", 400), ("players", 64), ("which-way", 8), ("spots", 8)):
        assert f"{EN}/{deck}: no change; {count} unchanged" in said
    folder = root / "build" / EN / "proof"
    rows = _Rows()
    rows.feed((folder / "index.html").read_text(encoding="utf-8"))
    found = {row["id"]: row["state"] for row in rows.rows}
    assert found == {
        "kitchen": "changed",
        "bathroom": "changed",
        "garage": "changed",
        "den": "added",
    }
    assert len(pdfium.PdfDocument(folder / "proof.pdf")) == 4


def test_a_changed_card_is_shown_old_beside_new_with_the_change_marked(proofed):
    root, _ = proofed
    folder = root / "build" / EN / "proof"
    rows = _Rows()
    rows.feed((folder / "index.html").read_text(encoding="utf-8"))
    kitchen = next(row for row in rows.rows if row["id"] == "kitchen")
    old, new = (Image.open(folder / src).convert("RGB") for src in kitchen["images"])
    assert old.size == new.size
    # The name changed, in the lower part of the card; its icon and band did not.
    left, top, right, bottom = ImageChops.difference(old, new).getbbox()
    assert top > new.height // 2
    mark = Image.new("RGB", new.size, (230, 0, 60))
    drawn = ImageChops.difference(new, mark).convert("L").point(lambda v: 255 if v < 8 else 0)
    x0, y0, x1, y1 = drawn.getbbox()  # the mark, around the change
    assert x0 < left and y0 < top and x1 > right and y1 > bottom
    den = next(row for row in rows.rows if row["id"] == "den")
    assert len(den["images"]) == 1  # nothing to show before it was added


def test_the_reprint_sheets_hold_exactly_the_added_and_changed_cards(proofed):
    root, said = proofed
    reprint = root / "build" / EN / "proof" / "reprint"
    assert f"{reprint}/: sheets of the added and changed cards" in said
    outputs = json.loads((reprint / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    cards = [e for e in outputs if e["kind"] == "cards"]
    assert [(e["deck"], e["profile"]) for e in cards] == [("places", "pnp-a4")]
    assert cards[0]["card_names"] == ["Den", "Cookery", "Washroom", "Workshop"]
    pdf = pdfium.PdfDocument(reprint / cards[0]["path"])
    assert len(pdf) == 2  # the faces, then their backs for duplex
    words = pdf[0].get_textpage().get_text_range()
    assert sorted(re.findall(r"Den|Cookery|Washroom|Workshop|Kitchen|Bedroom", words)) == [
        "Cookery", "Den", "Washroom", "Workshop"
    ]  # fmt: skip


def test_a_proof_against_the_same_build_lists_nothing(proofed, tmp_path):
    root, _ = proofed
    same = root / "build"
    args = ["--decks", str(root / "decks"), "proof", "--edition", EN, "--against", str(same)]
    said = _run([*args, "--out", str(same)])
    assert re.findall(r"\d+ (?:changed|added|removed)", said) == []
    assert f"{EN}/places: no change; 145 unchanged" in said


@pytest.mark.parametrize("git", [True, False])
def test_a_revision_that_is_not_there_is_named(tmp_path, capsys, git):
    import shutil

    shutil.copytree(Path(__file__).resolve().parents[2] / "decks", tmp_path / "decks")
    if git:
        _git(tmp_path, "init", "-q")
    args = ["--decks", str(tmp_path / "decks"), "proof", "--edition", EN, "--against", "v9"]
    assert main([*args, "--out", str(tmp_path / "build")]) == 2
    err = capsys.readouterr().err
    if git:
        assert "'v9' is neither a build folder (with a manifest.json) nor a revision" in err
    else:
        assert "'v9' is not a build folder (it has no manifest.json), and the project" in err
    assert "Traceback" not in err
