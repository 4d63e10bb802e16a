"""Rules any source is checked by beyond its schema, and the helpers the kinds' own rules
are made of: unique values, hidden characters, translations, icons and art paths.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from deckforge.art import icons, images
from deckforge.errors import Problem, display_path
from deckforge.sources.load import (
    MISSING,
    OUTSIDE,
    case_problem,
    not_a_file,
    outside_art,
    refusal,
)
from deckforge.sources.source import Source
from deckforge.text.script import BIDI_OVERRIDES


def text_in(value: object, locale: str) -> str | None:
    """A source text in one language: a plain string serves every language."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return value.get(locale)
    return None


def data_text(value: object, locale: str) -> str:
    """A YAML value as template data: text in the edition's language, numbers as written."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return (text_in(value, locale) or "").strip()


def _norm(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def unique(
    source: Source, entries: list, list_key: str, field: str, locale: str | None, what: str
) -> Iterator[Problem]:
    """Entries of a list whose ``field`` repeats an earlier one's (texts in ``locale``,
    compared ignoring case and spacing; ids exactly)."""
    seen: dict[str, int] = {}
    for index, entry in enumerate(entries):
        value = entry.get(field)
        if locale is not None and type(value) is not str:
            value = text_in(value, locale)  # a text given per language
        if not isinstance(value, str):
            continue
        key = _norm(value) if field != "id" else value
        if key in seen:
            first = source.ref((list_key, seen[key], field)).line
            yield Problem(
                source.ref((list_key, index, field)),
                f"duplicate {what} '{value}' (also at line {first})",
            )
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


#: Control characters (Unicode category Cc) other than tab and newline, and the bidi
#: overrides.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f" + "".join(sorted(BIDI_OVERRIDES)) + "]")


def containers(data: object) -> list[dict | list]:
    """Every mapping and list in some data, the data itself first, in no useful order:
    quicker than a walk that keeps each value's path, for the common case where the
    path is not needed because nothing is wrong."""
    found: list = [data] if type(data) is dict or type(data) is list else []
    for item in found:  # grows as it is read: each container's own come after it
        values = item.values() if type(item) is dict else item
        found += [v for v in values if type(v) is dict or type(v) is list]
    return found


#: The first character of each line that is not a Latin, Arabic or Persian letter or
#: digit (which are never marks): where a text of combining marks alone would start.
_FIRST = re.compile(
    r"(?m)^\s*([^\x00-\u02ff\u0621-\u064a\u0660-\u0669\u066e\u066f\u0671-\u06d3\u06f0-\u06f9])"
)


def _has_hidden(data: object, walked: list[dict | list]) -> bool:
    """Whether any text in some data (whose :func:`containers` are ``walked``) holds a
    hidden character, or may be made of combining marks alone (one search over them
    all; newlines, which join them, are not hidden)."""
    if type(data) is str:
        joined = data
    else:
        texts: list[str] = []
        for item in walked:
            values = item.values() if type(item) is dict else item
            texts += [v for v in values if type(v) is str]
        joined = "\n".join(texts)
    if _HIDDEN.search(joined) is not None:
        return True
    if joined.isascii():
        return False  # no combining marks, nor any character _FIRST looks for
    return any(unicodedata.category(m.group(1))[0] in "MC" for m in _FIRST.finditer(joined))


def _marks_only(value: str) -> bool:
    """Whether a text has combining marks but nothing they could sit on (letters, digits,
    symbols): it would print as nothing, or as marks on a dotted circle."""
    kinds = {unicodedata.category(ch)[0] for ch in value if not ch.isspace()}
    return "M" in kinds and kinds <= {"M", "C"}


def hidden_characters(source: Source, walked: list[dict | list] | None = None) -> Iterator[Problem]:
    """Bidi overrides (U+202A–U+202E) disguise text; control characters never belong; a
    text of combining marks alone prints nothing. ``walked``: the source's
    :func:`containers`, when the caller has them."""
    if source.printable:
        return  # no text of the file can hold one
    if walked is None:
        walked = containers(source.data)
    if not _has_hidden(source.data, walked):
        return  # the usual case, found at once; the walk below says where
    for path, value in _texts(source.data):
        if _marks_only(value):
            marks = " ".join(f"U+{ord(ch):04X}" for ch in value.strip()[:4])
            yield Problem(
                source.ref(path),
                f"is made only of combining marks ({marks}), which print nothing on their "
                "own; put the letter they belong to first",
            )
            continue
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


def _is_text_map(data: dict) -> bool:
    """Whether a mapping is a text given per language (``{en: ..., fa: ...}``)."""
    if not data:
        return False
    # Loops, not all() over generators: every mapping of a source is asked, and most
    # (a card's) fail at their first long key.
    for key in data:
        if not (isinstance(key, str) and len(key) == 2 and key.islower()):
            return False
    for value in data.values():
        if not isinstance(value, str):
            return False
    return True


def text_maps(data: object, path: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    """Every text given per language (``{en: ..., fa: ...}``) in a source, with its path."""
    if isinstance(data, dict):
        if _is_text_map(data):
            yield path, data
            return
        for k, v in data.items():
            yield from text_maps(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from text_maps(v, path + (i,))


def translation_problems(
    source: Source, locale: str, walked: list[dict | list] | None = None
) -> Iterator[Problem]:
    """Each language mapping must have the edition's language. ``walked``: the source's
    :func:`containers`, when the caller has them."""
    if walked is None:
        walked = containers(source.data)
    if all(locale in item for item in walked if type(item) is dict and _is_text_map(item)):
        return  # the usual case, found at once; the walk below says where
    for path, value in text_maps(source.data):
        if locale not in value:
            have = ", ".join(sorted(value))
            yield Problem(source.ref(path), f"missing '{locale}' translation (has {have})")


def icon_problems(
    source: Source, entries: list, list_key: str, distinct: bool
) -> Iterator[Problem]:
    """Every icon must be an OpenMoji picture; with ``distinct``, no two entries share one."""
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
        elif distinct and code in first:
            line = source.ref((list_key, first[code], "icon")).line
            yield Problem(
                source.ref(path),
                f"icon {code} is already the picture of "
                f"'{entries[first[code]]['id']}' (line {line}); "
                "each item needs its own picture",
            )
        else:
            first.setdefault(code, index)


def art_fields(data: dict, list_key: str) -> list[tuple[tuple, str, bool]]:
    """The art files the entries of a list name: (data path, value, False)."""
    entries = data.get(list_key) if isinstance(data, dict) else None
    return [
        ((list_key, index, "art"), entry["art"], False)
        for index, entry in enumerate(entries if isinstance(entries, list) else [])
        if isinstance(entry, dict) and isinstance(entry.get("art"), str)
    ]


def art_problems(
    source: Source, art: list[tuple[tuple, str, bool]], root: Path
) -> Iterator[Problem]:
    """Art paths (data path, value, whether a folder) must name existing files or folders
    inside the project: no ``..``, absolute paths or links that lead out of it, and no
    named pipes or devices. So must the pictures in an art folder."""
    for path, value, folder in art:
        target = source.path.parent / value
        reason = OUTSIDE if Path(value).is_absolute() else refusal(target, root, folder)
        cased = case_problem(value, target, root) if reason in (None, MISSING) else None
        if cased is not None:
            yield Problem(source.ref(path), cased)
        elif reason == OUTSIDE:
            yield Problem(source.ref(path), outside_art(value))
        elif reason == MISSING:
            what = "folder" if folder else "file"
            where = display_path(target.parent, root)
            message = f"the art {what} '{value}' does not exist (looked in {where}/)"
            yield Problem(source.ref(path), message)
        elif reason is not None:
            yield Problem(source.ref(path), not_a_file(value, reason, folder))
        elif folder:
            yield from _folder_problems(source, path, value, target, root)


def _folder_problems(
    source: Source, path: tuple, value: str, folder: Path, root: Path
) -> Iterator[Problem]:
    """The pictures of an art folder (its PNG, JPEG and SVG files) must be files inside
    the project too: a link in it may not lead out."""
    for entry in sorted(folder.iterdir()):
        if entry.suffix.lower() not in images.SUFFIXES:
            continue  # never read
        reason = refusal(entry, root)
        shown = f"{value.rstrip('/')}/{entry.name}"
        if reason == OUTSIDE:
            yield Problem(source.ref(path), outside_art(shown))
        elif reason not in (None, MISSING):
            yield Problem(source.ref(path), not_a_file(shown, reason))


def dedupe(problems: list[Problem]) -> list[Problem]:
    """The problems, each (place and message) once."""
    seen: set[tuple] = set()
    out = []
    for p in problems:
        key = (p.ref, p.message)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out
