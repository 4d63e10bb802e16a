"""The card template reference, generated from the element registry so it cannot drift.

``python -m deckforge.authoring.template_docs`` prints it; ``make docs`` writes
``docs/templates.md``, and a test fails when that file is not what the registry says.
The tables come from the template schema (:mod:`deckforge.templates.schema`), each
element type's from its own module; the worked example is the shipped trivia template
and the data ``deckforge new game`` writes for it.
"""

from __future__ import annotations

import sys

from deckforge.authoring.docs import field_rows
from deckforge.authoring.game import questions_csv
from deckforge.templates.colours import MAX_DEPTH
from deckforge.templates.elements import COMMON_KEYS, load_all
from deckforge.templates.elements.text import STYLE_KEYS
from deckforge.templates.lengths import MAX_NESTING
from deckforge.templates.load import MAX_EXTENDS, SHIPPED
from deckforge.templates.schema import DEPTH, build
from deckforge.units import LIMITS, MAX_RULED_LINES, MIN_DASH_CYCLE, limit_shown

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
  literal characters. A span sets the size (pt), colour (`#RRGGBB`), weight (`bold`,
  `regular`) and style (`italic`, `upright`) of the words in it, any of them at once:
  `The [size=14pt colour=#C8102E]red[/] word` sets `red` in 14 pt red inside 10 pt
  text; spans nest, `[/]` closes the last one opened, a span's size shrinks with the
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
"""


#: How a schema type reads in the tables of keys.
_SHOWN = {"string": "text", "object": "a mapping"}


def _table(rows: list[str]) -> list[str]:
    return ["| key | type | required | meaning |", "|---|---|---|---|", *rows, ""]


def _keys(keys: dict[str, dict], defs: dict, required: set[str] = frozenset()) -> list[str]:
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


def _example() -> list[str]:
    template = (SHIPPED / "trivia.yaml").read_text(encoding="utf-8")
    rows = questions_csv().splitlines()[:4]
    return [
        "## Worked example: a trivia card",
        "",
        "`deckforge new game quiz` writes a deck of `kind: cards` whose data is",
        "`decks/quiz/cards.csv`:",
        "",
        "```csv",
        *rows,
        "```",
        "",
        "and whose deck file says `face: trivia`, `back: back`, `data: cards.csv`. The",
        "shipped template `trivia` binds the columns: a band in the colour the category",
        "names, the question, and the answer turned 180° at the bottom, drawn only when a",
        "row has one:",
        "",
        "```yaml",
        template.rstrip(),
        "```",
        "",
        "To give the game's science cards another colour and a larger question, save",
        "this as `decks/quiz/templates/trivia.yaml`; only this game's cards change:",
        "",
        "```yaml",
        "kind: template",
        "extends: trivia",
        "colours:",
        '  science: "#3A0CA3"',
        "styles:",
        "  question: {font_size: 18pt}",
        "```",
        "",
    ]


_PLAYING = """\
kind: template
size: poker
maps:
  suits: {Spades: "♠", Hearts: "♥", Diamonds: "♦", Clubs: "♣"}
  ranks: {1: A, 11: J, 12: Q, 13: K}
  courts: {11: Jack, 12: Queen, 13: King}
styles:
  index: {font: DejaVuSans.ttf, font_size: 14pt}
elements:
  - name: corner
    type: text
    from: safe
    w: 30%
    h: 12%
    style: index
    text: "{rank|map(ranks)|default(rank)}{suit|map(suits)}"
    colour: "#C8102E"
    when: "suit in [Hearts, Diamonds]"
  - {name: corner-black, type: text, from: safe, w: 30%, h: 12%, style: index,
     text: "{rank|map(ranks)|default(rank)}{suit|map(suits)}",
     unless: "suit in [Hearts, Diamonds]"}
  - {name: court, type: text, from: safe, y: 40%, h: 15%, style: index, align: centre,
     text: "{rank|map(courts)} of {suit|lower}", when: "rank > 10"}
  - {name: pips, type: text, from: safe, y: 40%, h: 15%, style: index, align: centre,
     text: "{rank} × {suit|map(suits)}", when: "rank > 1 and rank <= 10"}
"""


def _expressions() -> list[str]:
    return [
        "## Worked example: a playing-card deck from rank and suit",
        "",
        "A deck of `kind: cards` whose `cards.csv` has only the columns `rank,suit` (`1,Spades`",
        "… `13,Clubs`) gets its corner index, court names and red suits from one template:",
        "maps turn the values into what is printed, comparisons choose what is drawn. (Noto",
        "Sans has no card suits: they are drawn in DejaVu Sans where it is installed; the",
        "style names a font file of the project that has them, so that it prints alike",
        "everywhere.)",
        "",
        "```yaml",
        _PLAYING.rstrip(),
        "```",
        "",
    ]


#: The template of the worked example of icons and inks (the golden renders' features
#: edition draws it, tests/data/features).
MARKS = """\
kind: template
size: poker
colours:
  # What the shop asks for large black areas, written as it is into CMYK files.
  rich: "cmyk(60, 40, 40, 100)"
elements:
  - {name: ground, type: rect, bleed: true, fill: "{ground}"}
  - {name: icon, type: icon, icon: "{icon}", tint: "{tint}", x: 15%, y: 12%, w: 70%, h: 45%}
  - {name: crest, type: icon, icon: icons/spade.svg, tint: "cmyk(100, 60, 0, 20)", when: crest,
     x: 5%, y: 5%, size: 12mm}
  - {name: label, type: text, text: "{label}", from: safe, y: 70%, h: 20%, font_size: 20pt,
     align: centre, colour: "readable({ground})"}
"""
#: The data the example draws.
MARKS_CSV = """\
label,ground,icon,tint,crest
White sword,black,1F5E1,white,
Rich black,rich,2694,"cmyk(0, 0, 0, 0)",
A♠ ★ ⚔ ✦,white,2660,"cmyk(0, 100, 100, 0)",yes
"""


def _icons_and_inks() -> list[str]:
    return [
        "## Worked example: tinted icons, inks and symbols",
        "",
        "A deck of `kind: cards` whose `marks.csv` names each card's ground colour, icon and",
        "tint. A data cell may give a colour as `#RRGGBB`, a name (`white`, `black`, the",
        "edition's palette, the template's `colours`) or as inks, `cmyk(60, 40, 40, 100)`:",
        "",
        "```csv",
        MARKS_CSV.rstrip(),
        "```",
        "",
        "```yaml",
        MARKS.rstrip(),
        "```",
        "",
        "- `tint` draws everything an icon paints, fills and outlines alike, in one colour:",
        "  its shape is kept as a silhouette, and what the icon leaves unpainted stays so,",
        "  the card showing through. It works on OpenMoji icons and on the project's own",
        "  SVG files (`icon: icons/spade.svg`, relative to the template and kept inside the",
        "  project); pictures an SVG embeds are drawn as they are.",
        "- `cmyk(c, m, y, k)` (each 0–100) is what a print shop asks for: `printer-cmyk`",
        "  writes it unchanged as DeviceCMYK (`0.6 0.4 0.4 1 k`), never separated again nor",
        "  cut to the ink limit (keep it within the shop's limit); RGB files draw what it",
        "  prints as through the press profile. `mix()` of inks with inks or white mixes",
        "  the inks, as a shop's tint does.",
        "- Card suits and game symbols Noto Sans lacks (`♠♣♥♦★☆✦⚔`) are drawn in DejaVu",
        "  Sans, from Debian's `fonts-dejavu-core` where it is installed. A character no",
        "  font draws is an error that names the icon drawing it, such as",
        "  `:black_spade_suit:`.",
        "",
    ]


def reference() -> str:
    """The whole template reference, as Markdown."""
    schema = build()
    defs = schema["$defs"]
    top = {k: v for k, v in schema["properties"].items() if k != "elements"}
    out = [_HEAD, "## Template files", ""]
    out += _keys(top, defs, {"kind"})
    out += ["`elements` is the list of what is drawn, in order: each an element below.", ""]
    out += _values(defs)
    out += _ranges()
    out += _elements(defs)
    out += _example()
    out += _expressions()
    out += _icons_and_inks()
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(reference())
