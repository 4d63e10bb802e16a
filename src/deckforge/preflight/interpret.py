"""The content-stream interpreter: what pages and forms draw, each form read once.

pdfminer (under pdfplumber) parses a form XObject again every time a page draws it, and
deckforge draws icons and card backs as forms on every page, so a large deck's forms
would be parsed thousands of times. Here each form is interpreted once, in its own
coordinates, and what it draws is moved into place with the matrix of each use. Char
boxes follow pdfminer's convention (the advance across, from the font's descent to one
em above it), so for upright text positions and sizes are pdfplumber's (the tests
compare them); a char's size is the length of its em-high up vector (Tf size × text
matrix × CTM), whatever its rotation. Stroked paths are kept as their straight
segments (for marks and rules near the trim); the clip is kept as a box.
"""

from __future__ import annotations

from typing import Any

from deckforge.drawing.ops import IDENTITY, Matrix, apply, mul
from deckforge.preflight import pdfobjects as rd
from deckforge.preflight.drawn import Drawn, Image, Stroke
from deckforge.preflight.fonts import Font, read_font
from deckforge.preflight.pdfobjects import INHERITED, Box

#: Invisible text (render modes 3 and 7) prints nothing, so it is not measured.
_INVISIBLE_MODES = frozenset({3, 7})
_PAINT_STROKE = frozenset(b"S s B B* b b*".split())
#: The die line's spot colours: a cutter's, never printed.
_DIE_LINES = frozenset(("Separation CutContour", "Separation Crease"))
_PAINT = _PAINT_STROKE | frozenset(b"f F f* n".split())


class State:
    """The parts of the graphics state that q and Q save and restore."""

    __slots__ = (
        "ctm",
        "fill",
        "stroke",
        "font",
        "size",
        "tc",
        "tw",
        "th",
        "tl",
        "rise",
        "mode",
        "clip",
        "width",
        "dashed",
    )

    def __init__(self) -> None:
        self.ctm: Matrix = IDENTITY
        self.fill = "DeviceGray"
        self.stroke = "DeviceGray"
        self.font: Font | None = None
        self.size = 0.0
        self.tc = 0.0
        self.tw = 0.0
        self.th = 1.0
        self.tl = 0.0
        self.rise = 0.0
        self.mode = 0
        self.clip: Box | None = None
        self.width = 1.0
        self.dashed = False

    def copy(self) -> State:
        """A copy, for q."""
        other = State()
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        return other


class _Run:
    """One content stream being interpreted: its state, path and what it draws."""

    def __init__(self, resources: dict, form: bool) -> None:
        self.resources = resources
        self.drawn = Drawn()
        self.state = State()
        if form:
            # A form starts in its caller's colour spaces, which differ from use to use.
            self.state.fill = self.state.stroke = INHERITED
        self.stack: list[State] = []
        self.tm = self.tlm = IDENTITY
        self.segments: list[tuple[float, float, float, float]] = []
        #: Segments per subpath: a subpath of one open line is a lone line.
        self.subpaths: list[int] = []
        self.closed: list[bool] = []
        self.points: list[tuple[float, float]] = []
        self.current = self.start = (0.0, 0.0)
        self.clipping = False
        self.covered = rd.device_rgb_covered(resources)


class Interpreter:
    """Interprets content streams, once per form XObject, font and pattern of a file."""

    def __init__(self, reader: Any, pike: Any = None) -> None:
        import pikepdf

        self.reader = reader
        #: The same file opened by pikepdf, whose qpdf tokenizes content streams.
        self.pike = pike if pike is not None else pikepdf.open(reader.stream)
        self.forms: dict[Any, Drawn] = {}
        self.fonts: dict[Any, Font] = {}
        self.patterns: dict[Any, Drawn] = {}
        self.active: set[Any] = set()
        self.handlers = {
            **dict.fromkeys([b"q", b"Q", b"cm", b"w", b"d", b"gs"], self._graphics),
            **dict.fromkeys(b"m l c v y re h".split(), self._path),
            **dict.fromkeys(_PAINT | {b"W", b"W*"}, self._paint),
            **dict.fromkeys(b"BT Tf Tm Td TD T* Tc Tw Tz TL Ts Tr".split(), self._text_state),
            **dict.fromkeys([b"Tj", b"TJ", b"'", b'"'], self._text_show),
            **dict.fromkeys(b"rg RG g G k K cs CS sc SC scn SCN".split(), self._colour),
            b"Do": self._xobject,
            b"sh": self._shading_op,
            b"INLINE IMAGE": self._inline_image,
        }
        self.handled = frozenset(self.handlers)

    # --- streams ----------------------------------------------------------------------------

    def page(self, page: Any, index: int) -> Drawn:
        """What page ``index`` (from 0) draws, in its default user space."""
        resources = rd.resolve(page.get("/Resources")) or {}
        drawn = Drawn()
        self._group(page, drawn)
        if "/Contents" in page:
            contents = self.pike.pages[index]
            drawn.merge(self.run(contents, resources), IDENTITY)
        return drawn

    def _stream(self, obj: Any) -> Any:
        """pikepdf's handle on a stream pypdf read."""
        ref = obj.indirect_reference
        return self.pike.get_object((ref.idnum, ref.generation))

    def run(self, stream: Any, resources: dict, form: bool = False) -> Drawn:
        """Interpret one content stream (a pikepdf page or stream) from a fresh state."""
        run = _Run(resources, form)
        handlers = self.handlers
        for operands, op in rd.operations(stream, self.handled):
            handler = handlers[op]
            try:
                handler(run, op, operands)
            except (ValueError, TypeError, IndexError, KeyError) as error:
                # One malformed operator should not hide what the rest of the page draws.
                run.drawn.problem(f"malformed {op.decode('latin-1')} operator ({error})")
        return run.drawn

    def _group(self, owner: dict, drawn: Drawn) -> None:
        # A transparency group blends in its own colour space: an RGB one turns a
        # CMYK page's transparent areas into RGB when the printer flattens them.
        group = rd.resolve(owner.get("/Group"))
        if not isinstance(group, dict):
            return
        if group.get("/S") == "/Transparency":
            drawn.add_transparency("a transparency group")
        if "/CS" in group:
            label = rd.space_label(group["/CS"], {})
            drawn.spaces.add(label)
            if rd.is_rgb(label):
                drawn.add_rgb(f"transparency group blending in {label}")

    # --- graphics state and paths -----------------------------------------------------------

    def _graphics(self, run: _Run, op: bytes, operands: list) -> None:
        state = run.state
        if op == b"q":
            run.stack.append(state.copy())
        elif op == b"Q":
            if run.stack:
                run.state = run.stack.pop()
        elif op == b"cm":
            state.ctm = mul(rd.matrix(operands), state.ctm)
        elif op == b"w":
            state.width = float(operands[0])
        elif op == b"d":
            state.dashed = bool(len(operands[0]))
        else:
            self._ext_gstate(run, str(operands[0]))

    def _ext_gstate(self, run: _Run, name: str) -> None:
        states = rd.resolve(run.resources.get("/ExtGState")) or {}
        gs = rd.resolve(states.get(name)) if name in states else None
        if not isinstance(gs, dict):
            run.drawn.problem(f"graphics state {name} is used but missing from the resources")
            return
        for key in ("/ca", "/CA"):
            if key in gs and float(gs[key]) < 1.0:
                run.drawn.add_transparency(f"{key[1:]} {float(gs[key]):g} (constant alpha)")
        mask = rd.resolve(gs.get("/SMask"))
        if mask is not None and mask != "/None":
            run.drawn.add_transparency("a soft mask")
        blend = rd.resolve(gs.get("/BM"))
        if blend is not None and str(blend) not in ("/Normal", "/Compatible", "[/Normal]"):
            run.drawn.add_transparency(f"blend mode {blend}")
        if "/LW" in gs:
            run.state.width = float(gs["/LW"])

    def _path(self, run: _Run, op: bytes, operands: list) -> None:
        ctm = run.state.ctm
        if op == b"re":
            x, y, w, h = (float(v) for v in operands[:4])
            corners = [
                apply(ctm, px, py) for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
            ]
            for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
                run.segments.append((*a, *b))
            run.subpaths.append(4)
            run.closed.append(True)
            run.points.extend(corners)
            run.current = run.start = corners[0]
            return
        if op == b"h":
            if run.current != run.start:
                run.segments.append((*run.current, *run.start))
                if run.subpaths:
                    run.subpaths[-1] += 1
            if run.closed:
                run.closed[-1] = True
            run.current = run.start
            return
        point = apply(ctm, float(operands[-2]), float(operands[-1]))
        if op == b"l":
            run.segments.append((*run.current, *point))
            if run.subpaths:
                run.subpaths[-1] += 1
        elif op == b"m":
            run.start = point
            run.subpaths.append(0)
            run.closed.append(False)
        elif run.closed:
            run.closed[-1] = True  # a curve: part of a shape, not a lone line
        run.points.append(point)
        run.current = point

    def _paint(self, run: _Run, op: bytes, operands: list) -> None:
        if op in (b"W", b"W*"):
            run.clipping = True
            return
        state = run.state
        # A die line (CutContour, Crease) is not printed: the art's measures leave it to its check.
        if op in _PAINT_STROKE and run.segments and state.stroke not in _DIE_LINES:
            width = state.width * rd.scale(state.ctm)
            lone: list[bool] = []
            for count, closed in zip(run.subpaths, run.closed, strict=True):
                lone.extend([count == 1 and not closed and op in (b"S", b"B", b"B*")] * count)
            if len(lone) != len(run.segments):
                lone = [False] * len(run.segments)
            stroke = Stroke(tuple(run.segments), width, state.dashed, state.clip, tuple(lone))
            run.drawn.strokes.append(stroke)
        if run.clipping and run.points:
            state.clip = rd.intersect(state.clip, rd.box_of(run.points))
        run.clipping = False
        run.segments = []
        run.subpaths = []
        run.closed = []
        run.points = []

    # --- text -------------------------------------------------------------------------------

    def _text_state(self, run: _Run, op: bytes, operands: list) -> None:
        state = run.state
        if op == b"BT":
            run.tm = run.tlm = IDENTITY
        elif op == b"Tf":
            state.font = self.font(str(operands[0]), run.resources, run.drawn)
            state.size = float(operands[1])
        elif op == b"Tm":
            run.tm = run.tlm = rd.matrix(operands)
        elif op in (b"Td", b"TD"):
            tx, ty = float(operands[0]), float(operands[1])
            if op == b"TD":
                state.tl = -ty
            run.tm = run.tlm = mul((1.0, 0.0, 0.0, 1.0, tx, ty), run.tlm)
        elif op == b"T*":
            run.tm = run.tlm = mul((1.0, 0.0, 0.0, 1.0, 0.0, -state.tl), run.tlm)
        else:
            value = float(operands[0])
            if op == b"Tc":
                state.tc = value
            elif op == b"Tw":
                state.tw = value
            elif op == b"Tz":
                state.th = value / 100.0
            elif op == b"TL":
                state.tl = value
            elif op == b"Ts":
                state.rise = value
            else:
                state.mode = int(value)

    def _text_show(self, run: _Run, op: bytes, operands: list) -> None:
        state = run.state
        if op in (b"'", b'"'):
            if op == b'"':
                state.tw, state.tc = float(operands[0]), float(operands[1])
            run.tm = run.tlm = mul((1.0, 0.0, 0.0, 1.0, 0.0, -state.tl), run.tlm)
        items = operands[0] if op == b"TJ" else operands[-1:]
        run.tm = self._show(items, state, run.tm, run.drawn)

    def font(self, name: str, resources: dict, drawn: Drawn) -> Font | None:
        """The font a Tf names (read once per file)."""
        fonts = rd.resolve(resources.get("/Font")) or {}
        if name not in fonts:
            drawn.problem(f"font {name} is used but missing from the resources")
            return None
        obj = rd.resolve(fonts[name])
        key = rd.key(obj)
        font = self.fonts.get(key)
        if font is None:
            font = self.fonts[key] = read_font(obj)
        drawn.fonts[key] = font
        return font

    def _show(self, items: Any, state: State, tm: Matrix, drawn: Drawn) -> Matrix:
        """Draw strings (and TJ's adjustments); the text matrix after them."""
        font = state.font
        if font is None:
            drawn.problem("text is drawn before any font is selected")
            return tm
        size, th, rise = state.size, state.th, state.rise
        base = mul(tm, state.ctm)
        visible = state.mode not in _INVISIBLE_MODES
        x = 0.0
        for item in items:
            if isinstance(item, (int, float)):
                x -= float(item) / 1000.0 * size * th
                continue
            for code in font.codes(rd.string_bytes(item)):
                width = font.widths.get(code, font.default_width)
                if visible:
                    glyph = mul((size * th, 0.0, 0.0, size, x, rise), base)
                    drawn.chars.append((glyph, width, font.descent, font.text(code), state.clip))
                advance = width * size + state.tc
                if code == 32 and not font.two_byte:
                    advance += state.tw
                x += advance * th
        return mul((1.0, 0.0, 0.0, 1.0, x, 0.0), tm)

    # --- colour -----------------------------------------------------------------------------

    def _colour(self, run: _Run, op: bytes, operands: list) -> None:
        drawn, state = run.drawn, run.state
        fill = op in (b"rg", b"g", b"k", b"cs", b"sc", b"scn")
        if op in (b"rg", b"RG", b"g", b"G", b"k", b"K"):
            label = {b"rg": "DeviceRGB", b"g": "DeviceGray", b"k": "DeviceCMYK"}[op.lower()]
            drawn.spaces.add(label)
            if label == "DeviceRGB":
                drawn.add_rgb(f"{op.decode()} operator", run.covered)
            if label == "DeviceCMYK":
                drawn.ink = max(drawn.ink, 100.0 * sum(rd.numbers(operands)))
        elif op in (b"cs", b"CS"):
            label = rd.space_label(operands[0], run.resources)
            drawn.spaces.add(label)
            if rd.is_rgb(label):
                bare = label == "DeviceRGB" and not run.covered
                drawn.add_rgb(f"{label} colour space", not bare)
        else:
            self._colour_values(run, op, operands, fill)
            return
        if fill:
            state.fill = label
        else:
            state.stroke = label

    def _colour_values(self, run: _Run, op: bytes, operands: list, fill: bool) -> None:
        space = run.state.fill if fill else run.state.stroke
        values = rd.numbers(operands)
        if len(values) == 4 and (space in rd.CMYK_SPACES or space == INHERITED):
            run.drawn.ink = max(run.drawn.ink, 100.0 * sum(values))
        if operands and isinstance(operands[-1], rd.Name):
            pattern = self.pattern(str(operands[-1]), run.resources)
            if pattern is not None:
                # A pattern tiles in the page's space, not the current one: its colours
                # and fonts count, its positions are not measured.
                run.drawn.merge(pattern, None)

    def pattern(self, name: str, resources: dict) -> Drawn | None:
        """What a pattern draws (read once per file)."""
        patterns = rd.resolve(resources.get("/Pattern")) or {}
        if name not in patterns:
            return None
        obj = rd.resolve(patterns[name])
        key = rd.key(obj)
        if key in self.patterns:
            return self.patterns[key]
        drawn = Drawn()
        if int(obj.get("/PatternType", 0)) == 2:
            self._shading(rd.resolve(obj.get("/Shading")) or {}, resources, drawn)
        elif key not in self.active:
            drawn = self._contents(obj, key, resources)
        self.patterns[key] = drawn
        return drawn

    def _contents(self, obj: Any, key: Any, resources: dict) -> Drawn:
        """What the content stream of a form or a tiling pattern draws, with its own
        resources (old files let it use those of the page it is drawn on)."""
        self.active.add(key)
        try:
            own = rd.resolve(obj.get("/Resources"))
            owner = self._stream(obj)
            return self.run(owner, own if isinstance(own, dict) else resources, form=True)
        finally:
            self.active.discard(key)

    def _shading_op(self, run: _Run, op: bytes, operands: list) -> None:
        shadings = rd.resolve(run.resources.get("/Shading")) or {}
        name = str(operands[0])
        if name in shadings:
            self._shading(rd.resolve(shadings[name]), run.resources, run.drawn)

    def _shading(self, shading: dict, resources: dict, drawn: Drawn) -> None:
        label = rd.space_label(shading.get("/ColorSpace"), resources)
        drawn.spaces.add(label)
        if rd.is_rgb(label):
            drawn.add_rgb(f"shading in {label}", label != "DeviceRGB")

    # --- XObjects ---------------------------------------------------------------------------

    def _xobject(self, run: _Run, op: bytes, operands: list) -> None:
        name = str(operands[0])
        xobjects = rd.resolve(run.resources.get("/XObject")) or {}
        if name not in xobjects:
            run.drawn.problem(f"XObject {name} is used but missing from the resources")
            return
        obj = rd.resolve(xobjects[name])
        subtype = obj.get("/Subtype")
        if subtype == "/Image":
            run.drawn.images.append((run.state.ctm, self._image(name, obj, run)))
        elif subtype == "/Form":
            form = self.form(obj, run.resources)
            if form is not None:
                m = rd.matrix(obj.get("/Matrix", IDENTITY))
                run.drawn.merge(form, mul(m, run.state.ctm), run.state.clip)

    def form(self, obj: Any, resources: dict) -> Drawn | None:
        """What a form XObject draws, in its own space (read once per file)."""
        key = rd.key(obj)
        cached = self.forms.get(key)
        if cached is not None:
            return cached
        if key in self.active:
            return None  # a form drawing itself: once is enough
        drawn = self._contents(obj, key, resources)
        self._group(obj, drawn)
        self.forms[key] = drawn
        return drawn

    def _image(self, name: str, obj: Any, run: _Run) -> Image:
        if obj.get("/ImageMask"):
            space = "stencil mask"
        else:
            space = rd.space_label(obj.get("/ColorSpace"), run.resources)
        if "/SMask" in obj or "/SMaskInData" in obj:
            run.drawn.add_transparency("an image with a soft mask")
        image = Image(name, int(obj.get("/Width", 0)), int(obj.get("/Height", 0)), space, obj)
        self._note_space(run, space, image.label)
        return image

    def _note_space(self, run: _Run, space: str, label: str) -> None:
        run.drawn.spaces.add(space)
        if rd.is_rgb(space):
            bare = space == "DeviceRGB" and not run.covered
            run.drawn.add_rgb(f"{space} {label}", not bare)

    def _inline_image(self, run: _Run, op: bytes, operands: Any) -> None:
        settings = operands["settings"]

        def get(*names: str) -> Any:
            for n in names:
                if n in settings:
                    return rd.resolve(settings[n])
            return None

        if get("/IM", "/ImageMask"):
            space = "stencil mask"
        else:
            space = rd.space_label(get("/CS", "/ColorSpace"), run.resources)
        width, height = int(get("/W", "/Width") or 0), int(get("/H", "/Height") or 0)
        image = Image("inline image", width, height, space)
        self._note_space(run, space, image.label)
        run.drawn.images.append((run.state.ctm, image))
