"""What template authors look up: the templates an edition can use, and one template as
its cards are drawn from it, after ``extends`` and the edition's own files.

``deckforge templates list`` and ``deckforge templates show NAME`` print these.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from deckforge.errors import Problem
from deckforge.templates.computed import readings
from deckforge.templates.load import Library, Template
from deckforge.templates.spec import Spec
from deckforge.templates.trim import trim_of


@dataclass(frozen=True)
class Listed:
    """A template as listed: its name, the file it is read from, what it draws, and the
    file it hides (an edition's own template of a shipped template's name)."""

    name: str
    file: str
    description: str
    hides: str | None


def listing(library: Library) -> list[Listed]:
    """Every template the library holds, by name."""
    found = []
    for name in library.names():
        where = library.find(name)
        assert where is not None, "the library holds every template it names"
        path, index = where
        layer = library.layers[index]
        hidden = library.find(name, index + 1)
        hides = library.layers[hidden[1]].display(hidden[0]) if hidden else None
        template, _ = library.get(name)
        description = ""
        if template is not None and "description" in template.settings:
            description = str(template.settings["description"][0])
        found.append(Listed(name, layer.display(path), description, hides))
    return found


def _spec_data(spec: Spec) -> dict:
    data = dict(spec.data)
    if spec.children:
        data["elements"] = [_spec_data(child) for child in spec.children]
    return data


def resolved(template: Template) -> dict:
    """A template as plain data, as it is drawn: every key it has after ``extends``."""
    data: dict = {"kind": "template"}
    data.update({key: value for key, (value, _) in template.settings.items()})
    for group in ("colours", "sizes", "maps"):
        table = getattr(template, group)
        if table:
            data[group] = {key: value for key, (value, _) in table.items()}
    if template.styles:
        styles = {}
        for key, style in template.styles.items():
            values = dict(style.data)
            if values.get("name") == key:
                del values["name"]
            styles[key] = values
        data["styles"] = styles
    data["elements"] = [_spec_data(element) for element in template.elements]
    return data


def show(library: Library, name: str) -> tuple[str | None, list[Problem]]:
    """A template as YAML after ``extends`` and overrides, each element with the place
    it was last changed at and how its expressions are read, or the problems that stop
    it."""
    template, problems = library.get(name)
    if template is None:
        return None, problems
    data = resolved(template)
    elements = data.pop("elements")
    chain = " ← ".join(_display(library, path) for path in template.files)
    trim = trim_of(template)
    lines = [f"# {name}: read from {chain}"]
    lines.append(f"# cards print at {trim.shown()}, unless a deck gives its own size")
    lines.append("")
    lines.append(_dump(data).rstrip())
    lines.append("elements:")
    for element, spec in zip(elements, template.elements, strict=True):
        lines.append(f"  # {_latest(spec)}")
        lines.extend(_readings(spec))
        dumped = _dump([element]).rstrip().splitlines()
        lines.extend(f"  {line}" for line in dumped)
    return "\n".join(lines) + "\n", []


def _readings(spec: Spec) -> list[str]:
    """Comments saying how the element's expressions are read (a group's children's too)."""
    out: list[str] = []
    for key, value in spec.data.items():
        out.extend(f"  # {spec.name}.{key} reads: {r}" for r in readings(key, value))
    for child in spec.children:
        out.extend(_readings(child))
    return out


def _dump(value: object) -> str:
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=88)


def _display(library: Library, path: Path) -> str:
    for layer in library.layers:
        if path.parent.resolve() == layer.folder.resolve():
            return layer.display(path)
    return path.name


def _latest(spec: Spec) -> str:
    """Where an element was written, and where templates extending its own changed it."""
    first = spec.origin.ref
    changed: dict[str, int] = {}
    for origin in spec.origins.values():
        ref = origin.ref
        if ref.file != first.file:
            changed[ref.file] = min(changed.get(ref.file, ref.line or 0), ref.line or 0)
    where = first.where
    if changed:
        where += "; changed at " + ", ".join(f"{f}:{line}" for f, line in changed.items())
    return where
