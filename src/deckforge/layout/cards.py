"""Card templates: each kind of card as drawing operations on its trim box.

Every template works in points with (0, 0) at the trim's lower-left corner;
backgrounds reach ``bleed`` past the trim, text stays inside the safe area.
Text that cannot fit raises FitError, which :func:`lay_out_deck` turns into a
problem at the text's source line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from deckforge import templates
from deckforge.art import dreams, images
from deckforge.errors import Problem
from deckforge.layout import shapes
from deckforge.layout.ops import (
    RGB,
    WHITE,
    Card,
    Circle,
    Face,
    Icon,
    Line,
    Picture,
    Rect,
    Text,
    Use,
    hex_colour,
    mix,
    readable_on,
)
from deckforge.model import (
    Art,
    BlankCard,
    Deck,
    Edition,
    MessCard,
    NumberCard,
    PictureCard,
    WhichWayCard,
)
from deckforge.model import Text as SourceText
from deckforge.text import fonts
from deckforge.text.fit import FitError, TextStyle, fit
from deckforge.text.script import number
from deckforge.units import INCH, mm

#: Bleed drawn around every card: 1/8 in, the common print-shop requirement.
BLEED = INCH / 8
#: Safe area inset from the trim: text and key art stay inside it.
SAFE = INCH / 8
#: Smallest type on a card (print shops: text ≥ 7 pt).
MIN_TYPE = 7.0
#: The kinds of deck drawn from templates, with their face and back templates.
TEMPLATES = {"places": ("place", "place-back")}


@dataclass(frozen=True)
class Frame:
    """Geometry and palette shared by a deck's templates."""

    w: float
    h: float
    locale: str
    ink: RGB
    paper: RGB
    accent: RGB
    accent_dark: RGB
    title: str
    #: Prefix of the keys of shared faces: the edition and deck.
    key: str = ""
    #: Faces many cards share, made once per deck, by key.
    shared: dict = field(default_factory=dict)
    #: Warnings found while laying out (art under 300 dpi), collected per card.
    notes: list = field(default_factory=list)

    @property
    def safe(self) -> tuple[float, float, float, float]:
        return SAFE, SAFE, self.w - 2 * SAFE, self.h - 2 * SAFE

    def background(self, colour: RGB) -> Rect:
        return Rect(-BLEED, -BLEED, self.w + 2 * BLEED, self.h + 2 * BLEED, fill=colour)

    def text(
        self,
        value: str,
        x: float,
        top: float,
        w: float,
        h: float,
        style: TextStyle,
        colour: RGB | None = None,
        middle: bool = False,
    ) -> Text:
        """Fitted text in the box whose top-left is (x, top); ``middle`` centres it vertically."""
        fitted = fit(value, w, h, style, self.locale)
        if middle:
            top -= (h - fitted.height) / 2
        return Text(x, top, w, fitted, colour or self.ink)


def art(
    frame: Frame,
    item: Art,
    x: float,
    y: float,
    w: float,
    h: float,
    cover: bool,
    round_: bool = False,
) -> Picture:
    """A user's art in a box, after checking it can be printed well.

    Raster art under 150 dpi at its printed size is an error (ArtError), under 300 dpi
    a warning noted on the frame.
    """
    info, warning = images.at_print_size(item.path, item.ref, w, h, cover)
    if warning is not None:
        frame.notes.append(warning)
    return Picture(str(item.path), info.kind, x, y, w, h, cover=cover, round=round_)


def _picture(
    frame: Frame,
    cx: float,
    cy: float,
    side: float,
    tint: RGB,
    icon: str | None,
    ring: RGB,
    own: Art | None = None,
) -> tuple[list, list]:
    """A round picture area: the part every card shares (disc and ring) and the card's
    own part (its art, or else its icon)."""
    shared: list = [
        Circle(cx, cy, side / 2, fill=tint),
        Circle(cx, cy, side / 2, stroke=ring, line_width=1.2),
    ]
    own_ops: list = []
    if own is not None:
        own_ops.append(art(frame, own, cx - side / 2, cy - side / 2, side, side, True, True))
        own_ops.append(shared[1])  # the ring goes over the art's edge
    elif icon:
        inner = side * 0.8
        own_ops.append(Icon(icon, cx - inner / 2, cy - inner / 2, inner, inner))
    return shared, own_ops


def _banded(frame: Frame, colour: RGB, label: str, subtitle: str | None) -> tuple[list, float]:
    """Background, a coloured band across the top with the card type (and a subtitle);
    returns the operations and the band's lower edge."""
    x, y, w, h = frame.safe
    band = frame.h * 0.19
    on_band = readable_on(colour)
    ops: list = [
        frame.background(mix(colour, WHITE, 0.84)),
        Rect(-BLEED, frame.h - band, frame.w + 2 * BLEED, band + BLEED, fill=colour),
        frame.text(
            label.upper(),
            x,
            frame.h - SAFE - 1,
            w,
            15,
            TextStyle(9, MIN_TYPE, fonts.BOLD, align="centre"),
            mix(on_band, colour, 0.2),
        ),
    ]
    if subtitle:
        ops.append(
            frame.text(
                subtitle,
                x,
                frame.h - SAFE - 15,
                w,
                band - SAFE - 15,
                TextStyle(14, MIN_TYPE, fonts.BOLD, max_lines=1, align="centre"),
                on_band,
                middle=True,
            )
        )
    return ops, frame.h - band


def mess_face(frame: Frame, card: MessCard, deck_label: str) -> Face:
    x, y, w, h = frame.safe
    side = w * 0.9
    cy = frame.h - SAFE - 4 - side / 2
    disc, own = _picture(
        frame,
        frame.w / 2,
        cy,
        side,
        mix(frame.accent, WHITE, 0.9),
        card.icon,
        mix(frame.accent, WHITE, 0.5),
        card.art,
    )
    template = Face(
        (
            frame.background(WHITE),
            Rect(x + 1, y + 1, w - 2, h - 2, stroke=frame.accent, line_width=1.5, radius=6),
            *disc,
        ),
        key=f"{frame.key}/face",
    )
    top = cy - side / 2 - 3
    name = frame.text(
        card.name.value,
        x + 2,
        top,
        w - 4,
        top - y - 2,
        TextStyle(13, MIN_TYPE, fonts.BOLD, leading=1.1, max_lines=3, align="centre"),
        middle=True,
    )
    return Face((Use(template), *own, name))


def which_way_face(frame: Frame, card: WhichWayCard, deck_label: str) -> Face:
    x, y, w, h = frame.safe
    ops: list = [
        frame.background(frame.paper),
        Rect(x + 1, y + 1, w - 2, h - 2, stroke=frame.accent, line_width=2, radius=8),
    ]
    ops.append(
        frame.text(
            deck_label.upper(),
            x,
            frame.h - SAFE - 4,
            w,
            16,
            TextStyle(10, MIN_TYPE, fonts.BOLD, align="centre"),
            frame.accent_dark,
        )
    )
    arrow_w, arrow_h = w * 0.8, frame.h * 0.28
    ops.append(
        shapes.arrow(
            frame.w / 2 - arrow_w / 2, frame.h * 0.5, arrow_w, arrow_h, card.direction, frame.accent
        )
    )
    ops.append(
        frame.text(
            card.label.value,
            x + 6,
            frame.h * 0.46,
            w - 12,
            60,
            TextStyle(30, 12, fonts.BOLD, leading=1.05, max_lines=2, align="centre"),
        )
    )
    ops.append(
        frame.text(
            card.players_label.value,
            x,
            y + 26,
            w,
            24,
            TextStyle(14, MIN_TYPE, fonts.BOLD, align="centre"),
            frame.accent_dark,
        )
    )
    return Face(tuple(ops))


def number_face(frame: Frame, card: NumberCard, deck_label: str) -> Face:
    x, y, w, h = frame.safe
    digits = number(card.number, frame.locale)
    if card.colour is None:
        ops: list = [
            frame.background(frame.paper),
            Rect(x + 1, y + 1, w - 2, h - 2, stroke=frame.ink, line_width=2, radius=8),
            Circle(frame.w / 2, frame.h / 2, w * 0.42, fill=frame.accent),
        ]
        ops.append(
            frame.text(
                digits,
                x,
                frame.h / 2 + 40,
                w,
                80,
                TextStyle(72, 24, fonts.BOLD, align="centre"),
                WHITE,
            )
        )
        ops.append(
            frame.text(
                card.label.value.upper(),
                x,
                frame.h - SAFE - 4,
                w,
                18,
                TextStyle(12, MIN_TYPE, fonts.BOLD, align="centre"),
            )
        )
        return Face(tuple(ops))
    colour = hex_colour(card.colour.hex)
    ops = [frame.background(colour), Rect(x, y, w, h, fill=mix(colour, WHITE, 0.85), radius=10)]
    ops.append(
        # The number fills the middle, clear of the symbol and name below it, on any size.
        frame.text(
            digits,
            x,
            frame.h * 0.8,
            w,
            frame.h * 0.4,
            TextStyle(min(80.0, frame.h * 0.3), 24, fonts.BOLD, align="centre"),
            mix(colour, frame.ink, 0.55),
            middle=True,
        )
    )
    corner = 16
    for cx, cy in ((x + 14, frame.h - SAFE - 14), (frame.w - SAFE - 14, y + 14)):
        ops.append(
            shapes.symbol(
                card.colour.symbol, cx, cy, corner, fill=colour, stroke=frame.ink, line_width=0.8
            )
        )
    ops.append(
        shapes.symbol(
            card.colour.symbol, frame.w / 2, y + 52, 26, fill=colour, stroke=frame.ink, line_width=1
        )
    )
    ops.append(
        frame.text(
            card.colour.name.value,
            x,
            y + 34,
            w,
            20,
            TextStyle(12, MIN_TYPE, fonts.BOLD, align="centre"),
            frame.ink,
        )
    )
    return Face(tuple(ops))


def blank_face(frame: Frame, card: BlankCard, deck_label: str) -> Face:
    x, y, w, h = frame.safe
    neutral = mix(frame.ink, WHITE, 0.35)
    ops, band_bottom = _banded(frame, neutral, deck_label, None)
    side = min(w * 0.66, frame.h * 0.4)
    cy = band_bottom - 8 - side / 2
    ops.extend(_picture(frame, frame.w / 2, cy, side, WHITE, None, neutral)[0])
    top = cy - side / 2 - 4
    ops.append(
        frame.text(
            card.prompt.value, x, top, w, 20, TextStyle(10, MIN_TYPE, align="centre"), neutral
        )
    )
    gap = 20.0
    for i in range(card.lines):
        ly = top - 20 - gap * (i + 1) + 6
        if ly < y + 4:
            break
        ops.append(Line(x + 6, ly, frame.w - SAFE - 6, ly, stroke=neutral, line_width=0.7))
    return Face(tuple(ops))


def picture_face(frame: Frame, card: PictureCard, deck_label: str) -> Face:
    """A full-bleed picture: the user's art if the deck has some for this card, otherwise a
    generated dream-like scene; the card's number sits small in a corner."""
    full = (-BLEED, -BLEED, frame.w + 2 * BLEED, frame.h + 2 * BLEED)
    if card.art is not None:
        return Face((art(frame, card.art, *full, cover=True),))
    hero = dreams.heroes(card.seed, card.number)[card.number - 1]
    ops = dreams.picture(card.seed, card.number, hero, *full)
    ops.append(Circle(SAFE + 10, SAFE + 10, 10, fill=WHITE, stroke=frame.ink, line_width=0.5))
    ops.append(
        frame.text(
            number(card.number, frame.locale),
            SAFE,
            SAFE + 21,
            20,
            22,
            TextStyle(9, MIN_TYPE, fonts.BOLD, align="centre"),
            middle=True,
        )
    )
    return Face(tuple(ops))


def back(frame: Frame, deck: Deck, label: str, key: str, colour: RGB) -> Face:
    x, y, w, h = frame.safe
    ink = readable_on(colour)
    ops: list = [
        frame.background(colour),
        Rect(x, y, w, h, stroke=ink, line_width=1.5, radius=10),
        Rect(x + 5, y + 5, w - 10, h - 10, stroke=mix(colour, ink, 0.4), line_width=0.6, radius=7),
    ]
    ops.append(
        frame.text(
            frame.title,
            x + 8,
            frame.h / 2 + 28,
            w - 16,
            64,
            TextStyle(
                min(26.0, frame.w / 7), 10, fonts.BOLD, leading=1.05, max_lines=2, align="centre"
            ),
            ink,
        )
    )
    if label:
        ops.append(
            Line(
                frame.w / 2 - 20,
                frame.h / 2 - 42,
                frame.w / 2 + 20,
                frame.h / 2 - 42,
                stroke=ink,
                line_width=1,
            )
        )
        ops.append(
            frame.text(
                label.upper(),
                x + 8,
                frame.h / 2 - 48,
                w - 16,
                20,
                TextStyle(12, MIN_TYPE, fonts.BOLD, align="centre"),
                ink,
            )
        )
    return Face(tuple(ops), key=key)


_FACES: dict[type, Callable] = {
    MessCard: mess_face,
    WhichWayCard: which_way_face,
    NumberCard: number_face,
    BlankCard: blank_face,
    PictureCard: picture_face,
}


def _back_colour(frame: Frame, deck: Deck, card) -> tuple[RGB, str]:
    """A deck's back colour, and a variant name where cards' backs differ (player colours)."""
    if isinstance(card, NumberCard) and card.colour is not None:
        return hex_colour(card.colour.hex), card.colour.id
    if deck.kind in ("mess", "pictures"):
        return frame.accent, ""
    if deck.kind == "blank":
        return frame.accent_dark, ""
    return mix(frame.accent_dark, frame.ink, 0.5), ""


def lay_out_deck(edition: Edition, deck: Deck) -> tuple[list[Card], list[Problem]]:
    """Every card of a deck, or the problems that stop it (text that cannot fit)."""
    if deck.kind in TEMPLATES:
        face_template, back_template = TEMPLATES[deck.kind]
        return templates.lay_out_deck(edition, deck, face_template, back_template)
    w, h = mm(deck.size_mm[0]), mm(deck.size_mm[1])
    palette = edition.palette
    frame = Frame(
        w,
        h,
        edition.locale,
        hex_colour(palette.ink),
        hex_colour(palette.paper),
        hex_colour(palette.accent),
        hex_colour(palette.accent_dark),
        edition.title,
        key=f"{edition.id}/{deck.id}",
    )
    label = deck.back_label.value if deck.back_label else ""
    cards: list[Card] = []
    problems: list[Problem] = []
    backs: dict[str, Face] = {}
    for card in deck.cards:
        colour, variant = _back_colour(frame, deck, card)
        key = f"{edition.id}/{deck.id}/back" + (f"/{variant}" if variant else "")
        face = None
        try:
            if key not in backs:
                backs[key] = back(frame, deck, label, key, colour)
            face = _FACES[type(card)](frame, card, label)
        except FitError as exc:
            problems.append(Problem(_text_ref(card, deck).ref, f"card '{card.id}': {exc}"))
        except images.ArtError as exc:
            problems.append(Problem(card.art.ref, f"card '{card.id}': {exc}"))
        problems.extend(frame.notes)
        frame.notes.clear()
        if face is not None:
            cards.append(Card(id=card.id, width=w, height=h, face=face, back=backs[key]))
    return cards, problems


def _text_ref(card, deck: Deck) -> SourceText:
    for attr in ("name", "label", "prompt"):
        value = getattr(card, attr, None)
        if isinstance(value, SourceText):
            return value
    return SourceText("", deck.ref)
