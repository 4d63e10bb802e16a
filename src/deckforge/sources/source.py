"""Load YAML sources into plain data, keeping where every value came from.

libyaml parses the file and :mod:`deckforge.sources.events` turns its events into dicts,
lists and scalars (never Python objects from tags), recording each value's line and
column, so later stages can point at the exact spot of a problem. Hostile files are
stopped by what makes them hostile (aliases that multiply, nesting too deep; see
:mod:`~deckforge.sources.events`), not by their size: a deck of 100,000 cards in one
file is read like any other.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from deckforge.errors import Problem, SourceRef
from deckforge.fsutil import read_regular
from deckforge.sources.events import MAX_DEPTH, Builder, Refused
from deckforge.sources.positions import Positions

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "Source", "format_path", "load_yaml", "parse_yaml"]

#: Largest source file read, in bytes: far beyond any deck (100,000 cards with a name,
#: a category and an icon each are 7 MB), short of what would exhaust memory.
MAX_FILE_BYTES = 256 * 1024 * 1024

Path_ = tuple[str | int, ...]
#: The bytes of printable ASCII text, with tabs and line feeds but no backslash (which
#: may escape any character in a quoted text).
_PRINTABLE = bytes([9, 10, *(b for b in range(32, 127) if b != ord("\\"))])

#: Hints for PyYAML's most common complaints.
_HINTS = {
    "mapping values are not allowed here": "check this line's indentation against the line "
    "before, or put quotes around a value that contains ': '",
    "found character '\\t' that cannot start any token": "indent with spaces; YAML does not "
    "allow tabs",
    "could not find expected ':'": "a line in a mapping needs 'key: value'; check the indentation",
}
# libyaml (the C parser) words the same problems differently.
_HINTS["mapping values are not allowed in this context"] = _HINTS[
    "mapping values are not allowed here"
]
_HINTS["found a tab character that violates indentation"] = (
    "indent with spaces; YAML does not allow tabs"
)
_HINTS["found character that cannot start any token"] = (
    "remove the character, or the tab if this line is indented with one: YAML indents with spaces"
)


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The safe loader (libyaml's C parser where PyYAML has it, for large decks) with
    YAML 1.2 booleans: ``no``, ``yes``, ``on`` and ``off`` stay strings.

    A place called "No" or an answer "yes" must not silently turn into a boolean.
    """


_Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"),
)


def format_path(path: Path_, out: str = "") -> str:
    """A data path as ``places[3].name`` (after ``out``, the path it goes on from)."""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


@dataclass
class Source:
    """One loaded file: its data and the line/column of every value in it."""

    path: Path
    display: str
    data: Any
    #: SHA-256 of the bytes that were parsed: what incremental builds compare.
    digest: str = ""
    positions: Positions = field(default_factory=Positions, repr=False, compare=False)
    #: Whether the file is printable ASCII (with tabs and line feeds) and escapes
    #: nothing: no text in it can hold a control character, a direction override or a
    #: combining mark (:func:`deckforge.sources.rules.hidden_characters` looks no further).
    printable: bool = field(default=False, repr=False, compare=False)

    def ref(self, path: Path_ = (), key: bool = False) -> SourceRef:
        """Where the value at ``path`` is (or its key, with ``key``); the nearest
        enclosing value when the path does not exist (a missing property)."""
        line, column = self.positions.find(self.data, tuple(path), key)
        return SourceRef(self.display, line, column, format_path(path))

    def each_ref(self, path: Path_, inner: list[tuple]) -> list[SourceRef]:
        """:meth:`ref` of ``(*path, index, *inner[index])`` for each item of the list at
        ``path``, found in one pass over it."""
        path = tuple(path)
        found = self.positions.find_each(self.data, path, inner)
        display = self.display
        start = format_path(path)
        return [
            SourceRef(display, line, column, format_path(rest, f"{start}[{index}]"))
            for index, ((line, column), rest) in enumerate(zip(found, inner, strict=True))
        ]


def _line_column(text: bytes, offset: int) -> tuple[int, int]:
    before = text[:offset]
    line = before.count(b"\n") + 1
    column = offset - (before.rfind(b"\n") + 1) + 1
    return line, column


def _reader_problem(text: str, exc: yaml.reader.ReaderError, display: str) -> Problem:
    """A character YAML refuses to read (a control character), at its line and column."""
    before = text[: exc.position]
    line = before.count("\n") + 1
    column = exc.position - (before.rfind("\n") + 1) + 1
    char = exc.character if isinstance(exc.character, str) else chr(exc.character)
    return Problem(
        SourceRef(display, line, column),
        f"the file contains the character U+{ord(char):04X}, which YAML does not allow; remove it",
    )


def load_yaml(path: Path, display: str) -> tuple[Source | None, list[Problem]]:
    """Read and parse one YAML file; the source, or None and the problems found."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, [
                Problem(
                    SourceRef(display),
                    f"the file is {size:,} bytes, more than the {MAX_FILE_BYTES:,} a source "
                    "may have",
                )
            ]
        raw = read_regular(path)  # never waits on a named pipe
    except FileNotFoundError:
        return None, [Problem(SourceRef(display), "no such file")]
    except OSError as exc:
        return None, [Problem(SourceRef(display), f"cannot read the file: {exc.strerror}")]
    return parse_yaml(raw, path, display)


def parse_yaml(raw: bytes, path: Path, display: str) -> tuple[Source | None, list[Problem]]:
    """Parse YAML bytes (UTF-8, with or without a byte-order mark)."""
    if b"\x00" in raw:
        line, column = _line_column(raw, raw.index(b"\x00"))
        return None, [
            Problem(
                SourceRef(display, line, column),
                "the file contains a NUL byte; is it a binary file?",
            )
        ]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, column = _line_column(raw, exc.start)
        return None, [
            Problem(
                SourceRef(display, line, column),
                f"the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8",
            )
        ]
    source = Source(path=path, display=display, data=None, digest=hashlib.sha256(raw).hexdigest())
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as exc:
        return None, [_reader_problem(text, exc, display)]
    builder = Builder(loader, len(raw))
    try:
        present, source.data = builder.document()
    except yaml.MarkedYAMLError as exc:
        return None, [_syntax_problem(exc, display)]
    except yaml.reader.ReaderError as exc:
        return None, [_reader_problem(text, exc, display)]
    except Refused as exc:
        where = SourceRef(display, exc.mark.line + 1, exc.mark.column + 1, format_path(exc.path))
        return None, [Problem(where, exc.message)]
    except yaml.YAMLError as exc:
        return None, [Problem(SourceRef(display), f"YAML error: {exc}")]
    finally:
        loader.dispose()
    if not present:
        return None, [Problem(SourceRef(display, 1, 1), "the file is empty")]
    if builder.problems:
        return None, [
            Problem(SourceRef(display, line, column, format_path(path)), message)
            for (line, column), path, message in builder.problems
        ]
    source.positions = builder.positions
    source.printable = not raw.translate(None, _PRINTABLE)  # nothing left: all printable
    return source, []


def _syntax_problem(exc: yaml.MarkedYAMLError, display: str) -> Problem:
    """A syntax error libyaml found, at its place, with a hint for the common ones."""
    mark = exc.problem_mark or exc.context_mark
    message = "YAML syntax error: " + (exc.problem or "unreadable")
    hint = _HINTS.get(exc.problem or "")
    if hint:
        message += f"; {hint}"
    elif exc.context:
        message += f" ({exc.context}"
        if exc.context_mark and exc.context_mark is not mark:
            message += f" at line {exc.context_mark.line + 1}"
        message += ")"
    line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
    return Problem(SourceRef(display, line, column), message)
