"""Raster exports of built PDFs: PNG card sides, Tabletop Simulator sheets and a preview site.

Everything here reads PDFs that a build has already written; nothing is laid out again, so
what a player sees in a PNG is exactly what the print shop gets. Card exports take a
printer-profile card file (one card side per page, each card's back then its face, every
page trim + bleed with a TrimBox). Pages are rasterized one at a time and every PNG is
written without metadata, so memory stays bounded by one image and the same PDF always
gives the same bytes.
"""

from __future__ import annotations

import html
import json
import math
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from deckforge.errors import DeckforgeError, display_path

POINTS_PER_INCH = 72.0
#: Behind the cards of a contact sheet: light enough to print, dark enough to show white edges.
SHEET_BACKGROUND = (208, 208, 208)
#: Empty slots of a Tabletop Simulator sheet (the hidden-card slot, and the rest of the last sheet).
TTS_EMPTY = (255, 255, 255)
#: Page boxes of one file may differ by rounding in the last digits; more than this is a mistake.
TOLERANCE_PT = 0.05
SIDES = ("back", "face")

Box = tuple[float, float, float, float]  # left, bottom, right, top in PDF points


@dataclass(frozen=True)
class CardFile:
    """The geometry of a checked printer-profile card PDF, in points."""

    cards: int
    page_size: tuple[float, float]
    trim: Box

    @property
    def trim_size(self) -> tuple[float, float]:
        """Width and height of one card's trim."""
        left, bottom, right, top = self.trim
        return right - left, top - bottom


# --- reading PDFs --------------------------------------------------------------------------


@contextmanager
def _opened(pdf: Path) -> Iterator[pdfium.PdfDocument]:
    pdf = Path(pdf)
    if not pdf.is_file():
        raise DeckforgeError(f"{display_path(pdf)}: no such PDF; build it first")
    try:
        document = pdfium.PdfDocument(pdf)
    except pdfium.PdfiumError as error:
        raise DeckforgeError(f"{display_path(pdf)}: not a readable PDF ({error})") from None
    try:
        yield document
    finally:
        document.close()


def _render(page: pdfium.PdfPage, region: Box, size: tuple[int, int]) -> Image.Image:
    """``region`` of the page (points) drawn to exactly ``size`` pixels, as an RGB image.

    pypdfium2's ``render`` rounds the page up to whole pixels before cropping, which can add
    a column of pixels; a transform matrix maps the region onto the bitmap exactly.
    """
    width, height = size
    left, bottom, right, top = region
    # PDFium first maps the crop box to top-left-origin units of one point; this matrix
    # then scales and shifts the region onto the bitmap.
    crop_left, _, _, crop_top = page.get_cropbox()
    sx = width / (right - left)
    sy = height / (top - bottom)
    matrix = pdfium_c.FS_MATRIX(sx, 0, 0, sy, -(left - crop_left) * sx, -(crop_top - top) * sy)
    clip = pdfium_c.FS_RECTF(0, 0, width, height)
    bitmap = pdfium.PdfBitmap.new_native(width, height, pdfium_c.FPDFBitmap_BGR, rev_byteorder=True)
    try:
        bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, height)
        # The bitmap is declared RGB (``rev_byteorder``), but PDFium writes BGR unless the
        # render call asks for the reversed byte order too: without this flag red and blue swap.
        flags = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER
        pdfium_c.FPDF_RenderPageBitmapWithMatrix(bitmap, page, matrix, clip, flags)
        # Copy out of PDFium's buffer so the bitmap can be freed at once.
        return bitmap.to_pil().convert("RGB").copy()
    finally:
        bitmap.close()


def _pixels(length: float) -> int:
    """A length in pixels rounded half up (Python's round() would make 412.5 px 412 but
    413.5 px 414), at least one."""
    return max(1, math.floor(length + 0.5))


def _page_pixels(page: pdfium.PdfPage, dpi: float) -> tuple[int, int]:
    width, height = page.get_size()
    return _pixels(width * dpi / POINTS_PER_INCH), _pixels(height * dpi / POINTS_PER_INCH)


def _whole_page(page: pdfium.PdfPage) -> Box:
    left, bottom, right, top = page.get_cropbox()
    return left, bottom, right, top


def rasterize(pdf: Path, page: int, dpi: float) -> Image.Image:
    """One page as an RGB image at ``dpi`` (pypdfium2), the whole page (trim + bleed).

    ``page`` counts from 0. The image is the page size at ``dpi`` rounded to whole pixels:
    825 × 1125 for a poker card page at 300 dpi.
    """
    if dpi <= 0:
        raise DeckforgeError(f"dpi must be positive, not {dpi}")
    with _opened(pdf) as document:
        if not 0 <= page < len(document):
            raise DeckforgeError(
                f"{display_path(pdf)}: no page {page} (pages count from 0; "
                f"the file has {len(document)})"
            )
        handle = document[page]
        try:
            return _render(handle, _whole_page(handle), _page_pixels(handle, dpi))
        finally:
            handle.close()


# --- checking that a PDF is a printer-profile card file -----------------------------------


def _manifest_entry(pdf: Path) -> dict | None:
    """The build-manifest entry of ``pdf`` when it sits in a build folder, else None.

    Builds write ``<out>/<edition>/<profile>/<file>.pdf`` next to ``<out>/manifest.json``;
    the entry says for certain what kind of file it is, which page boxes alone cannot
    (a printer-profile rulebook is trim + bleed too).
    """
    target = Path(pdf).resolve()
    for folder in list(target.parents)[:4]:
        manifest = folder / "manifest.json"
        if not manifest.is_file():
            continue
        try:
            outputs = json.loads(manifest.read_text(encoding="utf-8"))["outputs"]
        except (ValueError, KeyError, TypeError):
            continue
        for entry in outputs:
            if isinstance(entry, dict) and (folder / entry.get("path", "")).resolve() == target:
                return entry
    return None


def _single_card_profiles() -> set[str] | None:
    """Ids of the profiles that print one card side per page (None if they cannot be read)."""
    try:
        from deckforge.profiles import all_profiles

        return {p.id for p in all_profiles().values() if p.mode == "single"}
    except DeckforgeError:
        return None


def _not_cards(pdf: Path, why: str) -> DeckforgeError:
    return DeckforgeError(
        f"{display_path(pdf)}: not a printer-profile card file ({why}); card exports need "
        "the one-card-side-per-page PDF of `deckforge build --profile printer`"
    )


def _check_entry(pdf: Path, entry: dict, pages: int) -> None:
    if entry.get("kind") != "cards":
        raise _not_cards(pdf, f"the build manifest lists it as {entry.get('kind')!r}")
    single = _single_card_profiles()
    profile = entry.get("profile")
    if single is not None and profile not in single:
        raise _not_cards(pdf, f"it was built for profile {profile!r}")
    cards = entry.get("cards")
    if isinstance(cards, int) and pages != 2 * cards:
        raise _not_cards(pdf, f"{pages} pages for {cards} cards; the build is out of date")


def card_file(pdf: Path, document: pdfium.PdfDocument) -> CardFile:
    """Check that ``document`` (read from ``pdf``) is a printer-profile card file.

    Every page must be the same size with a TrimBox inset by the same bleed on all four
    sides, and there must be a back and a face per card; when the file is in a build folder
    its manifest entry must say it is a card deck of a one-card-per-page profile.
    """
    pages = len(document)
    if pages == 0 or pages % 2:
        raise _not_cards(pdf, f"{pages} pages; a card file has a back and a face per card")
    entry = _manifest_entry(pdf)
    if entry is not None:
        _check_entry(pdf, entry, pages)
    first_size: tuple[float, float] | None = None
    first_trim: Box | None = None
    for index in range(pages):
        page = document[index]
        try:
            size = page.get_size()
            crop = page.get_cropbox()
            trim = page.get_trimbox(fallback_ok=False)
        finally:
            page.close()
        where = f"page {index + 1}"
        if trim is None:
            raise _not_cards(pdf, f"{where} has no TrimBox")
        insets = (trim[0] - crop[0], trim[1] - crop[1], crop[2] - trim[2], crop[3] - trim[3])
        if min(insets) <= TOLERANCE_PT or max(insets) - min(insets) > TOLERANCE_PT:
            shown = ", ".join(f"{v:.2f}" for v in insets)
            raise _not_cards(pdf, f"{where} is not trim + bleed: TrimBox insets {shown} pt")
        if first_size is None or first_trim is None:
            first_size, first_trim = size, trim
        elif not _same(size + trim, first_size + first_trim):
            raise _not_cards(pdf, f"{where} differs in size from page 1")
    assert first_size is not None and first_trim is not None
    return CardFile(cards=pages // 2, page_size=first_size, trim=first_trim)


def _same(these: tuple[float, ...], those: tuple[float, ...]) -> bool:
    return all(abs(a - b) <= TOLERANCE_PT for a, b in zip(these, those, strict=True))


def _side_page(card: int, side: str) -> int:
    """The page index of a card's side (cards count from 0; backs come first)."""
    return 2 * card + SIDES.index(side)


# --- writing PNGs --------------------------------------------------------------------------


@contextmanager
def _atomic(path: Path) -> Iterator[Path]:
    """A temporary file beside ``path`` to write, renamed onto ``path`` when done, so a
    reader never sees a half-written file; removed if writing fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    temp = Path(name)
    try:
        yield temp
        # mkstemp makes the file private; previews are meant to be read and served.
        temp.chmod(0o644)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def _save_png(image: Image.Image, path: Path) -> Path:
    """Write ``image`` as a PNG with no metadata.

    No text chunks, times or ICC profile go in, so equal pixels give equal bytes.
    """
    clean = image.copy() if image.info else image
    clean.info = {}
    with _atomic(path) as temp:
        clean.save(temp, format="PNG", pnginfo=None, compress_level=6)
    return path


def _remove_stale(folder: Path, pattern: str, keep: list[Path]) -> None:
    """Delete files of an earlier export that this one did not write (a longer deck's
    sheet-9.png would otherwise look like part of the new export)."""
    wanted = {p.name for p in keep}
    matcher = re.compile(pattern)
    for old in folder.glob("*.png"):
        if matcher.fullmatch(old.name) and old.name not in wanted:
            old.unlink()


def export_png(pdf: Path, out_folder: Path, dpi: int = 300) -> list[Path]:
    """Every card side of a printer-profile card PDF as a PNG at trim + bleed.

    Files are ``001-back.png``, ``001-face.png``, ``002-back.png``, ... (825 × 1125 px for a
    poker card at 300 dpi, the size The Game Crafter takes). Returns the files in order.
    PNGs of an earlier, longer export in ``out_folder`` are removed.
    """
    if dpi <= 0:
        raise DeckforgeError(f"dpi must be positive, not {dpi}")
    out_folder = Path(out_folder)
    written: list[Path] = []
    with _opened(pdf) as document:
        cards = card_file(pdf, document)
        digits = max(3, len(str(cards.cards)))
        for index in range(len(document)):
            page = document[index]
            try:
                image = _render(page, _whole_page(page), _page_pixels(page, dpi))
            finally:
                page.close()
            card, side = divmod(index, 2)
            name = f"{card + 1:0{digits}d}-{SIDES[side]}.png"
            written.append(_save_png(image, out_folder / name))
    _remove_stale(out_folder, r"\d{3,}-(back|face)\.png", written)
    return written


def _card_image(
    document: pdfium.PdfDocument, index: int, cards: CardFile, size: tuple[int, int]
) -> Image.Image:
    page = document[index]
    try:
        return _render(page, cards.trim, size)
    finally:
        page.close()


def _fit_card(
    trim_size: tuple[float, float], columns: int, rows: int, max_side: int
) -> tuple[int, int]:
    """The largest card in pixels, with the trim's proportions, of which ``columns`` × ``rows``
    fit in ``max_side`` × ``max_side``."""
    trim_w, trim_h = trim_size
    width = max_side // columns
    height = math.floor(width * trim_h / trim_w)
    if height * rows > max_side:
        height = max_side // rows
        width = math.floor(height * trim_w / trim_h)
    if width < 1 or height < 1:
        raise DeckforgeError(f"{columns} × {rows} cards do not fit in {max_side} px")
    return width, height


def tts_grid(
    cards: int,
    trim_size: tuple[float, float],
    columns: int = 10,
    rows: int = 7,
    max_side: int = 4096,
) -> tuple[int, int, tuple[int, int]]:
    """The grid (columns, rows) of every Tabletop Simulator sheet of a deck, and the card
    size in pixels.

    A deck that needs several sheets uses the whole ``columns`` × ``rows``. When the deck
    and the hidden-card slot fit on one sheet, the grid is the one (at least 2 × 2, which
    TTS always accepts) that gives the largest cards, so a small deck is not drawn tiny.
    """
    if cards + 1 > columns * rows:
        return columns, rows, _fit_card(trim_size, columns, rows, max_side)
    grids = []
    for used_columns in range(min(2, columns), columns + 1):
        used_rows = max(min(2, rows), math.ceil((cards + 1) / used_columns))
        if used_rows <= rows:
            grids.append((used_columns, used_rows))
    # columns × rows itself always qualifies, so there is at least one grid.
    # Largest card first, then the fewest empty slots.
    used_columns, used_rows = max(
        grids,
        key=lambda g: (_fit_card(trim_size, *g, max_side)[0], -g[0] * g[1]),
    )
    return used_columns, used_rows, _fit_card(trim_size, used_columns, used_rows, max_side)


def export_tts(
    pdf: Path, out_folder: Path, columns: int = 10, rows: int = 7, max_side: int = 4096
) -> list[Path]:
    """Tabletop Simulator deck sheets from a printer-profile card PDF.

    Card faces are cropped to the trim, up to ``columns`` × ``rows`` per image
    (``sheet-1.png``, ``sheet-2.png``, ...), no image larger than ``max_side`` px on either
    side (cards as large as fit), plus ``back.png`` (the first card's back at the same card
    size). The last slot of each sheet stays empty so TTS can use it for a hidden card.
    Every sheet of a deck has the same grid (see :func:`tts_grid`); it is the sheet's size
    divided by back.png's, the numbers TTS asks for. Returns ``[sheets..., back.png]``.
    """
    if columns < 1 or rows < 1 or columns * rows < 2:
        raise DeckforgeError(
            f"a TTS sheet of {columns} × {rows} has no room for a card besides the hidden one"
        )
    if max_side < 1:
        raise DeckforgeError(f"max_side must be positive, not {max_side}")
    out_folder = Path(out_folder)
    written: list[Path] = []
    with _opened(pdf) as document:
        cards = card_file(pdf, document)
        grid_columns, grid_rows, size = tts_grid(
            cards.cards, cards.trim_size, columns, rows, max_side
        )
        per_sheet = grid_columns * grid_rows - 1
        for first in range(0, cards.cards, per_sheet):
            # One sheet in memory at a time, filled one card at a time.
            sheet = Image.new("RGB", (grid_columns * size[0], grid_rows * size[1]), TTS_EMPTY)
            for slot, card in enumerate(range(first, min(first + per_sheet, cards.cards))):
                row, column = divmod(slot, grid_columns)
                face = _card_image(document, _side_page(card, "face"), cards, size)
                sheet.paste(face, (column * size[0], row * size[1]))
            number = first // per_sheet + 1
            written.append(_save_png(sheet, out_folder / f"sheet-{number}.png"))
            del sheet
        _remove_stale(out_folder, r"sheet-\d+\.png", written)
        back = _card_image(document, _side_page(0, "back"), cards, size)
        written.append(_save_png(back, out_folder / "back.png"))
    return written


def contact_sheet(
    pdf: Path, out_png: Path, side: str = "face", columns: int = 8, card_width: int = 180
) -> Path:
    """All faces (or backs) of a printer-profile card PDF on one image, for authors to review.

    Cards are cropped to the trim, ``card_width`` px wide, in a grid of ``columns`` (fewer
    if the deck is smaller) with a thin gap around each. Returns ``out_png``.
    """
    if side not in SIDES:
        raise DeckforgeError(f"side must be 'face' or 'back', not {side!r}")
    if columns < 1 or card_width < 1:
        raise DeckforgeError("a contact sheet needs at least one column of cards 1 px wide")
    with _opened(pdf) as document:
        cards = card_file(pdf, document)
        trim_w, trim_h = cards.trim_size
        size = (card_width, _pixels(card_width * trim_h / trim_w))
        gap = max(2, card_width // 30)
        used_columns = min(columns, cards.cards)
        used_rows = math.ceil(cards.cards / used_columns)
        sheet = Image.new(
            "RGB",
            (used_columns * (size[0] + gap) + gap, used_rows * (size[1] + gap) + gap),
            SHEET_BACKGROUND,
        )
        for card in range(cards.cards):
            row, column = divmod(card, used_columns)
            image = _card_image(document, _side_page(card, side), cards, size)
            sheet.paste(image, (gap + column * (size[0] + gap), gap + row * (size[1] + gap)))
    return _save_png(sheet, Path(out_png))


# --- preview site --------------------------------------------------------------------------

PAGE_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
section.edition { margin-bottom: 3rem; }
article.deck { margin: 1.5rem 0; }
figure { margin: 0.5rem 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #bbb; }
ul.files { padding-left: 1.2rem; }
.note { color: #666; }
""".strip()


def _href(target: Path, site_dir: Path) -> str:
    """A relative, URL-quoted link from a page in ``site_dir`` to ``target``."""
    relative = os.path.relpath(Path(target).resolve(), Path(site_dir).resolve())
    return quote(Path(relative).as_posix())


def _read_manifest(build_dir: Path) -> list[dict]:
    path = Path(build_dir) / "manifest.json"
    if not path.is_file():
        raise DeckforgeError(
            f"{display_path(path)}: no build manifest; run `deckforge build --out "
            f"{display_path(Path(build_dir))}` first"
        )
    try:
        outputs = json.loads(path.read_text(encoding="utf-8"))["outputs"]
    except (ValueError, KeyError, TypeError) as error:
        raise DeckforgeError(f"{display_path(path)}: not a deckforge build manifest") from error
    if not isinstance(outputs, list) or not all(isinstance(e, dict) for e in outputs):
        raise DeckforgeError(f"{display_path(path)}: not a deckforge build manifest")
    return outputs


def _preview_source(entries: list[dict], single: set[str] | None) -> dict | None:
    """The entry whose PDF the previews of a deck are drawn from: the printer profile's,
    else another one-card-per-page profile's, else none."""
    candidates = [e for e in entries if e.get("profile") == "printer"]
    if not candidates and single:
        candidates = sorted(
            (e for e in entries if e.get("profile") in single), key=lambda e: e["profile"]
        )
    return candidates[0] if candidates else None


def _links(entries: list[dict], build_dir: Path, site_dir: Path) -> str:
    items = []
    for entry in sorted(entries, key=lambda e: (str(e.get("profile")), str(e.get("path")))):
        target = build_dir / entry["path"]
        label = f"{entry.get('profile')}: {Path(entry['path']).name}"
        if target.is_file():
            href = html.escape(_href(target, site_dir))
            items.append(f'<li><a href="{href}">{html.escape(label)}</a></li>')
        else:
            items.append(f'<li>{html.escape(label)} <span class="note">(missing)</span></li>')
    return '<ul class="files">' + "".join(items) + "</ul>"


def preview_site(build_dir: Path, site_dir: Path) -> Path:
    """A static preview of a build, for authors to review in a browser.

    From ``build_dir/manifest.json``: for every printer-profile card deck, contact sheets
    of its faces and backs (``site_dir/<edition>/<deck>-faces.png`` and ``-backs.png``),
    and ``site_dir/index.html`` showing every edition, every deck with its name and card
    count, faces and backs with alt text, and relative links to the PDFs of all profiles.
    Returns the index.html path.
    """
    build_dir, site_dir = Path(build_dir), Path(site_dir)
    outputs = _read_manifest(build_dir)
    single = _single_card_profiles()
    editions: dict[str, dict[tuple[str, str], list[dict]]] = {}
    locales: dict[str, str] = {}
    for entry in outputs:
        if "path" not in entry:
            raise DeckforgeError(f"{display_path(build_dir / 'manifest.json')}: entry without path")
        edition = str(entry.get("edition", ""))
        locales.setdefault(edition, str(entry.get("locale", "")))
        # Card decks are grouped by deck; every other output by its kind.
        if entry.get("kind") == "cards":
            key = ("cards", str(entry.get("deck")))
        else:
            key = ("other", str(entry.get("kind")))
        editions.setdefault(edition, {}).setdefault(key, []).append(entry)

    body: list[str] = []
    for edition in sorted(editions):
        groups = editions[edition]
        lang = html.escape(locales[edition])
        body.append(f'<section class="edition" lang="{lang}">')
        body.append(f'<h2 id="{html.escape(edition)}">{html.escape(edition)}</h2>')
        for (group, name), entries in sorted(groups.items()):
            if group != "cards":
                continue
            source = _preview_source(entries, single)
            count = (source or entries[0]).get("cards", "?")
            body.append(f'<article class="deck" id="{html.escape(f"{edition}-{name}")}">')
            body.append(f"<h3>{html.escape(name)} <small>({count} cards)</small></h3>")
            if source is None:
                body.append(
                    '<p class="note">No preview: build with <code>--profile printer</code>.</p>'
                )
            else:
                pdf = build_dir / source["path"]
                for side, plural in (("face", "faces"), ("back", "backs")):
                    image = contact_sheet(pdf, site_dir / edition / f"{name}-{plural}.png", side)
                    alt = f"{plural.capitalize()} of the {count} {name} cards of {edition}"
                    body.append(
                        f'<figure><img src="{html.escape(_href(image, site_dir))}" '
                        f'alt="{html.escape(alt)}" loading="lazy">'
                        f"<figcaption>{plural.capitalize()}</figcaption></figure>"
                    )
            body.append(_links(entries, build_dir, site_dir))
            body.append("</article>")
        others = [e for (group, _), entries in groups.items() if group != "cards" for e in entries]
        if others:
            body.append("<h3>Other files</h3>")
            by_kind: dict[str, list[dict]] = {}
            for entry in others:
                by_kind.setdefault(str(entry.get("kind")), []).append(entry)
            for kind in sorted(by_kind):
                body.append(f"<h4>{html.escape(kind)}</h4>")
                body.append(_links(by_kind[kind], build_dir, site_dir))
        body.append("</section>")

    page = "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            "<title>deckforge preview</title>",
            f"<style>\n{PAGE_STYLE}\n</style>",
            "</head>",
            "<body>",
            "<h1>deckforge preview</h1>",
            *body,
            "</body>",
            "</html>",
            "",
        ]
    )
    index = site_dir / "index.html"
    with _atomic(index) as temp:
        temp.write_text(page, encoding="utf-8")
    return index
