"""The model: an edition's decks and components as frozen dataclasses.

Built only from validated sources (:func:`build_edition`), with every text
already resolved to the edition's language and carrying its source place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from deckforge.errors import SourceRef
from deckforge.fsutil import digest
from deckforge.sources.load import LoadedEdition
from deckforge.sources.rules import text_in
from deckforge.sources.source import Source
from deckforge.units import CARD_SIZES_MM


@dataclass(frozen=True)
class Text:
    """A text in the edition's language and where it was written."""

    value: str
    ref: SourceRef


@dataclass(frozen=True)
class Art:
    """A user's picture file for a card, and where the source names it."""

    path: Path
    ref: SourceRef


@dataclass(frozen=True)
class Category:
    """A kind of place, with its printed name and colour."""

    id: str
    name: Text
    colour: str


@dataclass(frozen=True)
class PlaceCard:
    """A secret place."""

    id: str
    name: Text
    category: Category
    icon: str | None
    art: Art | None = None


@dataclass(frozen=True)
class MessCard:
    """An item of a mess."""

    id: str
    name: Text
    icon: str | None
    suggests: tuple[str, ...]
    art: Art | None = None


@dataclass(frozen=True)
class WhichWayCard:
    """Which neighbour receives your mess."""

    id: str
    direction: str
    distance: int
    min_players: int
    label: Text
    players_label: Text


@dataclass(frozen=True)
class PlayerColour:
    """A player colour, told apart also by its name and symbol."""

    id: str
    name: Text
    hex: str
    symbol: str


@dataclass(frozen=True)
class NumberCard:
    """A numbered card, optionally in a player colour."""

    id: str
    number: int
    label: Text
    colour: PlayerColour | None


@dataclass(frozen=True)
class BlankCard:
    """A write-your-own card."""

    id: str
    like: str
    prompt: Text
    lines: int


@dataclass(frozen=True)
class PictureCard:
    """A storytelling picture, generated from a seed until art is supplied."""

    id: str
    number: int
    seed: int
    art: Art | None = None


Card = PlaceCard | MessCard | WhichWayCard | NumberCard | BlankCard | PictureCard


@dataclass(frozen=True)
class Deck:
    """A deck as printed: its cards, trim size and back wording."""

    id: str
    kind: str
    size_name: str
    size_mm: tuple[float, float]
    cards: tuple[Card, ...]
    back_label: Text | None
    ref: SourceRef


@dataclass(frozen=True)
class ScorePad:
    """A score sheet."""

    id: str
    title: Text
    players: int
    rounds: int
    columns: tuple[Text, ...]
    labels: dict[str, Text]


@dataclass(frozen=True)
class Step:
    """A numbered step, with optional lettered sub-steps."""

    number: int
    text: Text
    substeps: tuple[Text, ...]


@dataclass(frozen=True)
class Block:
    """A rulebook block: 'paragraph', 'note', 'bullets' or 'steps'."""

    kind: str
    texts: tuple[Text, ...] = ()
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Section:
    """A rulebook section with its blocks and subsections."""

    heading: Text
    blocks: tuple[Block, ...]
    sections: tuple[Section, ...] = ()


@dataclass(frozen=True)
class Rulebook:
    """A rulebook in one language."""

    id: str
    title: str
    subtitle: str
    locale: str
    sections: tuple[Section, ...]
    credits: tuple[str, ...]


@dataclass(frozen=True)
class Track:
    """A score track board."""

    id: str
    title: Text
    start: int
    end: int
    sheets: int


@dataclass(frozen=True)
class Pawns:
    """Fold-up pawns, one per player colour."""

    id: str
    label: Text
    colours: tuple[PlayerColour, ...]


Component = ScorePad | Rulebook | Track | Pawns


@dataclass(frozen=True)
class Palette:
    """The edition's colours."""

    ink: str = "#1D1D2C"
    paper: str = "#FFFDF7"
    accent: str = "#E4572E"
    accent_dark: str = "#7A2414"


@dataclass(frozen=True)
class Edition:
    """An edition of a game in one language."""

    id: str
    game: str
    title: str
    locale: str
    players: tuple[int, int]
    palette: Palette
    decks: tuple[Deck, ...]
    components: tuple[Component, ...]
    folder: Path
    sources: tuple[Path, ...]
    #: Every file (and art folder) the edition's outputs depend on, with the digest of
    #: its content as read for this build.
    inputs: dict[Path, str] = field(default_factory=dict)


CREDITS = (
    "Typeset with deckforge. Fonts: Noto Sans and Noto Sans Arabic (SIL Open Font License 1.1).",
    "Pictures: OpenMoji. All emojis designed by OpenMoji – the open-source emoji and icon "
    "project. License: CC BY-SA 4.0.",
)


def _icon(entry: dict) -> str | None:
    from deckforge.art import icons

    return icons.resolve(entry["icon"]) if "icon" in entry else None


def _art(source: Source, path: tuple, entry: dict) -> Art | None:
    if "art" not in entry:
        return None
    return Art(source.path.parent / entry["art"], source.ref(path))


def picture_art(source: Source, data: dict, number: int) -> Art | None:
    """A picture card's own art from the deck's art folder, if there is a file for it."""
    if "art_folder" not in data:
        return None
    folder = source.path.parent / data["art_folder"]
    for stem in (f"{number:02d}", str(number)):
        for suffix in (".png", ".jpg", ".jpeg", ".svg"):
            candidate = folder / f"{stem}{suffix}"
            if candidate.is_file():
                return Art(candidate, source.ref(("art_folder",)))
    return None


class _Builder:
    def __init__(self, loaded: LoadedEdition):
        self.loaded = loaded
        self.locale = loaded.manifest.data["locale"]

    def text(self, source: Source, path: tuple, value: object) -> Text:
        resolved = text_in(value, self.locale)
        assert resolved is not None, "validation guarantees every text has the edition's language"
        if isinstance(value, dict):
            path = (*path, self.locale)
        return Text(resolved, source.ref(path))

    def deck(self, index: int, entry: dict) -> Deck:
        source = self.loaded.decks[entry["id"]]
        data = source.data
        kind = data["kind"]
        cards: list[Card] = []
        if kind == "places":
            categories = {
                c["id"]: Category(
                    c["id"], self.text(source, ("categories", i, "name"), c["name"]), c["colour"]
                )
                for i, c in enumerate(data["categories"])
            }
            for i, p in enumerate(data["places"]):
                cards.append(
                    PlaceCard(
                        p["id"],
                        self.text(source, ("places", i, "name"), p["name"]),
                        categories[p["category"]],
                        _icon(p),
                        _art(source, ("places", i, "art"), p),
                    )
                )
        elif kind == "mess":
            for i, m in enumerate(data["items"]):
                cards.append(
                    MessCard(
                        m["id"],
                        self.text(source, ("items", i, "name"), m["name"]),
                        _icon(m),
                        tuple(m["suggests"]),
                        _art(source, ("items", i, "art"), m),
                    )
                )
        elif kind == "which-way":
            labels = data["labels"]
            for i, c in enumerate(data["cards"]):
                label = self.text(source, ("labels", c["direction"]), labels[c["direction"]])
                players = self.text(source, ("labels", "players"), labels["players"])
                cards.append(
                    WhichWayCard(
                        c["id"],
                        c["direction"],
                        c["distance"],
                        c["min_players"],
                        Text(
                            label.value.replace("{distance}", str(c["distance"])),
                            source.ref(("cards", i)),
                        ),
                        Text(
                            players.value.replace("{players}", str(c["min_players"])),
                            source.ref(("cards", i, "min_players")),
                        ),
                    )
                )
        elif kind == "numbered":
            label = self.text(source, ("label",), data["label"])
            colours = [
                PlayerColour(
                    c["id"],
                    self.text(source, ("colours", i, "name"), c["name"]),
                    c["hex"],
                    c["symbol"],
                )
                for i, c in enumerate(data.get("colours", []))
            ] or [None]
            for colour in colours:
                for n in range(data["numbers"]["from"], data["numbers"]["to"] + 1):
                    card_id = f"{colour.id}-{n}" if colour else str(n)
                    cards.append(NumberCard(card_id, n, label, colour))
        elif kind == "blank":
            prompt = self.text(source, ("prompt",), data["prompt"])
            for n in range(1, data["count"] + 1):
                cards.append(BlankCard(f"blank-{n}", data["like"], prompt, data.get("lines", 2)))
        elif kind == "pictures":
            for n in range(1, data["count"] + 1):
                cards.append(
                    PictureCard(f"picture-{n}", n, data["seed"], picture_art(source, data, n))
                )
        back = entry.get("back")
        return Deck(
            id=entry["id"],
            kind=kind,
            size_name=entry["size"],
            size_mm=CARD_SIZES_MM[entry["size"]],
            cards=tuple(cards),
            back_label=self.text(self.loaded.manifest, ("decks", index, "back"), back)
            if back is not None
            else None,
            ref=self.loaded.manifest.ref(("decks", index)),
        )

    def component(self, entry: dict) -> Component:
        source = self.loaded.components[entry["id"]]
        data = source.data
        if data["kind"] == "score-pad":
            labels = data.get("labels", {})
            return ScorePad(
                id=entry["id"],
                title=self.text(source, ("title",), data["title"]),
                players=data["players"],
                rounds=data["rounds"],
                columns=tuple(
                    self.text(source, ("columns", i), c) for i, c in enumerate(data["columns"])
                ),
                labels={k: self.text(source, ("labels", k), v) for k, v in labels.items()},
            )
        if data["kind"] == "track":
            return Track(
                entry["id"],
                self.text(source, ("title",), data["title"]),
                data["from"],
                data["to"],
                data.get("sheets", 2),
            )
        if data["kind"] == "pawns":
            deck_source = self.loaded.decks[data["colours_from"]]
            colours = tuple(
                PlayerColour(
                    c["id"],
                    self.text(deck_source, ("colours", i, "name"), c["name"]),
                    c["hex"],
                    c["symbol"],
                )
                for i, c in enumerate(deck_source.data["colours"])
            )
            return Pawns(entry["id"], self.text(source, ("label",), data["label"]), colours)
        return Rulebook(
            id=entry["id"],
            title=data["title"],
            subtitle=data.get("subtitle", ""),
            locale=data["locale"],
            sections=tuple(
                self.section(source, ("sections", i), s) for i, s in enumerate(data["sections"])
            ),
            credits=CREDITS,
        )

    def section(self, source: Source, path: tuple, data: dict) -> Section:
        blocks: list[Block] = []
        for i, block in enumerate(data.get("blocks", [])):
            bpath = path + ("blocks", i)
            ((kind, value),) = block.items()
            if kind in ("paragraph", "note"):
                blocks.append(Block(kind, texts=(Text(value, source.ref(bpath + (kind,))),)))
            elif kind == "bullets":
                blocks.append(
                    Block(
                        kind,
                        texts=tuple(
                            Text(v, source.ref(bpath + (kind, j))) for j, v in enumerate(value)
                        ),
                    )
                )
            else:
                start = value.get("start", 1)
                steps = tuple(
                    Step(
                        start + j,
                        Text(item["text"], source.ref(bpath + ("steps", "items", j))),
                        tuple(
                            Text(s, source.ref(bpath + ("steps", "items", j, "substeps", k)))
                            for k, s in enumerate(item.get("substeps", []))
                        ),
                    )
                    for j, item in enumerate(value["items"])
                )
                blocks.append(Block("steps", steps=steps))
        return Section(
            heading=Text(data["heading"], source.ref(path + ("heading",))),
            blocks=tuple(blocks),
            sections=tuple(
                self.section(source, path + ("sections", i), s)
                for i, s in enumerate(data.get("sections", []))
            ),
        )


def build_edition(loaded: LoadedEdition, skip: set[str] = frozenset()) -> Edition:
    """The model of a loaded edition whose sources passed validation.

    Decks and components whose source file is named in ``skip`` (files with
    errors) are left out, so the rest can still be laid out and checked.
    """
    manifest = loaded.manifest.data
    builder = _Builder(loaded)

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
            builder.deck(i, d) for i, d in enumerate(manifest["decks"]) if sound(d, loaded.decks)
        ),
        components=tuple(
            builder.component(c)
            for c in manifest.get("components", [])
            if sound(c, loaded.components)
        ),
        folder=loaded.folder,
        sources=tuple(s.path for s in loaded.all_sources()),
        inputs=_inputs(loaded),
    )


def _inputs(loaded: LoadedEdition) -> dict[Path, str]:
    """Sources (as parsed), the art files cards name, and art folders (their listing
    matters too), each with the digest of its content."""
    found: dict[Path, str] = {}
    for source in loaded.all_sources():
        found[source.path] = source.digest
        data = source.data if isinstance(source.data, dict) else {}
        entries = [
            e for key in ("places", "items") if isinstance(data.get(key), list) for e in data[key]
        ]
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("art"), str):
                art = source.path.parent / entry["art"]
                found[art] = digest(art)
        if isinstance(data.get("art_folder"), str):
            folder = source.path.parent / data["art_folder"]
            found[folder] = digest(folder)
    from deckforge.templates import dependencies

    # The edition's own templates (and the fonts and pictures kept beside them).
    for path in dependencies(loaded.folder):
        found[path] = digest(path)
    return found
