"""What an element's paint adds to its shape, compiled once per deck: its ``opacity``,
its drop ``shadow`` and a shape's ``gradient`` fill.

An element with neither opacity nor shadow compiles to nothing here and draws as it
always did; one with either wraps its operations in a
:class:`~deckforge.drawing.ops.Layer` (made translucent as one) and puts a
:class:`~deckforge.drawing.ops.Shadow` of them beneath.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import cos, radians, sin
from typing import TYPE_CHECKING

from deckforge.drawing.ops import Gradient, Layer, Shadow
from deckforge.templates.bind import Field, Scope
from deckforge.templates.colours import Colour
from deckforge.templates.lengths import Box
from deckforge.templates.spec import Spec

if TYPE_CHECKING:
    from deckforge.templates.compile import Compiler
    from deckforge.templates.geometry import Place

_LENGTH = {"$ref": "#/$defs/length"}
_COLOUR = {"$ref": "#/$defs/colour"}
_POINT = {"type": "array", "items": _LENGTH, "minItems": 2, "maxItems": 2}

#: The ``gradient`` key of shapes, as JSON Schema.
GRADIENT = {
    "description": "A fill that changes colour, instead of 'fill': linear (along 'angle' "
    "in degrees, 0 left to right and 90 top to bottom, or 'from' one point 'to' another) "
    "or radial (out from 'centre' to 'radius'); 'stops' give colours at offsets 0–1. "
    "Points and the radius are measured in the shape's box.",
    "type": "object",
    "additionalProperties": False,
    "required": ["stops"],
    "properties": {
        "type": {"description": "linear (default) or radial.", "enum": ["linear", "radial"]},
        "angle": {"description": "Linear: the direction, in degrees.", "type": "number"},
        "from": {**_POINT, "description": "Linear: where the first stop is, [x, y]."},
        "to": {**_POINT, "description": "Linear: where the last stop is, [x, y]."},
        "centre": {**_POINT, "description": "Radial: the centre (default the box's)."},
        "radius": {
            **_LENGTH,
            "description": "Radial: a length, where the last stop is (default half "
            "the box's shorter side).",
        },
        "stops": {
            "description": "Colours along the gradient, offsets in order.",
            "type": "array",
            "minItems": 2,
            "maxItems": 16,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["offset", "colour"],
                "properties": {
                    "offset": {
                        "description": "Where: 0 at the start, 1 at the end.",
                        "type": "number",
                        "minimum": 0,
                        "maximum": 1,
                    },
                    "colour": {**_COLOUR, "description": "The colour there."},
                },
            },
        },
    },
}

#: The ``shadow`` key every element takes, as JSON Schema.
SHADOW = {
    "description": "A drop shadow beneath it: moved by x and y (default 1pt, 1pt), "
    "softened by blur (default 0, a hard shadow), in colour (default black) at opacity "
    "(default 0.5). Text's shadow is hard.",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "x": {**_LENGTH, "description": "A length: how far right (default 1pt)."},
        "y": {**_LENGTH, "description": "A length: how far down (default 1pt)."},
        "blur": {**_LENGTH, "description": "A length: the blur's radius (0, a hard shadow)."},
        "colour": {**_COLOUR, "description": "Its colour (default black)."},
        "opacity": {
            "description": "How opaque, 0–1 (default 0.5).",
            "type": "number",
            "minimum": 0,
            "maximum": 1,
        },
    },
}


@dataclass(frozen=True, eq=False)
class GradientSpec:
    """A shape's gradient, compiled: its kind, points in the shape's coordinates and
    its stops' offsets and colours."""

    kind: str
    points: tuple[float, ...]
    stops: tuple[tuple[float, Colour], ...]

    @property
    def fields(self) -> tuple[Field, ...]:
        """The card fields its colours bind."""
        return tuple(f for _, colour in self.stops for f in colour.fields)

    def of(self, scope: Scope) -> Gradient:
        """The gradient on one card."""
        stops = tuple((offset, colour.of(scope)) for offset, colour in self.stops)
        return Gradient(self.kind, self.points, stops)


@dataclass(frozen=True, eq=False)
class Effects:
    """An element's opacity and shadow, compiled."""

    opacity: float
    shadow: tuple[float, float, float, Colour, float] | None
    where: object

    @property
    def fields(self) -> tuple[Field, ...]:
        """The card fields its shadow's colour binds."""
        return self.shadow[3].fields if self.shadow else ()

    def apply(self, ops: list, scope: Scope) -> list:
        """The element's operations with its shadow beneath and its opacity over both."""
        if self.shadow is not None:
            dx, dy, blur, colour, opacity = self.shadow
            shadow = Shadow(tuple(ops), dx, -dy, colour.of(scope), opacity, blur, self.where)
            ops = [shadow, *ops]
        if self.opacity < 1:
            return [Layer(tuple(ops), self.opacity, self.where)]
        return ops


def _inner(spec: Spec, path: str, data: dict) -> Spec:
    """The mapping at ``path`` (``gradient``, ``gradient.stops.1``) as a spec of its own,
    each key where it was written (or, when that is not known, where the key was)."""
    origin = spec.origins.get(path) or spec.folder(path.partition(".")[0])
    return Spec(data, {key: spec.origins.get(f"{path}.{key}", origin) for key in data}, origin)


def compile_effects(spec: Spec, compiler: Compiler, place: Place) -> Effects | None:
    """An element's ``opacity`` and ``shadow`` (None when it has neither)."""
    opacity = float(spec.data.get("opacity", 1))
    found = spec.data.get("shadow")
    if opacity >= 1 and found is None:
        return None
    shadow = None
    if isinstance(found, dict):
        box = Box(place.w, place.h)
        sub = _inner(spec, "shadow", found)

        def length(key: str, default: float) -> float:
            if key not in found:
                return default
            value = compiler.length(sub, key, "", box, default)
            if value < 0 and key == "blur":
                compiler.problem(spec, "shadow", "a shadow's blur cannot be negative")
                return 0.0
            return value

        blur = length("blur", 0.0)
        if blur > 0 and spec.data.get("type") == "text":
            compiler.problem(
                spec, "shadow", "a text's shadow is hard: leave out 'blur' or give it 0"
            )
        colour = compiler.colour(sub, "colour") if "colour" in found else None
        shadow = (
            length("x", 1.0),
            length("y", 1.0),
            blur,
            colour or compiler.colours.compile("black"),
            float(found.get("opacity", 0.5)),
        )
    return Effects(opacity, shadow, spec.origin.ref)


def compile_gradient(spec: Spec, compiler: Compiler, place: Place) -> GradientSpec | None:
    """A shape's ``gradient``, in the coordinates of its box (None when it has none)."""
    found = spec.data.get("gradient")
    if not isinstance(found, dict):
        return None
    if "fill" in spec.data:
        compiler.problem(spec, "gradient", "give 'fill' or 'gradient', not both")
    box = Box(place.w, place.h)
    sub = _inner(spec, "gradient", found)

    def point(key: str, default: tuple[float, float]) -> tuple[float, float]:
        """A point measured from the box's top-left corner, as PDF coordinates."""
        if key not in found:
            x, y = default
        else:
            pair = _inner(spec, f"gradient.{key}", {"0": found[key][0], "1": found[key][1]})
            x = compiler.length(pair, "0", "w", box)
            y = compiler.length(pair, "1", "h", box)
        if place.mirrored:
            x = place.w - x
        return place.x + x, place.y + place.h - y

    stops: list[tuple[float, Colour]] = []
    last = 0.0
    for index, stop in enumerate(found.get("stops", ())):
        colour = compiler.colour(_inner(spec, f"gradient.stops.{index}", stop), "colour")
        offset = float(stop.get("offset", 0))
        if offset < last:
            message = f"gradient stop {index + 1}'s offset {offset:g} is before the one before it"
            compiler.problem(spec, "gradient", message)
        last = max(last, offset)
        if colour is not None:
            stops.append((offset, colour))
    centre = (place.w / 2, place.h / 2)
    if found.get("type", "linear") == "radial":
        cx, cy = point("centre", centre)
        radius = compiler.length(sub, "radius", "", box, min(place.w, place.h) / 2)
        return GradientSpec("radial", (cx, cy, radius), tuple(stops))
    if "from" in found or "to" in found:
        x0, y0 = point("from", (0.0, centre[1]))
        x1, y1 = point("to", (place.w, centre[1]))
    else:
        # Along the angle through the box's centre, far enough to reach its corners.
        angle = radians(float(found.get("angle", 0)))
        dx, dy = cos(angle), -sin(angle)
        if place.mirrored:
            dx = -dx
        half = (abs(place.w * dx) + abs(place.h * dy)) / 2
        cx, cy = place.x + centre[0], place.y + centre[1]
        x0, y0, x1, y1 = cx - half * dx, cy - half * dy, cx + half * dx, cy + half * dy
    return GradientSpec("linear", (x0, y0, x1, y1), tuple(stops))
