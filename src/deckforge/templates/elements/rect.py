"""``rect``: a rectangle filling its box, filled and/or outlined, corners optionally round."""

from __future__ import annotations

from deckforge.layout.ops import Rect as RectOp
from deckforge.templates.bind import Scope
from deckforge.templates.elements import _LENGTH, PAINT_KEYS, Element
from deckforge.templates.lengths import Box


class Rect(Element):
    """A rectangle."""

    type = "rect"
    description = "A rectangle filling its box."
    keys = {**PAINT_KEYS, "radius": {**_LENGTH, "description": "Corner radius."}}

    def compile(self, spec, compiler) -> None:
        box = Box(self.place.w, self.place.h)
        self.paint = compiler.paint(spec, box)
        self.radius = compiler.length(spec, "radius", "", box)
        self.uses(*(self.paint.fill.fields if self.paint.fill else ()))
        self.uses(*(self.paint.stroke.fields if self.paint.stroke else ()))

    def ops(self, scope: Scope) -> list:
        paint = self.paint.drawn(scope)
        if paint is None:
            return []
        p = self.place
        return [RectOp(p.x, p.y, p.w, p.h, radius=self.radius, **paint)]
