"""``ellipse``: the ellipse filling its box."""

from __future__ import annotations

from deckforge.drawing.ops import Ellipse as EllipseOp
from deckforge.templates.bind import Scope
from deckforge.templates.elements import SHAPE_KEYS, Element, shape_paint


class Ellipse(Element):
    """An ellipse filling its box."""

    type = "ellipse"
    description = "An ellipse filling its box."
    keys = dict(SHAPE_KEYS)

    def compile(self, spec, compiler) -> None:
        self.paint = shape_paint(spec, compiler, self.place)
        self.uses(*self.paint.fields)

    def ops(self, scope: Scope) -> list:
        paint = self.paint.drawn(scope)
        return [] if paint is None else [self.shape(paint)]

    def shape(self, paint: dict):
        """The operation for one card's paint."""
        p = self.place
        return EllipseOp(p.x, p.y, p.w, p.h, **paint)
