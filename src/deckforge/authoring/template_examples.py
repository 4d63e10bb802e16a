"""The template reference's worked examples: each a template and its data, the same text
that a test edition or ``deckforge new game`` builds, so what the reference shows is what
the golden renders draw."""

from __future__ import annotations

from deckforge.authoring.game import questions_csv
from deckforge.templates.load import SHIPPED


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
        "![The fan of cards, as printed](pictures/golden/paint/paint/printer/fan-p2.png)",
        "",
        "A sky of three stops top to bottom, with a radial sun:",
        "",
        "```yaml",
        PAINT_DAWN.rstrip(),
        "```",
        "",
        "![The gradient sky, as printed](pictures/golden/paint/paint/printer/dawn-p2.png)",
        "",
    ]


def examples() -> list[str]:
    """Every worked example, as Markdown lines, in the reference's order."""
    return [*_paint(), *_example(), *_expressions(), *_icons_and_inks()]
