"""The documentation site in a real browser: headless Chromium opens every page that has
pictures, and every picture loads."""

from __future__ import annotations

import pytest

#: Chromium opens the site.
pytestmark = pytest.mark.engines

#: Every image of the page, made to load now, and whether it did: a broken image is
#: complete with no natural width.
IMAGES = """(async () => {
  const images = [...document.images];
  await Promise.all(images.map((image) => image.decode().catch(() => null)));
  return images.map((image) => ({
    src: image.getAttribute("src"),
    loaded: image.complete && image.naturalWidth > 0,
  }));
})()"""


def test_every_picture_of_the_site_loads(browser, site):
    pages = sorted(p for p in site.rglob("*.html") if "<img" in p.read_text(encoding="utf-8"))
    names = {str(p.relative_to(site)) for p in pages}
    assert {"index.html", "tutorial/index.html", "gallery/index.html"} <= names
    seen = 0
    for page in pages:
        browser.open(page.as_uri())
        images = browser.evaluate(IMAGES)
        assert images and all(image["loaded"] for image in images), (page, images)
        seen += len(images)
    assert seen >= 40


def test_a_missing_picture_is_seen(browser, site, tmp_path):
    # The check above would pass on pages whose images all fail if it could not tell.
    page = tmp_path / "page.html"
    page.write_text(f'<img src="{(site / "no-such.png").as_uri()}">', encoding="utf-8")
    browser.open(page.as_uri())
    assert [image["loaded"] for image in browser.evaluate(IMAGES)] == [False]
