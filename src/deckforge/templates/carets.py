"""Where a character of a template's value is in its file: the column of the character
an expression went wrong at, not of the value's start.

Only one-line scalars are followed (plain, single- or double-quoted); for a value
written over several lines, or one whose line no longer holds it, the value's start is
the place.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from deckforge.errors import SourceRef
from deckforge.fsutil import read_regular

#: The one-character escapes of a double-quoted YAML scalar; ``\x``, ``\u`` and ``\U``
#: are followed by 2, 4 and 8 hex digits.
_HEX_DIGITS = {"x": 2, "u": 4, "U": 8}


def character_at(ref: SourceRef, files: Sequence[Path], value: str, index: int) -> SourceRef:
    """The place of character ``index`` of ``value``, written at ``ref`` in one of
    ``files`` (the template's own and those it extends)."""
    if not ref.line or ref.cell or not 0 <= index <= len(value):
        return ref
    line = _line(ref, files)
    if line is None:
        return ref
    start = ref.column - 1
    if line[start : start + 1] not in ("'", '"'):
        # A plain scalar is its characters as written, when the line holds it whole.
        found = line.startswith(value, start)
        return SourceRef(ref.file, ref.line, start + index + 1, ref.path) if found else ref
    columns = _columns(line, start)
    if columns is None or columns[0] != value:
        return ref
    return SourceRef(ref.file, ref.line, columns[1][index] + 1, ref.path)


def _line(ref: SourceRef, files: Sequence[Path]) -> str | None:
    for path in files:
        if path.as_posix().endswith(ref.file):
            try:
                lines = read_regular(path).decode("utf-8-sig").splitlines()
            except (OSError, UnicodeDecodeError):
                return None
            return lines[ref.line - 1] if ref.line <= len(lines) else None
    return None


def _columns(line: str, start: int) -> tuple[str, list[int]] | None:
    """The quoted scalar starting at ``start`` of a line, decoded, and the 0-based column
    of each of its characters (and of its closing quote); None if it does not end on the
    line."""
    quote = line[start]
    chars: list[str] = []
    columns: list[int] = []
    at = start + 1
    while at < len(line):
        ch = line[at]
        if ch == quote:
            if quote == "'" and line[at + 1 : at + 2] == "'":
                chars.append("'")
                columns.append(at)
                at += 2
                continue
            columns.append(at)
            return "".join(chars), columns
        if quote == '"' and ch == "\\":
            width = 2 + _HEX_DIGITS.get(line[at + 1 : at + 2], 0)
            chars.append(_unescaped(line[at : at + width]))
            columns.append(at)
            at += width
            continue
        chars.append(ch)
        columns.append(at)
        at += 1
    return None


def _unescaped(escape: str) -> str:
    """A double-quoted scalar's escape as the character it stands for."""
    if escape[1:2] in _HEX_DIGITS:
        try:
            return chr(int(escape[2:], 16))
        except ValueError:
            return escape
    simple = {"n": "\n", "t": "\t", "0": "\0", "\\": "\\", '"': '"', "/": "/", " ": " "}
    return simple.get(escape[1:2], escape[1:2])
