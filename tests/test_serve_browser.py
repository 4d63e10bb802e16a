"""``deckforge serve`` in a real browser: a saved change to a Place's name shows on the open
page without a reload, and a YAML error shows in the page with its line until it is fixed."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from PIL import Image

from browser import Browser, find_chromium
from reference import difference
from serving import line_with, port_of, start_serve

#: Chromium opens the served pages.
pytestmark = pytest.mark.engines

FIRST = """(() => {
  const image = document.querySelector("ol.faces img");
  const box = image.getBoundingClientRect();
  return {src: image.getAttribute("src"), alt: image.alt,
          loaded: image.complete && image.naturalWidth > 0,
          caption: image.closest("li").querySelector("figcaption bdi").textContent,
          x: box.x + image.clientLeft + window.scrollX, y: box.y + image.clientTop + window.scrollY,
          width: image.clientWidth, height: image.clientHeight};
})()"""


def _picture(browser: Browser, shown: dict):
    return browser.screenshot(shown["x"], shown["y"], shown["width"], shown["height"])


def _a_card_is_shown_large(browser: Browser, source: str) -> None:
    """Clicking the first card shows it large, with its name, source line, template and
    the template's elements."""
    browser.evaluate("document.querySelector('ol.faces a').click()")
    shown = browser.until(
        """(() => {
          const d = document.querySelector("dialog.card");
          const i = d.querySelector("img");
          return d.open && i.complete && i.naturalWidth > 0 && {
            title: d.querySelector(".title").textContent,
            source: d.querySelector(".source").textContent,
            width: i.naturalWidth, height: i.naturalHeight};
        })()""",
    )
    assert shown["title"] == "1. Kitchen"
    head = f"{source} · template place · elements: background, band, deck, category, "
    assert shown["source"].startswith(head) and ", name" in shown["source"]
    assert max(shown["width"], shown["height"]) == 800
    browser.evaluate("document.querySelector('dialog.card').close()")


def _the_filter_keeps_the_cards_named(browser: Browser, text: str) -> None:
    """Typing in the filter hides every face whose name does not hold the text."""
    typed = f"""(() => {{ const f = document.getElementById("filter"); f.value = {text!r};
      f.dispatchEvent(new Event("input", {{bubbles: true}}));
      return [...document.querySelectorAll("ol.faces > li")]
        .map((li) => [li.dataset.name, li.hidden]); }})()"""
    items = browser.evaluate(typed)
    shown = [name for name, hidden in items if not hidden]
    assert shown and len(shown) < len(items)
    assert all((text in name.lower()) != hidden for name, hidden in items)
    cleared = browser.evaluate(typed.replace(repr(text), "''"))
    assert not any(hidden for _, hidden in cleared)


def _the_switch_shows_the_cards_as_printed(browser: Browser, site: Path) -> None:
    """The soft-proof switch shows each card as the press prints it (the proof image
    drawn beside it), and as drawn again when it is turned off."""
    plain = browser.evaluate(FIRST)
    drawn = _picture(browser, plain)
    browser.evaluate("document.getElementById('proof').click()")
    proofed = browser.until(f"({FIRST}).src.includes('-proof') && ({FIRST}).loaded && {FIRST}")
    assert proofed["src"] == plain["src"].replace("-small.png", "-proof-small.png")
    large = browser.evaluate("document.querySelector('ol.faces a').getAttribute('href')")
    assert large.endswith("-proof.jpg"), large
    printed = Image.open(site / proofed["src"])
    shown = _picture(browser, proofed)
    assert difference(shown, printed) <= 1.0
    assert difference(drawn, printed) > difference(shown, printed)
    browser.evaluate("document.getElementById('proof').click()")
    browser.until(f"!({FIRST}).src.includes('-proof') && ({FIRST}).loaded")


def test_a_saved_place_name_and_a_yaml_error_show_on_the_open_page(project, tmp_path):
    chromium = find_chromium()
    assert chromium is not None, "Chromium is missing: make test installs Debian's chromium"
    places = project / "decks" / "guess-the-mess" / "places.yaml"
    text = places.read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "{en: Kitchen," in row)
    process = start_serve(project, "--edition", "guess-the-mess-en")
    browser = Browser(chromium, tmp_path / "chromium-profile")
    try:
        port = port_of(line_with(process, "serving http://127.0.0.1:"))
        line_with(process, "image(s) drawn")
        browser.open(f"http://127.0.0.1:{port}/serve/guess-the-mess-en/places.html")
        browser.until("window.deckforgeLive && window.deckforgeLive.updates >= 1")
        browser.evaluate("window.loadedOnce = 'still the same page'; window.scrollTo(0, 120)")
        scrolled = browser.evaluate("window.scrollY")
        browser.until(f"({FIRST}).loaded")  # the page is told before its pictures arrive
        before = browser.evaluate(FIRST)
        assert before["loaded"] and before["alt"] == "Kitchen"
        old = _picture(browser, before)
        _a_card_is_shown_large(browser, f"decks/guess-the-mess/places.yaml:{line}:16")
        _the_filter_keeps_the_cards_named(browser, "room")
        _the_switch_shows_the_cards_as_printed(
            browser, project / "build" / "serve" / "guess-the-mess-en"
        )

        places.write_text(text.replace("{en: Kitchen,", "{en: Messy Kitchen,", 1), "utf-8")
        browser.until(f"({FIRST}).src.includes('?v=') && ({FIRST}).loaded")
        after = browser.evaluate(FIRST)
        assert browser.evaluate("window.loadedOnce") == "still the same page"
        assert browser.evaluate("window.scrollY") == scrolled
        assert after["src"] != before["src"]
        assert after["src"].split("?")[0].endswith("/guess-the-mess-en/" + before["src"])
        assert (after["alt"], after["caption"]) == ("Messy Kitchen", "Messy Kitchen")
        assert difference(_picture(browser, after), old) > 1.0

        places.write_text(text.replace("{en: Kitchen,", "{en: [Kitchen,", 1), "utf-8")
        shown = browser.until("document.getElementById('problems').textContent.trim()")
        assert f"decks/guess-the-mess/places.yaml:{line}:" in shown
        assert "YAML syntax error" in shown
        assert f"{line:>5} |     name: {{en: [Kitchen," in shown
        # The last good cards stay on the page under the message.
        assert browser.evaluate(FIRST)["alt"] == "Messy Kitchen"

        places.write_text(text, "utf-8")
        browser.until("document.getElementById('problems').textContent.trim() === ''")
        browser.until(f"({FIRST}).alt === 'Kitchen' && ({FIRST}).loaded")
        assert browser.evaluate("window.loadedOnce") == "still the same page"

        # A line added above the cards moves where each is written: the page follows.
        places.write_text("# The places of the game.\n" + text, "utf-8")
        moved = f"decks/guess-the-mess/places.yaml:{line + 1}:16"
        browser.until(f"document.querySelector('ol.faces a').dataset.source === '{moved}'")
        _a_card_is_shown_large(browser, moved)
        assert browser.evaluate("window.loadedOnce") == "still the same page"
    finally:
        browser.close()
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
