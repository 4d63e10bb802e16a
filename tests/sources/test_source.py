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


def test_a_deck_of_100000_cards_is_read_whole_with_its_places():
    lines = ["kind: places", "places:"]
    lines += [f"  - {{id: place-{n}, name: 'Place {n}', category: home}}" for n in range(100_000)]
    source, problems = _load(("\n".join(lines) + "\n").encode())
    assert not problems and len(source.data["places"]) == 100_000
    ref = source.ref(("places", 99_999, "name"))
    assert (ref.line, ref.column, ref.path) == (100_002, 29, "places[99999].name")
    assert source.ref(("places", 99_999, "name"), key=True).column == 23


def test_an_alias_bomb_is_named_at_the_alias_that_multiplies():
    bomb = b"a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for level in range(1, 8):
        bomb += f"{chr(97 + level)}: &{chr(97 + level)} [".encode()
        bomb += b", ".join([f"*{chr(96 + level)}".encode()] * 10) + b"]\n"
    _, problems = _load(bomb)
    (problem,) = problems
    assert problem.message.startswith("aliases here expand to more than 100,000 values")
    assert (problem.ref.line, problem.ref.path) == (5, "e[7]")


def test_aliases_may_add_as_many_values_as_the_file_has_bytes():
    entries = "".join(f"  - {{id: p{n}, <<: *shared}}\n" for n in range(40_000))
    text = "shared: &shared {name: A, category: home, colour: red}\nplaces:\n" + entries
    source, problems = _load(text.encode())
    assert not problems and source.data["places"][-1]["category"] == "home"


def test_merged_keys_give_way_to_the_mapping_s_own():
    source, problems = _load(b"base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\n")
    assert not problems and source.data["c"] == {"y": 3, "x": 1}
    assert source.ref(("c", "x")).line == 1 and source.ref(("c", "y")).line == 4


def test_an_alias_inside_the_value_it_names_is_refused():
    _, problems = _load(b"a: &x [1, *x]\n")
    assert [p.format() for p in problems] == [
        "x.yaml:1:11: the alias '*x' is used inside the value it names"
    ]


def test_a_date_that_does_not_exist_is_a_problem_not_a_crash():
    _, problems = _load(b"a: 2024-13-45\n")
    assert [p.format() for p in problems] == [
        "x.yaml:1:4: a: '2024-13-45' cannot be read: month must be in 1..12"
    ]


def test_places_of_missing_and_nested_values():
    source, _ = _load(b"a:\n  - {b: 1}\n  - c\n")
    assert source.ref(("a", 0, "missing")).line == 2  # the nearest enclosing value
    assert (source.ref(("a", 1)).line, source.ref(("a", 1)).column) == (3, 5)
    assert source.ref(("a",), key=True).column == 1


def test_each_item_s_place_is_its_own_place():
    # Texts given per language, merged keys, aliases, a key an item lacks, a list that is
    # not there: each item's place found along the list is the one found alone.
    text = (
        b"base: &b {name: Shared, id: x}\n"
        b"places:\n"
        b"  - {id: a, name: Kitchen}\n"
        b"  - id: b\n    name: {en: Garden, fa: \xd8\xa8\xd8\xa7\xd8\xba}\n"
        b"  - {<<: *b, id: c}\n"
        b"  - *b\n"
        b"  - {id: e}\n"
        b"  - plain\n"
    )
    source, problems = _load(text)
    assert not problems
    for path in [("places",), ("missing",), ("base",), ()]:
        items = source.data.get(path[0], []) if path else []
        count = len(items) if isinstance(items, list) else 0
        for inner in ([("name",)] * count, [("name", "en")] * count, [()] * count):
            expected = [source.ref((*path, i, *rest)) for i, rest in enumerate(inner)]
            assert source.each_ref(path, inner) == expected
    inner = [("name",), ("name", "fa"), ("name",), ("name",), ("name",), ("x",)]
    refs = source.each_ref(("places",), inner)
    assert refs == [source.ref(("places", i, *rest)) for i, rest in enumerate(inner)]
    assert [(r.line, r.column, r.path) for r in refs[:2]] == [
        (3, 19, "places[0].name"),
        (5, 28, "places[1].name.fa"),
    ]


def test_hidden_characters_written_as_escapes_in_an_ascii_file_are_found():
    from deckforge.sources.rules import hidden_characters

    plain, _ = _load(b"a: plain\nb: [tab\tinside]\n")
    assert plain.printable and not list(hidden_characters(plain))
    for escaped, code in ((b'"x\\u202ey"', "U+202E"), (b'"x\\ay"', "U+0007")):
        source, problems = _load(b"a: ok\nb: " + escaped + b"\n")
        assert not problems and not source.printable
        assert [(p.ref.line, p.ref.column) for p in hidden_characters(source)] == [(2, 4)]
        assert code in next(hidden_characters(source)).message
