"""Schema checks: every source against the JSON Schema of its kind.

The schemas are package data (``sources/schemas/*.json``; the project's top-level
``schemas/`` links to them for editors). Every problem is collected (``iter_errors``,
never only the first) and returned as :class:`~deckforge.errors.Problem` values pointing
at the YAML line.

Sources are first checked by the schemas compiled to Python (fastjsonschema), much
quicker than jsonschema on a large deck; only a source that fails that check
is checked again by jsonschema, which reports every problem in it.

Compiling a schema takes longer than checking a source of a few hundred cards with it:
the cache (:mod:`deckforge.cache`) keeps the digests of the sources that passed, each
with what its check depended on (the schema, deckforge's code, the validators'
versions), and a source found there is not checked again (:func:`save_checks` keeps
them).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from deckforge import cache as kept
from deckforge.errors import DeckforgeError, Problem, close_matches
from deckforge.sources.source import Source
from deckforge.versions import version

if TYPE_CHECKING:
    import jsonschema

#: Where the schemas are: this package's ``schemas`` folder (a folder of files, as
#: profiles and templates are: importlib.resources would cost start-up its machinery).
_FOLDER = Path(__file__).parent / "schemas"
_SUFFIX = ".schema.json"


@cache
def schema_names() -> tuple[str, ...]:
    """The name of every schema (``places`` for ``places.schema.json``), sorted."""
    return tuple(
        sorted(f.name.removesuffix(_SUFFIX) for f in _FOLDER.iterdir() if f.name.endswith(_SUFFIX))
    )


def schema_text(name: str) -> str:
    """A schema file's text, by its name (``places``) or file name (``places.schema.json``)."""
    file = name if name.endswith(_SUFFIX) else name + _SUFFIX
    try:
        return (_FOLDER / file).read_text(encoding="utf-8")
    except OSError as exc:
        raise DeckforgeError(
            f"cannot read deckforge's schema {file} ({exc.strerror or exc}): "
            "the installation is incomplete; install deckforge again"
        ) from None


@cache
def document(name: str) -> dict:
    """A schema as written, by its name (``places``) or file name (``places.schema.json``)."""
    return json.loads(schema_text(name))


def _lookup(ref: str, base: str) -> tuple[object, str]:
    """What a ``$ref`` (``common.schema.json#/$defs/text``, or ``#/$defs/length`` in the
    schema ``base``) points to, and the schema it is in. The schemas refer only to each
    other, by file name and JSON pointer."""
    file, _, pointer = ref.partition("#")
    file = file or base
    node: object = document(file)
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]  # type: ignore[index]
    return node, file


def _inline(node: object, base: str) -> object:
    """A schema with every $ref replaced by what it points to, looked up from the schema
    ``base`` (the file ``node`` is in). The schemas have no recursive references."""
    if isinstance(node, list):
        return [_inline(item, base) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        found, file = _lookup(node["$ref"], base)
        merged = {**found, **{k: v for k, v in node.items() if k != "$ref"}}  # type: ignore[dict-item]
        return _inline(merged, file)
    return {key: _inline(value, base) for key, value in node.items()}


@cache
def inlined(name: str) -> dict:
    """A schema with every ``$ref`` replaced by what it points to, its definitions
    dropped: validating a deck then needs no reference lookups per card, and the field
    reference reads each field where it is."""
    written = document(name)
    base = name if name.endswith(_SUFFIX) else name + _SUFFIX
    return _inline({k: v for k, v in written.items() if k != "$defs"}, base)  # type: ignore[return-value]


@cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    """The validator of a schema that reports every problem of a source."""
    import jsonschema  # only needed, and only imported, for a source with problems

    checker = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _pattern})
    return checker(inlined(name))


#: An unescaped ``$`` in a pattern.
_DOLLAR = re.compile(r"(?<!\\)\$")


def _pattern(validator, pattern: str, instance: Any, schema: dict):
    """The ``pattern`` keyword as JSON Schema (ECMA-262) means it, and fastjsonschema
    checks it: ``$`` is the end of the text. Python's ``$`` also matches before a final
    newline, which let an id like ``'bakery\\n'`` through to name a folder."""
    import jsonschema

    if validator.is_type(instance, "string") and not re.search(
        _DOLLAR.sub(r"\\Z", pattern), instance
    ):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


@cache
def quick_check(name: str):
    """A function that raises at a source's first schema violation, compiled from the
    schema. The schemas use only keywords that mean the same in draft 7, the newest
    draft fastjsonschema compiles (a test checks both validators agree)."""
    import fastjsonschema

    return fastjsonschema.compile({**inlined(name), "$schema": _DRAFT_7})


_DRAFT_7 = "http://json-schema.org/draft-07/schema#"


_TYPE_WORDS = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
}


def describe(value: object) -> str:
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
    # What the schema says and what it was given: JSON data of any shape.
    v, value = error.validator, cast(Any, error.instance)
    arg, schema = cast(Any, error.validator_value), cast(Any, error.schema)
    if v == "type":
        if sorted(arg) == ["object", "string"]:
            wanted = "text"  # the text players see (a mapping of it per language, or not)
        else:
            wanted = " or ".join(
                _TYPE_WORDS.get(t, t) for t in ([arg] if isinstance(arg, str) else arg)
            )
        return f"expected {wanted}, got {describe(value)}", False
    if v == "required":
        missing = [k for k in arg if k not in value]
        return f"missing required key '{missing[0]}'", False
    if v == "enum":
        return f"{value!r} is not one of: {', '.join(map(str, arg))}", False
    if v == "const":
        return f"must be {arg!r}, not {value!r}", False
    if v == "pattern":
        hint = schema.get("x-message")
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
        hint = schema.get("x-message")
        return hint or f"has more than {arg} items", False
    if v == "uniqueItems":
        return "lists the same value twice", False
    return error.message, False


def _misspelt(error: jsonschema.ValidationError) -> bool:
    """A missing required key that the object has under a near-miss name (reported as
    an unknown key with a suggestion instead)."""
    if error.validator != "required" or not isinstance(error.instance, dict):
        return False
    required, schema = cast(Any, error.validator_value), cast(Any, error.schema)
    missing = [k for k in required if k not in error.instance]
    unknown = [k for k in error.instance if k not in schema.get("properties", {})]
    return any(close_matches(k, missing) for k in unknown)


def schema_problems(source: Source, name: str, quick: bool = True) -> Iterator[Problem]:
    """Every violation of a schema (by name) in a source, as problems at their YAML lines;
    none, without checking again, for a source that passed the same check before.

    ``quick=False`` goes straight to jsonschema: for a few small files (templates) whose
    schema takes the compiler longer to build than jsonschema takes to check them."""
    key = _check_key(source, name)
    if key is not None and key in _passed():
        return
    found = False
    for problem in _problems(source, name, quick):
        found = True
        yield problem
    if not found and key is not None:
        _passed()[key] = ""
        _unsaved.add(key)


def _problems(source: Source, name: str, quick: bool) -> Iterator[Problem]:
    if quick:
        from fastjsonschema import JsonSchemaException

        try:
            quick_check(name)(source.data)
        except JsonSchemaException:
            pass
        else:
            return
    for error in validator(name).iter_errors(source.data):
        if _misspelt(error):
            continue
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = list(error.schema.get("properties", {}))
            for key in error.instance:
                if key not in allowed:
                    path = (*error.absolute_path, key)
                    guess = close_matches(key, allowed)
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


#: The cache entry of the sources that passed their schema's check.
PASSED_NAME = "schema-checks"
#: The most sources it keeps (the newest).
PASSED_ENTRIES = 4096
#: Keys this process added to the entry and has not saved.
_unsaved: set[str] = set()


@cache
def _passed() -> dict[str, str]:
    """The keys of what passed, read once."""
    return _kept_checks()


def _kept_checks() -> dict[str, str]:
    return kept.load(PASSED_NAME, 1, kept.digests) or {}


def _check_key(source: Source, name: str) -> str | None:
    """What a source's check stands for: its bytes and what checking them depends on;
    None for a source not read from bytes."""
    if not source.digest:
        return None
    return hashlib.sha256(f"{_schema_tag(name)}\0{source.digest}".encode()).hexdigest()


@cache
def _schema_tag(name: str) -> str:
    """What a check by a schema depends on besides the source: the schema, the code that
    turns bytes into data and checks it, and the validators."""
    tools = ";".join(
        f"{tool}={version(tool)}" for tool in ("fastjsonschema", "jsonschema", "pyyaml")
    )
    schema = json.dumps(inlined(name), sort_keys=True)
    return f"{name};{kept.package_digest()};{tools};{schema}"


def save_checks() -> None:
    """Keep the sources that passed their checks in this process in the cache, for the
    next run (with those kept before)."""
    if not _unsaved:
        return
    with kept.updating(PASSED_NAME):
        passed = _kept_checks()
        passed.update(dict.fromkeys(sorted(_unsaved), ""))
        kept.store(PASSED_NAME, 1, dict(list(passed.items())[-PASSED_ENTRIES:]))
    _unsaved.clear()
