"""What a markup span in a template's text may name: the fonts its styles use
(``[font="Noto Serif"]…[/]``) and its colours (``[colour=accent]…[/]``), resolved once
per template so that :func:`deckforge.text.fit.fit` sets spans without the template."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckforge.templates.colours import BASIC, ColourError, _hex

if TYPE_CHECKING:
    from deckforge.templates.compile import Compiler


def font_name(named: object) -> str:
    """The name a span gives a style's ``font``: the font file or packaged family as
    written, or a declared family's regular file."""
    if isinstance(named, dict):
        return str(named.get("regular", ""))
    return str(named)


def span_fonts(compiler: Compiler, weight: str) -> tuple[tuple[str, str], ...]:
    """(name, weight key) of each font the template's styles name, in text of ``weight``
    (regular or bold): what a span's ``font=`` may give. Registered once per weight."""
    cache: dict[str, tuple[tuple[str, str], ...]] = compiler.__dict__.setdefault("_span_fonts", {})
    if weight not in cache:
        found: dict[str, str] = {}
        for style in compiler.template.styles.values():
            named = style.data.get("font")
            if named is None or named == "sans":
                continue
            name = font_name(named)
            if name and name not in found:
                # A font that cannot be used is reported where a style that names it is
                # used, not again here; a span naming it is told it is not one to use.
                before = len(compiler.problems)
                key = compiler.font(style, weight)
                if len(compiler.problems) == before:
                    found[name] = key
                del compiler.problems[before:]
        cache[weight] = tuple(found.items())
    return cache[weight]


def span_colours(compiler: Compiler) -> tuple[tuple[str, str], ...]:
    """(name, ``#RRGGBB``) of each colour a span's ``colour=`` may name: ``black``,
    ``white``, the edition's palette and the template's own colours that bind no field."""
    cache = compiler.__dict__.get("_span_colours")
    if cache is None:
        colours = compiler.colours
        found = {name: _hex(rgb) for name, rgb in {**BASIC, **colours.palette}.items()}
        for name in colours.named:
            try:
                constant = colours.define(name).constant
            except ColourError:
                continue  # reported where the colour is defined
            if constant is not None:
                found.setdefault(name, _hex(constant))
        cache = compiler.__dict__["_span_colours"] = tuple(found.items())
    return cache
