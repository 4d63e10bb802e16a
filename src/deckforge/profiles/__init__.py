"""Print profiles: how outputs are put on paper, as validated YAML files in this folder.

Adding a profile means adding a file here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from deckforge.errors import BuildFailed
from deckforge.errors import Problem as _Problem
from deckforge.source import load_yaml
from deckforge.units import PAPER_SIZES_MM, mm, parse_length

FOLDER = Path(__file__).parent


@dataclass(frozen=True)
class Profile:
    """A validated print profile, lengths in points."""

    id: str
    description: str
    mode: str
    paper: tuple[float, float] | None
    margin: float
    gap: float
    crop_marks: bool
    duplex: str
    bleed: float
    order: str
    document_paper: tuple[float, float]
    document_bleed: float
    path: Path | None = None
    gutter: float = 0.0
    colour: str = "rgb"
    ink_limit: float = 240.0
    #: Shift of every back on its sheet (points; right and up as printed), to make up
    #: for a printer that does not line the two sides up. Set from the command line.
    back_offset: tuple[float, float] = (0.0, 0.0)


def _paper(name: str) -> tuple[float, float]:
    w, h = PAPER_SIZES_MM[name]
    return mm(w), mm(h)


@cache
def all_profiles() -> dict[str, Profile]:
    """Every shipped profile by id."""
    from deckforge.validate import schema_problems

    profiles: dict[str, Profile] = {}
    problems: list[_Problem] = []
    for path in sorted(FOLDER.glob("*.yaml")):
        source, found = load_yaml(path, f"deckforge/profiles/{path.name}")
        problems.extend(found)
        if source is None:
            continue
        found = list(schema_problems(source, "profile"))
        problems.extend(found)
        if found:
            continue
        d = source.data
        if d["id"] != path.stem:
            problems.append(
                _Problem(
                    source.ref(("id",)), f"a profile's id must be its file name, '{path.stem}'"
                )
            )
            continue
        docs = d["documents"]
        profiles[d["id"]] = Profile(
            id=d["id"],
            description=d["description"],
            mode=d["mode"],
            paper=_paper(d["paper"]) if "paper" in d else None,
            margin=parse_length(d.get("margin", "6mm")),
            gap=parse_length(d.get("gap", "0mm")),
            crop_marks=d.get("crop_marks", True),
            duplex=d.get("duplex", "long-edge"),
            bleed=parse_length(d.get("bleed", "0mm")),
            order=d.get("order", "back-first"),
            document_paper=_paper(docs["paper"]),
            document_bleed=parse_length(docs.get("bleed", "0mm")),
            path=path,
            gutter=parse_length(d.get("gutter", "0mm")),
            colour=d.get("colour", "rgb"),
            ink_limit=float(d.get("ink_limit", 240)),
        )
    if problems:
        raise BuildFailed(problems)
    return profiles
