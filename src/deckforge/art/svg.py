"""SVG art, read as untrusted data: parsed by a real XML parser with entities, DTDs and
the network off, checked, and only then turned into a drawing.

An SVG file may be in any encoding its XML declaration (or byte-order mark) names, as
long as it is well-formed. It must be self-contained: it may draw pictures embedded in
it as ``data:`` PNG or JPEG images, which are checked as raster art files are (pixel
limit, a full decode), and refer to nothing else — no other file, no address, no entity.
Its size, its number of elements and what its ``<use>`` elements draw are limited, so a
small file cannot take minutes or gigabytes to draw, and every number in the drawing it
makes must be finite. Each refusal says what is wrong and, where it can, on which line.
"""

from __future__ import annotations

import base64
import math
import re
from dataclasses import dataclass
from pathlib import Path

from deckforge.fsutil import TooLarge, read_regular

#: Largest SVG file read, in bytes (pictures embedded in it included).
MAX_BYTES = 32 * 1024 * 1024
#: Most elements an SVG may draw, counting each drawn by a ``<use>`` (a detailed
#: illustration has a few thousand, and each costs time to draw).
MAX_ELEMENTS = 20_000
#: Largest coordinate or size accepted anywhere in the drawing.
MAX_NUMBER = 1e9
#: Deepest nesting of elements (through ``<use>`` elements too) drawn.
MAX_DEPTH = 100

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
#: How an embedded picture is written (what svglib decodes, and how).
_DATA_IMAGE = re.compile(r"^data:image/(png|jpe?g);base64,", re.IGNORECASE)
_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")\s]*)", re.IGNORECASE)


class SvgError(ValueError):
    """An SVG file that cannot be used, and why (its name given by the caller)."""


@dataclass(frozen=True, eq=False)
class Embedded:
    """A picture embedded in an SVG: its bytes, and the line of its element."""

    data: bytes
    line: int


def parse(path: Path):
    """An SVG file's root element, once the file has passed every check but those of
    its embedded pictures (:func:`embedded` gives them) and of its drawing."""
    from lxml import etree

    try:
        data = read_regular(path, MAX_BYTES)
    except TooLarge as exc:
        raise SvgError(f"is {exc.size:,} bytes; SVG art may be at most {MAX_BYTES:,}") from None
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        line = f"line {exc.lineno}: " if exc.lineno else ""
        raise SvgError(f"is not a readable SVG file ({line}{exc.msg})") from None
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise SvgError(
            "declares entities (<!ENTITY …>); SVG art must be self-contained: save it without them"
        )
    if root.tag != f"{{{_SVG_NS}}}svg":
        raise SvgError(f"is not an SVG file (it starts with <{etree.QName(root).localname}>)")
    _check_references(root)
    _check_size(root)
    return root


def _check_references(root) -> None:
    """Refuse entity references, and anything that refers to a file or address: hrefs
    other than to the file's own elements or to embedded pictures, and ``url()`` or
    ``@import`` in styles to anything but the file's own elements."""
    from lxml import etree

    for node in root.iter():
        if isinstance(node, etree._Entity):
            raise SvgError(
                f"line {node.sourceline} uses an entity (&{node.name};); "
                "SVG art must be self-contained"
            )
        if not isinstance(node.tag, str):
            continue
        for name, value in node.attrib.items():
            if etree.QName(name).localname == "href":
                _check_href(value.strip(), node, name == _XLINK_HREF or name == "href")
            elif "url(" in value.lower():
                _check_urls(value, node.sourceline)
        if etree.QName(node).localname == "style" and node.text:
            if "@import" in node.text.lower():
                raise SvgError(
                    f"line {node.sourceline} imports a style sheet; SVG art must be self-contained"
                )
            _check_urls(node.text, node.sourceline)


def _check_href(value: str, node, drawn: bool) -> None:
    if value.startswith("#"):
        return
    local = node.tag.rsplit("}", 1)[-1]
    if drawn and local == "image" and _DATA_IMAGE.match(value):
        return
    shown = value if len(value) <= 60 else value[:57] + "…"
    raise SvgError(
        f"line {node.sourceline} refers to '{shown}'; SVG art must be self-contained: "
        "it may only embed PNG or JPEG pictures (as data: addresses)"
    )


def _check_urls(text: str, line: int) -> None:
    for found in _URL.finditer(text):
        if not found.group(1).startswith("#"):
            raise SvgError(
                f"line {line} refers to '{found.group(1)[:60]}' in a style; SVG art must be "
                "self-contained"
            )


def _check_size(root) -> None:
    """Count the elements the SVG draws, each drawn by a ``<use>`` as often as it is."""
    elements = [node for node in root.iter() if isinstance(node.tag, str)]
    if len(elements) > MAX_ELEMENTS:
        raise SvgError(_too_many(len(elements)))
    by_id = {node.get("id"): node for node in elements if node.get("id")}
    drawn: dict[int, int] = {}

    def size(node, stack: tuple) -> int:
        key = id(node)
        if key in drawn:
            return drawn[key]
        if key in stack:
            raise SvgError(f"line {node.sourceline}: a <use> draws itself")
        if len(stack) > MAX_DEPTH:
            raise SvgError(
                f"line {node.sourceline}: elements nest more than {MAX_DEPTH} deep; "
                "SVG art may not nest deeper"
            )
        total = 1
        for child in node:
            if isinstance(child.tag, str):
                total += size(child, (*stack, key))
        if node.tag.rsplit("}", 1)[-1] == "use":
            href = (node.get(_XLINK_HREF) or node.get("href") or "").strip()
            target = by_id.get(href[1:]) if href.startswith("#") else None
            if target is not None:
                total += size(target, (*stack, key))
        if total > MAX_ELEMENTS:
            raise SvgError(
                f"draws more than {MAX_ELEMENTS:,} elements (with what its <use> elements "
                "repeat); simplify it, or export it as a PNG at 300 dpi"
            )
        drawn[key] = total
        return total

    size(root, ())


def _too_many(count: int) -> str:
    return (
        f"has {count:,} elements; SVG art may draw at most {MAX_ELEMENTS:,} (simplify "
        "it, or export it as a PNG at 300 dpi)"
    )


def embedded(root) -> list[Embedded]:
    """The pictures embedded in an SVG, decoded as the drawing decodes them."""
    found = []
    for node in root.iter(f"{{{_SVG_NS}}}image"):
        value = (node.get(_XLINK_HREF) or node.get("href") or "").strip()
        match = _DATA_IMAGE.match(value)
        if match is None:
            continue
        try:
            data = base64.decodebytes(value[match.end() :].encode("ascii"))
        except (ValueError, UnicodeEncodeError):
            raise SvgError(f"line {node.sourceline}: the embedded picture is not base64") from None
        found.append(Embedded(data, node.sourceline))
    return found


class _OneFont:
    """svglib's font map, answering every family with one standard font: SVG art never
    makes it look for fonts on the computer (the painter draws its text in deckforge's
    own face)."""

    def find_font(self, font_name: str, weight: str = "normal", style: str = "normal"):
        return "Helvetica", True


def drawing(path: Path, root):
    """The ReportLab drawing of a checked SVG (its root from :func:`parse`); SvgError if
    the drawing has a size or coordinate that is not a finite number."""
    import logging

    from svglib.svglib import SvgRenderer

    # svglib logs what it does not draw (unknown elements, fonts); refusals are ours.
    logging.getLogger("svglib.svglib").setLevel(logging.CRITICAL)
    try:
        result = SvgRenderer(str(path), font_map=_OneFont()).render(root)
    except Exception as exc:  # noqa: BLE001 - svglib raises many kinds on odd files
        raise SvgError(f"cannot be drawn ({type(exc).__name__}: {exc})") from None
    _check_numbers(result)
    if not (result.width > 0 and result.height > 0):
        raise SvgError(f"has no size ({result.width:g} × {result.height:g})")
    return result


def _check_numbers(node, seen: set[int] | None = None) -> None:
    """Every number of a drawing (sizes, coordinates, transforms) finite and not huge."""
    seen = set() if seen is None else seen
    if id(node) in seen:
        return
    seen.add(id(node))
    for name, value in vars(node).items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            _finite(name, value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, (int, float)) and not isinstance(item, bool):
                    _finite(name, item)
                elif isinstance(item, (list, tuple)):
                    for inner in item:
                        if isinstance(inner, (int, float)):
                            _finite(name, inner)
    for child in getattr(node, "contents", None) or ():
        _check_numbers(child, seen)


def _finite(name: str, value: float) -> None:
    if not math.isfinite(value) or abs(value) > MAX_NUMBER:
        raise SvgError(
            f"has a {name.lower()} of {value:g}, which cannot be drawn (sizes and "
            "coordinates must be finite numbers under a billion)"
        )
