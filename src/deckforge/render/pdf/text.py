"""Text as PDF operators: a fitted text's lines, each run of glyphs a text object.

Right-to-left lines are drawn as shaped glyphs in visual order; a run that reads as
other text (shaped letters, a mirrored bracket) carries the text it stands for in a
marked-content span's /ActualText, so copying and searching give back the real words.
"""

from __future__ import annotations

from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfmetrics

from deckforge.layout.ops import Text
from deckforge.render.pdf import adapter


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
            for run in line.runs:
                code.append(self.run(run, x + run.offset, y, size))
        return code

    def run(self, run, x: float, y: float, size: str) -> str:
        """One run of glyphs as a text object."""
        font = self.fonts.get(run.font)
        if font is None:
            font = self.fonts[run.font] = pdfmetrics.getFont(run.font)
        doc = self.doc
        parts = ["BT", f"1 0 0 1 {fp_str(x, y)} Tm"]
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
