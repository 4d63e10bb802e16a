"""Caches are data that cannot run, and are checked before they are believed: a damaged,
truncated or planted cache file (font instances, icon drawings, the build's record) is
set aside with a warning and made again, and the build gives the same files."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from deckforge import cache as kept
from deckforge.cache import encode as encode_entry
from deckforge.cli import main
from deckforge.pipeline.record import CACHE_NAME
from deckforge.profiles import all_profiles
from deckforge.render import press
from deckforge.text import fonts

pytestmark = pytest.mark.slow  # first builds from empty caches, each cache damaged and made again

DATA = Path(__file__).resolve().parents[1] / "data"


def _arguments(decks: Path, out: Path) -> list[str]:
    return ["--decks", str(decks), "build", "--profile", "printer", "--out", str(out)] + [
        "--jobs",
        "1",
        "--force",
    ]


def _outputs(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*.pdf"))
    }


class _Planted:
    """What a planted pickle does when it is loaded: create a file (any command could
    run instead)."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


@pytest.fixture(scope="module")
def first_builds(tmp_path_factory) -> Callable[[str], tuple[Path, Path, Path]]:
    """A first build of the small edition in a language (English, or Persian, whose lines
    are drawn in the line face), made once a module: its decks, the cache folder of its
    own it filled and its output folder. The cache starts with the shared one's font
    instances and press profile (cutting and making them again would take a while); the
    first build makes the rest."""
    made: dict[str, tuple[Path, Path, Path]] = {}

    def first(locale: str) -> tuple[Path, Path, Path]:
        if locale not in made:
            root = tmp_path_factory.mktemp(f"first-build-{locale}")
            decks = root / "decks"
            shutil.copytree(DATA / "minimal", decks / "minimal")
            edition = decks / "minimal" / "edition.yaml"
            edition.write_text(edition.read_text().replace("locale: en", f"locale: {locale}"))
            cache = root / "cache"
            cache.mkdir()
            # The instances this version reads, with their entries: the shared folder may
            # also hold ones cut by other versions, which a build never reads.
            instances = (
                fonts.instance_of(f, style) for f in fonts.FAMILIES for style in fonts.STYLES
            )
            for instance in (i for i in instances if i is not None):
                path, _ = fonts._bytes_of(instance)  # cut into the shared folder if missing
                shutil.copy2(path, cache / path.name)
                shutil.copy2(path.parent / f"{fonts._name(instance)}.json", cache)
            limit = all_profiles()["printer"].ink_limit
            press.profile_bytes(limit)  # made into the shared folder if missing
            found = kept.load_file(press._name(limit), press._FORMAT, ".icc")
            assert found is not None
            shutil.copy2(found[0], cache / found[0].name)
            shutil.copy2(kept.path_of(press._name(limit)), cache)
            done = _build(decks, root / "one", cache)
            assert done.returncode == 0, done.stderr
            made[locale] = decks, cache, root / "one"
        return made[locale]

    return first


def _after_first_build(first_builds, tmp_path: Path, locale: str = "en") -> tuple[Path, Path, Path]:
    """The decks and outputs of the first build in ``locale`` (read, never written), and
    a copy of the cache it filled in ``tmp_path``, for the test to damage."""
    decks, cache, one = first_builds(locale)
    shutil.copytree(cache, tmp_path / "cache")
    return decks, tmp_path / "cache", one


def _build(decks: Path, out: Path, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "DECKFORGE_CACHE": str(cache), "SOURCE_DATE_EPOCH": "1700000000"}
    command = [sys.executable, "-m", "deckforge", *_arguments(decks, out)]
    return subprocess.run(command, env=env, capture_output=True, text=True, check=False)


def test_pickles_planted_in_the_cache_never_run(first_builds, tmp_path):
    decks, cache, one = _after_first_build(first_builds, tmp_path)
    marker = tmp_path / "ran"
    planted = pickle.dumps(_Planted(marker))
    # Every entry of the cache but the font instances' and every file, of which one font
    # (the others would only take a minute to cut again, and are read as bytes like it).
    font = _font_instance(cache)
    entries = [p for p in cache.glob("*.json") if not p.name.startswith("font-")]
    files = [*entries, _press(cache), font]
    assert any("icon" in p.name for p in files) and any("press" in p.name for p in files)
    for path in files:
        path.write_bytes(planted)
    again = _build(decks, tmp_path / "two", cache)
    assert again.returncode == 0, again.stderr
    assert not marker.exists()
    said = [line for line in again.stderr.splitlines() if "the cache entry is damaged" in line]
    for damaged in (f"{font}: ", f"{_icon_cache(cache)}: ", f"{cache / 'press-fogra39-'}"):
        assert any(line.startswith(damaged) for line in said), again.stderr
    assert "Traceback" not in again.stderr
    assert _outputs(tmp_path / "two") == _outputs(one)


def test_a_truncated_font_instance_is_made_again(first_builds, tmp_path):
    decks, cache, one = _after_first_build(first_builds, tmp_path)
    victim = _font_instance(cache)
    victim.write_bytes(victim.read_bytes()[:1000])
    again = _build(decks, tmp_path / "two", cache)
    assert again.returncode == 0, again.stderr
    assert f"{victim}: the cache entry is damaged" in again.stderr
    assert _outputs(tmp_path / "two") == _outputs(one)
    third = _build(decks, tmp_path / "three", cache)
    assert "damaged" not in third.stderr  # made again whole, and kept


def _header(body: bytes) -> bytes:
    """The header a record with this body would have (so its shape is what is wrong)."""
    sha = hashlib.sha256(body).hexdigest()
    header = {"format": "deckforge-cache", "version": "build-record-3", "sha256": sha}
    return json.dumps(header).encode()


@pytest.mark.parametrize(
    "damage,reason",
    [
        (lambda raw: raw[: len(raw) // 2], "it does not match its checksum"),
        (lambda raw: b"", "it is not a cache entry deckforge wrote"),
        (lambda raw: pickle.dumps({"outputs": {}}), "it is not a cache entry deckforge wrote"),
        (lambda raw: b"[1, 2, 3]", "it is not a cache entry deckforge wrote"),
        (lambda raw: _header(b"[]") + b"\n[]", "it is not a mapping"),
        (
            lambda raw: _header(b'{"outputs": {"a.pdf": 1}}') + b'\n{"outputs": {"a.pdf": 1}}',
            "has entries deckforge did not write ('a.pdf')",
        ),
        (
            lambda raw: _header(b'{"outputs": {"../x": {}}}') + b'\n{"outputs": {"../x": {}}}',
            "has entries deckforge did not write ('../x')",
        ),
    ],
)
def test_a_damaged_build_record_is_set_aside_with_a_warning(tmp_path, capsys, damage, reason):
    decks = tmp_path / "decks"
    shutil.copytree(DATA / "minimal", decks / "minimal")
    out = tmp_path / "build"
    arguments = _arguments(decks, out)[:-1]  # incremental: the record is read
    assert main(arguments) == 0
    made = _outputs(out)
    record = out / CACHE_NAME
    record.write_bytes(damage(record.read_bytes()))
    capsys.readouterr()
    assert main(arguments) == 0
    err = capsys.readouterr().err
    assert f"{CACHE_NAME}: warning: " in err and reason in err, err
    assert "Traceback" not in err
    assert _outputs(out) == made
    assert main(arguments) == 0  # the record written then is whole again
    assert "warning: the incremental build record" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "header",
    [
        b'{"format": "deckforge-build-cache", "version": 2, "sha256": "0"}\n',
        b'{"format": "deckforge-cache", "version": "build-record-2", "sha256": "0"}\n',
    ],
)
def test_a_build_record_of_an_earlier_version_is_set_aside_without_a_word(tmp_path, capsys, header):
    decks = tmp_path / "decks"
    shutil.copytree(DATA / "minimal", decks / "minimal")
    out = tmp_path / "build"
    arguments = _arguments(decks, out)[:-1]
    assert main(arguments) == 0
    record = out / CACHE_NAME
    record.write_bytes(header + record.read_bytes().partition(b"\n")[2])
    capsys.readouterr()
    assert main(arguments) == 0
    assert "incremental build record" not in capsys.readouterr().err
    written = json.loads(record.read_bytes().partition(b"\n")[0])
    assert (written["format"], written["version"]) == ("deckforge-cache", "build-record-3")


def test_a_named_pipe_in_place_of_the_build_record_is_not_waited_on(tmp_path, capsys):
    decks = tmp_path / "decks"
    shutil.copytree(DATA / "minimal", decks / "minimal")
    out = tmp_path / "build"
    arguments = _arguments(decks, out)[:-1]
    assert main(arguments) == 0
    (out / CACHE_NAME).unlink()
    os.mkfifo(out / CACHE_NAME)
    capsys.readouterr()
    assert main(arguments) == 0
    err = capsys.readouterr().err
    assert "the incremental build record cannot be used (it is a named pipe (FIFO)" in err
    assert (out / CACHE_NAME).is_file()  # replaced by the record of this build


def _garbage(size: int) -> bytes:
    return bytes((n * 7919 + 13) % 251 for n in range(size))


def _font_instance(cache: Path) -> Path:
    return _named_file(cache, "font-NotoSans-Regular-*", ".ttf")


def _line_face(cache: Path) -> Path:
    """The line face the build made (the newest: the cache may hold older ones)."""
    return _named_file(cache, "font-NotoSansArabicLatin-Bold-*", ".ttf")


def _icon_cache(cache: Path) -> Path:
    return cache / "icon-drawings.json"


def _named_file(cache: Path, pattern: str, suffix: str) -> Path:
    """The file the cache entry ``pattern`` names (the newest such entry)."""
    entry = max(cache.glob(f"{pattern}.json"), key=lambda path: path.stat().st_mtime_ns)
    digest = json.loads(entry.read_bytes().partition(b"\n")[2])["sha256"]
    return cache / f"{digest}{suffix}"


def _rename_file(victim: Path, data: bytes) -> Path:
    """``data`` in a file named by its digest in place of ``victim``, the entry naming
    ``victim`` made to name it; the file."""
    cache = victim.parent
    old = victim.name.partition(".")[0]
    (entry,) = [p for p in cache.glob("*.json") if old.encode() in p.read_bytes()]
    version = json.loads(entry.read_bytes().partition(b"\n")[0])["version"]
    digest = hashlib.sha256(data).hexdigest()
    entry.write_bytes(encode_entry(version, {"sha256": digest}))
    victim.unlink()
    (cache / f"{digest}{victim.suffix}").write_bytes(data)
    return cache / f"{digest}{victim.suffix}"


def _press(cache: Path) -> Path:
    return _named_file(cache, "press-fogra39-*", ".icc")


def _kept_digests(cache: Path) -> Path:
    return cache / "font-sources.json"


def _font_body(path: Path) -> Path:
    """The table directory of the font kept, its tables garbage, its entry naming it."""
    raw = path.read_bytes()
    return _rename_file(path, raw[:300] + _garbage(len(raw) - 300))


def _icons_body(path: Path) -> None:
    """The header's checksum matches data that is not drawings."""
    version = json.loads(path.read_bytes().partition(b"\n")[0])["version"]
    path.write_bytes(encode_entry(version, [["1F333", None, 72, 72, ["/Im0 Do"]]]))


def _press_body(path: Path) -> Path:
    """The entry names, by its checksum, a profile that is not one."""
    return _rename_file(path, _garbage(4000))


def _digests_body(path: Path) -> None:
    """The header's checksum matches data that is not digests by digest."""
    version = json.loads(path.read_bytes().partition(b"\n")[0])["version"]
    path.write_bytes(encode_entry(version, [["ab" * 32, 16]]))


_CACHES = {
    "font instance": (_font_instance, "the cache entry is damaged", _font_body),
    "line face": (_line_face, "the cache entry is damaged", _font_body),
    "icon drawings": (_icon_cache, "the cache entry is damaged", _icons_body),
    "press profile": (_press, "the cache entry is damaged", _press_body),
    "kept digests": (_kept_digests, "the cache entry is damaged", _digests_body),
}


@pytest.mark.parametrize("damage", ["truncated", "garbage", "header kept, body bad"])
@pytest.mark.parametrize("cached", sorted(_CACHES))
def test_every_cache_damaged_any_way_is_made_again_and_the_build_succeeds(
    first_builds, tmp_path, cached, damage
):
    locale = "fa" if cached == "line face" else "en"  # right-to-left lines are drawn in it
    decks, cache, one = _after_first_build(first_builds, tmp_path, locale)
    find, warning, bad_body = _CACHES[cached]
    victim = find(cache)
    raw = victim.read_bytes()
    damaged = victim
    if damage == "truncated":
        victim.write_bytes(raw[: len(raw) // 2])
    elif damage == "garbage":
        victim.write_bytes(_garbage(len(raw)))
    else:
        damaged = bad_body(victim) or victim  # a file named by its digest: another one
    again = _build(decks, tmp_path / "two", cache)
    assert again.returncode == 0, again.stderr
    said = [line for line in again.stderr.splitlines() if line.startswith(f"{damaged}: ")]
    assert len(said) == 1 and said[0].startswith(f"{damaged}: {warning}"), again.stderr
    assert "internal error" not in again.stderr
    assert _outputs(tmp_path / "two") == _outputs(one)
    third = _build(decks, tmp_path / "three", cache)
    assert third.returncode == 0, third.stderr
    assert str(victim) not in third.stderr  # made again whole, and kept
    assert find(cache).read_bytes() == raw
