"""OpenMoji icons turned straight into PDF drawing operators, without svglib.

svglib spends most of an icon's time building and styling ReportLab shapes, and a first
build draws hundreds of icons. OpenMoji draws with a small part of SVG:
paths, circles, ellipses, rectangles, polygons, polylines and lines, in groups, with
flat colours, stroke widths, caps, joins and dashes, and four kinds of transform. Those are
turned here into the operators svglib and ReportLab would write: the same geometry
(svglib's own path parsing and arc and quadratic conversions, ReportLab's own circles,
ellipses and rounded rectangles), the same colours, the same painting. An icon using
anything else (opacity, clipping, markers, styles, hidden parts, named colours) gives
None, and is drawn through svglib as before. Where svglib departs from SVG, this follows
svglib, so that an icon looks as it always has: a polyline is filled only if a fill is
given, and ``opacity`` is not drawn (such icons are left to svglib).
"""

from __future__ import annotations

import math
import re
from functools import cache

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.pathobject import PDFPathObject

from deckforge.art import icons
from deckforge.drawing.ops import Matrix, mul
from deckforge.render.colour import Converter
from deckforge.render.pdf import icon_paths
from deckforge.render.pdf.icon_paths import Unsupported

#: An icon's drawing: its width, its height and its operators.
Made = tuple[float, float, tuple[str, ...]]
#: A shape before it is coloured: its path (stroked), the same path closed (filled), its
#: fill and stroke (RGB, None: not painted), stroke width, cap, join, dashes ("" for
#: none) and whether it is filled even-odd.
Shape = tuple[str, str, "tuple | None", "tuple | None", float, int, int, str, bool]

#: svglib's scale from SVG user units (pixels) to points.
PX_TO_PT = 0.75
_SHAPES = frozenset("path circle ellipse rect polygon polyline line".split())
#: Attributes drawn, or (like ids and paint order) ignored by svglib too.
_KNOWN = frozenset(
    "id d cx cy r rx ry x y width height x1 y1 x2 y2 points transform fill stroke "
    "stroke-width stroke-linecap stroke-linejoin stroke-miterlimit stroke-dasharray "
    "fill-rule clip-rule paint-order class version viewBox".split()
)
_INHERITED = (
    "fill",
    "stroke",
    "stroke-width",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-dasharray",
    "fill-rule",
)
_DEFAULTS = {
    "fill": "#000",
    "stroke": "none",
    "stroke-width": "1",
    "stroke-linecap": "butt",
    "stroke-linejoin": "miter",
    "stroke-dasharray": "none",
    "fill-rule": "nonzero",
}
_CAPS = {"butt": 0, "round": 1, "square": 2}
_JOINS = {"miter": 0, "round": 1, "bevel": 2}


def made(code: str, converter: Converter | None = None) -> Made | None:
    """An OpenMoji icon's size and operators (in CMYK through ``converter`` if given),
    or None if it uses a part of SVG this does not draw."""
    shapes = _shapes(code)
    if shapes is None:
        return None
    size = 72 * PX_TO_PT
    ops = ["q", "[] 0 d", f"{fp_str(PX_TO_PT, 0, 0, -PX_TO_PT, 0, size)} cm"]
    for item in shapes:
        if isinstance(item, str):
            ops.append(item)
            continue
        ops.extend(_painted(item, converter))
    ops.append("Q")
    return size, size, tuple(ops)


def _painted(shape: Shape, converter: Converter | None) -> list[str]:
    """One shape's operators: its colours and line style, its path and how it is painted."""
    path, filled, fill, stroke, width, cap, join, dash, evenodd = shape
    ops = ["q"]
    if fill is not None:
        ops.append(_colour(fill, converter, fill=True))
    if stroke is not None:
        ops.append(_colour(stroke, converter, fill=False))
        ops.append(f"{fp_str(width)} w {cap} J {join} j")
        if dash:
            ops.append(dash)
    star = "*" if evenodd else ""
    if fill is None:
        ops.append(f"{path} S")
    elif stroke is None:
        ops.append(f"{filled} f{star}")
    elif filled == path:
        ops.append(f"{path} B{star}")
    else:  # as svglib draws an open path: filled closed, stroked open
        ops.extend((f"{filled} f{star}", f"{path} S"))
    ops.append("Q")
    return ops


def _colour(rgb: tuple, converter: Converter | None, fill: bool) -> str:
    """A fill or stroke colour's operator, in CMYK through ``converter`` if given."""
    if converter is None:
        return f"{fp_str(*rgb)} {'rg' if fill else 'RG'}"
    return f"{fp_str(*converter.cmyk(rgb))} {'k' if fill else 'K'}"


@cache
def _shapes(code: str) -> tuple[Shape | str, ...] | None:
    """An icon's shapes in drawing order, with ``q``/``cm``/``Q`` around transformed
    groups (parsed once for all the colours it is drawn in); None if unsupported."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    try:
        root = etree.parse(str(icons.svg_folder() / f"{code}.svg"), parser).getroot()
        if root.tag.rsplit("}", 1)[-1] != "svg" or root.get("viewBox") != "0 0 72 72":
            raise Unsupported("not a 72 × 72 OpenMoji drawing")
        if {"width", "height", "transform"} & set(root.attrib) or set(root.attrib) - _KNOWN:
            raise Unsupported("a sized or styled root")
        out: list[Shape | str] = []
        _walk(root, _styled(root, dict(_DEFAULTS)), out)
    except (Unsupported, ValueError, OSError, etree.Error):
        return None
    return tuple(out)


def _walk(node, style: dict[str, str], out: list) -> None:
    """The shapes of ``node``'s children, with the style they inherit."""
    for child in node:
        if not isinstance(child.tag, str):
            continue  # comments
        tag = child.tag.rsplit("}", 1)[-1]
        if tag != "g" and tag not in _SHAPES:
            raise Unsupported(f"<{tag}>")
        if set(child.attrib) - _KNOWN:
            raise Unsupported(f"<{tag}> attributes {sorted(set(child.attrib) - _KNOWN)}")
        own = _styled(child, style)
        transform = child.get("transform")
        if transform:
            out.extend(("q", f"{fp_str(*_matrix(transform))} cm"))
        if tag == "g":
            _walk(child, own, out)
        else:
            shape = _shape(tag, child, own)
            if shape is not None:
                out.append(shape)
        if transform:
            out.append("Q")


def _styled(node, style: dict[str, str]) -> dict[str, str]:
    """The style ``node`` draws in: its own, or what it inherits. Whether a fill was
    given at all is kept too: svglib fills a polyline only then."""
    own = dict(style)
    own.update((k, node.get(k).strip()) for k in _INHERITED if node.get(k) is not None)
    if node.get("fill") is not None:
        own["given fill"] = "yes"
    return own


def _shape(tag: str, node, style: dict[str, str]) -> Shape | None:
    """One element's shape, styled as svglib styles it."""
    unfilled = tag == "line" or (tag == "polyline" and "given fill" not in style)
    fill = None if unfilled else _rgb(style["fill"])
    stroke = _rgb(style["stroke"])
    width = _number(style["stroke-width"])
    if stroke is not None and width <= 0:
        raise Unsupported("a stroke of no width")
    if fill is None and stroke is None:
        return None
    code = _geometry(tag, node)
    if code is None:
        return None
    return (
        " ".join(code),
        " ".join(icon_paths.closed(code)),
        fill,
        stroke,
        width,
        _CAPS[style["stroke-linecap"]],
        _JOINS[style["stroke-linejoin"]],
        _dashes(style["stroke-dasharray"]),
        style["fill-rule"] == "evenodd" and tag == "path",
    )


def _geometry(tag: str, node) -> list[str] | None:
    """An element's path operators, as svglib and ReportLab make them."""
    p = PDFPathObject()

    def num(name: str) -> float:
        return _number(node.get(name, "0"))

    if tag == "path":
        return icon_paths.path(node.get("d", ""))
    if tag == "circle":
        p.circle(num("cx"), num("cy"), num("r"))
    elif tag == "ellipse":
        cx, cy, rx, ry = num("cx"), num("cy"), num("rx"), num("ry")
        p.ellipse(cx - rx, cy - ry, 2 * rx, 2 * ry)
    elif tag == "rect":
        x, y, w, h, rx, ry = (num(n) for n in ("x", "y", "width", "height", "rx", "ry"))
        rx, ry = min(rx, w / 2), min(ry, h / 2)
        rx = rx or ry
        if rx:
            p.roundRect(x, y, w, h, rx)
        else:
            p.rect(x, y, w, h)
    else:
        if tag == "line":
            points = [num(n) for n in ("x1", "y1", "x2", "y2")]
        else:
            points = [_number(v) for v in node.get("points", "").replace(",", " ").split()]
        if len(points) % 2 or not points:
            return None
        _nudge(points)
        p.moveTo(points[0], points[1])
        for i in range(2, len(points), 2):
            p.lineTo(points[i], points[i + 1])
        if tag == "polygon":
            p.close()
    # Each operator with its numbers; without ReportLab's leading "n" (ends no path here).
    return [op.strip() for op in re.findall(r"[^a-z]*[a-z]+", p.getCode())][1:]


def _dashes(value: str) -> str:
    """A dash array's operator as ReportLab writes it ("" for none)."""
    if value == "none":
        return ""
    lengths = [_number(v) for v in value.replace(",", " ").split()]
    if not lengths or min(lengths) < 0 or sum(lengths) <= 0:
        raise Unsupported(f"dashes {value!r}")
    return f"[{fp_str(lengths)}] 0 d"


def _nudge(points: list[float]) -> None:
    """svglib's nudge of a shape whose points are all one, so that its round caps show."""
    if len(points) >= 4 and all(
        points[i] == points[0] and points[i + 1] == points[1] for i in range(2, len(points), 2)
    ):
        points[0] *= 1.0000001


def _rgb(value: str) -> tuple | None:
    """A colour's RGB (0 to 1), None for none; only hex colours are drawn here."""
    if value == "none":
        return None
    text = value.lstrip("#")
    if not value.startswith("#") or len(text) not in (3, 6):
        raise Unsupported(f"colour {value!r}")
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    return tuple(int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))


def _number(text: str) -> float:
    value = float(text.strip().removesuffix("px"))
    if not math.isfinite(value):
        raise Unsupported(f"number {text!r}")
    return value


def _matrix(text: str) -> Matrix:
    """An SVG transform list as one matrix."""
    result: Matrix = (1, 0, 0, 1, 0, 0)
    parts = re.findall(r"(\w+)\s*\(([^)]*)\)", text)
    if not parts or re.sub(r"(\w+)\s*\(([^)]*)\)|[\s,]", "", text):
        raise Unsupported(f"transform {text!r}")
    for name, args in parts:
        v = [_number(a) for a in args.replace(",", " ").split()]
        if name == "matrix" and len(v) == 6:
            m = tuple(v)
        elif name == "translate" and len(v) in (1, 2):
            m = (1, 0, 0, 1, v[0], v[1] if len(v) == 2 else 0)
        elif name == "scale" and len(v) in (1, 2):
            m = (v[0], 0, 0, v[-1], 0, 0)
        elif name == "rotate" and len(v) in (1, 3):
            a = math.radians(v[0])
            cx, cy = (v[1], v[2]) if len(v) == 3 else (0, 0)
            cos, sin = math.cos(a), math.sin(a)
            m = (cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy)
        else:
            raise Unsupported(f"transform {text!r}")
        # SVG's list of transforms applies the last first: ``m`` then the ones before.
        result = mul(m, result)  # type: ignore[arg-type]
    return result
