"""Property-based fuzzing of XLSX card data: random workbooks, and real workbooks with
their zip or one XML part mutated, read as a deck's data. Whatever the bytes, reading
gives a table or problems naming the file, in bounded time; never an unhandled
exception. Workbooks openpyxl writes read as openpyxl reads them.

``make test`` runs a bounded number of examples; ``make fuzz`` runs 10,000
(DECKFORGE_FUZZ_EXAMPLES sets the number).
"""

from __future__ import annotations

import datetime
import io
import time
import zipfile

import workbooks as books
from hypothesis import assume, given
from hypothesis import strategies as st

from deckforge.sources import xlsx
from test_fuzz import FUZZ

DISPLAY = "book.xlsx"


def _read(raw: bytes, sheet: str | None = None):
    """Read a workbook's rows: problems name the workbook, and it takes little time."""
    started = time.monotonic()
    grid, problems = xlsx.read_sheet(raw, DISPLAY, sheet, None)
    assert time.monotonic() - started < 10
    assert (grid is None) == bool(problems)
    for problem in problems:
        assert problem.ref.file == DISPLAY and problem.message
    return grid


def _written(rows: list[list]) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Cards"
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _seeds() -> dict[str, bytes]:
    """Real workbooks: openpyxl's (inline strings, numbers, dates, booleans) and one with
    shared strings and a date style."""
    rows = [
        ["id", "name", "count", "when", "ok"],
        ["a", "Kitchen", 2, datetime.date(2026, 12, 1), True],
        ["b", "Hall\nway", 1.5, datetime.datetime(2026, 1, 2, 3, 4), False],
    ]
    made = {"openpyxl": _written(rows)}
    cells = (
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
        '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" s="1"><v>46357</v></c></row>'
    )
    strings = (
        f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{books.MAIN}">'
        "<si><t>id</t></si><si><t>when</t></si>"
        "<si><r><t>bo</t></r><r><t>ld</t></r><rPh><t>x</t></rPh></si></sst>"
    ).encode()
    with zipfile.ZipFile(io.BytesIO(made["openpyxl"])) as book:
        parts = {info.filename: book.read(info) for info in book.infolist()}
    made["shared"] = _zipped(
        {
            **parts,
            "[Content_Types].xml": parts["[Content_Types].xml"].replace(
                b"</Types>",
                b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
                b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
            ),
            "xl/_rels/workbook.xml.rels": parts["xl/_rels/workbook.xml.rels"].replace(
                b"</Relationships>",
                b'<Relationship Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                b'relationships/sharedStrings" Target="sharedStrings.xml" Id="rId9"/>'
                b"</Relationships>",
            ),
            books.STRINGS: strings,
            books.SHEET: books.sheet(cells),
        }
    )
    return made


def _zipped(parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        for name, raw in parts.items():
            book.writestr(name, raw)
    return out.getvalue()


SEEDS = _seeds()


def test_the_seeds_read_as_their_cells_say():
    assert [[c.value for c in row] for row in _read(SEEDS["shared"])] == [
        ["id", "when"],
        ["bold", "2026-12-01 00:00:00"],
    ]
    assert [c.value for c in _read(SEEDS["openpyxl"])[2]] == [
        "b",
        "Hall\nway",
        "1.5",
        "2026-01-02 03:04:00",
        "FALSE",
    ]


# --- random workbooks that openpyxl writes ---------------------------------------------------

_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=30)
_VALUES = st.one_of(
    st.none(),
    _TEXT,
    st.integers(-(10**15), 10**15),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.dates(datetime.date(1900, 3, 1), datetime.date(9999, 12, 31)),
    st.datetimes(datetime.datetime(1900, 3, 1), datetime.datetime(9999, 12, 31)),
    st.sampled_from(["=1+1", "#N/A", " padded ", "count", "0", "1e308"]),
)


def _openpyxl_text(value: object) -> str:
    """A value as the reader before this one gave it (through openpyxl)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value).strip()


@FUZZ
@given(rows=st.lists(st.lists(_VALUES, max_size=6), min_size=1, max_size=6))
def test_a_random_workbook_reads_as_openpyxl_reads_it(rows):
    import openpyxl

    try:
        raw = _written(rows)
    except (ValueError, TypeError):  # values openpyxl will not write
        assume(False)
    grid = _read(raw)
    assert grid is not None
    book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    expected = {}
    for number, row in enumerate(book["Cards"].iter_rows(values_only=True), start=1):
        for column, value in enumerate(row, start=1):
            if _openpyxl_text(value):
                expected[number, column] = _openpyxl_text(value)
    book.close()
    found = {(c.ref.line, c.ref.column): c.value for row in grid for c in row if c.value}
    assert found == expected


# --- mutated workbooks -----------------------------------------------------------------------

_SNIPPETS = st.sampled_from(
    [
        b"<!DOCTYPE x>",
        b'<!ENTITY a "b">',
        b"&a;",
        b"&#0;",
        b"<",
        b"</row>",
        b'<row r="0">',
        b'<row r="1048577">',
        b'<c r="XFE1">',
        b'<c r="A1" t="s"><v>99</v></c>',
        b'<c r="B1" t="n"><v>nan</v></c>',
        b'<c r="C1" t="d"><v>x</v></c>',
        b'<c r="D1" s="99999"><v>1e308</v></c>',
        b'<dimension ref="A1:XFD1048576"/>',
        b'<?xml version="1.0" encoding="UTF-16"?>',
        b"\xff\xfe",
        b"\x00",
        b"<x>" * 70,
        b'Target="/../../etc/passwd"',
        b'Target="worksheets/nothing.xml"',
        b'r:id="rId99"',
        b'numFmtId="14"',
    ]
) | st.binary(max_size=12)


def _mutated(data, raw: bytes, insert: bytes) -> bytes:
    at = data.draw(st.integers(0, len(raw)))
    cut = data.draw(st.integers(0, 16))
    return raw[:at] + insert + raw[at + cut :]


@FUZZ
@given(seed=st.sampled_from(sorted(SEEDS)), data=st.data(), insert=_SNIPPETS)
def test_a_workbook_with_a_mutated_part_is_read_or_refused(seed, data, insert):
    with zipfile.ZipFile(io.BytesIO(SEEDS[seed])) as book:
        parts = {info.filename: book.read(info) for info in book.infolist()}
    name = data.draw(st.sampled_from(sorted(parts)))
    parts[name] = _mutated(data, parts[name], insert)
    _read(_zipped(parts), data.draw(st.sampled_from([None, "Cards", "Sheet"])))


@FUZZ
@given(seed=st.sampled_from(sorted(SEEDS)), data=st.data(), insert=st.binary(max_size=16))
def test_a_mutated_workbook_file_is_read_or_refused(seed, data, insert):
    _read(_mutated(data, SEEDS[seed], insert))


# --- random sheets ---------------------------------------------------------------------------

_REFS = st.sampled_from(["A1", "B1", "A2", "XFD1", "XFE1", "A0", "a1", "", "ZZZZ9", "B"]) | (
    st.tuples(st.sampled_from(["A", "C", "AA", "XFD"]), st.integers(1, 1_048_577)).map(
        lambda t: f"{t[0]}{t[1]}"
    )
)
_TYPES = st.sampled_from([None, "n", "s", "str", "inlineStr", "b", "e", "d", "x"])
_RAW = st.sampled_from(["0", "1", "2", "-1", "1.5", "1e308", "nan", "inf", "", "x", "2026-12-01"])


@st.composite
def _sheets(draw) -> bytes:
    rows = []
    for _ in range(draw(st.integers(0, 4))):
        number = draw(st.none() | st.integers(0, 1_048_577))
        cells = []
        for _ in range(draw(st.integers(0, 4))):
            ref = draw(st.none() | _REFS)
            kind = draw(_TYPES)
            attributes = (f' r="{ref}"' if ref is not None else "") + (
                f' t="{kind}"' if kind else ""
            )
            if kind == "inlineStr":
                body = f"<is><t>{draw(_RAW)}</t><rPh><t>p</t></rPh></is>"
            else:
                body = f"<v>{draw(_RAW)}</v>"
            cells.append(f"<c{attributes}>{body}</c>")
        r = f' r="{number}"' if number is not None else ""
        rows.append(f"<row{r}>{''.join(cells)}</row>")
    return books.sheet("".join(rows), draw(st.none() | st.just("A1:XFD1048576")))


@FUZZ
@given(part=_sheets(), seed=st.sampled_from(sorted(SEEDS)))
def test_a_random_sheet_is_read_or_refused(part, seed):
    with zipfile.ZipFile(io.BytesIO(SEEDS[seed])) as book:
        parts = {info.filename: book.read(info) for info in book.infolist()}
    parts[books.SHEET] = part
    grid = _read(_zipped(parts))
    for row in grid or []:
        assert all(c.ref.cell.startswith("Cards:") for c in row)
