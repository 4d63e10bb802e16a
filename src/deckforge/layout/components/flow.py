"""A column flow: rows of text placed top to bottom in columns, page after page."""

from __future__ import annotations

from dataclasses import dataclass, field

from deckforge.layout.components.sheet import Sheet


@dataclass
class Flow:
    """Places rows of text top to bottom in columns, page after page."""

    sheet: Sheet
    columns: int
    margin: float
    gutter: float
    footer: float
    pages: list[list] = field(default_factory=lambda: [[]])

    def __post_init__(self) -> None:
        self.column = 0
        self.first_top = self.sheet.h - self.margin
        self.y = self.top

    @property
    def top(self) -> float:
        """Where columns start: below the title on the first page."""
        return self.first_top if len(self.pages) == 1 else self.sheet.h - self.margin

    @property
    def bottom(self) -> float:
        """Where columns end, above the footer."""
        return self.margin + self.footer

    @property
    def column_w(self) -> float:
        """A column's width."""
        return (self.sheet.w - 2 * self.margin - (self.columns - 1) * self.gutter) / self.columns

    @property
    def width(self) -> float:
        """All columns' width, with the gutters between them."""
        return self.column_w * self.columns + self.gutter * (self.columns - 1)

    def column_x(self, rtl: bool) -> float:
        """The current column's start (columns run right to left for ``rtl``)."""
        index = self.columns - 1 - self.column if rtl else self.column
        return self.margin + index * (self.column_w + self.gutter)

    def next_column(self) -> None:
        """Go on at the top of the next column (or page)."""
        self.column += 1
        if self.column >= self.columns:
            self.column = 0
            self.pages.append([])
        self.y = self.top

    def room(self) -> float:
        """Height left in the current column."""
        return self.y - self.bottom

    def ensure(self, height: float) -> None:
        """Go on in the next column unless ``height`` fits (or the column is empty)."""
        if self.room() < height and self.y < self.top - 1:
            self.next_column()

    def space(self, height: float) -> None:
        """Leave a gap, unless at a column's top."""
        if self.y < self.top - 1:
            self.y -= min(height, max(self.room(), 0))

    def add(self, ops: list, height: float) -> None:
        """Place operations taking ``height`` at the current position."""
        self.pages[-1].extend(ops)
        self.y -= height
