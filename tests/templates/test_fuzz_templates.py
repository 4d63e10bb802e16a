"""Property-based fuzzing of card templates: shipped templates mutated value by value, and
random trees of elements, each read as an edition's own template (checked by the
template schema), compiled, and a few cards drawn from it and written to a PDF. Whatever
the template, the answer is deckforge's own: problems at their places, or cards whose
every number is finite; never an unhandled exception.

``make test`` runs a bounded number of examples; ``make fuzz`` runs 10,000
(DECKFORGE_FUZZ_EXAMPLES sets the number).
"""

from __future__ import annotations

import dataclasses
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml
from hypothesis import given
from hypothesis import strategies as st

from deckforge.drawing.ops import Document
from deckforge.errors import Problem, SourceRef
from deckforge.layout.impose import impose
from deckforge.model import Text
from deckforge.profiles import all_profiles
from deckforge.render import pdf
from deckforge.templates import Library, stream_cards
from deckforge.templates.elements import COMMON_KEYS, load_all
from deckforge.templates.elements.text import STYLE_KEYS
from deckforge.templates.load import SHIPPED
from templates_support import context
from test_fuzz import FUZZ, _mutate, _paths

SHIPPED_NAMES = sorted(path.stem for path in SHIPPED.glob("*.yaml"))
SHIPPED_DATA = {
    name: yaml.safe_load((SHIPPED / f"{name}.yaml").read_text(encoding="utf-8"))
    for name in SHIPPED_NAMES
}
TYPES = sorted(load_all())

#: Lengths as templates give them, and at the edges: out of range, overflowing,
#: malformed, relative, named. Most are sane, so that a template with one wild value
#: reaches the drawing of its cards.
edges = st.sampled_from(
    ["0", "-5pt", "-safe", "safe * 40", "max(-1pt, 0pt)", "1" + "0" * 190 + "pt", "1e5pt"]
    + ["1" + "0" * 190 + " * 2pt", "14400pt", "14401pt", "0.0001pt", "500pt", "501pt"]
    + ["1pt / 0", "(" * 40 + "1pt" + ")" * 40, "nope", "10pt +", "%", "3 mm", "-0.5pt"]
) | st.builds(
    "{}{}".format,
    st.floats(-1e6, 1e6, allow_nan=False).map(lambda f: f"{abs(f):.4f}"),
    st.sampled_from(["pt", "mm", "cm", "in", "%", "%w", "%h", ""]),
)
sane = st.sampled_from(
    ["0pt", "3mm", "1pt", "2pt", "10pt", "50%", "100%w", "40%h", "safe", "bleed", "20%"]
    + ["min(10pt, 50%)", "((((1pt))))", "2in", "safe + 2pt", "100% - safe"]
)
lengths = st.one_of(sane, sane, sane, edges)
colours = st.sampled_from(
    ["ink", "paper", "accent", "black", "white", "#FF0000", "#GG0000", "{colour}", "{a.b}"]
    + ["mix(ink, white, 0.5)", "mix(ink, white, 2)", "readable(accent)", "nope", "mix(", "{"]
    + ["readable(" * 40 + "ink" + ")" * 40, "category", "on-category", "band"]
    + ["cmyk(60, 40, 40, 100)", "cmyk(1, 2)", "cmyk(0, 0, 0, 101)", "cmyk(", "cmyk(a)"]
    + ["mix(cmyk(0, 100, 0, 0), white, 0.5)", "mix(cmyk(0, 0, 0, 100), #FF0000, 0.5)"]
)
texts = st.sampled_from(
    ["{name}", "**{name}", "{name}**", "*x* :sword: {icon:1F5E1}", ":nope:", "{icon:zz}"]
    + ["\\*", "{deck.back|upper}", "{name|digits}", "{", "}", "{{x}}", "x\\ny", "{a.b.c}", ""]
) | st.text(max_size=30)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True),
    lengths,
    colours,
    texts,
    st.sampled_from(TYPES + ["centre", "top", "bottom", "cover", "circle", "star", "arrow-up"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=3)),
    max_leaves=6,
)


def _schema(key: str) -> dict:
    """The JSON Schema of an element's key (or a style's), as its type declares it."""
    for keys in (COMMON_KEYS, STYLE_KEYS, *(t.keys for t in load_all().values())):
        if key in keys:
            return keys[key]
    return {}


def _key_values(key: str):
    """What a key of an element may hold: mostly values of its kind, sometimes anything."""
    schema = _schema(key)
    if "enum" in schema and schema["enum"]:
        kind = st.sampled_from(schema["enum"])
    elif "const" in schema:
        kind = st.just(schema["const"])
    elif schema.get("type") == "boolean":
        kind = st.booleans()
    elif key in ("fill", "stroke", "colour", "tint"):
        kind = colours
    elif key in ("text", "symbol", "icon", "image", "style", "font"):
        kind = texts
    elif key == "dash":
        kind = st.lists(lengths, min_size=1, max_size=4)
    elif key == "points":
        kind = st.lists(st.lists(lengths, min_size=2, max_size=2), min_size=3, max_size=5)
    elif key in ("when", "unless"):
        kind = st.sampled_from(["name", "colour", "", "{x}", "_y"]) | st.dictionaries(
            st.sampled_from(["name", "colour"]), scalars, min_size=1, max_size=2
        )
    elif key in ("count", "seed", "number", "max_lines"):
        kind = st.integers(-5, 10**7) | st.sampled_from(["{count}", "3", "x", "{name}"])
    elif key == "leading":
        kind = st.floats(0, 10) | st.sampled_from([0.5, 4, 1.2])
    else:
        kind = lengths
    return st.one_of(*[kind] * 9, scalars)


@st.composite
def _element(draw, depth: int = 0) -> dict:
    kind = draw(st.sampled_from(TYPES))
    keys = sorted({*COMMON_KEYS, *load_all()[kind].keys} - {"name", "type", "elements"})
    element: dict = {"name": f"e{draw(st.integers(0, 5))}", "type": kind}
    for key in draw(st.lists(st.sampled_from(keys), max_size=6, unique=True)):
        element[key] = draw(_key_values(key))
    if kind == "group" and depth < 6:
        element["elements"] = draw(st.lists(_element(depth + 1), max_size=3))
    return element


@st.composite
def _templates(draw) -> dict:
    """A random template: its settings, sizes, colours, styles and elements."""
    template: dict = {"kind": "template"}
    if draw(st.booleans()):
        template["extends"] = draw(st.sampled_from(SHIPPED_NAMES))
    if draw(st.booleans()):
        template["size"] = draw(st.sampled_from(["poker", "tarot", "mini-euro"]))
    elif draw(st.booleans()):
        template["width"], template["height"] = draw(lengths), draw(lengths)
    for key in ("bleed", "safe"):
        if draw(st.integers(0, 3)) == 0:
            template[key] = draw(lengths)
    names = st.sampled_from(["band", "picture", "a", "b", "c"])
    template["sizes"] = draw(st.dictionaries(names, lengths, max_size=3))
    template["colours"] = draw(st.dictionaries(names, colours, max_size=3))
    style_keys = st.sampled_from(sorted(STYLE_KEYS))
    template["styles"] = draw(
        st.dictionaries(
            st.sampled_from(["name", "deck", "s"]),
            st.dictionaries(style_keys, st.deferred(lambda: scalars), max_size=4).flatmap(
                lambda style: st.fixed_dictionaries(
                    {k: _key_values(k if k != "colour" else "fill") for k in style}
                )
            ),
            max_size=2,
        )
    )
    template["elements"] = draw(st.lists(_element(), max_size=5))
    return template


@dataclass(frozen=True)
class _Named:
    """A value with fields of its own, as a kind's records have (a Place card's category)."""

    name: Text
    colour: Text
    symbol: Text


def _card(index: int, name: str) -> dict:
    """A card with the fields the shipped templates bind, each a text with its place."""

    def at(value: str, column: int) -> Text:
        return Text(value, SourceRef("cards.csv", index + 2, column))

    return {
        "id": at(f"c{index}", 1),
        "name": at(name, 2),
        "question": at(name, 3),
        "answer": at("Yes", 4),
        "category": _Named(at("Home", 5), at("#D1495B", 6), at("circle", 7)),
        "colour": _Named(at("Red", 8), at("#D1495B", 9), at("star", 10)),
        "count": at(str(index), 10),
        "number": at(str(index + 1), 11),
        "label": at("Spot", 12),
        "title": at("Role", 13),
        "rules": at("Do **this** :sword:", 14),
        "prompt": at("Write here", 15),
        "players_label": at("3+", 16),
        "icon": at("1F373", 17),
        "seed": at("7", 18),
        "lines": at("3", 19),
    }


#: Numbers of drawing operations that are never negative (PDF operators refuse them).
_NOT_NEGATIVE = ("line_width", "radius", "r", "dash", "size", "line_height")


def _sound(op: object) -> None:
    """Every number an operation holds is finite (nan or inf would be written to the PDF),
    and widths, radii, dashes and font sizes are not negative."""
    for name in (f.name for f in dataclasses.fields(op)):
        value = getattr(op, name)
        numbers = value if isinstance(value, tuple) else (value,)
        for item in numbers:
            if isinstance(item, (int, float)) and not isinstance(item, bool):
                assert math.isfinite(item), f"{type(op).__name__}.{name} is {item}"
                if name in _NOT_NEGATIVE:
                    assert item >= 0, f"{type(op).__name__}.{name} is {item}"
            elif dataclasses.is_dataclass(item):
                _sound(item)


def _draw(template: dict, name: str, data, own_size: bool) -> None:
    """Read, compile and draw the template as an edition's own, for three cards; write
    them to a PDF when there is no problem."""
    raw = yaml.safe_dump(template, allow_unicode=True).encode("utf-8", "surrogatepass")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        folder = root / "decks" / "test" / "templates"
        folder.mkdir(parents=True)
        (folder / f"{name}.yaml").write_bytes(raw)
        library = Library.for_edition(folder.parent, root)
        cards = [
            _card(i, data.draw(st.sampled_from(["Kitchen", "", "**x", "A" * 60]))) for i in range(3)
        ]
        stream = stream_cards(
            cards, library, context(size_mm=None if own_size else (63.5, 88.9)), name, None
        )
        laid, problems = stream.whole()
        assert all(isinstance(p, Problem) and p.ref.file for p in problems)
        if problems:
            return
        for card in laid:
            _sound(card.face)
        pages = impose(laid, all_profiles()["printer"])
        pdf.render(Document(tuple(pages), "fuzz"), root / "cards.pdf")


@FUZZ
@given(
    name=st.sampled_from(SHIPPED_NAMES),
    data=st.data(),
    action=st.sampled_from(["replace", "delete", "insert"]),
    value=values,
    own_size=st.booleans(),
)
def test_a_mutated_shipped_template_draws_or_gives_problems(name, data, action, value, own_size):
    source = yaml.safe_load(yaml.safe_dump(SHIPPED_DATA[name]))
    path = data.draw(st.sampled_from(list(_paths(source))))
    key = path[-1] if path else None
    if isinstance(key, str) and data.draw(st.booleans()):
        value = data.draw(_key_values(key))  # a value of the key's own kind, mostly
    _draw(_mutate(source, path, action, value), name, data, own_size)


@FUZZ
@given(template=_templates(), data=st.data(), own_size=st.booleans())
def test_a_random_template_draws_or_gives_problems(template, data, own_size):
    name = template.get("extends") or "t"
    _draw(template, name, data, own_size)
