"""The build, stage by stage: load → validate → model → lay out → impose → render → write.

Every edition is loaded, validated and modelled before anything is laid out, and every
file is laid out and rendered before any is moved into place; all problems are collected
and reported together.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from deckforge import fsutil
from deckforge import manifest as build_manifest
from deckforge.errors import WARNING, BuildFailed, Problem, SourceRef, display_path, errors_only
from deckforge.kinds.edition import build_edition, validate_edition
from deckforge.manifest import Entry
from deckforge.model import Edition
from deckforge.pipeline import cache, reach
from deckforge.pipeline import warm as first_time
from deckforge.pipeline.outputs import LaidOut, Output, lay_out, outputs_for
from deckforge.pipeline.plan import Task, plan
from deckforge.pipeline.record import CACHE_NAME
from deckforge.pipeline.run import Made, Progress, Workshop, make, run_tasks
from deckforge.profiles import OutputIntent, Profile, select_profiles
from deckforge.render.pdf import icon_cache
from deckforge.sources.load import LoadedEdition, Project, load_edition, select_editions
from deckforge.sources.schema import save_checks

#: Advice on an edition beyond its problems (lint), given its sources and model.
Advice = Callable[[LoadedEdition, Edition], list[Problem]]


def gather(
    project: Project, manifests: list[Path], advise: Advice | None = None
) -> tuple[list[Edition], list[Problem]]:
    """Load, validate and model every edition, collecting every problem (and, with
    ``advise``, every piece of advice)."""
    read: dict = {}
    editions: list[Edition] = []
    problems: list[Problem] = []
    for manifest in manifests:
        loaded, found = load_edition(manifest, project.root, read)
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
        if advise:
            problems.extend(advise(loaded, edition))
    save_checks()
    return editions, _unique(problems)


def _unique(problems: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


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
    """Everything short of writing, for editions and profiles named (all by default):
    what would be written, and every problem."""
    editions, problems = gather(project, select_editions(project, edition_names))
    profiles = select_profiles(profile_names)
    laid_out, outputs, found = lay_out_all(editions, profiles)
    if any(profile.cmyk for profile in profiles):
        found += _unflattened(laid_out)
    return laid_out, outputs, _unique(problems + found)


def _unflattened(laid_out: list[LaidOut]) -> list[Problem]:
    """What the CMYK profiles' files (PDF/X-1a, no transparency) could not hold of the
    cards, each side looked at once: found by a build only as it writes them."""
    from deckforge.render.pdf.flatten import refusal

    sides = {
        id(side): side
        for laid in laid_out
        for cards in laid.cards.values()
        for card in cards
        for side in (card.face, card.back)
    }
    found = (refusal(side) for side in sides.values())
    return [problem for problem in found if problem is not None]


@dataclass(eq=False)
class BuildReport:
    """What a build did."""

    written: list[Entry] = field(default_factory=list)
    unchanged: list[Entry] = field(default_factory=list)
    fresh_editions: list[str] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)


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
    only: Mapping[str, Mapping[str, Collection[str]]] | None = None,
    modelled: list[Edition] | None = None,
) -> BuildReport:
    """Build editions × profiles into ``out_dir``, redoing only what changed; with
    ``only`` (by edition id, by deck id, the ids of the cards to print: a reprint), just
    those cards, everything made again. ``modelled``, given with ``only``, are the
    editions as :func:`gather` found them without problems, not read again.

    Sources are loaded, validated and modelled first; any error there stops the build
    before the output folder is touched. Each file is then laid out and rendered as its
    own task, in parallel; a problem found while laying out (text that cannot fit) fails
    the build before any file is moved into place.
    """
    # A first build starts cutting the Latin faces while it reads the sources.
    with first_time.start(jobs) as started:
        profiles = [
            replace(p, back_offset=back_offset) if p.mode == "sheets" else p
            for p in select_profiles(profile_names)
        ]
        if output_intent is not None:
            # The shop's own press profile, for the files made for print shops.
            profiles = [replace(p, output_intent=output_intent) if p.pdfx else p for p in profiles]
        manifests = select_editions(project, edition_names)
        if not manifests:
            where = SourceRef(project.decks.as_posix())
            raise BuildFailed([Problem(where, "no editions to build")])
        fresh: set[Path] = set()
        unprintable: list[Problem] = []  # of the editions up to date, as recorded
        force = force or only is not None
        if not (force or strict):
            keys = {p.id: cache.profile_key(p.path, p.output_intent) for p in profiles}
            fresh, unprintable = cache.up_to_date(project.root, manifests, out_dir, keys)
        report = BuildReport(fresh_editions=[m.parent.name for m in manifests if m in fresh])
        todo = [m for m in manifests if m not in fresh]
        if not todo:
            report.warnings = unprintable
            return report
        if modelled is not None and only is not None:
            editions, problems = [e for e in modelled if e.id in only], list[Problem]()
        else:
            editions, problems = gather(project, todo)
        if errors_only(problems, strict):
            started.keep()  # laying out draws with the faces being cut: not cut twice
            # Lay out what is sound as well, so that every problem is reported at once.
            problems = _unique(problems + lay_out_all(editions, profiles)[2])
            raise BuildFailed(errors_only(problems, strict))
        if only is not None:
            editions = [_only(e, only[e.id]) for e in editions if e.id in only]
        editions = [cache.with_templates(edition) for edition in editions]

        # A build killed while publishing is finished first: it is the build this one follows.
        fsutil.finish_publishing(out_dir)
        record, notes = ({}, []) if force else cache.load(out_dir)
        tasks = plan(editions, profiles, record.get("outputs", {}))
        art = {path.as_posix(): sha for e in editions for path, sha in e.inputs.items()}
        shop = Workshop(editions, out_dir, cache.toolchain(), art, strict)
        accept = _acceptance(tasks, problems, strict, report)
        rebuilt = {(e.id, p.id) for e in editions for p in profiles}
        rebuilt |= {("calibration", p.id) for p in profiles}
        with _frozen(), fsutil.locked(out_dir) as staging:
            workers = min(jobs or os.cpu_count() or 1, len(tasks))
            first_time.warm(workers, editions, profiles, started)
            with icon_cache.shared(workers):
                made = run_tasks(tasks, staging, make, shop, progress, jobs, accept)
            done = [m for m in made if m.entry is not None]
            report.written = [m.entry for m in done if m.entry is not None and m.written]
            report.unchanged = [m.entry for m in done if m.entry is not None and not m.written]
            entries = report.written + report.unchanged
            listing = staging.path(build_manifest.MANIFEST_NAME)
            gone, kept = build_manifest.no_longer_made(out_dir, entries, rebuilt)
            report.warnings += [_kept_warning(out_dir, path) for path in kept]
            build_manifest.write(out_dir, entries, rebuilt, listing)
            colours = reach.by_edition(editions, profiles)
            cache.remember(
                record, staging.path(CACHE_NAME), project.root, editions, done, profiles, todo,
                colours,
            )  # fmt: skip
            # Every file at once, the manifest last (for readers that do not know the journal).
            written = [m.relpath for m in done if m.written]
            staging.publish([*written, CACHE_NAME, build_manifest.MANIFEST_NAME], gone)
        # Design colours the press cannot print: said, never failing a build (--strict too).
        found = [p for problems in colours.values() for p in problems]
        report.warnings = notes + report.warnings + list(dict.fromkeys(found + unprintable))
        return report


def _only(edition: Edition, cards: Mapping[str, Collection[str]]) -> Edition:
    """The edition with just the named cards of the named decks, and no components."""
    decks = tuple(
        replace(deck, cards=tuple(c for c in deck.cards if c.id in cards[deck.id]))
        for deck in edition.decks
        if deck.id in cards
    )
    return replace(edition, decks=tuple(d for d in decks if d.cards), components=())


def _kept_warning(out_dir: Path, path: str) -> Problem:
    """A file an earlier build made, which this one no longer makes, kept because it has
    changed since it was made."""
    message = (
        "the build no longer makes this file, but it has changed since a build made it, "
        "so it is kept; remove it if it is not wanted"
    )
    return Problem(SourceRef(display_path(out_dir / path)), message, WARNING)


def _acceptance(
    tasks: list[Task], problems: list[Problem], strict: bool, report: BuildReport
) -> Callable[[list[Made]], None]:
    """What decides, once every task has finished, whether the files may be moved into
    place: no errors among the problems found, which are reported in the order of the
    sources (tasks ran largest first). The warnings go into the report."""

    def accept(made: list[Made]) -> None:
        in_order = [m for _, m in sorted(zip(tasks, made, strict=True), key=lambda p: p[0].order)]
        found = _unique(problems + [p for m in in_order for p in m.problems])
        if errors_only(found, strict):
            raise BuildFailed(errors_only(found, strict))
        report.warnings = [p for p in found if p.severity == WARNING]

    return accept


@contextlib.contextmanager
def _frozen() -> Iterator[None]:
    """What was loaded lives until the end: the collector need not rescan it while
    rendering, and forked workers then share its memory pages unwritten."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
