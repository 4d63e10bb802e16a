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
        paint = self.paint.drawn(scope)
        return [] if paint is None else [self.shape(paint)]

    def shape(self, paint: dict):
        """The operation for one card's paint."""
        p = self.place
        return EllipseOp(p.x, p.y, p.w, p.h, **paint)


class Circle(Ellipse):
    """A circle: as wide as the box's shorter side, centred in it."""

    type = "circle"
    description = "The largest circle centred in its box."

    def shape(self, paint: dict):
        p = self.place
        return CircleOp(p.x + p.w / 2, p.y + p.h / 2, min(p.w, p.h) / 2, **paint)
