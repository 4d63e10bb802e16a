"""Card templates: how a card looks, written as YAML instead of Python.

A template (``kind: template``) names a card size, named ``sizes``, ``colours`` and text
``styles``, and the ``elements`` drawn in order: ``rect``, ``circle``, ``ellipse``,
``line``, ``polygon``, ``text``, ``icon``, ``image``, ``symbol`` (player-colour symbols
and arrows), ``lines`` (ruled lines to write on), ``dream`` (a generated picture) and
``group``. Elements bind the
card's fields (``"{question}"``, ``fill: "{category.colour}"``), are drawn only
``when`` a condition holds, and are placed in mm, pt or % of the card from its trim,
safe area or bleed. A template may ``extends`` another and change its parts by name; an
edition changes a shipped template by putting a file of the same name in its own
``templates/`` folder. ``template.schema.json`` checks every file; its field reference
is in the modules :mod:`.load`, :mod:`.geometry`, :mod:`.lengths`, :mod:`.colours`,
:mod:`.bind`, :mod:`.expr` (expressions: ``when: "rank > 10"``, ``{suit|map(suits)}``)
and :mod:`.elements`.

The stages, in order: :mod:`.load` finds a template (the edition's folder, then
:data:`~deckforge.templates.load.SHIPPED`), reads it and merges what it extends;
:mod:`.compile` works out its sizes, colours, styles and boxes for one deck; :mod:`.draw`
binds each card's fields and makes its drawing operations, drawing the parts many cards
share once, as keyed faces.

How a card kind hands its cards to the engine
---------------------------------------------
A card kind keeps only its rules (counts, which cards exist, what they hint at) and
gives the engine three things:

1. its cards: objects with fields (the model's records, such as
   :class:`~deckforge.kinds.places.PlaceCard`; a field that holds a picture holds an
   :class:`~deckforge.model.Art`), or rows of data (:class:`~deckforge.kinds.Rows`: a
   CSV or XLSX file's, or a list of cards in YAML), which are first checked against
   what the templates need (:mod:`.data`), so that a field a template binds that the
   data lacks is an error naming both places;
2. a :class:`~deckforge.kinds.Look`: the names of the face and back templates, the back
   one for the deck or one per card (:meth:`deckforge.kinds.DeckKind.look`);
3. a :class:`~deckforge.templates.compile.Context`: the edition's locale and palette,
   the deck's and edition's values that bindings read (:func:`context_for` makes it from
   the model), the card size and the prefix of the keys of shared faces.

:func:`stream_cards` then compiles each template once for the deck and lays out the
cards as they are taken, with every problem found (text that cannot fit, art too coarse, data
that is not what a template needs), each at the place of the data or template that
causes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import fields, is_dataclass
from pathlib import Path

from deckforge.drawing.ops import Card, Face
from deckforge.errors import Problem, SourceRef
from deckforge.fsutil import inside
from deckforge.kinds import Look, Rows
from deckforge.model import Deck, Edition
from deckforge.templates.bind import shared_values
from deckforge.templates.compile import Compiled, Context, compile_template
from deckforge.templates.data import check
from deckforge.templates.draw import DeckDrawing, card_id, once_each, side_of
from deckforge.templates.load import EDITION_FOLDER, Layer, Library
from deckforge.templates.trim import Trim
from deckforge.text.script import is_rtl_locale

__all__ = [
    "CardStream",
    "Compiled",
    "Context",
    "Library",
    "compile_named",
    "context_for",
    "context_of",
    "draw_parts",
    "edition_files",
    "lay_out_deck",
    "needs",
    "stream_cards",
    "stream_deck",
]


def context_for(edition: Edition, deck: Deck) -> Context:
    """The context of one deck of an edition of the model."""
    shared = {"id": deck.id, "back": deck.back_label, "size": deck.size_name}
    return context_of(edition, shared, deck.size_mm, f"{edition.id}/{deck.id}")


def context_of(
    edition: Edition, values: Mapping[str, object], size_mm: tuple[float, float] | None, key: str
) -> Context:
    """A context of an edition: the values bindings read under ``deck``, the size drawn
    at (None: the template's own) and the prefix of the keys of shared faces."""
    palette = {
        "ink": edition.palette.ink,
        "paper": edition.palette.paper,
        "accent": edition.palette.accent,
        "accent_dark": edition.palette.accent_dark,
    }
    edition_values = {
        "id": edition.id,
        "game": edition.game,
        "title": edition.title,
        "locale": edition.locale,
    }
    shared = shared_values(values, edition_values, palette)
    return Context(edition.locale, palette, shared, size_mm, key)


def compile_named(
    library: Library, name: str, context: Context, ref: SourceRef | None = None
) -> tuple[Compiled | None, list[Problem]]:
    """A template of the library compiled for a deck, or the problems that stop it."""
    template, problems = library.get(name, ref)
    if template is None:
        return None, problems
    return compile_template(template, context)


def element_names(edition: Edition, deck: Deck, name: str) -> tuple[str, ...]:
    """The names of the elements template ``name`` draws on a deck's cards, in drawing
    order (a group is drawn as its children); none if the template does not compile."""
    compiled, _ = compile_named(_library(edition), name, context_for(edition, deck))
    elements = compiled.elements if compiled is not None else []
    return tuple(dict.fromkeys(element.name for element in elements if element.name))


def needs(compiled: Compiled) -> dict[str, tuple[str, SourceRef]]:
    """The card fields a compiled template binds: for each, what it must be (text,
    number, colour, icon or art) and where the template binds it first."""
    return dict(compiled.needs)


class CardStream:
    """A deck's cards laid out one at a time as they are taken (a deck of 100,000 cards
    is drawn, imposed and written a sheet at a time, never held whole), and the problems
    found: those that stop the deck at once, then its faces', then its backs' (complete
    once every card has been taken). A card that cannot be drawn is left out."""

    def __init__(self, count: int, cards: Iterator[Card], problems: list[Problem]):
        #: How many cards the deck has (as many are given when none has a problem).
        self.count = count
        self._cards = cards
        self._early = problems
        self.faces: list[Problem] = []
        self.backs: list[Problem] = []

    def __iter__(self) -> Iterator[Card]:
        return self._cards

    @property
    def problems(self) -> list[Problem]:
        """Every problem found so far, each cause once."""
        return self._early + once_each(self.faces) + once_each(self.backs)

    def whole(self) -> tuple[list[Card], list[Problem]]:
        """Every card, laid out now, and every problem found."""
        laid = list(self)
        return laid, self.problems


def stream_cards(
    cards: Sequence[object],
    library: Library,
    context: Context,
    face: str,
    back: str | Sequence[str | None] | None,
    ref: SourceRef | None = None,
    data: Rows | None = None,
    root: Path | None = None,
    named: Mapping[str, SourceRef] | None = None,
) -> CardStream:
    """Cards drawn from a face template and a back template (one for every card, or one
    per card), each compiled once, laid out as they are taken; the problems that stop
    them are the stream's. With ``data``, the cards are rows of data, checked first (art
    paths must stay inside ``root``); the cards themselves then only give their ids. A
    template that cannot be read is a problem where ``named`` says it is named (a deck
    file's ``face:``), else at ``ref``."""
    backs = [back] * len(cards) if back is None or isinstance(back, str) else list(back)
    compiled: dict[str, Compiled] = {}
    problems: list[Problem] = []
    for name in dict.fromkeys([face, *(b for b in backs if b is not None)]):
        where = (named or {}).get(name, ref)
        found_template, found = compile_named(library, name, context, where)
        problems.extend(found)
        if found_template is not None:
            compiled[name] = found_template
            if data is None and cards:
                problems.extend(unknown_fields(found_template, cards[0]))
    if not problems and context.size_mm is None:
        problems = disagreeing(compiled, face, ref)
    if problems:
        return CardStream(0, iter(()), problems)
    drawn: Sequence[object] = cards
    if data is not None:
        needs = [(name, c.needs) for name, c in compiled.items()]
        # The colours a value may name: those of the templates that bind a colour.
        binding = [c for c in compiled.values() if any(k == "colour" for k, _ in c.needs.values())]
        own = sorted({colour for c in binding for colour in c.colours})
        drawn, problems = check(data, needs, root or data.folder, context.palette, own)
        if problems:
            return CardStream(0, iter(()), problems)
    fronts = DeckDrawing(compiled[face], drawn, context, "face")
    # Each card's back: the drawing of its back template, and its place among the cards
    # that drawing draws.
    rears: list[tuple[DeckDrawing, int] | None] = [None] * len(cards)
    for name in dict.fromkeys(b for b in backs if b is not None):
        chosen = [i for i, b in enumerate(backs) if b == name]
        drawing = DeckDrawing(compiled[name], [drawn[i] for i in chosen], context, "back")
        for local, index in enumerate(chosen):
            rears[index] = (drawing, local)
    laying = CardStream(len(cards), iter(()), [])
    laying._cards = _laid(cards, drawn, fronts, rears, compiled[face].card, context, laying)
    return laying


def _laid(cards, drawn, fronts: DeckDrawing, rears: list, card, context: Context, laying):
    """The cards of :func:`stream_cards`, each drawn as it is taken."""
    blank = Face((), key=f"{context.key}/blank-back")
    width, height, faces, backs = card.w, card.h, laying.faces, laying.backs
    outline = card.outline
    for index, model in enumerate(drawn):
        front = side_of(fronts, model, index, faces)
        rear = None
        if rears[index] is not None:
            drawing, local = rears[index]
            rear = side_of(drawing, model, local, backs)
            if rear is None:
                continue
        if front is None:
            continue
        yield Card(card_id(cards[index], index), width, height, front, rear or blank, outline)


def disagreeing(
    compiled: Mapping[str, Compiled], face: str, ref: SourceRef | None
) -> list[Problem]:
    """A problem for each back template whose card is not the face template's (in size
    or shape), when the deck gives no size of its own: at the back's size, naming the
    face's."""
    first = compiled[face]
    problems = []
    for name, other in compiled.items():
        a, b = first.card, other.card
        same = abs(a.w - b.w) < 0.01 and abs(a.h - b.h) < 0.01 and a.outline == b.outline
        if name == face or same:
            continue
        where = other.size_at or ref or SourceRef("")
        face_at = first.size_at.where if first.size_at is not None else f"the template '{face}'"
        problems.append(
            Problem(
                where,
                f"the back template '{name}' is a {trim_shown(b)} card, the face template "
                f"'{face}' ({face_at}) a {trim_shown(a)} one: give both the same size and "
                "shape, or the deck a 'size'",
            )
        )
    return problems


def trim_shown(card) -> str:
    """A compiled card's size and shape as people say them."""
    return Trim(card, None).shown()


def unknown_fields(compiled: Compiled, card: object) -> list[Problem]:
    """Bindings to fields a card kind's cards do not have (``{question}`` on a Place
    card), found on its first card: its fields are those of its record."""
    problems = []
    for name, (_, ref) in compiled.needs.items():
        value = card
        for part in name.split("."):
            if not is_dataclass(value):
                break  # a mapping (any field may be set or not) or plain text
            names = [f.name for f in fields(value)]
            if part not in names:
                known = ", ".join(names)
                message = f"'{{{name}}}': a {type(value).__name__} has no field '{part}' ({known})"
                problems.append(Problem(ref, message))
                break
            value = getattr(value, part)
    return problems


def lay_out_deck(edition: Edition, deck: Deck, look: Look) -> tuple[list[Card], list[Problem]]:
    """A deck of the model drawn from the templates its kind names: the edition's own,
    else the shipped. A look without a face template has nothing to draw (a deck whose
    data could not be read, which validation reports)."""
    return stream_deck(edition, deck, look).whole()


def stream_deck(edition: Edition, deck: Deck, look: Look) -> CardStream:
    """:func:`lay_out_deck`, each card laid out only when it is taken."""
    if not look.face:
        return CardStream(0, iter(()), [])
    library = _library(edition, look.folder)
    context = context_for(edition, deck)
    return stream_cards(
        deck.cards,
        library,
        context,
        look.face,
        look.back,
        deck.ref,
        look.data,
        _root(edition),
        look.named,
    )


def draw_parts(
    edition: Edition,
    name: str,
    parts: Sequence[object],
    ref: SourceRef,
    key: str,
    folder: Path | None = None,
    data: Rows | None = None,
    context: Context | None = None,
) -> tuple[list[Card], list[Problem], bool]:
    """Parts of a component that are not a deck's cards (a board, the pieces on it, a
    tuck box's panels) drawn from one template at its own size (or the ``context``'s),
    each as a card's face; the problems that stop them; and whether the template is
    mirrored (a right-to-left edition's, unless it says ``mirror: false``)."""
    library = _library(edition, folder)
    if context is None:
        context = context_of(edition, {"id": key}, None, f"{edition.id}/{key}")
    stream = stream_cards(parts, library, context, name, None, ref, data, _root(edition))
    cards, problems = stream.whole()
    template, _ = library.get(name)
    mirror = template is not None and template.settings.get("mirror", (True,))[0] is not False
    return cards, problems, mirror and is_rtl_locale(edition.locale)


def _root(edition: Edition) -> Path:
    """The project folder the edition's own templates must stay in."""
    return edition.root or edition.folder.absolute().parent.parent


def _library(edition: Edition, folder: Path | None = None) -> Library:
    """The edition's templates, then those beside a deck file of another folder, then
    the shipped."""
    root = _root(edition)
    library = Library.for_edition(edition.folder, root)
    if folder is not None and folder.resolve() != edition.folder.resolve():
        beside = folder / EDITION_FOLDER
        if beside.is_dir() and inside(beside, root):
            library.layers.insert(len(library.layers) - 1, Layer(beside, root))
    return library


def edition_files(edition: Edition, names: Sequence[str], folder: Path | None = None) -> list[Path]:
    """The files of an edition's own templates folder (and of the one beside a deck file
    in ``folder``) that cards drawn from the named templates depend on: the templates
    they are read from (through ``extends``), and every file that is not a template
    (fonts and pictures the templates may name)."""
    own = dependencies(edition)
    if folder is not None and folder.resolve() != edition.folder.resolve():
        own += _files(folder / EDITION_FOLDER, _root(edition))
    if not own:
        return []
    library = _library(edition, folder)
    used: set[Path] = set()
    for name in names:
        template, _ = library.get(name)
        if template is None:
            return own  # the build reports why; meanwhile any change may matter
        used.update(path.resolve() for path in template.files)
    return [path for path in own if path.suffix != ".yaml" or path.resolve() in used]


def dependencies(edition: Edition) -> list[Path]:
    """The files of an edition's own templates folder (what its cards' look depends on
    besides deckforge's own templates) that are inside the project: loading refuses the
    others (:func:`deckforge.sources.load.load_edition`), and nothing reads them
    meanwhile."""
    return _files(edition.folder / EDITION_FOLDER, _root(edition))


def _files(folder: Path, root: Path) -> list[Path]:
    """The files of a templates folder that are inside the project ``root``."""
    if not folder.is_dir() or not inside(folder, root):
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and inside(p, root))
