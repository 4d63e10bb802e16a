"""Card data checked against what a template needs of it.

A compiled template knows every card field it binds and what each must be (text, a
number, a colour, an icon, a picture file). Spreadsheet rows are checked against that
before anything is drawn: a field the template binds that the data has no column for is
an error naming both places, and each value that cannot be what it must be is an error
at its cell. What passes becomes the rows the engine draws: mappings of field name to
:class:`~deckforge.model.Text` (icons as their hexcodes) or :class:`~deckforge.model.Art`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from pathlib import Path

from deckforge.art import icons, images
from deckforge.errors import Problem, SourceRef
from deckforge.model import Art
from deckforge.model import Text as SourceText
from deckforge.sources.load import MISSING, OUTSIDE, not_a_file, refusal
from deckforge.sources.tabular import Cell, Table

_HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")


def _missing(table: Table, name: str, kind: str, where: SourceRef, template: str) -> Problem:
    guess = difflib.get_close_matches(name, table.fields, n=1)
    hint = f"; did you mean '{guess[0]}'?" if guess else ""
    return Problem(
        table.ref,
        f"the template '{template}' binds '{{{name}}}' ({kind}) at {where.where}, but "
        f"{table.display} has no column '{name}'{hint}",
    )


def _value(cell: Cell, kind: str, folder: Path, root: Path, palette: Iterable[str]):
    """A cell as the kind of value a template needs, or the problem with it."""
    text = cell.value
    if kind == "number":
        try:
            float(text)
        except ValueError:
            return Problem(cell.ref, f"{text!r} is not a number")
    elif kind == "colour":
        if not _HEX.match(text) and text not in palette:
            return Problem(cell.ref, f"{text!r} is not a colour: use #RRGGBB, like '#E4572E'")
    elif kind == "icon":
        code = icons.resolve(text)
        if code is None:
            return Problem(
                cell.ref, f"unknown icon {text!r}: use an OpenMoji hexcode like 1F9E6 or the emoji"
            )
        return SourceText(code, cell.ref)
    elif kind == "art":
        return _art(cell, folder, root)
    return SourceText(text, cell.ref)


def _art(cell: Cell, folder: Path, root: Path) -> Art | Problem:
    text = cell.value
    target = folder / text
    reason = OUTSIDE if Path(text).is_absolute() else refusal(target, root)
    if reason == OUTSIDE:
        return Problem(cell.ref, f"'{text}' is outside the project folder; art must stay inside it")
    if not text.lower().endswith(images.SUFFIXES):
        return Problem(cell.ref, f"'{text}' is not a PNG, JPEG or SVG file")
    if reason == MISSING:
        return Problem(cell.ref, f"the art file '{text}' does not exist")
    if reason is not None:
        return Problem(cell.ref, not_a_file(text, reason))
    return Art(target, cell.ref)


def check(
    table: Table,
    needs: dict[str, tuple[str, SourceRef]],
    template: str,
    root: Path,
    palette: Iterable[str] = (),
) -> tuple[list[dict[str, object]], list[Problem]]:
    """The table's rows as card data (each row repeated by its count), or the problems."""
    problems: list[Problem] = []
    wanted: dict[str, str] = {}
    for dotted, (kind, where) in needs.items():
        name = dotted.split(".")[0]
        if name not in table.fields:
            problems.append(_missing(table, name, kind, where, template))
        else:
            wanted[name] = kind
    palette = tuple(palette)
    cards: list[dict[str, object]] = []
    for row, copies in zip(table.rows, table.counts, strict=True):
        card: dict[str, object] = {}
        for name, cell in row.items():
            value = _value(cell, wanted.get(name, "text"), table.path.parent, root, palette)
            if isinstance(value, Problem):
                problems.append(value)
            else:
                card[name] = value
        cards.extend([card] * copies)
    return cards, problems
