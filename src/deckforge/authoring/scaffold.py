"""Scaffolding: start a game of your own, a custom edition or a place deck from a working
example.

What is written is plain, commented YAML (and CSV) that validates as it stands, so a
new user can build at once and then replace the examples with their own. A new game's
files are in :mod:`deckforge.authoring.game`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import yaml

from deckforge.errors import UsageError
from deckforge.sources.load import EDITION_FILE, Project, select_editions

#: Example places written into a new deck: (id, English, Persian, category).
EXAMPLES = (
    ("treehouse", "Treehouse", "خانه‌ی درختی", "outdoors"),
    ("grandmas-kitchen", "Grandma's Kitchen", "آشپزخانه‌ی مادربزرگ", "home"),
    ("night-market", "Night Market", "بازار شب", "shop"),
    ("science-fair", "Science Fair", "نمایشگاه علمی", "school"),
    ("lighthouse", "Lighthouse", "فانوس دریایی", "water"),
    ("dragon-cave", "Dragon's Cave", "غار اژدها", "fantasy"),
)

_PLACES_HEADER = """\
# yaml-language-server: $schema={schema}
# A place deck: the secret places players make a mess for.
#
# Each place has:
#   id        a stable name for the card: lowercase letters, digits and hyphens
#   name      what is printed, in each language the editions need (en, fa)
#   category  one of the categories below: mess items hint at places by category
#   icon      optional: an OpenMoji picture by hexcode ("1F333") or the emoji itself
#
# Replace the examples with your own places; any number works, though a game of six
# rounds uses 48 without repeats. Then: deckforge build --edition <your edition>
kind: places
"""


def _categories_block(categories: list[dict]) -> str:
    lines = ["categories:"]
    for c in categories:
        name = c["name"]
        if isinstance(name, dict):
            name = "{" + ", ".join(f"{k}: {_quote(v)}" for k, v in name.items()) + "}"
        else:
            name = _quote(name)
        lines.append(f'  - {{id: {c["id"]}, name: {name}, colour: "{c["colour"]}"}}')
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    return (
        yaml.safe_dump(text, allow_unicode=True, default_style=None)
        .strip()
        .removesuffix("\n...")
        .strip()
    )


def _places_text(categories: list[dict], schema: str, locales: tuple[str, ...]) -> str:
    known = {c["id"] for c in categories}
    body = [_PLACES_HEADER.format(schema=schema), _categories_block(categories), "places:"]
    for place_id, en, fa, category in EXAMPLES:
        if category not in known:
            category = categories[0]["id"]
        names = {"en": en, "fa": fa}
        name = "{" + ", ".join(f"{loc}: {_quote(names[loc])}" for loc in locales) + "}"
        body.append(f"  - id: {place_id}\n    name: {name}\n    category: {category}")
    return "\n".join(body) + "\n"


def _shipped_categories(project: Project) -> list[dict]:
    for manifest in select_editions(project, None):
        data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
        for deck in data.get("decks", []):
            path = manifest.parent / deck["source"]
            source = yaml.safe_load(path.read_text(encoding="utf-8"))
            if isinstance(source, dict) and source.get("kind") == "places":
                return source["categories"]
    # A project without a place deck takes the categories of deckforge's own game.
    from deckforge.authoring.project import Copied
    from deckforge.sources import shipped

    game = Copied(shipped.find("guess-the-mess-en"))  # type: ignore[arg-type]
    data = yaml.safe_load(game.read(EDITION_FILE))
    for deck in data["decks"]:
        source = yaml.safe_load(game.read(deck["source"]))
        if source.get("kind") == "places":
            return source["categories"]
    raise UsageError("no place deck to take categories from")


def _schema_ref(target_dir: Path, project: Project) -> str:
    return os.path.relpath(project.root / "schemas" / "places.schema.json", target_dir)


def new_place_deck(project: Project, path: Path) -> Path:
    """Write a commented, valid place deck at ``path`` (never over an existing file)."""
    if path.exists():
        raise UsageError(f"{path} already exists; choose another name")
    if path.suffix != ".yaml":
        raise UsageError(f"{path}: a place deck is a .yaml file")
    path.parent.mkdir(parents=True, exist_ok=True)
    text = _places_text(
        _shipped_categories(project), _schema_ref(path.parent, project), ("en", "fa")
    )
    path.write_text(text, encoding="utf-8")
    return path


def new_folder(project: Project, name: str) -> Path:
    """The folder of a new edition, ``decks/NAME`` (not made yet); UsageError when the
    name is not an id or the folder exists."""
    import re

    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name):
        raise UsageError(
            f"'{name}' is not a valid edition name: use lowercase letters, digits and hyphens"
        )
    folder = project.decks / name
    if folder.exists():
        raise UsageError(f"{folder} already exists; choose another name")
    return folder


def new_edition(project: Project, name: str, base: str) -> Path:
    """Create ``decks/NAME/`` from an existing edition: its decks and components reused,
    and a new place deck of examples in place of its places (if it has one).

    An edition of the project is reused by reference; one that only deckforge ships
    (in a project made by ``deckforge init``) is copied in, file by file."""
    folder = new_folder(project, name)
    origin = _origin(project, base, folder)
    data = yaml.safe_load(origin.read(EDITION_FILE))
    places_deck = next(
        (d for d in data["decks"] if _kind_of(origin.read(d["source"])) == "places"), None
    )
    schema = os.path.relpath(project.root / "schemas" / "edition.schema.json", folder)
    lines = _edition_lines(name, data, schema, places_deck, origin.place)
    origin.keep_templates()
    folder.mkdir(parents=True)
    (folder / EDITION_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    for relpath, text in origin.copies.items():
        (folder / relpath).parent.mkdir(parents=True, exist_ok=True)
        (folder / relpath).write_text(text, encoding="utf-8")
    if places_deck is not None:
        categories = yaml.safe_load(origin.read(places_deck["source"]))["categories"]
        locales = ("en", "fa") if data["locale"] == "en" else (data["locale"], "en")
        (folder / "places.yaml").write_text(
            _places_text(
                categories,
                os.path.relpath(project.root / "schemas" / "places.schema.json", folder),
                locales,
            ),
            encoding="utf-8",
        )
    return folder


def _origin(project: Project, base: str, folder: Path):
    """Where a new edition's base is read from: the project, or else deckforge's own."""
    from deckforge.authoring import project as projects
    from deckforge.sources import shipped

    try:
        manifest = select_editions(project, [base])[0]
    except UsageError:
        found = shipped.find(base)
        if found is None:
            known = ", ".join(sorted({*_project_ids(project), *shipped.editions()}))
            raise UsageError(f"no edition named '{base}' (known: {known})") from None
        return projects.Copied(found)
    return projects.Linked(manifest.parent, folder)


def _project_ids(project: Project) -> list[str]:
    ids = []
    for manifest in select_editions(project, None):
        data = _kind_data(manifest.read_text(encoding="utf-8"))
        if isinstance(data.get("id"), str):
            ids.append(data["id"])
    return ids


def _edition_lines(
    name: str, data: dict, schema: str, places_deck: dict | None, moved: Callable[[str], str]
) -> list[str]:
    """The lines of a new edition's manifest: the base edition's settings, decks and
    components, its place deck replaced by the new one."""
    if places_deck is not None:
        yours = [
            "# components below are the original edition's, reused as they are, except the",
            "# place deck, which is yours: edit places.yaml. Build with:",
        ]
    else:
        yours = ["# components below are the original edition's, reused as they are. Build with:"]
    lines = [
        f"# yaml-language-server: $schema={schema}",
        f"# {name}: made from {data['id']} with 'deckforge new edition'. The decks and",
        *yours,
        f"#   deckforge build --edition {name}",
        "kind: edition",
        f"id: {name}",
        f"game: {data['game']}",
        f"title: {_quote(data['title'])}",
        f"locale: {data['locale']}",
    ]
    if "players" in data:
        lines.append(f"players: {{min: {data['players']['min']}, max: {data['players']['max']}}}")
    if "colours" in data:
        lines.append(
            "colours: {" + ", ".join(f'{k}: "{v}"' for k, v in data["colours"].items()) + "}"
        )
    lines.append("decks:")
    for deck in data["decks"]:
        if places_deck is not None and deck is places_deck:
            entry = {"id": deck["id"], "source": "places.yaml", "size": deck["size"]}
            lines.append("  # Your places: any number of them, so no count is checked.")
        else:
            entry = {k: v for k, v in deck.items()}
            entry["source"] = moved(deck["source"])
        if "back" in deck:
            entry["back"] = deck["back"]
        lines.append(f"  - {_flow(entry)}")
    if data.get("components"):
        lines.append("components:")
        for component in data["components"]:
            entry = {"id": component["id"], "source": moved(component["source"])}
            lines.append(f"  - {_flow(entry)}")
    return lines


def _flow(entry: dict) -> str:
    """A mapping on one line, as YAML's flow style writes it."""
    return yaml.safe_dump(
        entry, allow_unicode=True, default_flow_style=True, sort_keys=False, width=1000
    ).strip()


def _kind_data(text: str | None) -> dict:
    try:
        data = yaml.safe_load(text) if text is not None else None
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def _kind_of(text: str | None) -> str | None:
    return _kind_data(text).get("kind")
