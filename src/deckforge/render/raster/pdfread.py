"""Reading built PDFs: pages drawn to pixels, and the checks and facts of a card file.

Card exports take a printer-profile card file (one card side per page, each card's back
then its face, every page trim + bleed with a TrimBox). Its build-manifest entry, when
there is one, says what each page is: the card's name, and digests that tell which pages
are the same drawing.
"""

from __future__ import annotations

import ctypes
import hashlib
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from deckforge import manifest
from deckforge.errors import DeckforgeError, display_path

POINTS_PER_INCH = 72.0
#: Page boxes of one file may differ by rounding in the last digits; more than this is a mistake.
TOLERANCE_PT = 0.05
SIDES = ("back", "face")

Box = tuple[float, float, float, float]  # left, bottom, right, top in PDF points


# --- the build manifest --------------------------------------------------------------------


def manifest_entries(build_dir: Path) -> list[dict]:
    """The entries of a build folder's ``manifest.json``: every read of the manifest goes
    through here, so that its typed form is one edit away."""
    return [entry.to_json() for entry in manifest.read(build_dir)]


def manifest_entry(pdf: Path) -> dict | None:
    """The build-manifest entry of ``pdf`` when it sits in a build folder, else None.

    Builds write ``<out>/<edition>/<profile>/<file>.pdf`` next to ``<out>/manifest.json``;
    the entry says for certain what kind of file it is, which page boxes alone cannot
    (a printer-profile rulebook is trim + bleed too).
    """
    target = Path(pdf).resolve()
    for folder in list(target.parents)[:4]:
        if not (folder / "manifest.json").is_file():
            continue
        try:
            entries = manifest_entries(folder)
        except DeckforgeError:
            continue
        for entry in entries:
            if (folder / entry["path"]).resolve() == target:
                return entry
    return None


# --- drawing pages -------------------------------------------------------------------------


#: The layers of a cutter's die line: a viewer shows them, a picture of the printed card not.
DIE_LINE_LAYERS = frozenset({"CutContour", "Crease"})


def open_pdf(pdf: Path, die_line: bool = True) -> pdfium.PdfDocument:
    """A PDF opened with PDFium, its die line's layers hidden unless ``die_line``; a clear
    error if it cannot be read."""
    pdf = Path(pdf)
    if not pdf.is_file():
        raise DeckforgeError(f"{display_path(pdf)}: no such PDF; build it first")
    try:
        hidden = None if die_line else _die_line_hidden(pdf)
        return pdfium.PdfDocument(pdf if hidden is None else hidden)
    except pdfium.PdfiumError as error:
        raise DeckforgeError(f"{display_path(pdf)}: not a readable PDF ({error})") from None


def _die_line_hidden(pdf: Path) -> bytes | None:
    """A copy of the file whose default view has the die line's layers off (PDFium draws
    optional content as that view says), or None when it has no such layer."""
    import io

    data = pdf.read_bytes()
    if b"/OCProperties" not in data and b"/ObjStm" not in data:
        return None  # no layers (the catalog is not hidden in an object stream)
    import pikepdf

    try:
        with pikepdf.open(pdf) as document:
            properties = document.Root.get("/OCProperties")
            if properties is None:
                return None
            groups = list(properties.OCGs)
            hide = [str(g.get("/Name", "")) in DIE_LINE_LAYERS for g in groups]
            if not any(hide):
                return None
            view = properties.D
            view.OFF = pikepdf.Array([g for g, h in zip(groups, hide, strict=True) if h])
            view.ON = pikepdf.Array([g for g, h in zip(groups, hide, strict=True) if not h])
            buffer = io.BytesIO()
            document.save(buffer)
            return buffer.getvalue()
    except pikepdf.PdfError as error:
        raise DeckforgeError(f"{display_path(pdf)}: not a readable PDF ({error})") from None


@contextmanager
def opened(pdf: Path, die_line: bool = True) -> Iterator[pdfium.PdfDocument]:
    """A PDF opened with PDFium (its die line hidden unless ``die_line``), closed after use."""
    document = open_pdf(pdf, die_line)
    try:
        yield document
    finally:
        document.close()


def _draw(
    document: pdfium.PdfDocument,
    index: int,
    region: Box | None,
    size: tuple[int, int],
    stride: int,
    offset: int,
):
    """Page ``index`` (from 0), its ``region`` in points (None: the whole page), drawn to
    exactly ``size`` pixels of RGB into a new buffer: rows ``stride`` bytes apart, the
    first at ``offset``.

    pypdfium2's own ``render`` rounds the page up to whole pixels before cropping, which can
    add a column of pixels; a transform matrix maps the region onto the bitmap exactly.
    """
    width, height = size
    buffer = (ctypes.c_ubyte * (stride * height))()
    page = document[index]
    try:
        crop_left, crop_bottom, crop_right, crop_top = page.get_cropbox()
        left, bottom, right, top = region or (crop_left, crop_bottom, crop_right, crop_top)
        # PDFium first maps the crop box to top-left-origin units of one point; this matrix
        # then scales and shifts the region onto the bitmap.
        sx, sy = width / (right - left), height / (top - bottom)
        matrix = pdfium_c.FS_MATRIX(sx, 0, 0, sy, -(left - crop_left) * sx, -(crop_top - top) * sy)
        clip = pdfium_c.FS_RECTF(0, 0, width, height)
        first_row = ctypes.c_void_p(ctypes.addressof(buffer) + offset)
        bitmap = pdfium_c.FPDFBitmap_CreateEx(
            width, height, pdfium_c.FPDFBitmap_BGR, first_row, stride
        )
        try:
            pdfium_c.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xFFFFFFFF)
            # PDFium writes BGR unless asked for the reversed byte order: without this flag
            # red and blue swap.
            flags = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER
            pdfium_c.FPDF_RenderPageBitmapWithMatrix(bitmap, page, matrix, clip, flags)
        finally:
            pdfium_c.FPDFBitmap_Destroy(bitmap)
    finally:
        page.close()
    return buffer


def render(
    document: pdfium.PdfDocument, index: int, region: Box | None, size: tuple[int, int]
) -> Image.Image:
    """Page ``index`` (from 0), its ``region`` in points (None: the whole page), drawn to
    exactly ``size`` pixels as an RGB image."""
    buffer = _draw(document, index, region, size, 3 * size[0], 0)
    return Image.frombuffer("RGB", size, buffer, "raw", "RGB", 0, 1)


def render_png_rows(
    document: pdfium.PdfDocument, index: int, region: Box | None, size: tuple[int, int]
):
    """As :func:`render`, but the pixels as PNG's image data before compression: each row
    led by its filter type, 0 (none). PDFium draws straight into that layout (rows one
    byte apart, left zero), which spares copying every page twice to encode it."""
    return _draw(document, index, region, size, 3 * size[0] + 1, 1)


def pixels(length: float) -> int:
    """A length in pixels rounded half up (Python's round() would make 412.5 px 412 but
    413.5 px 414), at least one."""
    return max(1, math.floor(length + 0.5))


def page_pixels(size_pt: tuple[float, float], dpi: float) -> tuple[int, int]:
    """The pixel size of a page of ``size_pt`` points at ``dpi``."""
    return pixels(size_pt[0] * dpi / POINTS_PER_INCH), pixels(size_pt[1] * dpi / POINTS_PER_INCH)


def rasterize(pdf: Path, page: int, dpi: float) -> Image.Image:
    """One page as an RGB image at ``dpi`` (pypdfium2), the whole page (trim + bleed).

    ``page`` counts from 0. The image is the page size at ``dpi`` rounded to whole pixels:
    825 × 1125 for a poker card page at 300 dpi.
    """
    if dpi <= 0:
        raise DeckforgeError(f"dpi must be positive, not {dpi}")
    with opened(pdf) as document:
        if not 0 <= page < len(document):
            raise DeckforgeError(
                f"{display_path(pdf)}: no page {page} (pages count from 0; "
                f"the file has {len(document)})"
            )
        return render(document, page, None, page_pixels(document.get_page_size(page), dpi))


# --- card files ----------------------------------------------------------------------------


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


def card_file(pdf: Path, document: pdfium.PdfDocument, entry: dict | None = None) -> CardFile:
    """Check that ``document`` (read from ``pdf``) is a printer-profile card file.

    Every page must be the same size with a TrimBox inset by the same bleed on all four
    sides, and there must be a back and a face per card; when the file is in a build folder
    its manifest ``entry`` (looked up when not given) must say it is a card deck of a
    one-card-per-page profile.
    """
    pages = len(document)
    if pages == 0 or pages % 2:
        raise _not_cards(pdf, f"{pages} pages; a card file has a back and a face per card")
    entry = entry if entry is not None else manifest_entry(pdf)
    if entry is not None:
        _check_entry(pdf, entry, pages)
    first: tuple[float, ...] | None = None
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
        these = (*size, *trim)
        if first is None:
            first = these
        elif not all(abs(a - b) <= TOLERANCE_PT for a, b in zip(these, first, strict=True)):
            raise _not_cards(pdf, f"{where} differs in size from page 1")
    assert first is not None
    page_size, trim = (first[0], first[1]), (first[2], first[3], first[4], first[5])
    return CardFile(cards=pages // 2, page_size=page_size, trim=trim)


def side_page(card: int, side: str) -> int:
    """The page index of a card's side (cards count from 0; backs come first)."""
    return 2 * card + SIDES.index(side)


@dataclass(frozen=True)
class Deck:
    """A checked card file and what its pages are.

    ``faces[i]`` and ``backs[j]`` are digests of what card ``i``'s face and the ``j``-th
    distinct back are drawn from; ``back_of[i]`` is the distinct back card ``i`` shows.
    From the build manifest when it says so; otherwise every page is taken as its own
    drawing, named by the file's content and the page number.
    """

    pdf: Path
    geometry: CardFile
    names: tuple[str, ...]
    faces: tuple[str, ...]
    back_of: tuple[int, ...]
    backs: tuple[str, ...]
    #: Where each card is written (``file:line:column``; '' when the manifest says not).
    sources: tuple[str, ...] = ()
    #: The template the faces are drawn from ('' when the manifest says not).
    template: str = ""
    #: The names of the elements that template draws.
    elements: tuple[str, ...] = ()
    #: The cards' cut shape as the manifest names it ('' for plain rectangles).
    shape: str = ""

    @property
    def cards(self) -> int:
        """How many cards the deck has."""
        return self.geometry.cards

    def back_page(self, back: int) -> int:
        """The page of the first card showing distinct back ``back``."""
        return side_page(self.back_of.index(back), "back")

    def shown_by(self, back: int) -> int:
        """How many cards show distinct back ``back``."""
        return self.back_of.count(back)


def read_deck(pdf: Path, entry: dict | None = None) -> Deck:
    """Check a printer-profile card file and gather what its pages are (see :class:`Deck`)."""
    pdf = Path(pdf)
    entry = entry if entry is not None else manifest_entry(pdf)
    with opened(pdf) as document:
        geometry = card_file(pdf, document, entry)
    return deck_of(pdf, geometry, entry)


def deck_of(pdf: Path, geometry: CardFile, entry: dict | None) -> Deck:
    """What the pages of a card file of ``geometry`` are, from its manifest ``entry``
    (see :class:`Deck`)."""
    count = geometry.cards
    names = (entry or {}).get("card_names")
    if not (isinstance(names, list) and len(names) == count):
        names = [f"{number}" for number in range(1, count + 1)]
    sides = (entry or {}).get("card_sides") or {}
    faces, back_of, backs = sides.get("faces"), sides.get("backs"), sides.get("distinct_backs")
    if not (
        isinstance(faces, list)
        and isinstance(back_of, list)
        and isinstance(backs, list)
        and len(faces) == len(back_of) == count
        and all(isinstance(b, int) and 0 <= b < len(backs) for b in back_of)
    ):
        whole = hashlib.blake2b(pdf.read_bytes(), digest_size=10).hexdigest()
        faces = [f"{whole}:{side_page(card, 'face')}" for card in range(count)]
        backs = [f"{whole}:{side_page(card, 'back')}" for card in range(count)]
        back_of = list(range(count))
    sources = (entry or {}).get("card_sources")
    if not (isinstance(sources, list) and len(sources) == count):
        sources = [""] * count
    template = str((entry or {}).get("face_template") or "")
    elements = (entry or {}).get("face_elements")
    elements = elements if isinstance(elements, list) else []
    return Deck(
        pdf,
        geometry,
        tuple(map(str, names)),
        tuple(faces),
        tuple(back_of),
        tuple(backs),
        tuple(map(str, sources)),
        template,
        tuple(map(str, elements)),
        str((entry or {}).get("shape") or ""),
    )
