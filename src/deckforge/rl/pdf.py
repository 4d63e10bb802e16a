"""ReportLab's private API for documents and pages (see :mod:`deckforge.rl`).

The renderer writes PDF operators straight into a canvas's content list, names forms
and fonts through the canvas's document, turns each page into bytes as soon as it is
drawn, and adds what PDF/X needs to the catalog and the Info dictionary. ReportLab has
no public API for any of these; ``tests/test_reportlab_contract.py`` checks the
attributes relied on here, so that a new ReportLab release that moves them fails there
first, with the name of what moved.
"""

from __future__ import annotations

import contextlib
import functools
import zlib
from collections.abc import Callable, Iterator
from typing import NamedTuple

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc, ttfonts
from reportlab.pdfgen import canvas as rl_canvas

from deckforge.rl import layers

#: What this module reads or writes of ReportLab, by object, for the contract test.
RELIED_ON = {
    "Canvas": ("_code", "_doc", "_formsinuse"),
    "PDFDocument": (
        "idToObject",
        "Pages",
        "Catalog",
        "info",
        "encrypt",
        "getXObjectName",
        "thisPageName",
        "_pdfVersion",
        "_timeStamp",
        "idToObjectNumberAndVersion",
        "Reference",
    ),
    "PDFPage": (
        "ExtGState",
        "_shadingUsed",
        "_colorsUsed",
        "XObjects",
        "hasImages",
        "__NoDefault__",
        "__Refs__",
        "check_format",
        "Contents",
    ),
    "PDFCatalog": ("__NoDefault__",),
    "PDFInfo": ("format", "trapped"),
    "PDFFormXObject": ("Resources", "XObjects", "hasImages"),
    "shapes": ("STATE_DEFAULTS",),
    "TTFont": ("state", "face", "addObjects"),
    "TTFont.State": ("subsets", "assignments"),
    "TTFontFace": ("name", "subfontNameX"),
    "ttfonts": ("SUBSETN",),
    "PDFStream": ("content", "dictionary", "filters"),
    "pdfdoc": ("PDFObjectReference", "PDFArray", "PDFZCompress"),
    "renderPDF": ("_PDFRenderer", "renderScaledDrawing"),
}


def code(canvas: rl_canvas.Canvas) -> list[str]:
    """The operators of the page (or form) being drawn: appending to this list draws."""
    return canvas._code


def document(canvas: rl_canvas.Canvas):
    """The canvas's PDF document, which names fonts' subsets and forms."""
    return canvas._doc


def page_name(canvas: rl_canvas.Canvas) -> str:
    """The name in the file of the page being drawn (a reference to it, once done)."""
    return canvas._doc.thisPageName()


def xobject_name(canvas: rl_canvas.Canvas, form: str) -> str:
    """The resource name under which a form is drawn with ``Do``."""
    return canvas._doc.getXObjectName(form)


def use_form(canvas: rl_canvas.Canvas, form: str) -> None:
    """List a form among those the current page (or form) uses, for its resources."""
    canvas._formsinuse.append(form)


@contextlib.contextmanager
def drawing_defaults(changes: dict) -> Iterator[None]:
    """ReportLab's drawing renderer starts from a global default state; change it while
    a drawing is rendered."""
    from reportlab.graphics.shapes import STATE_DEFAULTS

    saved = {key: STATE_DEFAULTS[key] for key in changes}
    STATE_DEFAULTS.update(changes)
    try:
        yield
    finally:
        STATE_DEFAULTS.update(saved)


def draw_drawing(drawing, canvas: rl_canvas.Canvas, mask: str | None) -> None:
    """Draw a ReportLab drawing at the origin. Its pictures (those SVG art embeds) are
    drawn as image objects, each stored once per file (``mask``: how transparency is
    kept), not as ReportLab's inline images, which the content list cannot hold."""
    from reportlab.graphics import renderPDF

    renderer = _renderer()(mask)
    renderer.draw(renderPDF.renderScaledDrawing(drawing), canvas, 0, 0, showBoundary=False)


@functools.cache
def _renderer() -> type:
    """ReportLab's PDF renderer of drawings, drawing pictures as image objects."""
    from reportlab.graphics import renderPDF
    from reportlab.lib.utils import ImageReader

    class Renderer(renderPDF._PDFRenderer):
        def __init__(self, mask: str | None) -> None:
            super().__init__()
            self.mask = mask

        def drawImage(self, image) -> None:  # noqa: N802 - ReportLab's name
            reader = ImageReader(image.path)
            box = (image.x, image.y, image.width, image.height)
            self._canvas.drawImage(reader, *box, mask=self.mask)

    return Renderer


@functools.lru_cache(maxsize=8)
def _deflated(data: bytes) -> bytes:
    return zlib.compress(data)


def icc_stream(canvas: rl_canvas.Canvas, profile: bytes, components: int):
    """An ICC profile as a compressed stream object of the file: a reference to it.
    A profile is compressed once per process, not once per file (every CMYK file embeds
    the same press profile)."""
    dictionary = {"N": components, "Filter": pdfdoc.PDFName("FlateDecode")}
    stream = pdfdoc.PDFStream(pdfdoc.PDFDictionary(dictionary), _deflated(profile), filters=[])
    return canvas._doc.Reference(stream)


def icc_based(reference) -> object:
    """The colour space ``[/ICCBased ref]``."""
    return pdfdoc.PDFArray([pdfdoc.PDFName("ICCBased"), reference])


def end_form(canvas: rl_canvas.Canvas, form: str, spaces: dict | None) -> None:
    """Finish the form being drawn; ``spaces`` (colour spaces by name) join its
    resources. ReportLab leaves a form's graphics states and shadings out of its
    resources: a form that has them (opacity, gradients) gets them."""
    shadings = dict(canvas._shadingUsed)
    canvas.endForm()
    obj = canvas._doc.idToObject[pdfdoc.xObjectName(form)]
    if shadings or getattr(obj, "ExtGState", None):
        obj._shadingUsed = shadings
    elif spaces is None:
        return
    obj.Resources = _resources(obj, spaces)


def _resources(
    owner, spaces: dict | None, layers: dict | None = None
) -> pdfdoc.PDFResourceDictionary:
    """A page's or form's resources as ReportLab would make them, with ``spaces``
    (and ``layers``, optional-content groups by name)."""
    resources = pdfdoc.PDFResourceDictionary()
    if layers:
        resources.Properties = pdfdoc.PDFDictionary(dict(layers))
    resources.basicFonts()
    if owner.hasImages:
        resources.allProcs()
    if owner.XObjects:
        resources.XObject = owner.XObjects
    if getattr(owner, "ExtGState", None):
        resources.ExtGState = owner.ExtGState
    if hasattr(owner, "_shadingUsed"):
        resources.setShading(owner._shadingUsed)
        resources.setColorSpace(owner._colorsUsed)
    resources.ColorSpace.update(spaces or {})
    return resources


class _Formatted(pdfdoc.PDFObject):
    """An object of the file already turned into its bytes."""

    __RefOnly__ = 1

    def __init__(self, name: str, data: bytes):
        self.__InternalName__ = name
        self.data = data

    def format(self, document) -> bytes:
        return self.data


def write_out_last_page(
    canvas: rl_canvas.Canvas,
    shared: dict[tuple, object],
    spaces: dict | None,
    entries: dict | None = None,
) -> None:
    """Turn the page just finished, and its content stream, into bytes now.

    ReportLab keeps every page's objects (its dictionaries, its uncompressed content)
    until it writes the file; a page costs a few kilobytes that way, and a deck of
    20,000 pages most of the build's memory. Formatted when it is done, a page keeps
    only its bytes. Everything a page refers to (the fonts' dictionary, forms, the page
    tree) is named by the time it is done, so its references can be written already.

    Pages that use the same forms share one resource dictionary (ReportLab writes one
    into every page), and an empty transition and a rotation of 0 (the defaults) are
    left out: a large deck's file is a third smaller, and written a little quicker.
    ``spaces`` (colour spaces by name) join every page's resources; ``entries`` are
    added to the page's dictionary (a tagged page's /StructParents).
    """
    doc = canvas._doc
    page = doc.Pages.pages[-1]
    if entries:
        page.__NoDefault__ = [*page.__NoDefault__, *entries]
        for key, value in entries.items():
            setattr(page, key, value)
    if not (page.ExtGState or page._shadingUsed or page._colorsUsed):
        forms = page.XObjects.dict if page.XObjects else {}
        key = (bool(page.hasImages), tuple(sorted(forms)))
        if key not in shared:
            shared[key] = doc.Reference(_resources(page, spaces))
        page.Resources = shared[key]
    elif spaces or layers.of(doc):
        page.Resources = _resources(page, spaces, layers.of(doc))
    if not isinstance(doc.encrypt, pdfdoc.NoEncryption):
        return  # encrypted streams are written with their object's number, at the end
    if page.Trans is not None and not page.Trans.dict:
        page.Trans = None
    if not page.Rotate:
        page.Rotate = None
    name = page.__InternalName__
    body = _page_bytes(page, doc, shared)  # names its content stream, too
    stream = page.Contents
    stream_name = stream.__InternalName__
    doc.idToObject[stream_name] = _Formatted(stream_name, _stream_bytes(stream, doc, shared))
    doc.idToObject[name] = doc.Pages.pages[-1] = _Formatted(name, body)


#: Where ``shared`` (see :func:`write_out_last_page`) says whether a file's pages, and
#: its content streams, may be written by :func:`_direct_page` and :func:`_direct_stream`.
_DIRECT, _STREAMS = ("direct pages",), ("direct streams",)


def _page_bytes(page, doc, shared: dict) -> bytes:
    """A page's dictionary as ReportLab writes it. Pages are written directly rather
    than by its general formatter, the larger part of writing a page of cards out, once
    the first page of the file has come out the same both ways."""
    direct = shared.get(_DIRECT)
    if direct is False:
        return pdfdoc.format(page, doc, toplevel=1)
    fast = _direct_page(page, doc)
    if direct is None:
        shared[_DIRECT] = fast is not None and fast == pdfdoc.format(page, doc, toplevel=1)
        return pdfdoc.format(page, doc, toplevel=1)
    return fast if fast is not None else pdfdoc.format(page, doc, toplevel=1)


def _stream_bytes(stream, doc, shared: dict) -> bytes:
    """A page's content stream as ReportLab writes it (see :func:`_page_bytes`)."""
    direct = shared.get(_STREAMS)
    fast = _direct_stream(stream) if direct is not False else None
    if direct is None:
        slow = pdfdoc.format(stream, doc, toplevel=1)
        shared[_STREAMS] = fast is not None and fast == slow
        return slow
    return fast if fast is not None else pdfdoc.format(stream, doc, toplevel=1)


def _direct_page(page, doc) -> bytes | None:
    """:class:`pdfdoc.PDFPage`'s ``format`` for a page whose values are names, numbers,
    references and arrays of numbers (None for any other page)."""
    page.check_format(doc)
    found = {"Type": getattr(page, "Type", pdfdoc.PDFName("Page"))}
    for key in page.__NoDefault__:
        value = getattr(page, key, None)
        if value is not None:
            found[key] = value
    numbers = doc.idToObjectNumberAndVersion
    parts = []
    for key in sorted(found):
        value = found[key]
        if key in page.__Refs__:
            value = doc.Reference(value)
        kind = type(value)
        if kind is pdfdoc.PDFObjectReference:
            number, version = numbers[value.name]
            text = f"{number} {version} R"
        elif kind is str and value.startswith("/"):
            text = value
        elif kind is int or kind is float:
            text = fp_str(value)
        elif kind is pdfdoc.PDFArray and len(value.sequence) <= 10:
            if not all(type(e) is int or type(e) is float for e in value.sequence):
                return None
            text = "[ " + " ".join(fp_str(e) for e in value.sequence) + " ]"
        else:
            return None
        parts.append(f"/{key} {text}")
    for index in reversed(range(6, len(parts), 6)):
        parts.insert(index, "\n ")
    return ("<<\n" + " ".join(parts) + "\n>>").encode("latin-1")


def _direct_stream(stream) -> bytes | None:
    """:class:`pdfdoc.PDFStream`'s ``format`` for a compressed content stream."""
    if stream.dictionary.dict or stream.filters != [pdfdoc.PDFZCompress]:
        return None
    content = stream.content
    data = zlib.compress(content.encode("utf8") if isinstance(content, str) else content)
    head = b"<<\n/Filter [ /FlateDecode ] /Length %d\n>>\nstream\n" % len(data)
    return head + data + b"endstream\n"


class _Info(pdfdoc.PDFInfo):
    """The Info dictionary with the keys PDF/X adds (their values are strings)."""

    extra: dict[str, str] = {}

    def format(self, document):
        formatted = super().format(document)
        if not self.extra:
            return formatted
        keys = b"".join(
            b"/" + key.encode("ascii") + b" " + pdfdoc.format(pdfdoc.PDFString(value), document)
            for key, value in self.extra.items()
        )
        # The dictionary ReportLab wrote ends with ">>": the keys go just before it.
        end = formatted.rindex(b">>")
        return formatted[:end] + keys + b"\n" + formatted[end:]


def set_info(canvas: rl_canvas.Canvas, trapped: bool, extra: dict[str, str]) -> None:
    """Set /Trapped and add string keys (GTS_PDFXVersion…) to the Info dictionary."""
    doc = canvas._doc
    info = _Info()
    info.__dict__.update(doc.info.__dict__)
    info.trapped = "True" if trapped else "False"
    info.extra = dict(extra)
    doc.info = info


def set_version(canvas: rl_canvas.Canvas, version: tuple[int, int]) -> None:
    """Write this PDF version in the header: ReportLab raises it to 1.4 whenever a colour
    carries an alpha, even an opaque one (PDF/X-1a:2001 files must say 1.3)."""
    canvas._doc._pdfVersion = version


def timestamp(canvas: rl_canvas.Canvas) -> tuple[int, int, int, int, int, int]:
    """The date ReportLab writes as CreationDate and ModDate (UTC in invariant mode)."""
    return tuple(canvas._doc._timeStamp.YMDhms)


def add_to_catalog(
    canvas: rl_canvas.Canvas, output_intent: dict | None, metadata: bytes | None
) -> None:
    """Put an output intent and an XMP metadata stream in the document catalog."""
    doc = canvas._doc
    catalog = doc.Catalog
    if output_intent is not None:
        intent = pdfdoc.PDFDictionary({k: _pdf_value(v) for k, v in output_intent.items()})
        catalog.OutputIntents = pdfdoc.PDFArray([doc.Reference(intent)])
        if "OutputIntents" not in catalog.__NoDefault__:
            catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]
    if metadata is not None:
        stream = pdfdoc.PDFStream(
            pdfdoc.PDFDictionary(
                {"Type": pdfdoc.PDFName("Metadata"), "Subtype": pdfdoc.PDFName("XML")}
            ),
            metadata,
            filters=[],
        )
        catalog.Metadata = stream


class Ref(NamedTuple):
    """A reference to an object added to the file under ``name``."""

    name: str


def mark_tagged(canvas: rl_canvas.Canvas, objects: list[tuple[str, dict]], root: str) -> None:
    """Make the file a tagged PDF: add its structure tree's objects, each a dictionary of
    plain values (see :func:`_pdf_value`) under its name, point the catalog at ``root``,
    and add /MarkInfo and the document's title shown in the title bar, as PDF/UA asks."""
    doc = canvas._doc
    for name, value in objects:
        doc.Reference(_pdf_value(value), name)
    catalog = doc.Catalog
    catalog.StructTreeRoot = pdfdoc.PDFObjectReference(root)
    catalog.MarkInfo = pdfdoc.PDFDictionary({"Marked": "true"})
    catalog.ViewerPreferences = pdfdoc.PDFDictionary({"DisplayDocTitle": "true"})


def _pdf_value(value):
    """Plain data as ReportLab's PDF objects: a string starting with "/" a name, any
    other a text string, a :class:`Ref` a reference, lists arrays and dicts dictionaries;
    numbers and ReportLab's own objects as they are."""
    if isinstance(value, Ref):
        return pdfdoc.PDFObjectReference(value.name)
    if isinstance(value, str):
        if value.startswith("/"):
            return pdfdoc.PDFName(value[1:])
        return pdfdoc.PDFString(value)
    if isinstance(value, list):
        return pdfdoc.PDFArray([_pdf_value(v) for v in value])
    if isinstance(value, dict):
        return pdfdoc.PDFDictionary({k: _pdf_value(v) for k, v in value.items()})
    return value


def split_string(font: ttfonts.TTFont, text: str, doc) -> list[tuple[int, bytes]]:
    """``font.splitString(text, doc)``: the text in pieces of one subset each, as
    (subset, codes). Quicker in the usual case, text whose characters all have their
    code in the file's first subset already: ReportLab looks each up in a loop."""
    state = font.state.get(doc)
    if state is not None:
        assignments = state.assignments
        codes = [assignments.get(code) for code in map(ord, text.replace("\u00a0", " "))]
        if codes and None not in codes and max(codes) < 256:
            return [(0, bytes(codes))]
    return font.splitString(text, doc)


class _ReadingFont(ttfonts.TTFont):
    """A TrueType font whose subsets' /ToUnicode maps read each character code as
    :attr:`reads_as` says."""

    reads_as: Callable[[int], str] = chr

    def addObjects(self, doc) -> None:  # noqa: N802 - ReportLab's name
        """Add the subsets as ReportLab does, then rewrite their /ToUnicode maps."""
        state = self.state.get(doc)
        subsets = [list(s) for s in state.subsets] if state is not None else []
        super().addObjects(doc)
        for n, subset in enumerate(subsets):
            parts = (ttfonts.SUBSETN(n), b"+", self.face.name, self.face.subfontNameX)
            base = b"".join(parts).decode("pdfdoc")
            stream = doc.idToObject.get("toUnicodeCMap:" + base)
            if stream is not None:
                stream.content = _to_unicode_cmap(base, subset, self.reads_as)


@functools.cache
def reading_font(name: str, path: str, reads_as: Callable[[int], str]) -> ttfonts.TTFont:
    """The font file at ``path``, for drawing under the name of the registered face it
    is (and for nothing else drawn in the same file), its /ToUnicode maps reading each
    character as ``reads_as`` says: a joined letter form as its letter, an alias as what
    it stands for. ReportLab maps every code to the character it was drawn as."""
    font = _ReadingFont(name, path)
    font.reads_as = reads_as
    return font


def _to_unicode_cmap(name: str, subset: list[int], reads_as: Callable[[int], str]) -> str:
    entries = [
        f"<{i:02X}> <{reads_as(code).encode('utf-16-be').hex().upper()}>"
        for i, code in enumerate(subset)
    ]
    return "\n".join(
        [
            "/CIDInit /ProcSet findresource begin",
            "12 dict begin",
            "begincmap",
            f"/CIDSystemInfo << /Registry ({name}) /Ordering ({name}) /Supplement 0 >> def",
            f"/CMapName /{name} def",
            "/CMapType 2 def",
            "1 begincodespacerange",
            f"<00> <{len(subset) - 1:02X}>",
            "endcodespacerange",
            f"{len(entries)} beginbfchar",
            *entries,
            "endbfchar",
            "endcmap",
            "CMapName currentdict /CMap defineresource pop",
            "end",
            "end",
        ]
    )
