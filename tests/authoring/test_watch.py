"""Watch mode rebuilds a one-card edit and reports it; errors do not stop it."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

from deckforge.authoring.watch import watch
from deckforge.sources.load import Project

DATA = Path(__file__).resolve().parents[1] / "data" / "minimal"


def test_watch_rebuilds_an_edit_and_survives_an_error(tmp_path):
    shutil.copytree(DATA, tmp_path / "decks" / "minimal")
    places = tmp_path / "decks" / "minimal" / "places.yaml"
    rounds = []
    stop = threading.Event()
    thread = threading.Thread(
        target=watch,
        kwargs=dict(
            project=Project(tmp_path / "decks"),
            out_dir=tmp_path / "build",
            profiles=["printer"],
            on_round=rounds.append,
            stop=stop,
        ),
    )
    thread.start()

    def wait_for(count):
        deadline = time.monotonic() + 60
        while len(rounds) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(rounds) >= count, rounds

    try:
        wait_for(1)
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
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()
