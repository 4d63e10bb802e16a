"""A first build fills the caches before its workers start: the font instances its
editions' scripts need and the drawings of the icons its cards show."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from deckforge.render.pdf import icon_cache

EXAMPLE = Path(icon_cache.__file__).parents[2] / "sources" / "games" / "example"


def test_a_first_build_cuts_the_fonts_and_draws_the_icons_its_cards_need(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "decks" / "example")
    cache = tmp_path / "cache"
    done = subprocess.run(
        [sys.executable, "-m", "deckforge", "build", "--jobs", "2", "--quiet"],
        cwd=tmp_path,
        env={**os.environ, "DECKFORGE_CACHE": str(cache)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    # The Latin and Arabic faces (the line face is made from both), and the line faces.
    fonts = {p.name.rsplit("-", 1)[0] for p in (cache / "fonts").glob("*.ttf")}
    for family in ("NotoSans", "NotoSansArabic", "NotoSansArabicLatin"):
        assert {f"{family}-Bold", f"{family}-Regular"} <= fonts
    for font in (cache / "fonts").glob("NotoSans*-[RB]*.ttf"):
        if font.name.startswith("NotoSansArabicLatin"):
            continue  # made from the others, not cut
        checksum = font.with_name(font.name + ".sha256").read_text().strip()
        assert hashlib.sha256(font.read_bytes()).hexdigest() == checksum
    (stored,) = cache.glob("icon-drawings-*.bin")
    codes = {code for code, colour in icon_cache.decode(stored.read_bytes()) if colour is None}
    assert {"1F333", "1F373", "1F3D6", "1F409", "1F3F0"} <= codes
