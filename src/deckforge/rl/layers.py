"""Optional content (layers) in ReportLab's documents, which it has no API for: a
layer is a dictionary in the catalog's /OCProperties and a name in the /Properties of
the resources of the pages that use it (see :mod:`deckforge.rl.pdf`)."""

from __future__ import annotations

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen import canvas as rl_canvas


def layer(canvas: rl_canvas.Canvas, name: str) -> str:
    """The resource name of the optional-content group (layer) ``name``, visible, made
    the first time it is asked for: listed in the catalog's /OCProperties (with the
    default configuration's /Name and /Order that PDF/X-4 asks for) and in the
    resources of every page written after it is asked for."""
    doc = canvas._doc
    groups = doc.__dict__.setdefault("_deckforge_layers", {})
    if name not in groups:
        group = doc.Reference(
            pdfdoc.PDFDictionary({"Type": pdfdoc.PDFName("OCG"), "Name": pdfdoc.PDFString(name)})
        )
        groups[name] = group
        refs = pdfdoc.PDFArray(list(groups.values()))
        default = {"Name": pdfdoc.PDFString("Default"), "Order": refs, "ON": refs}
        catalog = doc.Catalog
        catalog.OCProperties = pdfdoc.PDFDictionary(
            {"OCGs": refs, "D": pdfdoc.PDFDictionary(default)}
        )
        if "OCProperties" not in catalog.__NoDefault__:
            catalog.__NoDefault__ = [*catalog.__NoDefault__, "OCProperties"]
    return "OC" + "".join(ch for ch in name if ch.isalnum())


def of(doc) -> dict | None:
    """The /Properties of a resource dictionary: the file's layers by resource name."""
    groups = doc.__dict__.get("_deckforge_layers")
    if not groups:
        return None
    return {"OC" + "".join(ch for ch in n if ch.isalnum()): ref for n, ref in groups.items()}
