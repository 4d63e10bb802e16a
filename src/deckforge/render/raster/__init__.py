"""Raster outputs of built PDFs: PNG card sides, Tabletop Simulator decks and a preview site.

Everything here reads PDFs that a build has already written; nothing is laid out again, so
what a player sees in a PNG is exactly what the print shop gets. ``pdfread`` reads the
PDFs and the build manifest, ``work`` draws pages into images in parallel (each drawing
once, and only when it changed), and ``export``, ``tts`` and ``preview`` plan the files of
each output.
"""

from deckforge.render.raster.export import contact_sheet, export_png, png_plan
from deckforge.render.raster.pdfread import manifest_entries, rasterize, read_deck
from deckforge.render.raster.preview import preview_site
from deckforge.render.raster.tts import Sheets, export_tts, tts_plan
from deckforge.render.raster.work import carry_out

__all__ = [
    "Sheets",
    "carry_out",
    "contact_sheet",
    "export_png",
    "export_tts",
    "manifest_entries",
    "png_plan",
    "preview_site",
    "rasterize",
    "read_deck",
    "tts_plan",
]
