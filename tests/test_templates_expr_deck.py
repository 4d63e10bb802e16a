"""A 52-card playing-card deck from a CSV of only ``rank,suit``: its corner index, court
names and colours come from one template's maps and comparisons, and the text drawn on
every card is what the maps say."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from deckforge.cli import main
from deckforge.render.raster import rasterize
from templates_support import close

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
  - name: pips
    type: text
    from: safe
    x: 0
    y: 40%
    w: 100%
    h: 15%
    style: index
    align: centre
    text: "{rank * 1} × {suit|map(suits)}"
    when: "not (rank > 10) and rank != 1"
  - name: ace
    type: text
    from: safe
    x: 0
    y: 40%
    w: 100%
    h: 15%
    style: index
    align: centre
    text: "Ace of {suit|lower}"
    when: "rank == 1"
"""


def _expected(rank: int, suit: str) -> list[str]:
    corner = RANKS.get(rank, str(rank)) + SUITS[suit]
    if rank > 10:
        middle = f"{COURTS[rank - 10]} of {suit}"
    elif rank == 1:
        middle = f"Ace of {suit.lower()}"
    else:
        middle = f"{rank} × {SUITS[suit]}"
    return [corner, middle]


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
            lines = [line.strip() for line in faces[index].splitlines() if line.strip()]
            assert lines == _expected(rank, suit), (rank, suit)
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
