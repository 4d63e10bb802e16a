"""Fuzzing the template expression language: any text, and any expression made of its
parts, is read and evaluated without an exception but its own error, in bounded time.

``make test`` runs a bounded number of examples; ``make fuzz`` runs 10,000
(DECKFORGE_FUZZ_EXAMPLES sets the number).
"""

from __future__ import annotations

import time

from hypothesis import given
from hypothesis import strategies as st

from deckforge.templates import computed, expr, exprparse
from deckforge.templates.bind import BindError
from test_fuzz import FUZZ

#: The most processor time one expression may take to read and evaluate (it holds no
#: loop; processor time, as the machine may be busy with other work).
LIMIT_S = 1.0
MAPS = {"suits": {"Spades": "♠", "1": "A"}, "empty": {}}
FIELDS = {
    "rank": "11",
    "suit": "Spades",
    "a": "",
    "b": "abc",
    "n": 3.5,
    "big": "1e308",
    "z": "0",
    "yes": True,
}

names = st.sampled_from([*FIELDS, "missing", "a.b", "deck.id"])
atoms = st.one_of(
    names,
    st.integers(0, 10**6).map(str),
    st.sampled_from(["1.5", "'x'", '"Spades"', "true", "false", "[]", "[Hearts, 1, 'a b']"]),
)
filters = st.sampled_from(
    ["map(suits)", "map(empty)", "default(0)", "default('?')", "upper", "lower", "round"]
    + ["digits", "map(nope)", "bogus", "map(", "default()"]
)


def _expression(children):
    return st.one_of(
        st.tuples(
            children, st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "in", "not in"]), children
        ).map(" ".join),
        st.tuples(children, st.sampled_from(["+", "-", "*", "/", "%", "and", "or"]), children).map(
            " ".join
        ),
        children.map(lambda c: f"not {c}"),
        children.map(lambda c: f"-{c}"),
        children.map(lambda c: f"({c})"),
        st.tuples(children, filters).map(lambda t: f"{t[0]}|{t[1]}"),
        st.lists(children, max_size=4).map(lambda items: "[" + ", ".join(items) + "]"),
    )


expressions = st.recursive(atoms, _expression, max_leaves=40)
alphabet = st.sampled_from(list("ab1 ()[]|,.'\"<>=!+-*/%_") + ["and", "or", "not", "in", "map"])
hostile = st.one_of(
    st.text(max_size=120),
    st.lists(alphabet, max_size=200).map("".join),
    st.integers(1, 700).map(lambda n: "(" * n + "1" + ")" * n),
    st.integers(1, 700).map(lambda n: "not " * n + "a"),
    st.integers(1, 400).map(lambda n: " + ".join(["rank"] * n)),
)


def _read(path: tuple[str, ...]) -> object:
    return FIELDS.get(".".join(path))


def _try(source: str) -> None:
    start = time.process_time()
    try:
        node = computed.compiled(source, 0, source, MAPS)
        assert sum(1 for _ in expr.walk(node)) <= expr.MAX_LENGTH
        value = node.evaluate(_read)
        expr.text(value)
        expr.truthy(value)
    except (computed.Failure, expr.ExprError):
        pass
    assert time.process_time() - start < LIMIT_S


@FUZZ
@given(expressions)
def test_expressions_made_of_the_languages_parts_evaluate_or_fail_with_its_errors(source):
    _try(source)


@FUZZ
@given(hostile)
def test_any_text_is_read_or_refused_with_the_languages_errors(source):
    _try(source)
    try:
        exprparse.tokens(source)
    except expr.ExprError as exc:
        assert 0 <= exc.position <= len(source)


@FUZZ
@given(st.text(max_size=80), expressions)
def test_any_binding_text_is_a_pattern_or_a_problem(prefix, source):
    text = f"{prefix}{{{source}}}"
    try:
        computed.pattern(text, MAPS)
    except (computed.Failure, BindError):
        pass
    for key in ("text", "when"):
        assert all(isinstance(r, str) for r in computed.readings(key, text))
