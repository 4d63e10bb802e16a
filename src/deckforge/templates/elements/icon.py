"""``icon``: an OpenMoji picture, by hexcode (``1F373``) or emoji, bound to a card's field
(``"{icon}"``), or an SVG file of the project (``"icons/crest.svg"``, relative to the
template), drawn as large as its box allows without distortion. ``tint`` recolours it
to one colour: everything it paints, fills and outlines alike, becomes the tint, so its
shape is kept as a silhouette; what it leaves unpainted stays so, and the card shows
through there."""

from __future__ import annotations

from functools import lru_cache

from deckforge.art import icons, images
from deckforge.drawing.ops import Icon as IconOp
from deckforge.drawing.ops import Picture
from deckforge.model import Text as SourceText
from deckforge.templates.bind import Scope, raw
from deckforge.templates.elements import CardError, Element

_resolve = lru_cache(maxsize=4096)(icons.resolve)


class Icon(Element):
    """An OpenMoji icon, or an SVG file of the project."""

    type = "icon"
    description = "An OpenMoji picture or an SVG file of the project, fitted into its box."
    keys = {
        "icon": {
            "description": "A hexcode like '1F373', the emoji itself, a binding like "
            "'{icon}', or an SVG file relative to this template, like 'icons/crest.svg'.",
            "type": "string",
            "minLength": 1,
            "maxLength": 300,
        },
        "tint": {
            "$ref": "#/$defs/colour",
            "description": "Draw everything the icon paints in this one colour, its shape "
            "kept (a white sword on a dark card: 'white').",
        },
    }

    def compile(self, spec, compiler) -> None:
        self.code: str | None = None
        self.svg: str | None = None
        self.ref = spec.at("icon")
        self.tint = compiler.colour(spec, "tint")
        if self.tint is not None:
            self.uses(*self.tint.fields)
        self.field, written = compiler.source(spec, "icon", "icon", "{icon}")
        if self.field is not None:
            self.uses(self.field)
        elif written and str(spec.data["icon"]).lower().endswith(".svg"):
            path = compiler.path(spec, "icon", (".svg",))
            if path is not None:
                try:
                    images.svg_drawing(path)
                except images.ArtError as exc:
                    compiler.problem(spec, "icon", str(exc))
                else:
                    self.svg = str(path)
        elif written:
            self.code = icons.resolve(str(spec.data["icon"]))
            if self.code is None:
                compiler.problem(
                    spec, "icon", f"unknown icon {spec.data['icon']!r}: no OpenMoji picture has it"
                )

    def ops(self, scope: Scope) -> list:
        code = self.code
        if self.field is not None:
            value = scope.value(self.field)
            spec = raw(value)
            if spec is None or spec == "":
                return []
            code = _resolve(str(spec))
            if code is None:
                where = value.ref if isinstance(value, SourceText) else self.ref
                raise CardError(where, f"unknown icon {spec!r}: no OpenMoji picture has it")
        p = self.place
        tint = self.tint.of(scope) if self.tint is not None else None
        if self.svg is not None:
            return [Picture(self.svg, "svg", p.x, p.y, p.w, p.h, cover=False, tint=tint)]
        if code is None:
            return []
        return [IconOp(code, p.x, p.y, p.w, p.h, tint)]
