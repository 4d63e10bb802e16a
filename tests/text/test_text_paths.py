"""Plain Latin text (no markup, left to right, every character in the Latin face) is
measured and set by a direct way: its words' widths asked of the face at once, its lines
one run each. The general way (shaping, runs split by face, lines split into pieces)
must give the same for it: both are run here over a varied corpus and compared field by
field, errors by their messages."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from deckforge.text import fit as fitting
from deckforge.text import fonts, lines
from deckforge.text.fit import FitError, FittedText, TextStyle, fit, prepare
from deckforge.text.script import localise_digits, normalise

WORDS = [
    "Place",
    "number",
    "1234",
    "a",
    "I",
    "mid-sized",
    "“quoted”",
    "co-op.",
    "end!",
    "(brackets)",
    "naïve",
    "e\u0301clair",  # composed by normalising
    "x\u00a0y",
    "zw\u200cnj",
    "rl\u200fm",
    "extraordinarilylongwordsthatcannotfitanywhere",
    "3.14",
    "—",
    "l'été",
    "1,000",
    "۱۲",  # Persian digits, made 0-9 for English
    "§",
    "...",
    "WWWWWWW",
    "tab\there",
]


def _corpus(count: int = 400) -> list[tuple[str, float, float, TextStyle]]:
    chooser = random.Random(20261130)
    cases = []
    for _ in range(count):
        words = chooser.choices(WORDS, k=chooser.randint(1, 9))
        text = ""
        for word in words:
            text += word + chooser.choice([" ", " ", " ", "  ", "\n", " \u00a0"])
        size = chooser.choice([6, 9, 12, 19, 24])
        style = TextStyle(
            size,
            chooser.choice([size, size / 2, 5]),
            chooser.choice(fonts.STYLES),
            chooser.choice([1.0, 1.2]),
            chooser.choice([0, 1, 2, 3]),
            chooser.choice(["start", "centre", "end"]),
        )
        width = chooser.choice([20, 60, 110, 160, 300])
        height = chooser.choice([8, 20, 60, 200])
        cases.append((text.strip(" "), width, height, style))
    return cases


def _setting(cases) -> list[FittedText | str]:
    """What fit gives for each case (an error by its message), from empty caches."""
    for cached in (fit, fitting._unit_width, lines.latin_line, fitting.metrics):
        cached.cache_clear()
    out: list[FittedText | str] = []
    for text, width, height, style in cases:
        try:
            out.append(fit(text, width, height, style, "en"))
        except FitError as exc:
            out.append(f"FitError: {exc}")
    return out


def _assert_same(direct, general, where: str) -> None:
    assert type(direct) is type(general), where
    if isinstance(direct, str):
        assert direct == general, where
        return
    for field in fields(direct):
        mine, theirs = getattr(direct, field.name), getattr(general, field.name)
        if field.name == "runs" and not direct.width:
            # A line that draws nothing (a blank line between paragraphs) has been drawn
            # the direct way as one empty run, the general way as none: it shows nothing
            # either way, and the files written keep it as they always had.
            mine = tuple(run for run in mine if run.text)
        if field.name in ("lines", "runs"):
            assert len(mine) == len(theirs), f"{where}: {field.name}"
            for index, (one, other) in enumerate(zip(mine, theirs, strict=True)):
                _assert_same(one, other, f"{where}: {field.name}[{index}]")
        else:
            assert mine == theirs, f"{where}: {field.name}"


def test_plain_text_sets_the_same_by_the_direct_and_the_general_way(monkeypatch):
    cases = _corpus()
    direct = _setting(cases)
    # The general way: no text counts as drawn whole by the Latin face.
    monkeypatch.setattr(lines, "latin_drawn", lambda text, weight: None)
    monkeypatch.setattr(fitting, "latin_drawn", lambda text, weight: None)
    try:
        general = _setting(cases)
    finally:
        monkeypatch.undo()
        _setting([])
    for case, one, other in zip(cases, direct, general, strict=True):
        _assert_same(one, other, repr(case[0]))
    # The corpus reaches every outcome: set on one line and on several, too long a word,
    # too many lines, too tall.
    outcomes = {x if isinstance(x, str) else len(x.lines) > 1 for x in direct}
    messages = " ".join(x for x in outcomes if isinstance(x, str))
    assert {True, False} <= outcomes
    for words in ("too long to fit on a line", "needs more than", "too tall for its box"):
        assert words in messages


@pytest.mark.parametrize("locale", ["en", "fa", "de"])
def test_ascii_text_is_prepared_as_any_other(locale):
    for text, *_ in _corpus(100):
        for sample in (text, text.encode("ascii", "ignore").decode().replace("\n", " ")):
            general = "\n".join(normalise(p) for p in localise_digits(sample, locale).split("\n"))
            assert prepare(sample, locale) == general
