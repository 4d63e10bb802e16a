"""``deckforge new game NAME``: a small game of one's own that builds as it stands.

Two decks of the generic kind (``kind: cards``) show the two ways to keep card data: 12
trivia cards whose data is a spreadsheet (``cards.csv``: id, question, answer,
category), drawn from the shipped ``trivia`` template, and 4 role cards listed in their
deck's YAML, drawn from the shipped ``role`` template, whose backs are chosen by a
field: the hosts' cards have a back of the game's own (``templates/host-back.yaml``).

The files are in ``new_game/`` beside this module, as a new game gets them but for
``{name}`` and ``{title}``, and the schema each names in its first line, which points at
the package's schemas there and at the project's in the game.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from deckforge import fsutil
from deckforge.authoring.scaffold import new_folder
from deckforge.sources.load import Project

#: The files of a new game, as written into its folder.
STARTER = Path(__file__).with_name("new_game")
#: The folder part of a schema named in a YAML file's first line.
_SCHEMA_FOLDER = re.compile(r"(?<=\$schema=)\S*/(?=[\w-]+\.schema\.json)")


def title_of(name: str) -> str:
    """A game's title from its name: 'pub-quiz' → 'Pub Quiz'."""
    return " ".join(word.capitalize() for word in name.split("-"))


def questions_csv() -> str:
    """The trivia cards' data (id, question, answer, category) as CSV text."""
    return (STARTER / "cards.csv").read_text(encoding="utf-8")


def new_game(project: Project, name: str) -> Path:
    """Create ``decks/NAME/``: a game with a trivia deck (its data in ``cards.csv``) and a
    role deck, which builds in every profile as it stands."""
    folder = new_folder(project, name)
    values = {"{name}": name, "{title}": title_of(name)}
    for source in sorted(STARTER.rglob("*")):
        if not source.is_file():
            continue
        target = folder / source.relative_to(STARTER)
        text = source.read_text(encoding="utf-8")
        for key, value in values.items():
            text = text.replace(key, value)
        schemas = os.path.relpath(project.root / "schemas", target.parent).replace(os.sep, "/")
        text = _SCHEMA_FOLDER.sub(f"{schemas}/", text, count=1)
        target.parent.mkdir(parents=True, exist_ok=True)
        fsutil.write_atomic(target, text)
    return folder
