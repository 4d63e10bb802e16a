"""Where an element goes: its box on the card, measured as designers measure.

Positions are measured from the top-left corner of a reference box, ``y`` downwards:
the trim (the default), the ``safe`` area or the ``bleed``; inside a group, from the
group's box. Horizontally an element gives any two of ``x``, ``w`` and ``right`` (an
inset from the reference box's right edge), vertically two of ``y``, ``h`` and ``bottom``;
``size`` sets ``w`` and ``h`` at once, and ``anchor`` says which point of the box ``x``
and ``y`` place (``top-left`` unless it says ``centre``, ``top``…). With ``bleed: true``
the sides of a box that lie on the trim reach out to the bleed's edge.

``rotation`` (clockwise, in degrees) turns what the element draws. A quarter or half turn
about the centre (90, 180, 270) turns the content inside its box: the box is where it
lands on the card, and at 90 and 270 its content is laid out across the box's height.
Any other angle, or any angle with a ``pivot``, turns the box itself, as laid out, about
its centre or the point ``pivot`` names (an anchor's name: ``bottom``, ``top-left``…).
Right-to-left editions mirror every box across its parent (and turn rotations the other
way) unless the element says ``mirror: false``; text stays readable, pictures are not
flipped.

Everything here is worked out once per deck, when a template is compiled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import cos, radians, sin
from typing import TYPE_CHECKING

from deckforge.drawing.ops import Matrix
from deckforge.templates.lengths import Box, LengthError, length

if TYPE_CHECKING:
    from deckforge.drawing.outline import Outline

ANCHORS = {
    "top-left": (0.0, 0.0),
    "top": (0.5, 0.0),
    "top-right": (1.0, 0.0),
    "left": (0.0, 0.5),
    "centre": (0.5, 0.5),
    "right": (1.0, 0.5),
    "bottom-left": (0.0, 1.0),
    "bottom": (0.5, 1.0),
    "bottom-right": (1.0, 1.0),
}
#: cos and sin of the clockwise rotations a template may ask for.
_TURNS = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}
_EPSILON = 1e-6


@dataclass(frozen=True, eq=False)
class Card:
    """The card a template is compiled for: trim size, safe inset and bleed, in points,
    and its cut shape (None: a plain rectangle)."""

    w: float
    h: float
    safe: float
    bleed: float
    outline: Outline | None = None

    def reference(self, name: str) -> tuple[float, float, float, float]:
        """A reference box (``trim``, ``safe`` or ``bleed``) as x, y (from the top), w, h."""
        if name == "safe":
            return self.safe, self.safe, self.w - 2 * self.safe, self.h - 2 * self.safe
        if name == "bleed":
            return -self.bleed, -self.bleed, self.w + 2 * self.bleed, self.h + 2 * self.bleed
        return 0.0, 0.0, self.w, self.h


#: Points a box may reach past the bleed before it is a problem (rounding of lengths).
_PAST = 0.01
#: Points in a millimetre.
MM = 72 / 25.4


@dataclass(frozen=True, eq=False)
class Frame:
    """Where children are measured: a box of ``w`` × ``h`` whose lower-left corner is at
    (``ox``, ``oy``) in the coordinates the children draw in. ``card`` is set for the card
    itself (reference boxes and bleed apply there); ``mirror`` when boxes in it mirror."""

    w: float
    h: float
    ox: float = 0.0
    oy: float = 0.0
    mirror: bool = False
    card: Card | None = None


@dataclass(frozen=True, eq=False)
class Place:
    """An element's box in the coordinates it draws in (PDF points, y up), the matrix that
    takes those to its parent's (None when it is not rotated), and whether it is mirrored."""

    x: float
    y: float
    w: float
    h: float
    matrix: Matrix | None = None
    mirrored: bool = False

    @property
    def top(self) -> float:
        """The box's top edge."""
        return self.y + self.h


class GeometryError(ValueError):
    """A box that cannot be worked out; ``key`` names the property at fault."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


def _axis(
    spec: Mapping[str, object],
    keys: tuple[str, str, str],
    extent: float,
    anchor: float,
    box: Box,
    axis: str,
    names: Mapping[str, float],
) -> tuple[float, float]:
    """Start and size along one axis from two of (position, size, far inset)."""
    values: dict[str, float] = {}
    for key in keys:
        if key in spec:
            try:
                values[key] = length(spec[key], axis, box, names)
            except LengthError as exc:
                raise GeometryError(key, str(exc)) from None
    position, size, inset = keys
    if len(values) == 3:
        raise GeometryError(inset, f"give two of {', '.join(keys)}, not all three")
    if size in values:
        if inset in values and position not in values:
            start = extent - values[inset] - values[size]
        else:
            start = values.get(position, 0.0) - anchor * values[size]
        return start, values[size]
    start = values.get(position, 0.0)
    return start, extent - values.get(inset, 0.0) - start


def place(
    spec: Mapping[str, object], frame: Frame, names: Mapping[str, float], rotation: float
) -> Place:
    """The box of an element in a frame, with its rotation and mirroring."""
    if "size" in spec:
        spec = {**spec, "w": spec["size"], "h": spec["size"]}
    reference = "trim"
    if "from" in spec:
        if frame.card is None:
            raise GeometryError("from", "'from' measures from the card; in a group, leave it out")
        reference = str(spec["from"])
    left, top, width, height = (
        frame.card.reference(reference) if frame.card else (0.0, 0.0, frame.w, frame.h)
    )
    box = Box(width, height)
    ax, ay = ANCHORS[str(spec.get("anchor", "top-left"))]
    x, w = _axis(spec, ("x", "w", "right"), width, ax, box, "w", names)
    y, h = _axis(spec, ("y", "h", "bottom"), height, ay, box, "h", names)
    x, y = x + left, y + top
    if w < -_EPSILON or h < -_EPSILON:
        raise GeometryError("w" if w < 0 else "h", "the box has a negative size")
    if spec.get("bleed") and frame.card is not None:
        x, y, w, h = _to_bleed(x, y, w, h, frame.card)
    mirrored = frame.mirror and spec.get("mirror", True) is not False
    pivot = spec.get("pivot")
    if mirrored:
        x = frame.w - x - w
        rotation = -rotation
        if pivot is not None:
            pivot = _MIRRORED_PIVOT.get(str(pivot), pivot)
    rotation = rotation % 360
    px, py = frame.ox + x, frame.oy + frame.h - y - h
    if rotation == 0:
        return Place(px, py, w, h, None, mirrored)
    if pivot is None and rotation in _TURNS:
        return _quarter_turned(px, py, w, h, int(rotation), mirrored)
    # The box turned as laid out, about its pivot (y up here, so anchors' y flips).
    fx, fy = ANCHORS[str(pivot or "centre")]
    ox, oy = px + fx * w, py + (1 - fy) * h
    c, s = cos(radians(rotation)), sin(radians(rotation))
    matrix = (c, -s, s, c, ox - c * ox - s * oy, oy + s * ox - c * oy)
    return Place(px, py, w, h, matrix, mirrored)


#: A pivot's mirror image across a vertical line.
_MIRRORED_PIVOT = {
    "top-left": "top-right",
    "top-right": "top-left",
    "left": "right",
    "right": "left",
    "bottom-left": "bottom-right",
    "bottom-right": "bottom-left",
}


def _quarter_turned(px: float, py: float, w: float, h: float, rotation: int, mirrored: bool):
    """A box whose content is turned by a multiple of 90° inside it, about its centre:
    the content is laid out across the box's height at 90 and 270."""
    lw, lh = (w, h) if rotation == 180 else (h, w)
    cos_, sin_ = _TURNS[rotation]
    cx, cy = px + w / 2, py + h / 2
    matrix = (
        cos_,
        -sin_,
        sin_,
        cos_,
        cx - lw / 2 * cos_ - lh / 2 * sin_,
        cy + lw / 2 * sin_ - lh / 2 * cos_,
    )
    return Place(0.0, 0.0, lw, lh, matrix, mirrored)


def past_bleed(box: Place, card: Card) -> list[tuple[str, str]]:
    """Where an element's box on the card leaves its bleed, which the cutter trims off:
    (the key that places that side, what is wrong) for each way it does."""
    corners = [(box.x, box.y), (box.x + box.w, box.y), (box.x, box.top), (box.x + box.w, box.top)]
    if box.matrix is not None:
        a, b, c, d, e, f = box.matrix
        corners = [(a * x + c * y + e, b * x + d * y + f) for x, y in corners]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    edge = card.bleed + _PAST
    past = [
        ("x", "left", -edge - min(xs)),
        ("x", "right", max(xs) - card.w - edge),
        ("y", "top", max(ys) - card.h - edge),
        ("y", "bottom", -edge - min(ys)),
    ]
    bleed = f"{card.bleed / MM:.3g} mm"
    return [
        (
            key,
            f"the box reaches {(over + _PAST) / MM:.3g} mm past the card's bleed on the "
            f"{side} (the bleed is {bleed} past the trim); what is drawn there is cut off",
        )
        for key, side, over in past
        if over > 0
    ]


def _to_bleed(x: float, y: float, w: float, h: float, card: Card) -> tuple[float, ...]:
    """Sides lying on the trim pushed out to the bleed's edge."""
    right, bottom = x + w, y + h
    if abs(x) < _EPSILON:
        x -= card.bleed
    if abs(y) < _EPSILON:
        y -= card.bleed
    if abs(right - card.w) < _EPSILON:
        right += card.bleed
    if abs(bottom - card.h) < _EPSILON:
        bottom += card.bleed
    return x, y, right - x, bottom - y


def inner(place_: Place, mirror: bool) -> Frame:
    """The frame a group's children are measured in."""
    return Frame(place_.w, place_.h, place_.x, place_.y, mirror)
