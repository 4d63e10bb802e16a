"""The rulebook: a title block, then sections of paragraphs, steps, bullets and notes
flowed through columns (two on wide paper), page after page, with folios.

Its texts are tagged with their place in the structure: the title (H1) and subtitle,
then a section (Sect) per section with its heading (H2, H3...), paragraphs (P) and lists
(L of LI: Lbl, LBody), in reading order; folios and decorations are artifacts."""

from __future__ import annotations

from dataclasses import dataclass, replace

from deckforge.drawing.ops import RGB, WHITE, Page, Rect, Tag, Text, mix
from deckforge.kinds.rulebook import Block, Rulebook, Section
from deckforge.layout.components.flow import Flow
from deckforge.layout.components.sheet import Inks, Sheet, palette, set_text, sheet_for
from deckforge.model import Edition
from deckforge.model import Text as SourceText
from deckforge.profiles import Profile
from deckforge.text import fonts
from deckforge.text.fit import FittedText, TextStyle
from deckforge.text.lines import column_mark, gutter_mark, reaching_left
from deckforge.text.script import is_rtl_locale, list_letter, number
from deckforge.units import mm


@dataclass(frozen=True)
class Marker:
    """What hangs in a paragraph's indent on its first line (a number, a letter, a
    bullet), starting ``at`` from the column's start edge, in ``colour`` (the accent
    when none is given)."""

    text: str
    at: float = 0.0
    colour: RGB | None = None


class _Book:
    """A rulebook being flowed: its flow, styles and palette."""

    def __init__(self, book: Rulebook, sheet: Sheet, inks: Inks) -> None:
        self.book = book
        self.sheet = sheet
        self.inks = inks
        self.locale = book.locale
        self.rtl = is_rtl_locale(book.locale)
        wide = sheet.w > mm(180)
        self.wide = wide
        self.margin = max(mm(15 if wide else 13), sheet.bleed + mm(10))
        self.flow = Flow(sheet, 2 if wide else 1, self.margin, mm(8), mm(8))
        self.body = 10.0 if wide else 9.5
        self.body_style = TextStyle(self.body, self.body, leading=1.32)
        self.indent = self.body * (2.6 if self.rtl else 1.9)
        self.ref = book.sections[0].heading.ref
        #: Keys that order structure elements as they are made.
        self.order = iter(range(1_000_000_000))

    def element(self, path: tuple, kind: str) -> tuple:
        """The path of a new element of ``kind`` inside the one at ``path``, after the
        elements made before it."""
        return (*path, (kind, next(self.order)))

    def lines(
        self,
        text: SourceText,
        x_indent: float,
        style: TextStyle,
        colour: RGB,
        tag: Tag,
        marker: Marker | None = None,
        language: str | None = None,
    ) -> None:
        """Flow a paragraph line by line, its marker hanging in the indent of the first. A
        list item's (LI) marker is its label, the text its body; any other marker is
        decoration (an artifact)."""
        flow, rtl = self.flow, self.rtl
        width = flow.column_w - x_indent
        fitted = set_text(text, width, 10_000, style, language or self.locale)
        item = tag.path[-1][0] == "LI"
        body = Tag((*tag.path, ("LBody", 1)), tag.lang) if item else tag
        for index, line in enumerate(fitted.lines):
            one = replace(fitted, lines=(line,))
            flow.ensure(fitted.line_height)
            cx = flow.column_x(rtl)
            ops = [Text(cx if rtl else cx + x_indent, flow.y, width, one, colour, body)]
            if fitted.rtl and flow.columns > 1:
                ops.insert(0, _column_mark(cx, flow.y, flow.column_w, one))
            if marker and index == 0:
                label = Tag((*tag.path, ("Lbl", 0))) if item else Tag(artifact="Layout")
                mark = self.marker(marker, text, x_indent, style, label)
                # Where it reads first, but after its line in right-to-left text: pdf.js
                # reads texts in the order they are drawn, and joins one to the text
                # before it on its line without a space if it stands further left.
                ops.insert(len(ops) if rtl else 0, mark)
            flow.add(ops, fitted.line_height)

    def marker(
        self, marker: Marker, text: SourceText, x_indent: float, style: TextStyle, tag: Tag
    ) -> Text:
        """A paragraph's marker on the current line, in the indent before ``x_indent``."""
        flow, rtl = self.flow, self.rtl
        cx, width = flow.column_x(rtl), flow.column_w - x_indent
        mark_w = x_indent - marker.at - mm(1)
        mark_style = replace(style, weight=fonts.BOLD, align="start")
        mark = set_text(SourceText(marker.text, text.ref), mark_w, 100, mark_style, self.locale)
        mx = cx + flow.column_w - marker.at - mark_w if rtl else cx + marker.at
        if rtl:
            # Its text ends left of it: reach halfway across the gap, for poppler.
            gap = mx + mark_w - mark.lines[0].width - (cx + width)
            joined = reaching_left(mark.lines[0], fonts.BOLD, gap / 2)
            mark = replace(mark, lines=(joined,))
        return Text(mx, flow.y, mark_w, mark, marker.colour or self.inks.accent, tag)

    def title(self) -> None:
        """The title block across the first page, in the accent colour through the bleed."""
        sheet, flow, margin, book = self.sheet, self.flow, self.margin, self.book
        style = TextStyle(30 if self.wide else 24, 14, fonts.BOLD, leading=1.1, align="centre")
        title = set_text(SourceText(book.title, self.ref), flow.width, 80, style, self.locale)
        band = title.height + mm(14)
        flow.add(
            [
                Rect(
                    -sheet.bleed,
                    sheet.h - margin - band,
                    sheet.w + 2 * sheet.bleed,
                    band + margin + sheet.bleed,
                    fill=self.inks.accent,
                ),
                Text(
                    margin,
                    sheet.h - margin - mm(2),
                    sheet.w - 2 * margin,
                    title,
                    WHITE,
                    Tag(self.element((), "H1")),
                ),
            ],
            title.height + mm(4),
        )
        if book.subtitle:
            sub_style = TextStyle(12, 9, align="centre")
            width = sheet.w - 2 * margin
            sub = set_text(SourceText(book.subtitle, self.ref), width, 40, sub_style, self.locale)
            tag = Tag(self.element((), "P"))
            flow.add([Text(margin, flow.y - mm(1), width, sub, WHITE, tag)], sub.height)
        flow.first_top = flow.y = sheet.h - margin - band - mm(8)

    def block(self, b: Block, within: tuple) -> None:
        """A paragraph, note, bullet list or numbered steps, in the section ``within``."""
        body, ink, indent, style = self.body, self.inks.ink, self.indent, self.body_style
        element = self.element
        if b.kind == "paragraph":
            self.lines(b.texts[0], 0, style, ink, Tag(element(within, "P")))
            self.flow.space(body * 0.6)
        elif b.kind == "note":
            bold = replace(style, weight=fonts.BOLD)
            sign = "«" if self.rtl else "»"
            tag = Tag(element(within, "P"))
            self.lines(b.texts[0], indent * 0.6, bold, self.inks.dark, tag, Marker(sign))
            self.flow.space(body * 0.6)
        elif b.kind == "bullets":
            listed = element(within, "L")
            for t in b.texts:
                self.lines(t, indent * 0.8, style, ink, Tag(element(listed, "LI")), Marker("•"))
                self.flow.space(body * 0.25)
            self.flow.space(body * 0.4)
        else:
            listed = element(within, "L")
            for step in b.steps:
                item = element(listed, "LI")
                marker = Marker(f"{number(step.number, self.locale)}.")
                self.lines(step.text, indent, style, ink, Tag(item), marker)
                sublist = element((*item, ("LBody", 1)), "L")
                for k, sub in enumerate(step.substeps):
                    tag = Tag(element(sublist, "LI"))
                    marker = Marker(f"{list_letter(k, self.locale)}.", indent, self.inks.dark)
                    self.lines(sub, 2 * indent, style, ink, tag, marker)
                self.flow.space(body * 0.35)
            self.flow.space(body * 0.3)

    def heading(self, text: SourceText, size: float, colour: RGB, tag: Tag) -> None:
        """A section heading, kept with the start of what follows."""
        flow = self.flow
        style = TextStyle(size, size, fonts.BOLD, leading=1.15)
        fitted = set_text(text, flow.column_w, 200, style, self.locale)
        flow.ensure(fitted.height + self.body * 1.35 * 3)
        if flow.y < flow.top - 1:
            flow.space(size * 0.5)
        cx = flow.column_x(self.rtl)
        heading = Text(cx, flow.y, flow.column_w, fitted, colour, tag)
        flow.add([heading], fitted.height + size * 0.35)

    def section(self, s: Section, level: int, within: tuple = ()) -> None:
        """A section (Sect), its heading, blocks and subsections."""
        part = self.element(within, "Sect")
        colour = self.inks.accent if level == 0 else self.inks.dark
        heading = Tag(self.element(part, f"H{min(level + 2, 6)}"))
        self.heading(s.heading, 15 if level == 0 else 12, colour, heading)
        for b in s.blocks:
            self.block(b, part)
        for sub in s.sections:
            self.section(sub, level + 1, part)

    def pages(self) -> list[Page]:
        """The flowed pages, each with its background and folio."""
        sheet, margin = self.sheet, self.margin
        pages = []
        total = len(self.flow.pages)
        width = sheet.w - 2 * margin
        for index, ops in enumerate(self.flow.pages):
            folio_text = SourceText(number(index + 1, self.locale), self.ref)
            folio = set_text(folio_text, width, 20, TextStyle(8, 8, align="centre"), self.locale)
            colour = mix(self.inks.ink, WHITE, 0.4)
            page_ops = [
                sheet.background(WHITE),
                *ops,
                Text(margin, margin - mm(1), width, folio, colour, Tag(artifact="Pagination")),
            ]
            if self.flow.columns > 1:
                top = self.flow.first_top if index == 0 else sheet.h - margin
                page_ops.append(self.gutter(top, self.flow.bottom))
            pages.append(sheet.page(tuple(page_ops), f"page {index + 1} of {total}"))
        return pages

    def gutter(self, top: float, bottom: float) -> Text:
        """The mark poppler alone reads in the gutter, from ``top`` down to ``bottom``
        (see :func:`deckforge.text.lines.gutter_mark`)."""
        mark = gutter_mark(self.rtl)
        ascent, descent = fonts.ascent_descent(mark.runs[0].font, 1.0)
        size = (top - bottom) / (ascent - descent)
        fitted = FittedText((mark,), size, size, ascent * size, descent * size, self.rtl, "left")
        x = self.margin + self.flow.column_w + self.flow.gutter / 2
        return Text(x, top, 0.0, fitted, WHITE, Tag(artifact="Layout"))


def rulebook(edition: Edition, book: Rulebook, profile: Profile) -> list[Page]:
    """The rulebook as pages: a title, then sections flowed through columns."""
    laid = _Book(book, sheet_for(profile, landscape=False), palette(edition))
    laid.title()
    for s in book.sections:
        laid.section(s, 0)
    credits = SourceText("  ".join(book.credits), laid.ref)
    laid.flow.space(laid.body)
    # The credits and licence notices are English in every edition.
    style = TextStyle(7.5, 7.5, leading=1.3)
    tag = Tag(laid.element((), "P"), "en")
    laid.lines(credits, 0, style, mix(laid.inks.ink, WHITE, 0.35), tag, language="en")
    return laid.pages()


def _column_mark(x: float, top: float, width: float, line: FittedText) -> Text:
    """A mark poppler alone reads, across a column on a line's baseline: it keeps the
    column's lines together (see :func:`deckforge.text.lines.column_mark`)."""
    size = line.size * 1.02
    mark = column_mark(width, fonts.REGULAR, size)
    fitted = replace(line, lines=(mark,), size=size, align="left")
    return Text(x, top, width, fitted, WHITE, Tag(artifact="Layout"))
