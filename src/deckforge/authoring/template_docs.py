"""The card template reference, generated from the element registry so it cannot drift.

``python -m deckforge.authoring.template_docs`` prints it; ``make docs`` writes
``docs/templates.md``, and a test fails when that file is not what the registry says.
The tables come from the template schema (:mod:`deckforge.templates.schema`), each
element type's from its own module; the worked example is the shipped trivia template
and the data ``deckforge new game`` writes for it.
"""

from __future__ import annotations

import sys
from collections.abc import Set as AbstractSet

from deckforge.authoring.docs import field_rows
from deckforge.authoring.game import STARTER
from deckforge.authoring.template_examples import examples
from deckforge.templates.colours import MAX_DEPTH
from deckforge.templates.elements import COMMON_KEYS, load_all
from deckforge.templates.elements.text import STYLE_KEYS
from deckforge.templates.lengths import MAX_NESTING
from deckforge.templates.load import MAX_EXTENDS
from deckforge.templates.schema import DEPTH, build
from deckforge.units import CARD_SIZES_MM, LIMITS, MAX_RULED_LINES, MIN_DASH_CYCLE, limit_shown

_HEAD = """\
# Card template reference

Generated from the element registry by `make docs`; do not edit by hand.

A card template is a YAML file (`kind: template`) that says how one side of a card
looks: its size, named colours, lengths and text styles, and the elements drawn on it,
in order. A deck names its face and back templates (`face:` and `back:` in a deck of
`kind: cards`; the shipped games' kinds name theirs). A template named `trivia` is the
file `trivia.yaml` in the first folder that has one: the edition's own `templates/`
folder, then deckforge's shipped templates. `deckforge templates list` lists them and
`deckforge templates show NAME` prints one as it is drawn, after `extends`, with its
maps and how each of its expressions is read.

- **Overriding.** An edition changes a shipped template for its own cards only by
  putting a file of the same name in its `templates/` folder. Saying `extends: trivia`
  there starts from the template it hides, so the file holds only the change.
- **Inheritance.** `extends: other` starts from another template: settings replace
  its settings, `colours` and `sizes` add to or replace its by name, a style or element
  of the same `name` is changed key by key, new elements go at the end (or `before:` /
  `after:` a named one), and `remove: true` drops one.
- **Bindings.** Text and values in braces are the card's fields: `"{question}"`,
  `"{category.colour}"`; `{deck.back}`, `{edition.title}` and `{palette.accent}` are
  the deck's and edition's. Filters: `{name|upper}`, `|lower`, `|digits` (a number in
  the edition's script).
- **Conditions.** `when: answer` draws an element only on cards whose `answer` is set
  and not empty; `when: {rarity: rare}` or `{rarity: [rare, epic]}` where a field has
  one of the values; `unless:` is the opposite. Any other text is an expression:
  `when: "rank > 10"`, `when: "suit in [Hearts, Diamonds] and not joker"`.
- **Expressions** (in `when`, `unless` and inside braces in any text, image path or
  symbol name): field names, numbers, `'quoted text'`, lists (`[Hearts, 1, 'a b']`: bare
  words in a list are text), `== != < <= > >=`, `in` and `not in`, `and`, `or`, `not`,
  parentheses, and `+ - * / %` on numbers (a cell `11` is the number 11). Filters after
  a bar: `map(NAME)` looks the value up in a map of the template, `default(VALUE)` gives
  a value where a field is empty or unset (or not in the map before it), `upper`,
  `lower`, `round` (halves up) and `digits`; a filter applies to the value just before
  it (`(rank - 10)|map(courts)`). Nothing else can be called. An expression is read once
  per template, at most 500 characters: what cannot be read, an unknown map or filter,
  and a part that is wrong on every card (`"abc" > 3`) are problems at its key, with the
  column; a value missing from a map or not a number (`K > 10`) is a problem at its data
  cell.
- **Maps.** `maps:` names tables of values (inherited through `extends` like `colours`):
  with `maps: {suits: {Spades: "♠", Hearts: "♥"}, ranks: {1: A, 11: J, 12: Q, 13: K}}`,
  `text: "{rank|map(ranks)|default(rank)}{suit|map(suits)}"` draws `A♠`, `7♥`, `J♥`.
- **Bindings inside any text.** `image: "art/{art}.png"` (relative to the template's
  file, and kept inside the project like any path), `symbol: "arrow-{direction}"`,
  `text: "{rank}{suit|map(suits)}"`.
- **Text markup.** In any text, a card's data included: `**bold**`, `*italic*`, a
  line break (a newline, or `\\n` typed in a spreadsheet cell), and icons in the running
  text sized to the line: `:sword:` (a short name, or an emoji's Unicode name) or
  `{icon:1F5E1}` (an OpenMoji hexcode, or the emoji itself). `\\*`, `\\:`, `\\{` are
  literal characters. A span sets the size (pt), colour (`#RRGGBB`, or a colour's name:
  `black`, `white`, the edition's palette, the template's `colours`), weight (`bold`,
  `regular`), style (`italic`, `upright`) and font of the words in it, any of them at
  once: `The [size=14pt colour=#C8102E]red[/] word` sets `red` in 14 pt red inside 10 pt
  text. A span's `font` is one a style of the template names in its `font` (a font
  file, a family by its regular file, or a packaged family), quoted when it holds a
  space: `[font="Noto Serif"]serif **bold**[/]` sets its words in Noto Serif, `bold` in
  the family's bold face; an unknown font or colour is an error naming those a span may
  use. Spans nest, `[/]` closes the last one opened, a span's size shrinks with the
  text when it is fitted, and `\\[` is a literal bracket (as is a `[` that starts no span,
  `[Hearts]`). It works alike in left-to-right and right-to-left text. A
  template's own markup is complete in itself, a binding standing for its value whole:
  `**{name}**` is bold, and `**{name}` is an error at the template's line.
- **Font families.** A style's `font` may name a family's faces together, so markup in
  text of that family uses them (a face it lacks is the shipped one of that style):
  `font: {regular: LiberationSerif-Regular.ttf, bold: LiberationSerif-Bold.ttf, italic:
  LiberationSerif-Italic.ttf, bold_italic: LiberationSerif-BoldItalic.ttf}` sets
  `Gain **power**` in Liberation Serif with `power` in Liberation Serif Bold. A family
  installed as a Python font package is named by its name: `font: Noto Serif` (after
  `pip install fontpkg-noto-serif`).
- **Right-to-left editions** mirror a template horizontally unless it, or an element,
  says `mirror: false`.
- **Checks.** Templates are checked by `schemas/template.schema.json`: a problem names
  the file, line and column. The data a deck binds is checked against what its
  templates need (text, number, colour, icon, picture file) before anything is drawn,
  each problem at its cell (`cards.csv:12:7`, `cards.xlsx!Cards:B12`), once for each
  value a column gets wrong. `deckforge validate` also reports an element whose box
  leaves the card's bleed (`x: 50mm, w: 30mm` on a 63.5 mm card) at its line, a length
  in a unit lengths do not take (`130px`) with the units they take, and a character no
  font draws once, at the template text or the data cell that holds it.
- **Boards and tuck boxes** are drawn from templates too. A board's template (`kind:
  board`, `template:`) gives the board's size as its `width` and `height` (any size up
  to 1000 mm a side) and binds `{title}`; its `pieces` are rows of data, each drawn from
  a template of its own at that template's size with its centre at the row's `x` and
  `y`, binding the row's other keys (`{category}`, `{value|digits}`). A tuck box's panel
  templates (`front`, `back`, `spine`, `flap`) are drawn at the panel's size, whatever
  size they name, and bind `{title}`, `{deck}` and `{cards}` (its card count); the
  front is by default the deck's own back template. The shipped `tuckbox-back`,
  `tuckbox-spine` and `tuckbox-flap` are where to start.
"""


#: How a schema type reads in the tables of keys.
_SHOWN = {"string": "text", "object": "a mapping"}


def _table(rows: list[str]) -> list[str]:
    return ["| key | type | required | meaning |", "|---|---|---|---|", *rows, ""]


def _keys(keys: dict[str, dict], defs: dict, required: AbstractSet[str] = frozenset()) -> list[str]:
    """A table of keys whose schemas may refer to the shared definitions."""
    rows = []
    for key, node in keys.items():
        node = dict(node)
        if "$ref" in node:
            name = node.pop("$ref").rsplit("/", 1)[1]
            shared = defs[name]
            if name.startswith("key-"):
                node = {**shared, **node}
                name = shared.get("$ref", "").rsplit("/", 1)[-1]
            if name in ("length", "colour", "condition", "style"):
                node["type"] = f"a {name}"  # see Values
                node.pop("$ref", None)
        if "oneOf" in node and "type" not in node:  # a font: a file or a family
            node["type"] = " or ".join(_SHOWN.get(o["type"], o["type"]) for o in node["oneOf"])
        if isinstance(node.get("type"), list):
            node["type"] = " or ".join(node["type"])
        rows.extend(field_rows(node, key, key in required))
    return _table(rows)


def _values(defs: dict) -> list[str]:
    out = ["## Values", ""]
    for name in ("length", "colour", "condition"):
        out += [f"- **{name}**: {defs[name]['description']}"]
    return [*out, ""]


#: What else bounds a number, beyond its range.
_ALSO = {
    "length": "every step of an expression a finite number; parentheses nest at most "
    f"{MAX_NESTING} deep",
    "safe": "less than half the card's shorter side",
    "radius": "at most half the box's shorter side",
    "dash": f"a dash and its space together at least {MIN_DASH_CYCLE:g}pt",
    "gap": f"at most {MAX_RULED_LINES} lines in the box, unless a smaller count is written",
}


def _ranges() -> list[str]:
    out = [
        "## Ranges",
        "",
        "Every number a template gives is checked when it is compiled, whether written out",
        "or worked out from `sizes:` and expressions; a number outside its range is an",
        "error at the line that set it. (Print profiles' margins, gaps, gutters and bleed",
        "are checked alike.)",
        "",
        "| number | from | to | also |",
        "|---|---|---|---|",
    ]
    for name, (least, most, what) in LIMITS.items():
        low, high = limit_shown(least, name), limit_shown(most, name)
        out.append(f"| {what} | {low} | {high} | {_ALSO.get(name, '')} |")
    out += [
        "",
        f"A chain of `extends` is at most {MAX_EXTENDS} templates long, a named colour",
        f"leads through at most {MAX_DEPTH} others (and colour functions nest as deep),",
        f"and groups nest at most {DEPTH} deep.",
    ]
    return [*out, ""]


def _elements(defs: dict) -> list[str]:
    registry = load_all()
    out = [
        "## Keys every element takes",
        "",
        "Each element needs a `name` (unique among its siblings) and a `type`.",
        "",
    ]
    out += _keys({k: v for k, v in COMMON_KEYS.items() if k != "type"}, defs, {"name"})
    out += [
        "## Text styles",
        "",
        "Named in a template's `styles:` and referred to by a text's `style:`, or given",
        "on the text element itself.",
        "",
    ]
    out += _keys(STYLE_KEYS, defs)
    out += ["## Element types", ""]
    for name in sorted(registry):
        element = registry[name]
        out += [f"### `{name}`", "", element.description, ""]
        own = {k: v for k, v in element.keys.items() if k not in STYLE_KEYS}
        if name == "group":
            own = {k: {**v, "type": "array"} if k == "elements" else v for k, v in own.items()}
        out += _keys(own, defs) if own else ["It takes only the keys every element takes.", ""]
    return out


#: Pictures of the starter's cards: the golden renders of its built PDFs, which `make docs`
#: copies into the site (a test holds them to what the build draws).
_PICTURES = "pictures/golden/new-game/quiz"


def _sizes() -> list[str]:
    """Card sizes and cut shapes: the trade sizes, orientation, shapes, the starter's
    token and tile templates and pictures of their sheets."""
    rows = [f"| `{name}` | {w:g} × {h:g} |" for name, (w, h) in CARD_SIZES_MM.items()]
    out = [
        "## Card sizes and shapes",
        "",
        "A card's trim is its face template's: a trade `size`, or `width` and `height`",
        "(any lengths; a circle or a regular hexagon needs only one of them). A deck's",
        "entry in `edition.yaml` may give a `size` (and `orientation`) of its own, which",
        "then wins over its templates'; a deck that gives none prints at its templates'",
        "size, and its face and back templates must agree on size and shape (else an",
        "error names both places). `deckforge templates show NAME` and `deckforge list`",
        "say the size cards print at, the build manifest each file's `trim_mm` (and a",
        "shaped deck's `shape`).",
        "",
        "| size | mm (portrait) |",
        "|---|---|",
        *rows,
        "",
        "`orientation: landscape` turns a size so that its width is the longer side (a",
        "landscape poker card is 88.9 × 63.5 mm); `width` greater than `height` is",
        "landscape too. Sheets are laid on the paper turned whichever way holds most",
        "cards (nine landscape poker cards on a landscape A4 sheet), gutterfold sheets",
        "likewise, and shop files put each side on a page of its own trim plus bleed.",
        "",
        "`shape:` gives the cut: `{type: rect, radius: 3mm}` (rounded corners),",
        "`{type: circle}` (an ellipse on a card that is not square) or `{type: hexagon,",
        "orientation: pointy}` (a corner up; `flat`: a side up; a hexagon is given across",
        "its corners by its height, or its width when flat). The art is clipped to the",
        "shape grown by the bleed. Home sheets draw each card's cut line (crop marks only",
        "for rectangles, where straight cuts help); shop files (`printer`, `printer-cmyk`)",
        "carry it as a die line: a path in the spot colour `CutContour`, 0.25 pt,",
        "overprinting, drawn after the art, on its own layer `CutContour` in PDF/X-4 and",
        "on none in PDF/X-1a (whose PDF 1.3 has no layers). A tuck box's shop file has its",
        "cut so too, and its folds dashed in a second spot colour, `Crease`, on a layer of",
        "that name. `deckforge preflight` checks both. PNG exports, Tabletop Simulator",
        "images, showcase pictures and the preview leave the die line out: they show the",
        "printed card. Tokens and tiles are decks of `kind: cards` like any other.",
        "",
        "`deckforge new game` writes a round token and a hex tile:",
        "",
    ]
    for name in ("token", "tile"):
        text = (STARTER / "templates" / f"{name}.yaml").read_text(encoding="utf-8")
        body = [line for line in text.splitlines() if not line.startswith("# yaml-language")]
        out += ["```yaml", *body, "```", ""]
    for deck, what in (("journeys", "landscape journey cards"), ("tokens", "30 round tokens")):
        out.append(f"![{what} on an A4 sheet]({_PICTURES}/pnp-a4/{deck}-p1.png)")
    out.append(f"![19 hex tiles on an A4 sheet]({_PICTURES}/pnp-a4/tiles-p1.png)")
    out.append(f"![a hex tile's back with its die line]({_PICTURES}/printer/tiles-p1.png)")
    return [*out, ""]


def reference() -> str:
    """The whole template reference, as Markdown."""
    schema = build()
    defs = schema["$defs"]
    top = {k: v for k, v in schema["properties"].items() if k != "elements"}
    out = [_HEAD, "## Template files", ""]
    out += _keys(top, defs, {"kind"})
    out += ["`elements` is the list of what is drawn, in order: each an element below.", ""]
    out += _sizes()
    out += _values(defs)
    out += _ranges()
    out += _elements(defs)
    out += examples()
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(reference())
