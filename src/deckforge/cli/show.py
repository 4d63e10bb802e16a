"""How problems are shown: each on its line, then the source line with a caret under
the spot."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable
from pathlib import Path

from deckforge.errors import Problem


def show(problem: Problem, root: Path) -> str:
    """A problem as printed: its line, then the source line with a caret under the spot."""
    text = problem.format()
    ref = problem.ref
    if not ref.line or ref.cell:  # a spreadsheet's cell has no line of text to show
        return text
    path = Path(ref.file)
    if not path.is_absolute():
        path = root / path
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            line = next(itertools.islice(handle, ref.line - 1, None), None)
    except OSError:
        return text
    if line is None:
        return text
    line = line.rstrip("\n").replace("\t", " ")
    if "\x00" in line:
        return text
    at = max(ref.column - 1, 0)
    if len(line) > _LONGEST:  # the part of a long line around the spot, cut off with …
        start = max(0, min(at - _WIDTH // 2, len(line) - _WIDTH))
        shown = line[start : start + _WIDTH]
        line = ("…" if start else "") + shown + ("…" if start + _WIDTH < len(line) else "")
        at += (1 if start else 0) - start
    gutter = f"{ref.line:>5} | "
    caret = " " * (len(gutter) - 2) + "| " + " " * at + "^"
    return f"{text}\n{gutter}{line}\n{caret}"


#: The longest source line shown whole under a problem, and how much of a longer one.
_LONGEST, _WIDTH = 160, 120


def report(problems: Iterable[Problem], root: Path) -> None:
    """Print problems to standard error, paths relative to the project folder ``root``."""
    for problem in problems:
        print(show(problem, root), file=sys.stderr)


def plural(count: int, word: str) -> str:
    """'1 file', '2 files'."""
    return f"{count} {word}{'s' if count != 1 else ''}"
