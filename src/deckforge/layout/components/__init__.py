"""Components that are not cards: score pad, rulebook, board, pawns and tuck box.

Each is laid out for the profile's document paper by one module; ``LAYOUTS`` maps a
component's model type to its layout and its ``kind`` in the build manifest.
"""

from __future__ import annotations

from collections.abc import Callable

from deckforge.drawing.ops import Page
from deckforge.errors import Problem
from deckforge.kinds.board import Board
from deckforge.kinds.pawns import Pawns
from deckforge.kinds.rulebook import Rulebook
from deckforge.kinds.score_pad import ScorePad
from deckforge.kinds.tuckbox import Tuckbox
from deckforge.layout.components.board import board
from deckforge.layout.components.pawns import PawnsDoNotFit, pawns
from deckforge.layout.components.rulebook import rulebook
from deckforge.layout.components.score_pad import score_pad
from deckforge.layout.components.sheet import TextDoesNotFit, Unmade
from deckforge.layout.components.tuckbox import tuckbox
from deckforge.model import Edition
from deckforge.profiles import Profile

#: Each component type: how it is laid out and its ``kind`` in the build manifest.
LAYOUTS: dict[type, tuple[Callable[..., list[Page]], str]] = {
    ScorePad: (score_pad, "score-pad"),
    Rulebook: (rulebook, "rulebook"),
    Board: (board, "board"),
    Pawns: (pawns, "pawns"),
    Tuckbox: (tuckbox, "tuckbox"),
}


def lay_out_component(
    edition: Edition, component, profile: Profile
) -> tuple[str, list[Page], list[Problem]]:
    """A component's manifest kind and pages, or the problem that stops it: text that
    cannot be set, or paper too small for it."""
    layout, kind = LAYOUTS[type(component)]
    try:
        return kind, layout(edition, component, profile), []
    except TextDoesNotFit as exc:
        return kind, [], [Problem(exc.text.ref, str(exc.error))]
    except Unmade as exc:
        return kind, [], list(exc.problems)
    except PawnsDoNotFit as exc:
        return kind, [], [Problem(component.label.ref, f"{profile.id}: {exc}")]
