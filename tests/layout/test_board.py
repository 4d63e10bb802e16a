"""Boards: the starter game's 420 × 420 mm board prints whole for a shop, and over A4
sheets at home whose pieces, cut at their marks and laid up to their ticks, rebuild the
whole board; the tiling takes the fewest sheets."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pikepdf
import pytest

from conftest import DECKS
from deckforge.cli import main
from deckforge.layout.components import lay_out_component
from deckforge.layout.components.board import GLUE, MARGIN, tile_grid
from deckforge.pipeline.recipe import gather
from deckforge.preflight import format_table, preflight_file
from deckforge.profiles import all_profiles
from deckforge.render.raster import rasterize
from deckforge.sources.load import Project, select_editions
from deckforge.units import PAPER_SIZES_MM, mm
from golden_pages import build_new_game

DPI = 200
PX_MM = 25.4 / DPI


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tuple[Path, list[dict]]:
    """The starter game built in the printer and A4 profiles, and its manifest."""
    root = tmp_path_factory.mktemp("game")
    out, _ = build_new_game(root)
    entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    return out, entries


def _entry(entries: list[dict], profile: str, part: str) -> dict:
    return next(e for e in entries if e["profile"] == profile and e["deck"] == part)


def test_the_board_prints_whole_at_its_trim_for_a_shop(game):
    out, entries = game
    entry = _entry(entries, "printer", "board")
    with pikepdf.open(out / entry["path"]) as document:
        (page,) = document.pages
        trim = [float(v) for v in page.TrimBox]
        bleed = [float(v) for v in page.BleedBox]
    assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((mm(420), mm(420)))
    assert [trim[0] - bleed[0], bleed[2] - trim[2]] == pytest.approx([mm(3.175)] * 2)
    assert entry["kind"] == "board" and entry["trim_mm"] == pytest.approx([420, 420])


def test_the_board_and_tuck_box_pass_preflight(game):
    out, entries = game
    for entry in entries:
        if entry["kind"] in ("board", "tuckbox"):
            report = preflight_file(out / entry["path"], entry)
            assert not report.failed, format_table([report])


def _marks(gray: np.ndarray, axis: int) -> list[float]:
    """Where the marks in the margin before the art cross a band just inside their
    length: the crop marks at the cut and the ticks where a neighbour is laid, as
    pixel positions along the page (``axis`` 0: the marks at the top, their x; 1: the
    marks at the left, their y)."""
    dark = 255.0 - gray
    profile_of = dark if axis == 0 else dark.T
    first = int(np.argmax((profile_of > 40).any(axis=1)))  # the marks' outer ends
    band = profile_of[first + 5 : first + 30].sum(axis=0)  # inside their 5 mm length
    found, start = [], None
    for i, value in enumerate([*band, 0.0]):
        if value > 100 and start is None:
            start = i
        elif value <= 100 and start is not None:
            weights = band[start:i]
            found.append(float((np.arange(start, i) * weights).sum() / weights.sum()))
            start = None
    return found


def _piece(out: Path, entry: dict, index: int) -> tuple[np.ndarray, dict]:
    """A sheet's piece cut at its crop marks, and where its ticks are on it (pixels)."""
    image = np.asarray(rasterize(out / entry["path"], index, DPI).convert("RGB"))
    gray = image.mean(axis=2)
    xs, ys = _marks(gray, 0), _marks(gray, 1)
    left, right, top, bottom = xs[0], xs[-1], ys[0], ys[-1]
    cut = image[round(top) : round(bottom), round(left) : round(right)]
    ticks = {"x": [x - left for x in xs[1:-1]], "y": [y - top for y in ys[1:-1]]}
    return cut, ticks


def test_the_pieces_of_the_board_cut_at_their_marks_rebuild_it(game):
    """Each A4 sheet is cut at its crop marks; the sheet before it in its row is laid on
    its glue strip up to the ticks, and the row above likewise: the pieces, put
    together so, match the whole board as the shop's file draws it within 0.2 mm."""
    out, entries = game
    whole_entry = _entry(entries, "printer", "board")
    with pikepdf.open(out / whole_entry["path"]) as document:
        trim = [float(v) for v in document.pages[0].TrimBox]
    # Pixels as small signed integers: their differences, sums and means are exact.
    whole = np.asarray(rasterize(out / whole_entry["path"], 0, DPI).convert("RGB")).astype(np.int16)
    scale = DPI / 72
    height = whole.shape[0]
    whole = whole[
        round(height - trim[3] * scale) : round(height - trim[1] * scale),
        round(trim[0] * scale) : round(trim[2] * scale),
    ]
    home = _entry(entries, "pnp-a4", "board")
    grid = tile_grid(mm(420), mm(420), all_profiles()["pnp-a4"].document_paper)
    assert home["pages"] == grid.count == 6
    pieces = [_piece(out, home, k) for k in range(home["pages"])]
    # Where each piece's cut corner goes on the board (pixels), from its ticks alone.
    at: dict[tuple[int, int], tuple[float, float]] = {}
    for k, (_cut, ticks) in enumerate(pieces):
        row, column = divmod(k, grid.columns)
        x = y = 0.0
        if column > 0:
            before, _ = pieces[k - 1]
            left_x, _ = at[(row, column - 1)]
            (tick,) = ticks["x"]
            assert tick * PX_MM == pytest.approx(GLUE / mm(1), abs=0.2)
            x = left_x + before.shape[1] - tick
        if row > 0:
            above, _ = pieces[k - grid.columns]
            _, above_y = at[(row - 1, column)]
            (tick,) = ticks["y"]
            y = above_y + above.shape[0] - tick
        at[(row, column)] = (x, y)
    canvas = np.zeros_like(whole)
    for k in reversed(range(len(pieces))):  # each sheet laid on the ones after it
        cut, _ = pieces[k]
        x, y = (round(v) for v in at[divmod(k, grid.columns)])
        h = min(cut.shape[0], canvas.shape[0] - y)
        w = min(cut.shape[1], canvas.shape[1] - x)
        canvas[y : y + h, x : x + w] = cut[:h, :w]
    assert canvas.shape == whole.shape
    # The rebuilt board is the board: no piece is off by more than 0.2 mm (a pixel at
    # 200 dpi is 0.127 mm), and what is drawn matches.
    for k, (cut, _) in enumerate(pieces):
        x, y = (round(v) for v in at[divmod(k, grid.columns)])
        shift = _best_shift(canvas, whole, x, y, cut.shape)
        assert max(abs(shift[0]), abs(shift[1])) * PX_MM <= 0.2, (k, shift)
    difference = np.abs(canvas - whole).mean()
    assert difference < 2.0, difference
    # Every board pixel is covered: the pieces leave no gap.
    assert (canvas.sum(axis=2) > 0).all()


def _best_shift(canvas, whole, x: int, y: int, shape) -> tuple[int, int]:
    """The offset (pixels) at which a piece's part of the rebuilt board best matches the
    whole board."""
    h, w = shape[0] - 8, shape[1] - 8
    part = canvas[y + 4 : y + 4 + h, x + 4 : x + 4 + w]
    best, found = None, (0, 0)
    for dy in range(-3, 4):
        for dx in range(-3, 4):
            top, left = y + 4 + dy, x + 4 + dx
            if top < 0 or left < 0 or top + h > whole.shape[0] or left + w > whole.shape[1]:
                continue
            # The summed difference (exact, in integers) orders the shifts as the mean does.
            cost = int(np.abs(part - whole[top : top + h, left : left + w]).sum(dtype=np.int64))
            if best is None or cost < best:
                best, found = cost, (dx, dy)
    return found


@pytest.mark.parametrize(
    ("size", "paper", "sheets"),
    [
        ((420, 420), "A4", 6),
        ((500, 300), "A4", 4),
        ((420, 148), "A4", 2),
        ((420, 148), "Letter", 2),
        ((250, 180), "A4", 1),
    ],
)
def test_a_board_takes_the_fewest_sheets_that_hold_it(size, paper, sheets):
    grid = tile_grid(mm(size[0]), mm(size[1]), tuple(mm(s) for s in PAPER_SIZES_MM[paper]))
    assert grid.count == sheets
    room_w, room_h = grid.paper_w - 2 * MARGIN, grid.paper_h - 2 * MARGIN
    strip_w = GLUE if grid.columns > 1 else 0.0
    strip_h = GLUE if grid.rows > 1 else 0.0
    assert grid.tile_w + strip_w <= room_w + 1e-6 and grid.tile_h + strip_h <= room_h + 1e-6


def test_a_piece_off_the_board_is_an_error_at_its_row(tmp_path):
    """A piece whose centre is off the board is named at its row; nothing is drawn."""
    project = Project(Path(DECKS))
    editions, _ = gather(project, select_editions(project, ["gomaneh-fa"]))
    (edition,) = editions
    from dataclasses import replace

    from deckforge.kinds.board import Board

    track = next(c for c in edition.components if isinstance(c, Board))
    pieces = track.pieces
    moved = replace(pieces.pieces[3], x=mm(430))
    wrong = replace(
        track, pieces=replace(pieces, pieces=(*pieces.pieces[:3], moved, *pieces.pieces[4:]))
    )
    _, pages, problems = lay_out_component(edition, wrong, all_profiles()["printer"])
    assert not pages
    assert [p.format() for p in problems] == [
        f"{moved.ref.where}: pieces.at[3]: the piece's centre (430mm, 128.14mm) is off the board"
    ]


def test_a_board_template_that_does_not_exist_is_an_error_at_its_name(tmp_path, capsys):
    game = tmp_path / "decks" / "g"
    game.mkdir(parents=True)
    (game / "edition.yaml").write_text(
        "kind: edition\nid: g\ngame: g\ntitle: G\nlocale: en\nplayers: {min: 2, max: 4}\n"
        "decks:\n  - {id: cards, source: cards.yaml, size: poker}\n"
        "components:\n  - {id: board, source: board.yaml}\n",
        encoding="utf-8",
    )
    (game / "cards.yaml").write_text(
        "kind: cards\nface: trivia\ncards:\n  - {question: Why, answer: So, category: arts}\n",
        encoding="utf-8",
    )
    (game / "board.yaml").write_text("kind: board\ntemplate: no-such-board\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["--decks", str(tmp_path / "decks"), "build", "--out", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        "decks/g/board.yaml:2:11: template: no template named 'no-such-board' (known: back, "
    )
    assert not out.exists()


def _csv_board(root: Path, rows: str) -> Path:
    """The starter game with its board's spaces in a CSV file instead of its YAML."""
    from deckforge.authoring.game import new_game

    (root / "decks").mkdir()
    folder = new_game(Project(root / "decks"), "quiz")
    board = folder / "board.yaml"
    text = board.read_text(encoding="utf-8")
    head = text[: text.index("  at:\n")]
    board.write_text(head + "  data: spaces.csv\n", encoding="utf-8")
    (folder / "spaces.csv").write_text(rows, encoding="utf-8")
    return root / "decks"


def test_a_boards_pieces_may_be_a_csv_file(tmp_path):
    """The same spaces from a spreadsheet draw the same board."""
    decks = _csv_board(
        tmp_path, "x,y,category,label\n30mm,390mm,science,START\n75mm,390mm,history,\n"
    )
    out = tmp_path / "build"
    assert (
        main(["--decks", str(decks), "build", "--out", str(out), "--quiet", "--profile", "printer"])
        == 0
    )
    project = Project(decks)
    editions, _ = gather(project, select_editions(project, ["quiz"]))
    from deckforge.kinds.board import Board

    board = next(c for c in editions[0].components if isinstance(c, Board))
    assert [(round(p.x / mm(1), 3), round(p.y / mm(1), 3)) for p in board.pieces.pieces] == [
        (30, 390),
        (75, 390),
    ]
    assert board.pieces.pieces[0].values["label"].value == "START"


def test_a_piece_whose_place_is_not_a_length_is_an_error_at_its_cell(tmp_path, capsys):
    decks = _csv_board(tmp_path, "x,y,category\n30mm,390,science\n")
    out = tmp_path / "build"
    assert main(["--decks", str(decks), "build", "--out", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        "decks/quiz/spaces.csv:2:6: '390' is not a length (use mm, cm, in or pt, e.g. '3mm')"
    )
    assert not out.exists()


def test_a_boards_pieces_from_a_file_outside_the_project_are_an_error(tmp_path, capsys):
    decks = _csv_board(tmp_path, "x,y,category\n30mm,390mm,science\n")
    board = decks / "quiz" / "board.yaml"
    # The project is tmp_path (the folder holding decks/): the file is beside it.
    secret = tmp_path.parent / f"{tmp_path.name}-secret.csv"
    secret.write_text("x,y,category\n1mm,1mm,science\n", encoding="utf-8")
    name = f"../../../{secret.name}"
    board.write_text(
        board.read_text(encoding="utf-8").replace("data: spaces.csv", f"data: {name}"),
        encoding="utf-8",
    )
    out = tmp_path / "build"
    assert main(["--decks", str(decks), "build", "--out", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "decks/quiz/board.yaml:" in err
    assert f"'{name}' is outside the project folder; data must stay inside it" in err
    assert not out.exists()
