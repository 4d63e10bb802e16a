"""Tabletop Simulator decks: card sheets, back sheets and a saved object that imports in one step.

TTS cuts a deck out of sheets of at most 10 × 7 cards (4096 px on a side at most) and uses
the last slot of a sheet as the "hidden" image it shows for a card in someone's hand, or
the card's back when the deck's *Back is Hidden* is set. Here both give the same picture:
the last slot holds the deck's back, and *Back is Hidden* is set. A deck whose cards have
different backs (Player cards in eight colours) gets back sheets laid out like its faces
(TTS's *unique backs*), and its hidden image is its first back in grey, which gives no
colour away. The saved object is TTS's own save format (``ObjectStates`` holding one
``DeckCustom``); copied into TTS's *Saved Objects* folder it is the whole deck, named card
by card.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from deckforge.errors import DeckforgeError
from deckforge.render.raster import tts_tiles
from deckforge.render.raster.pdfread import Deck, read_deck, side_page
from deckforge.render.raster.work import ImageJob, Plan, Slot, carry_out

#: Files of one TTS export (sheets, backs, the saved object and its picture); others in the
#: folder are left alone.
TTS_FILES = r"[^.].*\.(png|json)"
#: Width of the picture TTS shows for a saved object (a PNG named like its JSON).
THUMBNAIL_WIDTH = 256


def _fit_card(
    trim_size: tuple[float, float], columns: int, rows: int, max_side: int
) -> tuple[int, int]:
    """The largest card in pixels, with the trim's proportions, of which ``columns`` × ``rows``
    fit in ``max_side`` × ``max_side``."""
    trim_w, trim_h = trim_size
    width = max_side // columns
    height = math.floor(width * trim_h / trim_w)
    if height * rows > max_side:
        height = max_side // rows
        width = math.floor(height * trim_w / trim_h)
    if width < 1 or height < 1:
        raise DeckforgeError(f"{columns} × {rows} cards do not fit in {max_side} px")
    return width, height


def tts_grid(
    cards: int,
    trim_size: tuple[float, float],
    columns: int = 10,
    rows: int = 7,
    max_side: int = 4096,
) -> tuple[int, int, tuple[int, int]]:
    """The grid (columns, rows) of every Tabletop Simulator sheet of a deck, and the card
    size in pixels.

    A deck that needs several sheets uses the whole ``columns`` × ``rows``. When the deck
    and the hidden-card slot fit on one sheet, the grid is the one (at least 2 × 2, which
    TTS always accepts) that gives the largest cards, so a small deck is not drawn tiny.
    """
    if cards + 1 > columns * rows:
        return columns, rows, _fit_card(trim_size, columns, rows, max_side)
    grids: list[tuple[int, int]] = []
    for used_columns in range(min(2, columns), columns + 1):
        used_rows = max(min(2, rows), math.ceil((cards + 1) / used_columns))
        if used_rows <= rows:
            grids.append((used_columns, used_rows))
    # columns × rows itself always qualifies, so there is at least one grid.
    # Largest card first, then the fewest empty slots.
    used_columns, used_rows = max(
        grids,
        key=lambda g: (_fit_card(trim_size, g[0], g[1], max_side)[0], -g[0] * g[1]),
    )
    return used_columns, used_rows, _fit_card(trim_size, used_columns, used_rows, max_side)


def deck_number(name: str) -> int:
    """The first TTS deck number of a deck's sheets: the same for every export of the
    deck, and unlikely to be another deck's, since TTS keeps one image per number on a
    table. Card ids (number × 100 + slot) stay well within a 32-bit integer."""
    return 1 + int(hashlib.sha256(name.encode()).hexdigest()[:8], 16) % 200_000


def _sheet_jobs(deck: Deck, folder: Path, grid: tuple[int, int, tuple[int, int]]) -> list:
    """Face sheets, then back sheets (or one back), each with the hidden image last."""
    columns, rows, size = grid
    per_sheet = columns * rows - 1
    pdf, trim = str(deck.pdf), deck.geometry.trim
    unique = len(deck.backs) > 1
    last = ((columns - 1) * size[0], (rows - 1) * size[1])
    hidden = Slot(deck.back_page(0), deck.backs[0], trim, size, last, grey=unique)
    sheet_size = (columns * size[0], rows * size[1])
    faces, backs = [], []
    for number, first in enumerate(range(0, deck.cards, per_sheet), start=1):
        chosen = range(first, min(first + per_sheet, deck.cards))
        places = [(s % columns * size[0], s // columns * size[1]) for s in range(per_sheet)]
        face_slots = [
            Slot(side_page(card, "face"), deck.faces[card], trim, size, at)
            for card, at in zip(chosen, places, strict=False)
        ]
        target = (str(folder / f"sheet-{number}.png"),)
        faces.append(ImageJob(pdf, sheet_size, (*face_slots, hidden), target))
        if unique:
            back_slots = [
                Slot(deck.back_page(back), deck.backs[back], trim, size, at)
                for back, at in zip((deck.back_of[card] for card in chosen), places, strict=False)
            ]
            target = (str(folder / f"back-{number}.png"),)
            backs.append(ImageJob(pdf, sheet_size, (*back_slots, hidden), target))
    if not unique:
        back = Slot(deck.back_page(0), deck.backs[0], trim, size)
        backs.append(ImageJob(pdf, size, (back,), (str(folder / "back.png"),)))
    return faces + backs


def _url(path: Path, base_url: str | None) -> str:
    """Where TTS finds a file: under ``base_url`` if given, else on this computer."""
    if base_url:
        return base_url.rstrip("/") + "/" + quote(path.name)
    return path.resolve().as_uri()


def _transform() -> dict:
    # Face down (turned 180° about z) in the middle of the table, just above it.
    return {
        "posX": 0.0, "posY": 1.0, "posZ": 0.0,
        "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
        "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0,
    }  # fmt: skip


def saved_object(
    deck: Deck, jobs: list[ImageJob], grid: tuple, title: str, name: str, base_url: str | None
) -> dict:
    """The TTS saved object of a deck whose sheets ``jobs`` make (faces first)."""
    columns, rows, _ = grid
    per_sheet = columns * rows - 1
    sheets = math.ceil(deck.cards / per_sheet)
    unique = len(deck.backs) > 1
    first = deck_number(name)
    # Landscape cards lie sideways on TTS's upright card.
    trim_w, trim_h = deck.geometry.trim_size
    sideways = trim_w > trim_h
    custom: dict[str, dict] = {}
    for sheet in range(sheets):
        face = Path(jobs[sheet].files[0])
        back = Path(jobs[sheets + sheet if unique else sheets].files[0])
        custom[str(first + sheet)] = {
            "FaceURL": _url(face, base_url),
            "BackURL": _url(back, base_url),
            "NumWidth": columns,
            "NumHeight": rows,
            "BackIsHidden": True,
            "UniqueBack": unique,
            "Type": 0,
        }
    ids, cards = [], []
    for card in range(deck.cards):
        sheet, slot = divmod(card, per_sheet)
        card_id = (first + sheet) * 100 + slot
        ids.append(card_id)
        cards.append(
            {
                "Name": "Card",
                "Transform": _transform(),
                "Nickname": deck.names[card],
                "Description": "",
                "CardID": card_id,
                "CustomDeck": {str(first + sheet): custom[str(first + sheet)]},
                "Hands": True,
                "SidewaysCard": sideways,
            }
        )
    state = {
        "Name": "DeckCustom",
        "Transform": _transform(),
        "Nickname": title,
        "Description": f"{deck.cards} cards",
        "Hands": False,
        "SidewaysCard": sideways,
        "DeckIDs": ids,
        "CustomDeck": custom,
        "ContainedObjects": cards,
    }
    return {"SaveName": title, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
            "Rules": "", "PlayerTurn": "", "LuaScript": "", "ObjectStates": [state]}  # fmt: skip


@dataclass(frozen=True)
class Sheets:
    """How large a deck's sheets may be: at most ``columns`` × ``rows`` cards (the last
    slot is the hidden image) and ``max_side`` pixels on a side."""

    columns: int = 10
    rows: int = 7
    max_side: int = 4096

    def __post_init__(self) -> None:
        columns, rows = self.columns, self.rows
        if columns < 1 or rows < 1 or columns * rows < 2:
            raise DeckforgeError(
                f"a TTS sheet of {columns} × {rows} has no room for a card besides the hidden one"
            )
        if self.max_side < 1:
            raise DeckforgeError(f"max_side must be positive, not {self.max_side}")


def tts_plan(
    deck: Deck,
    folder: Path,
    name: str,
    title: str,
    sheets: Sheets = Sheets(),
    base_url: str | None = None,
) -> Plan:
    """The sheets, back(s), saved object ``<name>.json`` and its picture ``<name>.png``;
    ``base_url``, when given, is where the saved object says the images will be."""
    folder = Path(folder)
    if tts_tiles.shaped(deck):
        plan = tts_tiles.tile_plan(deck, folder, name, title, lambda p: _url(p, base_url))
    else:
        plan = _deck_plan(deck, folder, name, sheets, base_url, title)
    trim_w, trim_h = deck.geometry.trim_size
    thumbnail = (THUMBNAIL_WIDTH, round(THUMBNAIL_WIDTH * trim_h / trim_w))
    cover = Slot(side_page(0, "face"), deck.faces[0], deck.geometry.trim, thumbnail)
    target = (str(folder / f"{name}.png"),)
    plan.jobs.append(ImageJob(str(deck.pdf), thumbnail, (cover,), target))
    return plan


def _deck_plan(deck: Deck, folder: Path, name: str, sheets: Sheets, base_url, title) -> Plan:
    """The sheets, back(s) and saved object of a deck of cards."""
    grid = tts_grid(
        deck.cards, deck.geometry.trim_size, sheets.columns, sheets.rows, sheets.max_side
    )
    plan = Plan(folder, TTS_FILES)
    plan.jobs = _sheet_jobs(deck, folder, grid)
    obj = saved_object(deck, plan.jobs, grid, title, name, base_url)
    plan.texts[f"{name}.json"] = json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
    return plan


def export_tts(
    pdf: Path,
    out_folder: Path,
    columns: int = 10,
    rows: int = 7,
    max_side: int = 4096,
    base_url: str | None = None,
    processes: int | None = None,
) -> list[Path]:
    """A Tabletop Simulator deck from a printer-profile card PDF.

    Card faces are cropped to the trim, up to ``columns`` × ``rows`` per image
    (``sheet-1.png``, ``sheet-2.png``, ...), no image larger than ``max_side`` px on either
    side (cards as large as fit), the last slot of each holding the hidden image. The backs
    are ``back.png`` (one card) or, when cards have different backs, ``back-1.png``, ...
    laid out like the faces. ``<pdf name>.json`` is the saved object, ``<pdf name>.png``
    its picture. Returns ``[face sheets..., backs..., saved object]``.
    """
    deck = read_deck(pdf)
    name = Path(pdf).stem
    plan = tts_plan(deck, out_folder, name, name, Sheets(columns, rows, max_side), base_url)
    carry_out([plan], processes)
    images = [Path(job.files[0]) for job in plan.jobs[:-1]]
    return [*images, plan.folder / f"{name}.json"]
