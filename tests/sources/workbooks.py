"""Workbooks made at run time for the tests of the XLSX reader: a small real workbook,
and that workbook with one part replaced or added (a sheet that declares a huge size,
shared strings that unpack to hundreds of megabytes, XML that is not well formed).

Big parts are written in chunks of repeated XML, so a small file that unpacks big is
made in a second or two and never held in memory whole.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterable
from pathlib import Path

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
SHEET = "xl/worksheets/sheet1.xml"
STRINGS = "xl/sharedStrings.xml"
_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>'
_OPEN_SHEET = f'<worksheet xmlns="{MAIN}">'


def base(path: Path, rows: list[list] | None = None, sheet: str = "Cards") -> Path:
    """A workbook openpyxl writes, with the cards on its first sheet (``SHEET``)."""
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = sheet
    for row in rows or [["id", "name"], ["a", "Kitchen"]]:
        book.active.append(row)
    book.save(path)
    return path


def replaced(path: Path, parts: dict[str, bytes | Iterable[bytes]]) -> Path:
    """The workbook at ``path`` with ``parts`` (name → bytes, or chunks of bytes)
    replacing or added to its own, written back to ``path``."""
    with zipfile.ZipFile(path) as source:
        kept = {info.filename: source.read(info) for info in source.infolist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for name, raw in kept.items():
            if name not in parts:
                out.writestr(name, raw)
        for name, content in parts.items():
            if isinstance(content, bytes):
                out.writestr(name, content)
                continue
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            with out.open(info, "w", force_zip64=True) as part:
                for chunk in content:
                    part.write(chunk)
    return path


def repeated(head: bytes, unit: bytes, total: int, tail: bytes) -> Iterable[bytes]:
    """``head``, then ``unit`` repeated to about ``total`` bytes, then ``tail``."""
    yield head
    chunk = unit * max(1, (1 << 20) // len(unit))
    for _ in range(max(1, total // len(chunk))):
        yield chunk
    yield tail


def varied(head: bytes, total: int, tail: bytes) -> Iterable[bytes]:
    """``head``, then about ``total`` bytes of letters that pack about 16 times smaller
    (under the packing ratio a workbook may have), then ``tail``."""
    yield head
    for _ in range(total // 8192):
        yield os.urandom(512).hex().encode() * 8
    yield tail


def sheet(rows: str, dimension: str | None = None) -> bytes:
    """A worksheet part holding ``rows`` (``<row>`` elements) in its sheet data."""
    declared = f'<dimension ref="{dimension}"/>' if dimension else ""
    body = f"{_OPEN_SHEET}{declared}<sheetData>{rows}</sheetData></worksheet>"
    return (_DECLARATION + body).encode()


def _with_strings(path: Path, strings: Iterable[bytes], cells: str) -> Path:
    """The base workbook with a shared strings part (which openpyxl itself does not
    write) and a sheet of ``cells``."""
    base(path)
    with zipfile.ZipFile(path) as book:
        types = book.read("[Content_Types].xml").decode()
        rels = book.read("xl/_rels/workbook.xml.rels").decode()
    kind = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
    types = types.replace(
        "</Types>", f'<Override PartName="/{STRINGS}" ContentType="{kind}"/></Types>'
    )
    relation = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"
    rels = rels.replace(
        "</Relationships>",
        f'<Relationship Type="{relation}" Target="sharedStrings.xml" Id="rId9"/></Relationships>',
    )
    parts = {"[Content_Types].xml": types.encode(), "xl/_rels/workbook.xml.rels": rels.encode()}
    return replaced(path, {**parts, STRINGS: strings, SHEET: sheet(cells)})


def shared_strings_bomb(path: Path, total: int, packed: bool = True) -> Path:
    """Shared strings of about ``total`` bytes, the first of which the sheet uses, packed
    as tightly as a zip can (or, not ``packed``, about 16 times)."""
    head = f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{MAIN}"><si><t>'.encode()
    tail = b"</t></si></sst>"
    strings = repeated(head, b"a" * 64, total, tail) if packed else varied(head, total, tail)
    cells = '<row r="1"><c r="A1" t="s"><v>0</v></c></row>'
    return _with_strings(path, strings, cells)


def many_shared_strings(path: Path, count: int) -> Path:
    """``count`` shared strings of one letter each."""
    head = f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{MAIN}">'.encode()
    unit = b"<si><t>x</t></si>"
    strings = repeated(head, unit, count * len(unit), b"</sst>")
    cells = '<row r="1"><c r="A1" t="s"><v>0</v></c></row>'
    return _with_strings(path, strings, cells)


def inline_string_bomb(path: Path, total: int, packed: bool = True) -> Path:
    """A sheet whose one cell is an inline string of about ``total`` bytes (packed as
    ``shared_strings_bomb`` says)."""
    head = (
        _DECLARATION + _OPEN_SHEET + '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>'
    ).encode()
    tail = b"</t></is></c></row></sheetData></worksheet>"
    text = repeated(head, b"a" * 64, total, tail) if packed else varied(head, total, tail)
    return replaced(base(path), {SHEET: text})


def far_row(path: Path) -> Path:
    """A sheet that declares every column and row of a sheet, with its header in the
    first row and one value in the last."""
    cells = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row>'
        '<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>x</t></is></c></row>'
    )
    return replaced(base(path), {SHEET: sheet(cells, "A1:XFD1048576")})


def with_sheet(path: Path, part: bytes) -> Path:
    """The base workbook with its first sheet's part replaced by ``part``."""
    return replaced(base(path), {SHEET: part})


XXE = (
    b'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY x SYSTEM "file:///etc/hostname">]>'
    + sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>&x;</t></is></c></row>')[len(_DECLARATION) :]
)
LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">'
    + b"".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">'.encode() for i in range(8)
    )
    + b"]>"
    + sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>&i;</t></is></c></row>')[len(_DECLARATION) :]
)
