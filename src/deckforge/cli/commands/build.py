"""``deckforge build``: build editions into print-ready files."""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import deckforge
from deckforge.cli import values
from deckforge.cli.progress import Progress
from deckforge.cli.show import plural, report

NAME = "build"
HELP = "build editions into print-ready files"


def _offset(text: str) -> tuple[float, float]:
    """'X,Y' in millimetres to points."""
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not X,Y in millimetres, like 0.5,-1.2"
        ) from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise argparse.ArgumentTypeError(f"'{text}': both X and Y must be numbers of millimetres")
    if max(abs(x), abs(y)) > 20:
        raise argparse.ArgumentTypeError("an offset over 20 mm is not a printer's misalignment")
    from deckforge.units import mm

    return (mm(x), mm(y))


def arguments(parser: argparse.ArgumentParser) -> None:
    """The command's own arguments."""
    parser.add_argument(
        "--edition", action="append", metavar="NAME", help="edition to build (repeat; default: all)"
    )
    parser.add_argument(
        "--profile", action="append", metavar="NAME", help="profile to build (repeat; default: all)"
    )
    parser.add_argument(
        "--out", type=Path, default=Path("build"), help="output folder (default: ./build)"
    )
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--quiet", action="store_true", help="print only problems")
    values.add_jobs(parser, "render with N processes (default: one per core)")
    parser.add_argument(
        "--back-offset",
        type=_offset,
        default=(0.0, 0.0),
        metavar="X,Y",
        help="shift every back by X,Y mm (right, up) to make up for a duplex printer's "
        "misalignment; print calibration/<profile>.pdf to measure it",
    )
    parser.add_argument("--output-profile", type=Path, metavar="ICC", help="the shop's CMYK .icc")
    parser.add_argument("--output-condition", default="Custom", metavar="ID", help="e.g. FOGRA51")
    parser.add_argument(
        "--force",
        action="store_true",
        help="rebuild everything, even outputs whose inputs have not changed",
    )


def up_to_date(args: argparse.Namespace) -> tuple[int, list] | None:
    """How many editions are all up to date, if every one is, and the warnings recorded
    of the colours they use that the press cannot print; checked without importing the
    rendering stages, so that a build with nothing to do returns at once."""
    changed = args.back_offset != (0.0, 0.0) or getattr(args, "output_profile", None)
    if args.force or args.strict or args.edition or changed:
        return None
    from deckforge.pipeline import cache

    manifests = sorted(args.decks.glob("*/edition.yaml"))
    folder = Path(deckforge.__file__).parent / "profiles"
    names = args.profile or _default_names(folder)
    files = [folder / f"{name}.yaml" for name in names]
    if not manifests or not all(path.is_file() for path in files):
        return None
    root = args.decks.resolve().parent
    keys = {path.stem: cache.profile_key(path) for path in files}
    fresh, warnings = cache.up_to_date(root, manifests, args.out, keys)
    return (len(manifests), warnings) if len(fresh) == len(manifests) else None


def _default_names(folder: Path) -> list[str]:
    from deckforge.profiles import default_names

    return default_names(folder)


def run(args: argparse.Namespace) -> int:
    """Build what changed, or say that nothing did."""
    started = time.perf_counter()
    fresh = up_to_date(args)
    if fresh is not None:
        editions, warnings = fresh
        report(warnings, args.decks.resolve().parent)
        if not args.quiet:
            where = (
                f"the edition in {args.out}/ is"
                if editions == 1
                else f"all {editions} editions in {args.out}/ are"
            )
            print(f"nothing to do: {where} up to date ({time.perf_counter() - started:.2f} s)")
        return 0
    from deckforge.pipeline.recipe import build
    from deckforge.profiles import OutputIntent
    from deckforge.sources.load import Project

    project = Project(args.decks)
    progress = Progress(args.out, args.quiet)
    try:
        done = build(
            project,
            args.out,
            args.edition,
            args.profile,
            args.strict,
            progress,
            jobs=args.jobs,
            force=args.force,
            back_offset=args.back_offset,
            output_intent=OutputIntent.option(args.output_profile, args.output_condition),
        )
    finally:
        progress.close()
    progress.published()
    report(done.warnings, project.root)
    if not args.quiet:
        pages = sum(e.pages for e in done.written)
        parts = [f"built {plural(len(done.written), 'file')} ({pages} pages)"]
        if done.unchanged:
            parts.append(f"{len(done.unchanged)} unchanged")
        if done.fresh_editions:
            parts.append(f"{plural(len(done.fresh_editions), 'edition')} already up to date")
        print(
            f"{', '.join(parts)} in {args.out}/ in {time.perf_counter() - started:.1f} s; "
            f"see {args.out}/manifest.json"
        )
    return 0
