"""Text as PDF operators: each line of a fitted text one text object.

The runs of a line are chosen in :mod:`deckforge.text.lines` so that PDF viewers read,
search and copy the line in reading order; each run is shown at its own text matrix
(viewers take each as a piece of text of its own). Nothing inside a line is marked
content (pdf.js splits a line at every marked-content boundary) but an inline icon's
stand-in, whose /ActualText is the icon's emoji.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfmetrics

from deckforge.drawing.ops import Text
from deckforge.rl import pdf as adapter
from deckforge.text import fonts, lineface
from deckforge.text.inline import InlineIcon
from deckforge.text.lines import Run

#: How many texts' operators a file keeps at most.
_KEPT = 4096
#: The empty glyph an inline icon's text is carried by.
_NO_BREAK_SPACE = "\u00a0"


def _utf16_hex(text: str) -> str:
    return "FEFF" + text.encode("utf-16-be").hex().upper()


class TextWriter:
    """Writes text operators for one file, its fonts looked up once."""

    def __init__(self, canvas) -> None:
        self.doc = adapter.document(canvas)
        self.fonts: dict[str, Any] = {}  # ReportLab's fonts
        #: Each text's operators (a deck's label is drawn on every card), by the text's
        #: id, the text kept with them so that its id stays its own.
        self.code: dict[int, tuple[Text, list[str]]] = {}
        #: Each line's text object, by the line's id (the line kept with it) and place.
        self.lines: dict[tuple, tuple[object, str]] = {}
        #: What :meth:`show` gave, by face and text.
        self.shown: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
        #: Each face's subsets' names in the file, by face and subset.
        self.names: dict[tuple[str, int], str] = {}

    def text(self, op: Text, colour: str, paint=None) -> list[str]:
        """The operators drawing ``op`` (``colour`` sets its fill; ``paint`` gives the
        operator of a markup span's ``#RRGGBB``): each line's runs (and its icons'
        stand-ins) in one text object. Cards repeat a line at the same place (their
        names' first lines): each is written once."""
        cached = self.code.get(id(op))
        if cached is None:
            size = op.fitted.size
            lines = []
            for x, y, line in op.baselines():
                # A line with coloured spans sets the text's colour again after them.
                coloured = paint is not None and any(run.colour for run in line.runs)
                key = (id(line), x, y, size, colour if coloured else None)
                known = self.lines.get(key)
                if known is None or known[0] is not line:
                    if len(self.lines) >= _KEPT:
                        self.lines.clear()  # as the texts' operators below
                    spans = (colour, paint) if coloured else None
                    known = self.lines[key] = (line, self.new_line(line, x, y, size, spans))
                lines.append(known[1])
            if len(self.code) >= _KEPT:
                # Each card's own texts are drawn once: kept, a large deck's would all
                # stay in memory. The shared ones are soon written and kept again.
                self.code.clear()
            cached = self.code[id(op)] = (op, lines)
        return [colour, *cached[1]]

    def new_line(self, line, x: float, y: float, size: float, spans=None) -> str:
        """One line's text object: each run shown at its place, the subset it is in set
        where it changes, a markup span's size and colour (``spans``: the text's colour
        operator and what makes a span's) where they change."""
        runs = line.runs
        if line.icons:
            # In the order they are seen, for extraction that reads the stream's order.
            stand_ins = (self.icon_stand_in(icon, size) for icon in line.icons)
            runs = sorted((*runs, *stand_ins), key=_offset)
        parts = ["BT"]
        current = ""
        size_code = fp_str(size)
        painted = ""
        for run in runs:
            if spans is not None and run.colour != painted:
                parts.append(spans[1](run.colour) if run.colour else spans[0])
                painted = run.colour
            run_size = fp_str(run.size) if run.size else size_code
            if run_size != size_code or current.endswith("*"):
                current = ""  # the size changes: the face is set again
            if run.span:
                parts.append(f"/Span <</ActualText <{_utf16_hex(run.span)}>>> BDC")
            parts.append(f"{fp_str(run.scale)} 0 0 1 {fp_str(x + run.offset, y)} Tm")
            key = (run.font, run.text)
            shown = self.shown.get(key)
            if shown is None:
                if len(self.shown) >= _KEPT:
                    self.shown.clear()  # as the texts' operators
                shown = self.shown[key] = self.show(run.font, run.text)
            if run.spacing:
                parts.append(f"{fp_str(run.spacing)} Tc")
            for name, show in shown:
                if name != current:
                    parts.append(f"{name} {run_size} Tf")
                    current = name if run_size == size_code else name + "*"
                parts.append(show)
            if run.spacing:
                parts.append("0 Tc")
            if run.span:
                parts.append("EMC")
        if painted and spans is not None:
            parts.append(spans[0])
        parts.append("ET")
        return " ".join(parts)

    def icon_stand_in(self, icon: InlineIcon, size: float) -> Run:
        """What an inline icon copies and searches as: its emoji, the /ActualText of an
        empty glyph (a no-break space) stretched across the icon's advance. With no text
        there, poppler takes the gap for a gutter between columns and splits the line."""
        font = fonts.face("latin").name
        stretch = icon.width / fonts.width(_NO_BREAK_SPACE, font, size)
        return Run(_NO_BREAK_SPACE, font, icon.offset, icon.width, icon.actual, stretch)

    def show(self, font_name: str, text: str) -> tuple[tuple[str, str], ...]:
        """The operators showing text in a face: for each piece of it in one subset of
        the face, the subset's name and the piece's Tj. Words and lines repeat from card
        to card (the first line of every place's name), and a text's subsets, once
        given, stay the same."""
        font = self.fonts.get(font_name)
        if font is None:
            font = self.fonts[font_name] = _font(font_name)
        names = self.names
        shown = []
        for subset, chars in adapter.split_string(font, text, self.doc):
            name = names.get((font_name, subset))
            if name is None:
                # Named when first used (the file lists its fonts in that order), and
                # the same name from then on.
                name = names[font_name, subset] = font.getSubsetInternalName(subset, self.doc)
            shown.append((name, f"({escapePDF(chars)}) Tj"))
        return tuple(shown)


def _font(name: str):
    """The font a face is drawn with: a line face's reads its joined letter forms and
    aliases as the letters they stand for."""
    path = lineface.PATHS.get(name)
    if path is not None:
        return adapter.reading_font(name, str(path), lineface.reads_as)
    return pdfmetrics.getFont(name)


def _offset(item) -> float:
    return item.offset
