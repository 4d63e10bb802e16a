"""ReportLab's private parts that paint beyond flat colour uses: graphics states of
opacity, transparency groups and gradients in a chosen colour space."""

from __future__ import annotations

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen import canvas as rl_canvas


def graphics_state(canvas: rl_canvas.Canvas, key: str, value: float) -> str:
    """The name of a graphics state setting one key (``ca``, ``CA``) in the page or form
    being drawn, registered as ReportLab registers its own."""
    states = canvas._extgstate
    entry = (key, value)
    name = states._c.get(entry)
    if name is None:
        name = states._c[entry] = f"gRLs{len(states._c)}"
    return name


def transparency_group(canvas: rl_canvas.Canvas, form: str) -> None:
    """Make a form just ended a transparency group: drawn at an alpha, it is composed
    first and then made translucent as one."""
    obj = canvas._doc.idToObject[pdfdoc.xObjectName(form)]
    stream = pdfdoc.PDFStream(content=obj.stream)
    stream.__Comment__ = "xobject form stream"
    group = {"S": pdfdoc.PDFName("Transparency")}
    stream.dictionary["Group"] = pdfdoc.PDFDictionary(group)
    obj.Contents = stream


def shade(canvas: rl_canvas.Canvas, kind: str, points, colours, offsets, space=None) -> None:
    """Paint a gradient (``linear`` along x0 y0 x1 y1, or ``radial`` out from cx cy r)
    over the clip, through colours (tuples of 3 or 4 components) at offsets; ``space``
    is its colour space when not the device space of its components (sRGB as
    ICCBased in PDF/X-4, where a bare DeviceRGB shading is not allowed)."""
    from reportlab.pdfgen.canvas import _buildColorFunction

    function = _buildColorFunction([list(c) for c in colours], list(offsets))
    device = "DeviceCMYK" if len(colours[0]) == 4 else "DeviceRGB"
    extend = "[true true]"
    if kind == "radial":
        cx, cy, r = points
        shading = pdfdoc.PDFRadialShading(
            cx, cy, 0.0, cx, cy, r, Function=function, ColorSpace=device, Extend=extend
        )
    else:
        shading = pdfdoc.PDFAxialShading(
            *points, Function=function, ColorSpace=device, Extend=extend
        )
    if space is not None:
        made = shading.Dict

        def in_space(document):
            found = made(document)
            found["ColorSpace"] = space
            return found

        shading.Dict = in_space
    canvas.shade(shading)
