"""Compiling a template for one deck: sizes, colours, styles and boxes worked out once.

The card's size is known when a deck is laid out, so every length becomes points, every
colour that binds no card field becomes a constant, every style a
:class:`~deckforge.text.fit.TextStyle` and every binding a parsed
:class:`~deckforge.templates.bind.Pattern`. What is left for each card is binding its
fields, fitting its text and making the drawing operations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from deckforge.drawing.ops import RGB, hex_colour
from deckforge.errors import Problem, SourceRef, close_matches
from deckforge.templates import computed, geometry, spanlook
from deckforge.templates.bind import BindError, Field, Pattern, parse, parse_field
from deckforge.templates.carets import character_at
from deckforge.templates.colours import Colour, ColourError, Colours
from deckforge.templates.elements import (
    COMMON_KEYS,
    Condition,
    Element,
    Paint,
    Whole,
    element_type,
)
from deckforge.templates.families import family_key
from deckforge.templates.lengths import Box, LengthError, length, names_in, names_used
from deckforge.templates.load import Template
from deckforge.templates.spec import Spec
from deckforge.templates.trim import trim_of
from deckforge.text import fonts
from deckforge.text.fit import TextStyle
from deckforge.text.script import is_rtl_locale
from deckforge.units import MIN_DASH_CYCLE, out_of_range

#: Smallest type on a card unless a style says otherwise (print shops: 7 pt).
MIN_TYPE = 7.0
#: Kinds of data a binding needs, strongest first (a field used as a colour and as
#: text must be a colour).
KINDS = ("art", "icon", "colour", "number", "text")


@dataclass(frozen=True, eq=False)
class Context:
    """What a card kind tells the engine about a deck: the edition's locale and palette,
    the values bindings under ``deck``, ``edition`` and ``palette`` read, the card's size
    (None: the template's own) and the prefix of the keys of its shared faces."""

    locale: str
    palette: Mapping[str, str]
    shared: Mapping[str, object]
    size_mm: tuple[float, float] | None = None
    key: str = ""


@dataclass(frozen=True, eq=False)
class TextLook:
    """A text element's style, compiled: how the fitter sets it, its colour, where it sits
    in its box vertically."""

    style: TextStyle
    colour: Colour
    valign: str


@dataclass(eq=False)
class Compiled:
    """A template compiled for a deck: the card and the elements, in drawing order."""

    name: str
    card: geometry.Card
    elements: list[Element]
    locale: str
    #: What each card field it binds must be (text, number, colour, icon, art), and where
    #: the template first binds it.
    needs: dict[str, tuple[str, SourceRef]] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    #: Its own colours that bind nothing, which a card's data may name.
    colours: tuple[str, ...] = ()
    #: Where its card's size was set (None: by the deck).
    size_at: SourceRef | None = None


class Compiler:
    """Compiles one template for one deck; elements call its helpers for their keys."""

    def __init__(self, template: Template, context: Context):
        self.template = template
        self.context = context
        self.locale = context.locale
        self.problems: list[Problem] = []
        self.needs: dict[str, tuple[str, SourceRef]] = {}
        self.files: list[Path] = list(template.files)
        self.card = self._card()
        self.maps = computed.maps_of(template.maps, self.problems)
        self.rtl = is_rtl_locale(context.locale) and self._setting("mirror", True) is not False
        self.names = {"safe": self.card.safe, "bleed": self.card.bleed}
        #: Where each name was set, for problems it causes elsewhere (:meth:`problem`).
        settings = template.settings
        self.named_at: dict[str, SourceRef] = {
            key: settings[key][1].ref for key in ("safe", "bleed") if key in settings
        }
        #: Sizes that could not be worked out (reported once, not again where used).
        self.failed: set[str] = set()
        trim = Box(self.card.w, self.card.h)
        for name, (value, origin) in template.sizes.items():
            if isinstance(value, str) and self.failed.intersection(names_in(value)):
                self.failed.add(name)
                continue
            try:
                self.names[name] = length(value, "", trim, self.names)
            except LengthError as exc:
                self.problems.append(Problem(origin.ref, str(exc)))
                self.failed.add(name)
            else:
                self.named_at[name] = origin.ref
        palette: dict[str, RGB] = {k: hex_colour(v) for k, v in context.palette.items()}
        written = cast("dict[str, str]", {k: v for k, (v, _) in template.colours.items()})
        self.colours = Colours(palette, written)
        for name, (_, origin) in template.colours.items():
            if name in palette:
                self.problems.append(
                    Problem(origin.ref, f"'{name}' is a palette colour; give yours another name")
                )
                continue
            try:
                compiled = self.colours.define(name)
            except ColourError as exc:
                self.problems.append(Problem(origin.ref, str(exc)))
            else:
                self._need(compiled.fields, "colour", origin.ref)

    def _setting(self, key: str, default: object) -> object:
        found = self.template.settings.get(key)
        return default if found is None else found[0]

    def _card(self) -> geometry.Card:
        trim = trim_of(self.template, self.context.size_mm)
        self.problems.extend(trim.problems)
        self.size_at = trim.ref
        return trim.card

    # --- helpers for elements ------------------------------------------------------------

    def problem(self, spec: Spec, key: str, message: str, at: int | None = None) -> None:
        """A problem with one key of an element (at its character ``at``, if given). When
        the key was written in a template this one extends, and a name it uses (``safe``,
        a size) was set in this one, the problem is where that name was set: that is what
        made the value wrong."""
        where = spec.at(key)
        if at is not None and isinstance(spec.data.get(key), str):
            where = character_at(where, self.template.files, spec.data[key], at)
        own = self.template.ref.file
        used = names_used(spec.data, key)
        if self.failed.intersection(used):
            return  # a size it uses could not be worked out, and that was reported
        if where.file != own:
            for name in used:
                set_at = self.named_at.get(name)
                if set_at is not None and set_at.file == own:
                    styles = self.template.styles.values()
                    what = "style" if any(spec is style for style in styles) else "element"
                    message += f" (the {what} '{spec.name}' at {where.where} uses {name})"
                    where = set_at
                    break
        self.problems.append(Problem(where, message))

    def bounded(self, spec: Spec, key: str, value: float, limit: str, default: float) -> float:
        """A number of an element's key, or ``default`` after a problem when it is outside
        its range (:data:`deckforge.units.LIMITS`)."""
        wrong = out_of_range(value, limit)
        if wrong is None:
            return value
        self.problem(spec, key, wrong)
        return default

    def _need(self, fields: tuple[Field, ...], kind: str, ref: SourceRef) -> None:
        for f in fields:
            if not f.on_card:
                continue
            wanted = "number" if "digits" in f.filters and kind == "text" else kind
            old = self.needs.get(f.name)
            if old is None or KINDS.index(wanted) < KINDS.index(old[0]):
                self.needs[f.name] = (wanted, ref)

    def place(self, spec: Spec, frame: geometry.Frame) -> geometry.Place:
        """An element's box (a zero box after reporting a problem)."""
        try:
            turn = float(spec.data.get("rotation", 0))
            found = geometry.place(spec.data, frame, self.names, turn)
        except geometry.GeometryError as exc:
            self.problem(spec, exc.key, str(exc))
            return geometry.Place(0, 0, 0, 0)
        if frame.card is not None:
            for key, message in geometry.past_bleed(found, frame.card):
                self.problem(spec, key, message)
        return found

    def length(self, spec: Spec, key: str, axis: str, box: Box, default: float = 0.0) -> float:
        """A length key of an element, ``%`` of ``box``."""
        if key not in spec.data:
            return default
        try:
            return length(spec.data[key], axis, box, self.names)
        except LengthError as exc:
            self.problem(spec, key, str(exc))
            return default

    def colour(self, spec: Spec, key: str) -> Colour | None:
        """A colour key, compiled (None when absent or wrong)."""
        if key not in spec.data:
            return None
        try:
            compiled = self.colours.compile(spec.data[key])
        except ColourError as exc:
            self.problem(spec, key, str(exc))
            return None
        self._need(compiled.fields, "colour", spec.at(key))
        return compiled

    def pattern(self, spec: Spec, key: str, kind: str = "text") -> Pattern | None:
        """A key holding text with bindings, parsed."""
        value = spec.data.get(key)
        if value is None:
            return None
        try:
            pattern = parse(str(value))
        except BindError:
            pattern = None
        if pattern is None or any(computed.looks_like_expression(f.name) for f in pattern.fields):
            try:  # a binding that is an expression: `{suit|map(suits)}`
                shared = self.context.shared
                pattern = computed.pattern(str(value), self.maps, spec.at(key), shared)
            except (BindError, computed.Failure) as exc:
                self.problem(spec, key, str(exc), getattr(exc, "position", None))
                return None
        self._need(pattern.fields, kind, spec.at(key))
        return pattern

    def composed(self, spec: Spec, key: str) -> Pattern | None:
        """A key whose value is text with bindings in it (``"art/{art}.png"``), not one
        whole binding nor a value written out: the pattern, else None."""
        value = spec.data.get(key)
        if not isinstance(value, str) or "{" not in value:
            return None
        pattern = self.pattern(spec, key)
        if pattern is None or pattern.single is not None or not pattern.fields:
            return None
        return pattern

    def source(self, spec: Spec, key: str, kind: str, example: str) -> tuple[Field | None, bool]:
        """A key that holds one binding (``'{icon}'``) or a value written out: the bound
        field, and whether a value is written out instead."""
        pattern = self.pattern(spec, key, kind)
        if pattern is None:
            self.problem(spec, key, f"a {spec.data.get('type')} element needs '{key}'")
        elif pattern.single is not None:
            return pattern.single, False
        elif pattern.fields:
            self.problem(spec, key, f"give one binding, like '{example}', or a value")
        else:
            return None, True
        return None, False

    def whole(self, spec: Spec, key: str, default: int | None = None) -> Whole:
        """A key holding a whole number or one binding (``'{lines}'``)."""
        value = spec.data.get(key)
        if value is None or (isinstance(value, int) and not isinstance(value, bool)):
            return Whole(None, default if value is None else value, spec.at(key))
        if isinstance(value, str) and value.strip().isdecimal():
            return Whole(None, int(value), spec.at(key))
        field, written = self.source(spec, key, "number", "{count}")
        if written:
            message = f"give a whole number or a binding like '{{count}}', not {value!r}"
            self.problem(spec, key, message)
        return Whole(field, None, spec.at(key))

    def paint(self, spec: Spec, box: Box) -> Paint:
        """A shape's fill and outline."""
        dash = tuple(
            self.length(Spec({"dash": d}, spec.origins, spec.origin), "dash", "", box)
            for d in spec.data.get("dash", ())
        )
        wrong = next((w for d in dash if (w := out_of_range(d, "dash")) is not None), None)
        if wrong is None and dash and sum(dash) < MIN_DASH_CYCLE:
            wrong = f"a dash and its space must together be at least {MIN_DASH_CYCLE:g}pt"
        if wrong is not None:
            self.problem(spec, "dash", wrong)
            dash = ()
        width = self.length(spec, "stroke_width", "", box, 0.5)
        return Paint(
            self.colour(spec, "fill"),
            self.colour(spec, "stroke"),
            self.bounded(spec, "stroke_width", width, "stroke_width", 0.5),
            dash,
        )

    def conditions(self, spec: Spec) -> tuple[Condition | computed.Test, ...]:
        """An element's ``when`` and ``unless``."""
        found: list[Condition | computed.Test] = []
        for key, negate in (("when", False), ("unless", True)):
            value = spec.data.get(key)
            if value is None:
                continue
            if isinstance(value, str) and computed.looks_like_expression(value):
                try:
                    shared = self.context.shared
                    test = computed.condition(value, self.maps, spec.at(key), negate, shared)
                except computed.Failure as exc:
                    self.problem(spec, key, str(exc), exc.position)
                else:
                    found.append(test)
                    self._need(test.fields, "text", spec.at(key))
                continue
            items = value.items() if isinstance(value, dict) else [(value, None)]
            for name, wanted in items:
                try:
                    f = parse_field(str(name).strip().strip("{}"))
                except BindError as exc:
                    self.problem(spec, key, str(exc))
                    continue
                values = None
                if wanted is not None:
                    listed = wanted if isinstance(wanted, list) else [wanted]
                    values = tuple(str(v) for v in listed)
                self._need((f,), "text", spec.at(key))
                found.append(Condition(f, values, negate))
        return tuple(found)

    def text_look(self, spec: Spec, box: Box) -> TextLook:
        """A text element's style: its named style with the element's own keys over it."""
        merged: dict[str, object] = {}
        where: dict[str, Spec] = {}
        name = spec.data.get("style")
        if name is not None:
            style = self.template.styles.get(str(name))
            if style is None:
                known = ", ".join(sorted(self.template.styles)) or "none"
                self.problem(spec, "style", f"unknown style '{name}' (styles: {known})")
            else:
                merged.update(style.data)
                where.update(dict.fromkeys(style.data, style))
        for key in STYLE_KEYS:
            if key in spec.data:
                merged[key] = spec.data[key]
                where[key] = spec
        return self._look(merged, where, box)

    def _look(self, merged: dict, where: dict[str, Spec], box: Box) -> TextLook:
        def value(key: str, default: float) -> float:
            if key not in merged:
                return default
            found = self.length(where[key], key, "h", box, default)
            return self.bounded(where[key], key, found, "font_size", default)

        size = value("font_size", 10.0)
        min_size = value("min_font_size", min(size, MIN_TYPE))
        weight = weight_name = str(merged.get("weight", fonts.REGULAR))
        if "font" in merged and merged["font"] != "sans":
            weight = self.font(where["font"], weight)
        colour = None
        if "colour" in merged:
            colour = self.colour(where["colour"], "colour")
        if colour is None:
            colour = self.colours.compile("ink" if "ink" in self.colours.palette else "black")
        style = TextStyle(
            size=size,
            min_size=min(min_size, size),
            weight=weight,
            leading=float(merged.get("leading", 1.2)),
            max_lines=int(merged.get("max_lines", 0)),
            align=str(merged.get("align", "start")),
            # Persian labels keep the size of English ones (see TextStyle.latin_height).
            latin_height=True,
            span_fonts=spanlook.span_fonts(self, weight_name),
            span_colours=spanlook.span_colours(self),
        )
        return TextLook(style, colour, str(merged.get("valign", "top")))

    def font(self, spec: Spec, weight: str) -> str:
        """The weight key of a font file, or of a family of files, named by a style."""
        named = spec.data["font"]
        if isinstance(named, dict) or not str(named).lower().endswith((".ttf", ".otf")):
            return family_key(self, spec, weight)
        path = self.path(spec, "font", (".ttf", ".otf"))
        try:
            return weight if path is None else fonts.register_file(path, weight)
        except (fonts.FontFileError, OSError) as exc:
            self.problem(spec, "font", str(exc))
            return weight

    def path(
        self, spec: Spec, key: str, suffixes: tuple[str, ...], value: object = None
    ) -> Path | None:
        """A file named by a key (or ``value`` written there), relative to the file that
        wrote it, inside its root."""
        value = spec.data[key] if value is None else value
        target = spec.folder(key).file(str(value), suffixes)
        if isinstance(target, str):
            self.problem(spec, key, target)
            return None
        self.files.append(target)
        return target

    def elements(
        self, specs: list[Spec], frame: geometry.Frame, conditions: tuple = ()
    ) -> list[Element]:
        """Elements compiled in order; groups that are not turned give their children."""
        out: list[Element] = []
        for spec in specs:
            kind = spec.data.get("type")
            if kind is None:
                self.problems.append(
                    Problem(spec.at("name"), f"the element '{spec.name}' has no 'type'")
                )
                continue
            cls = element_type(str(kind))
            if cls is None:  # the template schema names every type; this is for safety
                self.problems.append(Problem(spec.at("type"), f"no element type '{kind}'"))
                continue
            if self._keys_fit(spec, cls):
                out.extend(cls(spec, self, frame, conditions).flattened())
        return out

    def _keys_fit(self, spec: Spec, cls: type[Element]) -> bool:
        """Whether every key of an element is one its type takes (the schema allows the
        keys of every type; each type knows its own)."""
        allowed = [*COMMON_KEYS, *cls.keys]
        given = list(spec.data) + (["elements"] if spec.children else [])
        wrong = [key for key in given if key not in allowed]
        for key in wrong:
            guess = close_matches(key, allowed)
            hint = f"; did you mean '{guess[0]}'?" if guess else ""
            self.problems.append(
                Problem(
                    spec.key_refs.get(key, spec.at(key)),
                    f"a {cls.type} element has no key '{key}'{hint}",
                )
            )
        return not wrong


STYLE_KEYS: tuple[str, ...] = (
    "font",
    "weight",
    "font_size",
    "min_font_size",
    "colour",
    "align",
    "valign",
)
STYLE_KEYS += ("leading", "max_lines")


def compile_template(template: Template, context: Context) -> tuple[Compiled | None, list[Problem]]:
    """A template compiled for a deck, or the problems that stop it."""
    compiler = Compiler(template, context)
    card = compiler.card
    frame = geometry.Frame(card.w, card.h, mirror=compiler.rtl, card=card)
    elements = compiler.elements(template.elements, frame)
    if compiler.problems:
        return None, list(dict.fromkeys(compiler.problems))
    own = compiler.colours.constants()
    compiled = Compiled(
        template.name,
        card,
        elements,
        context.locale,
        compiler.needs,
        compiler.files,
        own,
        compiler.size_at,
    )
    return compiled, []
