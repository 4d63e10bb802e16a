"""Property-based fuzzing of what is not YAML: art files (PNG, JPEG, SVG) and caches
(the build's record, the icon cache, font instances, the press profile, the manifest).
Whatever their bytes, reading them gives deckforge's own answer — the art checked or an
ArtError, the cache used or set aside — never an unhandled exception.

``make test`` runs a bounded number of examples; ``make fuzz`` runs 10,000
(DECKFORGE_FUZZ_EXAMPLES sets the number).
"""

from __future__ import annotations

import base64
import io
import json
import math
import os
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from deckforge import cache as kept
from deckforge import manifest
from deckforge.art import images
from deckforge.pipeline import record
from deckforge.render.pdf import icon_cache
from deckforge.text import fonts
from test_fuzz import FUZZ


def _raster(kind: str, size: tuple[int, int] = (8, 8)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 60, 40)).save(buffer, kind)
    return buffer.getvalue()


PNG, JPEG = _raster("PNG"), _raster("JPEG", (16, 16))
_SVG_OPEN = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
    'width="72" height="72" viewBox="0 0 72 72">'
)
SVG = (
    _SVG_OPEN
    + '<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/></linearGradient>'
    + '<rect id="r" width="9" height="9" fill="url(#g)"/></defs>'
    + '<use xlink:href="#r" x="3"/><circle cx="36" cy="36" r="20" stroke="#000"/>'
    + f'<image xlink:href="data:image/png;base64,{base64.b64encode(PNG).decode()}" '
    + 'width="20" height="20"/><text x="5" y="60">hi</text></svg>'
).encode()
SEEDS = {".png": PNG, ".jpg": JPEG, ".svg": SVG}


def _mutated(data, raw: bytes, insert: bytes) -> bytes:
    at = data.draw(st.integers(0, len(raw)))
    cut = data.draw(st.integers(0, 16))
    return raw[:at] + insert + raw[at + cut :]


def _inspect(suffix: str, raw: bytes) -> None:
    """Inspect art of these bytes: checked art has a finite, positive size."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"art{suffix}"
        path.write_bytes(raw)
        try:
            info = images.inspect(path)
        except images.ArtError:
            return
        assert math.isfinite(info.width) and info.width > 0
        assert math.isfinite(info.height) and info.height > 0


@FUZZ
@given(
    suffix=st.sampled_from(sorted(SEEDS)),
    data=st.data(),
    insert=st.binary(max_size=16),
)
def test_mutated_art_is_checked_or_refused(suffix, data, insert):
    _inspect(suffix, _mutated(data, SEEDS[suffix], insert))


#: Attribute values that have broken SVG readers: numbers out of range, references out
#: of the file, malformed addresses.
_VALUES = st.sampled_from(
    ["1e999", "-1e999", "nan", "inf", "0", "-5", "1e308", "50%", "", "#r", "#nowhere"]
    + ["data:/../x.png", "file:///etc/hostname", "data:image/png;base64,AAAA", "url(#g)"]
    + ["url(file:///x)", "data:image/svg+xml;base64,PHN2Zy8+", "http://example.com/x.png"]
) | st.text(max_size=12)
_ELEMENTS = st.sampled_from(["rect", "circle", "use", "image", "g", "path", "text", "line"])
_ATTRIBUTES = st.sampled_from(
    ["width", "height", "x", "y", "r", "d", "transform", "xlink:href", "href", "fill", "id"]
)


@st.composite
def _svg_documents(draw) -> bytes:
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        name = draw(_ELEMENTS)
        attributes = draw(st.dictionaries(_ATTRIBUTES, _VALUES, max_size=4))
        shown = " ".join(f'{k}="{_escaped(v)}"' for k, v in attributes.items())
        parts.append(f"<{name} {shown}/>")
    width = draw(_VALUES)
    body = _SVG_OPEN.replace('width="72"', f'width="{_escaped(width)}"') + "".join(parts)
    return (body + "</svg>").encode("utf-8", "surrogatepass")


def _escaped(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


@FUZZ
@given(document=_svg_documents())
def test_generated_svg_is_checked_or_refused(document):
    _inspect(".svg", document)


# --- caches -------------------------------------------------------------------------------


def _record_bytes() -> bytes:
    entry = {"path": "minimal-en/printer/places.pdf", "edition": "minimal-en"}
    data = {"outputs": {"minimal-en/printer/places.pdf": {"hash": "x", "entry": entry}}}
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / record.CACHE_NAME
        record.save({**data, "editions": {}, "toolchain": "t"}, target)
        return target.read_bytes()


RECORD = _record_bytes()


@FUZZ
@given(data=st.data(), insert=st.binary(max_size=16))
def test_a_mutated_build_record_is_used_or_set_aside(data, insert):
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / record.CACHE_NAME).write_bytes(_mutated(data, RECORD, insert))
        loaded, problems = record.load(Path(tmp))
    assert isinstance(loaded, dict) and all(p.severity == "warning" for p in problems)


@FUZZ
@given(data=st.data(), insert=st.binary(max_size=16))
def test_a_mutated_manifest_is_read_or_refused(data, insert):
    raw = json.dumps(
        {"outputs": [{"path": "a/b.pdf", "edition": "a", "profile": "b", "pages": 1}]}
    ).encode()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / manifest.MANIFEST_NAME).write_bytes(_mutated(data, raw, insert))
        try:
            entries = manifest.read(Path(tmp))
        except manifest.ManifestError:
            return
    assert all(isinstance(entry, manifest.Entry) for entry in entries)


@FUZZ
@given(data=st.data(), insert=st.binary(max_size=16), which=st.sampled_from(["icon", "press"]))
def test_a_mutated_cache_file_is_used_or_made_again(data, insert, which):
    drawings = icon_cache.encode({("1F373", None): (72.0, 72.0, ("0 0 m", "f"))})
    icons = kept.encode(icon_cache.entry_version(), drawings)
    raw = icons if which == "icon" else b"ICC"
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DECKFORGE_CACHE"], saved = tmp, os.environ.get("DECKFORGE_CACHE")
        try:
            if which == "icon":
                path = icon_cache.cache_path()
                path.write_bytes(_mutated(data, raw, insert))
                icon_cache.ICON_CODE.clear()
                icon_cache.load()
                # Whatever the painter is given is a drawing (its operators checked
                # when it is first wanted).
                for key in [*icon_cache.ICON_CODE, *icon_cache._UNCHECKED]:
                    found = icon_cache.fetch(key)
                    if found is None:
                        continue
                    width, height, ops = found
                    assert isinstance(key[0], str) and width > 0 and height > 0
                    assert all(isinstance(op, str) for op in ops) and icon_cache.only_drawing(ops)
            else:
                path = kept.store_file("p", 1, raw, ".icc")
                path.write_bytes(_mutated(data, raw, insert))
                assert kept.load_file("p", 1, ".icc") in (None, (path, raw))
        finally:
            icon_cache.ICON_CODE.clear()
            if saved is None:
                del os.environ["DECKFORGE_CACHE"]
            else:
                os.environ["DECKFORGE_CACHE"] = saved


@FUZZ
@given(data=st.data(), insert=st.binary(max_size=16))
def test_a_mutated_font_instance_is_used_only_whole(data, insert):
    original = b"\x00\x01\x00\x00" + bytes(range(256)) * 4
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DECKFORGE_CACHE"], saved = tmp, os.environ.get("DECKFORGE_CACHE")
        try:
            path = fonts.keep_bytes("font-Face", original)
            mutated = _mutated(data, original, insert)
            path.write_bytes(mutated)
            found = fonts.cached_bytes("font-Face")
        finally:
            if saved is None:
                del os.environ["DECKFORGE_CACHE"]
            else:
                os.environ["DECKFORGE_CACHE"] = saved
    assert found == ((path, original) if mutated == original else None)
