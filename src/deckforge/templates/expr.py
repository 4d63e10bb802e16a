"""The expression language of templates: ``rank > 10``, ``suit in [Hearts, Diamonds]``,
``{suit|map(suits)}``.

An expression is parsed once, when its template is compiled, into a small tree of
:class:`Node` values, and evaluated for each card. It has field names (dotted paths,
as bindings use), numbers, quoted text, lists (``[Hearts, Diamonds]``: bare words in a
list are text), comparisons (``== != < <= > >=``), ``in`` and ``not in``, ``and``,
``or``, ``not``, parentheses, ``+ - * / %`` on numbers, and filters after a bar from a
fixed registry (:data:`FILTERS`). Nothing else can be called and nothing can be looked
up but a card's fields and the template's maps; an expression is at most
:data:`MAX_LENGTH` characters and :data:`MAX_DEPTH` levels deep, and holds no loop, so
its size bounds the work it does on a card.

Text that is a number (every CSV cell is text) is that number wherever a number is
compared or counted with: ``rank > 10`` is true for the cell ``11``.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterator, Mapping
from typing import Any

#: The longest expression, and how deeply its parts may nest.
MAX_LENGTH = 500
MAX_DEPTH = 24
#: Filters: what each takes in its parentheses ("" for nothing).
FILTERS = {
    "map": "the name of a map",
    "default": "a value",
    "upper": "",
    "lower": "",
    "round": "",
    "digits": "",
}
KEYWORDS = ("and", "or", "not", "in")


class ExprError(ValueError):
    """An expression that cannot be read, or a value it cannot work with. ``position``
    is the 0-based offset in the text it was read from; ``node`` the part that failed
    on a card (whose fields say which data cell is to blame)."""

    def __init__(self, message: str, position: int = 0, node: Node | None = None):
        super().__init__(message)
        self.message = message
        self.position = position
        self.node = node


class Node:
    """A part of an expression: ``position`` is where it starts in the text."""

    __slots__ = ("position",)
    position: int

    def names(self) -> list[Name]:
        """The fields it reads, in order."""
        return []

    def evaluate(self, read: Callable[[tuple[str, ...]], object]) -> object:
        """Its value, reading fields with ``read`` (a path → the field's value)."""
        raise NotImplementedError


class Literal(Node):
    """A number, text or true/false written out."""

    __slots__ = ("value",)

    def __init__(self, value: object, position: int):
        self.value, self.position = value, position

    def evaluate(self, read):
        return self.value


class Name(Node):
    """A card's field (or the deck's: ``deck.id``), by its dotted path."""

    __slots__ = ("path",)

    def __init__(self, path: tuple[str, ...], position: int):
        self.path, self.position = path, position

    def names(self):
        return [self]

    def evaluate(self, read):
        return read(self.path)


class ListNode(Node):
    """``[a, 2, 'c d']``: what ``in`` looks in."""

    __slots__ = ("items",)

    def __init__(self, items: list[Node], position: int):
        self.items, self.position = items, position

    def names(self):
        return [n for item in self.items for n in item.names()]

    def evaluate(self, read):
        return [item.evaluate(read) for item in self.items]


class Unary(Node):
    """``not x`` or ``-x``."""

    __slots__ = ("op", "operand")

    def __init__(self, op: str, operand: Node, position: int):
        self.op, self.operand, self.position = op, operand, position

    def names(self):
        return self.operand.names()

    def evaluate(self, read):
        value = self.operand.evaluate(read)
        if self.op == "not":
            return not truthy(value)
        return -number(value, self)


class Binary(Node):
    """Two parts and an operator: a comparison, ``in``, ``and``/``or`` or arithmetic."""

    __slots__ = ("op", "left", "right")

    def __init__(self, op: str, left: Node, right: Node, position: int):
        self.op, self.left, self.right, self.position = op, left, right, position

    def names(self):
        return self.left.names() + self.right.names()

    def evaluate(self, read):
        op = self.op
        if op == "and":
            return truthy(self.left.evaluate(read)) and truthy(self.right.evaluate(read))
        if op == "or":
            return truthy(self.left.evaluate(read)) or truthy(self.right.evaluate(read))
        left, right = self.left.evaluate(read), self.right.evaluate(read)
        if op in ("in", "not in"):
            if not isinstance(right, list):
                raise ExprError(f"'{op}' needs a list after it, like [a, b]", self.position, self)
            found = any(equal(left, item) for item in right)
            return found if op == "in" else not found
        if op == "==":
            return equal(left, right)
        if op == "!=":
            return not equal(left, right)
        if op in ("<", "<=", ">", ">="):
            return _compare(op, left, right, self)
        a, b = number(left, self.left), number(right, self.right)
        if op == "+":
            result = a + b
        elif op == "-":
            result = a - b
        elif op == "*":
            result = a * b
        elif b == 0:
            raise ExprError(f"'{op}' by zero", self.position, self.right)
        else:
            result = a / b if op == "/" else math.fmod(a, b)
        if not math.isfinite(result):
            raise ExprError(f"'{op}' gives a number too large", self.position, self)
        return result


class Filter(Node):
    """``operand|name(argument)``; a ``map`` followed by ``default`` keeps the default as
    ``fallback`` (a value missing from the map is then no error)."""

    __slots__ = ("name", "operand", "argument", "fallback", "table")

    def __init__(self, name: str, operand: Node, argument: object, position: int):
        self.name, self.operand, self.argument, self.position = name, operand, argument, position
        self.fallback: Node | None = None
        self.table: Mapping[str, str] | None = None

    def names(self):
        found = self.operand.names()
        for extra in (self.argument, self.fallback):
            if isinstance(extra, Node):
                found += extra.names()
        return found

    def evaluate(self, read):
        value = self.operand.evaluate(read)
        name = self.name
        if name == "default":
            return self.argument.evaluate(read) if value is None or value == "" else value
        if name == "map":
            if (value is None or value == "") and self.fallback is not None:
                return self.fallback.evaluate(read)
            key = text(value)
            found = self.table.get(key) if self.table is not None else None
            if found is None:
                if self.fallback is not None:
                    return self.fallback.evaluate(read)
                shown = ", ".join(list(self.table or ())[:8])
                more = ", …" if len(self.table or ()) > 8 else ""
                raise ExprError(
                    f"{key!r} is not in the map '{self.argument}' ({shown}{more}); "
                    "add it, or give '|default(...)'",
                    self.position,
                    self.operand,
                )
            return found
        if name == "round":  # halves away from zero, as people round: 2.5 is 3
            found = number(value, self.operand)
            return math.copysign(math.floor(abs(found) + 0.5), found)
        if name == "digits":
            return text(value)  # made the edition's digits where its text is used
        return text(value).upper() if name == "upper" else text(value).lower()


# --- values ----------------------------------------------------------------------------


def truthy(value: object) -> bool:
    """Whether a value counts as true: set and not empty, not false, not zero."""
    if value is None or value is False or value == "" or value == []:
        return False
    if type(value) in (int, float):
        return value != 0
    return True


def _as_number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            found = float(value.strip())
        except ValueError:
            return None
        return found if math.isfinite(found) else None
    return None


def number(value: object, node: Node) -> float:
    """A value as a number; ExprError when it is none."""
    found = _as_number(value)
    if found is None:
        raise ExprError(f"{_shown(value)} is not a number", node.position, node)
    return found


def equal(a: object, b: object) -> bool:
    """Whether two values are the same: as numbers when both are, else as text."""
    x, y = _as_number(a), _as_number(b)
    if x is not None and y is not None:
        return x == y
    if isinstance(a, list) or isinstance(b, list):
        return a == b
    return text(a) == text(b)


def _compare(op: str, a: object, b: object, node: Binary) -> bool:
    x: Any = _as_number(a)
    y: Any = _as_number(b)
    if x is None or y is None:
        if isinstance(a, str) and isinstance(b, str) and x is None and y is None:
            x, y = a, b  # two texts: in alphabetical order
        else:
            bad, part = (a, node.left) if x is None else (b, node.right)
            raise ExprError(
                f"cannot compare {_shown(a)} with {_shown(b)}: {_shown(bad)} is not a number",
                node.position,
                part,
            )
    return _ORDERS[op](x, y)


#: The comparisons, of two numbers or of two texts.
_ORDERS: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def text(value: object) -> str:
    """A value as the text a card shows: numbers without a needless '.0'."""
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if isinstance(value, list):
        return ", ".join(text(item) for item in value)
    return str(value)


def _shown(value: object) -> str:
    if isinstance(value, str):
        return repr(value)
    if value is None:
        return "an empty value"
    if isinstance(value, list):
        return "a list"
    return text(value)


def walk(node: Node) -> Iterator[Node]:
    """Every part of an expression, itself first."""
    stack = [node]
    while stack:
        part = stack.pop()
        yield part
        for name in ("operand", "left", "right", "argument", "fallback"):
            child = getattr(part, name, None)
            if isinstance(child, Node):
                stack.append(child)
        if isinstance(part, ListNode):
            stack.extend(part.items)


def filters(node: Node) -> list[Filter]:
    """Every filter in an expression."""
    return [part for part in walk(node) if isinstance(part, Filter)]


def describe(node: Node) -> str:
    """An expression as it was read, every operation in parentheses: ``a / 3|round`` is
    ``a / (3|round)``."""
    if isinstance(node, Literal):
        if isinstance(node.value, str):
            return repr(node.value)
        return text(node.value)
    if isinstance(node, Name):
        return ".".join(node.path)
    if isinstance(node, ListNode):
        return "[" + ", ".join(describe(item) for item in node.items) + "]"
    if isinstance(node, Unary):
        space = " " if node.op == "not" else ""
        return f"({node.op}{space}{describe(node.operand)})"
    if isinstance(node, Binary):
        return f"({describe(node.left)} {node.op} {describe(node.right)})"
    if isinstance(node, Filter):
        argument = node.argument
        if isinstance(argument, Node):
            argument = describe(argument)
        shown = "" if argument is None else f"({argument})"
        return f"({describe(node.operand)}|{node.name}{shown})"
    return "?"
