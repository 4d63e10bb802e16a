"""Property-based fuzzing: mutated sources either build or fail with deckforge's own
problems, never with an unhandled exception.

``make test`` runs a bounded number of examples; ``make fuzz`` runs 10,000
(DECKFORGE_FUZZ_EXAMPLES sets the number).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckforge.cli import main

pytestmark = pytest.mark.slow  # hundreds of mutated sources built

DATA = Path(__file__).parent / "data" / "minimal"
FILES = ("places", "mess", "which-way", "spots", "edition")
EXAMPLES = int(os.environ.get("DECKFORGE_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("DECKFORGE_FUZZ_EXAMPLES"),
    suppress_health_check=[HealthCheck.too_slow],
)

texts = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True),
    texts,
    st.sampled_from(
        [
            "",
            "kitchen",
            "home",
            "1F373",
            "#FFFFFF",
            "poker",
            "left",
            "ﻻ",
            "\u202e",
            "\u200c",
            "art/x.png",
            "../x",
            "{distance}",
            "漢",
            "**bold",
            "*x* :sword: {icon:1F5E1}",
            ":nope:",
            "\\*",
        ]
    ),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)),
    max_leaves=8,
)


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, prefix + (index,))


def _mutate(data, path, action, value):
    if not path:
        return value if action == "replace" else data
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if action == "replace":
        parent[last] = value
    elif action == "delete":
        del parent[last]
    elif action == "insert" and isinstance(parent, list):
        parent.insert(last, value)
    elif action == "insert" and isinstance(parent, dict):
        parent[str(value)[:20]] = value
    return data


def _run(files: dict[str, bytes]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        decks = Path(tmp) / "decks"
        shutil.copytree(DATA, decks / "minimal")
        for name, raw in files.items():
            (decks / "minimal" / f"{name}.yaml").write_bytes(raw)
        return main(
            [
                "--decks",
                str(decks),
                "build",
                "--out",
                str(Path(tmp) / "build"),
                "--profile",
                "printer",
                "--quiet",
            ]
        )


@FUZZ
@given(
    file=st.sampled_from(FILES),
    data=st.data(),
    action=st.sampled_from(["replace", "delete", "insert"]),
    value=values,
)
def test_mutated_structure_never_crashes(file, data, action, value):
    source = yaml.safe_load((DATA / f"{file}.yaml").read_text(encoding="utf-8"))
    path = data.draw(st.sampled_from(list(_paths(source))))
    mutated = _mutate(source, path, action, value)
    raw = yaml.safe_dump(mutated, allow_unicode=True).encode("utf-8", "surrogatepass")
    assert _run({file: raw}) in (0, 1)


@FUZZ
@given(
    file=st.sampled_from(FILES),
    data=st.data(),
    insert=st.binary(max_size=12) | texts.map(lambda t: t.encode("utf-8")),
)
def test_mutated_bytes_never_crash(file, data, insert):
    raw = (DATA / f"{file}.yaml").read_bytes()
    at = data.draw(st.integers(0, len(raw)))
    cut = data.draw(st.integers(0, 8))
    assert _run({file: raw[:at] + insert + raw[at + cut :]}) in (0, 1)
