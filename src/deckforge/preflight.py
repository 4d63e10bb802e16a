"""Preflight: read built PDFs back and check them against what printing them needs.

Every output listed in a build's ``manifest.json`` is opened and measured: fonts
embedded, page boxes, colour spaces and total ink (for CMYK profiles), image
resolution, the smallest text, and text inside the cards' safe area.

The content streams are interpreted here, with pypdf parsing them, rather than
read through pdfplumber, for two reasons. pdfminer (under pdfplumber) parses a form
XObject again every time a page draws it, and deckforge draws icons and card backs
as forms on every page: listing the chars of the 800-page Mess deck took it 4 s,
where this whole preflight takes 1.5 s. And pdfplumber's ``size`` is the height of
a char's box, so a rotated 8 pt "i" measures 2 pt. Here each form is interpreted
once, in its own coordinates, and what it draws is moved into place with the
matrix of each use. Char boxes follow pdfminer's convention (the advance across,
from the font's descent to one em above it), so for upright text positions and
sizes are pdfplumber's (the tests compare them); a char's size is the length of
its em-high up vector (Tf size x text matrix x CTM), whatever its rotation.
"""

from __future__ import annotations

import json
import math
import re
import struct
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckforge.errors import DeckforgeError

MM = 72.0 / 25.4
INCH = 72.0

OK = "ok"
WARNING = "warning"
FAIL = "fail"
NA = "n/a"

#: The checks of every report, in the order they are listed and tabled.
CHECKS = ("fonts", "boxes", "colour", "ink", "images", "small text", "safe area")

#: Page boxes may differ from the manifest by this much (rounding of points).
BOX_TOLERANCE_MM = 0.1
#: Print shops keep text this far inside the trim: cutting drifts by up to 1/8 in.
SAFE_INSET_MM = 3.175
MIN_TEXT_PT = 6.0
WARN_DPI = 300.0
FAIL_DPI = 150.0

#: Paper sizes named in the boxes check of sheets (portrait, millimetres).
_PAPERS = {
    "A3": (297.0, 420.0),
    "A4": (210.0, 297.0),
    "A5": (148.0, 210.0),
    "Letter": (215.9, 279.4),
    "Legal": (215.9, 355.6),
    "Tabloid": (279.4, 431.8),
}

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

#: Invisible text (render modes 3 and 7) prints nothing, so it is not measured.
_INVISIBLE_MODES = frozenset({3, 7})


@dataclass(frozen=True)
class Check:
    """The outcome of one check on one file: its status and what was measured."""

    name: str
    status: str
    detail: str


@dataclass(frozen=True)
class Report:
    """Every check of one output file."""

    path: str
    profile: str
    checks: tuple[Check, ...]

    @property
    def failed(self) -> bool:
        """Whether any check failed."""
        return any(check.status == FAIL for check in self.checks)

    def check(self, name: str) -> Check:
        """The check of that name; ``KeyError`` when the report has none."""
        for check in self.checks:
            if check.name == name:
                return check
        raise KeyError(name)


# --- matrices -------------------------------------------------------------------------------


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n``, in PDF's row-vector convention."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (
        a * p + b * r,
        a * q + b * s,
        c * p + d * r,
        c * q + d * s,
        e * p + f * r + t,
        e * q + f * s + u,
    )


def _matrix(values: Iterable[Any]) -> Matrix:
    numbers = [float(v) for v in values]
    if len(numbers) != 6:
        raise ValueError(f"a matrix needs six numbers, not {len(numbers)}")
    return (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])


# --- fonts ----------------------------------------------------------------------------------

_HEX = re.compile(rb"<([0-9A-Fa-f\s]*)>")
_BFRANGE = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f\s]*>|\[[^\]]*\])")
#: A bfrange longer than this is malformed; it is cut rather than filling memory.
_MAX_RANGE = 0x10000


def _utf16(hex_digits: bytes) -> str:
    raw = bytes.fromhex(re.sub(rb"\s", b"", hex_digits).decode("ascii"))
    return raw.decode("utf-16-be", errors="replace")


def _parse_to_unicode(data: bytes) -> dict[int, str]:
    """Character codes to text from a ToUnicode CMap (bfchar and bfrange sections)."""
    table: dict[int, str] = {}
    for block in re.finditer(rb"beginbfchar(.*?)endbfchar", data, re.S):
        hexes = _HEX.findall(block.group(1))
        for source, target in zip(hexes[0::2], hexes[1::2], strict=False):
            if source.strip():
                table[int(source, 16)] = _utf16(target)
    for block in re.finditer(rb"beginbfrange(.*?)endbfrange", data, re.S):
        for match in _BFRANGE.finditer(block.group(1)):
            low, high = int(match[1], 16), int(match[2], 16)
            high = min(high, low + _MAX_RANGE)
            target = match[3]
            if target.startswith(b"["):
                for offset, item in enumerate(_HEX.findall(target)):
                    table[low + offset] = _utf16(item)
                continue
            first = _utf16(target[1:-1])
            if not first:
                continue
            # The last UTF-16 unit counts up through the range.
            stem, last = first[:-1], ord(first[-1])
            for offset in range(high - low + 1):
                if last + offset < 0x110000:
                    table[low + offset] = stem + chr(last + offset)
    return table


@dataclass
class _Font:
    """What measuring and checking text needs of one font object."""

    name: str
    embedded: bool
    two_byte: bool
    widths: dict[int, float]
    default_width: float
    descent: float
    to_unicode: dict[int, str]

    def codes(self, data: bytes) -> Iterator[int]:
        if self.two_byte:
            for i in range(0, len(data) - 1, 2):
                yield data[i] << 8 | data[i + 1]
        else:
            yield from data

    def text(self, code: int) -> str:
        text = self.to_unicode.get(code)
        if text is not None:
            return text
        # Without a ToUnicode map a simple font's code is close enough to Latin-1 to
        # name the text in a message; a CID is not.
        return "\ufffd" if self.two_byte else chr(code)


def _font_name(font: dict) -> str:
    name = str(font.get("/BaseFont") or font.get("/Name") or "(unnamed font)").lstrip("/")
    # Subsets of one font ("AAAAAA+NotoSans-Bold", "AAAAAB+NotoSans-Bold") are one font.
    return re.sub(r"^[A-Z]{6}\+", "", name)


def _has_font_file(descriptor: Any) -> bool:
    descriptor = _resolve(descriptor)
    if not isinstance(descriptor, dict):
        return False
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def _read_font(font: dict) -> _Font:
    subtype = font.get("/Subtype")
    name = _font_name(font)
    descriptor_owner = font
    widths: dict[int, float] = {}
    default_width = 0.6
    scale = 0.001
    if subtype == "/Type0":
        descendants = _resolve(font.get("/DescendantFonts")) or []
        cid_font = _resolve(descendants[0]) if len(descendants) else {}
        cid_font = cid_font if isinstance(cid_font, dict) else {}
        descriptor_owner = cid_font
        embedded = _has_font_file(cid_font.get("/FontDescriptor"))
        default_width = float(cid_font.get("/DW", 1000)) * scale
        widths = _cid_widths(_resolve(cid_font.get("/W")) or [], scale)
    elif subtype == "/Type3":
        # Type 3 glyphs are content streams in the file itself: nothing to embed.
        embedded = True
        matrix = _resolve(font.get("/FontMatrix")) or [0.001, 0, 0, 0.001, 0, 0]
        scale = float(matrix[0])
    else:
        embedded = _has_font_file(font.get("/FontDescriptor"))
    if subtype != "/Type0":
        first = int(font.get("/FirstChar", 0))
        for offset, width in enumerate(_resolve(font.get("/Widths")) or []):
            widths[first + offset] = float(_resolve(width)) * scale
    descriptor = _resolve(descriptor_owner.get("/FontDescriptor"))
    descent = -0.2
    if isinstance(descriptor, dict):
        if "/MissingWidth" in descriptor and subtype != "/Type0":
            default_width = float(descriptor["/MissingWidth"]) * scale
        if "/Descent" in descriptor:
            descent = max(-1.0, min(0.0, float(descriptor["/Descent"]) / 1000.0))
    to_unicode: dict[int, str] = {}
    stream = _resolve(font.get("/ToUnicode"))
    if stream is not None and hasattr(stream, "get_data"):
        try:
            to_unicode = _parse_to_unicode(stream.get_data())
        except (ValueError, UnicodeDecodeError):
            to_unicode = {}
    return _Font(name, embedded, subtype == "/Type0", widths, default_width, descent, to_unicode)


def _cid_widths(w: list, scale: float) -> dict[int, float]:
    """A CIDFont's /W array: ``c [w1 w2 ...]`` and ``c_first c_last w`` entries."""
    widths: dict[int, float] = {}
    items = [_resolve(item) for item in w]
    i = 0
    while i + 1 < len(items):
        start = int(items[i])
        if isinstance(items[i + 1], list):
            for offset, width in enumerate(items[i + 1]):
                widths[start + offset] = float(_resolve(width)) * scale
            i += 2
        elif i + 2 < len(items):
            end = min(int(items[i + 1]), start + _MAX_RANGE)
            for cid in range(start, end + 1):
                widths[cid] = float(items[i + 2]) * scale
            i += 3
        else:
            break
    return widths


# --- colour spaces --------------------------------------------------------------------------

_DEVICE_NAMES = {
    "/DeviceRGB": "DeviceRGB",
    "/RGB": "DeviceRGB",
    "/DeviceCMYK": "DeviceCMYK",
    "/CMYK": "DeviceCMYK",
    "/DeviceGray": "DeviceGray",
    "/G": "DeviceGray",
    "/Pattern": "Pattern",
}
#: The colour space a form starts in: its caller's, unknown when the form is read.
_INHERITED = "inherited"
_RGB_SPACES = ("DeviceRGB", "ICC RGB", "CalRGB")
_CMYK_SPACES = ("DeviceCMYK", "ICC CMYK")


def _is_rgb(label: str) -> bool:
    # "Indexed DeviceRGB" and "Pattern ICC RGB" count: their colours are RGB underneath.
    return label.endswith(_RGB_SPACES)


def _space_label(space: Any, resources: dict, depth: int = 0) -> str:
    """A short name for a colour space: "DeviceCMYK", "ICC RGB", "Indexed DeviceRGB"..."""
    space = _resolve(space)
    if depth > 4 or space is None:
        return "unknown"
    if isinstance(space, str):
        if space in _DEVICE_NAMES:
            return _DEVICE_NAMES[space]
        named = _resolve(_resolve(resources.get("/ColorSpace")) or {})
        if isinstance(named, dict) and space in named:
            return _space_label(named[space], resources, depth + 1)
        return space.lstrip("/")
    if isinstance(space, list) and space:
        family = str(_resolve(space[0]))
        if family == "/ICCBased" and len(space) > 1:
            stream = _resolve(space[1])
            n = int(stream.get("/N", 0)) if isinstance(stream, dict) else 0
            return {1: "ICC Gray", 3: "ICC RGB", 4: "ICC CMYK"}.get(n, f"ICC {n} components")
        if family in ("/Indexed", "/I") and len(space) > 1:
            return "Indexed " + _space_label(space[1], resources, depth + 1)
        if family == "/Pattern":
            if len(space) > 1:
                return "Pattern " + _space_label(space[1], resources, depth + 1)
            return "Pattern"
        if family == "/Separation" and len(space) > 1:
            return f"Separation {str(_resolve(space[1])).lstrip('/')}"
        if family in _DEVICE_NAMES:
            return _DEVICE_NAMES[family]
        return family.lstrip("/")
    return "unknown"


# --- what a content stream draws ------------------------------------------------------------


@dataclass(frozen=True)
class _Image:
    """An image XObject (or inline image) as drawn: its pixels and colour space."""

    name: str
    width: int
    height: int
    space: str
    stream: Any = None

    @property
    def label(self) -> str:
        """How messages name it: ReportLab names images by a hash, so by its pixels instead."""
        kind = "inline image" if self.name == "inline image" else "image"
        return f"{kind} of {self.width} × {self.height} px"

    def dpi(self, ctm: Matrix) -> float:
        """Effective resolution: pixels over the drawn size in inches, the lower of both axes."""
        a, b, c, d, _, _ = ctm
        across = math.hypot(a, b) / INCH
        up = math.hypot(c, d) / INCH
        if across <= 0 or up <= 0:
            return math.inf
        return min(self.width / across, self.height / up)


@dataclass
class _Drawn:
    """What one content stream draws (with the forms it uses), in its own coordinates."""

    fonts: dict[Any, _Font] = field(default_factory=dict)
    spaces: set[str] = field(default_factory=set)
    rgb: list[str] = field(default_factory=list)
    ink: float = 0.0
    images: list[tuple[Matrix, _Image]] = field(default_factory=list)
    #: Each glyph: its matrix (em square to this space), advance in em, descent in em, text.
    chars: list[tuple[Matrix, float, float, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def problem(self, message: str) -> None:
        if message not in self.problems:
            self.problems.append(message)

    def add_rgb(self, reason: str) -> None:
        if reason not in self.rgb:
            self.rgb.append(reason)

    def merge(self, other: _Drawn, matrix: Matrix | None) -> None:
        """Add what ``other`` draws, moved by ``matrix`` (None: colours and fonts only)."""
        self.fonts.update(other.fonts)
        self.spaces |= other.spaces
        for reason in other.rgb:
            self.add_rgb(reason)
        self.ink = max(self.ink, other.ink)
        for problem in other.problems:
            self.problem(problem)
        if matrix is None:
            return
        if matrix == IDENTITY:
            self.images.extend(other.images)
            self.chars.extend(other.chars)
            return
        self.images.extend((_mul(m, matrix), image) for m, image in other.images)
        self.chars.extend((_mul(m, matrix), w, d, t) for m, w, d, t in other.chars)


class _State:
    """The parts of the graphics state that q and Q save and restore."""

    __slots__ = ("ctm", "fill", "stroke", "font", "size", "tc", "tw", "th", "tl", "rise", "mode")

    def __init__(self) -> None:
        self.ctm: Matrix = IDENTITY
        self.fill = "DeviceGray"
        self.stroke = "DeviceGray"
        self.font: _Font | None = None
        self.size = 0.0
        self.tc = 0.0
        self.tw = 0.0
        self.th = 1.0
        self.tl = 0.0
        self.rise = 0.0
        self.mode = 0

    def copy(self) -> _State:
        other = _State()
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        return other


def _resolve(obj: Any) -> Any:
    return obj.get_object() if hasattr(obj, "get_object") else obj


def _key(obj: Any) -> Any:
    """An identity for a PDF object that stays the same however it is reached."""
    ref = getattr(obj, "indirect_reference", None)
    if ref is not None:
        return (ref.idnum, ref.generation)
    return id(obj)


def _string_bytes(value: Any) -> bytes:
    if isinstance(value, bytes):
        return bytes(value)
    original = getattr(value, "original_bytes", None)
    if original is not None:
        return bytes(original)
    return str(value).encode("latin-1", errors="replace")


def _numbers(operands: list) -> list[float]:
    return [float(v) for v in operands if isinstance(v, (int, float))]


class _Interpreter:
    """Interprets content streams, once per form XObject, font and pattern of a file."""

    #: The operators that matter here; paths, clipping, marked content and the rest of
    #: a page's operators are skipped unread.
    _HANDLED = frozenset(
        b"q Q cm BT ET Tf Tc Tw Tz TL Ts Tr Td TD Tm T* Tj TJ ' \" rg RG g G k K cs CS "
        b"sc SC scn SCN Do sh".split()
        + [b"INLINE IMAGE"]
    )

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self.forms: dict[Any, _Drawn] = {}
        self.fonts: dict[Any, _Font] = {}
        self.patterns: dict[Any, _Drawn] = {}
        self.active: set[Any] = set()

    def page(self, page: Any) -> _Drawn:
        """What a page draws, in its default user space."""
        resources = _resolve(page.get("/Resources")) or {}
        contents = page.get_contents()
        drawn = _Drawn()
        self._group(page, drawn)
        if contents is not None:
            drawn.merge(self.run(contents, resources), IDENTITY)
        return drawn

    def _group(self, owner: dict, drawn: _Drawn) -> None:
        # A transparency group blends in its own colour space: an RGB one turns a
        # CMYK page's transparent areas into RGB when the printer flattens them.
        group = _resolve(owner.get("/Group"))
        if isinstance(group, dict) and "/CS" in group:
            label = _space_label(group["/CS"], {})
            drawn.spaces.add(label)
            if _is_rgb(label):
                drawn.add_rgb(f"transparency group blending in {label}")

    def font(self, name: str, resources: dict, drawn: _Drawn) -> _Font | None:
        fonts = _resolve(resources.get("/Font")) or {}
        if name not in fonts:
            drawn.problem(f"font {name} is used but missing from the resources")
            return None
        obj = _resolve(fonts[name])
        key = _key(obj)
        font = self.fonts.get(key)
        if font is None:
            font = self.fonts[key] = _read_font(obj)
        drawn.fonts[key] = font
        return font

    def form(self, obj: Any, resources: dict) -> _Drawn | None:
        key = _key(obj)
        cached = self.forms.get(key)
        if cached is not None:
            return cached
        if key in self.active:
            return None  # a form drawing itself: once is enough
        self.active.add(key)
        try:
            own = _resolve(obj.get("/Resources"))
            # Old files let a form use its page's resources.
            drawn = self.run(obj, own if isinstance(own, dict) else resources, form=True)
            self._group(obj, drawn)
        finally:
            self.active.discard(key)
        self.forms[key] = drawn
        return drawn

    def pattern(self, name: str, resources: dict) -> _Drawn | None:
        patterns = _resolve(resources.get("/Pattern")) or {}
        if name not in patterns:
            return None
        obj = _resolve(patterns[name])
        key = _key(obj)
        if key in self.patterns:
            return self.patterns[key]
        drawn = _Drawn()
        if int(obj.get("/PatternType", 0)) == 2:
            shading = _resolve(obj.get("/Shading")) or {}
            self._shading(shading, resources, drawn)
        elif key not in self.active:
            self.active.add(key)
            try:
                own = _resolve(obj.get("/Resources"))
                drawn = self.run(obj, own if isinstance(own, dict) else resources, form=True)
            finally:
                self.active.discard(key)
        self.patterns[key] = drawn
        return drawn

    def _shading(self, shading: dict, resources: dict, drawn: _Drawn) -> None:
        label = _space_label(shading.get("/ColorSpace"), resources)
        drawn.spaces.add(label)
        if _is_rgb(label):
            drawn.add_rgb(f"shading in {label}")

    def _image(self, name: str, obj: Any, resources: dict, drawn: _Drawn) -> _Image:
        if obj.get("/ImageMask"):
            space = "stencil mask"
        else:
            space = _space_label(obj.get("/ColorSpace"), resources)
        image = _Image(name, int(obj.get("/Width", 0)), int(obj.get("/Height", 0)), space, obj)
        drawn.spaces.add(space)
        if _is_rgb(space):
            drawn.add_rgb(f"{space} {image.label}")
        return image

    def _inline_image(self, settings: dict, resources: dict, drawn: _Drawn) -> _Image:
        def get(*names: str) -> Any:
            for n in names:
                if n in settings:
                    return _resolve(settings[n])
            return None

        if get("/IM", "/ImageMask"):
            space = "stencil mask"
        else:
            space = _space_label(get("/CS", "/ColorSpace"), resources)
        image = _Image(
            "inline image", int(get("/W", "/Width") or 0), int(get("/H", "/Height") or 0), space
        )
        drawn.spaces.add(space)
        if _is_rgb(space):
            drawn.add_rgb(f"{space} {image.label}")
        return image

    def run(self, stream: Any, resources: dict, form: bool = False) -> _Drawn:
        """Interpret one content stream (a page's or a form's) from a fresh state."""
        from pypdf.generic import ContentStream, NameObject

        drawn = _Drawn()
        operations = ContentStream(stream, self.reader).operations
        state = _State()
        if form:
            # A form starts in its caller's colour spaces, which differ from use to use.
            state.fill = state.stroke = _INHERITED
        stack: list[_State] = []
        tm = tlm = IDENTITY
        handled = self._HANDLED
        for operands, op in operations:
            if op not in handled:
                continue
            try:
                if op == b"q":
                    stack.append(state.copy())
                elif op == b"Q":
                    if stack:
                        state = stack.pop()
                elif op == b"cm":
                    state.ctm = _mul(_matrix(operands), state.ctm)
                elif op == b"BT":
                    tm = tlm = IDENTITY
                elif op == b"Tf":
                    state.font = self.font(str(operands[0]), resources, drawn)
                    state.size = float(operands[1])
                elif op == b"Tm":
                    tm = tlm = _matrix(operands)
                elif op in (b"Td", b"TD"):
                    tx, ty = float(operands[0]), float(operands[1])
                    if op == b"TD":
                        state.tl = -ty
                    tm = tlm = _mul((1.0, 0.0, 0.0, 1.0, tx, ty), tlm)
                elif op == b"T*":
                    tm = tlm = _mul((1.0, 0.0, 0.0, 1.0, 0.0, -state.tl), tlm)
                elif op in (b"Tj", b"TJ", b"'", b'"'):
                    if op == b"'" or op == b'"':
                        if op == b'"':
                            state.tw, state.tc = float(operands[0]), float(operands[1])
                        tm = tlm = _mul((1.0, 0.0, 0.0, 1.0, 0.0, -state.tl), tlm)
                    items = operands[0] if op == b"TJ" else operands[-1:]
                    tm = self._show(items, state, tm, drawn)
                elif op == b"Tc":
                    state.tc = float(operands[0])
                elif op == b"Tw":
                    state.tw = float(operands[0])
                elif op == b"Tz":
                    state.th = float(operands[0]) / 100.0
                elif op == b"TL":
                    state.tl = float(operands[0])
                elif op == b"Ts":
                    state.rise = float(operands[0])
                elif op == b"Tr":
                    state.mode = int(operands[0])
                elif op in (b"rg", b"RG"):
                    drawn.spaces.add("DeviceRGB")
                    drawn.add_rgb(f"{op.decode()} operator")
                    if op == b"rg":
                        state.fill = "DeviceRGB"
                    else:
                        state.stroke = "DeviceRGB"
                elif op in (b"g", b"G"):
                    drawn.spaces.add("DeviceGray")
                    if op == b"g":
                        state.fill = "DeviceGray"
                    else:
                        state.stroke = "DeviceGray"
                elif op in (b"k", b"K"):
                    drawn.spaces.add("DeviceCMYK")
                    drawn.ink = max(drawn.ink, 100.0 * sum(_numbers(operands)))
                    if op == b"k":
                        state.fill = "DeviceCMYK"
                    else:
                        state.stroke = "DeviceCMYK"
                elif op in (b"cs", b"CS"):
                    label = _space_label(operands[0], resources)
                    drawn.spaces.add(label)
                    if _is_rgb(label):
                        drawn.add_rgb(f"{label} colour space")
                    if op == b"cs":
                        state.fill = label
                    else:
                        state.stroke = label
                elif op in (b"sc", b"scn", b"SC", b"SCN"):
                    space = state.fill if op in (b"sc", b"scn") else state.stroke
                    values = _numbers(operands)
                    if len(values) == 4 and (space in _CMYK_SPACES or space == _INHERITED):
                        drawn.ink = max(drawn.ink, 100.0 * sum(values))
                    if operands and isinstance(operands[-1], NameObject):
                        pattern = self.pattern(str(operands[-1]), resources)
                        if pattern is not None:
                            # A pattern tiles in the page's space, not the current one:
                            # its colours and fonts count, its positions are not measured.
                            drawn.merge(pattern, None)
                elif op == b"sh":
                    shadings = _resolve(resources.get("/Shading")) or {}
                    name = str(operands[0])
                    if name in shadings:
                        self._shading(_resolve(shadings[name]), resources, drawn)
                elif op == b"Do":
                    self._do(str(operands[0]), resources, state, drawn)
                elif op == b"INLINE IMAGE":
                    image = self._inline_image(operands["settings"], resources, drawn)
                    drawn.images.append((state.ctm, image))
            except (ValueError, TypeError, IndexError, KeyError) as error:
                # One malformed operator should not hide what the rest of the page draws.
                drawn.problem(f"malformed {op.decode('latin-1')} operator ({error})")
        return drawn

    def _do(self, name: str, resources: dict, state: _State, drawn: _Drawn) -> None:
        xobjects = _resolve(resources.get("/XObject")) or {}
        if name not in xobjects:
            drawn.problem(f"XObject {name} is used but missing from the resources")
            return
        obj = _resolve(xobjects[name])
        subtype = obj.get("/Subtype")
        if subtype == "/Image":
            drawn.images.append((state.ctm, self._image(name, obj, resources, drawn)))
        elif subtype == "/Form":
            form = self.form(obj, resources)
            if form is not None:
                matrix = _matrix(obj.get("/Matrix", IDENTITY))
                drawn.merge(form, _mul(matrix, state.ctm))

    def _show(self, items: Any, state: _State, tm: Matrix, drawn: _Drawn) -> Matrix:
        """Draw strings (and TJ's adjustments); the text matrix after them."""
        font = state.font
        if font is None:
            drawn.problem("text is drawn before any font is selected")
            return tm
        size, th, rise = state.size, state.th, state.rise
        base = _mul(tm, state.ctm)
        visible = state.mode not in _INVISIBLE_MODES
        x = 0.0
        for item in items:
            if isinstance(item, (int, float)):
                x -= float(item) / 1000.0 * size * th
                continue
            data = _string_bytes(item)
            for code in font.codes(data):
                width = font.widths.get(code, font.default_width)
                if visible:
                    glyph = _mul((size * th, 0.0, 0.0, size, x, rise), base)
                    drawn.chars.append((glyph, width, font.descent, font.text(code)))
                advance = width * size + state.tc
                if code == 32 and not font.two_byte:
                    advance += state.tw
                x += advance * th
        return _mul((1.0, 0.0, 0.0, 1.0, x, 0.0), tm)


# --- measuring ------------------------------------------------------------------------------


def _char_bbox(glyph: Matrix, width: float, descent: float) -> tuple[float, float, float, float]:
    """The char's box in page space: (left, bottom, right, top)."""
    a, b, c, d, e, f = glyph
    xs, ys = [], []
    for gx, gy in ((0.0, descent), (width, descent), (0.0, descent + 1.0), (width, descent + 1.0)):
        xs.append(gx * a + gy * c + e)
        ys.append(gx * b + gy * d + f)
    return min(xs), min(ys), max(xs), max(ys)


def _char_size(glyph: Matrix) -> float:
    # The length of the glyph's em-high up vector: Tf size x text matrix x CTM.
    return math.hypot(glyph[2], glyph[3])


def _box(page: Any, name: str) -> tuple[float, float, float, float] | None:
    value = _resolve(page.get(name))
    if value is None:
        return None
    x0, y0, x1, y1 = (float(_resolve(v)) for v in value)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _mm(points: float) -> str:
    return f"{points / MM:.1f}"


def _size_mm(box: tuple[float, float, float, float]) -> str:
    return f"{_mm(box[2] - box[0])} × {_mm(box[3] - box[1])} mm"


def _snippet(text: str, limit: int = 30) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: A char as messages quote it: its text, glyph matrix and advance (em).
_Shown = tuple[str, Matrix, float]


def _join(chars: list[_Shown]) -> str:
    """The text of some chars, with a space wherever one does not follow on from the last
    (they may come from several lines or labels)."""
    parts: list[str] = []
    end: tuple[float, float] | None = None
    for text, glyph, width in chars:
        a, b, c, d, e, f = glyph
        if end is not None and math.hypot(e - end[0], f - end[1]) > 0.3 * math.hypot(c, d):
            parts.append(" ")
        parts.append(text)
        end = (e + width * a, f + width * b)
    return "".join(parts)


def _more(count: int, noun: str = "page") -> str:
    if count <= 0:
        return ""
    return f" (and {count} more {noun}{'s' if count != 1 else ''})"


class _Findings:
    """What the pages of one file showed, gathered page by page for the checks."""

    def __init__(self, entry: dict) -> None:
        self.entry = entry
        self.pages = 0
        self.fonts: dict[Any, tuple[_Font, int]] = {}
        self.spaces: set[str] = set()
        self.rgb: list[tuple[int, str]] = []
        self.ink: tuple[float, int, str] = (0.0, 0, "")
        self.cmyk_images: dict[Any, tuple[_Image, int]] = {}
        self.images: list[tuple[int, _Image, float]] = []
        self.smallest: tuple[float, int, str] | None = None
        self.small: dict[int, tuple[float, list[_Shown]]] = {}
        self.box_problems: list[str] = []
        self.box_pages = 0
        self.sizes: dict[tuple[str, str], int] = {}
        self.unsafe: dict[int, tuple[float, list[_Shown]]] = {}
        self.no_trim = False
        self.problems: list[tuple[int, str]] = []

    @property
    def bleed(self) -> float:
        return float(self.entry.get("bleed_mm") or 0.0)

    @property
    def cards(self) -> bool:
        return self.entry.get("kind") == "cards"

    def add_page(self, number: int, page: Any, drawn: _Drawn) -> None:
        self.pages = number
        for key, font in drawn.fonts.items():
            self.fonts.setdefault(key, (font, number))
        self.spaces |= drawn.spaces
        for reason in drawn.rgb:
            if len(self.rgb) < 50 and all(r != reason for _, r in self.rgb):
                self.rgb.append((number, reason))
        if drawn.ink > self.ink[0]:
            self.ink = (drawn.ink, number, "a colour")
        for problem in drawn.problems:
            if all(p != problem for _, p in self.problems):
                self.problems.append((number, problem))
        for ctm, image in drawn.images:
            self.images.append((number, image, image.dpi(ctm)))
            if image.space in _CMYK_SPACES and image.stream is not None:
                self.cmyk_images.setdefault(_key(image.stream), (image, number))
        self._boxes(number, page)
        self._text(number, page, drawn)

    def _boxes(self, number: int, page: Any) -> None:
        media = _box(page, "/MediaBox") or (0.0, 0.0, 0.0, 0.0)
        if self.bleed <= 0:
            size = tuple(sorted((media[2] - media[0], media[3] - media[1])))
            label = _size_mm(media)
            paper = next(
                (
                    name
                    for name, dims in _PAPERS.items()
                    if all(abs(s / MM - p) <= 1.0 for s, p in zip(size, dims, strict=True))
                ),
                "",
            )
            key = (paper, label)
            self.sizes[key] = self.sizes.get(key, 0) + 1
            return
        self.box_pages += 1
        tol = BOX_TOLERANCE_MM * MM
        trim = _box(page, "/TrimBox")
        bleed = _box(page, "/BleedBox")
        if trim is None:
            self.box_problems.append(f"page {number}: no TrimBox")
            return
        key = ("", _size_mm(trim))
        self.sizes[key] = self.sizes.get(key, 0) + 1
        if self.cards:
            trim_mm = self.entry.get("trim_mm")
            if not trim_mm or len(trim_mm) != 2:
                self.box_problems.append(
                    f"page {number}: the manifest gives no trim_mm to check the TrimBox against"
                )
            else:
                tw, th = float(trim_mm[0]) * MM, float(trim_mm[1]) * MM
                if abs(trim[2] - trim[0] - tw) > tol or abs(trim[3] - trim[1] - th) > tol:
                    self.box_problems.append(
                        f"page {number}: TrimBox {_size_mm(trim)}, expected "
                        f"{float(trim_mm[0]):.1f} × {float(trim_mm[1]):.1f} mm"
                    )
        if bleed is None:
            self.box_problems.append(f"page {number}: no BleedBox")
            return
        b = self.bleed * MM
        grown = (trim[0] - b, trim[1] - b, trim[2] + b, trim[3] + b)
        if any(abs(p - q) > tol for p, q in zip(bleed, grown, strict=True)):
            self.box_problems.append(
                f"page {number}: BleedBox {_size_mm(bleed)} is not the TrimBox "
                f"{_size_mm(trim)} grown by {self.bleed:g} mm on each side"
            )
        if (
            media[0] > bleed[0] + tol
            or media[1] > bleed[1] + tol
            or media[2] < bleed[2] - tol
            or media[3] < bleed[3] - tol
        ):
            self.box_problems.append(
                f"page {number}: MediaBox {_size_mm(media)} does not contain the BleedBox "
                f"{_size_mm(bleed)}"
            )

    def _text(self, number: int, page: Any, drawn: _Drawn) -> None:
        safe = None
        if self.bleed > 0 and self.cards:
            trim = _box(page, "/TrimBox")
            if trim is None:
                # Without a TrimBox (the boxes check fails), trim where the bleed ends.
                self.no_trim = True
                media = _box(page, "/MediaBox") or (0.0, 0.0, 0.0, 0.0)
                b = self.bleed * MM
                trim = (media[0] + b, media[1] + b, media[2] - b, media[3] - b)
            inset = SAFE_INSET_MM * MM
            safe = (trim[0] + inset, trim[1] + inset, trim[2] - inset, trim[3] - inset)
        for glyph, width, descent, text in drawn.chars:
            if not text.strip():
                continue  # spaces print nothing
            size = _char_size(glyph)
            if self.smallest is None or size < self.smallest[0]:
                self.smallest = (size, number, text)
            if size < MIN_TEXT_PT - 0.005:
                worst, texts = self.small.setdefault(number, (size, []))
                texts.append((text, glyph, width))
                self.small[number] = (min(worst, size), texts)
            if safe is not None:
                x0, y0, x1, y1 = _char_bbox(glyph, width, descent)
                margin = min(x0 - safe[0], y0 - safe[1], safe[2] - x1, safe[3] - y1)
                if margin < -0.01:
                    # How far inside the trim the char reaches: the safe inset plus margin.
                    reach = SAFE_INSET_MM + margin / MM
                    worst, texts = self.unsafe.setdefault(number, (reach, []))
                    texts.append((text, glyph, width))
                    self.unsafe[number] = (min(worst, reach), texts)

    # --- the checks -----------------------------------------------------------------------

    def checks(self, ink_limit: float) -> tuple[Check, ...]:
        cmyk = str(self.entry.get("profile", "")).endswith("-cmyk")
        return (
            self.check_fonts(),
            self.check_boxes(),
            self.check_colour(cmyk),
            self.check_ink(cmyk, ink_limit),
            self.check_images(),
            self.check_small_text(),
            self.check_safe_area(),
            *self.check_content(),
        )

    def check_content(self) -> tuple[Check, ...]:
        """A "content" warning, only when some operators could not be interpreted (the
        other checks then measured the rest of the page)."""
        other = [(page, p) for page, p in self.problems if not p.startswith("font ")]
        if not other:
            return ()
        page, problem = other[0]
        return (
            Check("content", WARNING, f"page {page}: {problem}{_more(len(other) - 1, 'problem')}"),
        )

    def check_fonts(self) -> Check:
        missing = [f for f in self.problems if f[1].startswith("font ")]
        names: dict[str, tuple[bool, int]] = {}
        for font, page in self.fonts.values():
            embedded, first = names.get(font.name, (True, page))
            names[font.name] = (embedded and font.embedded, min(first, page))
        bad = sorted((page, name) for name, (ok, page) in names.items() if not ok)
        if bad:
            listed = ", ".join(f"{name} (first used on page {page})" for page, name in bad[:5])
            return Check("fonts", FAIL, f"not embedded: {listed}{_more(len(bad) - 5, 'font')}")
        if missing:
            page, problem = missing[0]
            return Check("fonts", FAIL, f"page {page}: {problem}")
        if not names:
            return Check("fonts", OK, "no text")
        count = len(names)
        return Check("fonts", OK, f"{count} font{'s' if count != 1 else ''}, all embedded")

    def check_boxes(self) -> Check:
        if self.bleed <= 0:
            sizes = sorted(self.sizes.items(), key=lambda item: -item[1])
            shown = ", ".join(f"{paper} {label}".strip() for (paper, label), _ in sizes[:3])
            return Check("boxes", OK, shown + _more(len(sizes) - 3, "page size"))
        if self.box_problems:
            first = self.box_problems[0]
            pages = {p.split(":")[0] for p in self.box_problems}
            return Check("boxes", FAIL, first + _more(len(pages) - 1))
        sizes = ", ".join(label for (_, label), _ in sorted(self.sizes.items()))
        return Check(
            "boxes",
            OK,
            f"{self.box_pages} page{'s' if self.box_pages != 1 else ''}: TrimBox {sizes}, "
            f"BleedBox {self.bleed:g} mm beyond it",
        )

    def check_colour(self, cmyk: bool) -> Check:
        spaces = sorted(self.spaces - {"Pattern"})
        found = ", ".join(spaces) if spaces else "no colour set"
        if not cmyk:
            return Check("colour", NA, found)
        if self.rgb:
            page, reason = self.rgb[0]
            return Check(
                "colour", FAIL, f"page {page}: {reason}{_more(len(self.rgb) - 1, 'RGB use')}"
            )
        if set(spaces) <= {"DeviceCMYK"}:
            return Check("colour", OK, "DeviceCMYK only")
        return Check("colour", OK, f"no RGB; {found}")

    def check_ink(self, cmyk: bool, limit: float) -> Check:
        if not cmyk:
            return Check("ink", NA, "not a CMYK profile")
        worst, page, what = self.ink
        for image, number in self.cmyk_images.values():
            value = _image_ink(image)
            if value is not None and value > worst:
                worst, page, what = value, number, f"an {image.label}"
        if worst > limit + 0.05:
            return Check(
                "ink", FAIL, f"page {page}: {what} of {worst:.0f} % total ink (limit {limit:g} %)"
            )
        return Check("ink", OK, f"at most {worst:.0f} % total ink (limit {limit:g} %)")

    def check_images(self) -> Check:
        if not self.images:
            return Check("images", OK, "no images")
        page, image, dpi = min(self.images, key=lambda item: item[2])
        count = len(self.images)
        if math.isinf(dpi):
            lowest = "drawn with no size"
        else:
            lowest = f"{image.label} at {dpi:.0f} dpi"
        if round(dpi) < FAIL_DPI:
            return Check("images", FAIL, f"page {page}: {lowest}, below {FAIL_DPI:.0f} dpi")
        if round(dpi) < WARN_DPI:
            return Check("images", WARNING, f"page {page}: {lowest}, below {WARN_DPI:.0f} dpi")
        return Check("images", OK, f"{count} drawn, lowest {dpi:.0f} dpi")

    def check_small_text(self) -> Check:
        if self.smallest is None:
            return Check("small text", OK, "no text")
        if self.small:
            page = min(self.small)
            size, texts = self.small[page]
            return Check(
                "small text",
                FAIL,
                f"page {page}: {size:.1f} pt text '{_snippet(_join(texts))}', "
                f"below {MIN_TEXT_PT:g} pt{_more(len(self.small) - 1)}",
            )
        return Check("small text", OK, f"smallest {self.smallest[0]:.1f} pt")

    def check_safe_area(self) -> Check:
        if not (self.bleed > 0 and self.cards):
            return Check("safe area", NA, "only for cards with bleed")
        note = " (no TrimBox: trim taken as the MediaBox less the bleed)" if self.no_trim else ""
        if self.unsafe:
            page = min(self.unsafe)
            reach, texts = self.unsafe[page]
            where = (
                f"{reach:.1f} mm inside the trim"
                if reach >= 0
                else f"{-reach:.1f} mm beyond the trim"
            )
            return Check(
                "safe area",
                FAIL,
                f"page {page}: text '{_snippet(_join(texts))}' reaches {where}, "
                f"closer than {SAFE_INSET_MM:g} mm{_more(len(self.unsafe) - 1)}{note}",
            )
        return Check(
            "safe area", OK, f"all text at least {SAFE_INSET_MM:g} mm inside the trim{note}"
        )


def _image_ink(image: _Image) -> float | None:
    """The highest c+m+y+k of any pixel of a CMYK image, in percent; None if undecodable."""
    try:
        picture = image.stream.decode_as_image()
    except Exception:  # noqa: BLE001 - any decoding failure leaves the image unmeasured
        return None
    if picture is None or picture.mode != "CMYK":
        return None
    from PIL import ImageMath

    # Pillow sums the four bands per pixel in C (32-bit integers), so every pixel is
    # measured without numpy.
    c, m, y, k = picture.split()
    total = ImageMath.lambda_eval(
        lambda env: env["c"] + env["m"] + env["y"] + env["k"], c=c, m=m, y=y, k=k
    )
    highest = total.getextrema()[1]
    return float(highest) * 100.0 / 255.0


# --- the public functions -------------------------------------------------------------------


#: What reading a damaged file raises, from pypdf or from interpreting what it returns
#: (NotImplementedError: a filter name garbled into one pypdf does not know).
_UNREADABLE: tuple[type[BaseException], ...] = (
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    AttributeError,
    ArithmeticError,
    NotImplementedError,
    RecursionError,
    OSError,
    zlib.error,
    struct.error,
)


def preflight_file(pdf: Path, entry: dict, ink_limit: float = 240.0) -> Report:
    """Check one PDF against its manifest entry."""
    try:
        from pypdf import PdfReader
        from pypdf.errors import PyPdfError
    except ImportError:
        raise DeckforgeError(
            "preflight reads PDFs with pypdf, which is not installed: pip install 'pypdf>=4'"
        ) from None

    pdf = Path(pdf)
    path = str(entry.get("path") or pdf.name)
    profile = str(entry.get("profile", ""))
    if not pdf.is_file():
        raise DeckforgeError(f"{pdf}: no such file; rebuild it with 'deckforge build'")
    findings = _Findings(entry)
    try:
        reader = PdfReader(pdf)
        if reader.is_encrypted:
            raise ValueError("the file is encrypted")
        interpreter = _Interpreter(reader)
        for number, page in enumerate(reader.pages, start=1):
            findings.add_page(number, page, interpreter.page(page))
        if not findings.pages:
            raise ValueError("the file has no pages")
    except _UNREADABLE + (PyPdfError,) as error:
        reason = str(error) or type(error).__name__
        return Report(path, profile, (Check("file", FAIL, f"not a readable PDF: {reason}"),))
    return Report(path, profile, findings.checks(ink_limit))


def preflight(out_dir: Path, ink_limit: float = 240.0) -> list[Report]:
    """Check every output listed in out_dir/manifest.json."""
    out_dir = Path(out_dir)
    manifest = out_dir / "manifest.json"
    if not manifest.is_file():
        raise DeckforgeError(
            f"{manifest}: no build manifest; run 'deckforge build --out {out_dir}' first"
        )
    try:
        entries = json.loads(manifest.read_text(encoding="utf-8"))["outputs"]
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise TypeError("outputs is not a list of entries")
    except (ValueError, KeyError, TypeError) as error:
        raise DeckforgeError(f"{manifest}: not a deckforge build manifest ({error})") from None
    missing = [str(e.get("path")) for e in entries if not (out_dir / str(e.get("path"))).is_file()]
    if missing:
        listed = ", ".join(missing[:5]) + _more(len(missing) - 5, "file")
        raise DeckforgeError(
            f"{manifest} lists files that do not exist: {listed}; rebuild with "
            f"'deckforge build --out {out_dir}'"
        )
    return [preflight_file(out_dir / str(e["path"]), e, ink_limit) for e in entries]


_SHOWN = {OK: "ok", WARNING: "warning", FAIL: "FAIL", NA: "n/a"}


def format_table(reports: list[Report]) -> str:
    """A plain-text table: one row per output, one column per check (ok / warning / FAIL),
    then the details of every warning and failure, each naming the file and page."""
    names = list(CHECKS)
    for report in reports:
        for check in report.checks:
            if check.name not in names:
                names.append(check.name)
    header = ["file", *names]
    rows = []
    for report in reports:
        statuses = {c.name: _SHOWN.get(c.status, c.status) for c in report.checks}
        rows.append([report.path, *(statuses.get(name, "-") for name in names)])
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    details = [
        f"{report.path}: {check.name}: {_SHOWN[check.status]}: {check.detail}"
        for report in reports
        for check in report.checks
        if check.status in (WARNING, FAIL)
    ]
    failed = sum(report.failed for report in reports)
    warned = sum(
        not report.failed and any(c.status == WARNING for c in report.checks) for report in reports
    )
    summary = f"{len(reports)} output{'s' if len(reports) != 1 else ''}: {failed} failed"
    if warned:
        summary += f", {warned} with warnings"
    if details:
        lines += ["", *details]
    lines += ["", summary]
    return "\n".join(lines)
