"""A build's progress as it renders: a bar on a terminal; otherwise a line per file
written, once the build is published (a build that fails writes none of them)."""

from __future__ import annotations

import sys
from pathlib import Path


class Progress:
    """A bar on a terminal, a line per file otherwise."""

    def __init__(self, out: Path, quiet: bool):
        self.out, self.quiet, self.done = out, quiet, 0
        self.total = 0
        self.bar = sys.stderr.isatty() and not quiet
        #: The files rendered, said once they are in place (:meth:`published`).
        self.rendered: list[str] = []

    def start(self, total: int) -> None:
        """The build is about to render ``total`` files."""
        self.total = total

    def advance(self, path: str, written: bool) -> None:
        """One more file is done (``written``, or found unchanged)."""
        self.done += 1
        if self.quiet:
            return
        if self.bar:
            width = 30
            filled = width * self.done // max(self.total, 1)
            sys.stderr.write(
                f"\r[{'#' * filled}{' ' * (width - filled)}] "
                f"{self.done}/{self.total} {path[-40:]:<40}"
            )
            sys.stderr.flush()
        elif written:
            self.rendered.append(path)

    def published(self) -> None:
        """The build is in place: say which files it rendered."""
        for path in self.rendered:
            print(f"  rendered {self.out / path}")
        self.rendered = []

    def close(self) -> None:
        """End the bar's line."""
        if self.bar and self.done:
            sys.stderr.write("\n")
