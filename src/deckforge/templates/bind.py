"""Bindings: ``"{question}"``, ``"{category.colour}"``, ``"{deck.back|upper}"``.

A binding names a card's field by a dotted path, looked up through mappings (rows of a
CSV or XLSX file: field name → :class:`~deckforge.model.Text` with its place) and the
fields of the model's records (``PlaceCard.name``, ``.category.colour``, ``.art``).
Three roots name what every card of a deck shares instead: ``deck`` (``id``, ``back``,
``size``), ``edition`` (``id``, ``game``, ``title``, ``locale``) and ``palette`` (``ink``,
``paper``, ``accent``, ``accent_dark``). Filters after a bar change bound text:
``upper``, ``lower`` and ``digits`` (a number in the edition's script); ``{{`` and ``}}``
are literal braces, and ``{icon:1F5E1}`` is an inline icon (text markup), not a binding.

Bound text keeps where it was written (the :class:`~deckforge.model.Text`'s ref), so
text that cannot fit is reported at the line of the source that holds it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass
from functools import cache
from operator import attrgetter
from typing import TYPE_CHECKING, cast

from deckforge.errors import SourceRef
from deckforge.model import Art
from deckforge.model import Text as SourceText
from deckforge.text.script import localise_digits

if TYPE_CHECKING:
    from deckforge.templates.computed import Computed

#: Roots of the paths that name the deck's and edition's values, not a card's fields.
ROOTS = ("deck", "edition", "palette")
FILTERS = ("upper", "lower", "digits")


class BindError(ValueError):
    """A binding that cannot be read, or a bound value that cannot be used."""


@dataclass(frozen=True)
class Field:
    """One binding: the path of a field and the filters applied to its text."""

    path: tuple[str, ...]
    filters: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The path as written: ``category.colour``."""
        return ".".join(self.path)

    @property
    def on_card(self) -> bool:
        """Whether the field is a card's own (not the deck's or edition's)."""
        return self.path[0] not in ROOTS


@dataclass(frozen=True)
class Pattern:
    """Text with bindings in it, parsed once: literal strings and fields in order."""

    #: Literal strings, fields, and expressions (:class:`.computed.Computed`).
    parts: tuple[str | Field | Computed, ...]

    @property
    def fields(self) -> tuple[Field, ...]:
        """The fields it reads, an expression's included."""
        found: list[Field] = []
        for p in self.parts:
            if isinstance(p, Field):
                found.append(p)
            elif not isinstance(p, str):
                found.extend(f for f in p.fields if f not in found)
        return tuple(found)

    @property
    def single(self) -> Field | None:
        """The field, when the pattern is exactly one binding (``"{art}"``)."""
        if len(self.parts) == 1 and isinstance(self.parts[0], Field):
            return self.parts[0]
        return None


_BINDING = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


def parse_field(text: str) -> Field:
    """``category.colour|upper`` as a Field; BindError if it is not one."""
    path_text, *filters = (part.strip() for part in text.split("|"))
    path = tuple(part.strip() for part in path_text.split("."))
    if not path_text or any(not part or part.startswith("_") for part in path):
        raise BindError(f"'{{{text}}}' does not name a field (like '{{name}}' or '{{a.b}}')")
    for name in filters:
        if name not in FILTERS:
            raise BindError(f"unknown filter '{name}' (filters: {', '.join(FILTERS)})")
    return Field(path, tuple(filters))


@cache
def parse(text: str) -> Pattern:
    """Text with ``{field}`` bindings; BindError on an unclosed or empty brace."""
    return split(text, lambda content, _: parse_field(content))


def bindings(text: str) -> list[str]:
    """What the braces of each binding in text hold (inline icons and ``{{`` left out)."""
    found = [m.group(1) for m in _BINDING.finditer(text) if m.group(1) is not None]
    return [content for content in found if not content.startswith("icon:")]


def split(text: str, binding: Callable[[str, int], object]) -> Pattern:
    """Text cut into literal parts and bindings, each made by ``binding`` from what its
    braces hold and where that starts in ``text``; ``{{``, ``}}`` and inline icons stay
    literal. BindError on a lone brace."""
    parts: list = []
    literal = ""
    position = 0
    for match in _BINDING.finditer(text):
        literal += text[position : match.start()]
        position = match.end()
        token = match.group()
        if token in ("{{", "}}"):
            literal += token[0]
        elif token.startswith("{icon:"):
            literal += token  # an inline icon, for the fitter (deckforge.text.markup)
        elif match.group(1) is None:
            raise BindError(f"a lone '{token}' in {text!r}: write '{token * 2}' for a brace")
        else:
            if literal:
                parts.append(literal)
                literal = ""
            parts.append(binding(match.group(1), match.start(1)))
    literal += text[position:]
    if literal:
        parts.append(literal)
    return Pattern(tuple(parts))


#: What stands for a binding's value where a template's own text is checked before any
#: card: a character that is neither markup nor part of an icon's name.
OPAQUE = "\ue000"


def skeleton(text: str) -> str:
    """Text with bindings as it reads whatever the cards hold: each binding (and each
    ``{{`` or ``}}``) replaced by as many :data:`OPAQUE` characters, so that its own
    markup can be checked once, at the characters where it was written."""

    def opaque(match: re.Match) -> str:
        token = match.group()
        return token if token.startswith("{icon:") else OPAQUE * len(token)

    return _BINDING.sub(opaque, text)


#: Field names of the records bindings have looked into, by type.
_FIELDS: dict[type, frozenset[str] | None] = {}


def _field_names(kind: type) -> frozenset[str] | None:
    try:
        return _FIELDS[kind]
    except KeyError:
        names = frozenset(f.name for f in fields(kind)) if is_dataclass(kind) else None
        _FIELDS[kind] = names
        return names


def lookup(value: object, path: tuple[str, ...]) -> object:
    """The value at ``path`` in mappings and records; None where nothing is set."""
    for part in path:
        if value is None:
            return None
        if type(value) is dict:
            value = value.get(part)
            continue
        names = _field_names(type(value))
        if names is not None:
            value = getattr(value, part) if part in names else None
        elif isinstance(value, Mapping):
            value = value.get(part)
        else:
            return None
    return value


def _made_getter(kind: type, path: tuple[str, ...]) -> Callable[[object], object]:
    """A function giving ``lookup(card, path)`` for cards of type ``kind``, reading the
    first field at once when ``kind`` is a record that has it (a deck's every card is
    read so, for each field its template binds)."""
    names = _field_names(kind)
    if names is None or path[0] not in names:
        return lambda card: lookup(card, path)
    first = attrgetter(path[0])
    if len(path) == 1:
        return first
    rest = path[1:]
    return lambda card: _read(first(card), rest)


def raw(value: object) -> object:
    """A bound value as what decides how a card looks: text for texts, paths for art."""
    kind = type(value)
    if kind is str or value is None:
        return value  # the most common values after texts, as they are
    if isinstance(value, SourceText):
        return value.value
    if isinstance(value, Art):
        return str(value.path)
    return value


def is_set(value: object) -> bool:
    """Whether a field is set and not empty (what ``when: field`` asks)."""
    value = raw(value)
    return value is not None and value != "" and value is not False


class Scope:
    """The values one card's bindings read: the card's fields and the deck's values."""

    __slots__ = ("card", "shared", "locale", "notes")

    def __init__(self, card: object, shared: Mapping[str, object], locale: str):
        self.card = card
        self.shared = shared
        self.locale = locale
        #: Warnings found while drawing the card (art under 300 dpi).
        self.notes: list = []

    def value(self, field: Field) -> object:
        """The field's value (a Text, Art, text, number…), or None when it is not set."""
        root = field.path[0]
        if root in ROOTS:
            return lookup(self.shared.get(root), field.path[1:])
        return getter(type(self.card), field.path)(self.card)

    def text(self, pattern: Pattern) -> tuple[str, SourceRef | None]:
        """The pattern's text for this card and the place of the first bound text."""
        out: list[str] = []
        ref = None
        for part in pattern.parts:
            if type(part) is str:
                out.append(part)
                continue
            if type(part) is not Field:  # an expression
                shown, where = cast("Computed", part).text(self)
                out.append(shown)
                ref = ref or where
                continue
            value = self.value(part)
            if isinstance(value, SourceText):
                if ref is None:
                    ref = value.ref
                if not part.filters and type(value.value) is str:
                    out.append(value.value)  # the common case: a card's own text as it is
                    continue
            out.append(self.filtered(part, value))
        return "".join(out), ref

    def filtered(self, field: Field, value: object) -> str:
        """A bound value as text, through the field's filters."""
        value = raw(value)
        if value is None:
            text = ""
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            text = str(value)
        else:
            raise BindError(f"'{{{field.name}}}' is not text (name one of its fields)")
        for name in field.filters:
            if name == "upper":
                text = text.upper()
            elif name == "lower":
                text = text.lower()
            else:
                text = localise_digits(text, self.locale)
        return text


def _read(value: object, path: tuple[str, ...]) -> object:
    """``lookup(value, path)``, through the getter of ``value``'s type."""
    return getter(type(value), path)(value)


#: What reads a card's field, by the card's type and the field's path.
_READERS: dict[type, dict[tuple[str, ...], Callable[[object], object]]] = {}


def getter(kind: type, path: tuple[str, ...]) -> Callable[[object], object]:
    """A function giving ``lookup(card, path)`` for cards of type ``kind`` (see
    :func:`_made_getter`), made once for each type of card and path."""
    readers = _READERS.get(kind)
    if readers is None:
        readers = _READERS[kind] = {}
    read = readers.get(path)
    if read is None:
        read = readers[path] = _made_getter(kind, path)
    return read


def shared_values(
    deck: Mapping[str, object], edition: Mapping[str, object], palette: Mapping[str, str]
) -> dict[str, object]:
    """The values under the roots ``deck``, ``edition`` and ``palette``."""
    return {"deck": dict(deck), "edition": dict(edition), "palette": dict(palette)}
