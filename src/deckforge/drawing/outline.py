"""A card's cut shape: a rectangle (its corners rounded or not), a circle or ellipse, or a
hexagon, fitted to the card's trim box.

The shape is what a die or a pair of scissors follows: imposition clips each side's art to
it (grown by the bleed where there is one) and draws its cut line, on home sheets as a
thin stroke and in shop files as a :class:`Cut` path the renderer strokes in the
``CutContour`` spot colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from deckforge.drawing.ops import RGB

#: The shapes a template may give, and the ways a hexagon may stand.
KINDS = ("rect", "circle", "hexagon")
HEXAGONS = ("pointy", "flat")


@dataclass(frozen=True, slots=True)
class Outline:
    """A cut shape: ``kind`` (rect, circle or hexagon), a rectangle's corner ``radius``
    (points) and which way a hexagon stands (``pointy``: a corner up; ``flat``: a side
    up). Drawn in any box, it fills it: a circle in a box that is not square is an
    ellipse, a hexagon in a box not of a regular one's proportions is stretched."""

    kind: str = "rect"
    radius: float = 0.0
    orientation: str = "pointy"

    @property
    def square_cut(self) -> bool:
        """Whether straight cuts along the trim's edges cut it (crop marks help)."""
        return self.kind == "rect"

    def corners(self, x: float, y: float, w: float, h: float) -> tuple:
        """A hexagon's corners in the box whose lower-left corner is (x, y)."""
        if self.orientation == "flat":
            return (
                (x, y + h / 2),
                (x + w / 4, y),
                (x + 3 * w / 4, y),
                (x + w, y + h / 2),
                (x + 3 * w / 4, y + h),
                (x + w / 4, y + h),
            )
        return (
            (x + w / 2, y),
            (x + w, y + h / 4),
            (x + w, y + 3 * h / 4),
            (x + w / 2, y + h),
            (x, y + 3 * h / 4),
            (x, y + h / 4),
        )

    def path(self, x: float, y: float, w: float, h: float, grow: float = 0.0) -> str:
        """PDF path operators (no painting operator) of the shape in a box, its outline
        moved ``grow`` points outwards (the bleed beyond a shaped cut)."""
        if self.kind == "hexagon":
            points = grown(self.corners(x, y, w, h), grow)
            moves = [
                f"{_n(px)} {_n(py)} {'m' if i == 0 else 'l'}" for i, (px, py) in enumerate(points)
            ]
            return " ".join(moves) + " h"
        x, y, w, h = x - grow, y - grow, w + 2 * grow, h + 2 * grow
        if self.kind == "circle":
            return _ellipse(x, y, w, h)
        radius = self.radius + grow if self.radius else 0.0
        if not radius:
            return f"{_n(x)} {_n(y)} {_n(w)} {_n(h)} re"
        return _round_rect(x, y, w, h, min(radius, w / 2, h / 2))


@dataclass(frozen=True, slots=True)
class Cut:
    """A card's die line on a shop file's page: its outline in the box whose lower-left
    corner is (x, y), stroked by the renderer in the cutting plotter's spot colour, set
    to overprint, apart from the art."""

    outline: Outline
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class DieCut:
    """A flat sheet's die line on a shop file's page (a tuck box): the cut, PDF path
    operators stroked in the ``CutContour`` spot colour, and the folds, stroked dashed in
    the ``Crease`` spot colour; both overprinting, apart from the art."""

    cut: str
    folds: str
    dash: tuple[float, float]


@dataclass(frozen=True, slots=True)
class CutLines:
    """Cards' cut lines on a home sheet: PDF path operators (their outlines, made once
    for the sheet) stroked thin in one colour, over the cards."""

    path: str
    stroke: RGB
    line_width: float


def grown(points: tuple, by: float) -> tuple:
    """A convex polygon's corners (counter-clockwise) with every side moved ``by`` points
    outwards: where each pair of neighbouring moved sides meet."""
    if not by:
        return points
    count = len(points)
    lines = []
    for i in range(count):
        (ax, ay), (bx, by_) = points[i], points[(i + 1) % count]
        length = math.hypot(bx - ax, by_ - ay)
        nx, ny = (by_ - ay) / length, -(bx - ax) / length  # outwards, for counter-clockwise
        lines.append((ax + nx * by, ay + ny * by, bx - ax, by_ - ay))
    out = []
    for i in range(count):
        px, py, dx, dy = lines[i - 1]
        qx, qy, ex, ey = lines[i]
        cross = dx * ey - dy * ex
        t = ((qx - px) * ey - (qy - py) * ex) / cross
        out.append((px + t * dx, py + t * dy))
    return tuple(out)


#: How far a cubic Bézier's control points stand from a quarter circle's ends.
_KAPPA = 4 * (math.sqrt(2) - 1) / 3


def _n(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _ellipse(x: float, y: float, w: float, h: float) -> str:
    rx, ry, cx, cy = w / 2, h / 2, x + w / 2, y + h / 2
    kx, ky = rx * _KAPPA, ry * _KAPPA
    parts = [
        f"{_n(cx + rx)} {_n(cy)} m",
        f"{_n(cx + rx)} {_n(cy + ky)} {_n(cx + kx)} {_n(cy + ry)} {_n(cx)} {_n(cy + ry)} c",
        f"{_n(cx - kx)} {_n(cy + ry)} {_n(cx - rx)} {_n(cy + ky)} {_n(cx - rx)} {_n(cy)} c",
        f"{_n(cx - rx)} {_n(cy - ky)} {_n(cx - kx)} {_n(cy - ry)} {_n(cx)} {_n(cy - ry)} c",
        f"{_n(cx + kx)} {_n(cy - ry)} {_n(cx + rx)} {_n(cy - ky)} {_n(cx + rx)} {_n(cy)} c",
    ]
    return " ".join(parts) + " h"


def _round_rect(x: float, y: float, w: float, h: float, r: float) -> str:
    k = r * (1 - _KAPPA)
    right, top = x + w, y + h
    parts = [
        f"{_n(x + r)} {_n(y)} m",
        f"{_n(right - r)} {_n(y)} l",
        f"{_n(right - k)} {_n(y)} {_n(right)} {_n(y + k)} {_n(right)} {_n(y + r)} c",
        f"{_n(right)} {_n(top - r)} l",
        f"{_n(right)} {_n(top - k)} {_n(right - k)} {_n(top)} {_n(right - r)} {_n(top)} c",
        f"{_n(x + r)} {_n(top)} l",
        f"{_n(x + k)} {_n(top)} {_n(x)} {_n(top - k)} {_n(x)} {_n(top - r)} c",
        f"{_n(x)} {_n(y + r)} l",
        f"{_n(x)} {_n(y + k)} {_n(x + k)} {_n(y)} {_n(x + r)} {_n(y)} c",
    ]
    return " ".join(parts) + " h"
