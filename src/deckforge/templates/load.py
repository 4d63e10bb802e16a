"""Finding, reading and merging template files.

A template named ``place`` is the file ``place.yaml`` in the first folder that has one:
the edition's own ``templates/`` folder, then the templates shipped in deckforge
(``deckforge/templates/shipped/``). Each file is read with the project's YAML loader and
checked by ``template.schema.json``, so every problem has its file, line and column.

``extends: other`` starts from another template and changes it: keys of the template
(``size``, ``bleed``…) replace the other's, ``colours``, ``sizes`` and ``maps`` add to or
replace its by name, a style or an element of the same name is changed key by key (a group's
children too), and new elements go at the end, or ``before``/``after`` a named one;
``remove: true`` drops an element. A template that extends its own name extends the one
it hides: an edition's ``place.yaml`` can say ``extends: place`` and change one colour.
A chain of ``extends`` is at most :data:`MAX_EXTENDS` templates deep.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from deckforge.errors import Problem, SourceRef, display_path
from deckforge.fsutil import inside
from deckforge.sources.load import TEMPLATES_FOLDER
from deckforge.sources.source import Source, load_yaml
from deckforge.templates.spec import Origin, Spec

#: deckforge's own templates.
SHIPPED = Path(__file__).parent / "shipped"
#: The folder of an edition that holds its templates.
EDITION_FOLDER = TEMPLATES_FOLDER
#: How many templates one may extend one after another (a extends b extends c…).
MAX_EXTENDS = 32
#: What a template's name is (the schemas say the same of ``extends``, ``face`` and
#: ``back``): never a path, so no name leads out of its folder.
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
#: What a name that is not one is told.
NAME_RULE = "use letters, digits, '-' and '_', starting with a letter"
#: Keys of a template that a template extending it replaces.
SETTINGS: tuple[str, ...] = ("description", "size", "width", "height", "orientation", "shape")
SETTINGS += ("bleed", "safe", "mirror")


@dataclass(frozen=True, eq=False)
class Layer:
    """A folder of templates, and the folder the paths its files name must stay in."""

    folder: Path
    root: Path

    def display(self, path: Path) -> str:
        """A file's name as problems show it."""
        if _real(self.folder) == _real(SHIPPED):
            return f"deckforge/templates/shipped/{path.name}"
        return display_path(path, self.root)


@dataclass(eq=False)
class Template:
    """A template after ``extends``: settings, colours, sizes, styles and elements, each
    value with where it was written."""

    name: str
    settings: dict[str, tuple[object, Origin]] = field(default_factory=dict)
    colours: dict[str, tuple[object, Origin]] = field(default_factory=dict)
    sizes: dict[str, tuple[object, Origin]] = field(default_factory=dict)
    styles: dict[str, Spec] = field(default_factory=dict)
    elements: list[Spec] = field(default_factory=list)
    #: The files it was read from, the template's own first.
    files: list[Path] = field(default_factory=list)
    ref: SourceRef = SourceRef("")
    #: Tables that expressions look values up in: ``{suit|map(suits)}``.
    maps: dict[str, tuple[object, Origin]] = field(default_factory=dict)

    def copy(self, name: str) -> Template:
        """A copy under another name, to be changed by a template extending this one."""
        return Template(
            name,
            dict(self.settings),
            dict(self.colours),
            dict(self.sizes),
            {key: style.copy() for key, style in self.styles.items()},
            [element.copy() for element in self.elements],
            list(self.files),
            self.ref,
            dict(self.maps),
        )


@lru_cache(maxsize=1024)
def _real(path: Path) -> Path:
    """A path with its links resolved (asked for every template every deck reads)."""
    return path.resolve()


def _source_cache_key(path: Path) -> tuple:
    stat = path.stat()
    return (str(_real(path)), stat.st_mtime_ns, stat.st_size)


#: Files read in this process (a template is read once however many decks use it).
_READ: dict[tuple, tuple[Source | None, list[Problem]]] = {}


def read(path: Path, display: str) -> tuple[Source | None, list[Problem]]:
    """One template file, read and checked against the schema."""
    from deckforge.sources.rules import hidden_characters
    from deckforge.sources.schema import schema_problems

    try:
        # The name problems give is part of what is kept: the same file read under another
        # name would otherwise report at the first one's.
        key = (*_source_cache_key(path), display)
    except OSError:
        key = None
    if key is not None and key in _READ:
        return _READ[key]
    source, problems = load_yaml(path, display)
    if source is not None:
        if not isinstance(source.data, dict) or source.data.get("kind") != "template":
            problems = [Problem(source.ref(), "a template file starts with 'kind: template'")]
        elif _real(path).parent != _real(SHIPPED):
            # deckforge's own templates are checked by its tests, not on every build.
            found = schema_problems(source, "template", quick=False)
            problems = [*found, *hidden_characters(source)]
        if problems:
            source = None
    if key is not None:
        _READ[key] = (source, problems)
    return source, problems


class Library:
    """The templates an edition can use: its own folder first, then deckforge's."""

    def __init__(self, layers: list[Layer]):
        self.layers = layers
        self.resolved: dict[tuple[str, int], tuple[Template | None, list[Problem]]] = {}

    @classmethod
    def for_edition(cls, edition_folder: Path | None, root: Path | None) -> Library:
        """The templates of an edition in ``edition_folder``, inside the project ``root``."""
        layers = []
        if edition_folder is not None:
            own = edition_folder / EDITION_FOLDER
            if own.is_dir():
                layers.append(Layer(own, root or edition_folder))
        # deckforge's own templates may name files anywhere in its package folder.
        layers.append(Layer(SHIPPED, SHIPPED.resolve().parents[1]))
        return cls(layers)

    def find(self, name: str, start: int = 0) -> tuple[Path, int] | None:
        """The file of a template, and the index of its layer, looking from ``start``;
        only a name (:data:`NAME`) is looked for, never a path."""
        if not NAME.fullmatch(name):
            return None
        for index in range(start, len(self.layers)):
            candidate = self.layers[index].folder / f"{name}.yaml"
            if candidate.is_file():
                return candidate, index
        return None

    def names(self) -> list[str]:
        """Every template's name, each once."""
        return sorted({p.stem for layer in self.layers for p in layer.folder.glob("*.yaml")})

    def get(self, name: str, ref: SourceRef | None = None) -> tuple[Template | None, list[Problem]]:
        """A template by name, after ``extends``, or the problems that stop it."""
        return self._resolve(name, 0, ref, [])

    def _resolve(
        self, name: str, start: int, ref: SourceRef | None, chain: list[str]
    ) -> tuple[Template | None, list[Problem]]:
        if not NAME.fullmatch(name):
            where = ref or SourceRef(f"{EDITION_FOLDER}/")
            return None, [Problem(where, f"'{name}' is not a template name: {NAME_RULE}")]
        found = self.find(name, start)
        if found is None:
            where = ref or SourceRef(f"{EDITION_FOLDER}/{name}.yaml")
            known = ", ".join(self.names())
            return None, [Problem(where, f"no template named '{name}' (known: {known})")]
        path, index = found
        key = (name, index)
        if key in self.resolved:
            return self.resolved[key]
        layer = self.layers[index]
        if not inside(path, layer.root):
            # A template that leads out of the project (or deckforge's own folder) through
            # a link: loading the edition reports it, and nothing outside is read.
            where = SourceRef(layer.display(path))
            return None, [Problem(where, "the template is outside the project folder")]
        label = f"{name} ({layer.display(path)})"
        if label in chain:
            cycle = " → ".join([*chain[chain.index(label) :], label])
            return None, [Problem(ref or SourceRef(layer.display(path)), f"extends loops: {cycle}")]
        if len(chain) > MAX_EXTENDS:
            # Each template is read, and the chain followed, only this far (no deeper
            # than Python's own limit on calls within calls).
            return None, [Problem(ref or SourceRef(layer.display(path)), _too_deep(chain, path))]
        source, problems = read(path, layer.display(path))
        if source is None:
            return None, problems
        result = self._build(name, source, layer, index, [*chain, label])
        self.resolved[key] = result
        return result

    def _build(
        self, name: str, source: Source, layer: Layer, index: int, chain: list[str]
    ) -> tuple[Template | None, list[Problem]]:
        data = source.data
        origin = Origin(source.ref(), source.path.parent, layer.root)

        def at(*path: str | int) -> Origin:
            return Origin(source.ref(path), source.path.parent, layer.root)

        if "extends" in data:
            parent_name = data["extends"]
            start = index + 1 if parent_name == name else 0
            parent, problems = self._resolve(parent_name, start, source.ref(("extends",)), chain)
            if parent is None:
                return None, problems
            template = parent.copy(name)
        else:
            template = Template(name)
        template.ref = origin.ref
        template.files.insert(0, source.path)
        for key in SETTINGS:
            if key in data:
                if key == "size":
                    template.settings.pop("width", None)
                    template.settings.pop("height", None)
                elif key in ("width", "height"):
                    template.settings.pop("size", None)
                template.settings[key] = (data[key], at(key))
        for group in ("colours", "sizes", "maps"):
            table = getattr(template, group)
            for key, value in data.get(group, {}).items():
                table[key] = (value, at(group, key))
        for key, style in data.get("styles", {}).items():
            spec = _spec(source, ("styles", key), style, layer)
            spec.data.setdefault("name", key)
            if key in template.styles:
                _merge(template.styles[key], spec)
            else:
                template.styles[key] = spec
        problems = []
        _merge_list(
            template.elements, data.get("elements", []), source, ("elements",), layer, problems
        )
        return (None, problems) if problems else (template, [])


def _too_deep(chain: list[str], path: Path) -> str:
    """What a chain of ``extends`` too long says: its first templates' files and its last."""
    files = [label[label.index("(") + 1 : -1].rsplit("/", 1)[-1] for label in chain]
    shown = [*files[:3], "…", files[-1], path.name] if len(files) > 4 else [*files, path.name]
    return f"{' extends '.join(shown)} (more than {MAX_EXTENDS} levels)"


def _spec(source: Source, path: tuple, data: dict, layer: Layer) -> Spec:
    origins = {
        key: Origin(source.ref((*path, key)), source.path.parent, layer.root) for key in data
    }
    for key, value in data.items():
        if key != "elements":  # a group's elements are specs of their own
            for inner, ref in _within(source, (*path, key), value):
                origins[f"{key}.{inner}"] = Origin(ref, source.path.parent, layer.root)
    origin = Origin(source.ref(path), source.path.parent, layer.root)
    values = {k: v for k, v in data.items() if k != "elements"}
    keys = {key: source.ref((*path, key), key=True) for key in data}
    return Spec(values, origins, origin, key_refs=keys)


def _within(
    source: Source, path: tuple, value: Any, depth: int = 3
) -> Iterator[tuple[str, SourceRef]]:
    """Where each value inside a mapping or list was written (a gradient's stops), by
    its path below ``path`` written with dots: ``stops.1.colour``."""
    if depth == 0:
        return
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return
    for key, inner in items:
        yield str(key), source.ref((*path, key))
        for below, ref in _within(source, (*path, key), inner, depth - 1):
            yield f"{key}.{below}", ref


def _merge(base: Spec, change: Spec) -> None:
    base.data.update(change.data)
    base.origins.update(change.origins)
    base.key_refs.update(change.key_refs)


def _merge_list(
    elements: list[Spec],
    written: list[dict],
    source: Source,
    path: tuple,
    layer: Layer,
    problems: list[Problem],
) -> None:
    """Elements of a template (or a group's children) merged into what it extends."""
    mine: dict[str, int] = {}
    for index, data in enumerate(written):
        here = (*path, index)
        spec = _spec(source, here, data, layer)
        if spec.name in mine:
            problems.append(
                Problem(
                    spec.at("name"),
                    f"two elements are named '{spec.name}' (also at line {mine[spec.name]})",
                )
            )
            continue
        mine[spec.name] = spec.at("name").line
        by_name = {e.name: e for e in elements}
        existing = by_name.get(spec.name)
        if existing is not None and data.get("remove"):
            elements.remove(existing)
            continue
        if existing is not None:
            for key in ("before", "after"):
                spec.data.pop(key, None)
            _merge(existing, spec)
            target = existing
        else:
            if data.get("remove"):
                problems.append(Problem(spec.at("remove"), f"no element '{spec.name}' to remove"))
                continue
            target = spec
            position = len(elements)
            for key, shift in (("before", 0), ("after", 1)):
                other = data.get(key)
                if other is None:
                    continue
                if other not in by_name:
                    problems.append(Problem(spec.at(key), f"no element '{other}' to put it {key}"))
                else:
                    position = elements.index(by_name[other]) + shift
                spec.data.pop(key)
            elements.insert(position, spec)
        if "elements" in data:
            inner = (*here, "elements")
            _merge_list(target.children, data["elements"], source, inner, layer, problems)
