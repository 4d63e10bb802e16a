"""Tabletop Simulator pieces for round tokens and hex tiles: one ``Custom_Tile`` object a
card, cut by TTS in the card's shape (circle or hexagon), its face on top and its back
underneath, instead of a deck of cards.

A ``Custom_Tile`` keeps both sides of a piece; TTS's ``Custom_Token`` is cut out of one
picture's transparent pixels and has no back, so round tokens are tiles of the circle
type too. Each distinct face and back is drawn once, cropped to the trim, at 300 dpi.
"""

from __future__ import annotations

import json
from pathlib import Path

from deckforge.render.raster.pdfread import Deck, side_page
from deckforge.render.raster.work import ImageJob, Plan, Slot

#: TTS's Custom_Tile types, by the manifest's shape.
TILE_TYPES = {"circle": 2, "hexagon-pointy": 1, "hexagon-flat": 1}
#: Pieces laid out on the table this many a row, this far apart (TTS units, ~1 in).
ROW, SPACING = 10, 2.5
DPI = 300


def shaped(deck: Deck) -> bool:
    """Whether a deck's cards are pieces TTS cuts to shape (tokens and tiles)."""
    return deck.shape in TILE_TYPES


def tile_plan(deck: Deck, folder: Path, name: str, title: str, url) -> Plan:
    """The pictures of a deck's distinct faces and backs and the saved object ``<name>
    .json`` of its pieces; ``url`` gives where TTS finds a picture file."""
    from deckforge.render.raster.tts import TTS_FILES

    plan = Plan(Path(folder), TTS_FILES)
    trim = deck.geometry.trim
    w, h = deck.geometry.trim_size
    size = (round(w * DPI / 72), round(h * DPI / 72))
    faces = list(dict.fromkeys(deck.faces))
    pdf = str(deck.pdf)
    for number, face in enumerate(faces, start=1):
        card = deck.faces.index(face)
        slot = Slot(side_page(card, "face"), face, trim, size)
        plan.jobs.append(ImageJob(pdf, size, (slot,), (str(plan.folder / f"face-{number}.png"),)))
    for number, back in enumerate(deck.backs, start=1):
        slot = Slot(deck.back_page(number - 1), back, trim, size)
        plan.jobs.append(ImageJob(pdf, size, (slot,), (str(plan.folder / f"back-{number}.png"),)))
    pieces = []
    for card in range(deck.cards):
        face_png = plan.folder / f"face-{faces.index(deck.faces[card]) + 1}.png"
        back_png = plan.folder / f"back-{deck.back_of[card] + 1}.png"
        pieces.append(_piece(deck, card, url(face_png), url(back_png), w / h))
    state = {"SaveName": title, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
             "Rules": "", "PlayerTurn": "", "LuaScript": "", "ObjectStates": pieces}  # fmt: skip
    plan.texts[f"{name}.json"] = json.dumps(state, indent=2, ensure_ascii=False) + "\n"
    return plan


def _piece(deck: Deck, card: int, face: str, back: str, aspect: float) -> dict:
    row, column = divmod(card, ROW)
    return {
        "Name": "Custom_Tile",
        "Transform": {
            "posX": column * SPACING,
            "posY": 1.0,
            "posZ": -row * SPACING,
            "rotX": 0.0,
            "rotY": 180.0,
            "rotZ": 0.0,
            "scaleX": 1.0,
            "scaleY": 1.0,
            "scaleZ": 1.0,
        },  # fmt: skip
        "Nickname": deck.names[card],
        "Description": "",
        "CustomImage": {
            "ImageURL": face,
            "ImageSecondaryURL": back,
            "ImageScalar": 1.0,
            "WidthScale": round(aspect, 4),
            "CustomTile": {
                "Type": TILE_TYPES[deck.shape],
                "Thickness": 0.2,
                "Stackable": True,
                "Stretch": True,
            },
        },
    }
