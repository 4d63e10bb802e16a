"""What PDF/X (ISO 15930) asks of a file beyond its pages, as plain values.

Both versions: an output intent naming the printing condition with its ICC profile
embedded, the version in the Info dictionary and in XMP metadata, /Trapped, an /ID
(ReportLab writes one), and TrimBox and BleedBox on every page (layout sets them).
PDF/X-1a:2001 is PDF 1.3 with CMYK only and no transparency; PDF/X-4 is PDF 1.6, and
its RGB is tagged as sRGB by a /DefaultRGB colour space on every resource dictionary.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The Info dictionary's /Producer, which the XMP repeats.
PRODUCER = "ReportLab PDF Library - www.reportlab.com"
X4 = "PDF/X-4"
X1A = "PDF/X-1a:2001"


@dataclass(frozen=True, eq=False)
class Standard:
    """One PDF/X version: its header version and the keys that name it."""

    name: str
    pdf_version: tuple[int, int]
    #: Info dictionary keys (and their XMP twins) that declare it.
    info: dict[str, str]
    cmyk_only: bool


STANDARDS = {
    X4: Standard(X4, (1, 6), {"GTS_PDFXVersion": "PDF/X-4"}, cmyk_only=False),
    X1A: Standard(
        X1A,
        (1, 3),
        {"GTS_PDFXVersion": "PDF/X-1:2001", "GTS_PDFXConformance": "PDF/X-1a:2001"},
        cmyk_only=True,
    ),
}


def output_intent(intent, profile_ref) -> dict:
    """The /OutputIntent dictionary (values: "/Name", text, or a PDF object)."""
    keys = {
        "Type": "/OutputIntent",
        "S": "/GTS_PDFX",
        "OutputConditionIdentifier": intent.condition,
        "OutputCondition": intent.condition_name,
        "RegistryName": intent.registry,
        "Info": intent.condition_name,
        "DestOutputProfile": profile_ref,
    }
    return {key: value for key, value in keys.items() if value != ""}


def escape(text: str) -> str:
    """Text escaped for XML content (xml.sax.saxutils would import urllib and ssl; html
    is imported by the files that write XML metadata only)."""
    from html import escape as html_escape

    return html_escape(text, quote=False)


def _date(ymdhms: tuple[int, ...]) -> str:
    y, mo, d, h, mi, s = ymdhms
    return f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}Z"


def xmp(standard: Standard, title: str, ymdhms: tuple[int, ...], document_id: str) -> bytes:
    """XMP metadata matching the Info dictionary: title, dates, tool, /Trapped and the
    PDF/X version keys."""
    date = _date(ymdhms)
    pdfx = ""
    if "GTS_PDFXConformance" in standard.info:
        pdfx = (
            f"<pdfx:GTS_PDFXVersion>{standard.info['GTS_PDFXVersion']}</pdfx:GTS_PDFXVersion>"
            f"<pdfx:GTS_PDFXConformance>{standard.info['GTS_PDFXConformance']}"
            "</pdfx:GTS_PDFXConformance>"
        )
    body = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about=""
 xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
 xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
 xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/"
 xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(title)}</rdf:li></rdf:Alt></dc:title>
<dc:creator><rdf:Seq><rdf:li>deckforge</rdf:li></rdf:Seq></dc:creator>
<dc:description><rdf:Alt><rdf:li xml:lang="x-default">{escape(title)}</rdf:li></rdf:Alt>
</dc:description>
<xmp:CreateDate>{date}</xmp:CreateDate>
<xmp:ModifyDate>{date}</xmp:ModifyDate>
<xmp:MetadataDate>{date}</xmp:MetadataDate>
<xmp:CreatorTool>deckforge</xmp:CreatorTool>
<xmpMM:DocumentID>uuid:{document_id}</xmpMM:DocumentID>
<xmpMM:InstanceID>uuid:{document_id}</xmpMM:InstanceID>
<xmpMM:VersionID>1</xmpMM:VersionID>
<xmpMM:RenditionClass>default</xmpMM:RenditionClass>
<pdf:Producer>{PRODUCER}</pdf:Producer>
<pdf:Keywords></pdf:Keywords>
<pdf:Trapped>False</pdf:Trapped>
<pdfxid:GTS_PDFXVersion>{standard.info["GTS_PDFXVersion"]}</pdfxid:GTS_PDFXVersion>
{pdfx}
</rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
    return body.encode("utf-8")
