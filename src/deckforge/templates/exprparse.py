"""Reading expressions (:mod:`.expr`): the tokenizer and a recursive-descent parser.

Every error is an :class:`~deckforge.templates.expr.ExprError` at the character where
reading went wrong; what is too long or nested too deeply is refused before any work.
"""

from __future__ import annotations

import math
import re

from deckforge.templates.expr import (
    FILTERS,
    KEYWORDS,
    MAX_DEPTH,
    MAX_LENGTH,
    Binary,
    ExprError,
    Filter,
    ListNode,
    Literal,
    Name,
    Node,
    Unary,
)

_TOKEN = re.compile(
    r"""(?P<space>\s+)
    |(?P<number>\d+(?:\.\d+)?)
    |(?P<text>"[^"]*"|'[^']*')
    |(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
    |(?P<op>==|!=|<=|>=|[<>+\-*/%()\[\],|])""",
    re.VERBOSE,
)


def tokens(source: str, offset: int = 0) -> list[tuple[str, str, int]]:
    """The tokens of an expression: (kind, text, position); ExprError at a character
    that starts none."""
    out = []
    index = 0
    while index < len(source):
        match = _TOKEN.match(source, index)
        if match is None:
            char = source[index]
            what = "an unclosed quote" if char in "\"'" else f"unexpected {char!r}"
            raise ExprError(what, offset + index)
        kind = match.lastgroup or ""
        value = match.group()
        if kind == "name" and value in KEYWORDS:
            kind = "op"
        if kind != "space":
            out.append((kind, value, offset + index))
        index = match.end()
    out.append(("end", "", offset + len(source)))
    return out


class Parser:
    """A recursive-descent parser over :func:`tokens`, each level one precedence:
    ``or`` < ``and`` < ``not`` < comparisons < ``+ -`` < ``* / %`` < unary ``-`` <
    filters < atoms."""

    def __init__(self, source: str, offset: int = 0):
        if len(source) > MAX_LENGTH:
            raise ExprError(f"longer than {MAX_LENGTH} characters", offset + MAX_LENGTH)
        self.tokens = tokens(source, offset)
        self.index = 0
        self.depth = 0

    def parse(self) -> Node:
        node = self.either()
        kind, value, position = self.tokens[self.index]
        if kind != "end":
            raise ExprError(f"unexpected {value!r}", position)
        return node

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.index]

    def take(self) -> tuple[str, str, int]:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def expect(self, value: str) -> int:
        kind, found, position = self.take()
        if found != value or kind not in ("op",):
            shown = "the end" if kind == "end" else repr(found)
            raise ExprError(f"expected {value!r}, found {shown}", position)
        return position

    def deeper(self, position: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError(f"nested more than {MAX_DEPTH} deep", position)

    def either(self) -> Node:
        node = self.both()
        while self.peek()[:2] == ("op", "or"):
            position = self.take()[2]
            node = Binary("or", node, self.both(), position)
        return node

    def both(self) -> Node:
        node = self.negation()
        while self.peek()[:2] == ("op", "and"):
            position = self.take()[2]
            node = Binary("and", node, self.negation(), position)
        return node

    def negation(self) -> Node:
        if self.peek()[:2] == ("op", "not"):
            position = self.take()[2]
            self.deeper(position)
            node = Unary("not", self.negation(), position)
            self.depth -= 1
            return node
        return self.comparison()

    def comparison(self) -> Node:
        node = self.sum()
        kind, value, position = self.peek()
        if kind == "op" and value in ("==", "!=", "<", "<=", ">", ">=", "in"):
            self.take()
            return Binary(value, node, self.sum(), position)
        if kind == "op" and value == "not" and self.tokens[self.index + 1][1] == "in":
            self.index += 2
            return Binary("not in", node, self.sum(), position)
        return node

    def sum(self) -> Node:
        node = self.product()
        while self.peek()[0] == "op" and self.peek()[1] in ("+", "-"):
            _, op, position = self.take()
            node = Binary(op, node, self.product(), position)
        return node

    def product(self) -> Node:
        node = self.unary()
        while self.peek()[0] == "op" and self.peek()[1] in ("*", "/", "%"):
            _, op, position = self.take()
            node = Binary(op, node, self.unary(), position)
        return node

    def unary(self) -> Node:
        if self.peek()[:2] == ("op", "-"):
            position = self.take()[2]
            self.deeper(position)
            node = Unary("-", self.unary(), position)
            self.depth -= 1
            return node
        return self.filtered()

    def filtered(self) -> Node:
        node = self.atom()
        while self.peek()[:2] == ("op", "|"):
            self.take()
            node = self.filter(node)
        return node

    def filter(self, operand: Node) -> Node:
        kind, name, position = self.take()
        if kind != "name" or name not in FILTERS:
            shown = "nothing" if kind == "end" else repr(name)
            known = ", ".join(FILTERS)
            raise ExprError(f"unknown filter {shown} (filters: {known})", position)
        argument: object = None
        if FILTERS[name]:
            self.expect("(")
            if name == "map":
                kind, argument, at = self.take()
                if kind != "name" or "." in argument:
                    raise ExprError("map() takes the name of a map of the template", at)
            else:
                self.deeper(position)
                argument = self.either()
                self.depth -= 1
            self.expect(")")
        node = Filter(name, operand, argument, position)
        if name == "default" and isinstance(operand, Filter) and operand.name == "map":
            if operand.fallback is None and isinstance(argument, Node):
                operand.fallback = argument
        return node

    def atom(self) -> Node:
        kind, value, position = self.take()
        if kind == "number":
            return Literal(_literal(value, position), position)
        if kind == "text":
            return Literal(value[1:-1], position)
        if kind == "name":
            if value in ("true", "false"):
                return Literal(value == "true", position)
            if any(part.startswith("_") for part in value.split(".")):
                raise ExprError(f"'{value}' does not name a field", position)
            return Name(tuple(value.split(".")), position)
        if value == "(":
            self.deeper(position)
            node = self.either()
            self.depth -= 1
            self.expect(")")
            return node
        if value == "[":
            return self.list(position)
        shown = "the end" if kind == "end" else repr(value)
        raise ExprError(f"unexpected {shown}", position)

    def list(self, start: int) -> Node:
        """``[a, 2, "c d"]``: bare words are text."""
        items: list[Node] = []
        while True:
            kind, value, position = self.take()
            if kind == "op" and value == "]" and not items:
                return ListNode(items, start)
            if kind == "name":
                items.append(Literal(value, position))
            elif kind == "number":
                items.append(Literal(_literal(value, position), position))
            elif kind == "text":
                items.append(Literal(value[1:-1], position))
            elif kind == "op" and value == "-" and self.peek()[0] == "number":
                items.append(Literal(-_literal(self.take()[1], position), position))
            else:
                shown = "the end" if kind == "end" else repr(value)
                raise ExprError(f"unexpected {shown} in a list", position)
            kind, value, position = self.take()
            if value == "]" and kind == "op":
                return ListNode(items, start)
            if value != "," or kind != "op":
                shown = "the end" if kind == "end" else repr(value)
                raise ExprError(f"expected ',' or ']' in a list, found {shown}", position)


def _literal(digits: str, position: int) -> float:
    value = float(digits)
    if not math.isfinite(value) or len(digits) > 30:
        raise ExprError(f"the number {digits[:12]}… is too long", position)
    return value


def parse(source: str, offset: int = 0) -> Node:
    """An expression's tree; ExprError (with the position) when it cannot be read."""
    return Parser(source, offset).parse()
