"""Watch mode rebuilds a one-card edit and reports it; errors do not stop it."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from deckforge.authoring.watch import watch
from deckforge.sources.load import Project

DATA = Path(__file__).resolve().parents[1] / "data" / "minimal"


@contextmanager
def watching(decks: Path, out: Path) -> Iterator[Callable[[int], list]]:
    """Watch mode running in a thread on ``decks`` (the printer profile); gives a function
    that waits for the n-th round and returns the rounds so far."""
    rounds: list = []
    stop = threading.Event()
    thread = threading.Thread(
        target=watch,
        kwargs=dict(
            project=Project(decks),
            out_dir=out,
            profiles=["printer"],
            on_round=rounds.append,
            stop=stop,
        ),
    )
    thread.start()

    def wait_for(count: int) -> list:
        deadline = time.monotonic() + 60
        while len(rounds) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(rounds) >= count, rounds
        return rounds

    try:
        yield wait_for
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()


def test_watch_rebuilds_an_edit_and_survives_an_error(tmp_path):
    shutil.copytree(DATA, tmp_path / "decks" / "minimal")
    places = tmp_path / "decks" / "minimal" / "places.yaml"
    with watching(tmp_path / "decks", tmp_path / "build") as wait_for:
        rounds = wait_for(1)
        assert len(rounds[0].written) == 4
        assert all(p.severity == "warning" for p in rounds[0].problems)
        time.sleep(0.05)
        places.write_text(places.read_text().replace("name: Attic", "name: [broken"))
        wait_for(2)
        assert rounds[1].changed == ["decks/minimal/places.yaml"]
        assert any(p.severity == "error" for p in rounds[1].problems) and not rounds[1].written
        places.write_text(places.read_text().replace("name: [broken", "name: Loft"))
        wait_for(3)
        assert rounds[2].written == ["minimal-en/printer/places.pdf"]
        assert rounds[2].seconds > 0


def test_watch_rebuilds_a_deck_when_its_csv_or_its_template_changes(tmp_path):
    """A game of one's own: a new row of cards.csv rebuilds the trivia deck and its tuck
    box (sized from its count), and a template of the game's own that the trivia deck is
    drawn from rebuilds the deck alone."""
    from deckforge.authoring.game import new_game

    (tmp_path / "decks").mkdir()
    folder = new_game(Project(tmp_path / "decks"), "quiz")
    with watching(tmp_path / "decks", tmp_path / "build") as wait_for:
        rounds = wait_for(1)
        files = ("board", "journeys", "roles", "tiles", "tokens", "trivia-box", "trivia")
        assert sorted(rounds[0].written) == sorted(f"quiz/printer/{name}.pdf" for name in files)
        time.sleep(0.05)
        with (folder / "cards.csv").open("a", encoding="utf-8") as out:
            out.write("q13,What is the largest planet?,Jupiter,science\n")
        wait_for(2)
        assert rounds[1].changed == ["decks/quiz/cards.csv"]
        assert sorted(rounds[1].written) == [
            "quiz/printer/trivia-box.pdf",
            "quiz/printer/trivia.pdf",
        ]
        own = "kind: template\nextends: trivia\ncolours:\n  science: '#123456'\n"
        (folder / "templates" / "trivia.yaml").write_text(own, encoding="utf-8")
        wait_for(3)
        assert rounds[2].changed == ["decks/quiz/templates/trivia.yaml"]
        assert rounds[2].written == ["quiz/printer/trivia.pdf"]
