"""The golden drawing log: the drawing operations of the paint edition's cards as stable
text, one operation a line, nested operations indented under what holds them (a turn, a
layer, a shadow, a shared face). ``test_templates_paint.py`` compares it with
``tests/golden/paint/drawing.txt``; ``make golden`` writes it again."""

from __future__ import annotations

from dataclasses import fields

from deckforge.drawing.ops import Face, Gradient, Layer, Shadow, Text, Transform, Use
from deckforge.templates import Library
from golden_pages import PAINT, PAINT_DECKS
from templates_support import lay_out, text

#: Where the log is kept.
LOG = PAINT / "drawing.txt"
#: The paint edition's card faces, and the fields of their one card.
FACES = {"fan": {"title": "Fanned"}, "dawn": {"title": "Dawn"}}


#: Fields that hold a colour.
_COLOURS = {"fill", "stroke", "colour", "outline"}


def _value(value, colour: bool = False) -> str:
    if colour and isinstance(value, tuple):
        return "#" + "".join(f"{round(v * 255):02X}" for v in value)
    if isinstance(value, float):
        return f"{round(value, 3):g}"
    if isinstance(value, tuple):
        return "(" + " ".join(_value(v) for v in value) + ")"
    if isinstance(value, Gradient):
        stops = " ".join(f"{_value(o)}:{_value(c, True)}" for o, c in value.stops)
        return f"{value.kind}{_value(value.points)}[{stops}]"
    return repr(value)


def _lines(ops, depth: int = 0) -> list[str]:
    out = []
    pad = "  " * depth
    for op in ops:
        name = type(op).__name__.lower()
        if isinstance(op, Use):
            out.append(f"{pad}use")
            out += _lines(op.face.ops, depth + 1)
            continue
        if isinstance(op, Text):
            lines = " | ".join(line.logical for line in op.fitted.lines)
            spacing = {r.spacing for line in op.fitted.lines for r in line.runs}
            extra = ""
            if op.outline is not None:
                extra = f" outline={_value(op.outline, True)}/{_value(op.outline_width)}"
            out.append(
                f"{pad}text {lines!r} at ({_value(op.x)} {_value(op.top)}) w={_value(op.w)} "
                f"size={_value(op.fitted.size)} colour={_value(op.colour, True)}{extra} "
                f"spacing={_value(tuple(sorted(spacing)))}"
            )
            continue
        shown = []
        for f in fields(op):
            if f.name in ("ops", "where"):
                continue
            value = getattr(op, f.name)
            if value is None or value == () or (f.name == "line_width" and op.stroke is None):
                continue
            shown.append(f"{f.name}={_value(value, f.name in _COLOURS)}")
        out.append(f"{pad}{name} " + " ".join(shown))
        if isinstance(op, (Transform, Layer, Shadow)):
            out += _lines(op.ops, depth + 1)
    return out


def drawing_log() -> str:
    """The log of every paint card's face."""
    library = Library.for_edition(PAINT_DECKS / "paint", PAINT_DECKS.parent)
    out = []
    for face, values in FACES.items():
        cards, problems = lay_out(library, [{k: text(v) for k, v in values.items()}], face)
        assert problems == [], problems
        out.append(f"# {face}")
        out += _lines(Face(cards[0].face.ops).ops)
    return "\n".join(out) + "\n"
