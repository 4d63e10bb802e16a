"""Lengths in templates: ``"12mm"``, ``"50%"``, ``"19%h + 8pt"``, ``"min(40%h, 66%w)"``.

A length is a number with a unit (``mm``, ``cm``, ``in``, ``pt``), a share of a box
(``%`` along the axis of the property it sets, ``%w`` and ``%h`` of the box's width and
height), a name (``safe``, ``bleed`` and the template's own ``sizes``), or a sum of them;
products and quotients by plain numbers, ``min()``, ``max()`` and parentheses are allowed.
Expressions are parsed and evaluated once, when a template is compiled for a deck: the
card's size is known then, so drawing a card costs nothing for them. Every step of an
expression must stay a finite number, parentheses and functions nest at most
:data:`MAX_NESTING` deep, and a length is within ``units.LIMITS["length"]`` (a PDF
page's largest side either way).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from deckforge.errors import close_matches
from deckforge.units import POINTS_PER_UNIT, out_of_range

#: How deep parentheses and functions may nest in one expression.
MAX_NESTING = 32


class LengthError(ValueError):
    """A length that cannot be read, with what is wrong in plain words."""


#: The units a number may have, as a message lists them.
UNITS = ("mm", "cm", "in", "pt", "%", "%w", "%h")


_TOKEN = re.compile(
    r"\s*(?:(?P<number>\d+(?:\.\d*)?|\.\d+)(?P<unit>%[A-Za-z]*|[A-Za-z]+)?"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_-]*)|(?P<op>[-+*/(),]))"
)


@dataclass(frozen=True, eq=False)
class Box:
    """What ``%`` is a share of: a width and a height, in points."""

    w: float
    h: float


@dataclass(frozen=True, eq=False)
class _Value:
    number: float
    length: bool  # a length (points), or a plain number


def _finite(number: float) -> float:
    """A step's result, which must be a number (numbers that large overflow, or subtract
    to nothing a number can say)."""
    if not math.isfinite(number):
        raise LengthError("its numbers are too large: a step of it is not a finite number")
    return number


def _add(op: str, value: _Value, other: _Value) -> _Value:
    if other.length != value.length:
        raise LengthError("cannot add a plain number to a length: give it a unit")
    sign = 1 if op == "+" else -1
    return _Value(_finite(value.number + sign * other.number), value.length)


def _multiply(op: str, value: _Value, other: _Value) -> _Value:
    if op == "*":
        if value.length and other.length:
            raise LengthError("cannot multiply two lengths")
        return _Value(_finite(value.number * other.number), value.length or other.length)
    if other.length:
        raise LengthError("can only divide by a plain number")
    if other.number == 0:
        raise LengthError("division by zero")
    return _Value(_finite(value.number / other.number), value.length)


class _Parser:
    def __init__(self, text: str, axis: str, box: Box, names: Mapping[str, float]):
        self.tokens = self._tokenise(text)
        self.at = 0
        self.axis = axis
        self.box = box
        self.names = names
        self.depth = 0

    @staticmethod
    def _tokenise(text: str) -> list[tuple[str, str, str]]:
        tokens = []
        position = 0
        text = text.rstrip()
        while position < len(text):
            match = _TOKEN.match(text, position)
            if match is None or match.end() == position:
                bad = text[position:].strip()[:1]
                raise LengthError(f"unexpected {bad!r}")
            position = match.end()
            if match["number"] is not None:
                unit = match["unit"]
                if unit and unit not in UNITS and not (unit[0] == "%" and unit[1:2] not in "wh"):
                    raise LengthError(
                        f"'{match['number']}{unit}': '{unit}' is not a unit lengths take "
                        f"(they take {', '.join(UNITS)})"
                    )
                tokens.append(("number", match["number"], match["unit"] or ""))
            elif match["name"] is not None:
                tokens.append(("name", match["name"], ""))
            else:
                tokens.append(("op", match["op"], ""))
        return tokens

    def peek(self) -> str | None:
        if self.at < len(self.tokens):
            kind, value, _ = self.tokens[self.at]
            return value if kind == "op" else kind
        return None

    def take(self, op: str) -> None:
        if self.peek() != op:
            found = "the end" if self.peek() is None else repr(self.tokens[self.at][1])
            raise LengthError(f"expected {op!r}, found {found}")
        self.at += 1

    def parse(self) -> _Value:
        value = self.sum()
        if self.at != len(self.tokens):
            kind, found, _ = self.tokens[self.at]
            before = self.tokens[self.at - 1]
            if kind == "name" and before[0] == "number" and not before[2]:
                # "12 px", "12 mm": a unit written apart from its number.
                written = f"'{before[1]} {found}'"
                if found in UNITS:
                    raise LengthError(f"{written}: a unit follows its number without a space")
                raise LengthError(
                    f"{written}: {found!r} is not a unit lengths take "
                    f"(they take {', '.join(UNITS)})"
                )
            raise LengthError(f"unexpected {found!r}")
        return value

    def sum(self) -> _Value:
        return self.chain(("+", "-"), self.product, _add)

    def product(self) -> _Value:
        return self.chain(("*", "/"), self.unary, _multiply)

    def chain(self, ops: tuple[str, str], operand, combine) -> _Value:
        """Operands joined by left-associative operators of one precedence."""
        value = operand()
        while self.peek() in ops:
            op = self.tokens[self.at][1]
            self.at += 1
            value = combine(op, value, operand())
        return value

    def unary(self) -> _Value:
        sign = 1
        while self.peek() == "-":
            self.at += 1
            sign = -sign
        inner = self.atom()
        return inner if sign == 1 else _Value(-inner.number, inner.length)

    def atom(self) -> _Value:
        kind = self.peek()
        if kind is None:
            raise LengthError("the expression ends too early")
        _, value, unit = self.tokens[self.at]
        self.at += 1
        if kind == "number":
            return self.number(float(value), unit)
        if kind == "(":
            self.nest()
            inner = self.sum()
            self.take(")")
            self.depth -= 1
            return inner
        if kind == "name":
            if self.peek() == "(":
                self.nest()
                found = self.function(value)
                self.depth -= 1
                return found
            return self.name(value)
        raise LengthError(f"unexpected {value!r}")

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise LengthError(f"parentheses nest more than {MAX_NESTING} deep")

    def number(self, number: float, unit: str) -> _Value:
        _finite(number)
        if not unit:
            return _Value(number, False)
        if unit.startswith("%"):
            axis = unit[1:] or self.axis
            if axis not in ("w", "h"):
                raise LengthError("say which side '%' is of: '%w' (width) or '%h' (height)")
            return _Value(_finite(number / 100 * (self.box.w if axis == "w" else self.box.h)), True)
        return _Value(_finite(number * POINTS_PER_UNIT[unit]), True)

    def function(self, name: str) -> _Value:
        if name not in ("min", "max"):
            raise LengthError(f"unknown function '{name}' (lengths have min and max)")
        self.take("(")
        args = [self.sum()]
        while self.peek() == ",":
            self.at += 1
            args.append(self.sum())
        self.take(")")
        if len({a.length for a in args}) > 1:
            raise LengthError(f"{name}() mixes lengths and plain numbers")
        pick = min if name == "min" else max
        return _Value(pick(a.number for a in args), args[0].length)

    def name(self, name: str) -> _Value:
        if name in self.names:
            return _Value(self.names[name], True)
        known = sorted(self.names)
        guess = close_matches(name, known)
        hint = f"; did you mean '{guess[0]}'?" if guess else f" (known: {', '.join(known)})"
        raise LengthError(f"unknown length '{name}'{hint}")


def length(value: object, axis: str, box: Box, names: Mapping[str, float] | None = None) -> float:
    """A length expression in points; ``axis`` ('w', 'h' or '') is what '%' is a share of.

    >>> length("50% + 2pt", "w", Box(100, 200))
    52.0
    """
    if isinstance(value, bool):
        raise LengthError("expected a length like '3mm', not true or false")
    if isinstance(value, (int, float)):
        if value == 0:
            return 0.0
        raise LengthError(f"{value!r} needs a unit: '{value}mm', '{value}pt' or '{value}%'")
    if not isinstance(value, str) or not value.strip():
        raise LengthError("expected a length like '3mm', '10pt' or '50%'")
    result = _Parser(value, axis, box, names or {}).parse()
    if not result.length:
        if result.number == 0:
            return 0.0
        raise LengthError(f"'{value}' needs a unit: mm, cm, in, pt or %")
    wrong = out_of_range(result.number, "length")
    if wrong is not None:
        raise LengthError(wrong)
    return result.number


def number(value: object) -> float:
    """A plain number written as one (``0.84``), for amounts and factors."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LengthError(f"expected a number, not {value!r}")
    return float(value)


#: The keys of an element's box, worked out from each other.
_BOX = ("x", "y", "w", "h", "size", "right", "bottom")
#: The keys that hold lengths.
_LENGTHS = (*_BOX, "radius", "stroke_width", "dash", "gap", "points", "font_size", "min_font_size")
#: A name in a length's expression (``safe``, a size), not a unit or a function.
_NAME = re.compile(r"(?<![\d.])\b[A-Za-z_][A-Za-z0-9_-]*\b(?!\s*\()")


def names_in(value: str) -> list[str]:
    """The names (``safe``, sizes) a length's expression uses."""
    return _NAME.findall(value)


def names_used(data: Mapping, key: str) -> list[str]:
    """The names a length key of an element uses; for a key of its box, the names its
    box's keys use (a box is worked out from them together)."""
    if key not in _LENGTHS:
        return []
    keys = _BOX if key in _BOX else (key,)
    values = [str(data[k]) for k in keys if isinstance(data.get(k), (str, list))]
    return names_in(" ".join(values))
