"""``icon``: an OpenMoji picture, by hexcode (``1F373``) or emoji, or bound to a card's
field (``"{icon}"``), drawn as large as its box allows without distortion."""

from __future__ import annotations

from functools import lru_cache

from deckforge.art import icons
from deckforge.drawing.ops import Icon as IconOp
from deckforge.model import Text as SourceText
from deckforge.templates.bind import Scope, raw
from deckforge.templates.elements import CardError, Element

_resolve = lru_cache(maxsize=4096)(icons.resolve)


class Icon(Element):
    """An OpenMoji icon."""

    type = "icon"
    description = "An OpenMoji picture, fitted into its box."
    keys = {
        "icon": {
            "description": "A hexcode like '1F373', the emoji itself, or a binding like '{icon}'.",
            "type": "string",
            "minLength": 1,
            "maxLength": 64,
        }
    }

    def compile(self, spec, compiler) -> None:
        self.code: str | None = None
        self.ref = spec.at("icon")
        self.field, written = compiler.source(spec, "icon", "icon", "{icon}")
        if self.field is not None:
            self.uses(self.field)
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
        if code is None:
            return []
        p = self.place
        return [IconOp(code, p.x, p.y, p.w, p.h)]
