"""A template's card: its trim (a trade ``size`` or ``width`` and ``height``, turned by
``orientation``), its cut ``shape``, bleed and safe inset, worked out once per deck.

A deck that gives its own size prints at that size, whatever its templates say; a deck
that gives none prints at its templates' (and its face and back must agree).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from deckforge.drawing.outline import Outline
from deckforge.errors import Problem, SourceRef
from deckforge.templates import geometry
from deckforge.templates.lengths import Box, LengthError, length
from deckforge.templates.load import Template
from deckforge.units import INCH, card_size_mm, mm, out_of_range, to_mm

#: The defaults of a template's settings.
DEFAULT_BLEED = INCH / 8
DEFAULT_SAFE = INCH / 8
#: A regular hexagon's width across its flats over its width across its corners.
_FLATS = math.sqrt(3) / 2


@dataclass(frozen=True, eq=False)
class Trim:
    """A template's card and where its size was set (the deck's entry, when the deck
    gives it: ``ref`` None), with problems found working it out."""

    card: geometry.Card
    ref: SourceRef | None
    problems: tuple[Problem, ...] = ()

    def shown(self) -> str:
        """The size as people say it: '88.9 × 63.5 mm, circle'."""
        w, h = (round(to_mm(side), 2) for side in (self.card.w, self.card.h))
        shape = self.card.outline
        kind = "" if shape is None else f", {shape.kind}"
        if shape is not None and shape.kind == "hexagon":
            kind += f" ({shape.orientation})"
        return f"{w:g} × {h:g} mm{kind}"


def trim_of(template: Template, size_mm: tuple[float, float] | None = None) -> Trim:
    """The card of a template, at ``size_mm`` when the deck gives one."""
    problems: list[Problem] = []
    settings = template.settings

    def points(key: str, default: float, limit: str) -> float:
        found = settings.get(key)
        if found is None:
            return default
        try:
            value = length(found[0], "", Box(0, 0))
        except LengthError as exc:
            problems.append(Problem(found[1].ref, str(exc)))
            return default
        wrong = out_of_range(value, limit)
        if wrong is not None:
            problems.append(Problem(found[1].ref, wrong))
            return default
        return value

    bleed, safe = points("bleed", DEFAULT_BLEED, "bleed"), points("safe", DEFAULT_SAFE, "safe")
    shape = settings.get("shape")
    kind = str(shape[0].get("type", "rect")) if shape and isinstance(shape[0], dict) else "rect"
    ref: SourceRef | None = None
    if size_mm is not None:
        w, h = mm(size_mm[0]), mm(size_mm[1])
    elif (size := settings.get("size")) is not None:
        w, h = (mm(side) for side in card_size_mm(str(size[0])))
        ref = size[1].ref
    elif "width" in settings or "height" in settings:
        w, h, ref = _sides(settings, kind, points, problems)
    else:
        problems.append(
            Problem(
                template.ref,
                "the template names no card size: give 'size' (poker, bridge, tarot…) or "
                "'width' and 'height'",
            )
        )
        w, h = mm(63.5), mm(88.9)
    turn = settings.get("orientation")
    if size_mm is None and turn is not None and (str(turn[0]) == "landscape") != (w > h):
        w, h = h, w
    outline = _outline(shape, kind, w, h, problems)
    card = geometry.Card(w, h, _safe(template, safe, min(w, h), problems), bleed, outline)
    return Trim(card, ref, tuple(problems))


def _sides(settings: dict, kind: str, points, problems: list[Problem]):
    """Width and height as given; a circle's or a regular hexagon's other side from one."""
    width = points("width", mm(63.5), "card") if "width" in settings else None
    height = points("height", mm(88.9), "card") if "height" in settings else None
    ref = settings["width" if "width" in settings else "height"][1].ref
    if width is not None and height is not None:
        return width, height, ref
    given = width if width is not None else height
    pointy = (
        str(settings["shape"][0].get("orientation", "pointy")) == "pointy"
        if kind == "hexagon"
        else None
    )
    if kind == "circle":
        return given, given, ref
    if kind == "hexagon" and height is not None and width is None:
        return (height * _FLATS, height, ref) if pointy else (height / _FLATS, height, ref)
    if kind == "hexagon" and width is not None:
        return (width, width / _FLATS, ref) if pointy else (width, width * _FLATS, ref)
    missing = "height" if height is None else "width"
    problems.append(
        Problem(
            ref,
            f"give the card's {missing} too (only a circle or a hexagon "
            "works out one side from the other)",
        )
    )
    return given or mm(63.5), given or mm(88.9), ref


def _outline(shape, kind: str, w: float, h: float, problems: list[Problem]) -> Outline | None:
    """The cut shape a template gives (None: a plain rectangle)."""
    if shape is None or not isinstance(shape[0], dict):
        return None
    data, origin = shape
    if kind == "rect":
        radius = data.get("radius")
        if radius is None:
            return None
        try:
            value = length(radius, "", Box(w, h))
        except LengthError as exc:
            problems.append(Problem(origin.ref, str(exc)))
            return None
        if not 0 <= value <= min(w, h) / 2:
            half = f"{round(to_mm(min(w, h) / 2), 3):g}mm"
            problems.append(Problem(origin.ref, f"a corner's radius must be from 0 to {half}"))
            return None
        return Outline("rect", value) if value else None
    return Outline(kind, 0.0, str(data.get("orientation", "pointy")))


def _safe(template: Template, safe: float, shorter: float, problems: list[Problem]) -> float:
    """The safe inset, which must leave a safe area inside the card."""
    if 2 * safe < shorter:
        return safe
    found = template.settings.get("safe")
    half = f"{round(to_mm(shorter / 2), 3):g}mm"
    if found is not None:
        message = f"the safe inset must be less than half the card's shorter side ({half})"
        problems.append(Problem(found[1].ref, message))
    else:
        message = f"the card is too small for the default safe inset: give 'safe' under {half}"
        problems.append(Problem(template.ref, message))
    return 0.0
