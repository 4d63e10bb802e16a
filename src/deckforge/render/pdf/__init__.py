"""PDF renderer: draws a :class:`~deckforge.drawing.ops.Document` with ReportLab.

:mod:`.painter` draws pages, :mod:`.text` writes text runs, :mod:`.structure` makes a
tagged file's structure tree, :mod:`.icon_cache` keeps icons' operators for a build's
processes and between builds (:mod:`.icon_maker` draws them ahead of a first build),
:mod:`.pdfx` says what PDF/X adds to a file; every use of ReportLab's private API is in
:mod:`deckforge.rl`.
"""

from __future__ import annotations

import hashlib
from functools import partial
from itertools import chain
from pathlib import Path

from reportlab import rl_config
from reportlab.pdfgen import canvas as rl_canvas

from deckforge.drawing.ops import Document, Text
from deckforge.drawing.outline import Cut, CutLines, DieCut
from deckforge.profiles import OutputIntent
from deckforge.render import colour
from deckforge.render.pdf import cutting, pdfx
from deckforge.render.pdf.painter import Painter
from deckforge.rl import pdf as adapter
from deckforge.text import fonts

__all__ = ["name", "render", "suffix"]

name = "pdf"
suffix = ".pdf"


def render(document: Document, path: Path) -> None:
    """Write the document's pages to a PDF file at ``path``."""
    # Streams are stored as compressed binary, not also in ASCII85 (ReportLab's default,
    # for 7-bit mail channels): a large deck's file is a seventh smaller.
    saved, rl_config.useA85 = rl_config.useA85, 0
    try:
        _render(document, path)
    finally:
        rl_config.useA85 = saved


def _render(document: Document, path: Path) -> None:
    standard = pdfx.STANDARDS.get(document.pdfx) if document.pdfx else None
    pages = iter(document.pages)
    first = next(pages)
    canvas = rl_canvas.Canvas(
        str(path),
        pagesize=(first.width, first.height),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.face("latin").name,
        # One version for every file, whatever the drawing renderer would bump it to.
        pdfVersion=standard.pdf_version if standard else (1, 4),
        lang=document.lang,
    )
    canvas.setTitle(document.title)
    canvas.setSubject(document.title)
    canvas.setAuthor("deckforge")
    canvas.setCreator("deckforge")
    canvas.setProducer(pdfx.PRODUCER)
    intent = document.output_intent or OutputIntent()
    converter = None
    if document.colour == "cmyk":
        converter = colour.converter(intent, document.ink_limit, document.rich_black)  # type: ignore[arg-type]
    spaces = None
    if standard is not None:
        spaces = _declare(canvas, document, standard, intent)
    tagged = _is_tagged(document) if document.tagged is None else document.tagged
    # Optional content came with PDF 1.5: PDF/X-4 files may have layers, PDF/X-1a none.
    layered = standard is not None and standard.pdf_version >= (1, 5)
    painter = Painter(
        canvas, converter, spaces, tagged=tagged, intent=intent, ink_limit=document.ink_limit
    )
    painter.draw[Cut] = partial(cutting.draw, painter, layered)
    painter.draw[CutLines] = partial(cutting.cut_lines, painter)
    painter.draw[DieCut] = partial(cutting.die_cut, painter, layered)
    for page in chain((first,), pages):
        painter.page(page)
    if painter.structure is not None:
        adapter.mark_tagged(canvas, *painter.structure.write())
    if standard is not None:
        adapter.set_version(canvas, standard.pdf_version)
    canvas.save()


def _is_tagged(document: Document) -> bool:
    """Whether a document's texts say where they belong in its structure (rulebooks and
    score pads do): the file is then a tagged PDF."""
    for page in document.pages:
        for placement in page.placements:
            for op in placement.face.ops:
                if isinstance(op, Text) and op.tag is not None and not op.tag.artifact:
                    return True
    return False


def _declare(canvas, document: Document, standard: pdfx.Standard, intent) -> dict | None:
    """Add the output intent, Info keys and XMP of a PDF/X file; the colour spaces every
    resource dictionary gets (/DefaultRGB as sRGB, for PDF/X-4)."""
    profile = colour.output_profile(intent, document.ink_limit)
    profile_ref = adapter.icc_stream(canvas, profile, 4)
    adapter.set_info(canvas, trapped=False, extra=standard.info)
    ident = hashlib.sha256(f"{document.title}|{standard.name}".encode()).hexdigest()
    uuid = f"{ident[:8]}-{ident[8:12]}-{ident[12:16]}-{ident[16:20]}-{ident[20:32]}"
    metadata = pdfx.xmp(standard, document.title, adapter.timestamp(canvas), uuid)
    adapter.add_to_catalog(canvas, pdfx.output_intent(intent, profile_ref), metadata)
    if standard.cmyk_only:
        return None
    srgb = adapter.icc_based(adapter.icc_stream(canvas, colour.srgb_profile(), 3))
    return {"DefaultRGB": srgb}
