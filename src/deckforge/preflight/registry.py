"""The registry of checks: each is one function from what was found in a file (and what
the file is meant to be) to a :class:`~deckforge.preflight.report.Check`.

Adding a check means writing a function with the :func:`check` decorator in a module
that ``deckforge.preflight`` imports; the report lists checks in registration order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from deckforge.preflight.measure import Findings
from deckforge.preflight.report import Check


@dataclass(frozen=True)
class Target:
    """What a file is checked against: its manifest entry and its profile's promises."""

    entry: dict
    #: Whether the profile writes CMYK (its colour mode, not its name).
    cmyk: bool
    #: The PDF/X version the profile promises, if any.
    pdfx: str | None
    ink_limit: float
    #: Whether the pages of one file may differ in size.
    mixed_sizes: bool = False

    @property
    def bleed(self) -> float:
        """The bleed in millimetres the manifest gives (0 for sheets)."""
        return float(self.entry.get("bleed_mm") or 0.0)

    @property
    def cards(self) -> bool:
        """Whether the file holds cards (each page one card side)."""
        return self.entry.get("kind") == "cards"


@dataclass(frozen=True)
class FileFacts:
    """What the checks read of a file besides its pages: header, trailer and catalog."""

    version: str
    info: dict[str, str]
    has_id: bool
    encrypted: bool
    #: Each output intent's keys (text) and its profile's bytes (or None).
    intents: tuple[tuple[dict[str, str], bytes | None], ...]
    xmp: bytes | None
    reader: Any = None
    path: Any = None


CheckFunction = Callable[[Findings, Target, FileFacts], Check]
#: Every check, by name, in the order reports list them.
REGISTRY: dict[str, CheckFunction] = {}


def check(name: str) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check under ``name``."""

    def register(function: CheckFunction) -> CheckFunction:
        REGISTRY[name] = function
        return function

    return register
