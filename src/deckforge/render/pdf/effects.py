"""Paint beyond flat colour: gradients, opacity, drop shadows and outlined text.

In files that keep transparency (RGB, PDF/X-4) a :class:`~deckforge.drawing.ops.Layer`
is a transparency group (a form XObject drawn at a constant alpha), so that a group's
parts do not show through each other; a single shape painted once is simply drawn at
that alpha. A shadow is its operations' shape in one colour, moved, as a layer; a
blurred one is an image of that shape, blurred, with a soft mask. CMYK files (PDF/X-1a)
have no transparency: their faces with layers and shadows are drawn by
:mod:`.flatten` instead.
"""

from __future__ import annotations

from dataclasses import replace
from math import cos, pi, sin

from reportlab.lib.rl_accel import fp_str
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import FILL_EVEN_ODD

from deckforge.drawing.ops import (
    Circle,
    Ellipse,
    Icon,
    Layer,
    Line,
    Picture,
    Polygon,
    Rect,
    Shadow,
    Text,
    Transform,
    Use,
    apply,
    mul,
)
from deckforge.rl import paint as adapter

#: Shapes a gradient fills and a clip can follow.
SHAPES = (Rect, Circle, Ellipse, Polygon)
#: Pixels per point of a blurred shadow's image (300 dpi).
SHADOW_SCALE = 300 / 72
#: Stops put between two of a gradient's in CMYK files, so that the inks between them
#: follow the separation of the colours between them, not a straight line of inks.
_CMYK_STEPS = 8


def install(painter) -> None:
    """Teach a painter to draw layers, shadows, gradients and outlined text."""
    plain = dict(painter.draw)
    for shape in SHAPES:
        painter.draw[shape] = _with_gradient(painter, plain[shape])
    painter.draw[Text] = lambda op: _text(painter, op, plain[Text])
    painter.draw[Layer] = lambda op: layer(painter, op)
    painter.draw[Shadow] = lambda op: shadow(painter, op)
    #: Layers' forms and hard shadows' layers by the operation's id (kept with it), and
    #: whether each keyed face holds a layer or a shadow (CMYK files flatten those).
    painter.layer_forms = {}
    painter.silhouettes = {}
    painter.effect_faces = {}


def _with_gradient(painter, draw):
    def drawn(op) -> None:
        if op.gradient is None:
            draw(op)
            return
        gradient(painter, op)
        if op.stroke is not None:
            draw(replace(op, fill=None, gradient=None))

    return drawn


def path(canvas, op, p=None):
    """A ReportLab path of a shape's outline (added to ``p`` if given); a ring (a pair of
    shapes, see :mod:`.flatten`) is both outlines, filled even-odd."""
    p = canvas.beginPath() if p is None else p
    if isinstance(op, tuple):
        for shape in op:
            path(canvas, shape, p)
    elif isinstance(op, Rect):
        if op.radius:
            p.roundRect(op.x, op.y, op.w, op.h, op.radius)
        else:
            p.rect(op.x, op.y, op.w, op.h)
    elif isinstance(op, Circle):
        p.circle(op.cx, op.cy, op.r)
    elif isinstance(op, Ellipse):
        p.ellipse(op.x, op.y, op.w, op.h)
    else:
        p.moveTo(*op.points[0])
        for point in op.points[1:]:
            p.lineTo(*point)
        p.close()
    return p


def clip(painter, op) -> None:
    """Clip to a shape's outline, or to a ring's area (within a saved graphics state)."""
    mode = FILL_EVEN_ODD if isinstance(op, tuple) else None
    painter.c.clipPath(path(painter.c, op), stroke=0, fill=0, fillMode=mode)


def gradient(painter, op) -> None:
    """A shape filled with its gradient: the shading painted inside its outline."""
    g = op.gradient
    stops = list(g.stops)
    converter = painter.converter
    if converter is not None:
        stops = _fine(stops)
    offsets: list[float] = []
    colours: list[tuple[float, ...]] = []
    for offset, rgb in stops:
        if offsets and offset <= offsets[-1]:
            offset = min(1.0, offsets[-1] + 1e-6)
        offsets.append(offset)
        colours.append(tuple(rgb) if converter is None else converter.inks(tuple(rgb), True))
    painter.code.append("q")
    clip(painter, op)
    space = (painter.spaces or {}).get("DefaultRGB") if converter is None else None
    adapter.shade(painter.c, g.kind, g.points, colours, offsets, space)
    painter.code.append("Q")


def _fine(stops: list) -> list:
    """Stops with colours mixed in between (see :data:`_CMYK_STEPS`)."""
    out = [stops[0]]
    for (a, ca), (b, cb) in zip(stops, stops[1:], strict=False):
        for step in range(1, _CMYK_STEPS + 1):
            t = step / _CMYK_STEPS
            mixed = tuple(x + (y - x) * t for x, y in zip(ca, cb, strict=True))
            out.append((a + (b - a) * t, mixed))
    return out


def _text(painter, op: Text, draw) -> None:
    if op.outline is None:
        draw(op)
        return
    # Fill then stroke each glyph (render mode 2), the outline's colour and width set.
    width = fp_str(op.outline_width)
    painter.code.append(f"q {painter.colour(op.outline, stroke=True)} {width} w 1 j 2 Tr")
    draw(op)
    painter.code.append("0 Tr Q")


def alpha(painter, opacity: float) -> str:
    """The operators that make what follows ``opacity`` opaque, fill and stroke."""
    c = painter.c
    fill = adapter.graphics_state(c, "ca", opacity)
    stroke = adapter.graphics_state(c, "CA", opacity)
    return f"/{fill} gs /{stroke} gs"


def _painted_once(ops: tuple) -> bool:
    """Whether operations paint no point twice: one shape filled or outlined (not both),
    or one text without an outline."""
    if len(ops) != 1:
        return False
    op = ops[0]
    if isinstance(op, SHAPES):
        return (op.fill is None) != (op.stroke is None) and op.gradient is None
    return isinstance(op, (Text, Line)) and getattr(op, "outline", None) is None


def layer(painter, op: Layer) -> None:
    """Operations made translucent as one."""
    if painter.converter is not None:
        from deckforge.render.pdf import flatten

        flatten.refuse(op, "is translucent inside something drawn as one")
    if _painted_once(op.ops):
        painter.code.append(f"q {alpha(painter, op.opacity)}")
        painter.op(op.ops[0])
        painter.code.append("Q")
        return
    form = layer_form(painter, op)
    painter.code.append(f"q {alpha(painter, op.opacity)}")
    painter.do_form(form)
    painter.code.append("Q")


def layer_form(painter, op: Layer) -> str:
    """The transparency group of a layer, defined the first time it is drawn."""
    known = painter.layer_forms.get(id(op))
    if known is not None and known[0] is op:
        return known[1]
    painter.define_forms_in(op.ops)
    form = f"L{len(painter.layer_forms)}"
    painter.forms.add(form)
    with painter.defining(form, (-1000, -1000, 3000, 3000)):
        for inner in op.ops:
            painter.op(inner)
    adapter.transparency_group(painter.c, form)
    painter.layer_forms[id(op)] = (op, form)
    return form


def define_forms(painter, op: Layer | Shadow) -> None:
    """Define the forms a layer or a shadow draws, and those they use, before the form
    it is in (forms cannot nest while being defined)."""
    if painter.converter is not None:
        return  # CMYK files draw them flattened, without forms of their own
    if isinstance(op, Shadow):
        if op.blur <= 0:
            define_forms(painter, silhouette(painter, op))
    elif _painted_once(op.ops):
        painter.define_forms_in(op.ops)
    else:
        layer_form(painter, op)


def silhouette(painter, op: Shadow) -> Layer:
    """A hard shadow as a layer: its operations' shape in its colour, moved."""
    known = painter.silhouettes.get(id(op))
    if known is not None and known[0] is op:
        return known[1]
    moved = Transform((1, 0, 0, 1, op.dx, op.dy), tuple(recoloured(op.ops, op.colour)))
    made = Layer((moved,), op.opacity, op.where)
    painter.silhouettes[id(op)] = (op, made)
    return made


def recoloured(ops, colour) -> list:
    """Operations painted all in one colour: what their shadow is. A picture's is its
    box (or circle); icons and shadows cast none."""
    out: list = []
    for op in ops:
        if isinstance(op, SHAPES):
            fill = colour if (op.fill is not None or op.gradient is not None) else None
            stroke = colour if op.stroke is not None else None
            out.append(replace(op, fill=fill, stroke=stroke, gradient=None))
        elif isinstance(op, Text):
            outline = colour if op.outline is not None else None
            out.append(replace(op, colour=colour, outline=outline, tag=None))
        elif isinstance(op, Line):
            out.append(replace(op, stroke=colour))
        elif isinstance(op, Picture):
            if op.round:
                r = min(op.w, op.h) / 2
                out.append(Circle(op.x + op.w / 2, op.y + op.h / 2, r, fill=colour))
            else:
                out.append(Rect(op.x, op.y, op.w, op.h, fill=colour))
        elif isinstance(op, Transform):
            out.append(Transform(op.matrix, tuple(recoloured(op.ops, colour))))
        elif isinstance(op, Layer):
            out.extend(recoloured(op.ops, colour))
        elif isinstance(op, Use):
            out.extend(recoloured(op.face.ops, colour))
    return out


def shadow(painter, op: Shadow) -> None:
    """A drop shadow: hard, as a layer of its shape; blurred, as a soft-masked image."""
    if op.blur <= 0:
        painter.op(silhouette(painter, op))
        return
    if painter.converter is not None:
        from deckforge.render.pdf import flatten

        flatten.refuse(op, "has a blurred shadow")
    found = blurred(op)
    if found is None:
        return
    image, x, y, w, h = found
    painter.c.drawImage(ImageReader(image), x, y, w, h, mask="auto")


def blurred(op: Shadow):
    """A blurred shadow's image (RGBA, 300 dpi) and where it goes (x, y, w, h), or None
    when its operations have no shape."""
    from PIL import Image, ImageDraw, ImageFilter

    shapes = list(outlines(op.ops, (1, 0, 0, 1, 0, 0)))
    points = [p for shape in shapes for p in shape]
    if not points:
        return None
    margin = 3 * op.blur
    left = min(p[0] for p in points) - margin + op.dx
    bottom = min(p[1] for p in points) - margin + op.dy
    right = max(p[0] for p in points) + margin + op.dx
    top = max(p[1] for p in points) + margin + op.dy
    scale = SHADOW_SCALE
    size = (max(1, round((right - left) * scale)), max(1, round((top - bottom) * scale)))
    mask = Image.new("L", size, 0)
    draw = ImageDraw.Draw(mask)
    for shape in shapes:
        pixels = [((x + op.dx - left) * scale, (top - y - op.dy) * scale) for x, y in shape]
        draw.polygon(pixels, fill=255)
    mask = mask.filter(ImageFilter.GaussianBlur(op.blur * scale / 2))
    mask = mask.point(lambda v: round(v * op.opacity))
    colour = tuple(round(c * 255) for c in op.colour)
    image = Image.new("RGB", size, colour)
    image.putalpha(mask)
    return image, left, bottom, right - left, top - bottom


def outlines(ops, matrix):
    """Each shape among the operations as a polygon in the face's coordinates."""
    for op in ops:
        if isinstance(op, Transform):
            yield from outlines(op.ops, mul(op.matrix, matrix))
        elif isinstance(op, Layer):
            yield from outlines(op.ops, matrix)
        elif isinstance(op, Use):
            yield from outlines(op.face.ops, matrix)
        elif not isinstance(op, (Text, Line, Icon)):  # a text's shadow is hard
            points = corners(op)
            if points:
                yield [apply(matrix, *p) for p in points]


def corners(op) -> list[tuple[float, float]]:
    """A shape's outline as points (curves as short straight lines)."""
    if isinstance(op, Polygon):
        return list(op.points)
    if isinstance(op, Circle):
        return _arc(op.cx, op.cy, op.r, op.r, 0, 2 * pi, 48)
    if isinstance(op, Ellipse):
        return _arc(op.x + op.w / 2, op.y + op.h / 2, op.w / 2, op.h / 2, 0, 2 * pi, 48)
    if isinstance(op, Picture) and op.round:
        r = min(op.w, op.h) / 2
        return _arc(op.x + op.w / 2, op.y + op.h / 2, r, r, 0, 2 * pi, 48)
    if isinstance(op, Rect) and op.radius:
        r, x, y, w, h = op.radius, op.x, op.y, op.w, op.h
        out: list = []
        for cx, cy, start in (
            (x + w - r, y + r, -pi / 2),
            (x + w - r, y + h - r, 0),
            (x + r, y + h - r, pi / 2),
            (x + r, y + r, pi),
        ):
            out += _arc(cx, cy, r, r, start, start + pi / 2, 8)
        return out
    if isinstance(op, (Rect, Picture, Icon)):
        return [(op.x, op.y), (op.x + op.w, op.y), (op.x + op.w, op.y + op.h), (op.x, op.y + op.h)]
    if isinstance(op, Text):
        bottom = op.top - op.fitted.height
        return [(op.x, bottom), (op.x + op.w, bottom), (op.x + op.w, op.top), (op.x, op.top)]
    if isinstance(op, Line):
        return [(op.x1, op.y1), (op.x2, op.y2)]
    return []


def _arc(cx, cy, rx, ry, start, end, steps) -> list[tuple[float, float]]:
    return [
        (
            cx + rx * cos(start + (end - start) * i / steps),
            cy + ry * sin(start + (end - start) * i / steps),
        )
        for i in range(steps + 1)
    ]
