"""Plain data from libyaml's parser events, with the place of every value and key.

Sources are read event by event, never as a tree of YAML nodes: a node tree holds every
value a second time with two marks each, which for a large deck costs more time and
memory than the data it gives. What is kept of each value's place
is four bytes a number in one flat array (see
:class:`~deckforge.sources.positions.Positions`).

What hostile files can do is limited by what makes them hostile, not by their size:
aliases may add at most as many values as the file has bytes (with a floor for small
files), so an alias used inside an alias, over and over ("billion laughs"), stops early;
and nesting stops at :data:`MAX_DEPTH` levels. A file written out value by value, however
long, is read whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from deckforge.sources.positions import Positions

#: Deepest nesting of mappings and lists.
MAX_DEPTH = 64
#: Values aliases may add to any file; a larger file may add one per byte it has.
MIN_ALIAS_VALUES = 100_000

_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
_PREFIX = "tag:yaml.org,2002:"
#: The only YAML tags a source may use: plain data. Anything else (``!!python/object``)
#: is refused before it is looked at.
PLAIN_TAGS = frozenset(
    _PREFIX + name for name in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")
)


class Refused(Exception):
    """A file that is not read further: a tag that is not plain data, an alias bomb,
    nesting too deep. ``mark`` is where; ``path`` the data path there."""

    def __init__(self, mark, path: tuple, message: str):
        super().__init__(message)
        self.mark = mark
        self.path = path
        self.message = message


class _Mapping:
    __slots__ = ("data", "block", "key", "key_at", "merges", "mark")

    def __init__(self, mark) -> None:
        self.data: dict = {}
        self.block: list[int] = []
        self.key: object = _NO_KEY
        self.key_at = (0, 0)
        self.merges: list | None = None
        self.mark = mark


class _List:
    __slots__ = ("data", "block", "mark")

    def __init__(self, mark) -> None:
        self.data: list = []
        self.block: list[int] = []
        self.mark = mark


#: A mapping waiting for its next key.
_NO_KEY = object()
#: A key that is not text (a list or mapping): its value is read and left out.
_BAD_KEY = object()


class _Alias:
    """An alias met while recording an anchored value: what it names, resolved then."""

    __slots__ = ("events", "mark")

    def __init__(self, events: list, mark) -> None:
        self.events = events
        self.mark = mark


class Builder:
    """Turns one document's events into plain data (dicts, lists, text, numbers), noting
    the place of every value in :attr:`positions` and the problems that do not stop reading
    (duplicate keys, keys that are not text) in :attr:`problems`, as (mark, path,
    message)."""

    def __init__(self, loader: yaml.CSafeLoader, size: int) -> None:
        self.loader = loader
        self.positions = Positions()
        self.problems: list[tuple] = []
        self.constructor = yaml.SafeLoader("")
        #: The first characters of plain text that may be something else (a number).
        self.resolvers = frozenset(k for k, v in type(loader).yaml_implicit_resolvers.items() if v)
        #: Plain scalars that looked as if they might be something else and are text.
        self.plain: set[str] = set()
        #: Every key text once: a deck's 100,000 cards share their keys' strings.
        self.keys: dict[str, str] = {}
        self.anchors: dict[str, list] = {}
        self.anchor_marks: dict[str, Any] = {}
        #: Anchored values being recorded: [events, open containers, name].
        self.recording: list[list] = []
        self.limit = max(MIN_ALIAS_VALUES, size)
        self.expanded = 0
        self.replaying = 0
        #: Where the alias being read again was written, and its data path.
        self.alias_at: tuple = (None, ())
        self.stack: list = []

    # --- the document ----------------------------------------------------------------

    def document(self) -> tuple[bool, object]:
        """(whether the file holds a document, its data)."""
        get = self.loader.get_event
        get()  # the stream's start
        event: Any = get()  # never None: the stream's end comes last
        if type(event) is yaml.StreamEndEvent:
            return False, None
        first = event.start_mark  # the document's start
        data, line, column, block = self.value(self._next, self._next())
        self.positions.root = (line, column, block)
        get()  # the document's end
        event = get()
        if type(event) is not yaml.StreamEndEvent:
            raise ComposerError(
                "expected a single document in the stream",
                first,
                "but found another document",
                event.start_mark,
            )
        return True, data

    def _next(self):
        event = self.loader.get_event()
        if self.recording:
            self._record(event)
        return event

    def _record(self, event) -> None:
        kind = type(event)
        for recording in self.recording:
            recording[0].append(event)
            if kind is MappingStartEvent or kind is SequenceStartEvent:
                recording[1] += 1
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                recording[1] -= 1
        while self.recording and self.recording[-1][1] == 0:
            events, _, name = self.recording.pop()
            self.anchors[name] = events

    def _anchor(self, event) -> None:
        """Start recording the value an anchor names (not while an alias is replayed:
        its anchors were defined where it was written)."""
        name = event.anchor
        if name is None or self.replaying:
            return
        if name in self.anchor_marks:
            raise ComposerError(
                "found duplicate anchor", self.anchor_marks[name], "second occurrence",
                event.start_mark,
            )  # fmt: skip
        self.anchor_marks[name] = event.start_mark
        opens = 0 if type(event) is ScalarEvent else 1
        if opens:
            self.recording.append([[event], opens, name])
        else:
            self.anchors[name] = [event]

    # --- values ----------------------------------------------------------------------

    def value(self, get: Callable, event) -> tuple[object, int, int, int]:
        """One value from its first event on: the value, its line and column, and where
        its block starts plus one (0 for text and numbers)."""
        # The loop every event of a file goes through, with the common cases (text, a
        # mapping's new key) written out: a 100,000-card deck has 800,000 events.
        stack = self.stack
        bottom = len(stack)
        resolvers = self.resolvers
        plain = self.plain
        keys = self.keys
        #: Whether this value is an alias read again (alias() restores it before returning).
        replaying = self.replaying
        main = get == self._next
        if main and not self.recording:
            get = self.loader.get_event  # nothing to record until an anchor comes
        top = None  # the innermost mapping or list this value has opened
        while True:
            kind = type(event)
            if kind is ScalarEvent:
                if event.anchor is not None:
                    self._anchor(event)
                    get = self._next if main else get
                mark = event.start_mark
                line, column, block = mark.line + 1, mark.column + 1, 0
                found = event.value
                if (
                    event.tag is not None
                    or replaying
                    or (
                        event.implicit[0]
                        and (not found or (found[0] in resolvers and found not in plain))
                    )
                ):
                    found = self.scalar(event)
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                self._open(event, kind)
                top = stack[-1]
                if main and self.recording:
                    get = self._next
                event = get()
                continue
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                found, line, column, block = self._close(stack.pop())
                if main and not self.recording:
                    get = self.loader.get_event
                top = stack[-1] if len(stack) > bottom else None
            elif kind is AliasEvent or kind is _Alias:
                found, line, column, block = self.alias(event)
            else:
                raise ComposerError(None, None, f"unexpected {kind.__name__}", event.start_mark)
            if top is None:
                return found, line, column, block
            if type(top) is _List:
                if type(found) is _Merge:
                    found = str(found)  # '<<' merges only as a key
                top.data.append(found)
                top.block += (line, column, block)
            else:
                key = top.key
                if key is _NO_KEY and type(found) is str:
                    top.key = keys.setdefault(found, found)  # each key text kept once
                    top.key_at = (line, column)
                elif type(key) is str and key not in top.data and type(found) is not _Merge:
                    top.data[key] = found
                    top.block += (*top.key_at, line, column, block)
                    top.key = _NO_KEY
                else:
                    self._entry(top, found, line, column, block)
            event = get()

    def _open(self, event, kind: type) -> None:
        tag = event.tag
        if tag is not None and tag != "!" and tag not in PLAIN_TAGS:
            raise self.refused(event.start_mark, _tag_message(tag))
        if len(self.stack) > MAX_DEPTH:
            raise self.refused(event.start_mark, f"nesting deeper than {MAX_DEPTH} levels")
        if event.anchor is not None:
            self._anchor(event)
        if self.replaying:
            self._count()
        frame = _Mapping(event.start_mark) if kind is MappingStartEvent else _List(event.start_mark)
        self.stack.append(frame)

    def scalar(self, event) -> object:
        """A scalar's value: text as it is, anything else through YAML's constructors."""
        if self.replaying:
            self._count()
        value = event.value
        tag = event.tag
        if tag is None:
            if not event.implicit[0] or (value and value[0] not in self.resolvers):
                return value  # text, the most common value, as it is
            tag = self.loader.resolve(yaml.ScalarNode, value, event.implicit)
            if tag == _STR and len(self.plain) < 10_000:
                self.plain.add(value)  # keys and categories repeat on every card
        elif tag == "!":
            tag = self.loader.resolve(yaml.ScalarNode, value, event.implicit)
        if tag == _STR:
            return value
        if tag == _MERGE or tag == _PREFIX + "value":
            return _Merge(value) if tag == _MERGE else value
        if tag not in PLAIN_TAGS:
            raise self.refused(event.start_mark, _tag_message(tag))
        node = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark, event.style)
        try:
            return self.constructor.construct_object(node)
        except (ValueError, OverflowError) as exc:
            self.problem(event.start_mark, f"{value!r} cannot be read: {exc}")
            return None

    def alias(self, event) -> tuple[object, int, int, int]:
        """The value an alias names, read again from its events."""
        events: list | None
        if type(event) is _Alias:
            events = event.events
        else:
            events = self.anchors.get(event.anchor)
            if events is None:
                if any(r[2] == event.anchor for r in self.recording):
                    raise self.refused(
                        event.start_mark,
                        f"the alias '*{event.anchor}' is used inside the value it names",
                    )
                raise ComposerError(None, None, "found undefined alias", event.start_mark)
            if self.recording:
                # Recorded as what it names now: an anchor defined again later names
                # another value.
                for recording in self.recording:
                    recording[0][-1] = _Alias(events, event.start_mark)
        if not self.replaying:
            self.alias_at = (event.mark if type(event) is _Alias else event.start_mark, self.path())
        self.replaying += 1
        try:
            replay = iter(events).__next__
            return self.value(replay, replay())
        finally:
            self.replaying -= 1

    def _count(self) -> None:
        self.expanded += 1
        if self.expanded > self.limit:
            mark, path = self.alias_at
            raise Refused(
                mark,
                path,
                f"aliases here expand to more than {self.limit:,} values: an alias used "
                "inside an alias, over and over, makes a small file huge; write the values "
                "out or use fewer aliases",
            )

    # --- containers ------------------------------------------------------------------

    def _entry(self, frame: _Mapping, found: object, line: int, column: int, block: int) -> None:
        """What the loop in :meth:`value` leaves: keys that are not text, merges, a key
        given twice."""
        key = frame.key
        if key is _NO_KEY:
            if block or type(found) in (dict, list):
                self.problem((line, column), "a key must be plain text, not a list or mapping")
                frame.key = _BAD_KEY
            else:
                # '<<' merges; a number or date as a key stands for its text.
                frame.key = found if type(found) is _Merge else str(found)
                frame.key_at = (line, column)
            return
        frame.key = _NO_KEY
        if type(found) is _Merge:
            found = str(found)
        if key is _BAD_KEY:
            return
        if type(key) is _Merge:
            frame.merges = (frame.merges or []) + [(found, block)]
            return
        if key in frame.data:
            first = frame.block[5 * list(frame.data).index(key)]
            self.problem(
                frame.key_at,
                f"duplicate key '{key}' (first defined at line {first}); "
                "each key may appear only once",
                key,
            )
            return
        frame.data[key] = found
        frame.block += (*frame.key_at, line, column, block)

    def _close(self, frame) -> tuple[object, int, int, int]:
        mark = frame.mark
        if type(frame) is _Mapping and frame.merges:
            self._merge(frame)
        numbers = self.positions.numbers
        block = len(numbers) + 1
        numbers.extend(frame.block)
        return frame.data, mark.line + 1, mark.column + 1, block

    def _merge(self, frame: _Mapping) -> None:
        """``<<: *defaults``: the keys of the mappings merged in that the mapping does not
        have itself (the first mapping listed wins)."""
        sources = []
        for found, block in frame.merges or ():
            if type(found) is dict:
                sources.append((found, block))
            elif type(found) is list and all(type(item) is dict for item in found):
                at = block - 1
                for index, item in enumerate(found):
                    sources.append((item, self.positions.numbers[at + 3 * index + 2]))
            else:
                self.problem(
                    frame.mark, "'<<' merges a mapping, or a list of mappings, into this one"
                )
        numbers = self.positions.numbers
        for merged, block in sources:
            for index, (key, value) in enumerate(merged.items()):
                if key not in frame.data:
                    frame.data[key] = value
                    at = block - 1 + 5 * index
                    frame.block += numbers[at : at + 5].tolist()

    # --- problems --------------------------------------------------------------------

    def path(self, key: object = None) -> tuple:
        """The data path of the value being read (and ``key`` in it)."""
        parts: list = []
        for frame in self.stack:
            if type(frame) is _List:
                parts.append(len(frame.data))
            elif frame.key is not _NO_KEY and frame.key is not _BAD_KEY:
                parts.append(str(frame.key))
        return (*parts, key) if key is not None else tuple(parts)

    def problem(self, mark, message: str, key: object = None) -> None:
        """A problem that does not stop reading, at a mark or a (line, column)."""
        where = mark if isinstance(mark, tuple) else (mark.line + 1, mark.column + 1)
        path = self.path(key) if key is not None else self.path()
        self.problems.append((where, path, message))

    def refused(self, mark, message: str) -> Refused:
        """What stops reading the file, at the mark (which says enough: nesting and tags
        are seen there)."""
        return Refused(mark, (), message)


class _Merge(str):
    """The key ``<<``."""


def _tag_message(tag: str) -> str:
    return (
        f"the tag '{tag.replace(_PREFIX, '!!')}' is not allowed: "
        "sources hold plain text, numbers, lists and mappings"
    )
