"""Load stage: find editions and read every source file an edition names."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from deckforge.errors import Problem, SourceRef, UsageError, display_path
from deckforge.sources.source import Source, load_yaml

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


@dataclass(frozen=True)
class Project:
    """Where sources are read from: the decks folder and the project folder around it."""

    decks: Path

    @property
    def root(self) -> Path:
        """The project folder: the decks folder's parent."""
        return self.decks.resolve().parent


def select_editions(project: Project, names: list[str] | None) -> list[Path]:
    """Edition manifests to build: all, or those named by id or folder name."""
    manifests = find_editions(project.decks)
    if not names:
        return manifests
    chosen = []
    for name in names:
        path = Path(name)
        if path.is_file():
            chosen.append(path)
            continue
        if path.is_dir() and (path / EDITION_FILE).is_file():
            chosen.append(path / EDITION_FILE)
            continue
        matches = [m for m in manifests if m.parent.name == name or _edition_id(m) == name]
        if not matches:
            known = ", ".join(sorted(filter(None, (_edition_id(m) for m in manifests))))
            raise UsageError(f"no edition named '{name}' (known: {known})")
        chosen.extend(matches)
    return list(dict.fromkeys(chosen))


def _edition_id(manifest: Path) -> str | None:
    source, _ = load_yaml(manifest, manifest.as_posix())
    if source is not None and isinstance(source.data, dict):
        value = source.data.get("id")
        return value if isinstance(value, str) else None
    return None
