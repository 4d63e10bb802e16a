"""A template's parts as written, each value with the place it was written at.

After ``extends`` an element may hold keys from several files; each key keeps its own
place (for errors) and its own folder (for the font and picture paths it names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckforge.errors import SourceRef, display_path
from deckforge.sources.load import MISSING, OUTSIDE, not_a_file, refusal


@dataclass(frozen=True)
class Origin:
    """Where a value was written: its place, the template file's folder (paths in it are
    relative to that) and the folder paths must stay inside (the project, or deckforge's
    own folder for shipped templates)."""

    ref: SourceRef
    folder: Path
    root: Path

    def file(self, value: str, suffixes: tuple[str, ...]) -> Path | str:
        """The file ``value`` names relative to the folder, if it is inside the root and
        has one of the suffixes; else what is wrong with it."""
        target = self.folder / value
        reason = OUTSIDE if Path(value).is_absolute() else refusal(target, self.root)
        if reason == OUTSIDE:
            return f"'{value}' is outside the project; files must stay inside it"
        if not value.lower().endswith(suffixes):
            return f"'{value}' is not a {' or '.join(suffixes)} file"
        if reason == MISSING:
            where = display_path(target.parent, self.root)
            return f"the file '{value}' does not exist (looked in {where}/)"
        if reason is not None:
            return not_a_file(value, reason)
        return target


@dataclass
class Spec:
    """An element or style: its keys' values, and where each was written."""

    data: dict[str, Any]  # YAML data, of any shape until it is checked
    origins: dict[str, Origin]
    origin: Origin
    #: A group's children.
    children: list[Spec] = field(default_factory=list)
    #: Where each key itself was written (for problems with the key, not its value).
    key_refs: dict[str, SourceRef] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The element's (or style's) name."""
        return str(self.data.get("name", ""))

    def at(self, key: str) -> SourceRef:
        """Where a key's value was written (the element itself when it has no such key)."""
        origin = self.origins.get(key)
        return (origin or self.origin).ref

    def copy(self) -> Spec:
        """A copy that can be changed without changing this one (what a template that
        extends another changes). Values are replaced, never changed in place, so the
        tables are copied and the values and places shared."""
        return Spec(
            dict(self.data),
            dict(self.origins),
            self.origin,
            [child.copy() for child in self.children],
            dict(self.key_refs),
        )

    def folder(self, key: str) -> Origin:
        """The origin of a key's value, for paths relative to its file."""
        return self.origins.get(key) or self.origin
