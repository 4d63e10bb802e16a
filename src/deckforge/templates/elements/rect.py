"""``rect``: a rectangle filling its box, filled and/or outlined, corners optionally round."""

from __future__ import annotations

from deckforge.drawing.ops import Rect as RectOp
from deckforge.templates.bind import Scope
from deckforge.templates.elements import _LENGTH, SHAPE_KEYS, Element, shape_paint
from deckforge.templates.lengths import Box


class Rect(Element):
    """A rectangle."""

    type = "rect"
    description = "A rectangle filling its box."
    keys = {**SHAPE_KEYS, "radius": {**_LENGTH, "description": "Corner radius."}}

    def compile(self, spec, compiler) -> None:
        box = Box(self.place.w, self.place.h)
        self.paint = shape_paint(spec, compiler, self.place)
        radius = compiler.length(spec, "radius", "", box)
        self.radius = compiler.bounded(spec, "radius", radius, "radius", 0.0)
        half = min(box.w, box.h) / 2
        if self.radius > half + 1e-6:
            compiler.problem(
                spec,
                "radius",
                f"a corner's radius must be at most half the box's shorter side "
                f"({round(half, 3):g}pt), not {round(self.radius, 3):g}pt",
            )
            self.radius = 0.0
        self.uses(*self.paint.fields)

    def ops(self, scope: Scope) -> list:
        paint = self.paint.drawn(scope)
        if paint is None:
            return []
        p = self.place
        return [RectOp(p.x, p.y, p.w, p.h, radius=self.radius, **paint)]
