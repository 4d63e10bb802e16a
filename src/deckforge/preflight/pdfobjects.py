"""Reading PDF objects through pypdf: indirect objects, boxes, strings, colour spaces.

Shared by the interpreter and the checks; nothing here draws or judges.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from deckforge.drawing.ops import Matrix, apply
from deckforge.units import MM

Box = tuple[float, float, float, float]


def matrix(values: Iterable[Any]) -> Matrix:
    """Six numbers as a matrix."""
    numbers = [float(v) for v in values]
    if len(numbers) != 6:
        raise ValueError(f"a matrix needs six numbers, not {len(numbers)}")
    return (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])


def scale(m: Matrix) -> float:
    """How much a matrix scales lengths (the square root of its area factor)."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def box_of(points: Iterable[tuple[float, float]]) -> Box:
    """The smallest box holding the points."""
    xs, ys = zip(*points, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def moved_box(m: Matrix, box: Box) -> Box:
    """The box around a box moved by a matrix."""
    x0, y0, x1, y1 = box
    return box_of(apply(m, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)))


def intersect(a: Box | None, b: Box | None) -> Box | None:
    """Two clip boxes' common part (None: no clip)."""
    if a is None:
        return b
    if b is None:
        return a
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])


def resolve(obj: Any) -> Any:
    """The object an indirect reference points at (anything else as it is)."""
    return obj.get_object() if hasattr(obj, "get_object") else obj


def key(obj: Any) -> Any:
    """An identity for a PDF object that stays the same however it is reached."""
    ref = getattr(obj, "indirect_reference", None)
    if ref is not None:
        return (ref.idnum, ref.generation)
    return id(obj)


def string_bytes(value: Any) -> bytes:
    """The bytes of a PDF string as pypdf returns it."""
    if isinstance(value, bytes):
        return bytes(value)
    original = getattr(value, "original_bytes", None)
    if original is not None:
        return bytes(original)
    return str(value).encode("latin-1", errors="replace")


def numbers(operands: list) -> list[float]:
    """The numeric operands."""
    return [float(v) for v in operands if isinstance(v, (int, float))]


def box(page: Any, name: str) -> Box | None:
    """A page box (normalised: left, bottom, right, top), or None if the page has none."""
    value = resolve(page.get(name))
    if value is None:
        return None
    x0, y0, x1, y1 = (float(resolve(v)) for v in value)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def mm_text(points: float) -> str:
    """Points as millimetres, one decimal."""
    return f"{points / MM:.1f}"


def size_mm(b: Box) -> str:
    """A box's size in millimetres, as messages give it."""
    return f"{mm_text(b[2] - b[0])} × {mm_text(b[3] - b[1])} mm"


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
INHERITED = "inherited"
RGB_SPACES = ("DeviceRGB", "ICC RGB", "CalRGB")
CMYK_SPACES = ("DeviceCMYK", "ICC CMYK")


def is_rgb(label: str) -> bool:
    """Whether a colour space label is RGB underneath ("Indexed DeviceRGB" counts)."""
    return label.endswith(RGB_SPACES)


def space_label(space: Any, resources: dict, depth: int = 0) -> str:
    """A short name for a colour space: "DeviceCMYK", "ICC RGB", "Indexed DeviceRGB"..."""
    space = resolve(space)
    if depth > 4 or space is None:
        return "unknown"
    if isinstance(space, str):
        if space in _DEVICE_NAMES:
            return _DEVICE_NAMES[space]
        named = resolve(resolve(resources.get("/ColorSpace")) or {})
        if isinstance(named, dict) and space in named:
            return space_label(named[space], resources, depth + 1)
        return space.lstrip("/")
    if isinstance(space, list) and space:
        family = str(resolve(space[0]))
        if family == "/ICCBased" and len(space) > 1:
            stream = resolve(space[1])
            n = int(stream.get("/N", 0)) if isinstance(stream, dict) else 0
            return {1: "ICC Gray", 3: "ICC RGB", 4: "ICC CMYK"}.get(n, f"ICC {n} components")
        if family in ("/Indexed", "/I") and len(space) > 1:
            return "Indexed " + space_label(space[1], resources, depth + 1)
        if family == "/Pattern":
            if len(space) > 1:
                return "Pattern " + space_label(space[1], resources, depth + 1)
            return "Pattern"
        if family == "/Separation" and len(space) > 1:
            return f"Separation {str(resolve(space[1])).lstrip('/')}"
        if family in _DEVICE_NAMES:
            return _DEVICE_NAMES[family]
        return family.lstrip("/")
    return "unknown"


def device_rgb_covered(resources: dict) -> bool:
    """Whether DeviceRGB in these resources is remapped by a /DefaultRGB colour space."""
    named = resolve(resolve(resources.get("/ColorSpace")) or {})
    return isinstance(named, dict) and "/DefaultRGB" in named


# --- content streams ------------------------------------------------------------------------


class Name(str):
    """A name operand ("/F1"), told apart from text."""


def _plain(obj: Any) -> Any:
    """A content-stream operand as plain Python: numbers, Name, bytes, lists."""
    # Most operands are numbers, told by their exact type: asking pikepdf's classes
    # whether an object is one of theirs costs many times more.
    kind = type(obj)
    if kind is int or kind is float:
        return obj
    if kind is Decimal:
        return float(obj)
    return _plain_object(obj)


def _plain_object(obj: Any) -> Any:
    import pikepdf

    if isinstance(obj, bool | int | float):
        return obj
    if isinstance(obj, Decimal):
        return float(obj)
    if isinstance(obj, pikepdf.Name):
        return Name(str(obj))
    if isinstance(obj, pikepdf.String):
        return bytes(obj)
    if isinstance(obj, pikepdf.Array):
        return [_plain(item) for item in obj]
    return obj


def operations(stream: Any, handled: frozenset[bytes]) -> list[tuple[Any, bytes]]:
    """The operators of a content stream (a pikepdf page or stream) that are in
    ``handled``, with their operands as plain Python; an inline image's operand is
    ``{"settings": its dictionary}``.

    qpdf tokenizes (pikepdf's ``parse_content_stream``): six to nine times as fast as
    pypdf on deckforge's decks, and operators nobody reads are skipped unconverted."""
    import pikepdf

    found: list[tuple[Any, bytes]] = []
    for instruction in pikepdf.parse_content_stream(stream):
        operands, operator = instruction.operands, instruction.operator
        op = operator.unparse()
        if op not in handled:
            continue
        if op == b"INLINE IMAGE":
            settings = {str(k): v for k, v in operands[0].obj.items()}
            found.append(({"settings": settings}, op))
        else:
            found.append(([_plain(v) for v in operands], op))
    return found
