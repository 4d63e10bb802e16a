"""What the ``export`` and ``preview`` commands do: images of a build, and a preview
kept current.

The command line's own module: it joins the build (whether the sources changed since it,
building again) and the raster outputs, which know nothing of sources.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import deckforge
from deckforge.errors import BuildFailed, Problem, UsageError


def _printer_decks(out: Path, editions: list[str] | None) -> list[dict]:
    if not (out / "manifest.json").is_file():
        raise UsageError(f"no {out / 'manifest.json'}: run 'deckforge build' first")
    from deckforge.render.raster import manifest_entries

    chosen = [
        e
        for e in manifest_entries(out)
        if e.get("profile") == "printer"
        and e.get("kind") == "cards"
        and (not editions or e.get("edition") in editions)
    ]
    if not chosen:
        raise UsageError(
            "no printer-profile card decks in the build: build with the 'printer' profile first"
        )
    return chosen


def _built_profiles(out: Path) -> list[str]:
    """The profiles of the build in ``out`` that deckforge still has."""
    from deckforge.render.raster import manifest_entries

    folder = Path(deckforge.__file__).parent / "profiles"
    built = {str(e.get("profile")) for e in manifest_entries(out)}
    return sorted(name for name in built if (folder / f"{name}.yaml").is_file())


def _sources_changed(args: argparse.Namespace, drawn: str | None = None) -> bool:
    """Whether the sources of the editions a command draws (``args.edition``; all when
    none is named) changed since the build in ``args.out``: since its files of the
    profile ``drawn``, or of every profile it has."""
    from deckforge.pipeline import cache
    from deckforge.sources.load import Project, select_editions

    project = Project(args.decks)
    manifests = select_editions(project, getattr(args, "edition", None))
    folder = Path(deckforge.__file__).parent / "profiles"
    built = [drawn] if drawn else _built_profiles(args.out)
    profiles = {name: cache.profile_key(folder / f"{name}.yaml") for name in built}
    if not manifests:
        return False
    fresh, _ = cache.up_to_date(project.root, manifests, args.out, profiles)
    return len(fresh) != len(manifests)


def _images_progress(what: str):
    """A bar on a terminal while images are made, nothing otherwise."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        filled = 30 * done // max(total, 1)
        sys.stderr.write(f"\r{what} [{'#' * filled}{' ' * (30 - filled)}] {done}/{total} ")
        sys.stderr.write("\n" if done == total else "")
        sys.stderr.flush()

    return show


def soft_proof(args: argparse.Namespace) -> tuple:
    """What soft proofs are printed with: the shop's profile ``--output-profile`` names,
    else the printer-cmyk profile's output intent, at printer-cmyk's ink limit."""
    from deckforge.profiles import OutputIntent, all_profiles

    profile = all_profiles()["printer-cmyk"]
    icc = getattr(args, "output_profile", None)
    condition = getattr(args, "output_condition", "Custom")
    intent = OutputIntent.option(icc, condition) or profile.output_intent
    return (intent, profile.ink_limit)


def export(args: argparse.Namespace) -> int:
    """``deckforge export png|tts``: images of the printer-profile card decks."""
    from urllib.parse import quote

    from deckforge.render import raster

    started = time.perf_counter()
    plans = []
    if getattr(args, "output_profile", None) and not getattr(args, "proof", False):
        raise UsageError("--output-profile: only soft proofs are printed through it: add --proof")
    proof = soft_proof(args) if getattr(args, "proof", False) else None
    if proof and args.format != "png":
        raise UsageError("--proof: soft proofs are PNG files: use 'deckforge export png --proof'")
    for entry in _printer_decks(args.out, args.edition):
        deck = raster.read_deck(args.out / entry["path"], entry)
        edition, name = entry["edition"], entry["deck"]
        folder = args.out / edition / args.format / name
        if args.format == "png":
            folder = args.out / edition / "png-proof" / name if proof else folder
            plans.append(raster.png_plan(deck, folder, proof=proof))
            continue
        title = f"{name.replace('-', ' ').capitalize()} ({edition})"
        folder_url = f"{quote(edition, safe='')}/tts/{quote(name, safe='')}/"
        url = args.base_url and f"{args.base_url.rstrip('/')}/{folder_url}"
        plans.append(raster.tts_plan(deck, folder, f"{edition}-{name}", title, base_url=url))
    done = raster.carry_out(plans, args.jobs, _images_progress("drawing"))
    for plan in plans:
        print(f"  {plan.folder}/")
    print(
        f"exported {done.written + done.unchanged} files ({done.written} made, "
        f"{done.unchanged} unchanged) in {time.perf_counter() - started:.1f} s"
    )
    if _sources_changed(args, "printer"):  # exports draw the printer files alone
        print("note: the sources have changed since this build; build and export again")
    return 0


def showcase(args: argparse.Namespace) -> int:
    """``deckforge export showcase``: a fanned hand and a row of each deck's cards, as
    ``<edition>/showcase/<deck>-hand.png`` and ``<deck>-row.png``."""
    from deckforge.render import raster
    from deckforge.render.raster import showcase as pictures
    from deckforge.text.script import is_rtl_locale

    started = time.perf_counter()
    entries = _printer_decks(args.out, args.edition)
    if args.deck:
        known = {e["deck"] for e in entries}
        unknown = [name for name in args.deck if name not in known]
        if unknown:
            raise UsageError(
                f"no printer-profile deck '{unknown[0]}' in the build (it has: "
                f"{', '.join(sorted(known))})"
            )
        entries = [e for e in entries if e["deck"] in args.deck]
    written = []
    for entry in entries:
        deck = raster.read_deck(args.out / entry["path"], entry)
        if args.cards:
            cards = [number - 1 for number in args.cards]
        else:
            cards = list(range(min(5, deck.cards)))
        folder = args.out / entry["edition"] / "showcase"
        for shape, draw in (("hand", pictures.hand), ("row", pictures.row)):
            rtl = is_rtl_locale(str(entry.get("locale")))
            picture = draw(deck, cards, args.width, args.background, rtl)
            written.append(pictures.write_png(picture, folder / f"{entry['deck']}-{shape}.png"))
    for path in written:
        print(f"  {path}")
    print(f"made {len(written)} showcase pictures in {time.perf_counter() - started:.1f} s")
    if _sources_changed(args, "printer"):  # exports draw the printer files alone
        print("note: the sources have changed since this build; build and export again")
    return 0


def _recorded_warnings(out: Path) -> dict[str, list[str]]:
    """The warnings the builds in ``out`` found, by output path, as they were printed."""
    from deckforge.errors import WARNING, SourceRef
    from deckforge.pipeline import cache

    found: dict[str, list[str]] = {}
    # The record is checked as it is read: every warning it keeps has these keys.
    for path, record in cache.load(out)[0].get("outputs", {}).items():
        for item in record.get("warnings", []):
            ref = SourceRef(item["file"], item["line"], item["column"], item["path"])
            found.setdefault(path, []).append(Problem(ref, item["message"], WARNING).format())
    return found


def preview(args: argparse.Namespace) -> int:
    """``deckforge preview``: the preview site, of a build made current first."""
    from deckforge.render import raster

    started = time.perf_counter()
    if not (args.out / "manifest.json").is_file():
        raise UsageError(f"no {args.out / 'manifest.json'}: run 'deckforge build' first")
    stale = None
    if _sources_changed(args):
        stale = "the sources have changed since this build: run 'deckforge build'."
        if not args.no_build:
            from deckforge.pipeline.recipe import build
            from deckforge.sources.load import Project

            print("the sources have changed since the last build: building first")
            project = Project(args.decks)
            try:
                build(project, args.out, None, _built_profiles(args.out), jobs=args.jobs)
                stale = None
            except BuildFailed as exc:
                from deckforge.cli.show import show

                for problem in exc.problems:
                    print(show(problem, project.root), file=sys.stderr)
                count = len(exc.problems)
                stale = (
                    f"the sources have changed since this build and do not build "
                    f"({count} problem{'s' if count != 1 else ''}: see 'deckforge validate'); "
                    "this preview shows the last build."
                )
    site = args.site or args.out / "preview"
    warnings = _recorded_warnings(args.out)
    index = raster.preview_site(args.out, site, warnings, stale, args.jobs, soft_proof(args))
    if stale:
        print(f"note: {stale}", file=sys.stderr)
    print(f"wrote {index} in {time.perf_counter() - started:.1f} s: open it in a browser")
    return 0
