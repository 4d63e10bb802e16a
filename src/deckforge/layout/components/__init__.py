"""Components that are not cards: score pad, rulebook, board, pawns and tuck box.

Each is laid out for the profile's document paper by one module; ``LAYOUTS`` maps a
component's model type to its layout and its ``kind`` in the build manifest.
"""

from __future__ import annotations

import importlib

from deckforge.drawing.ops import Page
from deckforge.errors import Problem
from deckforge.layout.components.sheet import PawnsDoNotFit, TextDoesNotFit, Unmade
from deckforge.model import Edition
from deckforge.profiles import Profile

#: Each component type (by its class's name): the module of this package that lays it
#: out with the function of the same name, and its ``kind`` in the build manifest. A
#: module is imported when a build has such a component: an edition of cards and a
#: rulebook loads no board or tuck box.
LAYOUTS: dict[str, tuple[str, str]] = {
    "ScorePad": ("score_pad", "score-pad"),
    "Rulebook": ("rulebook", "rulebook"),
    "Board": ("board", "board"),
    "Pawns": ("pawns", "pawns"),
    "Tuckbox": ("tuckbox", "tuckbox"),
}


def lay_out_component(
    edition: Edition, component, profile: Profile
) -> tuple[str, list[Page], list[Problem]]:
    """A component's manifest kind and pages, or the problem that stops it: text that
    cannot be set, or paper too small for it."""
    module, kind = LAYOUTS[type(component).__name__]
    layout = getattr(importlib.import_module(f"{__name__}.{module}"), module)
    try:
        return kind, layout(edition, component, profile), []
    except TextDoesNotFit as exc:
        return kind, [], [Problem(exc.text.ref, str(exc.error))]
    except Unmade as exc:
        return kind, [], list(exc.problems)
    except PawnsDoNotFit as exc:
        return kind, [], [Problem(component.label.ref, f"{profile.id}: {exc}")]
