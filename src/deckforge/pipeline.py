"""The build, stage by stage: load → validate → model → layout → impose → render → write.

Every edition is loaded, validated and laid out before any file is written;
all problems are collected and reported together.
"""

from __future__ import annotations

import gc
import hashlib
import pickle
from dataclasses import dataclass, field, replace
from pathlib import Path

from deckforge import incremental
from deckforge.errors import WARNING, BuildFailed, Problem, SourceRef, UsageError, errors_only
from deckforge.layout import documents
from deckforge.layout.cards import lay_out_deck
from deckforge.layout.impose import ImpositionError, impose
from deckforge.layout.ops import Card, Document, Picture
from deckforge.load import find_editions, load_edition
from deckforge.model import Edition, build_edition
from deckforge.profiles import Profile, all_profiles
from deckforge.render import pdf
from deckforge.units import to_mm
from deckforge.validate import validate_edition
from deckforge.write import Output, Progress, locked, write_all, write_manifest


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


def gather(
    project: Project, manifests: list[Path], lint: bool = False
) -> tuple[list[Edition], list[Problem]]:
    """Load, validate and model every edition, collecting every problem (and, with
    ``lint``, every piece of advice)."""
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
        edition = build_edition(loaded, skip=broken)
        editions.append(edition)
        if lint:
            from deckforge.lint import lint_edition

            problems.extend(lint_edition(loaded, edition))
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


def _output(
    edition: Edition,
    profile: Profile,
    part,
    pages: list,
    kind: str,
    cards: int,
    trim: tuple[float, float],
    bleed: float,
) -> Output:
    """One file of an edition: its pages and its build-manifest entry."""
    relpath = f"{edition.id}/{profile.id}/{part.id}.pdf"
    entry = {
        "edition": edition.id,
        "locale": edition.locale,
        "profile": profile.id,
        "path": relpath,
        "kind": kind,
        "deck": part.id,
        "cards": cards,
        "pages": len(pages),
        "trim_mm": [round(trim[0], 2), round(trim[1], 2)],
        "bleed_mm": round(to_mm(bleed), 3),
    }
    document = Document(
        tuple(pages),
        f"{edition.title} – {part.id}",
        colour=profile.colour,
        ink_limit=profile.ink_limit,
    )
    settings = (edition.id, edition.title, edition.locale, edition.palette, edition.players)
    return Output(relpath, document, entry, made_from=(settings, part, profile))


def outputs_for(laid: LaidOut, profile: Profile) -> tuple[list[Output], list[Problem]]:
    """The files one edition makes under one profile."""
    edition = laid.edition
    outputs: list[Output] = []
    problems: list[Problem] = []
    for deck in edition.decks:
        cards = laid.cards[deck.id]
        try:
            pages = impose(cards, profile)
        except ImpositionError as exc:
            problems.append(Problem(deck.ref, str(exc)))
            continue
        bleed = profile.bleed if profile.mode == "single" else 0.0
        outputs.append(
            _output(edition, profile, deck, pages, "cards", len(cards), deck.size_mm, bleed)
        )
    for component in edition.components:
        kind, pages, found = documents.lay_out_component(edition, component, profile)
        problems.extend(found)
        if not pages:
            continue
        first = pages[0]
        box = first.trim_box or (0, 0, first.width, first.height)
        trim = (to_mm(box[2] - box[0]), to_mm(box[3] - box[1]))
        outputs.append(
            _output(edition, profile, component, pages, kind, 0, trim, profile.document_bleed)
        )
    return outputs, problems


def calibration_outputs(profiles: list[Profile]) -> list[Output]:
    """A duplex calibration sheet for each profile that prints backs on their own sheet."""
    from deckforge.layout.calibration import calibration_pages

    outputs = []
    for profile in profiles:
        if profile.mode != "sheets":
            continue
        pages = calibration_pages(profile)
        relpath = f"calibration/{profile.id}.pdf"
        entry = {
            "edition": "calibration",
            "locale": "en",
            "profile": profile.id,
            "path": relpath,
            "kind": "calibration",
            "deck": "calibration",
            "cards": 0,
            "pages": len(pages),
            "trim_mm": [round(to_mm(pages[0].width), 2), round(to_mm(pages[0].height), 2)],
            "bleed_mm": 0.0,
        }
        outputs.append(
            Output(
                relpath,
                Document(tuple(pages), f"Duplex calibration – {profile.id}"),
                entry,
                made_from=("calibration", profile),
            )
        )
    return outputs


def check_manifests(
    project: Project, manifests: list[Path], profiles: list[Profile]
) -> tuple[list[LaidOut], list[Output], list[Problem]]:
    """Load, validate, model, lay out and impose the given editions under the given
    profiles: what would be written, and every problem."""
    editions, problems = gather(project, manifests)
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


def check(
    project: Project, edition_names: list[str] | None = None, profile_names: list[str] | None = None
) -> tuple[list[LaidOut], list[Output], list[Problem]]:
    """Everything short of writing, for editions and profiles named (all by default)."""
    return check_manifests(
        project, select_editions(project, edition_names), select_profiles(profile_names)
    )


@dataclass
class BuildReport:
    """What a build did."""

    written: list[dict] = field(default_factory=list)
    unchanged: list[dict] = field(default_factory=list)
    fresh_editions: list[str] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)


def _output_hash(output: Output, art: dict[str, str], tools: str) -> str:
    """What an output's bytes depend on: the model and profile it was laid out from (the
    layout is a function of them and of deckforge's code, which ``tools`` covers), the
    art it draws, and the versions of the tools."""
    total = hashlib.sha256(tools.encode())
    # Pickling is deterministic for these plain frozen dataclasses, and quick.
    total.update(pickle.dumps(output.made_from, protocol=5))
    drawn = {
        op.path
        for page in output.document.pages
        for placement in page.placements
        for op in placement.face.ops
        if isinstance(op, Picture)
    }
    for path in sorted(drawn):
        known = art.get(Path(path).as_posix()) or incremental.digest(Path(path))
        total.update(path.encode() + known.encode())
    return total.hexdigest()


def build(
    project: Project,
    out_dir: Path,
    edition_names: list[str] | None = None,
    profile_names: list[str] | None = None,
    strict: bool = False,
    progress: Progress | None = None,
    jobs: int | None = None,
    force: bool = False,
    back_offset: tuple[float, float] = (0.0, 0.0),
) -> BuildReport:
    """Build editions × profiles into ``out_dir``, redoing only what changed.

    Raises BuildFailed before writing anything if any source has an error.
    """
    profiles = [
        replace(p, back_offset=back_offset) if p.mode == "sheets" else p
        for p in select_profiles(profile_names)
    ]
    manifests = select_editions(project, edition_names)
    report = BuildReport()
    root = project.root
    profile_files = {p.id: p.path for p in profiles}
    fresh = (
        set()
        if force or strict
        else incremental.fresh_editions(root, manifests, out_dir, profile_files)
    )
    report.fresh_editions = [m.parent.name for m in manifests if m in fresh]
    todo = [m for m in manifests if m not in fresh]
    if not manifests:
        raise BuildFailed([Problem(SourceRef(project.decks.as_posix()), "no editions to build")])
    if not todo:
        return report
    laid_out, outputs, problems = check_manifests(project, todo, profiles)
    outputs += calibration_outputs(profiles)
    if errors_only(problems, strict):
        raise BuildFailed(errors_only(problems, strict))
    report.warnings = [p for p in problems if p.severity == WARNING]

    cache = {} if force else incremental.load(out_dir)
    tools = incremental.toolchain()
    known = cache.get("outputs", {})
    art = {path.as_posix(): sha for laid in laid_out for path, sha in laid.edition.inputs.items()}
    hashes = {o.relpath: _output_hash(o, art, tools) for o in outputs}
    to_render = []
    for output in outputs:
        record = known.get(output.relpath)
        target = out_dir / output.relpath
        if (
            record
            and record.get("hash") == hashes[output.relpath]
            and target.is_file()
            and target.stat().st_size == record.get("size")
        ):
            report.unchanged.append(output.entry)
        else:
            to_render.append(output)
    rebuilt = {(laid.edition.id, p.id) for laid in laid_out for p in profiles}
    rebuilt |= {("calibration", p.id) for p in profiles}
    # What was loaded and laid out lives until the end: the collector need not rescan
    # it while rendering, and forked workers then share its memory pages unwritten.
    gc.freeze()
    try:
        with locked(out_dir):
            pdf.load_icon_cache()
            report.written = write_all(to_render, out_dir, pdf.render, progress, jobs)
            write_manifest(out_dir, report.written + report.unchanged, rebuilt)
            _remember(cache, out_dir, root, laid_out, outputs, hashes, profiles, todo)
    finally:
        gc.unfreeze()
    return report


def _remember(
    cache: dict,
    out_dir: Path,
    root: Path,
    laid_out: list[LaidOut],
    outputs: list[Output],
    hashes: dict[str, str],
    profiles: list[Profile],
    manifests: list[Path],
) -> None:
    """Record what each edition read and what each output was made from."""
    outputs_record = cache.setdefault("outputs", {})
    for output in outputs:
        path = out_dir / output.relpath
        outputs_record[output.relpath] = {
            "hash": hashes[output.relpath],
            "size": path.stat().st_size,
        }
    editions = cache.setdefault("editions", {})
    by_folder = {m.parent.resolve(): m for m in manifests}
    for laid in laid_out:
        manifest = by_folder[laid.edition.folder.resolve()]
        digests = {
            p.resolve().relative_to(root).as_posix(): sha for p, sha in laid.edition.inputs.items()
        }
        entry = {
            "id": laid.edition.id,
            "inputs": sorted(digests),
            # From the content as it was read, so an edit made during the build is seen
            # as a change by the next one.
            "fingerprint": incremental.fingerprint_of(digests),
            "profiles": {},
        }
        for profile in profiles:
            mine = [
                o.relpath
                for o in outputs
                if o.entry["edition"] == laid.edition.id and o.entry["profile"] == profile.id
            ]
            entry["profiles"][profile.id] = {
                "profile": incremental.digest(profile.path),
                "outputs": [{"path": rel, **outputs_record[rel]} for rel in mine],
            }
        key = manifest.resolve().relative_to(root).as_posix()
        old = editions.get(key, {})
        if old.get("fingerprint") == entry["fingerprint"]:
            # Profiles not built this time are still as good as the inputs they came from.
            for profile_id, done in old.get("profiles", {}).items():
                entry["profiles"].setdefault(profile_id, done)
        editions[key] = entry
    cache["toolchain"] = incremental.toolchain()
    incremental.save(out_dir, cache)


__all__ = ["BuildReport", "Project", "build", "check"]
