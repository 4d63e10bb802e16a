"""``line``: a straight line across its box, from the top-left corner to the bottom-right
(``direction: down``) or from the bottom-left to the top-right (``up``). A box of no
height makes a level line, of no width an upright one."""

from __future__ import annotations

from deckforge.drawing.ops import BLACK
from deckforge.drawing.ops import Line as LineOp
from deckforge.templates.bind import Scope
from deckforge.templates.elements import STROKE_KEYS, Element
from deckforge.templates.lengths import Box


class Line(Element):
    """A straight line."""

    type = "line"
    description = "A straight line across its box."
    keys = STROKE_KEYS | {
        "direction": {
            "description": "down: top-left to bottom-right (default); up: bottom-left to "
            "top-right.",
            "enum": ["down", "up"],
        }
    }

    def compile(self, spec, compiler) -> None:
        self.paint = compiler.paint(spec, Box(self.place.w, self.place.h))
        self.uses(*(self.paint.stroke.fields if self.paint.stroke else ()))
        down = spec.data.get("direction", "down") == "down"
        if self.place.mirrored:
            down = not down
        p = self.place
        self.ends = (p.x, p.top, p.x + p.w, p.y) if down else (p.x, p.y, p.x + p.w, p.top)

    def ops(self, scope: Scope) -> list:
        stroke = self.paint.stroke.of(scope) if self.paint.stroke else BLACK
        return [LineOp(*self.ends, stroke, self.paint.width, self.paint.dash)]
