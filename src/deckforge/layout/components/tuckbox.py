"""Tuck boxes: the die line worked out from the deck, its panels filled from templates.

The flat box, left to right: the front, a spine, the back, the other spine and the
glue flap, glued inside the front. The back's top carries the lid and its tuck flap,
which closes over the front; the front's bottom carries the bottom and its tuck flap;
each spine has a dust flap at either end. Cut lines are solid, fold lines dashed. A
home sheet holds the whole die line inside its margin (upright or turned); a print
shop's page is the die line's bounding box at trim, grown by the bleed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from deckforge.drawing.ops import BLACK, Face, Line, Page, Placement, Polygon, Rect, hex_colour
from deckforge.drawing.outline import DieCut
from deckforge.errors import ERROR, Problem
from deckforge.kinds.tuckbox import BoxFace, Tuckbox
from deckforge.layout.components.sheet import Unmade
from deckforge.model import Deck, Edition
from deckforge.profiles import Profile
from deckforge.units import mm, to_mm

#: Home print: the border a printer may not reach.
MARGIN = mm(8)
#: The tuck flaps' length at most, the glue flap's width at most, and how far the
#: flaps' corners are cut back so that they slide in.
TUCK = mm(15)
GLUE = mm(10)
CHAMFER = mm(3)
#: Fold lines: dashes and gaps.
FOLD_DASH = (mm(2), mm(1.5))

Point = tuple[float, float]


@dataclass(frozen=True)
class DieLine:
    """A tuck box's flat shape (points, origin at its bounding box's lower-left): the
    inside it folds to, the cut (one closed outline), the folds, and each panel."""

    inner: tuple[float, float, float]
    w: float
    h: float
    cut: tuple[Point, ...]
    folds: tuple[tuple[Point, Point], ...]
    #: Each panel a template fills: (x, y, w, h); the flap is drawn turned, as it is
    #: read from the front once closed.
    panels: Mapping[str, tuple[float, float, float, float]]


def inner_size(
    card_w: float, card_h: float, cards: int, box: Tuckbox
) -> tuple[float, float, float]:
    """The inside of the box (points): the cards' trim and the deck's depth, each with
    the clearance."""
    c = box.clearance
    return card_w + c, card_h + c, cards * box.thickness + c


def die_line(inner: tuple[float, float, float]) -> DieLine:
    """The die line of a box of this inside: panels, the outline cut and the folds."""
    W, H, D = inner
    tuck = min(TUCK, H / 4)
    glue = min(GLUE, W / 3)
    dust = min(D, W / 2)
    k = min(CHAMFER, D / 3)
    ch = min(CHAMFER, W / 6)
    g = min(CHAMFER, H / 6)
    B = D + tuck  # the body's bottom edge
    T = B + H  # its top edge
    x1, x2, x3, x4 = W, W + D, 2 * W + D, 2 * W + 2 * D
    cut = (
        (0.0, T),
        (0.0, tuck),
        (ch, 0.0),
        (W - ch, 0.0),
        (W, tuck),
        (W, B),  # front, bottom
        (x1 + k, B - dust),
        (x2 - k, B - dust),
        (x2, B),  # spine's dust flap
        (x3, B),  # the back's bottom edge
        (x3 + k, B - dust),
        (x4 - k, B - dust),
        (x4, B),  # spine's dust flap
        (x4 + glue, B + g),
        (x4 + glue, T - g),
        (x4, T),  # glue flap
        (x4 - k, T + dust),
        (x3 + k, T + dust),
        (x3, T),  # spine's dust flap
        (x3, T + D),
        (x3 - ch, T + D + tuck),
        (x2 + ch, T + D + tuck),
        (x2, T + D),  # lid
        (x2, T),
        (x2 - k, T + dust),
        (x1 + k, T + dust),
        (x1, T),  # spine's dust flap
    )
    folds = (
        *(((x, B), (x, T)) for x in (x1, x2, x3, x4)),
        ((0.0, B), (W, B)),
        ((0.0, tuck), (W, tuck)),  # the bottom and its tuck flap
        ((x2, T), (x3, T)),
        ((x2, T + D), (x3, T + D)),  # the lid and its tuck flap
        ((x1, B), (x2, B)),
        ((x3, B), (x4, B)),  # dust flaps
        ((x1, T), (x2, T)),
        ((x3, T), (x4, T)),
    )
    panels = {
        "front": (0.0, B, W, H),
        "spine": (x1, B, D, H),
        "back": (x2, B, W, H),
        "spine-2": (x3, B, D, H),
        "flap": (x2, T, W, D),
    }
    return DieLine(inner, x4 + glue, T + D + tuck, cut, folds, panels)


def die_line_ops(die: DieLine, x: float, y: float, profile: Profile) -> list:
    """The die line drawn at (x, y): the cut solid, the folds dashed; in a shop's file
    (one with bleed) as a :class:`DieCut`, its own separations, on a home sheet in black."""
    if profile.document_bleed > 0:
        points = [(x + px, y + py) for px, py in die.cut]
        moves = [f"{_n(px)} {_n(py)} {'m' if i == 0 else 'l'}" for i, (px, py) in enumerate(points)]
        creases = [
            f"{_n(x + a[0])} {_n(y + a[1])} m {_n(x + b[0])} {_n(y + b[1])} l" for a, b in die.folds
        ]
        return [DieCut(" ".join(moves) + " h", " ".join(creases), FOLD_DASH)]
    cut = Polygon(tuple((x + px, y + py) for px, py in die.cut), stroke=BLACK, line_width=0.5)
    folds = [
        Line(x + a[0], y + a[1], x + b[0], y + b[1], BLACK, 0.5, FOLD_DASH) for a, b in die.folds
    ]
    return [cut, *folds]


def _n(value: float) -> str:
    """A coordinate as a PDF number: four decimals at most, no trailing zeros."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _deck(edition: Edition, box: Tuckbox) -> Deck:
    """The box's deck; :class:`Unmade` with no problem of its own when the deck was not
    modelled (its own problems are reported)."""
    deck = next((d for d in edition.decks if d.id == box.deck), None)
    if deck is None or not deck.cards:
        raise Unmade([])
    return deck


def _panel_faces(edition: Edition, box: Tuckbox, deck: Deck, die: DieLine) -> dict[str, Face]:
    """Each panel drawn from its template at the panel's size (the front by default
    from the deck's back, bound to its first card); :class:`Unmade` if one cannot be."""
    from deckforge.layout.cards import look_of
    from deckforge.templates import context_for, draw_parts

    face = BoxFace(box.id, box.title, deck.id, len(deck.cards))
    faces: dict[str, Face] = {}
    problems: list[Problem] = []
    for panel, (_, _, w, h) in die.panels.items():
        kind = "spine" if panel.startswith("spine") else panel
        size = (to_mm(w), to_mm(h))
        name = box.templates[kind]
        parts: list = [face]
        if name is None:
            look = look_of(deck)
            back = look.back if isinstance(look.back, str) or look.back is None else look.back[0]
            if back is None or not deck.cards:
                faces[panel] = Face(())
                continue
            context = replace(context_for(edition, deck), size_mm=size)
            context = replace(context, key=f"{context.key}/{box.id}-{panel}")
            rows = look.data
            if rows is not None:
                rows = replace(rows, rows=[rows.rows[0]])
            drawn, found, _ = draw_parts(
                edition, back, [deck.cards[0]], box.ref, box.id, look.folder, rows, context
            )
        else:
            context = _sized(edition, box, panel, size)
            drawn, found, _ = draw_parts(edition, name, parts, box.ref, box.id, None, None, context)
        problems.extend(p for p in found if p.severity == ERROR)
        if drawn:
            faces[panel] = drawn[0].face
    if problems:
        raise Unmade(list(dict.fromkeys(problems)))
    return faces


def _sized(edition: Edition, box: Tuckbox, panel: str, size: tuple[float, float]):
    """A panel's context: drawn at its size, its deck's id under ``deck``."""
    from deckforge.templates import context_of

    return context_of(edition, {"id": box.deck}, size, f"{edition.id}/{box.id}/{panel}")


def tuckbox(edition: Edition, box: Tuckbox, profile: Profile) -> list[Page]:
    """The box's one page: on the home profile's paper, or at trim and bleed for a shop."""
    deck = _deck(edition, box)
    if deck.size_mm is None:
        message = f"the deck '{deck.id}' gives no card size for its box: give the deck a 'size'"
        raise Unmade([Problem(box.ref, message)])
    card_w, card_h = (mm(side) for side in deck.size_mm)
    die = die_line(inner_size(card_w, card_h, len(deck.cards), box))
    faces = _panel_faces(edition, box, deck, die)
    bleed = profile.document_bleed
    if bleed > 0:
        W, H = die.w + 2 * bleed, die.h + 2 * bleed
        x = y = bleed
        boxes = {
            "trim_box": (bleed, bleed, bleed + die.w, bleed + die.h),
            "bleed_box": (0, 0, W, H),
        }
    else:
        W, H = _paper(box, die, profile)
        x, y = (W - die.w) / 2, (H - die.h) / 2
        boxes = {}
    placements = []
    if bleed > 0:
        # The paper's colour under the whole sheet, so that the cut never shows white.
        paper = hex_colour(edition.palette.paper)
        under = Face((Rect(-bleed, -bleed, W, H, fill=paper),))
        placements.append(Placement(under, x, y, (0.0, 0.0, W, H)))
    for panel, (px, py, pw, ph) in die.panels.items():
        turned = 180 if panel == "flap" else 0
        clip = (x + px, y + py, pw, ph)
        placements.append(Placement(faces[panel], x + px, y + py, clip, turned))
    marks = tuple(die_line_ops(die, x, y, profile))
    return [Page(W, H, tuple(placements), marks, label=f"tuck box {box.id}", **boxes)]


def _paper(box: Tuckbox, die: DieLine, profile: Profile) -> tuple[float, float]:
    """The profile's paper, turned if the die line fits only so; :class:`Unmade`, naming
    the profiles whose paper holds it, when it fits neither way."""
    found = _fits(die, profile.document_paper)
    if found is not None:
        return found
    from deckforge.profiles import all_profiles

    size = f"{to_mm(die.w):.0f} × {to_mm(die.h):.0f} mm"
    larger = [
        p.id
        for p in all_profiles().values()
        if not p.document_bleed and _fits(die, p.document_paper) is not None
    ]
    advice = (
        f"build it with a profile of larger paper ({', '.join(larger)})"
        if larger
        else "no profile's paper holds it: give the deck two boxes"
    )
    message = (
        f"{profile.id}: the tuck box's die line ({size}) does not fit on its paper inside "
        f"a {to_mm(MARGIN):g} mm margin; {advice}"
    )
    raise Unmade([Problem(box.ref, message)])


def _fits(die: DieLine, paper: tuple[float, float]) -> tuple[float, float] | None:
    """The paper, upright or turned, that holds the die line inside the margin."""
    pw, ph = paper
    for w, h in ((pw, ph), (ph, pw)):
        if die.w + 2 * MARGIN <= w and die.h + 2 * MARGIN <= h:
            return w, h
    return None
