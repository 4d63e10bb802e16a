"""An SVG path's ``d`` as PDF path operators, with the geometry svglib gives it.

svglib's own parsing (:func:`svglib.utils.normalise_svg_path`) and its arc conversion
are used, so that a path drawn here has the points it has drawn through svglib.
"""

from __future__ import annotations


def _svglib():
    """svglib's path helpers, imported when a path is first drawn: importing svglib
    (and with it ReportLab's graphics and platypus) is part of the start-up that builds
    drawing no icon need not pay."""
    from svglib import utils

    return utils


class Unsupported(ValueError):
    """An icon using a part of SVG drawn only through svglib."""


class _Pen:
    """A path being drawn: its operators, its current point, where its subpath started
    and the last curve's second control point (for smooth curves)."""

    def __init__(self) -> None:
        self.code: list[str] = []
        self.x = self.y = 0.0
        self.start = (0.0, 0.0)
        self.control: tuple[float, float] | None = None
        self.closed = False
        #: The last quadratic curve's control point, for a smooth one after it.
        self.quad: tuple[float, float] | None = None

    def move(self, x: float, y: float) -> None:
        self.code.append(f"{_fmt(x, y)} m")
        self.x, self.y = x, y
        self.start = (x, y)
        self.control = None

    def line(self, x: float, y: float) -> None:
        self.code.append(f"{_fmt(x, y)} l")
        self.x, self.y = x, y
        self.control = None

    def curve(self, x1: float, y1: float, x2: float, y2: float, x: float, y: float) -> None:
        self.code.append(f"{_fmt(x1, y1, x2, y2, x, y)} c")
        self.x, self.y = x, y
        self.control = (x2, y2)

    def close(self) -> None:
        # As in svglib: a relative move after a close starts from the subpath's start,
        # any other command from the last point drawn.
        self.code.append("h")
        self.control = None


def closed(code: list[str]) -> list[str]:
    """A path's operators with every subpath closed: what svglib fills, since a PDF
    viewer may smooth the edge an open subpath's fill closes unlike a drawn one."""
    result: list[str] = []
    for op in code:
        if op.endswith(" m") and result and result[-1] != "h":
            result.append("h")
        result.append(op)
    if result and result[-1] != "h":
        result.append("h")
    return result


def _fmt(*values: float) -> str:
    from reportlab.lib.rl_accel import fp_str

    return fp_str(*values)


def path(d: str) -> list[str] | None:
    """The operators of a path's ``d`` (None if it draws nothing); :class:`Unsupported`
    for one svglib cannot read."""
    try:
        parts = _svglib().normalise_svg_path(d)
    except (ValueError, IndexError):
        raise Unsupported("a path svglib cannot read") from None
    pen = _Pen()
    for i in range(0, len(parts), 2):
        op, nums = parts[i], parts[i + 1]
        if not pen.code and op not in "Mm":
            return None  # svglib draws nothing sensible before a first move either
        _step(pen, op, nums)
    return pen.code or None


def _step(pen: _Pen, op: str, nums: list[float]) -> None:
    """One command of a normalised path."""
    x, y = pen.x, pen.y
    relative = op.islower()
    dx, dy = (x, y) if relative else (0.0, 0.0)
    kind = op.upper()
    closed, pen.closed = pen.closed, kind == "Z"
    quad, pen.quad = pen.quad, None
    if kind == "M":
        if relative and closed:
            dx, dy = pen.start
        pen.move(nums[0] + dx, nums[1] + dy)
    elif kind == "L":
        pen.line(nums[0] + dx, nums[1] + dy)
    elif kind == "H":
        pen.line(nums[0] + dx, y)
    elif kind == "V":
        pen.line(x, nums[0] + dy)
    elif kind == "C":
        x1, y1, x2, y2, xn, yn = nums
        pen.curve(x1 + dx, y1 + dy, x2 + dx, y2 + dy, xn + dx, yn + dy)
    elif kind == "S":
        x2, y2, xn, yn = nums
        cx, cy = pen.control if pen.control is not None else (x, y)
        pen.curve(2 * x - cx, 2 * y - cy, x2 + dx, y2 + dy, xn + dx, yn + dy)
    elif kind == "A":
        rx, ry, phi, large, sweep, xn, yn = nums
        xn, yn = xn + dx, yn + dy
        if abs(rx) <= 1e-10 or abs(ry) <= 1e-10:
            pen.line(xn, yn)
            return
        for _, _, x1, y1, x2, y2, xe, ye in _svglib().bezier_arc_from_end_points(
            x, y, rx, ry, phi, int(large), int(sweep), xn, yn
        ):
            pen.curve(x1, y1, x2, y2, xe, ye)
        pen.control = None  # a smooth curve reflects only a curve's control point
    elif kind in "QT":
        if kind == "Q":
            x1, y1, xn, yn = nums[0] + dx, nums[1] + dy, nums[2] + dx, nums[3] + dy
        else:
            qx, qy = quad if quad is not None else (x, y)
            x1, y1, xn, yn = 2 * x - qx, 2 * y - qy, nums[0] + dx, nums[1] + dy
        _, (c1x, c1y), (c2x, c2y), _ = _svglib().convert_quadratic_to_cubic_path(
            (x, y), (x1, y1), (xn, yn)
        )
        pen.curve(c1x, c1y, c2x, c2y, xn, yn)
        pen.control, pen.quad = None, (x1, y1)
    elif kind == "Z":
        pen.close()
    else:
        raise Unsupported(f"path command {op}")
