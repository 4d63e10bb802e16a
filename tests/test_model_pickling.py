"""The model's records (frozen dataclasses with slots) pickled as workers receive them and
as builds hash them: equal after the round trip, the same bytes for the same values, and
still frozen."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from deckforge.errors import Problem, SourceRef
from deckforge.model import Art, Deck, Palette, Text


def _deck(label: str) -> Deck:
    ref = SourceRef("decks/game/cards.yaml", 3, 5, "cards[0]")
    return Deck(
        id="cards",
        kind="places",
        size_name="poker",
        size_mm=(63.0, 88.0),
        cards=(),
        back_label=Text(label, ref.at("back")),
        ref=ref,
    )


def test_records_are_equal_after_pickling():
    values = [
        _deck("Back"),
        Art(Path("art/cat.png"), SourceRef("cards.xlsx", 12, 2, cell="Sheet1:B12")),
        Palette(ink="#000000"),
        Problem(SourceRef("a.yaml", 1, 1), "wrong", "warning"),
    ]
    for value in values:
        again = pickle.loads(pickle.dumps(value, protocol=5))
        assert again == value and hash(again) == hash(value) and type(again) is type(value)


def test_equal_records_pickle_to_the_same_bytes():
    # Builds hash what a file is made from by pickling it: equal values made apart must
    # give equal bytes, or every build would make every file again.
    assert pickle.dumps(_deck("Back"), protocol=5) == pickle.dumps(_deck("Back"), protocol=5)
    assert pickle.dumps(_deck("Back"), protocol=5) != pickle.dumps(_deck("Rear"), protocol=5)


def test_a_record_pickled_here_is_read_in_a_fresh_interpreter():
    # A spawned worker imports the classes anew; the record must come back whole there.
    data = pickle.dumps(_deck("Back"), protocol=5)
    code = (
        "import pickle, sys; deck = pickle.loads(sys.stdin.buffer.read()); "
        "print(deck.back_label.value, deck.ref.where, deck.size_mm)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=data, capture_output=True, check=True, timeout=60
    )
    assert done.stdout.decode().split() == ["Back", "decks/game/cards.yaml:3:5", "(63.0,", "88.0)"]


def test_a_frozen_record_refuses_changes_but_is_copied_with_replace():
    deck = _deck("Back")
    with pytest.raises(dataclasses.FrozenInstanceError):
        deck.id = "other"  # type: ignore[misc]
    copy = dataclasses.replace(deck, id="other")
    assert copy.id == "other" and copy.ref is deck.ref and deck.id == "cards"
