"""Drawing a deck's cards from a compiled template, drawing shared parts once.

Before any card is drawn, each element's bound values are read on every card. An
element that looks the same on many cards (it binds nothing of the card, or fields with
few values: a category's colour and name) is *shared*: consecutive shared elements are
drawn together, once per distinct set of values, into a keyed
:class:`~deckforge.drawing.ops.Face` that cards draw with :class:`~deckforge.drawing.ops.Use`,
which the PDF holds once as a form. The rest (a place's name, its icon) is drawn on
each card. A card whose whole side is shared (a deck's back) is that keyed face.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

from deckforge.drawing.ops import Face, Use
from deckforge.errors import Problem, SourceRef
from deckforge.templates.bind import BindError, Field, Scope, getter, raw
from deckforge.templates.compile import Compiled, Context
from deckforge.templates.elements import CardError, Element


@dataclass(eq=False)
class _Segment:
    """Consecutive elements drawn the same way: shared (into keyed faces) or per card."""

    shared: bool
    elements: list[Element]
    #: Positions, in a card's row of field values, of the fields these elements bind.
    columns: tuple[int, ...] = ()
    #: What tells a card's look apart in a shared segment: its values of the columns.
    look: Callable[[tuple], object] = tuple
    faces: dict[object, Face] = field(default_factory=dict)
    uses: dict[object, Use] = field(default_factory=dict)


def card_id(card: object, index: int) -> str:
    """How problems name a card: its id, or its number in the deck."""
    value = raw(card.get("id") if isinstance(card, dict) else getattr(card, "id", None))
    return str(value) if value not in (None, "") else f"#{index + 1}"


class DeckDrawing:
    """One side of a deck's cards drawn from one compiled template."""

    def __init__(
        self, compiled: Compiled, cards: Sequence[object], context: Context, side: str = "face"
    ):
        self.compiled = compiled
        self.context = context
        #: What keys of shared faces start with: unique per deck, side and template.
        self.prefix = f"{context.key}/{side}/{compiled.name}"
        fields: list[Field] = []
        for element in compiled.elements:
            fields.extend(f for f in element.fields if f.on_card and f not in fields)
        self.fields = tuple(fields)
        #: The getters (:func:`~deckforge.templates.bind.getter`) of every field, by the
        #: type of card read: a row is read without a lookup for each field.
        self._getters: dict[type, tuple] = {}
        self.rows = [self.row(card) for card in cards]
        self.segments = self._segments()

    def row(self, card: object) -> tuple:
        """The values of every card field the template binds, on one card."""
        if not self.fields:
            return ()  # a side every card shares (a deck's back)
        # What Scope.value reads for a card's own field, without a Scope for every card.
        getters = self._getters.get(type(card))
        if getters is None:
            kind = type(card)
            getters = self._getters[kind] = tuple(getter(kind, f.path) for f in self.fields)
        return tuple([raw(get(card)) for get in getters])

    def _columns(self, elements: list[Element]) -> tuple[int, ...]:
        found = {self.fields.index(f) for e in elements for f in e.fields if f.on_card}
        return tuple(sorted(found))

    def _segments(self) -> list[_Segment]:
        """Elements split into runs of shared and per-card ones."""
        limit = max(1, len(self.rows) // 2)
        segments: list[_Segment] = []
        counted: dict[tuple[int, ...], int] = {(): 1}
        for element in self.compiled.elements:
            columns = self._columns([element])
            if columns not in counted:
                # How many looks: the distinct values (one, or a tuple) of the columns.
                counted[columns] = len(set(map(itemgetter(*columns), self.rows)))
            shared = counted[columns] <= limit
            if segments and segments[-1].shared == shared:
                segments[-1].elements.append(element)
            else:
                segments.append(_Segment(shared, [element]))
        for segment in segments:
            segment.columns = self._columns(segment.elements)
            segment.look = _looks(segment.columns)
        return segments

    def face(self, card: object, index: int, notes: list[Problem]) -> Face:
        """One card's side; CardError or BindError when its data cannot be drawn."""
        segments = self.segments
        if len(segments) == 1 and segments[0].shared:
            return self._shared(segments[0], card, self.rows[index], notes)
        scope = Scope(card, self.context.shared, self.context.locale)
        row = self.rows[index]
        out: list = []
        for number, segment in enumerate(segments):
            if not segment.shared:
                for element in segment.elements:
                    self._draw(element, scope, out)
                continue
            look = segment.look(row)
            use = segment.uses.get(look)
            if use is None:
                self._new_look(segment, number, look, scope)
                use = segment.uses[look]
            if use.face.ops:
                out.append(use)  # one for every card that shares it
        notes.extend(scope.notes)
        return Face(tuple(out))

    def _shared(self, segment: _Segment, card: object, row: tuple, notes: list) -> Face:
        """A side whose every element is shared: the keyed face of the card's look."""
        look = segment.look(row)
        face = segment.faces.get(look)
        if face is None:
            scope = Scope(card, self.context.shared, self.context.locale)
            face = self._new_look(segment, 0, look, scope)
            notes.extend(scope.notes)
        return face

    def _new_look(self, segment: _Segment, number: int, look: object, scope: Scope) -> Face:
        """The keyed face of a shared segment for a look no card had before."""
        ops: list = []
        for element in segment.elements:
            self._draw(element, scope, ops)
        key = f"{self.prefix}/{number}/{len(segment.faces)}"
        face = segment.faces[look] = Face(tuple(ops), key=key)
        segment.uses[look] = Use(face)
        return face

    @staticmethod
    def _draw(element: Element, scope: Scope, out: list) -> None:
        try:
            element.draw(scope, out)
        except BindError as exc:
            raise CardError(element.ref, f"{element.name}: {exc}") from None


def _looks(columns: tuple[int, ...]) -> Callable[[tuple], object]:
    """What picks a row's values of the columns: the value itself for one column."""
    if not columns:
        return lambda row: ()
    return itemgetter(*columns)


def side_of(drawing: DeckDrawing, card: object, index: int, problems: list[Problem]) -> Face | None:
    """One card's side, or None (and the problem added to ``problems``) where its data
    cannot be drawn; ``index`` is the card's place among the cards ``drawing`` draws."""
    try:
        return drawing.face(card, index, problems)
    except CardError as exc:
        problems.append(_problem(exc.ref, card_id(card, index), str(exc)))
        return None


def _problem(ref: SourceRef, card: str, message: str) -> Problem:
    return Problem(ref, f"card '{card}': {message}")


def once_each(problems: list[Problem]) -> list[Problem]:
    """Cards' problems, each cause once: the same problem of the same template value, or
    of cells of one column holding the same value, is one problem at its first place
    that names how many more cards have it."""
    groups: dict[tuple, list[Problem]] = {}
    for problem in problems:
        card, sep, what = problem.message.partition("': ")
        if not card.startswith("card '") or not sep:
            groups[(id(problem),)] = [problem]
            continue
        ref = problem.ref
        column = ref.cell.rstrip("0123456789")
        groups.setdefault((ref.file, ref.column, ref.path, column, what), []).append(problem)
    out = []
    for group in groups.values():
        first = group[0]
        if len(group) > 1:
            more = len(group) - 1
            first = Problem(
                first.ref,
                f"{first.message} (and on {more} more card{'s' if more > 1 else ''})",
                first.severity,
            )
        out.append(first)
    return out
