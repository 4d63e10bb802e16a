"""Icons' drawings made ahead of a build, away from any file it writes.

A build with an empty cache makes its icons over several processes before its workers
start (:mod:`deckforge.pipeline.warm`); each process draws its share here, on a canvas of
its own, exactly as the painter draws an icon into a file.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

from reportlab.pdfgen import canvas as rl_canvas

from deckforge.render.colour import Converter
from deckforge.render.pdf import icon_cache
from deckforge.render.pdf.painter import Painter


def drawings(
    codes: Iterable[str], converter: Converter | None = None
) -> list[tuple[str, icon_cache.Drawing | None]]:
    """Icons' drawings (in CMYK through ``converter`` if given), made on a canvas of
    their own so that a build can make them over several processes before its workers
    start: each code with its size and operators, or None for one whose operators cannot
    be kept. No font is cut for them: they start in a standard face, which ReportLab
    selects (a file's embedded face is selected without a word); an icon with text
    would name it, and is not kept."""
    painter = Painter(rl_canvas.Canvas(io.BytesIO(), initialFontName="Helvetica"), converter)
    painter.drawing_font = "Helvetica"
    made: list[tuple[str, icon_cache.Drawing | None]] = []
    for code in codes:
        try:
            width, height, ops = painter.make_icon(f"I{code.replace('-', '_')}", code)
        except Exception:  # noqa: BLE001 - made again where it is drawn, which reports it
            made.append((code, None))
            continue
        ops = tuple(op for op in ops if not _SELECT_FONT.fullmatch(op))
        made.append((code, (width, height, ops) if icon_cache.only_drawing(ops) else None))
    return made


#: What ReportLab writes to select a standard face, and nothing else.
_SELECT_FONT = re.compile(r"BT /F\d+ [\d.]+ Tf [\d.]+ TL ET")
