"""PDF renderer: draws a :class:`~deckforge.layout.ops.Document` with ReportLab.

Faces with a key (a deck's back) are drawn once into a form XObject and reused.
Right-to-left lines are drawn as shaped glyphs in visual order inside a marked
content span whose /ActualText holds the logical text, so copying and searching
give back the real words.
"""

from __future__ import annotations

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
from deckforge.text import fonts

name = "pdf"
suffix = ".pdf"


#: Each icon's drawing operators, made once per process and reused by every file: turning
#: an SVG drawing into PDF operators is the costliest step of rendering a deck.
_ICON_CODE: dict[str, tuple[str, ...]] = {}


@lru_cache(maxsize=256)
def _svg(path: str):
    from svglib.svglib import svg2rlg

    return svg2rlg(path)


def _utf16_hex(text: str) -> str:
    return "FEFF" + text.encode("utf-16-be").hex().upper()


class _Painter:
    def __init__(self, canvas: rl_canvas.Canvas):
        self.c = canvas
        self.forms: set[str] = set()

    def fill_stroke(self, op) -> tuple[int, int]:
        fill = getattr(op, "fill", None)
        stroke = getattr(op, "stroke", None)
        if fill is not None:
            self.c.setFillColorRGB(*fill)
        if stroke is not None:
            self.c.setStrokeColorRGB(*stroke)
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
            c.setStrokeColorRGB(*op.stroke)
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
        c.setFillColorRGB(*op.colour)
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
        drawing = icons.drawing(code)
        form = f"I{code.replace('-', '_')}"
        if form not in self.forms:
            self.forms.add(form)
            self.c.beginForm(form, 0, 0, drawing.width, drawing.height)
            cached = _ICON_CODE.get(code)
            if cached is not None:
                self.c._code.extend(cached)
            else:
                start = len(self.c._code)
                self.drawing(drawing)
                operators = self.c._code[start:]
                # Plain paths and colours only: operators that name resources of this
                # file (graphics states, fonts, images) cannot be carried to another.
                if not any(op.endswith((" gs", " Tf", " Do")) for op in operators):
                    _ICON_CODE[code] = tuple(operators)
            self.c.endForm()
        return form, drawing.width, drawing.height

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
            nat_w, nat_h = drawing.width, drawing.height
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
            self.drawing(drawing)
        else:
            # ReportLab stores an image once per file however often it is drawn.
            c.drawImage(op.path, x, y, w, h, mask="auto")
        c.restoreState()

    def drawing(self, drawing) -> None:
        # ReportLab's drawing renderer starts every drawing in Helvetica, which would
        # put an unembedded font in the file; start it in our embedded face instead.
        saved = STATE_DEFAULTS["fontName"]
        STATE_DEFAULTS["fontName"] = fonts.face("latin").name
        try:
            renderPDF.draw(drawing, self.c, 0, 0, showBoundary=False)
        finally:
            STATE_DEFAULTS["fontName"] = saved

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
            self.face(placement.face, placement.x, placement.y)
            c.restoreState()
        for op in page.ops:
            self.op(op)
        c.showPage()


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
    painter = _Painter(canvas)
    for page in document.pages:
        painter.page(page)
    canvas.save()
