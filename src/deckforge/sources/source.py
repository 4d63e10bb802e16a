"""Load YAML sources into plain data, keeping where every value came from.

The loader composes PyYAML's node tree (never constructing Python objects from
tags) and converts it to dicts, lists and scalars while recording each value's
line and column, so later stages can point at the exact spot of a problem.
Limits on size, depth and node count keep hostile files (alias bombs, very
deep nesting) from exhausting memory.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from deckforge.errors import Problem, SourceRef

#: Largest source file read, in bytes.
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Most nodes a file may expand to (aliases count each time they are used).
MAX_NODES = 200_000
#: Deepest nesting of mappings and lists.
MAX_DEPTH = 64

Path_ = tuple[str | int, ...]

#: The only YAML tags a source may use: plain data. Anything else (``!!python/object``)
#: is refused before it is looked at.
_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")
)

_STR = "tag:yaml.org,2002:str"

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
    """The safe loader (libyaml's C parser where PyYAML has it: ten times faster on a
    large deck) with YAML 1.2 booleans: ``no``, ``yes``, ``on`` and ``off`` stay strings.

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


def format_path(path: Path_) -> str:
    """A data path as ``places[3].name``."""
    out = ""
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
    marks: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    #: SHA-256 of the bytes that were parsed: what incremental builds compare.
    digest: str = ""

    def ref(self, path: Path_ = (), key: bool = False) -> SourceRef:
        """Where the value at ``path`` is (or its key, with ``key``); the nearest
        enclosing value when the path does not exist (a missing property)."""
        probe = tuple(path)
        table = self.key_marks if key and probe in self.key_marks else self.marks
        while probe and probe not in table:
            probe = probe[:-1]
            table = self.marks
        line, column = table.get(probe, (1, 1))
        return SourceRef(self.display, line, column, format_path(path))


class _Converter:
    def __init__(self, source: Source):
        self.source = source
        self.problems: list[Problem] = []
        self.count = 0
        self.constructor = yaml.SafeLoader("")

    def problem(self, node: yaml.Node, path: Path_, message: str) -> None:
        mark = node.start_mark
        self.problems.append(
            Problem(
                SourceRef(self.source.display, mark.line + 1, mark.column + 1, format_path(path)),
                message,
            )
        )

    def convert(self, node: yaml.Node, path: Path_, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise _TooBig(
                node,
                f"the file expands to more than {MAX_NODES:,} values (aliases used too often?)",
            )
        if depth > MAX_DEPTH:
            raise _TooBig(node, f"nesting deeper than {MAX_DEPTH} levels")
        mark = node.start_mark
        self.source.marks.setdefault(path, (mark.line + 1, mark.column + 1))
        tag = node.tag
        if tag == _STR:
            return node.value  # text, the most common value, as it is
        if tag not in _PLAIN_TAGS:
            raise _TooBig(
                node,
                f"the tag '{tag.replace('tag:yaml.org,2002:', '!!')}' is not allowed: "
                "sources hold plain text, numbers, lists and mappings",
            )
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            return [
                self.convert(item, (*path, index), depth + 1)
                for index, item in enumerate(node.value)
            ]
        value = self.constructor.construct_object(node)
        if isinstance(value, bytes):
            self.problem(node, path, "binary values are not accepted")
            return None
        return value

    def mapping(self, node: yaml.MappingNode, path: Path_, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_seen: dict[str, int] = {}
        key_marks = self.source.key_marks
        self.constructor.flatten_mapping(node)
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.problem(key_node, path, "a key must be plain text, not a list or mapping")
                continue
            if key_node.tag == _STR:
                key = key_node.value
            else:
                key = str(self.constructor.construct_object(key_node))
            mark = key_node.start_mark
            if key in first_seen:
                self.problem(
                    key_node,
                    (*path, key),
                    f"duplicate key '{key}' (first defined at line {first_seen[key]}); "
                    "each key may appear only once",
                )
                continue
            first_seen[key] = mark.line + 1
            inner = (*path, key)
            key_marks[inner] = (mark.line + 1, mark.column + 1)
            result[key] = self.convert(value_node, inner, depth + 1)
        return result


class _TooBig(Exception):
    def __init__(self, node: yaml.Node, message: str):
        self.node = node
        self.message = message


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
                    f"the file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}",
                )
            ]
        raw = path.read_bytes()
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
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
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
        return None, [Problem(SourceRef(display, line, column), message)]
    except yaml.reader.ReaderError as exc:
        return None, [_reader_problem(text, exc, display)]
    except yaml.YAMLError as exc:
        return None, [Problem(SourceRef(display), f"YAML error: {exc}")]
    finally:
        loader.dispose()
    if node is None:
        return None, [Problem(SourceRef(display, 1, 1), "the file is empty")]
    converter = _Converter(source)
    try:
        source.data = converter.convert(node, (), 0)
    except _TooBig as exc:
        mark = exc.node.start_mark
        return None, [Problem(SourceRef(display, mark.line + 1, mark.column + 1), exc.message)]
    except yaml.YAMLError as exc:
        return None, [Problem(SourceRef(display), f"YAML error: {exc}")]
    if converter.problems:
        return None, converter.problems
    return source, []
