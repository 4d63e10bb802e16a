"""The source field reference, generated from the JSON Schemas so it cannot drift.

``python -m deckforge.authoring.docs`` prints it; ``make docs`` writes docs/reference.md, and a
test fails when that file is not what the schemas say.
"""

from __future__ import annotations

import sys

from deckforge.kinds import all_kinds
from deckforge.sources.schema import inlined


def _order() -> list[str]:
    """The schemas in the order the reference gives them: the edition manifest, every
    kind of deck and component as they are listed, and print profiles."""
    return ["edition", *(kind.schema for kind in all_kinds()), "profile"]


def _type(node: dict) -> str:
    if "const" in node:
        return f"`{node['const']}`"
    if "enum" in node:
        return "one of " + ", ".join(f"`{v}`" for v in node["enum"])
    if node.get("type") == ["string", "object"]:
        return "text, or text per language"
    kind = node.get("type", "")
    words = {
        "object": "mapping",
        "array": "list",
        "string": "text",
        "integer": "whole number",
        "number": "number",
        "boolean": "true/false",
    }
    text = words.get(kind, kind)
    if kind == "string" and "pattern" in node and "x-message" not in node:
        text += f" matching `{node['pattern']}`"
    limits = []
    for key, word in (
        ("minimum", "≥"),
        ("maximum", "≤"),
        ("minItems", "at least"),
        ("maxLength", "at most"),
    ):
        if key in node:
            limits.append(f"{word} {node[key]}")
    return text + (f" ({', '.join(limits)})" if limits else "")


def field_rows(node: dict, path: str, required: bool, depth: int = 0) -> list[str]:
    """Rows of a Markdown table of a schema node and what it holds, each field with its
    type, whether it is required and what it means."""
    rows = []
    if path:
        note = node.get("description", "")
        if "x-message" in node:
            note = f"{note} ({node['x-message']})".strip()
        note = note.replace("|", "\\|")  # a bar in a table's cell, as Markdown escapes it
        rows.append(f"| `{path}` | {_type(node)} | {'yes' if required else ''} | {note} |")
    if depth > 6:
        return rows
    if node.get("type") == "object":
        needed = set(node.get("required", []))
        for key, child in node.get("properties", {}).items():
            rows.extend(
                field_rows(child, f"{path}.{key}" if path else key, key in needed, depth + 1)
            )
    if node.get("type") == "array" and "items" in node:
        item = node["items"]
        if item.get("type") == "object":
            rows.extend(field_rows(item, f"{path}[]", False, depth + 1)[1:])
    return rows


def reference() -> str:
    """The whole reference, as Markdown."""
    out = [
        "# Source field reference",
        "",
        "Generated from the JSON Schemas in `schemas/` by `make docs`; do not edit by hand.",
        "Every file starts with `kind:`, which says which table applies. Keys not listed",
        "here are errors.",
        "",
    ]
    for kind in _order():
        schema = inlined(kind)
        out += [
            f"## `{kind}`: {schema.get('title', kind)}",
            "",
            schema.get("description", ""),
            "",
            "| field | type | required | meaning |",
            "|---|---|---|---|",
        ]
        out += field_rows(schema, "", True)
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(reference())
