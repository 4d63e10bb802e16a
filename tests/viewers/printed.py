"""What each built file prints, from the layout that drew it."""

from __future__ import annotations

from pathlib import Path

from deckforge.drawing.ops import Text, Use
from deckforge.pipeline.recipe import check
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
        labelled: set[tuple] = set()
        pages: dict[tuple, list[int]] = {}
        for number, page in enumerate(output.document.pages):
            texts: list[Text] = []
            for placement in page.placements:
                _texts(placement.face, placement, texts)
            for op in page.ops:
                if isinstance(op, Text):
                    texts.append(op)
            last = None
            for op in texts:
                lines = [line.logical for line in op.fitted.lines]
                if last is not None and op.tag is not None and "".join(lines).strip():
                    if op.tag.artifact == "Layout" or op.tag.path[-1:] == (("Lbl", 0),):
                        labelled.add(last)  # a marker drawn right after the line
                printed.texts.append(" ".join(lines))
                printed.lines.extend(lines)
                if len(lines) > 1:
                    printed.across.add(" ".join(lines))
                tag = op.tag
                last = None
                if tag is not None and tag.path and tag.path[-1][0] in RUNNING and not tag.lang:
                    paragraphs.setdefault(tag.path, []).extend(lines)
                    pages.setdefault(tag.path, []).extend([number] * len(lines))
                    last = tag.path
        printed.paragraphs = [" ".join(lines) for lines in paragraphs.values()]
        within: set[str] = set(printed.lines)
        for path, lines in paragraphs.items():
            for index, (above, below) in enumerate(zip(lines, lines[1:], strict=False)):
                if above.split() and below.split():
                    pair = phrase(above.split()[-1], below.split()[0])
                    printed.across.add(pair)
                    if index == 0 and path in labelled:
                        printed.after_label.add(pair)
                    if pages[path][index] != pages[path][index + 1]:
                        printed.across_pages.add(pair)
        for line in printed.lines:
            pieces = line.split()
            within.update(phrase(a, b) for a, b in zip(pieces, pieces[1:], strict=False))
        # Found on one line elsewhere, a phrase is found whatever happens across lines.
        printed.across -= within
        printed.after_label -= within
        printed.across_pages -= within
        files[entry.path] = printed
    return files
