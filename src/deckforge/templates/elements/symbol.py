"""``symbol``: a named shape. The symbols that tell player colours apart without colour
vision (``circle``, ``square``, ``diamond``, ``triangle``, ``hexagon``, ``star``,
``cross``, ``heart``) are drawn in the largest square centred in the box; a block arrow
(``arrow-left``, ``arrow-right``) fills the box. The name is written out or bound to the
card's fields: ``"{colour.symbol}"``, ``"arrow-{direction}"``. Right-to-left editions
mirror it like any shape, so an arrow turns round there unless the element says
``mirror: false`` (an arrow to the player on your left points left in every script)."""

from __future__ import annotations

from dataclasses import replace

from deckforge.drawing import shapes
from deckforge.drawing.ops import Polygon
from deckforge.templates.bind import Scope
from deckforge.templates.elements import PAINT_KEYS, CardError, Element
from deckforge.templates.lengths import Box

#: Every name a symbol element draws.
NAMES = (*shapes.SYMBOLS, *(f"arrow-{way}" for way in shapes.ARROWS))


class Symbol(Element):
    """A player-colour symbol or an arrow."""

    type = "symbol"
    description = "A named shape: a player-colour symbol, or an arrow filling its box."
    keys = {
        **PAINT_KEYS,
        "symbol": {
            "description": f"One of {', '.join(NAMES)}; or a binding like '{{colour.symbol}}' "
            "or 'arrow-{direction}'.",
            "type": "string",
            "minLength": 1,
            "maxLength": 64,
        },
    }

    def compile(self, spec, compiler) -> None:
        self.paint = compiler.paint(spec, Box(self.place.w, self.place.h))
        for colour in (self.paint.fill, self.paint.stroke):
            self.uses(*(colour.fields if colour else ()))
        self.ref = spec.at("symbol")
        self.pattern = compiler.pattern(spec, "symbol")
        if self.pattern is None:
            compiler.problem(spec, "symbol", "a symbol element needs 'symbol'")
        elif self.pattern.fields:
            self.uses(*self.pattern.fields)
        elif str(spec.data["symbol"]) not in NAMES:
            compiler.problem(spec, "symbol", _unknown(str(spec.data["symbol"])))

    def ops(self, scope: Scope) -> list:
        paint = self.paint.drawn(scope)
        if self.pattern is None or paint is None:
            return []
        name, where = scope.text(self.pattern)
        if not name:
            return []
        if name not in NAMES:
            raise CardError(where or self.ref, _unknown(name))
        p, fill = self.place, paint["fill"]
        if name.startswith("arrow-"):
            op = shapes.arrow(p.x, p.y, p.w, p.h, name.removeprefix("arrow-"), fill)
        else:
            centre = (p.x + p.w / 2, p.y + p.h / 2)
            op = shapes.symbol(name, *centre, min(p.w, p.h), fill)
        op = replace(op, **paint)
        if p.mirrored and isinstance(op, Polygon):
            axis = 2 * p.x + p.w
            op = replace(op, points=tuple((axis - x, y) for x, y in op.points))
        return [op]


def _unknown(name: str) -> str:
    return f"unknown symbol {name!r} (symbols: {', '.join(NAMES)})"
