"""``dream``: a dream-like picture generated for a card (:mod:`deckforge.art.dreams`): a
sky, a sun or moon, a rolling landscape and figures at several scales, one large in
front, painted over the box. The same ``seed`` and ``number`` always give the same
picture; numbers 1, 2, 3… of one seed each have another figure in front. Both are whole
numbers, written out or bound (``"{seed}"``, ``"{number}"``). Like pictures, it is not
mirrored in right-to-left editions."""

from __future__ import annotations

from deckforge.art import dreams
from deckforge.templates.bind import Scope
from deckforge.templates.elements import WHOLE, CardError, Element


class Dream(Element):
    """A generated picture."""

    type = "dream"
    description = "A generated dream-like picture, from a seed and a number, over its box."
    keys = {
        "seed": {**WHOLE, "description": "A number or a binding like '{seed}': the pictures' set."},
        "number": {
            **WHOLE,
            "description": "A number from 1 or a binding like '{number}': the picture in the "
            "set (default 1).",
        },
    }

    def compile(self, spec, compiler) -> None:
        if "seed" not in spec.data:
            compiler.problem(spec, "seed", "a dream element needs 'seed'")
        self.seed = compiler.whole(spec, "seed", 0)
        self.number = compiler.whole(spec, "number", 1)
        for value in (self.seed, self.number):
            if value.field is not None:
                self.uses(value.field)

    def ops(self, scope: Scope) -> list:
        seed, number = self.seed.of(scope), self.number.of(scope)
        if seed is None or number is None:
            return []
        if number < 1:
            raise CardError(self.number.ref, f"a picture's number starts at 1, not {number}")
        p = self.place
        return dreams.picture(seed, number, dreams.hero(seed, number), p.x, p.y, p.w, p.h)
