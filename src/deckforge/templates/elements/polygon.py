"""``polygon``: a closed shape through points measured in its box (``[0, 50%]`` is the
middle of its left side), mirrored with it in right-to-left editions."""

from __future__ import annotations

from deckforge.drawing.ops import Polygon as PolygonOp
from deckforge.templates.bind import Scope
from deckforge.templates.elements import _LENGTH, SHAPE_KEYS, Element, shape_paint
from deckforge.templates.lengths import Box, LengthError, length


class Polygon(Element):
    """A closed shape through points."""

    type = "polygon"
    description = "A closed shape through points measured in its box."
    keys = {
        **SHAPE_KEYS,
        "points": {
            "description": "Corners as [x, y] from the box's top-left corner.",
            "type": "array",
            "minItems": 3,
            "maxItems": 256,
            "items": {"type": "array", "items": _LENGTH, "minItems": 2, "maxItems": 2},
        },
    }

    def compile(self, spec, compiler) -> None:
        p = self.place
        box = Box(p.w, p.h)
        self.paint = shape_paint(spec, compiler, p)
        self.uses(*self.paint.fields)
        points = []
        for index, (x, y) in enumerate(spec.data.get("points", ())):
            try:
                px = length(x, "w", box, compiler.names)
                py = length(y, "h", box, compiler.names)
            except LengthError as exc:
                compiler.problem(spec, "points", f"point {index + 1}: {exc}")
                continue
            if p.mirrored:
                px = p.w - px
            points.append((p.x + px, p.top - py))
        if len(points) < 3:
            compiler.problem(spec, "points", "a polygon needs at least three points")
        self.points = tuple(points)

    def ops(self, scope: Scope) -> list:
        paint = self.paint.drawn(scope)
        return [] if paint is None else [PolygonOp(self.points, **paint)]
