"""The compiled schema check (fastjsonschema) passes exactly the sources jsonschema passes.

Sources are checked by the compiled schemas first and by jsonschema only when they
fail, so a source the compiled check wrongly passed would go unchecked. Every shipped
source is mutated value by value, key by key, and both validators must agree on every
mutation.
"""

from __future__ import annotations

import copy
import math
from pathlib import Path

import fastjsonschema
import pytest

from deckforge.sources.schema import quick_check, schema_names, validator
from deckforge.sources.source import load_yaml

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    [p for p in (ROOT / "decks").rglob("*.yaml")]
    + list((ROOT / "src" / "deckforge" / "profiles").glob("*.yaml"))
    + list((ROOT / "src" / "deckforge" / "templates" / "shipped").glob("*.yaml"))
    + list((Path(__file__).resolve().parents[1] / "data" / "minimal").rglob("*.yaml"))
)

#: Values put in place of every value: every JSON type, edges of the usual constraints.
REPLACEMENTS = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2.0,
    2.5,
    10**9,
    math.inf,
    math.nan,
    "",
    "x",
    "x" * 400,
    "Two words",
    "#12345",
    "#GGGGGG",
    "1F600",
    "picture.gif",
    [],
    [1],
    ["x", "x"],
    {},
    {"en": "x"},
    {"xx": 1},
]


def _kind(data: object, path: Path) -> str | None:
    if isinstance(data, dict) and data.get("kind") in schema_names():
        return data["kind"]
    if path.parent.name == "profiles":
        return "profile"
    return None


def _shortened(data: object) -> object:
    """The source with each list cut to its first two items and its last."""
    if isinstance(data, dict):
        return {key: _shortened(value) for key, value in data.items()}
    if isinstance(data, list):
        kept = data if len(data) <= 3 else [*data[:2], data[-1]]
        return [_shortened(item) for item in kept]
    return data


def _paths(data: object, prefix: tuple = ()) -> list[tuple]:
    """Every value's path."""
    found = [prefix] if prefix else []
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*prefix, index))
    return found


def _set(data: object, path: tuple, value: object) -> object:
    data = copy.deepcopy(data)
    target = data
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return data


def _delete(data: object, path: tuple) -> object:
    data = copy.deepcopy(data)
    target = data
    for part in path[:-1]:
        target = target[part]
    del target[path[-1]]
    return data


def _mutations(data: object) -> list[object]:
    out = []
    for path in _paths(data):
        out += [_set(data, path, value) for value in REPLACEMENTS]
        out.append(_delete(data, path))
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        if isinstance(parent, dict):
            out.append(_set(data, (*path[:-1], "unknown_key"), "x"))
    return out


def _agree(kind: str, data: object) -> tuple[bool, bool]:
    try:
        quick_check(kind)(data)
        quick = True
    except fastjsonschema.JsonSchemaException:
        quick = False
    full = next(iter(validator(kind).iter_errors(data)), None) is None
    return quick, full


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_compiled_check_agrees_with_jsonschema(path: Path) -> None:
    source, problems = load_yaml(path, path.name)
    assert source is not None, problems
    kind = _kind(source.data, path)
    assert kind is not None, f"{path} has no kind"
    assert _agree(kind, source.data) == (True, True)
    disagreements = []
    mutations = _mutations(_shortened(source.data))
    assert len(mutations) > 20
    for mutated in mutations:
        quick, full = _agree(kind, mutated)
        if quick != full:
            disagreements.append((quick, full, mutated))
    assert not disagreements, f"{len(disagreements)} of {len(mutations)}: {disagreements[0]}"
