"""User art on a page: pictures scaled to their box, in the file's colour space."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reportlab.lib.utils import ImageReader

from deckforge.art import images
from deckforge.layout.ops import Picture
from deckforge.render.colour import Converter
from deckforge.text import fonts


@lru_cache(maxsize=64)
def _cmyk_art(path: str, converter: Converter) -> ImageReader:
    from PIL import Image

    with Image.open(path) as image:
        return ImageReader(converter.image(image))


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


def picture(painter, op: Picture) -> None:
    """User art scaled (never stretched) to cover or fit its box, clipped to it."""
    c = painter.c
    if op.kind == "svg":
        drawing = _svg(op.path)
        if painter.converter is not None:
            drawing = painter.converter.drawing(drawing)
        nat_w, nat_h = drawing.width, drawing.height
    else:
        if painter.converter is not None:
            image = _cmyk_art(op.path, painter.converter)
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
        painter.drawing(drawing)
    else:
        # ReportLab stores an image once per file however often it is drawn; an
        # image with transparency keeps it only in RGB files (PDF/X-1a has none).
        mask = None if painter.converter is not None else "auto"
        c.drawImage(image if painter.converter is not None else op.path, x, y, w, h, mask=mask)
    c.restoreState()
