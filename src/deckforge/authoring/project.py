"""New projects (``deckforge init``) and editions copied in from deckforge's own.

A project is a folder with ``decks/`` (one folder per edition) and nothing else that
deckforge needs: the commands find ``decks/`` in the folder they run in, so there is no
project file. :func:`init_project` adds what makes editing comfortable: the schemas in
``schemas/``, where every source's ``# yaml-language-server: $schema=../../schemas/…``
line points; ``.vscode/settings.json``, which maps the usual file names to the same
schemas for files without that line; a ``.gitignore`` that keeps ``build/`` out; and a
README of the next steps.

A shipped edition is copied whole into one folder of ``decks/``: the files it shares
with another edition (the Persian Guess the Mess! reads the English one's decks) are
copied beside its manifest, and its manifest names them there.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from deckforge.errors import UsageError
from deckforge.sources import shipped
from deckforge.sources.load import EDITION_FILE

#: Where a project keeps the schemas its sources name.
SCHEMAS = "schemas"

_README = """\
# {title}

A card game project for [deckforge](https://pypi.org/project/deckforge/).

- `decks/{folder}/edition.yaml` names what is printed; its decks are the other files in
  `decks/{folder}/`. Each file starts with a line naming its schema, so an editor with
  YAML support (VS Code with Red Hat's YAML extension) checks it as you type.
- Check the sources (every problem with its file, line and column):
  `deckforge validate`
- Build the print-ready PDFs into `build/`: `deckforge build`
  (`--profile pnp-a4` for home printing only; `deckforge list` names every profile).
- Rebuild on every save: `deckforge watch`
- Start another edition from one of deckforge's games:
  `deckforge new edition NAME --from guess-the-mess-en` (or `guess-the-mess-fa`,
  `gomaneh-fa`)

`schemas/` holds the schemas of the deckforge that made this project: `deckforge init`
run here again brings them up to date and leaves everything else as it is.
"""


@dataclass
class Copied:
    """A shipped edition read as the base of a new one: the files it names are copied
    beside the new manifest (:attr:`copies`, by their path from there)."""

    edition: shipped.Shipped
    copies: dict[str, str] = field(default_factory=dict)

    def read(self, source: str) -> str:
        """A file the edition's manifest names (or the manifest)."""
        return shipped.read(self._inside(source)).decode("utf-8")

    def place(self, source: str) -> str:
        """Where the new edition finds a file of the base: copied beside its manifest."""
        names = flat_names(shipped.files_of(self.edition), self.edition.folder)
        name = names[self._inside(source)]
        self.copies[name] = self.read(source)
        return name

    def _inside(self, source: str) -> str:
        return posixpath.normpath(f"{self.edition.folder}/{source}")

    def keep_templates(self) -> None:
        """Copy the edition's own templates too (a board's, drawn from them)."""
        home = f"{self.edition.folder}/"
        for path in shipped.files_of(self.edition):
            if path.startswith(f"{home}templates/"):
                self.copies[path.removeprefix(home)] = shipped.read(path).decode("utf-8")


@dataclass
class Linked:
    """An edition of the project read as the base of a new one: the new edition names
    its files where they are."""

    folder: Path
    new_folder: Path
    copies: dict[str, str] = field(default_factory=dict)

    def read(self, source: str) -> str | None:
        """A file the edition's manifest names (None if it cannot be read)."""
        try:
            return (self.folder / source).read_text(encoding="utf-8")
        except OSError:
            return None

    def place(self, source: str) -> str:
        """The path from the new edition's folder to the base's file (links kept as
        they are: ``../guess-the-mess/mess.yaml``, not where a link leads)."""
        target = os.path.normpath(os.path.abspath(self.folder / source))
        return Path(os.path.relpath(target, os.path.abspath(self.new_folder))).as_posix()

    def keep_templates(self) -> None:
        """Nothing to copy: the base's files, its templates beside them, stay where they are."""


def flat_names(paths: list[str], home: str) -> dict[str, str]:
    """The name each file of a shipped edition gets in a copy of it in one folder: its
    path from the edition's own folder (``home``), or, for a file of another edition,
    its file name (prefixed with that edition's folder if the name is taken)."""
    names: dict[str, str] = {}
    taken = {p.removeprefix(f"{home}/") for p in paths if p.startswith(f"{home}/")}
    for path in paths:
        if path.startswith(f"{home}/"):
            names[path] = path.removeprefix(f"{home}/")
            continue
        name = posixpath.basename(path)
        if name in taken:
            name = f"{posixpath.dirname(path).replace('/', '-')}-{name}"
        taken.add(name)
        names[path] = name
    return names


def copy_shipped(edition: shipped.Shipped, folder: Path) -> list[Path]:
    """Copy a shipped edition whole into ``folder`` (which must not exist yet); returns
    the files written."""
    paths = shipped.files_of(edition)
    names = flat_names(paths, edition.folder)
    manifest = shipped.read(paths[0]).decode("utf-8")
    data = shipped.manifest_of(edition)
    for entry in [*data.get("decks", []), *data.get("components", [])]:
        old = entry["source"]
        new = names[posixpath.normpath(f"{edition.folder}/{old}")]
        if new != old:
            manifest = re.sub(rf"(source:\s*){re.escape(old)}\b", rf"\g<1>{new}", manifest)
    written = []
    for path in paths:
        target = folder / names[path]
        target.parent.mkdir(parents=True, exist_ok=True)
        if path == paths[0]:
            target.write_text(manifest, encoding="utf-8")
        else:
            target.write_bytes(shipped.read(path))
        written.append(target)
    return written


def editor_settings(schema_names: list[str]) -> dict:
    """VS Code's settings for Red Hat's YAML extension: each schema for the file names
    the shipped editions give that kind of source (a source's own ``$schema`` line wins)."""
    patterns: dict[str, set[str]] = {
        "edition": {f"decks/*/{EDITION_FILE}"},
        "template": {"decks/*/templates/*.yaml"},
    }
    for edition in shipped.editions().values():
        data = shipped.manifest_of(edition)
        for entry in [*data.get("decks", []), *data.get("components", [])]:
            path = posixpath.normpath(f"{edition.folder}/{entry['source']}")
            kind = yaml.safe_load(shipped.read(path)).get("kind")
            if kind in schema_names:
                patterns.setdefault(kind, set()).add(f"decks/*/{posixpath.basename(path)}")
    mapping = {f"./{SCHEMAS}/{k}.schema.json": sorted(v) for k, v in sorted(patterns.items())}
    return {"yaml.schemas": mapping}


def choose(ask: Callable[[str], str] | None = None) -> str:
    """Which shipped edition to start from, asked on the terminal (the example unless
    the answer names another)."""
    ask = ask or input
    choices = list(shipped.editions().values())
    print("Start from which edition?")
    for number, edition in enumerate(choices, 1):
        print(f"  {number}. {edition.id}: {edition.title} ({edition.locale})")
    while True:
        answer = ask(f"number or name [1, {choices[0].id}]: ").strip()
        if not answer:
            return choices[0].id
        if answer.isdigit() and 1 <= int(answer) <= len(choices):
            return choices[int(answer) - 1].id
        if shipped.find(answer) is not None:
            return shipped.find(answer).id  # type: ignore[union-attr]
        print(f"  '{answer}' is none of them", file=sys.stderr)


def init_project(folder: Path, base: str | None) -> tuple[list[Path], shipped.Shipped | None]:
    """Make ``folder`` a project (creating it if needed): a starting edition copied from
    the shipped edition ``base`` (none when ``decks/`` already holds editions and no
    base is asked for), the schemas (always brought up to date), and the editor
    settings, ``.gitignore`` and README where there are none yet. Returns the files
    written and the edition started from."""
    from deckforge.sources.schema import schema_names

    decks = folder / "decks"
    has_editions = decks.is_dir() and any(decks.glob(f"*/{EDITION_FILE}"))
    edition = None
    if base is not None or not has_editions:
        edition = shipped.find(base or shipped.EXAMPLE)
        if edition is None:
            known = ", ".join(shipped.editions())
            raise UsageError(f"no shipped edition named '{base}' (known: {known})")
        if (decks / edition.folder).exists():
            raise UsageError(f"{decks / edition.folder} already exists; nothing was changed")
    written: list[Path] = []
    if edition is not None:
        written += copy_shipped(edition, decks / edition.folder)
    names = list(schema_names())
    written += _write_schemas(folder / SCHEMAS, names)
    settings = json.dumps(editor_settings(names), indent=2) + "\n"
    written += _write_new(folder / ".vscode" / "settings.json", settings)
    written += _gitignore(folder / ".gitignore")
    if edition is not None:
        readme = _README.format(title=edition.title, folder=edition.folder)
        written += _write_new(folder / "README.md", readme)
    return written, edition


def _write_schemas(target: Path, names: list[str]) -> list[Path]:
    from deckforge.sources.schema import schema_text

    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names:
        path = target / f"{name}.schema.json"
        text = schema_text(name)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def _write_new(path: Path, text: str) -> list[Path]:
    """Write a file that is not there yet (one that is, the user's, is left alone)."""
    if path.exists():
        return []
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return [path]


def _gitignore(path: Path) -> list[Path]:
    """A ``.gitignore`` with ``build/``, or ``build/`` added to the one there."""
    if not path.exists():
        return _write_new(path, "# deckforge's outputs: made again by 'deckforge build'\nbuild/\n")
    lines = path.read_text(encoding="utf-8").splitlines()
    if any(line.strip() in ("build", "build/", "/build", "/build/") for line in lines):
        return []
    with path.open("a", encoding="utf-8") as handle:
        handle.write(("\n" if lines and lines[-1] else "") + "build/\n")
    return [path]
