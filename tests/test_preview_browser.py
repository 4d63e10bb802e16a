"""The preview in a real browser: headless Chromium opens the index and a deck page,
every thumbnail loads, and a card on screen has the colours of its PDF page."""

from __future__ import annotations

import pytest

from reference import CHROMA, TOLERANCE, chroma, difference, poppler, trim_box

#: Chromium opens the preview; poppler draws the reference.
pytestmark = pytest.mark.engines

#: Every image of the page, made to load now (thumbnails load lazily, as they scroll into
#: view), and whether it did: a broken image is complete with no natural width.
IMAGES = """(async () => {
  const images = [...document.images];
  for (const image of images) image.loading = "eager";
  await Promise.all(images.map((image) => image.decode().catch(() => null)));
  return images.map((image) => ({
    src: image.getAttribute("src"),
    thumb: image.classList.contains("thumb"),
    loaded: image.complete && image.naturalWidth > 0,
  }));
})()"""

RECT = """(() => {
  const image = document.querySelectorAll("img.thumb")[%d];
  image.scrollIntoView();
  const box = image.getBoundingClientRect();
  // The picture inside the image's border.
  return {x: box.x + image.clientLeft + window.scrollX, y: box.y + image.clientTop + window.scrollY,
          width: image.clientWidth, height: image.clientHeight, alt: image.alt};
})()"""


def test_the_index_shows_every_deck_and_its_pictures(browser, preview, manifest):
    browser.open((preview / "index.html").as_uri())
    images = browser.evaluate(IMAGES)
    assert images and all(image["loaded"] for image in images), images
    decks = {(e["edition"], e["deck"]) for e in manifest if e["kind"] == "cards"}
    links = browser.evaluate(
        "[...document.querySelectorAll('table.decks a[href$=\".html\"]')]"
        ".map((a) => a.getAttribute('href'))"
    )
    assert {tuple(link.removesuffix(".html").split("/")) for link in links} == decks


def test_a_broken_image_is_seen(browser, preview):
    # The check below would pass on a page whose images all fail if it could not tell.
    browser.open((preview / "index.html").as_uri())
    browser.evaluate(
        "document.body.append(Object.assign(document.createElement('img'), {src: 'nothing.png'}))"
    )
    assert not browser.evaluate(IMAGES)[-1]["loaded"]


def test_a_deck_page_loads_every_thumbnail_in_the_pdf_colours(
    browser, preview, built, manifest, tmp_path
):
    browser.open((preview / "guess-the-mess-en" / "places.html").as_uri())
    images = browser.evaluate(IMAGES)
    thumbs = [image for image in images if image["thumb"]]
    cards = next(
        e
        for e in manifest
        if (e["edition"], e["deck"], e["profile"]) == ("guess-the-mess-en", "places", "printer")
    )
    # Every face, then the one back the deck's cards share.
    assert len(thumbs) == cards["cards"] + 1
    assert all(image["loaded"] for image in images), [i for i in images if not i["loaded"]]
    pdf = built / cards["path"]
    trim = trim_box(pdf)
    for index, page in ((0, 1), (57, 115), (cards["cards"], 0)):
        box = browser.evaluate(RECT % index)
        shown = browser.screenshot(box["x"], box["y"], box["width"], box["height"])
        dpi = 72 * shown.width / (trim[2] - trim[0])
        reference = poppler(pdf, page, dpi, trim, shown.size, tmp_path)
        assert chroma(reference) >= CHROMA
        found = difference(shown, reference)
        assert found <= TOLERANCE, f"{box['alt']}: {found:.1f}"


FIRST = """(() => {
  const image = document.querySelector("ol.faces img");
  const box = image.getBoundingClientRect();
  return {src: image.getAttribute("src"), loaded: image.complete && image.naturalWidth > 0,
          x: box.x + image.clientLeft + window.scrollX, y: box.y + image.clientTop + window.scrollY,
          width: image.clientWidth, height: image.clientHeight};
})()"""


def test_the_soft_proof_switch_shows_the_cards_as_printed_and_is_kept(
    browser, built, tmp_path_factory
):
    from PIL import Image

    from deckforge.profiles import all_profiles
    from deckforge.render.raster import preview_site

    cmyk = all_profiles()["printer-cmyk"]
    site = tmp_path_factory.mktemp("proofed")
    preview_site(built, site, proof=(cmyk.output_intent, cmyk.ink_limit))
    page = site / "guess-the-mess-en" / "places.html"
    browser.open(page.as_uri())
    browser.evaluate("localStorage.clear()")
    browser.open(page.as_uri())
    plain = browser.until(f"({FIRST}).loaded && {FIRST}")
    assert not plain["src"].endswith("-proof-small.png")
    browser.evaluate("document.getElementById('proof').click()")
    shown = browser.until(f"({FIRST}).src.includes('-proof') && ({FIRST}).loaded && {FIRST}")
    printed = Image.open(page.parent / shown["src"])
    picture = browser.screenshot(shown["x"], shown["y"], shown["width"], shown["height"])
    assert difference(picture, printed) <= 1.0
    # Another page, or this one again, opens with the switch as it was left.
    browser.open(page.as_uri())
    again = browser.until(f"({FIRST}).loaded && {FIRST}")
    assert again["src"] == shown["src"]
    assert browser.evaluate("document.getElementById('proof').checked")
    browser.evaluate("document.getElementById('proof').click()")
    assert browser.until(f"({FIRST}).loaded && {FIRST}")["src"] == plain["src"]
