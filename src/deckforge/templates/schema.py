"""``template.schema.json``, generated from the element registry so the two cannot drift.

``python -m deckforge.templates.schema`` prints it (``make docs`` writes it beside the
other schemas); a test fails when the file is not what the registry says. Groups nest,
and the schema checker inlines every reference, so the element definitions are written
out once per level of nesting (:data:`DEPTH` levels) instead of referring to themselves;
a group at the deepest level may hold nothing, and its ``elements`` say why.
"""

from __future__ import annotations

import json
import sys

from deckforge.drawing.outline import HEXAGONS
from deckforge.drawing.outline import KINDS as OUTLINES
from deckforge.templates.elements import COMMON_KEYS, load_all
from deckforge.templates.elements.text import STYLE_KEYS
from deckforge.units import CARD_SIZES_MM, ORIENTATIONS

#: How deep groups may nest (a group in a group in a group).
DEPTH = 4
_NAME = {
    "type": "string",
    "pattern": "^[A-Za-z][A-Za-z0-9_-]*$",
    "maxLength": 64,
    "x-message": "use letters, digits, '-' and '_', starting with a letter",
}
_LENGTH = {"$ref": "#/$defs/length"}


def _definitions() -> dict:
    return {
        "length": {
            "description": "A length: '3mm', '10pt', '0.5in', '50%' (of the reference box "
            "along this side), '40%h', a name ('safe', 'bleed', a size of the template), "
            "or a sum of them with * and / by numbers, min() and max(): '19%h + 8pt'.",
            "type": ["string", "number"],
            "maxLength": 200,
        },
        "colour": {
            "description": "A colour: '#E4572E', a palette colour (ink, paper, accent, "
            "accent_dark), white, black, a colour of the template, inks as a print shop "
            "gives them, 'cmyk(60, 40, 40, 100)' (each 0–100; written unchanged into CMYK "
            "files), a binding like '{category.colour}' (whose data may give any of "
            "these), mix(a, b, 0.5) or readable(a).",
            "type": "string",
            "minLength": 1,
            "maxLength": 200,
        },
        "condition": {
            "description": "A card field that must be set and not empty ('answer'), "
            "fields and the values they must have ({rarity: rare} or {rarity: [rare, "
            "epic]}), or an expression: 'rank > 10', 'suit in [Hearts, Diamonds] and not "
            "joker' (see Expressions).",
            "type": ["string", "object"],
            "minLength": 1,
            "maxLength": 500,
            "minProperties": 1,
            "additionalProperties": {
                "type": ["string", "number", "boolean", "array"],
                "items": {"type": ["string", "number", "boolean"]},
            },
        },
        "style": {
            "description": "How text is set.",
            "type": "object",
            "additionalProperties": False,
            "properties": dict(STYLE_KEYS),
        },
    }


def _level(level: int, defs: dict) -> str:
    """Define the elements allowed at one level of nesting; returns its definition name.

    One definition holds the keys of every element type: which keys each type takes is
    checked when a template is compiled (by the element's own class), and a schema that
    spelled it out per type would take the compiled checker seconds to build."""
    registry = load_all()
    types = sorted(registry)
    properties: dict[str, dict] = {}
    for key, value in COMMON_KEYS.items():
        defs.setdefault(f"key-{key}", value)
        properties[key] = {"$ref": f"#/$defs/key-{key}"}
    properties["type"] = {"description": COMMON_KEYS["type"]["description"], "enum": types}
    for name in types:
        for key, value in registry[name].keys.items():
            if key == "elements" and level == DEPTH - 1:
                # The deepest group holds nothing: one message says why, at its elements.
                value = {
                    **value,
                    "type": "array",
                    "maxItems": 0,
                    "x-message": f"a group inside {DEPTH - 1} others can hold no elements "
                    f"(groups nest at most {DEPTH} deep)",
                }
            elif key == "elements":
                value = {
                    **value,
                    "type": "array",
                    "items": {"$ref": f"#/$defs/{_level(level + 1, defs)}"},
                }
            if key == "elements":
                defs[f"elements-{level}"] = value
                properties[key] = {"$ref": f"#/$defs/elements-{level}"}
                continue
            defs.setdefault(f"key-{key}", value)
            properties.setdefault(key, {"$ref": f"#/$defs/key-{key}"})
    name = f"element-{level}"
    defs[name] = {
        "description": "An element: " + ", ".join(types) + ".",
        "type": "object",
        "required": ["name"],
        "additionalProperties": False,
        "properties": properties,
    }
    return name


#: The keys that give a template's card its trim and cut shape.
_TRIM = {
    "size": {"description": "A trade card size.", "enum": list(CARD_SIZES_MM)},
    "width": {
        **_LENGTH,
        "description": "A custom card width (with height; alone for a circle or a "
        "regular hexagon).",
    },
    "height": {
        **_LENGTH,
        "description": "A custom card height (with width; alone for a circle or a "
        "regular hexagon).",
    },
    "orientation": {
        "description": "Which side of the card is the longer: 'landscape' turns a "
        "trade size (or width and height) so that its width is.",
        "enum": list(ORIENTATIONS),
    },
    "shape": {
        "description": "The card's cut shape: a rectangle (corners rounded by "
        "'radius'), a circle (an ellipse if the card is not square) or a hexagon "
        "('pointy': a corner up; 'flat': a side up). The bleed follows it.",
        "type": "object",
        "additionalProperties": False,
        "required": ["type"],
        "properties": {
            "type": {"enum": list(OUTLINES), "description": "The shape of the cut."},
            "radius": {**_LENGTH, "description": "A rectangle's corner radius (a length)."},
            "orientation": {
                "enum": list(HEXAGONS),
                "description": "A hexagon's corner up (pointy, default) or side up (flat).",
            },
        },
    },
}


def build() -> dict:
    """The schema of template files."""
    defs = _definitions()
    top = _level(0, defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Card template",
        "description": "How a card looks: its size, colours, text styles and the elements "
        "drawn on it, in order.",
        "type": "object",
        "additionalProperties": False,
        "required": ["kind"],
        "properties": {
            "kind": {"const": "template"},
            "description": {"description": "What the template is for.", "type": "string"},
            "extends": {**_NAME, "description": "The template this one changes."},
            **_TRIM,
            "bleed": {**_LENGTH, "description": "Bleed around the trim (default 3.175mm)."},
            "safe": {**_LENGTH, "description": "Inset of the safe area (default 3.175mm)."},
            "mirror": {
                "description": "Whether right-to-left editions mirror it (default true).",
                "type": "boolean",
            },
            "colours": {
                "description": "Named colours of this template.",
                "type": "object",
                "propertyNames": _NAME,
                "additionalProperties": {"$ref": "#/$defs/colour"},
            },
            "sizes": {
                "description": "Named lengths, % of the card ('19%h'); later ones may use "
                "earlier ones.",
                "type": "object",
                "propertyNames": _NAME,
                "additionalProperties": _LENGTH,
            },
            "maps": {
                "description": "Named tables that bindings look values up in: "
                "'{suit|map(suits)}' with suits: {Spades: ♠, Hearts: ♥}.",
                "type": "object",
                "propertyNames": _NAME,
                "additionalProperties": {
                    "type": "object",
                    "minProperties": 1,
                    "maxProperties": 1000,
                    "additionalProperties": {"type": ["string", "number", "boolean"]},
                },
            },
            "styles": {
                "description": "Named text styles.",
                "type": "object",
                "propertyNames": _NAME,
                "additionalProperties": {"$ref": "#/$defs/style"},
            },
            "elements": {
                "description": "What is drawn, in order.",
                "type": "array",
                "items": {"$ref": f"#/$defs/{top}"},
            },
        },
        "$defs": defs,
    }


def text() -> str:
    """The schema as written to its file."""
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.write(text())
