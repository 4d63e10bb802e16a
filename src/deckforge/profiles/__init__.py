"""Print profiles: how outputs are put on paper, as validated YAML files in this folder.

Adding a profile means adding a file here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from deckforge.errors import BuildFailed, DeckforgeError, UsageError
from deckforge.errors import Problem as _Problem
from deckforge.units import PAPER_SIZES_MM, mm, out_of_range, parse_length

FOLDER = Path(__file__).parent


@dataclass(frozen=True)
class OutputIntent:
    """The printing condition files are made for: its ICC profile and how PDF/X names it."""

    #: The shop's own profile; None for deckforge's model of FOGRA39.
    icc: Path | None = None
    condition: str = "FOGRA39"
    condition_name: str = (
        "Offset printing, coated paper (ISO 12647-2:2004), deckforge model of FOGRA39"
    )
    registry: str = "http://www.color.org"
    #: How colours outside the press's gamut are brought in (an ICC rendering intent).
    intent: str = "relative-colorimetric"
    #: A digest of the ICC file, so that a changed file makes outputs again.
    digest: str = ""

    @classmethod
    def from_file(cls, icc: Path, condition: str = "Custom", **fields) -> OutputIntent:
        """A shop's profile: read, checked to be a CMYK output profile, and named."""
        import hashlib

        from deckforge.fsutil import read_regular

        try:
            data = read_regular(Path(icc), MAX_ICC_BYTES)
        except OSError as error:  # a pipe or a device is refused, not waited on
            raise ValueError(f"{icc}: {error.strerror or error}") from None
        if data[12:16] != b"prtr" or data[16:20] != b"CMYK":
            raise ValueError(f"{icc}: not a CMYK output (printer) ICC profile")
        fields.setdefault("condition_name", _description(data) or Path(icc).stem)
        if condition == "Custom":
            fields.setdefault("registry", "")
        digest = hashlib.sha256(data).hexdigest()
        return cls(icc=Path(icc), condition=condition, digest=digest, **fields)

    @classmethod
    def option(cls, icc: Path | None, condition: str) -> OutputIntent | None:
        """The intent ``build --output-profile ICC --output-condition ID`` names, if any."""
        if icc is None:
            return None
        try:
            return cls.from_file(icc, condition)
        except (OSError, ValueError) as error:
            raise DeckforgeError(f"--output-profile: {error}") from None


def _description(data: bytes) -> str:
    """An ICC profile's description, as littleCMS reads it."""
    import io

    from PIL import ImageCms

    try:
        return ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(data))).strip()
    except (OSError, ImageCms.PyCMSError):
        return ""


#: The largest shop's ICC profile read (press profiles take a few megabytes).
MAX_ICC_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, eq=False)
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
    #: The inks (0–1) large black areas print in; text and rules of black are 100 % K.
    rich_black: tuple[float, float, float, float] = (0.6, 0.4, 0.4, 1.0)
    #: Shift of every back on its sheet (points; right and up as printed), to make up
    #: for a printer that does not line the two sides up. Set from the command line.
    back_offset: tuple[float, float] = (0.0, 0.0)
    #: The PDF/X version files are written to ("PDF/X-4", "PDF/X-1a:2001"), if any.
    pdfx: str | None = None
    output_intent: OutputIntent = OutputIntent()
    #: Whether the pages of one file may differ in size.
    mixed_sizes: bool = False
    #: Whether a build that names no profile makes it.
    default: bool = True

    @property
    def cmyk(self) -> bool:
        """Whether files are written in CMYK (decided by the colour mode, not the name)."""
        return self.colour == "cmyk"


def _paper(name: str) -> tuple[float, float]:
    w, h = PAPER_SIZES_MM[name]
    return mm(w), mm(h)


def _output_intent(data: dict, path: Path) -> OutputIntent:
    keys = ("condition", "condition_name", "registry", "intent")
    fields = {key: data[key] for key in keys if key in data}
    icc = data.get("icc")
    if icc:
        return OutputIntent.from_file(path.parent / icc, **fields)
    return OutputIntent(**fields)


@cache
def all_profiles() -> dict[str, Profile]:
    """Every shipped profile by id."""
    return _loaded(tuple(path.stem for path in sorted(FOLDER.glob("*.yaml"))))


@cache
def _loaded(names: tuple[str, ...]) -> dict[str, Profile]:
    """The shipped profiles of these names (files that exist), by id; every problem in
    any of them raised together."""
    from deckforge.sources.schema import schema_problems
    from deckforge.sources.source import load_yaml

    profiles: dict[str, Profile] = {}
    problems: list[_Problem] = []
    for path in (FOLDER / f"{name}.yaml" for name in names):
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
        wrong = _out_of_range(source, d)
        if wrong:
            problems.extend(wrong)
            continue
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
            rich_black=tuple(v / 100 for v in d.get("rich_black", (60, 40, 40, 100))),
            pdfx=d.get("pdfx"),
            output_intent=_output_intent(d.get("output_intent", {}), path),
            default=d.get("default", True),
        )
    if problems:
        raise BuildFailed(problems)
    return profiles


#: The lengths of a profile and the range each must lie in (:data:`deckforge.units.LIMITS`).
_LENGTHS = {
    ("margin",): "spacing",
    ("gap",): "spacing",
    ("gutter",): "spacing",
    ("bleed",): "bleed",
    ("documents", "bleed"): "bleed",
}


def _out_of_range(source, data: dict) -> list[_Problem]:
    """A problem for each length of a profile outside its range, at its line."""
    problems = []
    for path, limit in _LENGTHS.items():
        value: Any = data
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if value is None:
            continue
        wrong = out_of_range(parse_length(value), limit)
        if wrong is not None:
            problems.append(_Problem(source.ref(path), wrong))
    return problems


#: How a profile that is built only when named says so: read before YAML is, so that a
#: build with nothing to do knows its profiles at once (the schema checks the key).
_NAMED_ONLY = re.compile(r"^default:\s*false\s*$", re.MULTILINE)


def default_names(folder: Path = FOLDER) -> list[str]:
    """The ids of the profiles a build that names none makes, from their files."""
    return [
        path.stem
        for path in sorted(folder.glob("*.yaml"))
        if not _NAMED_ONLY.search(path.read_text(encoding="utf-8"))
    ]


def select_profiles(names: list[str] | None) -> list[Profile]:
    """Profiles to build: those built by default, or those named (only those are read)."""
    if not names:
        return [p for p in all_profiles().values() if p.default]
    known = sorted(path.stem for path in FOLDER.glob("*.yaml"))
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UsageError(f"no profile named '{unknown[0]}' (known: {', '.join(known)})")
    names = list(dict.fromkeys(names))
    profiles = _loaded(tuple(sorted(names)))
    return [profiles[n] for n in names]
