"""Card data from XLSX workbooks, read from parts that are checked as they are unpacked.

A workbook is a zip of XML parts, and a small file can unpack to gigabytes. Every part
is counted as it is unpacked (never by the size its header declares) against a bound
of its own, of the whole workbook and of its packing ratio, and parsed with expat with
document type declarations refused: a workbook's XML never has one, and its entities
could expand without end or name other files. The parts a table needs (the workbook,
its relationships, shared strings, styles, the one sheet) are read as streams, every
cell and row bounded as CSV's are; the sheet's declared dimension is never used. Any
part that is damaged is a problem naming the workbook.

openpyxl does not read the cells: it fills every row out to its last column and the
rows between, holds every shared string whole, and its errors do not say where.
"""

from __future__ import annotations

import io
import posixpath
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import NoReturn
from xml.parsers import expat

from deckforge.errors import Problem, SourceRef, close_matches
from deckforge.sources import tabular
from deckforge.sources.xlsx_sheet import SheetReader, integer

#: Most parts (files in the zip) a workbook may have, and the largest its table of
#: contents may be, in bytes.
MAX_PARTS = 1_000
MAX_DIRECTORY_BYTES = 1024 * 1024
#: Largest a part may unpack to, in bytes.
MAX_PART_BYTES = 64 * 1024 * 1024
#: Largest all the parts together may unpack to, in bytes.
MAX_UNPACKED_BYTES = 128 * 1024 * 1024
#: Most times its packed size a part over ``_RATIO_FROM`` bytes may unpack to.
MAX_RATIO = 100
_RATIO_FROM = 1024 * 1024
#: Deepest XML elements may nest (a sheet's cells are four deep; expat holds every
#: open element, so depth is memory).
MAX_DEPTH = 64
_CHUNK = 64 * 1024
_UNREADABLE = "cannot read the workbook"


class _Refused(Exception):
    """What stops a workbook from being read: its problem."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


def read_sheet(
    raw: bytes, display: str, sheet: str | None, sheet_ref: SourceRef | None
) -> tuple[list[list[tabular.Cell]] | None, list[Problem]]:
    """The rows of a sheet of the workbook ``raw`` (the first unless ``sheet`` names one),
    each cell with its place."""
    if _directory_size(raw) > MAX_DIRECTORY_BYTES:
        message = f"its table of contents is over {MAX_DIRECTORY_BYTES:,} bytes"
        return None, [
            Problem(SourceRef(display), f"{message}; a workbook has at most {MAX_PARTS:,} parts")
        ]
    try:
        book = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        return None, [Problem(SourceRef(display), f"{_UNREADABLE}: it is not an XLSX workbook")]
    try:
        with book:
            return _Workbook(book, display).rows(sheet, sheet_ref), []
    except _Refused as refused:
        return None, [refused.problem]


def _local(name: str) -> str:
    """An element's or attribute's name without its namespace."""
    return name.rpartition(" ")[2]


def _directory_size(raw: bytes) -> int:
    """The size of a zip's table of contents (its central directory) as its end record
    says, found as zipfile finds it: zipfile reads and parses all of it at once."""
    last = raw[-22:]
    at = len(raw) - 22 if last[:4] == b"PK\x05\x06" and last[-2:] == b"\0\0" else -1
    if at < 0:
        at = raw.rfind(b"PK\x05\x06", -65_557)
    if at < 0 or at + 22 > len(raw):
        return 0
    size = struct.unpack_from("<I", raw, at + 12)[0]
    if (
        at >= 76
        and raw[at - 20 : at - 16] == b"PK\x06\x07"
        and raw[at - 76 : at - 72] == b"PK\x06\x06"
    ):
        size = max(size, struct.unpack_from("<Q", raw, at - 76 + 40)[0])
    return size


class _Workbook:
    """A workbook's parts, each unpacked and parsed under the bounds above."""

    def __init__(self, book: zipfile.ZipFile, display: str):
        self.book = book
        self.display = display
        self.unpacked = 0
        self.parsed: set[str] = set()
        infos = book.infolist()
        if len(infos) > MAX_PARTS:
            self.refuse(f"it has {len(infos):,} parts; a workbook may have at most {MAX_PARTS:,}")

    def refuse(self, message: str, ref: SourceRef | None = None) -> NoReturn:
        """Stop reading with this problem (at the workbook, unless ``ref`` says where)."""
        raise _Refused(Problem(ref or SourceRef(self.display), message))

    def rows(self, sheet: str | None, sheet_ref: SourceRef | None) -> list[list[tabular.Cell]]:
        """The named sheet's rows; then every other part is unpacked, and parsed if it
        is XML, under the same bounds."""
        workbook = self.relations("_rels/.rels")[1].get("officeDocument", "xl/workbook.xml")
        sheets, date1904 = self.sheets(workbook)
        folder, base = posixpath.split(workbook)
        by_id, by_kind = self.relations(posixpath.join(folder, "_rels", f"{base}.rels"))
        if not sheets:
            self.refuse("cannot read the workbook: it has no sheets")
        names = [name for name, _ in sheets]
        if sheet is None:
            sheet = names[0]
        elif sheet not in names:
            guess = close_matches(sheet, names)
            hint = f"; did you mean '{guess[0]}'?" if guess else f" (sheets: {', '.join(names)})"
            self.refuse(f"{self.display} has no sheet '{sheet}'{hint}", sheet_ref)
        kind, part = by_id.get(dict(sheets)[sheet], ("", ""))
        if kind != "worksheet":
            what = "a chart" if kind == "chartsheet" else "not a sheet of cells"
            self.refuse(f"the sheet '{sheet}' is {what}; name a sheet of cells", sheet_ref)
        strings = self.shared_strings(by_kind.get("sharedStrings", ""))
        dates, durations = self.date_styles(by_kind.get("styles", ""))
        reader = SheetReader(
            self.refuse, self.display, sheet, strings, (dates, durations, date1904)
        )
        self.parse(part, reader.handlers())
        for info in self.book.infolist():
            if info.filename in self.parsed or info.is_dir():
                continue
            if info.filename.endswith((".xml", ".rels")):
                self.parse(info.filename)
            else:
                for _ in self.chunks(info.filename):
                    pass
        return reader.grid()

    # --- unpacking and parsing ----------------------------------------------------------

    def chunks(self, name: str) -> Iterator[bytes]:
        """A part's bytes as it unpacks, refused at the first byte past a bound."""
        try:
            info = self.book.getinfo(name)
        except KeyError:
            self.refuse(f"{_UNREADABLE}: it names a part '{name}' that it does not have")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            # bzip2 and LZMA parts unpack a whole packed block at a time, however big.
            self.refuse(f"{_UNREADABLE}: its part {name} is packed in a way XLSX never is")
        limit = max(_RATIO_FROM, MAX_RATIO * info.compress_size)
        size = 0
        try:
            with self.book.open(info) as part:
                while chunk := part.read(_CHUNK):
                    size += len(chunk)
                    self.unpacked += len(chunk)
                    if size > MAX_PART_BYTES:
                        self.refuse(f"its part {name} unpacks to over {MAX_PART_BYTES:,} bytes")
                    if size > limit:
                        message = f"its part {name} unpacks to more than {MAX_RATIO} times its size"
                        self.refuse(f"{message} in the file; is it damaged?")
                    if self.unpacked > MAX_UNPACKED_BYTES:
                        self.refuse(f"its parts unpack to more than {MAX_UNPACKED_BYTES:,} bytes")
                    yield chunk
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
            self.refuse(f"{_UNREADABLE}: its part {name} is damaged ({exc})")
        except (NotImplementedError, RuntimeError) as exc:  # other compression, encryption
            self.refuse(f"{_UNREADABLE}: its part {name} cannot be unpacked ({exc})")

    def parse(self, name: str, handlers: dict[str, Callable] | None = None) -> None:
        """Parse a part as it unpacks, with no document type and bounded depth."""
        self.parsed.add(name)
        parser = expat.ParserCreate(namespace_separator=" ")
        depth = 0
        start, end = (handlers or {}).get("start"), (handlers or {}).get("end")

        local: dict[str, str] = {}  # names without their namespace, each worked out once

        def opened(tag: str, attributes: dict[str, str]) -> None:
            nonlocal depth
            depth += 1
            if depth > MAX_DEPTH:
                self.refuse(f"{_UNREADABLE}: {name} nests elements over {MAX_DEPTH} deep")
            if start is not None:
                start(local.get(tag) or local.setdefault(tag, _local(tag)), attributes)

        def closed(tag: str) -> None:
            nonlocal depth
            depth -= 1
            if end is not None:
                end(local.get(tag) or local.setdefault(tag, _local(tag)))

        def declared(*_: object) -> None:
            message = f"{name} declares a document type (<!DOCTYPE>), which a workbook never does"
            self.refuse(f"{_UNREADABLE}: {message}, as its entities could grow or read other files")

        parser.buffer_text = True  # a text node in one piece, not one per chunk or line
        parser.StartDoctypeDeclHandler = declared
        parser.EntityDeclHandler = declared
        parser.StartElementHandler = opened
        parser.EndElementHandler = closed
        if handlers and "text" in handlers:
            parser.CharacterDataHandler = handlers["text"]
        try:
            for chunk in self.chunks(name):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
        except expat.ExpatError as exc:
            where = f"{name}, line {exc.lineno}, column {exc.offset + 1}"
            self.refuse(f"{_UNREADABLE}: {where}: {expat.ErrorString(exc.code)}")

    # --- the parts a table needs --------------------------------------------------------

    def relations(self, name: str) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
        """A part's relationships: the kind of part and the part each id names, and the
        first part of each kind."""
        by_id: dict[str, tuple[str, str]] = {}
        by_kind: dict[str, str] = {}
        if name not in self.book.NameToInfo:
            return by_id, by_kind
        folder = posixpath.dirname(posixpath.dirname(name))

        def start(tag: str, attributes: dict[str, str]) -> None:
            if tag != "Relationship" or attributes.get("TargetMode") == "External":
                return
            target = attributes.get("Target", "")
            joined = target[1:] if target.startswith("/") else posixpath.join(folder, target)
            part = posixpath.normpath(joined)
            kind = attributes.get("Type", "").rpartition("/")[2]
            by_id[attributes.get("Id", "")] = (kind, part)
            by_kind.setdefault(kind, part)

        self.parse(name, {"start": start})
        return by_id, by_kind

    def sheets(self, workbook: str) -> tuple[list[tuple[str, str]], bool]:
        """The workbook's sheets in order (name, relationship id) and whether its dates
        count from 1904."""
        sheets: list[tuple[str, str]] = []
        date1904 = [False]

        def start(tag: str, attributes: dict[str, str]) -> None:
            local = {_local(key): value for key, value in attributes.items()}
            if tag == "sheet":
                sheets.append((local.get("name", ""), local.get("id", "")))
            elif tag == "workbookPr":
                date1904[0] = local.get("date1904") in ("1", "true")

        self.parse(workbook, {"start": start})
        return sheets, date1904[0]

    def shared_strings(self, name: str) -> list[str]:
        """The shared strings, each cut one character past the longest cell."""
        strings: list[str] = []
        if not name:
            return strings
        pieces: list[str] = []
        state = {"in_text": False, "phonetic": 0, "length": 0}

        def start(tag: str, attributes: dict[str, str]) -> None:
            if tag == "si":
                pieces.clear()
                state["length"] = 0
            elif tag == "rPh":
                state["phonetic"] += 1
            elif tag == "t" and not state["phonetic"]:
                state["in_text"] = True

        def end(tag: str) -> None:
            if tag == "si":
                strings.append("".join(pieces))
                if len(strings) > tabular.MAX_CELLS:
                    self.refuse(f"it has more than {tabular.MAX_CELLS:,} shared strings")
            elif tag == "rPh":
                state["phonetic"] -= 1
            elif tag == "t":
                state["in_text"] = False

        def text(data: str) -> None:
            if state["in_text"] and state["length"] <= tabular.MAX_CELL_CHARS:
                pieces.append(data[: tabular.MAX_CELL_CHARS + 1 - state["length"]])
                state["length"] += len(pieces[-1])

        self.parse(name, {"start": start, "end": end, "text": text})
        return strings

    def date_styles(self, name: str) -> tuple[set[int], set[int]]:
        """The cell styles (by number) whose numbers are dates, and those whose numbers
        are durations, as openpyxl tells them."""
        if not name:
            return set(), set()
        custom: dict[int, str] = {}
        formats: list[int] = []
        within = [False]

        def start(tag: str, attributes: dict[str, str]) -> None:
            if tag == "numFmt":
                custom[integer(attributes.get("numFmtId"))] = attributes.get("formatCode", "")
            elif tag == "cellXfs":
                within[0] = True
            elif tag == "xf" and within[0]:
                formats.append(integer(attributes.get("numFmtId", "0")))

        def end(tag: str) -> None:
            if tag == "cellXfs":
                within[0] = False

        self.parse(name, {"start": start, "end": end})
        from openpyxl.styles.numbers import (
            builtin_format_code,
            is_date_format,
            is_timedelta_format,
        )

        kinds: dict[int, tuple[bool, bool]] = {}
        for number in set(formats):
            code = custom.get(number) or builtin_format_code(number) or ""
            kinds[number] = (is_date_format(code), is_timedelta_format(code))
        dates = {index for index, number in enumerate(formats) if kinds[number][0]}
        durations = {index for index, number in enumerate(formats) if kinds[number][1]}
        return dates, durations
