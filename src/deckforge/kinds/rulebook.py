"""Rulebooks (``kind: rulebook``): sections of paragraphs, steps, bullet lists and notes.

A rulebook is written in one language, which must be its edition's.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from deckforge.errors import Problem
from deckforge.kinds import Checked, ComponentKind, Reader
from deckforge.model import Text
from deckforge.sources.source import Source

CREDITS = (
    "Typeset with deckforge. Fonts: Noto Sans and Noto Sans Arabic (SIL Open Font License 1.1).",
    "Pictures: OpenMoji. All emojis designed by OpenMoji – the open-source emoji and icon "
    "project. License: CC BY-SA 4.0.",
)


@dataclass(frozen=True)
class Step:
    """A numbered step, with optional lettered sub-steps."""

    number: int
    text: Text
    substeps: tuple[Text, ...]


@dataclass(frozen=True)
class Block:
    """A rulebook block: 'paragraph', 'note', 'bullets' or 'steps'."""

    kind: str
    texts: tuple[Text, ...] = ()
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Section:
    """A rulebook section with its blocks and subsections."""

    heading: Text
    blocks: tuple[Block, ...]
    sections: tuple[Section, ...] = ()


@dataclass(frozen=True)
class Rulebook:
    """A rulebook in one language."""

    id: str
    title: str
    subtitle: str
    locale: str
    sections: tuple[Section, ...]
    credits: tuple[str, ...]


class RulebookKind(ComponentKind):
    """A title, a subtitle and sections, in the edition's language."""

    def rules(self, source: Source, checked: Checked) -> Iterator[Problem]:
        if source.data["locale"] != checked.locale:
            yield Problem(
                source.ref(("locale",)),
                f"the rulebook is in '{source.data['locale']}' but the edition is "
                f"'{checked.locale}'",
            )

    def component(self, id: str, source: Source, reader: Reader) -> Rulebook:
        data = source.data
        return Rulebook(
            id=id,
            title=data["title"],
            subtitle=data.get("subtitle", ""),
            locale=data["locale"],
            sections=tuple(
                _section(source, ("sections", i), s) for i, s in enumerate(data["sections"])
            ),
            credits=CREDITS,
        )


def _section(source: Source, path: tuple, data: dict) -> Section:
    return Section(
        heading=Text(data["heading"], source.ref(path + ("heading",))),
        blocks=tuple(
            _block(source, path + ("blocks", i), block)
            for i, block in enumerate(data.get("blocks", []))
        ),
        sections=tuple(
            _section(source, path + ("sections", i), s)
            for i, s in enumerate(data.get("sections", []))
        ),
    )


def _block(source: Source, path: tuple, block: dict) -> Block:
    ((kind, value),) = block.items()
    if kind in ("paragraph", "note"):
        return Block(kind, texts=(Text(value, source.ref(path + (kind,))),))
    if kind == "bullets":
        return Block(
            kind, texts=tuple(Text(v, source.ref(path + (kind, j))) for j, v in enumerate(value))
        )
    start = value.get("start", 1)
    steps = tuple(
        Step(
            start + j,
            Text(item["text"], source.ref(path + ("steps", "items", j))),
            tuple(
                Text(s, source.ref(path + ("steps", "items", j, "substeps", k)))
                for k, s in enumerate(item.get("substeps", []))
            ),
        )
        for j, item in enumerate(value["items"])
    )
    return Block("steps", steps=steps)


KIND = RulebookKind("rulebook", listed=8)
