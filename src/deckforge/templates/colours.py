"""Colours in templates: ``"#E4572E"``, ``accent``, ``"{category.colour}"``,
``mix(band, white, 0.84)``, ``readable(band)``.

A colour is a hex value, a name (the edition's palette ``ink``, ``paper``, ``accent``,
``accent_dark``; ``white`` and ``black``; the template's own ``colours``), a binding to a
card's field (whose value is a hex value, a palette colour, or one of the template's own
colours that binds nothing: a category's name picks its colour), or a function of
colours: ``mix(a, b, amount)`` moves ``a`` that share of the way to ``b``; ``readable(a)``
is the ink that reads on ``a`` (dark on light colours, white on dark ones). ``cmyk(c, m,
y, k)`` gives the inks (0–100 each) a print shop asks for, written unchanged into CMYK
files (:class:`~deckforge.drawing.ops.Inks`); a card's data may give one too, and the
names ``white`` and ``black``. Expressions
are parsed once per template; those that bind no card field are worked out then, the
rest once per distinct bound value. A colour may name another that names another, at
most :data:`MAX_DEPTH` deep, and functions nest as deep.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from deckforge.drawing.ops import BLACK, RGB, WHITE, Inks, hex_colour, mix, readable_on
from deckforge.errors import close_matches
from deckforge.templates.bind import BindError, Field, Scope, parse_field, raw

BASIC = {"white": WHITE, "black": BLACK}
_HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")
_TOKEN = re.compile(
    r"\s*(?:(?P<hex>#[0-9A-Za-z]*)|(?P<field>\{[^{}]*\})|(?P<number>-?(?:\d+(?:\.\d*)?|\.\d+))"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_-]*)|(?P<op>[(),]))"
)


#: How many named colours one may lead through (a names b names c…), and how deep
#: functions may nest in one expression.
MAX_DEPTH = 32


class ColourError(ValueError):
    """A colour expression that cannot be read."""


class _MixError(ColourError, BindError):
    """Colours ``mix()`` cannot mix: at the template's key when both are written out, at
    the card's data when one is bound."""


class _TooDeep(ColourError):
    """Colours that name each other too deep: said whole, not once per colour on the way."""


@dataclass(frozen=True, eq=False)
class Colour:
    """A compiled colour: a constant, or a function of the card's bound fields."""

    fields: tuple[Field, ...]
    constant: RGB | None
    evaluate: Callable[[Scope], RGB]

    def of(self, scope: Scope) -> RGB:
        """The colour on one card."""
        return self.constant if self.constant is not None else self.evaluate(scope)


def _const(rgb: RGB) -> Colour:
    return Colour((), rgb, lambda scope: rgb)


@lru_cache(maxsize=4096)
def data_colour(value: str, palette: tuple[tuple[str, RGB], ...]) -> RGB:
    """A colour as a card's data gives it: ``#RRGGBB``, a palette name, ``white``,
    ``black`` or ``cmyk(c, m, y, k)``."""
    if _HEX.match(value):
        return hex_colour(value)
    for name, rgb in palette:
        if name == value:
            return rgb
    basic = BASIC.get(value.strip().lower())
    if basic is not None:
        return basic
    if is_cmyk(value):
        try:
            return _Compiler({}, {}, {}).compile(value).of(None)  # type: ignore[arg-type]
        except ColourError as exc:
            raise BindError(str(exc)) from None
    raise BindError(f"'{value}' is not a colour: use #RRGGBB, like '#E4572E'")


def is_cmyk(value: str) -> bool:
    """Whether a value is written as inks, ``cmyk(…)`` (right or wrong)."""
    return value.lstrip().lower().startswith("cmyk(")


def cmyk_problem(value: str) -> str | None:
    """What is wrong with inks a card's data gives, ``cmyk(…)``; None when they are right."""
    try:
        _Compiler({}, {}, {}).compile(value)
    except ColourError as exc:
        return str(exc)
    return None


class _Compiler:
    def __init__(
        self,
        palette: Mapping[str, RGB],
        named: Mapping[str, str],
        done: dict[str, Colour],
    ):
        self.palette = palette
        self.named = named
        self.done = done
        self.active: list[str] = []
        self.depth = 0

    def named_colour(self, name: str) -> Colour:
        if name in self.done:
            return self.done[name]
        if name in self.active:
            cycle = " → ".join([*self.active[self.active.index(name) :], name])
            raise ColourError(f"the colours refer to each other: {cycle}")
        if len(self.active) >= MAX_DEPTH:
            chain = [*self.active[:3], "…", *self.active[-1:], name]
            raise _TooDeep(f"{' names '.join(chain)} (more than {MAX_DEPTH} levels)")
        self.active.append(name)
        child = _Compiler(self.palette, self.named, self.done)
        child.active = self.active  # the same chain, to find cycles
        try:
            compiled = child.compile(self.named[name])
        except _TooDeep:
            raise
        except ColourError as exc:
            raise ColourError(f"in the colour '{name}': {exc}") from None
        finally:
            self.active.pop()
        self.done[name] = compiled
        return compiled

    def compile(self, text: object) -> Colour:
        if not isinstance(text, str):
            raise ColourError(f"expected a colour like '#E4572E' or 'accent', not {text!r}")
        self.tokens = self._tokenise(text)
        self.at = 0
        result = self.expression()
        if self.at != len(self.tokens):
            raise ColourError(f"unexpected {self.tokens[self.at][1]!r}")
        return result

    @staticmethod
    def _tokenise(text: str) -> list[tuple[str, str]]:
        tokens, position, text = [], 0, text.rstrip()
        while position < len(text):
            match = _TOKEN.match(text, position)
            if match is None or match.end() == position:
                raise ColourError(f"unexpected {text[position:].strip()[:1]!r}")
            position = match.end()
            kind = match.lastgroup or ""
            tokens.append((kind, match.group(kind)))
        return tokens

    def next(self) -> tuple[str, str]:
        if self.at >= len(self.tokens):
            raise ColourError("the colour ends too early")
        token = self.tokens[self.at]
        self.at += 1
        return token

    def expect(self, op: str) -> None:
        kind, value = self.next()
        if value != op:
            raise ColourError(f"expected {op!r}, found {value!r}")

    def expression(self) -> Colour:
        kind, value = self.next()
        if kind == "hex":
            if not _HEX.match(value):
                raise ColourError(f"'{value}' is not a colour: use #RRGGBB, like '#E4572E'")
            return _const(hex_colour(value))
        if kind == "field":
            try:
                field = parse_field(value[1:-1])
            except BindError as exc:
                raise ColourError(str(exc)) from None
            return self.bound(field)
        if kind == "name":
            if self.at < len(self.tokens) and self.tokens[self.at][1] == "(":
                self.depth += 1
                if self.depth > MAX_DEPTH:
                    raise ColourError(f"functions nest more than {MAX_DEPTH} deep")
                found = self.function(value)
                self.depth -= 1
                return found
            return self.name(value)
        raise ColourError(f"unexpected {value!r}")

    def bound(self, field: Field) -> Colour:
        palette = tuple(self.palette.items())
        done = self.done  # the template's own colours, all compiled before cards are drawn

        def evaluate(scope: Scope) -> RGB:
            value = raw(scope.value(field))
            if not isinstance(value, str):
                raise BindError(f"'{{{field.name}}}' is not set to a colour")
            own = done.get(value) or done.get(value.lower())
            if own is not None and own.constant is not None:
                return own.constant
            return data_colour(value, palette)

        return Colour((field,), None, evaluate)

    def name(self, name: str) -> Colour:
        if name in self.named:
            return self.named_colour(name)
        if name in self.palette:
            return _const(self.palette[name])
        if name in BASIC:
            return _const(BASIC[name])
        known = sorted({*self.named, *self.palette, *BASIC})
        guess = close_matches(name, known)
        hint = f"; did you mean '{guess[0]}'?" if guess else f" (known: {', '.join(known)})"
        raise ColourError(f"unknown colour '{name}'{hint}")

    def function(self, name: str) -> Colour:
        self.expect("(")
        if name == "readable":
            inner = self.expression()
            self.expect(")")
            return _apply(readable_on, inner)
        if name == "cmyk":
            return _const(self.inks())
        if name == "mix":
            first = self.expression()
            self.expect(",")
            second = self.expression()
            self.expect(",")
            kind, value = self.next()
            if kind != "number" or not 0 <= float(value) <= 1:
                raise ColourError(f"mix() takes an amount from 0 to 1, not {value!r}")
            self.expect(")")
            amount = float(value)
            return _combine(lambda a, b: _mix(a, b, amount), first, second)
        raise ColourError(f"unknown function '{name}' (colours have cmyk, mix and readable)")

    def inks(self) -> Inks:
        """The four numbers of ``cmyk(c, m, y, k)``, after its ``(``: each 0–100."""
        values: list[str] = []
        while True:
            kind, value = self.next()
            if kind != "number":
                raise ColourError(f"cmyk() takes numbers from 0 to 100, not {value!r}")
            values.append(value)
            kind, value = self.next()
            if value == ")":
                break
            if value != ",":
                raise ColourError(f"expected ',' or ')', found {value!r}")
        if len(values) != 4:
            raise ColourError(
                f"cmyk() takes four inks, cyan, magenta, yellow and black, from 0 to 100; "
                f"found {len(values)}: cmyk({', '.join(values)})"
            )
        wrong = next((v for v in values if not 0 <= float(v) <= 100), None)
        if wrong is not None:
            raise ColourError(f"cmyk() inks are from 0 to 100 (per cent); {wrong} is not")
        return Inks(*(round(float(v) / 100, 6) for v in values))


def _mix(a: RGB, b: RGB, amount: float) -> RGB:
    """``mix()``: inks with inks (or white, no ink) mix as inks; inks with another RGB
    colour have no one meaning, and are refused."""
    if isinstance(a, Inks) != isinstance(b, Inks) and WHITE not in (a, b):
        inks, other = (a, b) if isinstance(a, Inks) else (b, a)
        message = (
            f"mix() of inks, {inks!r}, and an RGB colour, {_hex(other)}: give both as "
            "cmyk(), or both in RGB"
        )
        raise _MixError(message)
    return mix(a, b, amount)


def _hex(rgb: RGB) -> str:
    return "#" + "".join(f"{round(v * 255):02X}" for v in rgb)


def _apply(function: Callable[[RGB], RGB], inner: Colour) -> Colour:
    if inner.constant is not None:
        return _const(function(inner.constant))
    cached = lru_cache(maxsize=256)(function)
    return Colour(inner.fields, None, lambda scope: cached(inner.of(scope)))


def _combine(function: Callable[[RGB, RGB], RGB], a: Colour, b: Colour) -> Colour:
    if a.constant is not None and b.constant is not None:
        return _const(function(a.constant, b.constant))
    cached = lru_cache(maxsize=256)(function)
    return Colour(
        tuple(dict.fromkeys(a.fields + b.fields)),
        None,
        lambda scope: cached(a.of(scope), b.of(scope)),
    )


class Colours:
    """The colours of one template, compiled against the edition's palette."""

    def __init__(self, palette: Mapping[str, RGB], named: Mapping[str, str]):
        self.palette = dict(palette)
        self.named = dict(named)
        self.done: dict[str, Colour] = {}

    def compile(self, text: object) -> Colour:
        """A colour expression, compiled (ColourError when it is not one)."""
        return _Compiler(self.palette, self.named, self.done).compile(text)

    def define(self, name: str) -> Colour:
        """One of the template's named colours, compiled."""
        return _Compiler(self.palette, self.named, self.done).named_colour(name)

    def constants(self) -> tuple[str, ...]:
        """The template's own colours that bind no card field: the names a card's data
        may give as a colour."""
        return tuple(sorted(n for n, c in self.done.items() if c.constant is not None))
