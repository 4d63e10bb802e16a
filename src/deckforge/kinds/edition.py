"""An edition as a whole: its manifest and the sources it names, checked together and
then built into the model, each deck and component by its kind.
"""

from __future__ import annotations

import hashlib
from collections.abc import Set as AbstractSet
from pathlib import Path

from deckforge.errors import ERROR, Problem, close_matches
from deckforge.fsutil import digest
from deckforge.kinds import Checked, Kind, Reader, component_kinds, deck_kinds, kind_named
from deckforge.model import Deck, Edition, Palette
from deckforge.sources.load import LoadedEdition
from deckforge.sources.rules import (
    containers,
    dedupe,
    hidden_characters,
    translation_problems,
    unique,
)
from deckforge.sources.schema import describe, schema_problems
from deckforge.sources.source import Source
from deckforge.units import card_size_mm

GROUPS = ("decks", "components")


def validate_edition(loaded: LoadedEdition) -> list[Problem]:
    """Every problem of an edition's sources: schemas first, then the rules across files."""
    manifest = loaded.manifest
    problems = [*schema_problems(manifest, "edition"), *hidden_characters(manifest)]
    if problems:
        return problems
    data = manifest.data
    locale = data["locale"]
    players = _players(data)
    if players[0] > players[1]:
        problems.append(Problem(manifest.ref(("players",)), "min is greater than max"))
    sound: dict[str, dict[str, Source]] = {}
    for group in GROUPS:
        problems.extend(unique(manifest, data.get(group, []), group, "id", None, "id"))
        sound[group] = {}
        for entry in data.get(group, []):
            source = _sources(loaded, group).get(entry["id"])
            if source is None:
                continue
            name = _kind_name(source)
            kind = _kinds(group).get(name) if name is not None else None
            if kind is None:
                problems.append(_kind_problem(source, group))
                continue
            walked = containers(source.data)  # one walk for both rules
            found = [
                *schema_problems(source, kind.schema),
                *hidden_characters(source, walked),
                *translation_problems(source, locale, walked),
            ]
            problems.extend(found)
            if not found:
                sound[group][entry["id"]] = source
    checked = Checked(locale, players, loaded.root, {**sound["decks"], **sound["components"]})
    for index, entry in enumerate(data["decks"]):
        source = sound["decks"].get(entry["id"])
        if source is None:
            continue
        kind = deck_kinds()[source.data["kind"]]
        found = list(kind.rules(source, checked))
        problems.extend(found)
        if "count" not in entry or any(p.severity == ERROR for p in found):
            continue  # a deck whose rows cannot all be read has no count to compare yet
        count = kind.count(source, checked)
        if count != entry["count"]:
            problems.append(
                Problem(
                    manifest.ref(("decks", index, "count")),
                    f"deck '{entry['id']}' has {count} cards in {source.display}; "
                    f"the edition says {entry['count']}",
                )
            )
    for entry in data.get("components", []):
        source = sound["components"].get(entry["id"])
        if source is not None:
            problems.extend(component_kinds()[source.data["kind"]].rules(source, checked))
    return dedupe(problems)


def _players(data: dict) -> tuple[int, int]:
    players = data.get("players", {})
    return players.get("min", 1), players.get("max", 8)


def _sources(loaded: LoadedEdition, group: str) -> dict[str, Source]:
    return loaded.decks if group == "decks" else loaded.components


def _kinds(group: str) -> dict[str, Kind]:
    return deck_kinds() if group == "decks" else component_kinds()  # type: ignore[return-value]


def _kind_name(source: Source) -> str | None:
    kind = source.data.get("kind") if isinstance(source.data, dict) else None
    return kind if isinstance(kind, str) else None


def _kind_problem(source: Source, group: str) -> Problem:
    what = "deck" if group == "decks" else "component"
    kinds = list(_kinds(group))
    choices = ", ".join(kinds)
    if not isinstance(source.data, dict):
        return Problem(
            source.ref(),
            f"a {what} file must be a mapping that starts with "
            f"'kind: ...' (one of: {choices}), not {describe(source.data)}",
        )
    if "kind" not in source.data:
        return Problem(
            source.ref(), f"missing key 'kind': a {what} file says what it holds, one of: {choices}"
        )
    kind = source.data["kind"]
    guess = close_matches(str(kind), kinds)
    hint = f"; did you mean '{guess[0]}'?" if guess else f" (one of: {choices})"
    return Problem(source.ref(("kind",)), f"{kind!r} is not a kind of {what}{hint}")


def build_edition(loaded: LoadedEdition, skip: AbstractSet[str] = frozenset()) -> Edition:
    """The model of a loaded edition whose sources passed validation.

    Decks and components whose source file is named in ``skip`` (files with
    errors) are left out, so the rest can still be laid out and checked.
    """
    manifest = loaded.manifest.data
    reader = Reader(loaded)
    read = _read_by_source(loaded)

    def sound(entry: dict, table: dict[str, Source]) -> bool:
        source = table.get(entry["id"])
        return source is not None and source.display not in skip

    players = manifest.get("players", {"min": 1, "max": 8})
    return Edition(
        id=manifest["id"],
        game=manifest["game"],
        title=manifest["title"],
        locale=manifest["locale"],
        players=(players["min"], players["max"]),
        palette=Palette(**manifest.get("colours", {})),
        decks=tuple(
            _deck(reader, i, d) for i, d in enumerate(manifest["decks"]) if sound(d, loaded.decks)
        ),
        components=tuple(
            component_kinds()[loaded.components[c["id"]].data["kind"]].component(
                c["id"], loaded.components[c["id"]], reader
            )
            for c in manifest.get("components", [])
            if sound(c, loaded.components)
        ),
        folder=loaded.folder,
        sources=tuple(s.path for s in loaded.all_sources()),
        inputs={path: sha for found in read.values() for path, sha in found.items()},
        root=loaded.root,
        made_of={
            d["id"]: _made_of(reader, loaded.decks[d["id"]], read)
            for d in manifest["decks"]
            if sound(d, loaded.decks)
        },
    )


def _deck(reader: Reader, index: int, entry: dict) -> Deck:
    manifest = reader.loaded.manifest
    source = reader.loaded.decks[entry["id"]]
    kind = deck_kinds()[source.data["kind"]]
    back = entry.get("back")
    size = entry.get("size")
    return Deck(
        id=entry["id"],
        kind=kind.name,
        size_name=size or "",
        size_mm=card_size_mm(size, entry.get("orientation")) if size else None,
        cards=tuple(kind.cards(source, reader)),
        back_label=reader.text(manifest, ("decks", index, "back"), back)
        if back is not None
        else None,
        ref=manifest.ref(("decks", index)),
    )


def _made_of(reader: Reader, source: Source, read: dict[Path, dict[Path, str]]) -> str:
    """The digest of what a deck's model is a function of besides the code: its source,
    the manifest (its entry, the language) and the files its kind reads, by content and
    place (paths and the names problems give are in the model); "" when one of them
    has no digest (a source not read from bytes)."""
    loaded = reader.loaded
    parts = [str(loaded.root), reader.locale]
    for one in (loaded.manifest, source):
        if not one.digest:
            return ""
        parts += [str(one.path), one.display, one.digest]
    kind = kind_named(_kind_name(source))
    drawn = kind.drawn_only(source) if kind else set()
    for path, sha in read[source.path].items():
        if path not in drawn:
            parts += [str(path), sha]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _read_by_source(loaded: LoadedEdition) -> dict[Path, dict[Path, str]]:
    """Each source's path, with the digest of its content and of the art files and
    folders it names (a folder's listing matters too), by path; nothing outside the
    project, and nothing but regular files, is read for them. The edition's inputs are
    all of them; a deck's model is made of its own."""
    found: dict[Path, dict[Path, str]] = {}
    for source in loaded.all_sources():
        mine = found.setdefault(source.path, {})
        mine[source.path] = source.digest
        kind = kind_named(_kind_name(source))
        for path in kind.inputs(source, loaded.root) if kind else ():
            mine[path] = digest(path, loaded.root)
    return found
