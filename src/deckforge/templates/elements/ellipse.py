"""``ellipse``: the ellipse filling its box."""

from __future__ import annotations

from deckforge.drawing.ops import Ellipse as EllipseOp
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
