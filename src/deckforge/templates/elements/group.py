"""``group``: elements measured in the group's box (``%`` of it, ``x`` and ``y`` from
its top-left corner), turned with it. A group that is not turned only places its
children: each is drawn, and shared between cards, as if it stood on its own."""

from __future__ import annotations

from deckforge.templates.bind import Scope
from deckforge.templates.elements import Element
from deckforge.templates.geometry import Frame


class Group(Element):
    """Elements placed and turned together."""

    type = "group"
    description = "Elements measured in its box and turned with it."
    #: The children's schema is filled in by the schema generator (groups nest).
    keys = {"elements": {"description": "The elements in the group, drawn in order."}}

    def compile(self, spec, compiler) -> None:
        p = self.place
        # A group turned or made translucent is drawn as one; else it only places.
        turned = p.matrix is not None or self.effects is not None
        # Children mirror within the group when the group itself was mirrored.
        frame = Frame(p.w, p.h, p.x, p.y, p.mirrored)
        # A group that is not turned passes its conditions on to its children.
        inherited = () if turned else self.conditions
        self.children = compiler.elements(spec.children, frame, inherited)
        for child in self.children:
            self.uses(*child.fields)

    def flattened(self) -> list[Element]:
        alone = self.place.matrix is not None or self.effects is not None
        return [self] if alone else self.children

    def ops(self, scope: Scope) -> list:
        out: list = []
        for child in self.children:
            child.draw(scope, out)
        return out
