"""``circle`` and ``ellipse``: the largest circle centred in the box, or the ellipse
filling it."""

from __future__ import annotations

from deckforge.layout.ops import Circle as CircleOp
from deckforge.layout.ops import Ellipse as EllipseOp
from deckforge.templates.bind import Scope
from deckforge.templates.elements import PAINT_KEYS, Element
from deckforge.templates.lengths import Box


class Ellipse(Element):
    """An ellipse filling its box."""

    type = "ellipse"
    description = "An ellipse filling its box."
    keys = dict(PAINT_KEYS)

    def compile(self, spec, compiler) -> None:
        self.paint = compiler.paint(spec, Box(self.place.w, self.place.h))
        for colour in (self.paint.fill, self.paint.stroke):
            self.uses(*(colour.fields if colour else ()))

    def ops(self, scope: Scope) -> list:
        fill, stroke = self.paint.colours(scope)
        if fill is None and stroke is None:
            return []
        return [self.shape(fill, stroke)]

    def shape(self, fill, stroke):
        """The operation for one card's colours."""
        p, paint = self.place, self.paint
        return EllipseOp(p.x, p.y, p.w, p.h, fill, stroke, paint.width, paint.dash)


class Circle(Ellipse):
    """A circle: as wide as the box's shorter side, centred in it."""

    type = "circle"
    description = "The largest circle centred in its box."

    def shape(self, fill, stroke):
        p, paint = self.place, self.paint
        r = min(p.w, p.h) / 2
        return CircleOp(p.x + p.w / 2, p.y + p.h / 2, r, fill, stroke, paint.width, paint.dash)
