"""``lines``: ruled lines to write on, level across the box, ``gap`` apart, the first
``gap`` below the box's top: as many as ``count`` asks (a number, or a binding like
``"{lines}"``) and the box holds; without ``count``, as many as it holds."""

from __future__ import annotations

from deckforge.drawing.ops import BLACK
from deckforge.drawing.ops import Line as LineOp
from deckforge.templates.bind import Scope
from deckforge.templates.elements import _LENGTH, STROKE_KEYS, WHOLE, Element
from deckforge.templates.lengths import Box
from deckforge.units import MAX_RULED_LINES, mm

#: The gap between lines unless the element gives one: a ruled notebook's.
DEFAULT_GAP = mm(8)
_EPSILON = 1e-6


class Lines(Element):
    """Ruled lines for writing on."""

    type = "lines"
    description = "Ruled lines to write on, evenly spaced down its box."
    keys = STROKE_KEYS | {
        "gap": {
            **_LENGTH,
            "description": "From one line to the next, and from the box's top to the first "
            "(default 8mm).",
        },
        "count": {
            **WHOLE,
            "description": "How many lines: a number, or a binding like '{lines}' (default: "
            "as many as the box holds). Never more than the box holds.",
        },
    }

    def compile(self, spec, compiler) -> None:
        p = self.place
        self.paint = compiler.paint(spec, Box(p.w, p.h))
        self.uses(*(self.paint.stroke.fields if self.paint.stroke else ()))
        gap = compiler.length(spec, "gap", "h", Box(p.w, p.h), DEFAULT_GAP)
        self.gap = compiler.bounded(spec, "gap", gap, "gap", DEFAULT_GAP)
        self.count = compiler.whole(spec, "count")
        if self.count.field is not None:
            self.uses(self.count.field)
        holds = int((p.h + _EPSILON) // self.gap)
        written = self.count.field is None and self.count.value is not None
        if holds > MAX_RULED_LINES and not (written and self.count.value <= MAX_RULED_LINES):
            compiler.problem(
                spec,
                "gap",
                f"the box holds {holds} lines this far apart; at most {MAX_RULED_LINES} are "
                "drawn: make the gap larger, the box smaller or give a count",
            )
            self.gap = max(self.gap, p.h / MAX_RULED_LINES)

    def ops(self, scope: Scope) -> list:
        p, paint = self.place, self.paint
        stroke = paint.stroke.of(scope) if paint.stroke else BLACK
        count = self.count.of(scope)
        if self.count.field is not None and count is None:
            return []  # a card that does not say how many lines it has gets none
        out: list[LineOp] = []
        y = p.top - self.gap
        while y >= p.y - _EPSILON and (count is None or len(out) < count):
            out.append(LineOp(p.x, y, p.x + p.w, y, stroke, paint.width, paint.dash))
            y -= self.gap
        return out
