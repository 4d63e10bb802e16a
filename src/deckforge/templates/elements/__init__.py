"""The element types of templates: one module each, registered by their ``type``.

An element type is a subclass of :class:`Element` naming its ``type`` and the JSON
Schema of its own ``keys``; ``compile`` reads its keys once per deck and ``ops`` draws it
on one card. The keys every element takes (its name, box, rotation, conditions) are
handled here. Adding an element type is adding a module to this package: it is imported
and registered with the rest, and ``template.schema.json`` is generated from the registry
(``python -m deckforge.templates.schema``).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from deckforge.drawing.ops import RGB, Transform
from deckforge.errors import SourceRef
from deckforge.templates import effects
from deckforge.templates.bind import Field, Scope, is_set, raw
from deckforge.templates.colours import Colour
from deckforge.templates.geometry import ANCHORS, Frame, Place
from deckforge.templates.lengths import Box
from deckforge.templates.spec import Spec

if TYPE_CHECKING:
    from deckforge.templates.compile import Compiler
    from deckforge.templates.computed import Test

#: Element types by name, filled as the modules of this package are imported.
REGISTRY: dict[str, type[Element]] = {}

_LENGTH = {"$ref": "#/$defs/length"}
_COLOUR = {"$ref": "#/$defs/colour"}
_CONDITION = {"$ref": "#/$defs/condition"}

#: Keys every element takes, as JSON Schema.
COMMON_KEYS: dict[str, dict] = {
    "name": {
        "description": "The element's name: what a template extending this one changes it by.",
        "type": "string",
        "minLength": 1,
        "maxLength": 64,
    },
    "type": {"description": "What the element is.", "enum": []},
    "when": {**_CONDITION, "description": "Draw it only on cards where this holds."},
    "unless": {**_CONDITION, "description": "Draw it only on cards where this does not hold."},
    "from": {
        "description": "The box x and y are measured from: the trim (default), the safe "
        "area or the bleed. Only for the card's own elements, not a group's.",
        "enum": ["trim", "safe", "bleed"],
    },
    "x": {**_LENGTH, "description": "From the left of the reference box."},
    "y": {**_LENGTH, "description": "From the top of the reference box."},
    "w": {**_LENGTH, "description": "Width."},
    "h": {**_LENGTH, "description": "Height."},
    "size": {**_LENGTH, "description": "Width and height at once."},
    "right": {**_LENGTH, "description": "Inset of the right edge from the box's right."},
    "bottom": {**_LENGTH, "description": "Inset of the bottom edge from the box's bottom."},
    "anchor": {
        "description": "The point of the element that x and y place.",
        "enum": list(ANCHORS),
    },
    "rotation": {
        "description": "Clockwise turn in degrees. 90, 180 and 270 turn what is drawn "
        "inside the box (at 90 and 270 laid out across its height); any other angle, or "
        "any with a pivot, turns the box itself about its centre or its pivot.",
        "type": "number",
        "minimum": -360,
        "maximum": 360,
    },
    "pivot": {
        "description": "The point of the box a rotation turns it about (default centre).",
        "enum": list(ANCHORS),
    },
    "opacity": {
        "description": "How opaque it is, 0–1 (default 1): a group is made translucent as "
        "a whole. In printer-cmyk (PDF/X-1a) only flat colours over flat colours.",
        "type": "number",
        "minimum": 0,
        "maximum": 1,
    },
    "shadow": effects.SHADOW,
    "bleed": {
        "description": "Sides that lie on the trim reach out to the bleed's edge.",
        "type": "boolean",
    },
    "mirror": {
        "description": "Whether right-to-left editions mirror it (default true).",
        "type": "boolean",
    },
    "before": {"description": "Put a new element before this one.", "type": "string"},
    "after": {"description": "Put a new element after this one.", "type": "string"},
    "remove": {"description": "Drop an inherited element of this name.", "const": True},
}

#: A whole number written out (``3``) or bound to a card's field (``"{lines}"``).
WHOLE = {"type": ["integer", "string"], "minimum": 0, "maximum": 1000000, "maxLength": 64}

#: Fill and outline, for shapes.
PAINT_KEYS: dict[str, dict] = {
    "fill": {**_COLOUR, "description": "The colour inside."},
    "stroke": {**_COLOUR, "description": "The colour of the outline."},
    "stroke_width": {**_LENGTH, "description": "The outline's width (default 0.5pt)."},
    "dash": {
        "description": "A dashed outline: lengths drawn and skipped, like [3pt, 2pt].",
        "type": "array",
        "items": _LENGTH,
        "minItems": 1,
        "maxItems": 8,
    },
}

#: Paint and a gradient fill, for closed shapes (rectangles, ellipses, polygons).
SHAPE_KEYS: dict[str, dict] = {**PAINT_KEYS, "gradient": effects.GRADIENT}

#: The outline alone, for lines.
STROKE_KEYS: dict[str, dict] = {key: value for key, value in PAINT_KEYS.items() if key != "fill"}


class CardError(Exception):
    """Something one card's data makes impossible to draw, at the place of that data."""

    def __init__(self, ref: SourceRef, message: str):
        super().__init__(message)
        self.ref = ref


@dataclass(frozen=True, eq=False)
class Condition:
    """``when``/``unless``: a field is set, or equals one of some values."""

    field: Field
    values: tuple[str, ...] | None = None
    negate: bool = False

    @property
    def fields(self) -> tuple[Field, ...]:
        """The fields it reads (an expression's may be several)."""
        return (self.field,)

    def holds(self, scope: Scope) -> bool:
        """Whether the condition holds on a card."""
        value = scope.value(self.field)
        if self.values is None:
            result = is_set(value)
        else:
            found = raw(value)
            result = found is not None and str(found) in self.values
        return result != self.negate


@dataclass(frozen=True, eq=False)
class Whole:
    """A key holding a whole number (a count, a seed), written out or bound to a card's
    field (``"{lines}"``), compiled."""

    field: Field | None
    value: int | None
    ref: SourceRef

    def of(self, scope: Scope) -> int | None:
        """The number on one card (None where its field is not set); CardError, at the
        value's place, where the field holds something else."""
        if self.field is None:
            return self.value
        value = scope.value(self.field)
        found = raw(value)
        if found is None or found == "":
            return None
        try:
            if isinstance(found, bool) or (isinstance(found, float) and not found.is_integer()):
                raise ValueError
            return int(found) if isinstance(found, (int, float)) else int(str(found).strip())
        except ValueError:
            where = getattr(value, "ref", None) or self.ref
            raise CardError(
                where, f"'{{{self.field.name}}}' is {found!r}, not a whole number"
            ) from None


@dataclass(frozen=True, eq=False)
class Paint:
    """A shape's fill, outline colour, outline width and dash, and its gradient (a
    :class:`deckforge.templates.effects.GradientSpec`), compiled."""

    fill: Colour | None
    stroke: Colour | None
    width: float
    dash: tuple[float, ...]
    gradient: effects.GradientSpec | None = None

    def colours(self, scope: Scope) -> tuple[RGB | None, RGB | None]:
        """Fill and outline on one card."""
        return (
            self.fill.of(scope) if self.fill else None,
            self.stroke.of(scope) if self.stroke else None,
        )

    def drawn(self, scope: Scope) -> dict | None:
        """The paint keywords of a drawing operation (:class:`deckforge.drawing.ops.Paint`)
        on one card; ``None`` when the shape has neither fill nor outline there."""
        fill, stroke = self.colours(scope)
        if self.gradient is not None:
            gradient = self.gradient.of(scope)
            return {
                "fill": fill,
                "stroke": stroke,
                "line_width": self.width,
                "dash": self.dash,
                "gradient": gradient,
            }
        if fill is None and stroke is None:
            return None
        return {"fill": fill, "stroke": stroke, "line_width": self.width, "dash": self.dash}

    @property
    def fields(self) -> tuple[Field, ...]:
        """The card fields its colours bind."""
        found = [
            *(self.fill.fields if self.fill else ()),
            *(self.stroke.fields if self.stroke else ()),
        ]
        return (*found, *(self.gradient.fields if self.gradient else ()))


def shape_paint(spec: Spec, compiler: Compiler, place: Place) -> Paint:
    """A closed shape's paint: fill and outline, and its gradient."""
    paint = compiler.paint(spec, Box(place.w, place.h))
    gradient = effects.compile_gradient(spec, compiler, place)
    return paint if gradient is None else replace(paint, gradient=gradient)


class Element:
    """One thing a template draws. Subclasses set ``type`` and ``keys``."""

    type: ClassVar[str] = ""
    keys: ClassVar[dict[str, dict]] = {}
    description: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if cls.type:
            REGISTRY[cls.type] = cls

    def __init__(self, spec: Spec, compiler: Compiler, frame: Frame, conditions: tuple = ()):
        self.name = spec.name
        self.ref = spec.origin.ref
        self.conditions: tuple[Condition | Test, ...] = conditions + compiler.conditions(spec)
        self.place: Place = compiler.place(spec, frame)
        self.fields: list[Field] = [f for c in self.conditions for f in c.fields]
        #: Its opacity and drop shadow (None: it has neither).
        self.effects = effects.compile_effects(spec, compiler, self.place)
        if self.effects is not None:
            self.uses(*self.effects.fields)
        self.compile(spec, compiler)

    def compile(self, spec: Spec, compiler: Compiler) -> None:
        """Read the element's own keys (once per deck)."""

    def uses(self, *fields: Field) -> None:
        """Note fields the element binds: cards that differ in them look different."""
        self.fields.extend(f for f in fields if f not in self.fields)

    def ops(self, scope: Scope) -> list:
        """What the element draws on one card, in its own box's coordinates."""
        raise NotImplementedError

    def visible(self, scope: Scope) -> bool:
        """Whether the element is drawn on a card."""
        for condition in self.conditions:  # most elements have none: no generator made
            if not condition.holds(scope):
                return False
        return True

    def flattened(self) -> list[Element]:
        """The elements to draw in its place (a group that is not turned gives its
        children, so each can be shared on its own)."""
        return [self]

    def draw(self, scope: Scope, out: list) -> None:
        """Append the element's operations on one card, turned into place."""
        if not self.visible(scope):
            return
        ops = self.ops(scope)
        if not ops:
            return
        if self.effects is not None:
            ops = self.effects.apply(ops, scope)
        if self.place.matrix is None:
            out.extend(ops)
        else:
            out.append(Transform(self.place.matrix, tuple(ops)))


def element_type(name: str) -> type[Element] | None:
    """The element type named ``name``; None if there is none. Each type is the module
    of its name (``text`` is ``elements/text.py``), imported when a template first
    draws one: a template draws a few of the types."""
    if name not in REGISTRY and name.isidentifier() and name.islower():
        module = f"{__name__}.{name}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
    return REGISTRY.get(name)


@cache
def load_all() -> dict[str, type[Element]]:
    """Every element type, its module imported (once: every template compiled asks)."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    return REGISTRY
