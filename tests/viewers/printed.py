"""What each built file prints, from the layout that drew it."""

from __future__ import annotations

from pathlib import Path

from deckforge.build.pipeline import check
from deckforge.layout.ops import Text, Use
from deckforge.sources.load import Project
from viewers.measure import Printed, phrase

#: The structure elements that hold a rulebook's running text.
RUNNING = ("P", "LBody")


def _texts(face, placement, out: list[Text], shared: bool = False) -> None:
    # The texts of faces drawn as forms that fall outside the placement's area (a board
    # tiled over sheets) are not printed on that sheet.
    shared = shared or face.key is not None
    for op in face.ops:
        if isinstance(op, Text):
            if not shared or placement.shows(op):
                out.append(op)
        elif isinstance(op, Use):
            _texts(op.face, placement, out, True)


def printed_files(decks: Path, profiles: list[str]) -> dict[str, Printed]:
    """Each output's :class:`Printed` text, by its path in the build folder."""
    _, outputs, problems = check(Project(decks), None, profiles)
    assert not [p for p in problems if p.severity == "error"], problems
    files = {}
    for output in outputs:
        entry = output.entry
        printed = Printed(entry.locale, entry.kind)
        paragraphs: dict[tuple, list[str]] = {}
        for page in output.document.pages:
            texts: list[Text] = []
            for placement in page.placements:
                _texts(placement.face, placement, texts)
            for op in page.ops:
                if isinstance(op, Text):
                    texts.append(op)
            for op in texts:
                lines = [line.logical for line in op.fitted.lines]
                printed.texts.append(" ".join(lines))
                printed.lines.extend(lines)
                if len(lines) > 1:
                    printed.across.add(" ".join(lines))
                tag = op.tag
                if tag is not None and tag.path and tag.path[-1][0] in RUNNING and not tag.lang:
                    paragraphs.setdefault(tag.path, []).extend(lines)
        printed.paragraphs = [" ".join(lines) for lines in paragraphs.values()]
        for path, lines in paragraphs.items():
            for index, (above, below) in enumerate(zip(lines, lines[1:], strict=False)):
                if above.split() and below.split():
                    pair = phrase(above.split()[-1], below.split()[0])
                    printed.across.add(pair)
                    if index == 0 and path[-1][0] == "LBody":
                        printed.after_label.add(pair)
        files[entry.path] = printed
    return files
