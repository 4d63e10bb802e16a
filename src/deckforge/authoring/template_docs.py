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
  literal characters. It works alike in left-to-right and right-to-left text. A
  template's own markup is complete in itself, a binding standing for its value whole:
  `**{name}**` is bold, and `**{name}` is an error at the template's line.
- **Right-to-left editions** mirror a template horizontally unless it, or an element,
  says `mirror: false`.
- **Checks.** Templates are checked by `schemas/template.schema.json`: a problem names
  the file, line and column. The data a deck binds is checked against what its
  templates need (text, number, colour, icon, picture file) before anything is drawn,
  each problem at its cell (`cards.csv:12:7`, `cards.xlsx!Cards:B12`).
"""


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
        "Sans has no card suits; the style names a font file of the project that has them.)",
        "",
        "```yaml",
        _PLAYING.rstrip(),
        "```",
        "",
    ]


#: The fan of three cards the golden renders of paint draw (tests/data/paint).
PAINT_FAN = """\
kind: template
size: poker
elements:
  - name: background
    type: rect
    bleed: true
    fill: paper
  - name: left
    type: group
    x: 22%
    y: 28%
    w: 56%
    h: 50%
    rotation: -15
    pivot: bottom
    elements:
      - {name: left-card, type: rect, radius: 3mm, fill: "#3A7CA5", stroke: ink}
      - {name: left-pip, type: circle, x: 35%, y: 40%, w: 30%, h: 20%, fill: paper}
  - name: middle
    type: group
    x: 22%
    y: 28%
    w: 56%
    h: 50%
    elements:
      - {name: middle-card, type: rect, radius: 3mm, fill: "#F2C14E", stroke: ink}
      - {name: middle-pip, type: circle, x: 35%, y: 40%, w: 30%, h: 20%, fill: paper}
  - name: front
    type: group
    x: 22%
    y: 28%
    w: 56%
    h: 50%
    rotation: 15
    pivot: bottom
    opacity: 0.8
    shadow: {x: 1.5pt, y: 1.5pt, opacity: 0.35}
    elements:
      - {name: front-card, type: rect, radius: 3mm, fill: accent, stroke: ink}
      - {name: front-pip, type: circle, x: 35%, y: 40%, w: 30%, h: 20%, fill: paper}
  - name: title
    type: text
    x: 8%
    y: 6%
    w: 84%
    h: 14%
    text: "{title}"
    font_size: 22pt
    weight: bold
    align: centre
    colour: ink
    stroke: ink
    stroke_width: 0.4pt
    letter_spacing: 3pt
    shadow: {x: 1.2pt, y: 1.2pt, colour: accent, opacity: 0.5}
"""

#: The gradient sky those renders draw.
PAINT_DAWN = """\
kind: template
size: poker
elements:
  - name: sky
    type: rect
    bleed: true
    gradient:
      angle: 90
      stops:
        - {offset: 0, colour: "#1B2D52"}
        - {offset: 0.6, colour: "#E4572E"}
        - {offset: 1, colour: "#F2C14E"}
  - name: sun
    type: circle
    x: 20%
    y: 45%
    w: 60%
    h: 40%
    gradient:
      type: radial
      stops:
        - {offset: 0, colour: "#FFFDF7"}
        - {offset: 1, colour: "#F2C14E"}
  - name: title
    type: text
    x: 8%
    y: 8%
    w: 84%
    h: 16%
    text: "{title}"
    font_size: 30pt
    weight: bold
    align: centre
    colour: "#FFFDF7"
    stroke: "#1B2D52"
    stroke_width: 1pt
    letter_spacing: 4pt
"""


def _paint() -> list[str]:
    return [
        "## Transform and paint",
        "",
        "- **Rotation.** `rotation` turns an element or a group clockwise by any angle in",
        "  degrees. 90, 180 and 270 about the centre turn what is drawn inside the box (at",
        "  90 and 270 laid out across its height, the box staying where it is); any other",
        "  angle, or any angle with `pivot`, turns the box itself about its centre or about",
        "  the point `pivot` names (`bottom`, `top-left`, ... as for `anchor`). Right-to-left",
        "  editions turn the other way, about the mirrored pivot.",
        "- **Opacity.** `opacity` (0-1) makes an element or a whole group translucent: a",
        "  group is drawn first and then made translucent as one, so its parts do not show",
        "  through each other.",
        "- **Gradients.** `gradient` fills a `rect`, `ellipse`, `circle` or `polygon`",
        "  instead of `fill`: `type: linear` (the default) along `angle` (0 runs left to",
        "  right, 90 top to bottom) or `from: [x, y]` `to: [x, y]`, or `type: radial` out",
        "  from `centre` to `radius`; points and lengths are measured in the shape's box.",
        "  `stops` are `{offset: 0-1, colour: ...}`, in order. In `printer-cmyk` every stop",
        "  goes through the CMYK separation like any colour.",
        "- **Shadows.** `shadow: {x: 1pt, y: 1pt, blur: 0, colour: black, opacity: 0.5}`",
        "  (those are the defaults) puts the element's shape beneath it, moved right and",
        "  down, hard or softened by `blur`. A picture's shadow is its box (or circle); an",
        "  icon casts none; text's shadow is hard.",
        "- **Outlined and spaced text.** On a `text`, `stroke` and `stroke_width` draw an",
        "  outline around each letter, over its fill; `letter_spacing` adds room after",
        "  each letter. Letter spacing applies between letters of left-to-right scripts",
        "  only: Persian and Arabic letters join, and are never spaced apart (the Latin",
        "  words of a Persian text are), nor is a letter parted from its combining mark.",
        "  Text is set again in a narrower measure while a spaced line is too wide.",
        "- **Print shops.** `printer` (PDF/X-4) and the home-print profiles keep live",
        "  transparency. `printer-cmyk` is PDF/X-1a, which has none: translucent flat",
        "  colours (shapes, text, lines, hard shadows) over flat-filled shapes are mixed",
        "  into the exact flat colours they make before they are written, still as",
        "  vectors. Anything that cannot be mixed so (a translucent picture or icon, a",
        "  gradient under opacity or beneath it, a blurred shadow, translucency over text,",
        "  a picture or an outline) is refused, with its template's line and column, and",
        "  not drawn as an image of that area: an image would turn its edges and any text",
        "  in it into pixels, and its seam with the vectors beside it shows in print. Make",
        "  it opaque, give it a hard shadow, or send the shop the `printer` file.",
        "",
        "A fan of three rounded cards turned -15°, 0° and 15° about their bottom",
        "edge, the front one 80 % opaque with a hard shadow, under an outlined, spaced title:",
        "",
        "```yaml",
        PAINT_FAN.rstrip(),
        "```",
        "",
        "![The fan of cards, as printed](../tests/golden/paint/paint/printer/fan-p2.png)",
        "",
        "A sky of three stops top to bottom, with a radial sun:",
        "",
        "```yaml",
        PAINT_DAWN.rstrip(),
        "```",
        "",
        "![The gradient sky, as printed](../tests/golden/paint/paint/printer/dawn-p2.png)",
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
    out += _paint()
    out += _example()
    out += _expressions()
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(reference())
