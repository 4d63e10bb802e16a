"""The painter: draws a document's pages onto a ReportLab canvas.

Faces with a key (a deck's back) are drawn once into a form XObject and reused; their
texts are drawn beside the form, on the page (see :meth:`Painter.lifted`). The
operations every card repeats (its clip, its position, a shared form, a line of text,
crop marks) are written as PDF operators directly, without the canvas's
state-tracking methods, which a large deck would go through millions of times.
Everything else is drawn through the canvas.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen import canvas as rl_canvas

from deckforge.drawing.ops import (
    Circle,
    Ellipse,
    Face,
    Icon,
    Inks,
    Layer,
    Line,
    Page,
    Picture,
    Placement,
    Polygon,
    Rect,
    Shadow,
    Text,
    Transform,
    Use,
    hex_colour,
)
from deckforge.render import colour
from deckforge.render.colour import Converter, is_area
from deckforge.render.pdf import effects, flatten
from deckforge.render.pdf.pictures import Pictures
from deckforge.render.pdf.placing import column_order, placement_start
from deckforge.render.pdf.structure import Structure
from deckforge.render.pdf.text import TextWriter
from deckforge.rl import pdf as adapter


def _form_name(key: str | None) -> str:
    return "F" + "".join(ch if ch.isalnum() else "_" for ch in key or "")


class Painter(Pictures):
    """Draws pages onto a ReportLab canvas, in RGB or (given a converter) in CMYK;
    ``spaces`` (colour spaces by name, e.g. /DefaultRGB) join every resource dictionary.
    A ``tagged`` document's pages are marked for its structure tree."""

    def __init__(
        self,
        canvas: rl_canvas.Canvas,
        converter: Converter | None = None,
        spaces: dict | None = None,
        tagged: bool = False,
        intent=None,
        ink_limit: float = 240.0,
    ):
        self.c = canvas
        #: The printing condition and ink limit colours given as inks print under: what
        #: an RGB file draws them as.
        self.intent, self.ink_limit = intent, ink_limit
        #: The marked content and structure tree of a tagged document.
        self.structure = Structure() if tagged else None
        #: The placement being drawn (its texts outside its area are left out), and
        #: where it is: its area, its turn and its origin.
        self.placement: Placement | None = None
        self.place: tuple | None = None
        #: The texts of each keyed face, drawn after its form (see :meth:`lifted`).
        self.face_texts: dict[str | None, tuple[Text, ...]] = {}
        self.code = adapter.code(canvas)
        self.converter = converter
        self.spaces = spaces
        self.writer = TextWriter(canvas)
        self.forms: set[str] = set()
        #: The natural size of each icon's form defined in this file.
        self.sizes: dict[str, tuple[float, float]] = {}
        #: Form names by face key, and their XObject names (both asked for on every card).
        self.form_names: dict[str | None, str] = {}
        self.xobject_names: dict[str, str] = {}
        #: Forms the current page uses (ReportLab lists them in the page's resources).
        self.page_forms: set[str] = set()
        self.colours: dict[tuple, str] = {}
        #: The operators that start a placement, by its place (cards repeat the same
        #: places sheet after sheet).
        self.places: dict[tuple, str] = {}
        #: The last page's lines (crop marks) and their operators, by their id.
        self.marks: dict[int, tuple[tuple, list[str]]] = {}
        #: The operators of a keyed face's texts, by the face and where it is placed.
        self.lifted_code: dict[tuple, list[str]] = {}
        #: Pages' resource dictionaries, one object per set of forms the pages use.
        self.resources: dict[tuple, object] = {}
        #: What the colour of icons' operators depends on, for the icon cache.
        self.colour_key = converter.key if converter is not None else None
        #: The face text in drawings starts in (None: the shipped Latin face).
        self.drawing_font: str | None = None
        self.draw: dict[type, Callable[..., None]] = {
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
        effects.install(self)

    def colour(self, rgb, stroke: bool = False, area: bool = False) -> str:
        """The operator setting a fill (or stroke) colour, in the file's colour space (a
        large ``area``'s black as the rich black). Inks (``cmyk()``) are written as they
        are in CMYK, never separated again; in RGB, as what they print as."""
        given = rgb.inks if isinstance(rgb, Inks) else None
        key = (given or tuple(rgb), stroke, area)
        code = self.colours.get(key)
        if code is None:
            if self.converter is not None:
                inks = given or self.converter.inks(tuple(rgb), area)
                code = fp_str(*inks) + (" K" if stroke else " k")
            else:
                if given is not None:
                    rgb = colour.printed(given, self.intent, self.ink_limit)
                code = fp_str(*rgb) + (" RG" if stroke else " rg")
            self.colours[key] = code
        return code

    def fill_stroke(self, op) -> tuple[int, int]:
        fill = getattr(op, "fill", None)
        stroke = getattr(op, "stroke", None)
        if fill is not None:
            self.code.append(self.colour(fill, area=is_area(op)))
        if stroke is not None:
            self.code.append(self.colour(stroke, stroke=True))
            self.c.setLineWidth(op.line_width)
            if getattr(op, "dash", ()):
                self.code.append(f"[{fp_str(*op.dash)}] 0 d")
        return (1 if fill is not None else 0), (1 if stroke is not None else 0)

    def end_dash(self, op) -> None:
        """Back to solid lines after a dashed outline."""
        if op.stroke is not None and op.dash:
            self.code.append("[] 0 d")

    def op(self, op) -> None:
        """Draw one operation."""
        draw = self.draw.get(type(op))
        if draw is None:
            raise TypeError(f"cannot draw {type(op).__name__}")
        if self.structure is not None:
            tag = getattr(op, "tag", None)
            if tag is not None and not tag.artifact:
                self.structure.tagged(self.code, tag)
            else:
                self.structure.artifact(self.code, tag.artifact if tag else "")
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
        self.code.append(f"q {fp_str(*op.matrix)} cm")
        for inner in op.ops:
            self.op(inner)
        self.code.append("Q")

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
        self.code.append(" ".join(code))

    def use(self, op: Use) -> None:
        self.do_form(self.form(op.face))
        self.lifted(op.face)

    def lifted(self, face: Face) -> None:
        """Draw the texts of a keyed face and the faces it uses, left out of its form: pdf.js
        reads a form's text apart from the text around it, running a card's label into its name."""
        texts = self.face_texts.get(face.key)
        if texts is None:
            found: list[Text] = []
            stack = list(reversed(face.ops))
            while stack:
                op = stack.pop()
                if isinstance(op, Text):
                    found.append(op)
                elif isinstance(op, Use):
                    stack.extend(reversed(op.face.ops))
            texts = self.face_texts[face.key] = tuple(found)
        placement = self.placement
        # Cards put a face at the same few places sheet after sheet: its texts' operators
        # there are made once (but in a tagged file, where each is marked content of its
        # own, and for inline icons, which name the forms each page uses).
        key = (face.key, self.place)
        code = self.lifted_code.get(key)
        if code is not None:
            self.code.extend(code)
            return
        start = len(self.code)
        for op in texts:
            if placement is None or placement.shows(op):
                self.op(op)
        if self.structure is None and not any(op.inline_icons() for op in texts):
            self.lifted_code[key] = self.code[start:]

    def do_form(self, form: str) -> None:
        name = self.xobject_names.get(form)
        if name is None:
            name = self.xobject_names[form] = adapter.xobject_name(self.c, form)
        self.code.append(f"/{name} Do")
        if form not in self.page_forms:
            self.page_forms.add(form)
            adapter.use_form(self.c, form)

    def _span_colour(self, code: str) -> str:
        """The fill operator of a markup span's colour (``#RRGGBB``)."""
        return self.colour(hex_colour(code))

    def text(self, op: Text) -> None:
        self.code.extend(self.writer.text(op, self.colour(op.colour), self._span_colour))
        for icon in op.inline_icons():
            self.icon(icon)

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
                    if isinstance(op, Use):
                        self.do_form(self.form(op.face))
                    elif not isinstance(op, Text):
                        self.op(op)
        return form

    def define_forms_in(self, ops) -> None:
        """Define the forms (icons, shared faces, icons in text) that operations use,
        also inside transformed groups."""
        for op in ops:
            if isinstance(op, Icon):
                self.icon_form(op.name, op.tint)
            elif isinstance(op, Use):
                self.form(op.face)
            elif isinstance(op, Transform):
                self.define_forms_in(op.ops)
            elif isinstance(op, Text):
                for icon in op.inline_icons():
                    self.icon_form(icon.name)
            elif isinstance(op, (Layer, Shadow)):
                effects.define_forms(self, op)

    @contextlib.contextmanager
    def defining(self, form: str, box: tuple[float, float, float, float]) -> Iterator[None]:
        """Draw into a new form XObject (which lists the forms it uses itself)."""
        outer = self.page_forms
        self.page_forms = set()
        self.c.beginForm(form, *box)
        self.code = adapter.code(self.c)
        try:
            yield
        finally:
            adapter.end_form(self.c, form, self.spaces)
            self.code = adapter.code(self.c)
            self.page_forms = outer

    def face(self, face: Face) -> None:
        """A face's operations, or its form if it is keyed, at the current origin."""
        if self.converter is not None and flatten.has_effects(self, face):
            flatten.draw_face(self, face)
        elif face.key is None:
            for op in face.ops:
                self.op(op)
        else:
            self.do_form(self.form(face))
            self.lifted(face)

    def page(self, page: Page) -> None:
        """Draw one page and write it out."""
        c = self.c
        c.setPageSize((page.width, page.height))
        if page.trim_box:
            c.setTrimBox(page.trim_box)
        if page.bleed_box:
            c.setBleedBox(page.bleed_box)
        self.page_forms = set()
        structure = self.structure
        for placement in column_order(page.placements):
            self.placement = placement
            # Each card is clipped to its area and drawn from its trim's corner, within
            # its own saved graphics state.
            place = self.place = (placement.clip, placement.rotate, placement.x, placement.y)
            start = self.places.get(place)
            if start is None:
                start = self.places[place] = placement_start(placement)
            self.code.append(start)
            self.face(placement.face)
            if structure is not None:
                structure.close(self.code)
            self.code.append("Q")
        self.placement = self.place = None
        if page.ops and structure is not None:
            structure.artifact(self.code)
        self.page_ops(page.ops)
        entries = {}
        if structure is not None:
            structure.close(self.code)
            entries["StructParents"] = structure.end_page(adapter.page_name(c))
        c.showPage()
        self.code = adapter.code(c)
        adapter.write_out_last_page(c, self.resources, self.spaces, entries)

    def page_ops(self, ops: tuple) -> None:
        """A page's own operations; a run of lines of one style (crop marks) is one path.
        Sheets of one deck share their crop marks: lines alone are written once."""
        known = self.marks.get(id(ops))
        if known is not None and known[0] is ops:
            self.code.extend(known[1])
            return
        start, first, lines_only = 0, len(self.code), True
        while start < len(ops):
            op = ops[start]
            if not isinstance(op, Line):
                self.op(op)
                start += 1
                lines_only = False
                continue
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
        if lines_only and ops:
            self.marks = {id(ops): (ops, self.code[first:])}
