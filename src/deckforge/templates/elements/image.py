"""``image``: a picture file (PNG, JPEG or SVG), named by the template (relative to its
file), bound to a card's art (``"{art}"``) or made of its fields (``"art/{art}.png"``,
relative to the template's file like a path written out), scaled to ``cover`` its box
(cropped) or to fit inside it (``contain``), optionally cropped to a circle. Raster art
is checked at its printed size: under 150 dpi is an error, under 300 a warning."""

from __future__ import annotations

from pathlib import Path

from deckforge.art import images
from deckforge.drawing.ops import Picture
from deckforge.model import Art
from deckforge.model import Text as SourceText
from deckforge.templates.bind import Scope
from deckforge.templates.elements import CardError, Element


class Image(Element):
    """A picture file."""

    type = "image"
    description = "A picture file: fitted, covering, or cropped to a circle."
    keys = {
        "image": {
            "description": "A file relative to this template, a binding like '{art}', or "
            "a file named by the card's fields, like 'art/{art}.png'.",
            "type": "string",
            "minLength": 1,
            "maxLength": 300,
        },
        "fit": {
            "description": "cover: fill the box, cropping (default); contain: all of it, "
            "inside the box.",
            "enum": ["cover", "contain"],
        },
        "shape": {
            "description": "Crop to the box, or to a circle in it.",
            "enum": ["rect", "circle"],
        },
    }

    def compile(self, spec, compiler) -> None:
        self.art: Art | None = None
        self.cover = spec.data.get("fit", "cover") == "cover"
        self.round = spec.data.get("shape", "rect") == "circle"
        self.pattern = compiler.composed(spec, "image")
        if self.pattern is not None:  # a path made of the card's fields: "art/{art}.png"
            self.uses(*self.pattern.fields)
            self.field, self.origin = None, spec.folder("image")
            self.found: dict[str, Path | str] = {}
            return
        self.field, written = compiler.source(spec, "image", "art", "{art}")
        if self.field is not None:
            self.uses(self.field)
        elif written:
            path = compiler.path(spec, "image", images.SUFFIXES)
            if path is not None:
                self.art = Art(path, spec.at("image"))

    def ops(self, scope: Scope) -> list:
        art = self.art
        if self.pattern is not None:
            art = self._composed(scope)
        elif self.field is not None:
            value = scope.value(self.field)
            if value is None:
                return []
            if not isinstance(value, Art):
                where = value.ref if isinstance(value, SourceText) else self.ref
                raise CardError(where, f"'{{{self.field.name}}}' is not a picture file")
            art = value
        if art is None:
            return []
        p = self.place
        try:
            info, warning = images.at_print_size(art.path, art.ref, p.w, p.h, self.cover)
        except images.ArtError as exc:
            raise CardError(art.ref, str(exc)) from None
        if warning is not None:
            scope.notes.append(warning)
        return [Picture(str(art.path), info.kind, p.x, p.y, p.w, p.h, self.cover, self.round)]

    def _composed(self, scope: Scope) -> Art | None:
        """The file a card's fields name through the path, checked once for each path."""
        value, where = scope.text(self.pattern)
        if not value:
            return None
        found = self.found.get(value)
        if found is None:
            found = self.found[value] = self.origin.file(value, images.SUFFIXES)
        if isinstance(found, str):
            raise CardError(where or self.ref, found)
        return Art(found, where or self.ref)
