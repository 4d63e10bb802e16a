"""Load stage: find editions and read every source file an edition names."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from deckforge.errors import Problem, SourceRef, display_path
from deckforge.source import Source, load_yaml

EDITION_FILE = "edition.yaml"


@dataclass
class LoadedEdition:
    """An edition's manifest and the sources of its decks and components, by id."""

    folder: Path
    manifest: Source
    root: Path
    decks: dict[str, Source] = field(default_factory=dict)
    components: dict[str, Source] = field(default_factory=dict)

    def all_sources(self) -> list[Source]:
        """The manifest and every source it names, each once."""
        seen: dict[Path, Source] = {self.manifest.path: self.manifest}
        for source in [*self.decks.values(), *self.components.values()]:
            seen.setdefault(source.path, source)
        return list(seen.values())


def find_editions(decks_dir: Path) -> list[Path]:
    """Every edition manifest under the decks folder, sorted."""
    return sorted(decks_dir.glob(f"*/{EDITION_FILE}"))


def inside(path: Path, root: Path) -> bool:
    """Whether a path, with links resolved, stays inside root."""
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def load_edition(
    manifest_path: Path, root: Path, cache: dict[Path, tuple[Source | None, list[Problem]]]
) -> tuple[LoadedEdition | None, list[Problem]]:
    """Read an edition manifest and the files it names (each file read once per cache)."""

    def read(path: Path) -> tuple[Source | None, list[Problem]]:
        key = path.resolve()
        if key not in cache:
            cache[key] = load_yaml(path, display_path(path, root))
        return cache[key]

    manifest, problems = read(manifest_path)
    if manifest is None:
        return None, problems
    if not isinstance(manifest.data, dict):
        return None, [Problem(manifest.ref(), "an edition manifest must be a mapping")]
    loaded = LoadedEdition(folder=manifest_path.parent, manifest=manifest, root=root)
    problems = []
    for group, table in (("decks", loaded.decks), ("components", loaded.components)):
        entries = manifest.data.get(group)
        if not isinstance(entries, list):
            continue
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict) or not isinstance(entry.get("source"), str):
                continue  # the schema reports it
            ref = manifest.ref((group, index, "source"))
            path = manifest_path.parent / entry["source"]
            if Path(entry["source"]).is_absolute() or not inside(path, root):
                problems.append(
                    Problem(
                        ref,
                        f"'{entry['source']}' is outside the project "
                        f"folder; sources must stay inside it",
                    )
                )
                continue
            if not path.is_file():
                problems.append(
                    Problem(
                        ref,
                        f"'{entry['source']}' does not exist "
                        f"(looked for {display_path(path, root)})",
                    )
                )
                continue
            source, found = read(path)
            problems.extend(found)
            if source is not None and isinstance(entry.get("id"), str):
                table[entry["id"]] = source
    return loaded, problems


def missing(path: Path) -> Problem:
    """The problem of a path given on the command line that does not exist."""
    return Problem(SourceRef(path.as_posix()), "no such file or folder")
