"""Lint: advice on content that is valid but could play or read better.

Near-duplicate names, names too long for comfortable reading, mess items that point to
no place, places no item points to, and texts missing a translation other texts in the
same file have. All are warnings; ``--strict`` makes them fail.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterator
from typing import Any

from deckforge.errors import WARNING, Problem
from deckforge.kinds import deck_kinds
from deckforge.model import Edition
from deckforge.sources.load import LoadedEdition
from deckforge.sources.rules import text_maps

#: Names longer than this many characters are hard to take in at a glance.
COMFORTABLE_NAME = 22
#: Names this similar (0–1) look like the same card.
NEAR_DUPLICATE = 0.88


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def near_duplicates(cards: list) -> Iterator[Problem]:
    """Pairs of names that read almost the same."""
    names = [(card, _norm(card.name.value)) for card in cards]
    for i, (card, name) in enumerate(names):
        for other, other_name in names[i + 1 :]:
            matcher = difflib.SequenceMatcher(None, name, other_name)
            if (
                matcher.real_quick_ratio() < NEAR_DUPLICATE
                or matcher.quick_ratio() < NEAR_DUPLICATE
            ):
                continue
            if matcher.ratio() >= NEAR_DUPLICATE:
                yield Problem(
                    other.name.ref,
                    f"'{other.name.value}' reads almost like "
                    f"'{card.name.value}' (line {card.name.ref.line})",
                    WARNING,
                )


def lint_edition(loaded: LoadedEdition, edition: Edition) -> list[Problem]:
    """Every piece of advice for one edition."""
    problems: list[Problem] = []
    for kind in deck_kinds().values():
        if not kind.named:
            continue
        # The cards of a kind that names them: each has its name as a text.
        group: list[Any] = [c for d in edition.decks if d.kind == kind.name for c in d.cards]
        problems.extend(near_duplicates(group))
        for card in group:
            if len(card.name.value) > COMFORTABLE_NAME:
                problems.append(
                    Problem(
                        card.name.ref,
                        f"'{card.name.value}' is "
                        f"{len(card.name.value)} characters; "
                        f"{COMFORTABLE_NAME} or fewer read at a "
                        "glance",
                        WARNING,
                    )
                )
    for kind in deck_kinds().values():
        problems.extend(kind.advice(edition))
    for source in loaded.all_sources():
        maps = list(text_maps(source.data))
        languages = {lang for _, value in maps for lang in value}
        for path, value in maps:
            for lang in sorted(languages - set(value)):
                problems.append(
                    Problem(
                        source.ref(path),
                        f"missing '{lang}' translation (other texts in this file have one)",
                        WARNING,
                    )
                )
    return list(dict.fromkeys(problems))
