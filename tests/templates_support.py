"""Helpers for the template tests: write templates, lay out cards, render and look."""

from __future__ import annotations

import textwrap
from pathlib import Path

from PIL import Image

from deckforge.drawing.ops import Document, Face, Page, Placement, Use
from deckforge.errors import SourceRef
from deckforge.model import Text
from deckforge.render import pdf
from deckforge.render.raster import rasterize
from deckforge.templates import Context, Library, stream_cards
from deckforge.templates.bind import shared_values
from deckforge.units import mm

PALETTE = {"ink": "#1D1D2C", "paper": "#FFFDF7", "accent": "#E4572E", "accent_dark": "#6B2A7A"}


def edition(tmp_path: Path, **templates: str) -> Path:
    """An edition folder with the given templates (name → YAML text) in templates/."""
    folder = tmp_path / "decks" / "test"
    (folder / "templates").mkdir(parents=True, exist_ok=True)
    for name, text in templates.items():
        (folder / "templates" / f"{name}.yaml").write_text(
            textwrap.dedent(text).lstrip(), encoding="utf-8"
        )
    return folder


def library(tmp_path: Path, **templates: str) -> Library:
    """The library of an edition holding the given templates."""
    return Library.for_edition(edition(tmp_path, **templates), tmp_path)


def context(locale: str = "en", size_mm=(63.5, 88.9), back: str = "Place") -> Context:
    """A deck's context, with the shipped editions' palette."""
    shared = shared_values(
        {"id": "deck", "back": Text(back, SourceRef("edition.yaml", 3, 5)), "size": "poker"},
        {"id": "test", "game": "test", "title": "Test Game", "locale": locale},
        PALETTE,
    )
    return Context(locale, PALETTE, shared, size_mm, "test/deck")


def text(value: str, line: int = 1, column: int = 1, file: str = "cards.yaml") -> Text:
    """A source text at a place."""
    return Text(value, SourceRef(file, line, column))


def lay_out(lib: Library, cards, face: str, back: str | None = None, **kwargs):
    """Cards laid out from templates: (cards, problems)."""
    return stream_cards(cards, lib, context(**kwargs), face, back).whole()


def flat(face: Face) -> list:
    """A face's operations with shared faces drawn in."""
    out = []
    for op in face.ops:
        out.extend(flat(op.face) if isinstance(op, Use) else [op])
    return out


def render(tmp_path: Path, face: Face, w: float, h: float, dpi: float = 72) -> Image.Image:
    """One card side rendered to PDF (trim only) and rasterized."""
    page = Page(w, h, placements=(Placement(face, 0, 0, (0, 0, w, h)),))
    path = tmp_path / "card.pdf"
    pdf.render(Document((page,), "test"), path)
    return rasterize(path, 0, dpi)


def close(pixel, colour, tolerance: int = 24) -> bool:
    """Whether a pixel is near a colour ('#RRGGBB')."""
    want = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, want, strict=True))


#: A poker card's trim in points, and the head of a one-template test deck.
W, H = mm(63.5), mm(88.9)
HEAD = "kind: template\nsize: poker\n"


def one(tmp_path, body: str, cards=None, **kwargs):
    """The ops of the first card of a one-template deck (problems must be none)."""
    lib = library(tmp_path, t=HEAD + body)
    laid, problems = lay_out(lib, cards or [{"id": text("a")}], "t", **kwargs)
    assert problems == []
    return flat(laid[0].face)


def problems_of(tmp_path, body: str, cards=None, head: str = HEAD, **templates):
    lib = library(tmp_path, t=head + body, **templates)
    _, problems = lay_out(lib, cards or [{"id": text("a")}], "t")
    return [p.format() for p in problems]
