"""``circle``: the largest circle centred in its box."""

from __future__ import annotations

from deckforge.drawing.ops import Circle as CircleOp
from deckforge.templates.elements.ellipse import Ellipse


class Circle(Ellipse):
    """A circle: as wide as the box's shorter side, centred in it."""

    type = "circle"
    description = "The largest circle centred in its box."

    def shape(self, paint: dict):
        p = self.place
        return CircleOp(p.x + p.w / 2, p.y + p.h / 2, min(p.w, p.h) / 2, **paint)
