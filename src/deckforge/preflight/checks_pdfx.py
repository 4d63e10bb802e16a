"""PDF/X (ISO 15930) rules as checks: the file's declarations, its output intent, and
what its content may use. Each is "n/a" for a profile that promises no PDF/X."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

from deckforge.preflight.measure import Findings, more
from deckforge.preflight.registry import FileFacts, Target, check
from deckforge.preflight.report import FAIL, NA, OK, Check

X4 = "PDF/X-4"
X1A = "PDF/X-1a:2001"
#: Per version: the highest PDF version, and the Info keys it must declare.
RULES = {
    X4: ("1.6", {"GTS_PDFXVersion": "PDF/X-4"}),
    X1A: ("1.3", {"GTS_PDFXVersion": "PDF/X-1:2001", "GTS_PDFXConformance": "PDF/X-1a:2001"}),
}
_NS = {
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "dc": "http://purl.org/dc/elements/1.1/",
    "pdfxid": "http://www.npes.org/pdfx/ns/id/",
    "pdfx": "http://ns.adobe.com/pdfx/1.3/",
    "pdf": "http://ns.adobe.com/pdf/1.3/",
}
#: Colour spaces PDF/X-1a allows in content.
_X1A_SPACES = re.compile(r"^(Indexed |Pattern )?(DeviceCMYK|DeviceGray|Separation .*|DeviceN.*)$")


def _declarations(t: Target, facts: FileFacts) -> list[str]:
    highest, keys = RULES[t.pdfx]  # type: ignore[index]
    problems = []
    if facts.version > highest:
        problems.append(f"PDF {facts.version}, {t.pdfx} allows at most {highest}")
    for key, value in keys.items():
        found = facts.info.get(key)
        if found != value:
            problems.append(f"Info /{key} is {found!r}, not {value!r}")
    if facts.info.get("Trapped") not in ("/True", "/False"):
        problems.append("Info /Trapped is not /True or /False")
    if not facts.has_id:
        problems.append("no file /ID in the trailer")
    if facts.encrypted:
        problems.append("the file is encrypted")
    problems.extend(_xmp_problems(t, facts))
    return problems


def _xmp_problems(t: Target, facts: FileFacts) -> list[str]:
    if facts.xmp is None:
        return ["no XMP metadata"]
    try:
        root = ET.fromstring(facts.xmp.split(b"<?xpacket end")[0].split(b"?>", 1)[-1])
    except ET.ParseError as error:
        return [f"the XMP metadata is not well-formed ({error})"]
    version = RULES[t.pdfx][1]["GTS_PDFXVersion"]  # type: ignore[index]
    found = [e.text for p in ("pdfxid", "pdfx") for e in root.iter(f"{{{_NS[p]}}}GTS_PDFXVersion")]
    problems = []
    if version not in found:
        problems.append(f"XMP gives GTS_PDFXVersion {found or 'nowhere'}, not {version!r}")
    titles = [e.text for e in root.iter(f"{{{_NS['rdf']}}}li") if _parent_is(root, e, "title")]
    title = facts.info.get("Title")
    if title and title not in titles:
        problems.append(f"XMP dc:title {titles} does not match Info /Title {title!r}")
    trapped = [e.text for e in root.iter(f"{{{_NS['pdf']}}}Trapped")]
    if trapped and f"/{trapped[0]}" != facts.info.get("Trapped"):
        problems.append("XMP pdf:Trapped does not match Info /Trapped")
    return problems


def _parent_is(root: ET.Element, element: ET.Element, name: str) -> bool:
    for title in root.iter(f"{{{_NS['dc']}}}{name}"):
        if any(e is element for e in title.iter()):
            return True
    return False


@check("pdf/x")
def declarations(f: Findings, t: Target, facts: FileFacts) -> Check:
    """The version, Info keys, /Trapped, /ID and XMP metadata that declare the standard,
    and a TrimBox (or ArtBox) on every page, its BleedBox within the MediaBox."""
    if not t.pdfx:
        return Check("pdf/x", NA, "the profile promises no PDF/X")
    problems = _declarations(t, facts)
    for number, boxes in f.boxes:
        if boxes.trim is None and boxes.art is None:
            problems.append(f"page {number}: neither TrimBox nor ArtBox")
            break
    if problems:
        advice = f"rebuild with the profile's PDF/X settings ({t.pdfx})"
        return Check("pdf/x", FAIL, problems[0] + more(len(problems) - 1, "problem"), advice)
    return Check("pdf/x", OK, f"{t.pdfx}: version {facts.version}, Info and XMP agree")


def _intent_problems(facts: FileFacts) -> list[str]:
    from PIL import ImageCms

    intents = [keys for keys, _ in facts.intents if keys.get("S") == "/GTS_PDFX"]
    if len(intents) != 1:
        return [f"{len(intents)} output intents of type GTS_PDFX, not one"]
    keys, profile = next((k, p) for k, p in facts.intents if k.get("S") == "/GTS_PDFX")
    problems = []
    identifier = keys.get("OutputConditionIdentifier")
    if not identifier:
        problems.append("the output intent has no OutputConditionIdentifier")
    elif identifier != "Custom" and not keys.get("RegistryName"):
        problems.append(f"the output intent names {identifier} with no RegistryName")
    if profile is None:
        problems.append("no DestOutputProfile embedded")
        return problems
    try:
        opened = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    except (OSError, ImageCms.PyCMSError) as error:
        return [*problems, f"the DestOutputProfile does not open as ICC ({error})"]
    if opened.profile.device_class != "prtr":
        problems.append(f"the DestOutputProfile is a '{opened.profile.device_class}' profile")
    if opened.profile.xcolor_space.strip() not in ("CMYK", "GRAY", "RGB"):
        problems.append(f"the DestOutputProfile is in {opened.profile.xcolor_space}")
    return problems


@check("output intent")
def output_intent(f: Findings, t: Target, facts: FileFacts) -> Check:
    """One GTS_PDFX output intent naming its condition, with an ICC output profile that
    opens."""
    if not t.pdfx:
        return Check("output intent", NA, "the profile promises no PDF/X")
    problems = _intent_problems(facts)
    if problems:
        advice = "name the press condition and embed its ICC profile (--output-profile)"
        return Check(
            "output intent", FAIL, problems[0] + more(len(problems) - 1, "problem"), advice
        )
    keys = next(k for k, _ in facts.intents if k.get("S") == "/GTS_PDFX")
    return Check("output intent", OK, f"{keys.get('OutputConditionIdentifier')}, profile embedded")


@check("pdf/x colour")
def content_colour(f: Findings, t: Target, facts: FileFacts) -> Check:
    """PDF/X-1a: DeviceCMYK, DeviceGray and spot colours only, and no transparency.
    PDF/X-4: RGB only as ICC-based colour (or remapped by /DefaultRGB)."""
    if not t.pdfx:
        return Check("pdf/x colour", NA, "the profile promises no PDF/X")
    if t.pdfx == X1A:
        bad = sorted(s for s in f.spaces if s != "stencil mask" and not _X1A_SPACES.match(s))
        if bad:
            advice = "convert everything to CMYK through the output profile"
            return Check("pdf/x colour", FAIL, f"{', '.join(bad)} in a PDF/X-1a file", advice)
        if f.transparency:
            page, what = f.transparency[0]
            advice = "flatten it onto the paper colour before writing PDF/X-1a"
            return Check("pdf/x colour", FAIL, f"page {page}: {what} (transparency)", advice)
        return Check("pdf/x colour", OK, "CMYK and grey only, no transparency")
    if f.bare_rgb:
        page, what = f.bare_rgb[0]
        advice = "tag RGB as sRGB (ICCBased, or /DefaultRGB in the resources)"
        return Check("pdf/x colour", FAIL, f"page {page}: {what} without a profile", advice)
    return Check("pdf/x colour", OK, "RGB tagged as sRGB" if f.rgb else "no RGB")
