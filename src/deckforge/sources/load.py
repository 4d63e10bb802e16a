"""Load stage: find editions and read every source file an edition names.

Every path a source names (another source, art files and folders and what is in them,
font and data files, the edition's templates folder) is checked here, or by the rule
that reads it, with :func:`refusal`: it must stay inside the project folder with its
links resolved, and be a regular file (or folder) — never a named pipe or a device.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from deckforge.errors import Problem, SourceRef, UsageError, display_path
from deckforge.fsutil import inside, kind_of
from deckforge.sources.source import Source, load_yaml

EDITION_FILE = "edition.yaml"
#: The folder of an edition that holds its own card templates.
TEMPLATES_FOLDER = "templates"
#: What a refused path is, as :func:`refusal` says it.
OUTSIDE = "outside"
MISSING = "missing"


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


def refusal(path: Path, root: Path, folder: bool = False) -> str | None:
    """Why a path a source names cannot be read: :data:`OUTSIDE` (it leads out of
    ``root``, through a link or ``..``), :data:`MISSING`, or what it is instead of a
    regular file (or, with ``folder``, a folder): 'a named pipe (FIFO)', 'a folder'…
    None when it can be read. Looks without opening anything."""
    if not inside(path, root):
        return OUTSIDE
    try:
        kind = kind_of(path)
    except OSError:
        return MISSING
    if folder:
        return None if kind == "a folder" else (kind or "a file")
    return kind


def outside_art(value: str) -> str:
    """The problem of art named as ``value`` that leads out of the project."""
    return f"'{value}' is outside the project folder; art must stay inside it"


def spelled(path: Path, root: Path) -> str | None:
    """How a path below ``root`` is spelled on disk where that differs in case from how
    it is given (Windows and macOS find the file either way, Linux does not), or where it
    does not exist but a name differing only in case does; None otherwise."""
    try:
        parts = Path(path).absolute().relative_to(Path(root).absolute()).parts
    except ValueError:
        return None
    folder, found, differs = Path(root), [], False
    for part in parts:
        if part in ("", ".", ".."):
            return None  # not a plain name below the root (refused elsewhere)
        try:
            names, folded = _names(str(folder), os.stat(folder).st_mtime_ns)
        except OSError:
            return None
        if part in names:
            found.append(part)
        else:
            match = folded.get(part.casefold(), ())
            if len(match) != 1:
                return None
            found.append(match[0])
            differs = True
        folder = folder / found[-1]
    return "/".join(found) if differs else None


@lru_cache(maxsize=1024)
def _names(folder: str, changed: int) -> tuple[frozenset[str], dict[str, tuple[str, ...]]]:
    """A folder's names, and them by their case-folded form (kept while the folder's
    modification time, ``changed``, stays the same: a deck names many files of one
    folder)."""
    names = os.listdir(folder)
    folded: dict[str, tuple[str, ...]] = {}
    for name in names:
        folded[name.casefold()] = (*folded.get(name.casefold(), ()), name)
    return frozenset(names), folded


def case_problem(value: str, path: Path, root: Path) -> str | None:
    """The problem of a name given in another case than the file's, if it is one."""
    on_disk = spelled(path, root)
    given = Path(value).parts
    if on_disk is None or ".." in given:
        return None
    on_disk = "/".join(on_disk.split("/")[-len(given) :])  # as much of it as was given
    return (
        f"'{value}' is written '{on_disk}' on disk: names must match in case, as they do "
        "on Linux and at print shops"
    )


def not_a_file(value: str, reason: str, folder: bool = False) -> str:
    """The problem of a path given as ``value`` that is ``reason`` (:func:`refusal`)
    instead of a file (or folder)."""
    return f"'{value}' is {reason}, not a {'folder' if folder else 'file'}"


def load_edition(
    manifest_path: Path, root: Path, cache: dict[Path, tuple[Source | None, list[Problem]]]
) -> tuple[LoadedEdition | None, list[Problem]]:
    """Read an edition manifest and the files it names (each file read once per cache)."""

    def read(path: Path) -> tuple[Source | None, list[Problem]]:
        key = path.resolve()
        if key not in cache:
            cache[key] = load_yaml(path, display_path(path, root))
        return cache[key]

    if not inside(manifest_path, root):
        where = SourceRef(_shown(manifest_path.parent, root) + f"/{manifest_path.name}")
        return None, [Problem(where, "is outside the project folder; editions must stay inside it")]
    manifest, problems = read(manifest_path)
    if manifest is None:
        return None, problems
    if not isinstance(manifest.data, dict):
        return None, [Problem(manifest.ref(), "an edition manifest must be a mapping")]
    loaded = LoadedEdition(folder=manifest_path.parent, manifest=manifest, root=root)
    problems = _templates_problems(loaded.folder, root)
    # Each source's real path by its case-folded form, with the value that named it.
    named: dict[str, tuple[str, str]] = {}
    for group, table in (("decks", loaded.decks), ("components", loaded.components)):
        entries = manifest.data.get(group)
        if not isinstance(entries, list):
            continue
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict) or not isinstance(entry.get("source"), str):
                continue  # the schema reports it
            value = entry["source"]
            path = manifest_path.parent / value
            reason = OUTSIDE if Path(value).is_absolute() else refusal(path, root)
            cased = case_problem(value, path, root) if reason in (None, MISSING) else None
            real = str(path.resolve())
            twin, other = named.setdefault(real.casefold(), (real, value))
            if cased is None and reason is None and twin != real:
                cased = (
                    f"'{value}' and '{other}' differ only in case: on Windows and macOS they "
                    "are one file; rename one"
                )
            if cased is not None:
                problems.append(Problem(manifest.ref((group, index, "source")), cased))
                continue
            if reason is not None:
                if reason == OUTSIDE:
                    message = (
                        f"'{value}' is outside the project folder; sources must stay inside it"
                    )
                elif reason == MISSING:
                    message = f"'{value}' does not exist (looked for {display_path(path, root)})"
                else:
                    message = not_a_file(value, reason)
                problems.append(Problem(manifest.ref((group, index, "source")), message))
                continue
            source, found = read(path)
            problems.extend(found)
            if source is not None and isinstance(entry.get("id"), str):
                table[entry["id"]] = source
    return loaded, problems


def _shown(folder: Path, root: Path) -> str:
    """A folder's path as problems show it, without following a link out of the project."""
    return f"{display_path(folder.parent, root)}/{folder.name}"


def _templates_problems(folder: Path, root: Path) -> list[Problem]:
    """An edition's own templates folder, and every file in it (templates, and the fonts
    and pictures they name), must be inside the project and be regular files."""
    templates = folder / TEMPLATES_FOLDER
    try:
        templates.lstat()
    except OSError:
        return []
    shown = _shown(templates, root)
    reason = refusal(templates, root, folder=True)
    if reason == OUTSIDE:
        message = (
            "the templates folder is outside the project folder; templates must stay inside it"
        )
        return [Problem(SourceRef(shown), message)]
    if reason is not None:
        return [Problem(SourceRef(shown), not_a_file(TEMPLATES_FOLDER, reason, folder=True))]
    problems = []
    for path in sorted(templates.rglob("*")):
        reason = refusal(path, root)
        where = SourceRef(f"{shown}/{path.relative_to(templates).as_posix()}")
        if reason == OUTSIDE:
            message = "is outside the project folder; templates and their files must stay inside it"
            problems.append(Problem(where, message))
        elif reason not in (None, "a folder", MISSING):
            problems.append(Problem(where, f"is {reason}, not a file"))
    return problems


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
    """Edition manifests to build: all, or those named by id, folder or file (a deck's
    file beside an edition manifest names that edition)."""
    manifests = find_editions(project.decks)
    if not names:
        return manifests
    chosen = []
    for name in names:
        path = Path(name)
        if path.is_file():
            beside = path.parent / EDITION_FILE
            chosen.append(beside if path.name != EDITION_FILE and beside.is_file() else path)
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
