"""Expressions in templates: in ``when``/``unless`` and in the bindings of any text.

``when: "rank > 10"`` and ``text: "{rank|map(ranks)}{suit|map(suits)}"`` are read by
:mod:`.expr` once, when the template is compiled: what cannot be read, an unknown map
and a part that is wrong whatever the card (``"abc" > 3``) are problems of the template
at its key, with the column in the value. On a card, a value an expression cannot work
with (a suit missing from the map, ``'K' > 10``) is a problem at the data cell that
holds it. A string that names one field (``when: answer``) and a binding that is one
field with the plain filters (``{name|upper}``) keep their old, faster reading.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from deckforge.errors import Problem, SourceRef
from deckforge.model import Text as SourceText
from deckforge.templates import expr, exprparse
from deckforge.templates.bind import (
    ROOTS,
    BindError,
    Field,
    Pattern,
    Scope,
    bindings,
    lookup,
    parse_field,
    raw,
    split,
)
from deckforge.templates.elements import CardError
from deckforge.text.script import localise_digits

#: What tells an expression from a field's name: an operator, a bracket, a quote, a
#: keyword standing alone, a minus between spaces, or a number.
_EXPRESSION = re.compile(
    r"""[<>=!()\[\]"'+*/%,]|(?:^|\s)(?:and|or|not|in)(?:\s|$)|\s-\s|^\s*-?\d"""
)

Maps = Mapping[str, Mapping[str, str]]


def looks_like_expression(text: str) -> bool:
    """Whether a ``when`` value or a binding's content is an expression, not a name."""
    return _EXPRESSION.search(text) is not None


def maps_of(written: Mapping[str, tuple[object, Any]], problems: list[Problem]) -> dict:
    """A template's ``maps`` (name → (table, origin)) as tables of text to text."""
    out: dict[str, dict[str, str]] = {}
    for name, (table, origin) in written.items():
        if not isinstance(table, dict):
            problems.append(Problem(origin.ref, f"maps.{name}: give a table of values"))
            continue
        out[name] = {expr.text(_key(k)): expr.text(_key(v)) for k, v in table.items()}
    return out


def _key(value: object) -> object:
    """A YAML key or value as the expression language holds it (numbers as floats)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


class Failure(ValueError):
    """An expression of a template that is wrong whatever the card: ``message`` says
    what and at which column of the value; ``position`` is that character's index."""

    def __init__(self, message: str, position: int | None = None):
        super().__init__(message)
        self.position = position


def compiled(
    source: str, offset: int, whole: str, maps: Maps, shared: Mapping[str, object] | None = None
) -> expr.Node:
    """An expression read from ``source`` (found at ``offset`` in the value ``whole``),
    its maps found and the parts that read no card's field checked (``shared``: the
    values under ``deck``, ``edition`` and ``palette``); Failure when it is wrong."""
    try:
        node = exprparse.parse(source, offset)
        for part in expr.filters(node):
            if part.name == "map":
                table = maps.get(part.argument) if isinstance(part.argument, str) else None
                if table is None:
                    known = ", ".join(sorted(maps)) or "none"
                    raise expr.ExprError(
                        f"unknown map '{part.argument}' (maps: {known})", part.position
                    )
                part.table = table
        _check_constants(node, shared or {})
    except expr.ExprError as exc:
        message = f"{exc.message} at column {exc.position + 1} of {whole!r}"
        raise Failure(message, exc.position) from None
    return node


def _check_constants(node: expr.Node, shared: Mapping[str, object]) -> None:
    """Evaluate the parts that read no card's field: what is wrong there is wrong on
    every card."""
    if all(name.path[0] in ROOTS for name in node.names()):
        node.evaluate(lambda path: raw(lookup(shared.get(path[0]), path[1:])))
        return
    for name in ("operand", "left", "right", "argument", "fallback"):
        child = getattr(node, name, None)
        if isinstance(child, expr.Node):
            _check_constants(child, shared)
    if isinstance(node, expr.ListNode):
        for item in node.items:
            _check_constants(item, shared)


class _Reader:
    """Reads an expression's fields on one card, as bindings read them."""

    def __init__(self, fields: Mapping[tuple[str, ...], Field]):
        self.fields = fields

    def reader(self, scope: Scope):
        fields = self.fields
        return lambda path: raw(scope.value(fields[path]))

    def blame(self, exc: expr.ExprError, scope: Scope, fallback: SourceRef) -> SourceRef:
        """The data cell behind the part that failed, else the template's place."""
        for name in exc.node.names() if exc.node is not None else ():
            value = scope.value(self.fields[name.path])
            if isinstance(value, SourceText) and value.ref is not None:
                return value.ref
        return fallback


def _fields(node: expr.Node) -> dict[tuple[str, ...], Field]:
    return {name.path: Field(name.path) for name in node.names()}


class Computed:
    """A binding that is an expression (``{suit|map(suits)}``), in a
    :class:`~deckforge.templates.bind.Pattern`."""

    __slots__ = ("node", "source", "where", "fields", "_reader", "localise")

    def __init__(self, node: expr.Node, source: str, where: SourceRef | None = None):
        self.node, self.source, self.where = node, source, where
        found = _fields(node)
        self.fields = tuple(found.values())
        self._reader = _Reader(found)
        self.localise = isinstance(node, expr.Filter) and node.name == "digits"

    def text(self, scope: Scope) -> tuple[str, SourceRef | None]:
        """Its text on one card, and the place of the first data cell it read."""
        reader = self._reader
        try:
            value = expr.text(self.node.evaluate(reader.reader(scope)))
        except expr.ExprError as exc:
            where = self.where or SourceRef("")
            place = reader.blame(exc, scope, where)
            message = f"{exc.message} (in '{{{self.source}}}' at {where.where})"
            raise CardError(place, message) from None
        if self.localise:
            value = localise_digits(value, scope.locale)
        ref = None
        for f in self.fields:
            found = scope.value(f)
            if isinstance(found, SourceText):
                ref = found.ref
                break
        return value, ref


def pattern(
    text: str, maps: Maps, where: SourceRef | None = None, shared: Mapping | None = None
) -> Pattern:
    """Text with bindings, some of them expressions; BindError on a lone brace, Failure
    on an expression that is wrong."""
    return split(text, lambda content, at: _binding(content, at, text, maps, where, shared))


def _binding(content: str, offset: int, text: str, maps: Maps, where, shared) -> Field | Computed:
    if not looks_like_expression(content):
        try:
            return parse_field(content)
        except BindError:
            pass
    node = compiled(content, offset, text, maps, shared)
    if isinstance(node, expr.Name):
        return Field(node.path)
    return Computed(node, content.strip(), where)


class Test:
    """``when``/``unless`` as an expression: ``rank > 10 and not joker``."""

    __slots__ = ("node", "source", "ref", "negate", "fields", "_reader")

    def __init__(self, node: expr.Node, source: str, ref: SourceRef, negate: bool):
        self.node, self.source, self.ref, self.negate = node, source, ref, negate
        found = _fields(node)
        self.fields = tuple(found.values())
        self._reader = _Reader(found)

    def holds(self, scope: Scope) -> bool:
        """Whether it holds on a card (CardError at the data cell it cannot work with)."""
        reader = self._reader
        try:
            result = expr.truthy(self.node.evaluate(reader.reader(scope)))
        except expr.ExprError as exc:
            place = reader.blame(exc, scope, self.ref)
            key = "unless" if self.negate else "when"
            raise CardError(
                place, f"{exc.message} (in {key}: '{self.source}' at {self.ref.where})"
            ) from None
        return result != self.negate


def readings(key: str, value: object) -> list[str]:
    """How the expressions in a template's value were read, each operation in
    parentheses (what ``deckforge templates show`` prints); none where it has none or
    they cannot be read (validation says why)."""
    if not isinstance(value, str):
        return []
    if key in ("when", "unless"):
        found = [value] if looks_like_expression(value) else []
    else:
        found = [c for c in bindings(value) if _is_expression(c)]
    out = []
    for source in found:
        try:
            out.append(expr.describe(exprparse.parse(source)))
        except expr.ExprError:
            return []
    return out


def _is_expression(content: str) -> bool:
    if looks_like_expression(content):
        return True
    try:
        parse_field(content)
    except BindError:
        return True
    return False


def condition(
    text: str, maps: Maps, ref: SourceRef, negate: bool, shared: Mapping | None = None
) -> Test:
    """A ``when``/``unless`` expression, compiled; Failure when it is wrong."""
    return Test(compiled(text, 0, text, maps, shared), text.strip(), ref, negate)
