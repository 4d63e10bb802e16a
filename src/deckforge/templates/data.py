"""Card data checked against what a deck's templates need of it.

A compiled template knows every card field it binds and what each must be (text, a
number, a colour, an icon, a picture file). Rows of data (a CSV or XLSX file's, or a
list of cards in YAML: :class:`~deckforge.kinds.Rows`) are checked against that before
anything is drawn: a field a template binds that the data does not name is an error
naming both places, and each value that cannot be what it must be is an error at its
cell. What passes becomes the rows the engine draws: mappings of field name to
:class:`~deckforge.model.Text` (icons as written) or :class:`~deckforge.model.Art`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from deckforge.art import icons, images
from deckforge.errors import Problem, SourceRef, close_matches, display_path
from deckforge.kinds import Rows
from deckforge.model import Art
from deckforge.model import Text as SourceText
from deckforge.sources.load import MISSING, OUTSIDE, not_a_file, outside_art, refusal
from deckforge.templates.colours import BASIC, cmyk_problem, is_cmyk
from deckforge.templates.compile import KINDS

if TYPE_CHECKING:
    from deckforge.kinds.cards import Value

_HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")

#: What each template of a deck binds: (template name, field → (kind, where it binds it)).
Needs = Sequence[tuple[str, dict[str, tuple[str, SourceRef]]]]


def _missing(data: Rows, name: str, kind: str, where: SourceRef, template: str) -> Problem:
    guess = close_matches(name, data.fields)
    hint = f"; did you mean '{guess[0]}'?" if guess else ""
    lacks = (
        f"{data.display} has no column '{name}'"
        if data.columns
        else f"no card in {data.display} has the field '{name}'"
    )
    test = where.path.rpartition(".")[2]
    if test in ("when", "unless"):
        # A condition names a field, not a binding, and wants no kind of value.
        uses = f"tests the field '{name}' in '{test}' at {where.where}"
    else:
        uses = f"binds '{{{name}}}' ({kind}) at {where.where}"
    return Problem(data.ref, f"the template '{template}' {uses}, but {lacks}{hint}")


def colour_problem(
    text: str, ref: SourceRef, own: Sequence[str], names: Sequence[str] = ()
) -> Problem:
    """A value that should be a colour and is not; the nearest of ``names`` (every
    colour name a value may give) is suggested."""
    message = f"{text!r} is not a colour: use #RRGGBB, like '#E4572E'"
    if own:
        message += f", or a colour the template names ({', '.join(own)})"
    guess = close_matches(text.strip().lower(), sorted({*own, *names}))
    if guess:
        message += f"; did you mean '{guess[0]}'?"
    return Problem(ref, message)


class _Values:
    """Turns one field's values into what a template needs, each value once."""

    def __init__(self, data: Rows, root: Path, palette: Iterable[str], own: Sequence[str]):
        self.folder = data.folder
        self.root = root
        self.palette = set(palette)
        self.own = tuple(own)
        self.names = {name.lower() for name in (*self.palette, *self.own, *BASIC)}

    def value(self, cell: Value, kind: str) -> object:
        """A cell as the kind of value a template needs, or the problem with it."""
        text, ref = cell.value, cell.ref
        if kind == "number":
            try:
                float(text)
            except ValueError:
                return Problem(ref, f"{text!r} is not a number")
        elif kind == "colour":
            if is_cmyk(text):
                wrong = cmyk_problem(text)
                if wrong is not None:
                    return Problem(ref, f"{text!r} is not a colour: {wrong}")
            elif not _HEX.match(text) and text.strip().lower() not in self.names:
                return colour_problem(text, ref, self.own, [*BASIC, *self.palette])
        elif kind == "icon":
            # Checked here, resolved where it is drawn: a text binding the same field
            # prints it as written, not as its hexcode.
            if icons.resolve(text) is None:
                return Problem(
                    ref, f"unknown icon {text!r}: use an OpenMoji hexcode like 1F9E6 or the emoji"
                )
        elif kind == "art":
            return self.art(text, ref)
        return cell if isinstance(cell, SourceText) else SourceText(text, ref)

    def art(self, text: str, ref: SourceRef) -> Art | Problem:
        """A picture file named by the data, inside the project."""
        target = self.folder / text
        reason = OUTSIDE if Path(text).is_absolute() else refusal(target, self.root)
        if reason == OUTSIDE:
            return Problem(ref, outside_art(text))
        if not text.lower().endswith(images.SUFFIXES):
            return Problem(ref, f"'{text}' is not a PNG, JPEG or SVG file")
        if reason == MISSING:
            folder = display_path(target.parent, self.root)
            return Problem(
                ref,
                f"the art file '{text}' does not exist (looked in {folder}/: art a card's "
                "data names is found beside the data file)",
            )
        if reason is not None:
            return Problem(ref, not_a_file(text, reason))
        return Art(target, ref)


def wanted(data: Rows, needs: Needs) -> tuple[dict[str, str], list[Problem]]:
    """What each field of the data must be (the strongest any template asks), and the
    problems of fields the templates bind that the data does not have."""
    kinds: dict[str, str] = {}
    problems: list[Problem] = []
    for template, binds in needs:
        for dotted, (kind, where) in binds.items():
            name, _, rest = dotted.partition(".")
            if name not in data.fields:
                problems.append(_missing(data, name, kind, where, template))
            elif rest:
                problems.append(
                    Problem(
                        where,
                        f"'{{{dotted}}}': the field '{name}' of {data.display} is a value, "
                        f"with no fields of its own; bind '{{{name}}}'",
                    )
                )
            elif name not in kinds or KINDS.index(kind) < KINDS.index(kinds[name]):
                kinds[name] = kind
    return kinds, list(dict.fromkeys(problems))


def check(
    data: Rows, needs: Needs, root: Path, palette: Iterable[str] = (), own: Sequence[str] = ()
) -> tuple[list[dict[str, object]], list[Problem]]:
    """The data's rows as card data, one per card, or the problems. ``palette`` and
    ``own`` name the colours a value may name besides ``#RRGGBB`` (the edition's, the
    templates' own); rows repeated (copies of a card) are checked once."""
    kinds, problems = wanted(data, needs)
    values = _Values(data, root, palette, own)
    done: dict[int, dict[str, object]] = {}
    cards: list[dict[str, object]] = []
    #: The cells of each wrong value of a field: one problem for each, at its first.
    wrong: dict[tuple[str, str], tuple[Problem, list[SourceRef]]] = {}
    for row in data.rows:
        card = done.get(id(row))
        if card is None:
            card = done[id(row)] = {}
            for name, cell in row.items():
                value = values.value(cell, kinds.get(name, "text"))
                if isinstance(value, Problem):
                    wrong.setdefault((name, cell.value), (value, []))[1].append(cell.ref)
                else:
                    card[name] = value
        cards.append(card)
    return cards, problems + [_once(problem, refs) for problem, refs in wrong.values()]


def _once(problem: Problem, refs: list[SourceRef]) -> Problem:
    """The problem of a value at its first cell, naming the other cells that hold it."""
    if len(refs) == 1:
        return problem
    others = refs[1:]
    shown = ", ".join(ref.cell or f"{ref.line}:{ref.column}" for ref in others[:3])
    more = f" and {len(others) - 3} more" if len(others) > 3 else ""
    cells = "cell" if len(others) == 1 else "cells"
    message = (
        f"{problem.message} (also in {len(others)} more {cells} of this column: {shown}{more})"
    )
    return Problem(problem.ref, message, problem.severity)
