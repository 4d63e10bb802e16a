"""``text``: text with bindings set in its box by the fitter: wrapped, shrunk from the
style's size down to its minimum, and never clipped: text that cannot fit is an error at
the line of the source that holds it.

The text and its style go to :func:`deckforge.text.fit.fit` as they are, so whatever the
fitter learns to set (markup, inline icons) templates can use at once.
"""

from __future__ import annotations

from dataclasses import replace

from deckforge.drawing.ops import Text as TextOp
from deckforge.errors import SourceRef
from deckforge.model import Text as SourceText
from deckforge.templates.bind import OPAQUE, Field, Scope, skeleton
from deckforge.templates.elements import _COLOUR, _LENGTH, CardError, Element
from deckforge.templates.families import SCHEMA as FAMILY
from deckforge.templates.lengths import Box
from deckforge.text import markup
from deckforge.text.fit import FitError, check_glyphs, prepare
from deckforge.text.script import is_rtl_locale
from deckforge.text.spacing import fit_spaced

#: The keys a style has; a text element may give any of them to change its style.
STYLE_KEYS: dict[str, dict] = {
    "font": {
        "description": "'sans' (Noto Sans, with Noto Sans Arabic for Persian; the default), "
        "a TrueType font file in the project, relative to this file, a family of them "
        "whose faces markup uses: {regular: A.ttf, bold: A-Bold.ttf, italic: A-Italic.ttf, "
        "bold_italic: A-BoldItalic.ttf}, or the name of a family installed as a Python "
        "font package (fontpkg-…), like 'Noto Serif'.",
        "oneOf": [{"type": "string", "minLength": 1, "maxLength": 300}, FAMILY],
    },
    "weight": {"description": "regular or bold.", "enum": ["regular", "bold"]},
    "font_size": {**_LENGTH, "description": "The size it is set at when it fits (default 10pt)."},
    "min_font_size": {**_LENGTH, "description": "The smallest it may shrink to (default 7pt)."},
    "colour": {**_COLOUR, "description": "The colour of the text (default ink)."},
    "align": {
        "description": "start (left, or right in right-to-left text), centre, end, left or right.",
        "enum": ["start", "centre", "end", "left", "right"],
    },
    "valign": {"description": "Where it sits in its box.", "enum": ["top", "middle", "bottom"]},
    "leading": {
        "description": "Line height as a multiple of the size (default 1.2).",
        "type": "number",
        "minimum": 0.5,
        "maximum": 4,
    },
    "max_lines": {
        "description": "Most lines it may take (0: no limit).",
        "type": "integer",
        "minimum": 0,
        "maximum": 100,
    },
}
_FLIP = {"left": "right", "right": "left"}


class Text(Element):
    """Fitted text."""

    type = "text"
    description = "Text, with bindings, fitted into its box."
    keys = {
        "text": {
            "description": "The text: words and bindings to the card's fields, like "
            "'{question}', with markup: **bold**, *italic*, \\n for a line break, icons as "
            "':sword:' or '{icon:1F5E1}', spans as '[size=14pt colour=#C8102E]word[/]' "
            "(size, colour, weight, style, and font: a font the template's styles name, "
            "quoted when it holds a space).",
            "type": "string",
            "maxLength": 2000,
        },
        "style": {"description": "A style of this template.", "type": "string"},
        **STYLE_KEYS,
        "stroke": {**_COLOUR, "description": "An outline around each letter, in this colour."},
        "stroke_width": {**_LENGTH, "description": "The letters' outline's width (default 0.5pt)."},
        "letter_spacing": {
            **_LENGTH,
            "description": "Room added between letters (0.5pt), in left-to-right scripts "
            "only: Persian and Arabic letters join and are never spaced apart.",
        },
    }

    def compile(self, spec, compiler) -> None:
        self.pattern = compiler.pattern(spec, "text")
        marked = None  # the template's own text with its markup, if it has any
        if self.pattern is None:
            if "text" not in spec.data:  # else the problem with its text is reported
                compiler.problem(spec, "text", "a text element needs 'text'")
        else:
            self.uses(*self.pattern.fields)
            own = skeleton(str(spec.data["text"]))
            if markup.has_markup(own):
                # Markup of the template's own text is its problem, whatever the cards hold.
                try:
                    marked = markup.parse(own)
                    own = marked.text
                except markup.MarkupError as exc:
                    compiler.problem(spec, "text", str(exc))
                    own = ""
        look = compiler.text_look(spec, Box(compiler.card.w, compiler.card.h))
        self.colour = look.colour
        self.uses(*look.colour.fields)
        self.valign = look.valign
        align = look.style.align
        if self.place.mirrored:
            align = _FLIP.get(align, align)
        rtl = is_rtl_locale(compiler.locale)
        fitter = {"left": "left", "right": "end", "centre": "centre", "start": "start"}
        align = fitter.get(align, "left" if rtl else "end")
        self.style = replace(look.style, align=align)
        if self.pattern is not None and marked is not None and marked.spans:
            try:  # a font or colour its own spans name that the template lacks: reported once
                style = look.style
                markup.fitted(marked, style.size, style.span_fonts, style.span_colours)
            except markup.MarkupError as exc:
                compiler.problem(spec, "text", str(exc))
                self.pattern = None
        if self.pattern is not None:
            try:  # a character of the template's own text: its problem, reported once
                plain = own.replace(markup.OBJECT, "").replace(OPAQUE, "")
                check_glyphs(prepare(plain, compiler.locale), look.style.weight)
            except FitError as exc:
                at = str(spec.data["text"]).find(exc.char or "\0")
                compiler.problem(spec, "text", str(exc), at if at >= 0 else None)
                self.pattern = None
        self.locale = compiler.locale
        self.text_ref = spec.at("text")
        box = Box(self.place.w, self.place.h)
        self.outline = compiler.colour(spec, "stroke")
        self.uses(*(self.outline.fields if self.outline else ()))
        width = compiler.length(spec, "stroke_width", "", box, 0.5)
        self.outline_width = compiler.bounded(spec, "stroke_width", width, "stroke_width", 0.5)
        self.spacing = compiler.length(spec, "letter_spacing", "w", box, 0.0)
        if not -2 <= self.spacing <= 20:
            compiler.problem(spec, "letter_spacing", "letter spacing must be from -2pt to 20pt")
            self.spacing = 0.0

    def ops(self, scope: Scope) -> list:
        if self.pattern is None:
            return []
        value, ref = scope.text(self.pattern)
        if not value.strip():
            return []
        p = self.place
        try:
            fitted = fit_spaced(value, p.w, p.h, self.style, self.locale, self.spacing)
        except FitError as exc:
            if exc.char is not None:  # at the card's value that holds it
                ref = self._holder(scope, exc.char) or ref
            raise CardError(ref or self.text_ref, str(exc)) from None
        top = p.top
        if self.valign == "middle":
            top -= (p.h - fitted.height) / 2
        elif self.valign == "bottom":
            top -= p.h - fitted.height
        colour = self.colour.of(scope)
        if self.outline is None:
            return [TextOp(p.x, top, p.w, fitted, colour)]
        outline = self.outline.of(scope)
        return [
            TextOp(p.x, top, p.w, fitted, colour, outline=outline, outline_width=self.outline_width)
        ]

    def _holder(self, scope: Scope, char: str) -> SourceRef | None:
        """Where the card's value holding a character is (the first that does)."""
        for part in self.pattern.parts:
            if type(part) is str:
                continue
            if type(part) is Field:
                found = scope.value(part)
                if isinstance(found, SourceText) and char in str(found.value):
                    return found.ref
            else:
                text, where = part.text(scope)
                if char in text and where is not None:
                    return where
        return None
