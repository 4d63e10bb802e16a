"""Transparency flattened into flat colours, for files without it (PDF/X-1a, CMYK).

A translucent layer (an element's or a group's opacity, a hard shadow) of flat colours
over flat-filled shapes is mixed before it is written, exactly and as vectors: each part
of the layer is painted once over the paper in its colour mixed with white, and once
more inside each shape beneath it (clipped to that shape) in its colour mixed with that
shape's; painted in the order the shapes were, every point ends in the colour the layer
would have made. What was mixed is a flat shape beneath the next layer in its turn.

What cannot be flattened so (a translucent picture or icon, a gradient under opacity or
beneath it, a blurred shadow, translucency over text, a picture or an outline) is
refused with a message at the element's place rather than drawn as an image: an image
of that area would turn its vector edges and any text in it into pixels, and its seam
with the vectors beside it shows in print.
"""

from __future__ import annotations

from dataclasses import replace

from reportlab.lib.rl_accel import fp_str

from deckforge.drawing.ops import (
    WHITE,
    Circle,
    Face,
    Layer,
    Line,
    Picture,
    Rect,
    Shadow,
    Text,
    Transform,
    Use,
    apply,
    mix,
    mul,
)
from deckforge.errors import DeckforgeError, Problem, Refused, SourceRef
from deckforge.render.pdf import effects
from deckforge.render.pdf.effects import SHAPES, corners

_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
Box = tuple[float, float, float, float]


def refuse(op: Layer | Shadow, what: str) -> None:
    """Stop the file: the element of ``op`` cannot be written without transparency."""
    message = (
        f"this element {what}, and PDF/X-1a (printer-cmyk) has no transparency: only "
        "flat colours over flat-filled shapes can be mixed into flat colours. Make it "
        "opaque (or its shadow hard), or print it from the printer profile (PDF/X-4), "
        "which keeps transparency"
    )
    if isinstance(op.where, SourceRef):
        raise Refused(Problem(op.where, message))
    raise DeckforgeError(message)


def has_effects(painter, face: Face) -> bool:
    """Whether a face (or a face it uses) holds a layer or a shadow."""
    if face.key is None:
        return _any(painter, face.ops)
    known = painter.effect_faces.get(face.key)
    if known is None:
        known = painter.effect_faces[face.key] = _any(painter, face.ops)
    return known


def _any(painter, ops) -> bool:
    for op in ops:
        kind = type(op)
        if kind is Layer or kind is Shadow:
            return True
        if kind is Transform and _any(painter, op.ops):
            return True
        if kind is Use and has_effects(painter, op.face):
            return True
    return False


def refusal(face: Face) -> Problem | None:
    """What PDF/X-1a would refuse of a face (the first thing), found without writing it:
    what ``deckforge validate`` says before a build finds it."""
    checking = _Nothing()
    if not has_effects(checking, face):
        return None
    try:
        _Check(checking).walk(face.ops, _IDENTITY)
    except Refused as exc:
        return exc.problem
    return None


def draw_face(painter, face: Face) -> None:
    """A face drawn with its layers and shadows mixed into flat colours (the faces it
    uses drawn into it, so that what lies beneath each layer is known)."""
    _Flattener(painter).walk(face.ops, _IDENTITY)


class _Flattener:
    def __init__(self, painter):
        self.painter = painter
        #: Flat areas drawn so far, in order: (clips, colour, bounds); a clip is a shape
        #: under its matrix, and the area is inside all of its clips.
        self.backdrop: list[tuple[tuple, tuple, Box]] = []
        #: What layers cannot be mixed over: (bounds, what it is).
        self.blockers: list[tuple[Box, str]] = []

    def walk(self, ops, matrix) -> None:
        for op in ops:
            if isinstance(op, Transform):
                self.walk(op.ops, mul(op.matrix, matrix))
            elif isinstance(op, Use):
                self.walk(op.face.ops, matrix)
            elif isinstance(op, Layer | Shadow):
                if isinstance(op, Shadow):
                    if op.blur > 0:
                        refuse(op, "has a blurred shadow")
                    op = effects.silhouette(self.painter, op)
                if op.opacity >= 1:  # an opaque layer (a hard shadow) is drawn as it is
                    self.walk(op.ops, matrix)
                else:
                    self.layer(op, matrix)
            else:
                self.draw(op, matrix)
                self.note(op, matrix)

    def draw(self, op, matrix, clips: tuple = ()) -> None:
        """Draw one operation under a matrix, inside clips."""
        code = self.painter.code
        code.append("q")
        for clip_matrix, shape in clips:
            code.append(f"{fp_str(*clip_matrix)} cm")
            effects.clip(self.painter, shape)
            code.append(f"{fp_str(*_inverse(clip_matrix))} cm")
        if matrix != _IDENTITY:
            code.append(f"{fp_str(*matrix)} cm")
        self.painter.op(op)
        code.append("Q")

    def note(self, op, matrix) -> None:
        """Remember what an opaque operation leaves beneath what follows."""
        box = bounds(op, matrix)
        if not isinstance(op, SHAPES):
            self.blockers.append((box, _what(op)))
            return
        if op.gradient is not None:
            self.blockers.append((box, "a gradient"))
        elif op.fill is not None:
            self.backdrop.append((((matrix, replace(op, stroke=None)),), op.fill, box))
        if op.stroke is not None:
            ring = _ring(op)
            if ring is None:
                self.blockers.append((box, "an outline"))
            else:
                self.backdrop.append((((matrix, ring),), op.stroke, box))

    def layer(self, op: Layer, matrix) -> None:
        """A translucent layer, mixed with what lies beneath it."""
        items = self.items(op, op.ops, matrix, op.opacity, id(op))
        for index, (m, item, amount, part) in enumerate(items):
            if amount < op.opacity:
                box = bounds(item, m)
                earlier = (bounds(i, im) for im, i, _, p in items[:index] if p != part)
                if any(_meet(box, other) for other in earlier):
                    refuse(op, "has a translucent part over another of its parts")
        whole = _union([bounds(item, m) for m, item, _, _ in items])
        for box, what in self.blockers:
            if _meet(box, whole):
                refuse(op, f"is translucent over {what}")
        base = list(self.backdrop)
        for m, item, amount, _ in items:
            colour = _colour(item)
            box = bounds(item, m)
            # The area it paints, as a clip: a fill's shape, an outline's ring.
            area = None
            if isinstance(item, SHAPES):
                area = item if item.fill is not None else _ring(item)
            mixed = mix(WHITE, colour, amount)
            self.draw(_painted(item, mixed), m)
            if area is not None:
                self.backdrop.append((((m, area),), mixed, box))
            else:
                self.blockers.append((box, _what(item)))
            for clips, under, under_box in base:
                if not _meet(box, under_box):
                    continue
                mixed = mix(under, colour, amount)
                self.draw(_painted(item, mixed), m, clips)
                if area is not None:
                    self.backdrop.append(((*clips, (m, area)), mixed, _cut(box, under_box)))

    def items(self, layer: Layer, ops, matrix, amount: float, part: int) -> list:
        """The flat parts of a layer, in order: (matrix, operation of one colour, how
        much of its colour it gives, which layer inside it it belongs to)."""
        out: list = []
        for op in ops:
            if isinstance(op, Transform):
                inner = mul(op.matrix, matrix)
                out += self.items(layer, op.ops, inner, amount, part)
            elif isinstance(op, Use):
                out += self.items(layer, op.face.ops, matrix, amount, part)
            elif isinstance(op, Layer):
                out += self.items(layer, op.ops, matrix, amount * op.opacity, id(op))
            elif isinstance(op, Shadow):
                if op.blur > 0:
                    refuse(layer, "has a blurred shadow")
                shadow = (effects.silhouette(self.painter, op),)
                out += self.items(layer, shadow, matrix, amount, part)
            elif isinstance(op, SHAPES):
                if op.gradient is not None:
                    refuse(layer, "has a gradient under opacity")
                if op.fill is not None:
                    out.append((matrix, replace(op, stroke=None), amount, part))
                if op.stroke is not None:
                    out.append((matrix, replace(op, fill=None), amount, part))
            elif isinstance(op, Text) and op.outline in (None, op.colour) and not op.inline_icons():
                out.append((matrix, op, amount, part))
            elif isinstance(op, Line):
                out.append((matrix, op, amount, part))
            else:
                refuse(layer, f"is translucent and holds {_what(op)}")
        return out


class _Nothing:
    """What the flattener asks of a painter while nothing is written."""

    def __init__(self):
        self.silhouettes: dict = {}
        self.effect_faces: dict = {}


class _Check(_Flattener):
    """A flattener that only finds what it would refuse."""

    def draw(self, op, matrix, clips: tuple = ()) -> None:
        pass


def _ring(op):
    """The area a solid outline paints, as the pair of shapes it lies between (filled
    even-odd): exact for rectangles, rounded or not, and circles; None for others."""
    if op.dash:
        return None
    half = op.line_width / 2
    if isinstance(op, Rect):
        outer = Rect(
            op.x - half,
            op.y - half,
            op.w + 2 * half,
            op.h + 2 * half,
            radius=op.radius + half if op.radius else 0.0,
        )
        if op.w <= 2 * half or op.h <= 2 * half:
            return (outer,)
        inner = Rect(
            op.x + half,
            op.y + half,
            op.w - 2 * half,
            op.h - 2 * half,
            radius=max(op.radius - half, 0.0),
        )
        return (outer, inner)
    if isinstance(op, Circle):
        outer = Circle(op.cx, op.cy, op.r + half)
        return (outer, Circle(op.cx, op.cy, op.r - half)) if op.r > half else (outer,)
    return None


def _colour(op) -> tuple:
    if isinstance(op, Text):
        return op.colour
    if isinstance(op, Line):
        return op.stroke
    return op.fill if op.fill is not None else op.stroke


def _painted(op, colour):
    """An operation of one colour in another."""
    if isinstance(op, Text):
        return replace(op, colour=colour, outline=None if op.outline is None else colour)
    if isinstance(op, Line):
        return replace(op, stroke=colour)
    if op.fill is not None:
        return replace(op, fill=colour)
    return replace(op, stroke=colour)


def _what(op) -> str:
    if isinstance(op, Text):
        return "text"
    if isinstance(op, Picture):
        return "a picture"
    if isinstance(op, SHAPES) and op.gradient is not None:
        return "a gradient"
    if isinstance(op, Line):
        return "a line"
    return "an icon"


def bounds(op, matrix) -> Box:
    """An operation's bounds in the face's coordinates (left, bottom, right, top)."""
    points = [apply(matrix, *p) for p in corners(op)]
    if not points:
        return (0.0, 0.0, 0.0, 0.0)
    grow = getattr(op, "line_width", 0.0) / 2 if getattr(op, "stroke", None) is not None else 0.0
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow)


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _cut(a: Box, b: Box) -> Box:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _union(boxes: list[Box]) -> Box:
    if not boxes:
        return (0.0, 0.0, 0.0, 0.0)
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _inverse(m):
    a, b, c, d, e, f = m
    det = a * d - b * c
    ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
    return (ia, ib, ic, id_, -(e * ia + f * ic), -(e * ib + f * id_))
