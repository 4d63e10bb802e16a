"""Validate stage: the rules of each kind of source, and of an edition's files together.

Every problem is collected and returned as :class:`~deckforge.errors.Problem` values
pointing at the YAML line; schema checks and the rules every source keeps are in
:mod:`deckforge.sources`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from pathlib import Path

from deckforge.errors import WARNING, Problem
from deckforge.sources.load import LoadedEdition
from deckforge.sources.rules import (
    art_fields,
    dedupe,
    hidden_characters,
    icon_problems,
    translation_problems,
    unique,
)
from deckforge.sources.rules import art_problems as check_art
from deckforge.sources.schema import describe, schema_problems
from deckforge.sources.source import Source

#: Places one game uses without repeats: six rounds of eight places.
PLACES_FOR_A_GAME = 48
DECK_KINDS = ("places", "mess", "which-way", "numbered", "blank", "pictures")
COMPONENT_KINDS = ("score-pad", "rulebook", "track", "pawns")


def card_count(data: dict) -> int:
    """How many cards a (schema-valid) deck source makes."""
    kind = data["kind"]
    if kind == "places":
        return len(data["places"])
    if kind == "mess":
        return len(data["items"])
    if kind == "which-way":
        return len(data["cards"])
    if kind == "pictures":
        return data["count"]
    if kind == "numbered":
        span = data["numbers"]["to"] - data["numbers"]["from"] + 1
        return max(span, 0) * max(len(data.get("colours", [])), 1)
    return data["count"]


def which_way_problems(source: Source, players: tuple[int, int]) -> Iterator[Problem]:
    """A Which Way card must never send a mess back to its maker, at any count it is used with."""
    low, high = players
    cards = source.data["cards"]
    for index, card in enumerate(cards):
        for n in range(max(card["min_players"], low), high + 1):
            seat = card["distance"] % n
            if seat == 0:
                yield Problem(
                    source.ref(("cards", index)),
                    f"'{card['id']}' ({card['direction']} {card['distance']}) sends a mess back "
                    f"to its own maker with {n} players",
                )
                break
        if card["min_players"] > high:
            yield Problem(
                source.ref(("cards", index, "min_players")),
                f"min_players {card['min_players']} is more than the edition's "
                f"{high} players; the card is never used",
            )
    for n in range(low, high + 1):
        if not any(c["min_players"] <= n for c in cards):
            yield Problem(source.ref(("cards",)), f"no card is used with {n} players")


def art_problems(source: Source, root: Path) -> Iterator[Problem]:
    """Art paths must name existing files inside the project (no ``..``, absolute paths or
    links that lead out of it)."""
    data = source.data
    art = art_fields(data, "places") + art_fields(data, "items")
    if isinstance(data.get("art_folder"), str):
        art.append((("art_folder",), data["art_folder"], True))
    return check_art(source, art, root)


def deck_problems(source: Source, locale: str, categories: set[str] | None) -> Iterator[Problem]:
    """Rules within one deck source: unique ids and names, known categories."""
    data = source.data
    kind = data["kind"]
    if kind == "places":
        ids = {c["id"] for c in data["categories"]}
        yield from unique(source, data["categories"], "categories", "id", None, "category id")
        yield from unique(source, data["places"], "places", "id", None, "id")
        yield from unique(source, data["places"], "places", "name", locale, "name")
        yield from icon_problems(source, data["places"], "places", distinct=False)
        for index, place in enumerate(data["places"]):
            if place["category"] not in ids:
                guess = difflib.get_close_matches(place["category"], sorted(ids), n=1)
                hint = f"; did you mean '{guess[0]}'?" if guess else ""
                yield Problem(
                    source.ref(("places", index, "category")),
                    f"unknown category '{place['category']}'{hint}",
                )
    elif kind == "mess":
        yield from unique(source, data["items"], "items", "id", None, "id")
        yield from unique(source, data["items"], "items", "name", locale, "name")
        yield from icon_problems(source, data["items"], "items", distinct=True)
        if categories is not None:
            for index, item in enumerate(data["items"]):
                for j, category in enumerate(item["suggests"]):
                    if category not in categories:
                        yield Problem(
                            source.ref(("items", index, "suggests", j)),
                            f"unknown place category '{category}'",
                        )
    elif kind == "which-way":
        yield from unique(source, data["cards"], "cards", "id", None, "id")
    elif kind == "numbered":
        if data["numbers"]["from"] > data["numbers"]["to"]:
            yield Problem(source.ref(("numbers",)), "'from' is greater than 'to'")
        colours = data.get("colours", [])
        yield from unique(source, colours, "colours", "id", None, "colour id")
        yield from unique(source, colours, "colours", "name", locale, "colour name")
        yield from unique(source, colours, "colours", "hex", None, "colour")
        yield from unique(source, colours, "colours", "symbol", None, "symbol")


def _kind_problem(source: Source, kinds: tuple[str, ...], group: str) -> Problem:
    what = "deck" if group == "decks" else "component"
    choices = ", ".join(kinds)
    if not isinstance(source.data, dict):
        return Problem(
            source.ref(),
            f"a {what} file must be a mapping that starts with "
            f"'kind: ...' (one of: {choices}), not "
            f"{describe(source.data)}",
        )
    if "kind" not in source.data:
        return Problem(
            source.ref(), f"missing key 'kind': a {what} file says what it holds, one of: {choices}"
        )
    kind = source.data["kind"]
    guess = difflib.get_close_matches(str(kind), kinds, n=1)
    hint = f"; did you mean '{guess[0]}'?" if guess else f" (one of: {choices})"
    return Problem(source.ref(("kind",)), f"{kind!r} is not a kind of {what}{hint}")


def validate_edition(loaded: LoadedEdition) -> list[Problem]:
    """Every problem of an edition's sources: schemas first, then cross-file rules."""
    problems: list[Problem] = []
    manifest = loaded.manifest
    problems.extend(schema_problems(manifest, "edition"))
    problems.extend(hidden_characters(manifest))
    if problems:
        return problems
    data = manifest.data
    locale = data["locale"]
    players = (data.get("players", {}).get("min", 1), data.get("players", {}).get("max", 8))
    if players[0] > players[1]:
        problems.append(Problem(manifest.ref(("players",)), "min is greater than max"))

    valid: dict[str, Source] = {}
    for group, kinds in (("decks", DECK_KINDS), ("components", COMPONENT_KINDS)):
        table = loaded.decks if group == "decks" else loaded.components
        problems.extend(unique(manifest, data.get(group, []), group, "id", None, "id"))
        for entry in data.get(group, []):
            source = table.get(entry["id"])
            if source is None:
                continue
            kind = source.data.get("kind") if isinstance(source.data, dict) else None
            if kind not in kinds:
                problems.append(_kind_problem(source, kinds, group))
                continue
            found = list(schema_problems(source, kind))
            found.extend(hidden_characters(source))
            found.extend(translation_problems(source, locale))
            problems.extend(found)
            if not found:
                valid[entry["id"]] = source

    categories = None
    for source in valid.values():
        if source.data["kind"] == "places":
            categories = (categories or set()) | {c["id"] for c in source.data["categories"]}
    for index, entry in enumerate(data["decks"]):
        source = valid.get(entry["id"])
        if source is None:
            continue
        problems.extend(deck_problems(source, locale, categories))
        problems.extend(art_problems(source, loaded.root))
        if source.data["kind"] == "which-way":
            problems.extend(which_way_problems(source, players))
        count = card_count(source.data)
        if source.data["kind"] == "places" and count < PLACES_FOR_A_GAME:
            problems.append(
                Problem(
                    source.ref(("places",)),
                    f"{count} places; a game of six rounds deals eight places a round, so "
                    f"{PLACES_FOR_A_GAME} or more keep places from repeating",
                    WARNING,
                )
            )
        if "count" in entry and count != entry["count"]:
            problems.append(
                Problem(
                    manifest.ref(("decks", index, "count")),
                    f"deck '{entry['id']}' has {count} cards in {source.display}; "
                    f"the edition says {entry['count']}",
                )
            )
    for entry in data.get("components", []):
        source = valid.get(entry["id"])
        if source is not None and source.data["kind"] == "pawns":
            other = valid.get(source.data["colours_from"])
            if other is None or other.data["kind"] != "numbered" or not other.data.get("colours"):
                problems.append(
                    Problem(
                        source.ref(("colours_from",)),
                        f"'{source.data['colours_from']}' is not a deck of this "
                        "edition with player colours",
                    )
                )
        if (
            source is not None
            and source.data["kind"] == "track"
            and source.data["from"] >= source.data["to"]
        ):
            problems.append(Problem(source.ref(("to",)), "'to' must be greater than 'from'"))
        if (
            source is not None
            and source.data["kind"] == "rulebook"
            and source.data["locale"] != locale
        ):
            problems.append(
                Problem(
                    source.ref(("locale",)),
                    f"the rulebook is in '{source.data['locale']}' but the edition is '{locale}'",
                )
            )
    return dedupe(problems)


def warnings_only(problems: list[Problem]) -> list[Problem]:
    """The problems that are warnings."""
    return [p for p in problems if p.severity == WARNING]
