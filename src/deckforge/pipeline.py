"""The build, stage by stage: load → validate → model → layout → impose → render → write.

Every edition is loaded, validated and laid out before any file is written;
all problems are collected and reported together.
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
from dataclasses import dataclass, field, replace
from pathlib import Path

from deckforge import fsutil, incremental
from deckforge import manifest as build_manifest
from deckforge.errors import WARNING, BuildFailed, Problem, SourceRef, UsageError, errors_only
from deckforge.kinds.edition import build_edition, validate_edition
from deckforge.layout.cards import lay_out_deck, template_files
from deckforge.layout.components import lay_out_component
from deckforge.layout.impose import ImpositionError, impose
from deckforge.layout.listing import card_listing
from deckforge.layout.ops import Card, Document
from deckforge.manifest import Entry
from deckforge.model import Edition
from deckforge.profiles import OutputIntent, Profile, all_profiles
from deckforge.render import pdf
from deckforge.sources.load import Project, load_edition, select_editions
from deckforge.text import fonts
from deckforge.units import to_mm
from deckforge.write import Output, Progress, write_all


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
    entry = Entry(
        edition=edition.id,
        locale=edition.locale,
        profile=profile.id,
        path=relpath,
        kind=kind,
        deck=part.id,
        cards=cards,
        pages=len(pages),
        trim_mm=(round(trim[0], 2), round(trim[1], 2)),
        bleed_mm=round(to_mm(bleed), 3),
    )
    document = Document(
        tuple(pages),
        f"{edition.title} – {part.id}",
        colour=profile.colour,
        ink_limit=profile.ink_limit,
        pdfx=profile.pdfx,
        output_intent=profile.output_intent,
    )
    return Output(relpath, document, entry)


def made_from(edition: Edition, profile: Profile, part) -> tuple:
    """What the file of one deck or component is a function of (with deckforge's code,
    the tools and the art it draws): the edition's settings, the part's model and the
    profile."""
    settings = (edition.id, edition.title, edition.locale, edition.palette, edition.players)
    return (settings, part, profile)


def part_output(
    edition: Edition, profile: Profile, part, cards: list[Card] | None
) -> tuple[Output | None, list[Problem]]:
    """The file one deck (given its laid-out ``cards``) or one component (``cards`` None)
    makes under one profile, if it makes one."""
    if cards is not None:
        try:
            pages = impose(cards, profile)
        except ImpositionError as exc:
            return None, [Problem(part.ref, str(exc))]
        bleed = profile.bleed if profile.mode == "single" else 0.0
        output = _output(edition, profile, part, pages, "cards", len(cards), part.size_mm, bleed)
        from deckforge.templates import dependencies

        # What the cards are drawn with: the tools, and the edition's own templates.
        drawn_with = incremental.toolchain() + "".join(
            f";{path}={fsutil.digest(path)}" for path in dependencies(edition.folder)
        )
        listing = card_listing(edition, profile, part, cards, drawn_with)
        entry = replace(
            output.entry,
            card_names=tuple(listing["card_names"]),
            card_sides=listing.get("card_sides"),
        )
        output = replace(output, entry=entry)
        return output, []
    kind, pages, found = lay_out_component(edition, part, profile)
    if not pages:
        return None, found
    first = pages[0]
    box = first.trim_box or (0, 0, first.width, first.height)
    trim = (to_mm(box[2] - box[0]), to_mm(box[3] - box[1]))
    return _output(edition, profile, part, pages, kind, 0, trim, profile.document_bleed), found


def outputs_for(laid: LaidOut, profile: Profile) -> tuple[list[Output], list[Problem]]:
    """The files one edition makes under one profile."""
    edition = laid.edition
    outputs: list[Output] = []
    problems: list[Problem] = []
    for deck in edition.decks:
        output, found = part_output(edition, profile, deck, laid.cards[deck.id])
        problems.extend(found)
        outputs.extend([output] if output else [])
    for component in edition.components:
        output, found = part_output(edition, profile, component, None)
        problems.extend(found)
        outputs.extend([output] if output else [])
    return outputs, problems


def calibration_output(profile: Profile) -> Output:
    """The duplex calibration sheet of a profile that prints backs on their own sheet."""
    from deckforge.layout.calibration import calibration_pages

    pages = calibration_pages(profile)
    relpath = f"calibration/{profile.id}.pdf"
    entry = Entry(
        edition="calibration",
        locale="en",
        profile=profile.id,
        path=relpath,
        kind="calibration",
        deck="calibration",
        cards=0,
        pages=len(pages),
        trim_mm=(round(to_mm(pages[0].width), 2), round(to_mm(pages[0].height), 2)),
        bleed_mm=0.0,
    )
    document = Document(tuple(pages), f"Duplex calibration – {profile.id}")
    return Output(relpath, document, entry)


def check_manifests(
    project: Project, manifests: list[Path], profiles: list[Profile]
) -> tuple[list[LaidOut], list[Output], list[Problem]]:
    """Load, validate, model, lay out and impose the given editions under the given
    profiles: what would be written, and every problem."""
    editions, problems = gather(project, manifests)
    laid_out, outputs, found = lay_out_all(editions, profiles)
    return laid_out, outputs, _unique(problems + found)


def lay_out_all(
    editions: list[Edition], profiles: list[Profile]
) -> tuple[list[LaidOut], list[Output], list[Problem]]:
    """Lay out and impose editions under profiles, in this process."""
    problems: list[Problem] = []
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

    written: list[Entry] = field(default_factory=list)
    unchanged: list[Entry] = field(default_factory=list)
    fresh_editions: list[str] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)


def _digest(source: tuple, art: list[Path], known: dict[str, str], tools: str) -> str:
    """What a file's bytes depend on: the model and profile it is laid out from (the
    layout is a function of them and of deckforge's code, which ``tools`` covers), the
    art it draws, and the versions of the tools. Known before laying anything out."""
    total = hashlib.sha256(tools.encode())
    # Pickling is deterministic for these plain frozen dataclasses, and quick.
    total.update(pickle.dumps(source, protocol=5))
    for path in sorted({p.as_posix() for p in art}):
        found = known.get(path) or fsutil.digest(Path(path))
        total.update(path.encode() + found.encode())
    return total.hexdigest()


def _art_of(part, edition: Edition) -> list[Path]:
    """The art files a deck's cards draw (components draw none), and the edition's own
    templates they are drawn from."""
    if not any(part is deck for deck in edition.decks):
        return []
    art = [card.art.path for card in part.cards if getattr(card, "art", None) is not None]
    return art + template_files(edition, part)


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
    output_intent: OutputIntent | None = None,
) -> BuildReport:
    """Build editions × profiles into ``out_dir``, redoing only what changed.

    Sources are loaded, validated and modelled first; any error there stops the build
    before the output folder is touched. Each file is then laid out and rendered as its
    own task, in parallel; a problem found while laying out (text that cannot fit) fails
    the build before any file is moved into place.
    """
    profiles = [
        replace(p, back_offset=back_offset) if p.mode == "sheets" else p
        for p in select_profiles(profile_names)
    ]
    if output_intent is not None:
        # The shop's own press profile, for the files made for print shops.
        profiles = [replace(p, output_intent=output_intent) if p.pdfx else p for p in profiles]
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
    editions, problems = gather(project, todo)
    if errors_only(problems, strict):
        # Lay out what is sound as well, so that every problem is reported at once.
        problems = _unique(problems + lay_out_all(editions, profiles)[2])
        raise BuildFailed(errors_only(problems, strict))

    cache = {} if force else incremental.load(out_dir)
    known = cache.get("outputs", {})
    tasks = _plan(editions, profiles, known)
    global _SHOP
    _SHOP = _Shop(
        editions,
        out_dir,
        incremental.toolchain(),
        {path.as_posix(): sha for e in editions for path, sha in e.inputs.items()},
        strict,
    )

    def accept(made: list[_Made]) -> None:
        # Problems in the order of the sources (tasks ran largest first).
        in_order = [m for _, m in sorted(zip(tasks, made, strict=True), key=lambda p: p[0].order)]
        found = _unique(problems + [p for m in in_order for p in m.problems])
        if errors_only(found, strict):
            raise BuildFailed(errors_only(found, strict))
        report.warnings = [p for p in found if p.severity == WARNING]

    rebuilt = {(e.id, p.id) for e in editions for p in profiles}
    rebuilt |= {("calibration", p.id) for p in profiles}
    # What was loaded lives until the end: the collector need not rescan it while
    # rendering, and forked workers then share its memory pages unwritten.
    gc.freeze()
    try:
        with fsutil.locked(out_dir):
            fonts.prepare(min(jobs or os.cpu_count() or 1, len(tasks)))
            pdf.load_icon_cache()
            made = write_all(tasks, out_dir, _make, progress, jobs, accept)
            done = [m for m in made if m.entry is not None]
            report.written = [m.entry for m in done if m.written]
            report.unchanged = [m.entry for m in done if not m.written]
            build_manifest.write(out_dir, report.written + report.unchanged, rebuilt)
            _remember(cache, out_dir, root, editions, done, profiles, todo)
    finally:
        gc.unfreeze()
        _SHOP = None
    return report


@dataclass(frozen=True)
class _Task:
    """One file a build may make: a deck or component of an edition under a profile, or
    a profile's calibration sheet (``edition`` None)."""

    relpath: str
    edition: int | None  # index into the build's editions
    profile: Profile
    part: str
    #: About how many pages it has: the largest are started first.
    size: int
    #: What the previous build recorded for this file, if it made it.
    record: dict | None
    #: Its place in the order of editions, profiles and parts.
    order: int = 0


@dataclass(frozen=True)
class _Made:
    """What a task did: the file's manifest entry (None if the part prints nothing),
    whether it was written (or found unchanged), and the problems found."""

    relpath: str
    entry: Entry | None
    hash: str
    written: bool
    problems: tuple[Problem, ...]


@dataclass
class _Shop:
    """What every task of a build reads. Set before the workers are forked, so they
    share it instead of receiving it with every task."""

    editions: list[Edition]
    out_dir: Path
    tools: str
    art: dict[str, str]
    strict: bool
    #: Each deck's cards as this process laid them out, by (edition, deck).
    cards: dict[tuple[int, str], tuple[list[Card], list[Problem]]] = field(default_factory=dict)


_SHOP: _Shop | None = None


def _plan(editions: list[Edition], profiles: list[Profile], known: dict) -> list[_Task]:
    """Every file to make, largest first."""
    tasks = []
    for index, edition in enumerate(editions):
        for profile in profiles:
            per_card = 2 if profile.mode == "single" else 0.25
            sizes = [(deck.id, int(len(deck.cards) * per_card)) for deck in edition.decks]
            sizes += [(component.id, 20) for component in edition.components]
            for part, size in sizes:
                relpath = f"{edition.id}/{profile.id}/{part}.pdf"
                tasks.append(_Task(relpath, index, profile, part, size, known.get(relpath)))
    for profile in profiles:
        if profile.mode == "sheets":
            relpath = f"calibration/{profile.id}.pdf"
            tasks.append(_Task(relpath, None, profile, "calibration", 2, known.get(relpath)))
    tasks = [replace(task, order=order) for order, task in enumerate(tasks)]
    return sorted(tasks, key=lambda t: -t.size)


def _make(task: _Task, temp: Path) -> _Made:
    """Lay out and render one file; unless the previous build made it from the same
    model, profile, art and tools, in which case it is left as it is, not even laid out
    (and the warnings that build found are given again)."""
    shop = _SHOP
    assert shop is not None, "a task runs only within build()"
    if task.edition is None:
        edition, part = None, None
        digest = _digest(("calibration", task.profile), [], shop.art, shop.tools)
    else:
        edition = shop.editions[task.edition]
        part = next(p for p in (*edition.decks, *edition.components) if p.id == task.part)
        source = made_from(edition, task.profile, part)
        digest = _digest(source, _art_of(part, edition), shop.art, shop.tools)
    record, target = task.record, shop.out_dir / task.relpath
    known = _recorded_entry(record)
    if (
        not shop.strict
        and record is not None
        and record.get("hash") == digest
        and known is not None
        and target.is_file()
        and target.stat().st_size == record.get("size")
    ):
        return _Made(task.relpath, known, digest, False, _warnings_in(record))
    problems: list[Problem] = []
    if edition is None:
        output: Output | None = calibration_output(task.profile)
    elif any(part is deck for deck in edition.decks):
        key = (task.edition, task.part)
        if key not in shop.cards:
            shop.cards[key] = lay_out_deck(edition, part)
        cards, problems = shop.cards[key]
        output, found = part_output(edition, task.profile, part, cards)
        problems = problems + found
    else:
        output, problems = part_output(edition, task.profile, part, None)
    if output is None:
        return _Made(task.relpath, None, digest, False, tuple(problems))
    if errors_only(problems, shop.strict):
        return _Made(task.relpath, output.entry, digest, False, tuple(problems))
    pdf.render(output.document, temp)
    return _Made(task.relpath, output.entry, digest, True, tuple(problems))


def _recorded_entry(record: dict | None) -> Entry | None:
    """The manifest entry a build recorded for a file it made, if it can be read."""
    try:
        return Entry.from_json((record or {}).get("entry"))
    except ValueError:
        return None


def _warnings_in(record: dict) -> tuple[Problem, ...]:
    """The warnings a build recorded for a file it made."""
    found = []
    for item in record.get("warnings", []):
        try:
            ref = SourceRef(item["file"], item["line"], item["column"], item["path"])
            found.append(Problem(ref, item["message"], WARNING))
        except (KeyError, TypeError):
            continue  # a record from another version: its warnings are not known
    return tuple(found)


def _warning_records(problems: tuple[Problem, ...]) -> list[dict]:
    return [
        {
            "file": p.ref.file,
            "line": p.ref.line,
            "column": p.ref.column,
            "path": p.ref.path,
            "message": p.message,
        }
        for p in problems
        if p.severity == WARNING
    ]


def _remember(
    cache: dict,
    out_dir: Path,
    root: Path,
    editions: list[Edition],
    made: list[_Made],
    profiles: list[Profile],
    manifests: list[Path],
) -> None:
    """Record what each edition read and what each output was made from."""
    outputs_record = cache.setdefault("outputs", {})
    for output in made:
        path = out_dir / output.relpath
        outputs_record[output.relpath] = {
            "hash": output.hash,
            "size": path.stat().st_size,
            # What the manifest says of the file, and the warnings found making it: a
            # build that finds it unchanged gives both without laying it out.
            "entry": output.entry.to_json(),
            "warnings": _warning_records(output.problems),
        }
    records = cache.setdefault("editions", {})
    by_folder = {m.parent.resolve(): m for m in manifests}
    for edition in editions:
        manifest = by_folder[edition.folder.resolve()]
        digests = {
            path.resolve().relative_to(root).as_posix(): sha for path, sha in edition.inputs.items()
        }
        entry = {
            "id": edition.id,
            "inputs": sorted(digests),
            # From the content as it was read, so an edit made during the build is seen
            # as a change by the next one.
            "fingerprint": incremental.fingerprint_of(digests),
            "profiles": {},
        }
        for profile in profiles:
            mine = [
                o.relpath
                for o in made
                if o.entry.edition == edition.id and o.entry.profile == profile.id
            ]
            entry["profiles"][profile.id] = {
                "profile": fsutil.digest(profile.path),
                "outputs": [{"path": rel, **outputs_record[rel]} for rel in mine],
            }
        key = manifest.resolve().relative_to(root).as_posix()
        old = records.get(key, {})
        if old.get("fingerprint") == entry["fingerprint"]:
            # Profiles not built this time are still as good as the inputs they came from.
            for profile_id, done in old.get("profiles", {}).items():
                entry["profiles"].setdefault(profile_id, done)
        records[key] = entry
    cache["toolchain"] = incremental.toolchain()
    incremental.save(out_dir, cache)


__all__ = ["BuildReport", "Project", "build", "check"]
