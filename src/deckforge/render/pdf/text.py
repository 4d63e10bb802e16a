"""Text as PDF operators: a fitted text's lines, each run of glyphs a text object.

Right-to-left lines are drawn as shaped glyphs in visual order; a run that reads as
other text (shaped letters, a mirrored bracket) carries the text it stands for in a
marked-content span's /ActualText, so copying and searching give back the real words.
An inline icon (drawn by the painter) reads as its emoji the same way.
"""

from __future__ import annotations

from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfmetrics

from deckforge.layout.ops import Text
from deckforge.render.pdf import adapter
from deckforge.text import fonts
from deckforge.text.fit import Run
from deckforge.text.inline import InlineIcon

#: The empty glyph an inline icon's text is carried by.
_NO_BREAK_SPACE = "\u00a0"


def _utf16_hex(text: str) -> str:
    return "FEFF" + text.encode("utf-16-be").hex().upper()


class TextWriter:
    """Writes text operators into a canvas, its fonts looked up once per file."""

    def __init__(self, canvas) -> None:
        self.canvas = canvas
        self.doc = adapter.document(canvas)
        self.fonts: dict[str, object] = {}

    def text(self, op: Text, colour: str) -> list[str]:
        """The operators drawing ``op`` (``colour`` sets its fill)."""
        code = [colour]
        size = fp_str(op.fitted.size)
        for x, y, line in op.baselines():
            if line.icons:
                # In the order they are seen, for extraction that reads the stream's order.
                for item in sorted((*line.runs, *line.icons), key=lambda item: item.offset):
                    if isinstance(item, InlineIcon):
                        code.append(self.icon_text(item, x, y, op.fitted.size))
                    else:
                        code.append(self.run(item, x + item.offset, y, size))
                continue
            for run in line.runs:
                code.append(self.run(run, x + run.offset, y, size))
        return code

    def icon_text(self, icon: InlineIcon, x: float, y: float, size: float) -> str:
        """What an inline icon copies and searches as: its emoji, in /ActualText over an
        empty glyph (a no-break space) stretched across the icon's advance. With no text
        there, poppler takes the gap for a gutter between columns and splits the line."""
        font = fonts.face("latin").name
        stand_in = Run(_NO_BREAK_SPACE, font, icon.offset, icon.width, span=icon.actual)
        stretch = icon.width / fonts.width(_NO_BREAK_SPACE, font, size)
        return self.run(stand_in, x + icon.offset, y, fp_str(size), stretch)

    def run(self, run, x: float, y: float, size: str, stretch: float = 1.0) -> str:
        """One run of glyphs as a text object (``stretch``: scaled across)."""
        font = self.fonts.get(run.font)
        if font is None:
            font = self.fonts[run.font] = pdfmetrics.getFont(run.font)
        doc = self.doc
        parts = ["BT", f"{fp_str(stretch)} 0 0 1 {fp_str(x, y)} Tm"]
        current = None
        pieces = zip(run.text, run.actual, strict=True) if run.actual else [(run.text, "")]
        for text, actual in pieces:
            if actual:
                parts.append(f"/Span <</ActualText <{_utf16_hex(actual)}>>> BDC")
            for subset, chars in font.splitString(text, doc):
                if subset != current:
                    parts.append(f"{font.getSubsetInternalName(subset, doc)} {size} Tf")
                    current = subset
                parts.append(f"({escapePDF(chars)}) Tj")
            if actual:
                parts.append("EMC")
        parts.append("ET")
        if run.span:
            return f"/Span <</ActualText <{_utf16_hex(run.span)}>>> BDC {' '.join(parts)} EMC"
        return " ".join(parts)
