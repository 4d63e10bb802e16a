"""The build, stage by stage: load → validate → model → layout → impose → render → write.

Every edition is loaded, validated and laid out before any file is written;
all problems are collected and reported together.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from deckforge.errors import WARNING, BuildFailed, Problem, SourceRef, UsageError, errors_only
from deckforge.layout import documents
from deckforge.layout.cards import lay_out_deck
from deckforge.layout.impose import ImpositionError, impose
from deckforge.layout.ops import Card, Document
from deckforge.load import find_editions, load_edition
from deckforge.model import Edition, build_edition
from deckforge.profiles import Profile, all_profiles
from deckforge.render import pdf
from deckforge.units import to_mm
from deckforge.validate import validate_edition
from deckforge.write import Output, locked, write_all, write_manifest


@dataclass(frozen=True)
class Project:
    """Where sources are read from: the decks folder and the project folder around it."""

    decks: Path

    @property
    def root(self) -> Path:
        return self.decks.resolve().parent


def select_editions(project: Project, names: list[str] | None) -> list[Path]:
    """Edition manifests to build: all, or those named by id or folder name."""
    manifests = find_editions(project.decks)
    if not names:
        return manifests
    chosen = []
    for name in names:
        path = Path(name)
        if path.is_file():
            chosen.append(path)
            continue
        if path.is_dir() and (path / "edition.yaml").is_file():
            chosen.append(path / "edition.yaml")
            continue
        matches = [m for m in manifests if m.parent.name == name or _edition_id(m) == name]
        if not matches:
            known = ", ".join(sorted(filter(None, (_edition_id(m) for m in manifests))))
            raise UsageError(f"no edition named '{name}' (known: {known})")
        chosen.extend(matches)
    return list(dict.fromkeys(chosen))


def _edition_id(manifest: Path) -> str | None:
    from deckforge.source import load_yaml

    source, _ = load_yaml(manifest, manifest.as_posix())
    if source is not None and isinstance(source.data, dict):
        value = source.data.get("id")
        return value if isinstance(value, str) else None
    return None


def select_profiles(names: list[str] | None) -> list[Profile]:
    """Profiles to build: all, or those named."""
    profiles = all_profiles()
    if not names:
        return list(profiles.values())
    unknown = [n for n in names if n not in profiles]
    if unknown:
        raise UsageError(f"no profile named '{unknown[0]}' (known: {', '.join(profiles)})")
    return [profiles[n] for n in dict.fromkeys(names)]


def gather(project: Project, manifests: list[Path]) -> tuple[list[Edition], list[Problem]]:
    """Load, validate and model every edition, collecting every problem."""
    cache: dict = {}
    editions: list[Edition] = []
    problems: list[Problem] = []
    for manifest in manifests:
        loaded, found = load_edition(manifest, project.root, cache)
        problems.extend(found)
        if loaded is None:
            continue
        checked = validate_edition(loaded)
        problems.extend(checked)
        if any(p.ref.file == loaded.manifest.display for p in errors_only(found + checked)):
            continue  # without a sound manifest there is nothing to model
        # Model the decks and components whose own files are sound, so that layout can
        # still report their problems (text that cannot fit) in the same run.
        broken = {p.ref.file for p in errors_only(found + checked)}
        editions.append(build_edition(loaded, skip=broken))
    return editions, _unique(problems)


def _unique(problems: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


@dataclass(frozen=True)
class LaidOut:
    """An edition's cards per deck and its documents' pages per profile."""

    edition: Edition
    cards: dict[str, list[Card]]


def lay_out(edition: Edition) -> tuple[LaidOut, list[Problem]]:
    """Every card of every deck (the same under every profile)."""
    cards: dict[str, list[Card]] = {}
    problems: list[Problem] = []
    for deck in edition.decks:
        laid, found = lay_out_deck(edition, deck)
        cards[deck.id] = laid
        problems.extend(found)
    return LaidOut(edition, cards), problems


def outputs_for(laid: LaidOut, profile: Profile) -> tuple[list[Output], list[Problem]]:
    """The files one edition makes under one profile."""
    edition = laid.edition
    outputs: list[Output] = []
    problems: list[Problem] = []
    base = {"edition": edition.id, "locale": edition.locale, "profile": profile.id}
    for deck in edition.decks:
        cards = laid.cards[deck.id]
        try:
            pages = impose(cards, profile)
        except ImpositionError as exc:
            problems.append(Problem(deck.ref, str(exc)))
            continue
        relpath = f"{edition.id}/{profile.id}/{deck.id}.pdf"
        bleed = profile.bleed if profile.mode == "single" else 0.0
        entry = {
            **base,
            "path": relpath,
            "kind": "cards",
            "deck": deck.id,
            "cards": len(cards),
            "pages": len(pages),
            "trim_mm": [round(deck.size_mm[0], 2), round(deck.size_mm[1], 2)],
            "bleed_mm": round(to_mm(bleed), 3),
        }
        outputs.append(
            Output(relpath, Document(tuple(pages), f"{edition.title} – {deck.id}"), entry)
        )
    for component in edition.components:
        kind, pages, found = documents.lay_out_component(edition, component, profile)
        problems.extend(found)
        if not pages:
            continue
        relpath = f"{edition.id}/{profile.id}/{component.id}.pdf"
        first = pages[0]
        trim = first.trim_box or (0, 0, first.width, first.height)
        entry = {
            **base,
            "path": relpath,
            "kind": kind,
            "deck": component.id,
            "cards": 0,
            "pages": len(pages),
            "trim_mm": [round(to_mm(trim[2] - trim[0]), 2), round(to_mm(trim[3] - trim[1]), 2)],
            "bleed_mm": round(to_mm(profile.document_bleed), 3),
        }
        outputs.append(
            Output(relpath, Document(tuple(pages), f"{edition.title} – {component.id}"), entry)
        )
    return outputs, problems


def check(
    project: Project, edition_names: list[str] | None = None, profile_names: list[str] | None = None
) -> tuple[list[LaidOut], list[Output], list[Problem]]:
    """Everything short of writing: load, validate, model, lay out and impose every
    edition under every profile; returns what would be written and every problem."""
    profiles = select_profiles(profile_names)
    editions, problems = gather(project, select_editions(project, edition_names))
    laid_out: list[LaidOut] = []
    outputs: list[Output] = []
    for edition in editions:
        laid, found = lay_out(edition)
        problems.extend(found)
        laid_out.append(laid)
        for profile in profiles:
            found_outputs, found = outputs_for(laid, profile)
            outputs.extend(found_outputs)
            problems.extend(found)
    return laid_out, outputs, _unique(problems)


def build(
    project: Project,
    out_dir: Path,
    edition_names: list[str] | None = None,
    profile_names: list[str] | None = None,
    strict: bool = False,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[dict], list[Problem]]:
    """Build editions × profiles into ``out_dir``; raises BuildFailed before writing anything
    if any source has an error. Returns the manifest entries written and the warnings."""
    laid_out, outputs, problems = check(project, edition_names, profile_names)
    if errors_only(problems, strict):
        raise BuildFailed(errors_only(problems, strict))
    if not laid_out:
        raise BuildFailed([Problem(SourceRef(project.decks.as_posix()), "no editions to build")])
    profiles = select_profiles(profile_names)
    rebuilt = {(laid.edition.id, p.id) for laid in laid_out for p in profiles}
    with locked(out_dir):
        entries = write_all(outputs, out_dir, pdf.render, progress)
        write_manifest(out_dir, entries, rebuilt)
    return entries, [p for p in problems if p.severity == WARNING]


__all__ = ["Project", "build", "check"]
