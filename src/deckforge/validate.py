"""Validate stage: JSON Schemas, then the rules no schema can say.

Every problem is collected (``iter_errors``, never only the first) and returned
as :class:`~deckforge.errors.Problem` values pointing at the YAML line.

Sources are first checked by the schemas compiled to Python (fastjsonschema), six
times quicker than jsonschema on a large deck; only a source that fails that check
is checked again by jsonschema, which reports every problem in it.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import fastjsonschema

from deckforge.errors import WARNING, Problem
from deckforge.load import LoadedEdition
from deckforge.model import text_in
from deckforge.source import Source
from deckforge.text.script import BIDI_OVERRIDES

if TYPE_CHECKING:
    import jsonschema

#: Source kinds and the schema file that checks each.
SCHEMAS = {
    "edition": "edition.schema.json",
    "places": "places.schema.json",
    "mess": "mess.schema.json",
    "which-way": "which-way.schema.json",
    "numbered": "numbered.schema.json",
    "blank": "blank.schema.json",
    "score-pad": "score-pad.schema.json",
    "rulebook": "rulebook.schema.json",
    "profile": "profile.schema.json",
    "pictures": "pictures.schema.json",
    "track": "track.schema.json",
    "pawns": "pawns.schema.json",
    "template": "template.schema.json",
}
#: Places one game uses without repeats: six rounds of eight places.
PLACES_FOR_A_GAME = 48
DECK_KINDS = ("places", "mess", "which-way", "numbered", "blank", "pictures")
COMPONENT_KINDS = ("score-pad", "rulebook", "track", "pawns")


def schemas_dir() -> Path:
    """The folder of JSON Schemas: ``schemas/`` at the project's top."""
    return Path(__file__).resolve().parents[2] / "schemas"


@cache
def _document(name: str) -> dict:
    return json.loads((schemas_dir() / name).read_text(encoding="utf-8"))


def _inline(node: object, document: dict, name: str) -> object:
    """A schema with every $ref replaced by what it points to: validating a 10,000-card
    deck is then a third quicker, with no reference lookups per card. (The schemas have
    no recursive references.)"""
    if isinstance(node, list):
        return [_inline(item, document, name) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        file, _, pointer = node["$ref"].partition("#")
        target_doc = _document(file) if file else document
        target = target_doc
        for part in pointer.strip("/").split("/"):
            if part:
                target = target[part]
        merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return _inline(merged, target_doc, file or name)
    return {key: _inline(value, document, name) for key, value in node.items()}


@cache
def _schema(kind: str) -> dict:
    """A source kind's schema, its references inlined."""
    name = SCHEMAS[kind]
    document = _document(name)
    return _inline({k: v for k, v in document.items() if k != "$defs"}, document, name)


@cache
def validator(kind: str) -> jsonschema.Draft202012Validator:
    """The schema validator that reports every problem of a source kind."""
    import jsonschema  # only needed, and only imported, for a source with problems

    return jsonschema.Draft202012Validator(_schema(kind))


@cache
def quick_check(kind: str):
    """A function that raises at a source's first schema violation, compiled from the
    schema. The schemas use only keywords that mean the same in draft 7, the newest
    draft fastjsonschema compiles (a test checks both validators agree)."""
    return fastjsonschema.compile({**_schema(kind), "$schema": _DRAFT_7})


_DRAFT_7 = "http://json-schema.org/draft-07/schema#"


_TYPE_WORDS = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
}


def _describe(value: object) -> str:
    """What a value is, in words a person editing YAML recognises."""
    if value is None:
        return "nothing (the value is empty)"
    if isinstance(value, bool):
        return f"{str(value).lower()} (quote it if you mean the word)"
    if isinstance(value, (int, float)):
        return f"the number {value} (quote it if it is text)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {value!r}"
    return type(value).__name__


def _best(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    if error.validator in ("oneOf", "anyOf") and error.context:
        # A text that is neither a string nor a language mapping: explain the mapping
        # form when a mapping was given, the string form otherwise.
        deepest = max(error.context, key=lambda e: (len(e.absolute_path), e.validator != "type"))
        if deepest.validator != "type" or not isinstance(error.instance, (str, dict)):
            return deepest
    return error


def _message(error: jsonschema.ValidationError) -> tuple[str, bool]:
    """A plain-words message, and whether it is about a key (not a value)."""
    v, value, arg = error.validator, error.instance, error.validator_value
    if v == "type":
        if sorted(arg) == ["object", "string"]:
            wanted = "text"  # the text players see (a mapping of it per language, or not)
        else:
            wanted = " or ".join(
                _TYPE_WORDS.get(t, t) for t in ([arg] if isinstance(arg, str) else arg)
            )
        return f"expected {wanted}, got {_describe(value)}", False
    if v == "required":
        missing = [k for k in arg if k not in value]
        return f"missing required key '{missing[0]}'", False
    if v == "enum":
        return f"{value!r} is not one of: {', '.join(map(str, arg))}", False
    if v == "const":
        return f"must be {arg!r}, not {value!r}", False
    if v == "pattern":
        hint = error.schema.get("x-message")
        return f"{value!r} is not valid" + (f"; {hint}" if hint else ""), False
    if v == "maxLength":
        return f"{value!r} is too long ({len(value)} characters, at most {arg})", False
    if v == "minLength":
        return "must not be empty" if arg == 1 else f"needs at least {arg} characters", False
    if v in ("minimum", "maximum"):
        return (
            f"{value!r} is {'below the minimum' if v == 'minimum' else 'above the maximum'} {arg}",
            False,
        )
    if v == "minItems":
        return f"needs at least {arg} item(s)", False
    if v == "maxItems":
        return f"has more than {arg} items", False
    if v == "uniqueItems":
        return "lists the same value twice", False
    return error.message, False


def _misspelt(error: jsonschema.ValidationError) -> bool:
    """A missing required key that the object has under a near-miss name (reported as
    an unknown key with a suggestion instead)."""
    if error.validator != "required" or not isinstance(error.instance, dict):
        return False
    missing = [k for k in error.validator_value if k not in error.instance]
    unknown = [k for k in error.instance if k not in error.schema.get("properties", {})]
    return any(difflib.get_close_matches(k, missing, n=1) for k in unknown)


def schema_problems(source: Source, kind: str, quick: bool = True) -> Iterator[Problem]:
    """Every schema violation in a source, as problems at their YAML lines.

    ``quick=False`` goes straight to jsonschema: for a few small files (templates) whose
    schema takes the compiler half a second to build."""
    if quick:
        try:
            quick_check(kind)(source.data)
        except fastjsonschema.JsonSchemaException:
            pass
        else:
            return
    for error in validator(kind).iter_errors(source.data):
        if _misspelt(error):
            continue
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = list(error.schema.get("properties", {}))
            for key in error.instance:
                if key not in allowed:
                    path = (*error.absolute_path, key)
                    guess = difflib.get_close_matches(key, allowed, n=1)
                    hint = (
                        f"; did you mean '{guess[0]}'?"
                        if guess
                        else (f"; allowed keys: {', '.join(allowed)}")
                    )
                    yield Problem(source.ref(path, key=True), f"unknown key '{key}'{hint}")
            continue
        best = _best(error)
        message, _ = _message(best)
        yield Problem(source.ref(tuple(best.absolute_path)), message)


def _norm(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _unique(
    source: Source, entries: list, list_key: str, field: str, locale: str | None, what: str
) -> Iterator[Problem]:
    seen: dict[str, int] = {}
    for index, entry in enumerate(entries):
        value = entry.get(field)
        if locale is not None:
            value = text_in(value, locale)
        if not isinstance(value, str):
            continue
        key = _norm(value) if field != "id" else value
        path = (list_key, index, field)
        if key in seen:
            first = source.ref((list_key, seen[key], field)).line
            yield Problem(source.ref(path), f"duplicate {what} '{value}' (also at line {first})")
        else:
            seen[key] = index


def _texts(data: object, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _texts(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _texts(v, path + (i,))
    elif isinstance(data, str):
        yield path, data


def hidden_characters(source: Source) -> Iterator[Problem]:
    """Bidi overrides (U+202A–U+202E) disguise text; control characters never belong."""
    for path, value in _texts(source.data):
        found = _HIDDEN.search(value)
        if found is None:
            continue
        ch = found.group()
        if ch in BIDI_OVERRIDES:
            yield Problem(
                source.ref(path),
                f"contains the invisible direction override U+{ord(ch):04X}; remove it",
            )
        else:
            yield Problem(source.ref(path), f"contains the control character U+{ord(ch):04X}")


#: Control characters (Unicode category Cc) other than tab and newline, and the bidi
#: overrides.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f" + "".join(sorted(BIDI_OVERRIDES)) + "]")


def _translation_problems(source: Source, locale: str) -> Iterator[Problem]:
    """Each language mapping must have the edition's language."""
    for path, value in _walk_text_maps(source.data):
        if locale not in value:
            have = ", ".join(sorted(value))
            yield Problem(source.ref(path), f"missing '{locale}' translation (has {have})")


def _walk_text_maps(data: object, path: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    if isinstance(data, dict):
        if (
            data
            and all(isinstance(k, str) and len(k) == 2 and k.islower() for k in data)
            and all(isinstance(v, str) for v in data.values())
        ):
            yield path, data
            return
        for k, v in data.items():
            yield from _walk_text_maps(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _walk_text_maps(v, path + (i,))


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


def icon_problems(source: Source, entries: list, list_key: str, unique: bool) -> Iterator[Problem]:
    """Every icon must be an OpenMoji picture; with ``unique``, no two entries share one."""
    from deckforge.art import icons

    first: dict[str, int] = {}
    for index, entry in enumerate(entries):
        spec = entry.get("icon")
        if spec is None:
            continue
        path = (list_key, index, "icon")
        code = icons.resolve(spec)
        if code is None:
            yield Problem(
                source.ref(path),
                f"unknown icon {spec!r}: no OpenMoji picture has "
                "that code (use a hexcode like 1F9E6 or the emoji)",
            )
        elif unique and code in first:
            line = source.ref((list_key, first[code], "icon")).line
            yield Problem(
                source.ref(path),
                f"icon {code} is already the picture of "
                f"'{entries[first[code]]['id']}' (line {line}); "
                "each item needs its own picture",
            )
        else:
            first.setdefault(code, index)


def art_problems(source: Source, root: Path) -> Iterator[Problem]:
    """Art paths must name existing files inside the project (no ``..``, absolute paths or
    links that lead out of it)."""
    from deckforge.load import inside

    data = source.data
    entries = [(("places", i, "art"), e.get("art")) for i, e in enumerate(data.get("places", []))]
    entries += [(("items", i, "art"), e.get("art")) for i, e in enumerate(data.get("items", []))]
    if "art_folder" in data:
        entries.append((("art_folder",), data["art_folder"]))
    for path, value in entries:
        if not isinstance(value, str):
            continue
        target = source.path.parent / value
        if Path(value).is_absolute() or not inside(target, root):
            yield Problem(
                source.ref(path),
                f"'{value}' is outside the project folder; art must stay inside it",
            )
        elif path == ("art_folder",):
            if not target.is_dir():
                yield Problem(source.ref(path), f"the art folder '{value}' does not exist")
        elif not target.is_file():
            yield Problem(source.ref(path), f"the art file '{value}' does not exist")


def deck_problems(source: Source, locale: str, categories: set[str] | None) -> Iterator[Problem]:
    """Rules within one deck source: unique ids and names, known categories."""
    data = source.data
    kind = data["kind"]
    if kind == "places":
        ids = {c["id"] for c in data["categories"]}
        yield from _unique(source, data["categories"], "categories", "id", None, "category id")
        yield from _unique(source, data["places"], "places", "id", None, "id")
        yield from _unique(source, data["places"], "places", "name", locale, "name")
        yield from icon_problems(source, data["places"], "places", unique=False)
        for index, place in enumerate(data["places"]):
            if place["category"] not in ids:
                guess = difflib.get_close_matches(place["category"], sorted(ids), n=1)
                hint = f"; did you mean '{guess[0]}'?" if guess else ""
                yield Problem(
                    source.ref(("places", index, "category")),
                    f"unknown category '{place['category']}'{hint}",
                )
    elif kind == "mess":
        yield from _unique(source, data["items"], "items", "id", None, "id")
        yield from _unique(source, data["items"], "items", "name", locale, "name")
        yield from icon_problems(source, data["items"], "items", unique=True)
        if categories is not None:
            for index, item in enumerate(data["items"]):
                for j, category in enumerate(item["suggests"]):
                    if category not in categories:
                        yield Problem(
                            source.ref(("items", index, "suggests", j)),
                            f"unknown place category '{category}'",
                        )
    elif kind == "which-way":
        yield from _unique(source, data["cards"], "cards", "id", None, "id")
    elif kind == "numbered":
        if data["numbers"]["from"] > data["numbers"]["to"]:
            yield Problem(source.ref(("numbers",)), "'from' is greater than 'to'")
        colours = data.get("colours", [])
        yield from _unique(source, colours, "colours", "id", None, "colour id")
        yield from _unique(source, colours, "colours", "name", locale, "colour name")
        yield from _unique(source, colours, "colours", "hex", None, "colour")
        yield from _unique(source, colours, "colours", "symbol", None, "symbol")


def _kind_problem(source: Source, kinds: tuple[str, ...], group: str) -> Problem:
    what = "deck" if group == "decks" else "component"
    choices = ", ".join(kinds)
    if not isinstance(source.data, dict):
        return Problem(
            source.ref(),
            f"a {what} file must be a mapping that starts with "
            f"'kind: ...' (one of: {choices}), not "
            f"{_describe(source.data)}",
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
        problems.extend(_unique(manifest, data.get(group, []), group, "id", None, "id"))
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
            found.extend(_translation_problems(source, locale))
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
    return _dedupe(problems)


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple] = set()
    out = []
    for p in problems:
        key = (p.ref, p.message)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def warnings_only(problems: list[Problem]) -> list[Problem]:
    """The problems that are warnings."""
    return [p for p in problems if p.severity == WARNING]
