"""Tuck boxes: a 52-card poker deck's box fits one A4 sheet, its inside within 1 mm of
what the deck needs, and its printed cut and fold lines lie where its die line says;
a deck too thick for the paper is an error naming a larger one."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pikepdf
import pytest

from deckforge.authoring.game import new_game
from deckforge.cli import main
from deckforge.kinds.tuckbox import Tuckbox
from deckforge.layout.components.tuckbox import FOLD_DASH, die_line, inner_size
from deckforge.preflight import format_table, preflight_file
from deckforge.render.raster import rasterize
from deckforge.sources.load import Project
from deckforge.units import PAPER_SIZES_MM, mm

DPI = 200


def _game(root: Path, cards: int) -> Path:
    """The starter game with ``cards`` trivia cards (its rows repeated, each its own id)."""
    (root / "decks").mkdir(parents=True)
    (root / "schemas").mkdir()
    folder = new_game(Project(root / "decks"), "quiz")
    rows = list(csv.reader((folder / "cards.csv").read_text(encoding="utf-8").splitlines()))[1:]
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["id", "question", "answer", "category"])
    for n in range(cards):
        _, question, answer, category = rows[n % len(rows)]
        writer.writerow([f"q{n + 1:03}", question, answer, category])
    (folder / "cards.csv").write_text(text.getvalue(), encoding="utf-8")
    return root / "decks"


@pytest.fixture(scope="module")
def poker(tmp_path_factory) -> tuple[Path, list[dict]]:
    """The starter game with a 52-card trivia deck, built in pnp-a4, printer and
    printer-cmyk."""
    root = tmp_path_factory.mktemp("poker")
    decks = _game(root, 52)
    out = root / "build"
    args = ["--decks", str(decks), "build", "--out", str(out), "--quiet"]
    profiles = ("pnp-a4", "printer", "printer-cmyk")
    assert main([*args, *(f"--profile={p}" for p in profiles)]) == 0
    entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    return out, entries


def _box(thickness: str = "0.3mm") -> Tuckbox:
    return Tuckbox("box", "trivia", mm(float(thickness[:-2])), mm(1), {}, None, None)


def test_the_inside_is_what_the_deck_needs_within_a_millimetre():
    need = (63.5, 88.9, 52 * 0.3)
    inner = inner_size(mm(63.5), mm(88.9), 52, _box())
    for got, wanted in zip(inner, need, strict=True):
        assert 0 <= got / mm(1) - wanted <= 1.0 + 1e-9
    die = die_line(inner)
    # The body's folds are the inside's width and depth apart.
    xs = sorted({a[0] for a, b in die.folds if a[0] == b[0]})
    gaps = [round((b - a) / mm(1), 6) for a, b in zip(xs, xs[1:], strict=False)]
    assert gaps == pytest.approx([16.6, 64.5, 16.6])
    (front,) = [p for name, p in die.panels.items() if name == "front"]
    assert (front[2] / mm(1), front[3] / mm(1)) == pytest.approx((64.5, 89.9))


def test_a_poker_deck_box_fits_one_a4_sheet_and_passes_preflight(poker):
    out, entries = poker
    for profile in ("pnp-a4", "printer", "printer-cmyk"):
        entry = next(e for e in entries if e["profile"] == profile and e["deck"] == "trivia-box")
        assert entry["kind"] == "tuckbox" and entry["pages"] == 1
        report = preflight_file(out / entry["path"], entry)
        assert not report.failed, format_table([report])
    with pikepdf.open(out / "quiz" / "pnp-a4" / "trivia-box.pdf") as document:
        (page,) = document.pages
        box = [float(v) for v in page.MediaBox]
    a4 = tuple(mm(s) for s in PAPER_SIZES_MM["A4"])
    assert sorted((box[2], box[3])) == pytest.approx(sorted(a4))
    with pikepdf.open(out / "quiz" / "printer" / "trivia-box.pdf") as document:
        trim = [float(v) for v in document.pages[0].TrimBox]
    die = die_line(inner_size(mm(63.5), mm(88.9), 52, _box()))
    assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((die.w, die.h))


def _darkest(gray: np.ndarray, x: float, y: float) -> float:
    """The darkest pixel within a pixel of a point (points, from the page's lower left)."""
    scale = DPI / 72
    col, row = round(x * scale), round(gray.shape[0] - y * scale)
    return float(gray[row - 1 : row + 2, col - 1 : col + 2].min())


def _along(a, b, step: float) -> list[tuple[float, float]]:
    length = float(np.hypot(b[0] - a[0], b[1] - a[1]))
    count = max(int(length / step), 1)
    return [
        (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for t in np.linspace(0.1, 0.9, count)
    ]


def test_the_cut_and_fold_lines_are_printed_where_the_die_line_says(poker):
    """Along each cut the page is dark all the way (a solid line); along each fold, in
    dashes; 1 mm outside the cut, beyond the box, it is blank paper."""
    out, _ = poker
    image = rasterize(out / "quiz" / "pnp-a4" / "trivia-box.pdf", 0, DPI).convert("L")
    gray = np.asarray(image, dtype=float)
    page_w, page_h = image.width * 72 / DPI, image.height * 72 / DPI
    die = die_line(inner_size(mm(63.5), mm(88.9), 52, _box()))
    x0, y0 = (page_w - die.w) / 2, (page_h - die.h) / 2
    outline = [(x0 + x, y0 + y) for x, y in die.cut]
    for a, b in zip(outline, [*outline[1:], outline[0]], strict=True):
        points = _along(a, b, mm(0.5))
        assert all(_darkest(gray, *p) < 100 for p in points), (a, b)
    for a, b in die.folds:
        a, b = (x0 + a[0], y0 + a[1]), (x0 + b[0], y0 + b[1])
        dark = [_darkest(gray, *p) < 100 for p in _along(a, b, mm(0.25))]
        share = sum(dark) / len(dark)
        dashes = FOLD_DASH[0] / (FOLD_DASH[0] + FOLD_DASH[1])
        assert dashes - 0.25 < share < dashes + 0.25, (a, b, share)
    # Beyond the outline's bottom edge (under the bottom tuck flap) the paper is blank.
    bottom = min(y for _, y in outline)
    flap = [x for x, y in outline if y == bottom]
    middle = (min(flap) + max(flap)) / 2
    assert _darkest(gray, middle, bottom - mm(1)) > 240


def _stroked(page) -> list[tuple[str, str, bool, str, list]]:
    """Each stroked path of a page's own content: its stroking colour space's resource
    name and its Separation's colourant ('' for others), whether it overprints, the
    layer it is on ('' for none) and the dash array."""
    resources = page.Resources
    spaces = resources.get("/ColorSpace", {})
    states = resources.get("/ExtGState", {})
    groups = resources.get("/Properties", {})
    found, stack, layers = [], [], []
    space, overprint, dash = "", False, []
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "q":
            stack.append((space, overprint, dash))
        elif op == "Q":
            space, overprint, dash = stack.pop()
        elif op == "CS":
            space = str(operands[0])
        elif op in ("RG", "K", "G"):
            space = ""
        elif op == "gs":
            overprint = bool(states[str(operands[0])].get("/OP", overprint))
        elif op == "d":
            dash = [float(v) for v in operands[0]]
        elif op == "BDC":
            layers.append(str(groups[str(operands[1])].Name) if str(operands[0]) == "/OC" else "")
        elif op == "BMC":
            layers.append("")
        elif op == "EMC":
            layers.pop()
        elif op == "S":
            entry = spaces.get(space) if space else None
            sep = str(entry[1])[1:] if entry is not None and str(entry[0]) == "/Separation" else ""
            found.append((space, sep, overprint, next((n for n in layers[::-1] if n), ""), dash))
    return found


@pytest.mark.parametrize("profile", ["printer", "printer-cmyk"])
def test_a_shop_file_carries_the_die_line_as_cut_and_crease_separations(poker, profile):
    """In a shop's file the cut is one overprinting path in the Separation CutContour and
    the folds one dashed path in the Separation Crease: each on its own layer in PDF/X-4
    (printer), with no optional content at all in PDF/X-1a (printer-cmyk)."""
    out, _ = poker
    with pikepdf.open(out / "quiz" / profile / "trivia-box.pdf") as document:
        (page,) = document.pages
        die = [s for s in _stroked(page) if s[1]]
        layered = "/OCProperties" in document.Root
    wanted_layers = ("CutContour", "Crease") if profile == "printer" else ("", "")
    assert [(sep, over, layer) for _, sep, over, layer, _ in die] == [
        ("CutContour", True, wanted_layers[0]),
        ("Crease", True, wanted_layers[1]),
    ]
    (_, _, _, _, cut_dash), (_, _, _, _, fold_dash) = die
    assert cut_dash == [] and fold_dash == pytest.approx(list(FOLD_DASH))
    assert layered == (profile == "printer")


def test_preflight_fails_a_tuck_box_whose_die_line_does_not_overprint(poker, tmp_path):
    out, entries = poker
    entry = next(e for e in entries if e["profile"] == "printer" and e["deck"] == "trivia-box")
    with pikepdf.open(out / entry["path"]) as document:
        for state in document.pages[0].Resources.ExtGState.values():
            if "/OP" in state:
                state.OP = False
        document.save(tmp_path / "box.pdf")
    report = preflight_file(tmp_path / "box.pdf", entry)
    (die,) = [c for c in report.checks if c.name == "die line"]
    assert (die.status, die.detail) == (
        "fail",
        "page 1: the CutContour path does not overprint (and 1 more problem)",
    )


def test_a_home_sheet_draws_its_die_line_in_black_with_no_spot_colour(poker):
    out, _ = poker
    with pikepdf.open(out / "quiz" / "pnp-a4" / "trivia-box.pdf") as document:
        (page,) = document.pages
        assert all(not sep for _, sep, _, _, _ in _stroked(page))
        assert "/OCProperties" not in document.Root


def test_a_deck_too_thick_for_the_paper_is_an_error_naming_larger_paper(tmp_path, capsys):
    decks = _game(tmp_path, 200)
    out = tmp_path / "build"
    args = ["--decks", str(decks), "build", "--out", str(out), "--quiet", "--profile", "pnp-a4"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert (
        "decks/quiz/trivia-box.yaml:8:7: deck: pnp-a4: the tuck box's die line (261 × 242 mm) "
        "does not fit on its paper inside a 8 mm margin; build it with a profile of larger "
        "paper (pnp-a3, pnp-tabloid)"
    ) in err
    assert not out.exists()
    a3 = ["--decks", str(decks), "build", "--out", str(out), "--quiet", "--profile", "pnp-a3"]
    assert main(a3) == 0
    with pikepdf.open(out / "quiz" / "pnp-a3" / "trivia-box.pdf") as document:
        assert len(document.pages) == 1


def test_a_thickness_out_of_range_is_an_error_at_its_line(tmp_path, capsys):
    decks = _game(tmp_path, 12)
    box = decks / "quiz" / "trivia-box.yaml"
    box.write_text(box.read_text(encoding="utf-8") + "thickness: 3mm\n", encoding="utf-8")
    out = tmp_path / "build"
    args = ["--decks", str(decks), "build", "--out", str(out), "--quiet", "--profile", "pnp-a4"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert (
        "trivia-box.yaml:10:12: thickness: a card's thickness must be from 0.05mm to 2mm, not 3mm"
        in err
    )
    assert not out.exists()


def test_a_box_for_a_deck_that_gives_no_size_is_an_error_at_its_deck(tmp_path, capsys):
    decks = _game(tmp_path, 12)
    edition = decks / "quiz" / "edition.yaml"
    entry = "  - {id: trivia-box, source: trivia-box.yaml}\n"
    text = edition.read_text(encoding="utf-8")
    edition.write_text(text + entry.replace("trivia", "tokens"), encoding="utf-8")
    box = (decks / "quiz" / "trivia-box.yaml").read_text(encoding="utf-8")
    (decks / "quiz" / "tokens-box.yaml").write_text(
        box.replace("deck: trivia", "deck: tokens"), encoding="utf-8"
    )
    out = tmp_path / "build"
    args = ["--decks", str(decks), "build", "--out", str(out), "--quiet", "--profile", "pnp-a4"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert (
        "tokens-box.yaml:8:7: deck: the deck 'tokens' gives no card size for its box: "
        "give the deck a 'size'" in err
    )
    assert not out.exists()
