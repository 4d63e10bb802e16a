"""``deckforge new game NAME``: a small game of one's own that builds as it stands.

Two decks of the generic kind (``kind: cards``) show the two ways to keep card data: 12
trivia cards whose data is a spreadsheet (``cards.csv``: id, question, answer,
category), drawn from the shipped ``trivia`` template, and 4 role cards listed in their
deck's YAML, drawn from the shipped ``role`` template, whose backs are chosen by a
field: the hosts' cards have a back of the game's own (``templates/host-back.yaml``).
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from deckforge import fsutil
from deckforge.authoring.scaffold import new_folder
from deckforge.sources.load import EDITION_FILE, Project

#: The trivia cards: (id, question, answer, category); a category names a colour of the
#: shipped trivia template.
QUESTIONS = (
    ("q01", "What gas do plants take in from the air to make their food?", "Carbon dioxide",
     "science"),
    ("q02", "How many bones are in the body of an adult human?", "206", "science"),
    ("q03", "What is the chemical symbol for gold?", "Au", "science"),
    ("q04", "In which year did people first walk on the Moon?", "1969", "history"),
    ("q05", "Which people built the city of Machu Picchu?", "The Inca", "history"),
    ("q06", "Which Roman emperor had a wall built across northern Britain?", "Hadrian",
     "history"),
    ("q07", "What is the longest river in Africa?", "The Nile", "geography"),
    ("q08", "What is the capital city of Canada?", "Ottawa", "geography"),
    ("q09", "On which continent is the Atacama Desert?", "South America", "geography"),
    ("q10", "Who painted the Mona Lisa?", "Leonardo da Vinci", "arts"),
    ("q11", "How many strings does a violin have?", "Four", "arts"),
    ("q12", "Which composer wrote the Moonlight Sonata, published in 1802?",
     "Ludwig van Beethoven", "arts"),
)  # fmt: skip

_EDITION = """\
# yaml-language-server: $schema={schemas}/edition.schema.json
# {title}: a game of your own, made with 'deckforge new game'. It has two decks to start
# from: trivia cards (trivia.yaml; their questions are in cards.csv) and role cards
# (roles.yaml). Build every file with:
#   deckforge build --edition {name}
kind: edition
id: {name}
game: {name}
title: {title}
locale: en
players: {{min: 2, max: 8}}
decks:
  # As many trivia cards as cards.csv has rows: no count is checked.
  - {{id: trivia, source: trivia.yaml, size: poker}}
  - {{id: roles, source: roles.yaml, size: poker, count: 4, back: Role}}
"""

_TRIVIA = """\
# yaml-language-server: $schema={schemas}/cards.schema.json
# Trivia cards: one card per row of cards.csv, whose header names the columns id,
# question, answer and category. Edit it in any spreadsheet program and save it as
# 'CSV UTF-8'; or save the workbook as cards.xlsx and write 'data: cards.xlsx' below.
# A 'count' column, if you add one, says how many copies of a card to print.
#
# The faces are drawn from the shipped template 'trivia' (see it with 'deckforge
# templates show trivia'): a band in the category's colour, the question, and the answer
# upside down at the bottom. A category names one of its colours: science, history,
# geography, arts, sports, nature. The backs are the shipped 'back': the game's title.
kind: cards
face: trivia
back: back
data: cards.csv
# What Tabletop Simulator and the build manifest call each card.
card_name: question
"""

_ROLES = """\
# yaml-language-server: $schema={schemas}/cards.schema.json
# Role cards, their data written here: each card is a mapping of fields to values, which
# the shipped template 'role' binds: the title, an OpenMoji icon drawn large (its
# hexcode, or the emoji itself) and the rules. Rules may hold **bold** words and icons
# (:coin:, or {{icon:1FA99}}).
#
# Each card's back is chosen by its 'side': the hosts' cards have this game's own back
# (templates/host-back.yaml), the players' the shipped one.
kind: cards
face: role
back:
  by: side
  templates: {{host: host-back, player: back}}
card_name: title
cards:
  - id: quizmaster
    title: Quizmaster
    icon: "1F3A4"
    side: host
    rules: "Read the question aloud; turn the card for its answer. **Never** show it :speech:"
  - id: timekeeper
    title: Timekeeper
    icon: "23F3"
    side: host
    rules: "Turn the :hourglass: as the question is read. When it runs out, answers are **closed**."
  - id: scorekeeper
    title: Scorekeeper
    icon: "1F4DD"
    side: player
    rules: "Give a :coin: to the player who answers **first** and right."
  - id: challenger
    title: Challenger
    icon: "1F94A"
    side: player
    rules: >-
      Once a game, call an answer wrong. If you are **right**, take a :star: from that
      player.
"""

_HOST_BACK = """\
# yaml-language-server: $schema={schemas}/template.schema.json
# The back of the hosts' role cards: the shipped back ('deckforge templates show back')
# in the edition's dark accent colour, so that the hosts' cards are told apart face
# down. A template of this game's own: change it as you like.
kind: template
extends: back
description: Back of the hosts' role cards
colours:
  back: accent_dark
"""


def title_of(name: str) -> str:
    """A game's title from its name: 'pub-quiz' → 'Pub Quiz'."""
    return " ".join(word.capitalize() for word in name.split("-"))


def questions_csv() -> str:
    """The trivia cards as CSV text, as a spreadsheet program saves it."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("id", "question", "answer", "category"))
    writer.writerows(QUESTIONS)
    return out.getvalue()


def new_game(project: Project, name: str) -> Path:
    """Create ``decks/NAME/``: a game with a trivia deck (its data in ``cards.csv``) and a
    role deck, which builds in every profile as it stands."""
    folder = new_folder(project, name)
    schemas = os.path.relpath(project.root / "schemas", folder)
    own = os.path.relpath(project.root / "schemas", folder / "templates")
    files = {
        EDITION_FILE: _EDITION.format(schemas=schemas, name=name, title=title_of(name)),
        "trivia.yaml": _TRIVIA.format(schemas=schemas),
        "cards.csv": questions_csv(),
        "roles.yaml": _ROLES.format(schemas=schemas),
        "templates/host-back.yaml": _HOST_BACK.format(schemas=own),
    }
    (folder / "templates").mkdir(parents=True)
    for relative, text in files.items():
        fsutil.write_atomic(folder / relative, text)
    return folder
