"""Letter spacing: room added after each letter of left-to-right scripts.

Only runs of left-to-right letters are spaced (Latin, Greek, Cyrillic, digits): the
letters of a Persian or Arabic word join, and space between them would break the word
apart, so right-to-left runs keep their own spacing, as do runs that hold a combining
mark (space would part the mark from its letter). A fitted text is spaced after fitting,
and set again in a narrower measure while a spaced line is wider than its box.
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace

from deckforge.text.fit import FitError, FittedText, TextStyle, fit
from deckforge.text.lines import Line, Run
from deckforge.text.script import has_any_arabic

#: How many narrower measures are tried before the text is said not to fit.
_TRIES = 8


def spaceable(text: str) -> bool:
    """Whether a run's letters may be spaced apart."""
    if has_any_arabic(text):
        return False
    return not any(unicodedata.combining(ch) for ch in text)


def spaced_line(line: Line, spacing: float) -> Line:
    """A line with ``spacing`` after each letter of its spaceable runs (none after the
    line's last letter), the runs after them moved along."""
    shift = 0.0
    order = sorted(range(len(line.runs)), key=lambda i: line.runs[i].offset)
    moved: dict[int, Run] = {}
    for index in order:
        run = line.runs[index]
        extra = spacing * len(run.text) if _spaced(run) else 0.0
        moved[index] = replace(
            run,
            offset=run.offset + shift,
            width=run.width + extra,
            spacing=spacing if extra else 0.0,
        )
        shift += extra
    runs = [moved[i] for i in range(len(line.runs))]
    last = max(runs, key=lambda r: r.offset + r.width, default=None)
    trailing = spacing if last is not None and last.spacing else 0.0
    icons = []
    for icon in line.icons:
        moved_by = _shift_at(icon.offset, line, spacing)
        icons.append(replace(icon, offset=icon.offset + moved_by, x=icon.x + moved_by))
    width = line.width + shift - trailing
    return replace(line, runs=tuple(runs), width=width, icons=tuple(icons))


def _shift_at(offset: float, line: Line, spacing: float) -> float:
    """How far the spacing of the runs left of ``offset`` moves what is there."""
    return sum(spacing * len(r.text) for r in line.runs if r.offset < offset and _spaced(r))


def _spaced(run: Run) -> bool:
    return run.width > 0 and bool(run.text.strip()) and spaceable(run.text)


def fit_spaced(
    text: str, width: float, height: float, style: TextStyle, locale: str, spacing: float
) -> FittedText:
    """Text fitted into its box with letter spacing (:func:`deckforge.text.fit.fit`
    when there is none)."""
    if spacing == 0:
        return fit(text, width, height, style, locale)
    measure = width
    for _ in range(_TRIES):
        fitted = fit(text, measure, height, style, locale)
        lines = tuple(spaced_line(line, spacing) for line in fitted.lines)
        widest = max((line.width for line in lines), default=0.0)
        if widest <= width + 1e-6:
            return replace(fitted, lines=lines)
        measure -= widest - width + 0.01
        if measure <= 0:
            break
    raise FitError("does not fit with its letter spacing")
