"""The painter's pictures: OpenMoji icons, each a form XObject defined on first use
(in its own colours, or tinted), and users' art files, raster or SVG.

A tint recolours everything an icon or SVG paints, fills and outlines alike, to one
colour: the shape is kept as a silhouette, and what it leaves unpainted stays unpainted,
so the card shows through there. It is done on the drawing's operators: every colour
they set becomes the tint's, in the file's colour space. Pictures an SVG embeds are
drawn as they are.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from contextlib import AbstractContextManager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.rl_accel import fp_str
from reportlab.lib.utils import ImageReader

from deckforge.art import icons, images
from deckforge.drawing.ops import RGB, Icon, Picture
from deckforge.render.colour import Converter
from deckforge.render.pdf import icon_cache
from deckforge.rl import pdf as adapter
from deckforge.text import fonts

if TYPE_CHECKING:
    from reportlab.pdfgen import canvas as rl_canvas

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)"


def _setting(rgb: str, cmyk: str, grey: str) -> re.Pattern:
    """The operators setting a colour: three numbers and ``rgb``, four and ``cmyk``, one
    and ``grey``."""
    n = rf"{_NUMBER}\s+"
    return re.compile(rf"(?<!\S)(?:(?:{n}){{3}}{rgb}|(?:{n}){{4}}{cmyk}|{n}{grey})(?!\S)")


_FILL = _setting("rg", "k", "g")
_STROKE = _setting("RG", "K", "G")


def tinted(ops: Sequence[str], fill: str, stroke: str) -> tuple[str, ...]:
    """Drawing operators with every fill colour set to ``fill`` and every stroke colour
    to ``stroke`` (each an operator setting the tint)."""
    return tuple(_STROKE.sub(stroke, _FILL.sub(fill, op)) for op in ops)


@lru_cache(maxsize=64)
def _cmyk_art(path: str, converter: Converter) -> ImageReader:
    from PIL import Image

    with Image.open(path) as image:
        return ImageReader(converter.image(image))


@lru_cache(maxsize=1024)
def _icon_drawing(code: str, converter: Converter | None):
    return icons.drawing(code) if converter is None else converter.drawing(icons.drawing(code))


@lru_cache(maxsize=256)
def _svg(path: str):
    """User SVG art as checked (:func:`deckforge.art.images.svg_drawing`), its text set
    in deckforge's own embedded face."""
    import copy

    from reportlab.graphics.shapes import String

    drawing = copy.deepcopy(images.svg_drawing(Path(path)))
    face = fonts.face("latin").name
    stack = [drawing]
    while stack:
        node = stack.pop()
        if isinstance(node, String):
            node.fontName = face
        stack.extend(getattr(node, "contents", None) or ())
    return drawing


class Pictures:
    """What the painter (:class:`.painter.Painter`) draws pictures with: icons' forms,
    art files, ReportLab drawings."""

    # What the painter that draws with these has: its canvas and the operators being
    # drawn, its colour converter, the forms defined in the file and their sizes.
    c: rl_canvas.Canvas
    code: list[str]
    converter: Converter | None
    colour_key: str | None
    forms: set[str]
    sizes: dict[str, tuple[float, float]]
    drawing_font: str | None

    if TYPE_CHECKING:

        def colour(self, rgb: RGB, stroke: bool = False, area: bool = False) -> str: ...

        def defining(
            self, form: str, box: tuple[float, float, float, float]
        ) -> AbstractContextManager[None]: ...

        def do_form(self, form: str) -> None: ...

    def icon_form(self, code: str, tint: RGB | None = None) -> tuple[str, float, float]:
        """The form XObject of an icon, tinted if given (defined on first use), and its
        natural size."""
        paint = self.tint(tint)
        key = (code if paint is None else f"{code} {paint[0]}", self.colour_key)
        form = f"I{code.replace('-', '_')}"
        if paint is not None:
            form += f"_T{hashlib.sha256(paint[0].encode()).hexdigest()[:8]}"
        size = self.sizes.get(form)
        if size is not None:  # defined in this file already
            return form, *size
        cached = icon_cache.fetch(key)
        self.forms.add(form)
        if cached is not None:
            width, height, operators = cached
            with self.defining(form, (0, 0, width, height)):
                self.code.extend(operators)
        else:
            width, height, made = self.make_icon(form, code, paint)
            # Plain paths and colours only: operators that name resources of this file
            # (graphics states, fonts, images) cannot be carried to another.
            keep = icon_cache.only_drawing(made)
            icon_cache.remember(key, (width, height, made) if keep else None)
        self.sizes[form] = (width, height)
        return form, width, height

    def tint(self, tint: RGB | None) -> tuple[str, str] | None:
        """The operators setting a tint as fill and as stroke colour (None: no tint)."""
        if tint is None:
            return None
        return self.colour(tint), self.colour(tint, stroke=True)

    def make_icon(
        self, form: str, code: str, paint: tuple[str, str] | None = None
    ) -> tuple[float, float, tuple[str, ...]]:
        """Draw an icon from its SVG (through svglib if :mod:`.icon_ops` does not draw it)
        into its form, tinted by ``paint`` (:meth:`tint`); its size and the operators
        drawn."""
        # Imported by the first icon drawn (most come from the cache): cards without
        # icons start without the SVG reader.
        from deckforge.render.pdf import icon_ops

        made = icon_ops.made(code, self.converter)
        if made is None:
            drawing = _icon_drawing(code, self.converter)
            with self.defining(form, (0, 0, drawing.width, drawing.height)):
                start = len(self.code)
                self.drawing(drawing)
                if paint is not None:
                    self.code[start:] = tinted(self.code[start:], *paint)
                return drawing.width, drawing.height, tuple(self.code[start:])
        if paint is not None:
            made = (made[0], made[1], tinted(made[2], *paint))
        with self.defining(form, (0, 0, made[0], made[1])):
            self.code.extend(made[2])
        return made

    def icon(self, op: Icon) -> None:
        form, w, h = self.icon_form(op.name, op.tint)
        scale = min(op.w / w, op.h / h)
        x, y = op.x + (op.w - w * scale) / 2, op.y + (op.h - h * scale) / 2
        self.code.append(f"q {fp_str(scale, 0, 0, scale, x, y)} cm")
        self.do_form(form)
        self.code.append("Q")

    def picture(self, op: Picture) -> None:
        """User art scaled (never stretched) to cover or fit its box, clipped to it."""
        c = self.c
        if op.kind == "svg":
            drawing = _svg(op.path)
            if self.converter is not None:
                drawing = self.converter.drawing(drawing)
            nat_w, nat_h = drawing.width, drawing.height
        else:
            if self.converter is not None:
                image = _cmyk_art(op.path, self.converter)
            else:
                image = ImageReader(op.path)
            nat_w, nat_h = image.getSize()
        scale = (max if op.cover else min)(op.w / nat_w, op.h / nat_h)
        w, h = nat_w * scale, nat_h * scale
        x, y = op.x + (op.w - w) / 2, op.y + (op.h - h) / 2
        c.saveState()
        path = c.beginPath()
        if op.round:
            path.circle(op.x + op.w / 2, op.y + op.h / 2, min(op.w, op.h) / 2)
        else:
            path.rect(op.x, op.y, op.w, op.h)
        c.clipPath(path, stroke=0, fill=0)
        if op.kind == "svg":
            c.translate(x, y)
            c.scale(scale, scale)
            start = len(self.code)
            self.drawing(drawing)
            paint = self.tint(op.tint)
            if paint is not None:
                self.code[start:] = tinted(self.code[start:], *paint)
        else:
            # ReportLab stores an image once per file however often it is drawn; an
            # image with transparency keeps it only in RGB files (PDF/X-1a has none).
            mask = None if self.converter is not None else "auto"
            c.drawImage(image if self.converter is not None else op.path, x, y, w, h, mask=mask)
        c.restoreState()

    def drawing(self, drawing) -> None:
        # ReportLab's drawing renderer starts every drawing in Helvetica and RGB black,
        # which would put an unembedded font (and RGB in a CMYK file) in the output;
        # start it in our embedded face, and in CMYK black for CMYK files.
        # Imported here: ReportLab's graphics import its whole page-layout library, a
        # tenth of a second that builds drawing only cached icons do not need.
        from reportlab.lib.colors import CMYKColor

        changes = {"fontName": self.drawing_font or fonts.face("latin").name}
        if self.converter is not None:
            changes["fillColor"] = changes["strokeColor"] = CMYKColor(0, 0, 0, 1)
        with adapter.drawing_defaults(changes):
            # Pictures in SVG art keep their transparency only in RGB files.
            adapter.draw_drawing(drawing, self.c, None if self.converter else "auto")
