"""Tuck boxes (``kind: tuckbox``): a box for one deck of the edition, folded from one
sheet.

The box's inside is worked out from the deck: its cards' trim plus a clearance, and
its depth the card count times a card's thickness plus the clearance. The die line
(``layout.components.tuckbox``) follows from those; templates fill its front, back,
spines and top flap, the front by default with the deck's own back.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from deckforge.errors import Problem, SourceRef
from deckforge.kinds import Checked, ComponentKind, Reader, deck_kinds
from deckforge.model import Text
from deckforge.sources.source import Source
from deckforge.units import parse_length, to_mm

#: A card's thickness: about 0.3 mm for 300 gsm card, 0.5–0.6 mm sleeved.
THICKNESS = "0.3mm"
#: Room left round the deck on every measure of the inside: cards differ from their
#: stated thickness by a few hundredths of a millimetre, and a deck must slide out.
CLEARANCE = "1mm"
#: The range of each (mm): from thin paper to thick board, and up to a loose fit.
RANGES = {"thickness": (0.05, 2.0), "clearance": (0.0, 10.0)}
#: The panels templates fill, and the shipped template of each but the front.
PANELS = {"front": None, "back": "tuckbox-back", "spine": "tuckbox-spine", "flap": "tuckbox-flap"}


@dataclass(frozen=True)
class BoxFace:
    """What a tuck box's panel templates bind: its title, its deck's id and card count."""

    id: str
    title: Text
    deck: str
    cards: int


@dataclass(frozen=True)
class Tuckbox:
    """A tuck box for one deck: its deck, a card's thickness and the clearance
    (points), and the template of each panel (None: the front shows the deck's back)."""

    id: str
    deck: str
    thickness: float
    clearance: float
    templates: dict[str, str | None]
    title: Text
    #: Where the box's deck is named.
    ref: SourceRef


class TuckboxKind(ComponentKind):
    """A tuck box for a deck of the edition, sized from its cards."""

    def rules(self, source: Source, checked: Checked) -> Iterator[Problem]:
        name = source.data["deck"]
        other = checked.sources.get(name)
        if other is None or other.data.get("kind") not in deck_kinds():
            decks = ", ".join(
                sorted(k for k, s in checked.sources.items() if s.data.get("kind") in deck_kinds())
            )
            yield Problem(
                source.ref(("deck",)), f"'{name}' is not a deck of this edition ({decks})"
            )
        for key, (least, most) in RANGES.items():
            if key in source.data:
                value = to_mm(parse_length(source.data[key]))
                if not least <= value <= most:
                    what = "a card's thickness" if key == "thickness" else "the clearance"
                    message = f"{what} must be from {least:g}mm to {most:g}mm, not {value:g}mm"
                    yield Problem(source.ref((key,)), message)

    def component(self, id: str, source: Source, reader: Reader) -> Tuckbox:
        data = source.data
        templates = {
            panel: data.get("templates", {}).get(panel, default)
            for panel, default in PANELS.items()
        }
        title = data.get("title")
        text = (
            reader.text(source, ("title",), title)
            if title is not None
            else Text(reader.loaded.manifest.data["title"], source.ref(("deck",)))
        )
        return Tuckbox(
            id,
            data["deck"],
            parse_length(data.get("thickness", THICKNESS)),
            parse_length(data.get("clearance", CLEARANCE)),
            templates,
            text,
            source.ref(("deck",)),
        )


KIND = TuckboxKind("tuckbox", listed=11)
