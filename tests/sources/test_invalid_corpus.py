"""The corpus of bad inputs: each case gives exactly its expected messages, exit 1, no
traceback, and leaves the previous build as it was.

A case is ``tests/data/invalid/<case>.yaml``: a few header lines, then the file's body
(bytes as they are, so encodings and NUL bytes can be tested)::

    # case: what is wrong
    # replaces: places            which file of tests/data/minimal/ the body stands for
                                  (templates/place: a template of the edition's own)
    # make: art/x.png corrupt-png  optional: files to make first (see MAKERS)
    # expect: decks/minimal/places.yaml:9:11: places[0].name: ...   one per message
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from deckforge.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"
CASES = sorted((DATA / "invalid").glob("*.yaml"))
VALID = sorted((DATA / "valid").glob("*.yaml"))


def _png(width: int, height: int) -> bytes:
    """A valid 1-bit greyscale PNG of any size, small on disk (rows compress to nothing)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    row = b"\x00" + b"\x00" * ((width + 7) // 8)
    compressor = zlib.compressobj(9)
    body = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
        + chunk(b"IDAT", body)
        + chunk(b"IEND", b"")
    )


def _make(root: Path, target: Path, how: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if how == "corrupt-png":
        target.write_bytes(b"\x89PNG\r\n\x1a\n" + b"not really an image" * 10)
    elif how == "gif-png":
        Image.new("RGB", (600, 600), (200, 60, 40)).save(target, format="GIF")
    elif how == "text-jpg":
        target.write_text("shopping: eggs, flour, butter\n")
    elif how == "bomb-png":
        target.write_bytes(_png(12_000, 12_000))
    elif how == "low-dpi-png":
        target.write_bytes(_png(100, 100))
    elif how == "svg-entity":
        target.write_text(
            '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY secret SYSTEM '
            '"file:///etc/passwd">]>\n<svg xmlns="http://www.w3.org/2000/svg" '
            'width="72" height="72"><text>&secret;</text></svg>\n'
        )
    elif how == "svg-href":
        target.write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" '
            'xmlns:xlink="http://www.w3.org/1999/xlink" width="72" height="72">'
            '<image xlink:href="file:///etc/hostname" width="72" height="72"/>'
            "</svg>\n"
        )
    elif how == "link-outside":
        outside = root.parent / "outside.png"
        outside.write_bytes(_png(600, 600))
        target.symlink_to(outside)
    elif how.startswith("sparse-"):
        with target.open("wb") as sparse:  # takes no room on disk
            sparse.truncate(int(how[7:]))
    elif how in _HOSTILE:
        _HOSTILE[how](root, target)
    else:
        raise AssertionError(f"unknown maker {how!r}")


_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
    'width="{w}" height="72">{body}</svg>\n'
)


def _svg(body: str, width: str = "72") -> str:
    return _SVG.format(w=width, body=body)


def _data_png(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode()


def _outside_png(root: Path) -> Path:
    """A picture outside the project (what hostile art tries to reach)."""
    outside = root.parent / "outside.png"
    outside.write_bytes(_png(600, 600))
    return outside


def _use_bomb(levels: int = 9) -> str:
    """Each level draws the one below ten times: 10**levels elements from 100."""
    defs = ['<rect id="l0" width="1" height="1"/>']
    for level in range(1, levels + 1):
        uses = "".join(f'<use xlink:href="#l{level - 1}"/>' for _ in range(10))
        defs.append(f'<g id="l{level}">{uses}</g>')
    return f'<defs>{"".join(defs)}</defs><use xlink:href="#l{levels}"/>'


def _truncated_jpeg(target: Path) -> None:
    image = Image.effect_noise((600, 600), 80).convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=90, dpi=(300, 300))
    target.write_bytes(buffer.getvalue()[: len(buffer.getvalue()) // 2])


_BROKEN_PNG = b"\x89PNG\r\n\x1a\n" + b"broken" * 3

#: Makers of hostile art: name -> function(project root, target).
_HOSTILE = {
    "svg-data-dotdot": lambda root, target: target.write_text(
        _svg(f'<image xlink:href="data:/../../{_outside_png(root).name}" width="9" height="9"/>')
    ),
    "svg-utf16": lambda root, target: target.write_bytes(
        (
            '<?xml version="1.0" encoding="UTF-16"?>\n'
            + _svg('<image href="file:///etc/hostname" width="9" height="9"/>')
        ).encode("utf-16")
    ),
    "svg-embedded-bomb": lambda root, target: target.write_text(
        _svg(f'<image href="{_data_png(_png(12_000, 12_000))}" width="9" height="9"/>')
    ),
    "svg-embedded-corrupt": lambda root, target: target.write_text(
        _svg(f'<image href="{_data_png(_BROKEN_PNG)}" width="9" height="9"/>')
    ),
    "svg-infinite-width": lambda root, target: target.write_text(
        _svg('<rect width="9" height="9"/>', width="1e999")
    ),
    "svg-use-bomb": lambda root, target: target.write_text(_svg(_use_bomb())),
    "svg-many-elements": lambda root, target: target.write_text(
        _svg('<rect width="1" height="1"/>' * 200_000)
    ),
    "svg-with-picture": lambda root, target: target.write_text(
        _svg(f'<image xlink:href="{_data_png(_png(64, 64))}" width="72" height="72"/>')
    ),
    "svg-not-svg": lambda root, target: target.write_text("<html><body>hi</body></html>\n"),
    "truncated-jpeg": lambda root, target: _truncated_jpeg(target),
    "fifo": lambda root, target: os.mkfifo(target),
}


def _parse(case: Path) -> tuple[dict[str, list[str]], bytes]:
    raw = case.read_bytes()
    header: dict[str, list[str]] = {}
    lines = raw.split(b"\n")
    body_start = 0
    for index, line in enumerate(lines):
        if not line.startswith(b"# ") or b":" not in line:
            body_start = index
            break
        key, _, value = line[2:].decode("utf-8").partition(":")
        if key not in ("case", "replaces", "make", "expect"):
            body_start = index
            break
        header.setdefault(key, []).append(value.strip())
    else:
        body_start = len(lines)
    return header, b"\n".join(lines[body_start:])


def _snapshot(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


@pytest.fixture(scope="module")
def good_build(tmp_path_factory) -> Path:
    """A build of the intact minimal edition, copied before each case runs."""
    root = tmp_path_factory.mktemp("minimal")
    shutil.copytree(DATA / "minimal", root / "decks" / "minimal")
    assert (
        main(["--decks", str(root / "decks"), "build", "--out", str(root / "build"), "--quiet"])
        == 0
    )
    return root / "build"


def _run(case: Path, tmp_path: Path, good_build: Path | None, capsys) -> tuple[int, str, Path]:
    header, body = _parse(case)
    decks = tmp_path / "project" / "decks"
    shutil.copytree(DATA / "minimal", decks / "minimal")
    out = tmp_path / "project" / "build"
    if good_build is not None:
        shutil.copytree(good_build, out)
    replaces = header.get("replaces", ["places"])[0]
    target = decks / "minimal" / f"{replaces}.yaml"
    target.parent.mkdir(parents=True, exist_ok=True)  # templates/place: the edition's own
    target.write_bytes(body)
    for spec in header.get("make", []):
        name, how = spec.split()
        _make(tmp_path / "project", decks / "minimal" / name, how)
    capsys.readouterr()
    code = main(["--decks", str(decks), "build", "--out", str(out), "--quiet"])
    return code, capsys.readouterr().err, out


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_bad_input_gives_its_exact_messages_and_keeps_the_build(
    case, tmp_path, good_build, capsys, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    header, _ = _parse(case)
    assert header.get("expect"), f"{case.name} names no expected message"
    before = _snapshot(good_build)
    code, err, out = _run(case, tmp_path, good_build, capsys)
    assert "Traceback" not in err
    assert code == 1, err
    lines = err.strip().splitlines()
    assert lines[-1].startswith("build failed:") and lines[-1].endswith("nothing was written")
    messages = [line for line in lines[:-1] if not line.startswith(" ")]
    assert messages == header["expect"]
    assert _snapshot(out) == before
    assert not [p for p in out.rglob("*.tmp")]


@pytest.mark.parametrize("case", VALID, ids=[c.stem for c in VALID])
def test_accepted_inputs_build(case, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, err, _ = _run(case, tmp_path, None, capsys)
    assert code == 0, err
