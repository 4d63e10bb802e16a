"""``deckforge serve``'s round after a one-card save: only that card is drawn again, from
a file of just it, and what the page shows is what the printer file draws; a download
asked for then is built first, so it is never older than the page."""

from __future__ import annotations

import queue
import threading
import urllib.request
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from deckforge.authoring.serve import serve
from deckforge.pipeline.recipe import build
from deckforge.render.raster.pdfread import read_deck, render, side_page
from deckforge.sources.load import Project
from reference import TOLERANCE, difference

EDITION = "guess-the-mess-en"


def _page(pdf: Path, card: int, size: tuple[int, int]) -> Image.Image:
    """Card ``card``'s face in ``pdf`` (a printer file), its trim drawn to ``size``."""
    deck = read_deck(pdf)
    document = pdfium.PdfDocument(str(pdf))
    try:
        return render(document, side_page(card, "face"), deck.geometry.trim, size)
    finally:
        document.close()


@pytest.mark.slow  # a serve session and a printer build
def test_a_one_card_save_draws_that_card_as_a_fresh_printer_build_does(project, tmp_path):
    places = project / "decks" / "guess-the-mess" / "places.yaml"
    text = places.read_text(encoding="utf-8")
    out = project / "build"
    rounds: queue.Queue = queue.Queue()
    ready: queue.Queue = queue.Queue()
    stop = threading.Event()
    thread = threading.Thread(
        target=serve,
        args=(Project(project / "decks"), out, [EDITION], "127.0.0.1", 0, str),
        kwargs={"on_ready": ready.put, "on_round": rounds.put, "stop": stop},
        daemon=True,
    )
    thread.start()
    try:
        url = ready.get(timeout=60)
        first = rounds.get(timeout=300)
        assert first.problems == 0 and first.changed
        printer = out / EDITION / "printer" / "places.pdf"
        built = printer.stat().st_mtime_ns
        places.write_text(text.replace("{en: Kitchen,", "{en: Messy Kitchen,", 1), "utf-8")
        edited = rounds.get(timeout=120)
        site = out / "serve" / EDITION / "places"
        # The card's large image and thumbnail, nothing else; the deck's file not yet made.
        drawn = sorted(Path(path).name for path in edited.changed)
        assert drawn == ["face-001-small.png", "face-001.jpg"]
        assert printer.stat().st_mtime_ns == built

        fresh = tmp_path / "fresh"
        build(Project(project / "decks"), fresh, [EDITION], ["printer"])
        for name in ("face-001.jpg", "face-001-small.png"):
            shown = Image.open(site / name).convert("RGB")
            printed = _page(fresh / EDITION / "printer" / "places.pdf", 0, shown.size)
            assert difference(shown, printed) <= TOLERANCE, name
            old = _page(printer, 0, shown.size)
            assert difference(shown, old) > 1.0, "the edit shows"

        # The download of the deck's file, asked for now, is the file as the sources are.
        base = url.split("/serve/")[0]
        with urllib.request.urlopen(f"{base}/{EDITION}/printer/places.pdf", timeout=300) as got:
            (tmp_path / "downloaded.pdf").write_bytes(got.read())
        shown = Image.open(site / "face-001-small.png").convert("RGB")
        downloaded = _page(tmp_path / "downloaded.pdf", 0, shown.size)
        assert difference(shown, downloaded) <= TOLERANCE
    finally:
        stop.set()
        thread.join(timeout=120)
    assert not thread.is_alive()
