"""A 52-card playing-card deck from a CSV of only ``rank,suit``: its corner index, court
names, pips and colours come from one template's maps and comparisons, and the text
drawn on every card is what the maps say."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from deckforge.cli import main
from deckforge.render.raster import rasterize
from templates_support import close

#: The suits are drawn with DejaVu Sans, a Debian package, not a PyPI one.
pytestmark = pytest.mark.engines

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # fonts-dejavu-core: ♠♣♥♦
SUITS = {"Spades": "♠", "Hearts": "♥", "Diamonds": "♦", "Clubs": "♣"}
RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}
COURTS = {1: "Jack", 2: "Queen", 3: "King"}

TEMPLATE = """\
kind: template
size: poker
maps:
  suits: {Spades: "♠", Hearts: "♥", Diamonds: "♦", Clubs: "♣"}
  ranks: {1: A, "11": J, "12": Q, "13": K}
  courts: {1: Jack, 2: Queen, 3: King}
styles:
  index: {font: DejaVuSans.ttf, font_size: 14pt, colour: "#1D1D2C"}
  red: {font: DejaVuSans.ttf, font_size: 14pt, colour: "#C8102E"}
elements:
  - {name: paper, type: rect, x: 0, y: 0, w: 100%, h: 100%, bleed: true, fill: "#FFFFFF"}
  - name: corner
    type: text
    from: safe
    x: 0
    y: 0
    w: 30%
    h: 12%
    style: index
    text: "{rank|map(ranks)|default(rank)}{suit|map(suits)}"
    unless: "suit in [Hearts, Diamonds]"
  - name: corner-red
    type: text
    from: safe
    x: 0
    y: 0
    w: 30%
    h: 12%
    style: red
    text: "{rank|map(ranks)|default(rank)}{suit|map(suits)}"
    when: "suit in [Hearts, Diamonds]"
  - name: court
    type: text
    from: safe
    x: 0
    y: 40%
    w: 100%
    h: 15%
    style: index
    align: centre
    text: "{(rank - 10)|map(courts)} of {suit}"
    when: "rank > 10 and rank <= 13"
"""
#: Where a card's pips are and on which ranks: a column and a row (% of the card), and
#: the condition; each rank from 1 to 10 has as many pips as it counts.
PIPS = [
    ("centre", 50, 50, "rank in [1, 3, 5, 9]"),
    ("top", 50, 20, "rank in [2, 3]"),
    ("bottom", 50, 80, "rank in [2, 3]"),
    ("upper", 50, 35, "rank in [7, 8, 10]"),
    ("lower", 50, 65, "rank in [8, 10]"),
    *((f"corner-{x}-{y}", x, y, "rank >= 4 and rank <= 10") for x in (25, 75) for y in (20, 80)),
    *((f"side-{x}", x, 50, "rank >= 6 and rank <= 8") for x in (25, 75)),
    *((f"side-{x}-{y}", x, y, "rank in [9, 10]") for x in (25, 75) for y in (40, 60)),
]
TEMPLATE += "".join(
    f"  - {{name: pip-{name}, type: text, x: {x}%, y: {y}%, w: 16%, h: 10%, anchor: centre,"
    f" style: index, align: centre, valign: middle, text: '{{suit|map(suits)}}',"
    f" rotation: {180 if y > 50 else 0}, when: '{when}'}}\n"
    for name, x, y, when in PIPS
)


def _expected(rank: int, suit: str) -> list[str]:
    """The lines drawn on a card: its index, then its court's name or its pips."""
    corner = RANKS.get(rank, str(rank)) + SUITS[suit]
    if rank > 10:
        return [corner, f"{COURTS[rank - 10]} of {suit}"]
    return [corner] + [SUITS[suit]] * rank


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The deck's printer PDF, built once for the tests of this module."""
    tmp_path = tmp_path_factory.mktemp("playing")
    if not FONT.is_file():
        pytest.fail(f"{FONT} is missing: install fonts-dejavu-core (make test-tools)")
    edition = tmp_path / "decks" / "cards"
    (edition / "templates").mkdir(parents=True)
    shutil.copy(FONT, edition / "templates" / "DejaVuSans.ttf")
    (edition / "templates" / "playing.yaml").write_text(TEMPLATE, encoding="utf-8")
    (edition / "edition.yaml").write_text(
        "kind: edition\nid: cards\ngame: cards\ntitle: Cards\nlocale: en\n"
        "players: {min: 2, max: 8}\n"
        "decks:\n  - {id: playing, source: playing.yaml, size: poker}\n",
        encoding="utf-8",
    )
    (edition / "playing.yaml").write_text(
        "kind: cards\nface: playing\nback: back\ndata: cards.csv\n", encoding="utf-8"
    )
    rows = [f"{rank},{suit}" for suit in SUITS for rank in range(1, 14)]
    (edition / "cards.csv").write_text("rank,suit\n" + "\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "build"
    args = ["--decks", str(tmp_path / "decks"), "build", "--out", str(out), "--profile", "printer"]
    assert main(args) == 0
    return out / "cards" / "printer" / "playing.pdf"


def test_every_card_shows_what_the_maps_and_comparisons_say(built):
    texts = [page.extract_text() for page in PdfReader(built).pages]
    assert len(texts) == 104 and set(texts[0::2]) == {"Cards"}  # each face, then its back
    faces = texts[1::2]
    index = 0
    for suit in SUITS:
        for rank in range(1, 14):
            # Pips side by side come out on one line: compare the words.
            words = " ".join(_expected(rank, suit)).split()
            assert faces[index].split() == words, (rank, suit)
            index += 1


def _reds(image) -> int:
    """How many pixels of the card's top left corner are the red of the template."""
    w, h = image.size
    corner = image.convert("RGB").crop((0, 0, w // 3, h // 6))
    colours = corner.getcolors(maxcolors=w * h)
    return sum(count for count, pixel in colours if close(pixel, "#C8102E", 40))


def test_hearts_and_diamonds_have_a_red_index_and_the_others_not(built):
    for number, suit in enumerate(SUITS):
        page = 2 * (13 * number + 4) + 1  # the five of each suit's face
        reds = _reds(rasterize(built, page, 72))
        assert (reds > 10) == (suit in ("Hearts", "Diamonds")), (suit, reds)
