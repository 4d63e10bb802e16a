"""Problems found in sources, as values that carry where they were found.

Every stage reports what is wrong as :class:`Problem` values; the pipeline
collects all of them and stops once, raising :class:`BuildFailed`.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass, fields
from pathlib import Path

ERROR = "error"
WARNING = "warning"


def pickled_quickly(cls: type) -> type:
    """A frozen dataclass with slots, pickled as its class and its fields' values, read
    in one call (and made again by calling the class with them).

    Builds hash a deck's model by pickling it: the state ``dataclass`` gives such
    classes is a list made by looking up the fields for every object, and set again
    one attribute at a time."""
    if any(not f.init or f.kw_only for f in fields(cls)):
        raise TypeError(f"{cls.__name__}: every field must be given to __init__ in order")
    get = operator.attrgetter(*(f.name for f in fields(cls)))
    # Set on the class dataclass made, which a type checker sees as any other method.
    if len(fields(cls)) == 1:
        setattr(cls, "__reduce__", lambda self: (cls, (get(self),)))  # noqa: B010
    else:
        setattr(cls, "__reduce__", lambda self: (cls, get(self)))  # noqa: B010
    return cls


@pickled_quickly
@dataclass(frozen=True, slots=True)
class SourceRef:
    """A place in a source file: 1-based line and column, and the data path there.

    In a spreadsheet, ``line`` and ``column`` are the row and column numbers and ``cell``
    names the cell as spreadsheets do (``Sheet1:B12``); it is shown instead of them."""

    file: str
    line: int = 0
    column: int = 0
    path: str = ""
    cell: str = ""

    def at(self, path: str) -> SourceRef:
        """The same place, described by another data path."""
        return SourceRef(self.file, self.line, self.column, path, self.cell)

    @property
    def where(self) -> str:
        """``file:line:column``, ``file.xlsx!Sheet1:B12``, or the file alone."""
        if self.cell:
            return f"{self.file}!{self.cell}"
        if self.line:
            return f"{self.file}:{self.line}:{self.column}"
        return self.file


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input, with its place and severity."""

    ref: SourceRef
    message: str
    severity: str = ERROR

    def format(self) -> str:
        """``file:line:column: data.path: message`` (warnings say so)."""
        head = f"{self.ref.where}: "
        if self.ref.path:
            head += f"{self.ref.path}: "
        kind = "warning: " if self.severity == WARNING else ""
        return f"{head}{kind}{self.message}"

    def sort_key(self) -> tuple:
        return (self.ref.file, self.ref.line, self.ref.column, self.message)


class DeckforgeError(Exception):
    """Base of every error deckforge reports to its user."""


class BuildFailed(DeckforgeError):
    """Raised once, after every problem of a stage has been collected."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = sorted(problems, key=Problem.sort_key)
        super().__init__("\n".join(p.format() for p in self.problems))


class Refused(DeckforgeError):
    """What a file cannot be written with, found while writing it, at its place in the
    sources: reported with the build's other problems (its line shown), not alone."""

    def __init__(self, problem: Problem):
        super().__init__(problem)
        self.problem = problem

    def __str__(self) -> str:
        return self.problem.format()


class UsageError(DeckforgeError):
    """The command line asks for something that does not exist."""


def display_path(path: Path, root: Path | None = None) -> str:
    """A path as the user should read it: relative to ``root`` (or the cwd) when inside it."""
    path = Path(path)
    for base in (root, Path.cwd()):
        if base is None:
            continue
        # As written first (``decks/guess-the-mess/…`` where decks/ holds links), then
        # with links resolved.
        for mine, theirs in ((_lexical(path), _lexical(Path(base))), (path.resolve(), None)):
            try:
                return mine.relative_to(theirs or Path(base).resolve()).as_posix()
            except ValueError:
                continue
    return path.as_posix()


def _lexical(path: Path) -> Path:
    """An absolute path with ``..`` taken away by name, links left as they are."""
    import os

    return Path(os.path.normpath(path.absolute()))


def errors_only(problems: Iterable[Problem], strict: bool = False) -> list[Problem]:
    """The problems that stop a build: errors, and warnings too when ``strict``."""
    return [p for p in problems if p.severity == ERROR or strict]


def close_matches(word: str, choices: Iterable[str], n: int = 1) -> list[str]:
    """The choices most like ``word`` (for "did you mean …?"), as
    :func:`difflib.get_close_matches` gives them; difflib is imported only when a
    message needs it, not by every run that has nothing to suggest."""
    import difflib

    return difflib.get_close_matches(word, choices, n=n)
