"""YAML loading: line and column of every problem, and hostile files refused."""

from __future__ import annotations

from pathlib import Path

from deckforge.sources.source import parse_yaml


def _load(text: bytes):
    return parse_yaml(text, Path("x.yaml"), "x.yaml")


def test_values_remember_their_line_and_column():
    source, problems = _load(b"kind: places\nplaces:\n  - id: a\n    name: Kitchen\n")
    assert not problems
    ref = source.ref(("places", 0, "name"))
    assert (ref.line, ref.column, ref.path) == (4, 11, "places[0].name")


def test_duplicate_keys_are_reported_with_both_lines():
    _, problems = _load(b"id: a\nname: x\nid: b\n")
    assert [p.format() for p in problems] == [
        "x.yaml:3:1: id: duplicate key 'id' (first defined at line 1); "
        "each key may appear only once"
    ]


def test_yes_and_no_stay_text():
    source, _ = _load(b"a: no\nb: yes\nc: true\n")
    assert source.data == {"a": "no", "b": "yes", "c": True}


def test_syntax_errors_have_a_place():
    _, problems = _load(b"a: [1, 2\nb: 3\n")
    assert problems[0].ref.line == 2 and "YAML syntax error" in problems[0].message


def test_tabs_are_a_syntax_error():
    _, problems = _load(b"a:\n\t- 1\n")
    assert problems[0].ref.line == 2


def test_empty_nul_and_non_utf8_files_are_refused():
    assert "empty" in _load(b"# nothing\n")[1][0].message
    assert "NUL" in _load(b"a: 1\x00\n")[1][0].message
    problem = _load(b"a: caf\xe9\n")[1][0]
    assert "UTF-8" in problem.message and (problem.ref.line, problem.ref.column) == (1, 7)


def test_byte_order_mark_is_accepted():
    source, problems = _load("\ufeffa: 1\n".encode())
    assert not problems and source.data == {"a": 1}


def test_alias_bombs_are_stopped():
    bomb = b"a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for level in range(1, 8):
        bomb += f"{chr(97 + level)}: &{chr(97 + level)} [".encode()
        bomb += b", ".join([f"*{chr(96 + level)}".encode()] * 10) + b"]\n"
    _, problems = _load(bomb)
    assert "more than" in problems[0].message


def test_characters_yaml_refuses_are_reported_at_their_place():
    _, problems = _load(b"a: 1\nb: x\x07y\n")
    assert [p.format() for p in problems] == [
        "x.yaml:2:5: the file contains the character U+0007, which YAML does not allow; remove it"
    ]
