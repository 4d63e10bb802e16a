"""The registry of kinds: every kind module is found, in the order kinds are listed, each
with its schema; and a new kind is a new module, which validation then knows."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from deckforge import kinds
from deckforge.kinds import all_kinds, component_kinds, deck_kinds
from deckforge.kinds.edition import validate_edition
from deckforge.sources.load import load_edition
from deckforge.sources.schema import schema_names

DATA = Path(__file__).resolve().parents[1] / "data" / "minimal"


def _clear() -> None:
    for found in (kinds._registry, deck_kinds, component_kinds):
        found.cache_clear()


def test_every_kind_is_found_in_the_order_it_is_listed():
    decks = ["cards", "places", "mess", "which-way", "numbered", "blank", "pictures"]
    assert list(deck_kinds()) == decks
    assert list(component_kinds()) == ["score-pad", "rulebook", "board", "pawns", "tuckbox"]
    assert [k.name for k in all_kinds()] == [*decks, *component_kinds()]


def test_every_kind_has_a_schema_and_every_source_schema_is_a_kind():
    schemas = set(schema_names())
    of_kinds = {kind.schema for kind in all_kinds()}
    assert of_kinds <= schemas
    assert schemas - of_kinds == {"common", "edition", "profile", "template"}


@pytest.fixture()
def coasters(tmp_path, monkeypatch):
    """A kind of deck in a module of its own, found where the kinds' modules are."""
    (tmp_path / "coasters.py").write_text(
        "from deckforge.kinds import DeckKind\n\n\n"
        "class Coasters(DeckKind):\n"
        '    """Round cards under glasses."""\n\n\n'
        'KIND = Coasters("coasters", listed=7, entries="coasters")\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(kinds, "__path__", [*kinds.__path__, str(tmp_path)])
    _clear()
    yield
    sys.modules.pop("deckforge.kinds.coasters", None)
    monkeypatch.undo()
    _clear()


def test_a_new_kind_is_a_new_module(coasters, tmp_path):
    assert list(deck_kinds())[-1] == "coasters"
    shutil.copytree(DATA, tmp_path / "decks" / "minimal")
    places = tmp_path / "decks" / "minimal" / "places.yaml"
    places.write_text(places.read_text().replace("kind: places", "kind: coaster"))
    loaded, problems = load_edition(tmp_path / "decks" / "minimal" / "edition.yaml", tmp_path, {})
    assert problems == [] and loaded is not None
    messages = [p.message for p in validate_edition(loaded)]
    assert "'coaster' is not a kind of deck; did you mean 'coasters'?" in messages


def test_every_kind_is_in_the_module_named_after_it_and_looked_up_there_alone(monkeypatch):
    for kind in all_kinds():
        module = sys.modules[type(kind).__module__]
        assert module.__name__ == f"deckforge.kinds.{kind.name.replace('-', '_')}"
        assert module.KIND is kind
    _clear()
    monkeypatch.setattr(kinds, "_registry", lambda: pytest.fail("every kind imported"))
    assert deck_kinds()["which-way"].name == "which-way"
    assert component_kinds()["score-pad"].name == "score-pad"
    assert kinds.kind_named("places").name == "places"
    # Not kinds: a module without one, a kind of the other sort, what is not a name.
    for name in ("edition", "score-pad", "../places", "Places", 3, None):
        assert deck_kinds().get(name) is None
    assert kinds.kind_named("edition") is None
    monkeypatch.undo()
    _clear()
