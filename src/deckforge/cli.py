"""Command line: ``deckforge validate``, ``deckforge build``, ``deckforge list``."""

from __future__ import annotations

import argparse
import gc
import itertools
import sys
import time
import traceback
from pathlib import Path

from deckforge import __version__
from deckforge.errors import BuildFailed, DeckforgeError, Problem, UsageError, errors_only


def _offset(text: str) -> tuple[float, float]:
    """'X,Y' in millimetres to points."""
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not X,Y in millimetres, like 0.5,-1.2"
        ) from None
    if max(abs(x), abs(y)) > 20:
        raise argparse.ArgumentTypeError("an offset over 20 mm is not a printer's misalignment")
    from deckforge.units import mm

    return (mm(x), mm(y))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="deckforge",
        description="Turn card-game content written in YAML into print-ready PDFs.",
    )
    parser.add_argument("--version", action="version", version=f"deckforge {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    parser.add_argument(
        "--decks", type=Path, default=Path("decks"), help="folder of editions (default: ./decks)"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    v = sub.add_parser("validate", help="check sources and report every problem")
    v.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="edition folders, edition.yaml files or edition ids (default: all)",
    )
    v.add_argument("--strict", action="store_true", help="treat warnings as errors")

    b = sub.add_parser("build", help="build editions into print-ready files")
    b.add_argument(
        "--edition", action="append", metavar="NAME", help="edition to build (repeat; default: all)"
    )
    b.add_argument(
        "--profile", action="append", metavar="NAME", help="profile to build (repeat; default: all)"
    )
    b.add_argument(
        "--out", type=Path, default=Path("build"), help="output folder (default: ./build)"
    )
    b.add_argument("--strict", action="store_true", help="treat warnings as errors")
    b.add_argument("--quiet", action="store_true", help="print only problems")
    b.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="render with N processes (default: one per core)",
    )
    b.add_argument(
        "--back-offset",
        type=_offset,
        default=(0.0, 0.0),
        metavar="X,Y",
        help="shift every back by X,Y mm (right, up) to make up for a duplex printer's "
        "misalignment; print calibration/<profile>.pdf to measure it",
    )
    b.add_argument("--output-profile", type=Path, metavar="ICC", help="the shop's CMYK .icc")
    b.add_argument("--output-condition", default="Custom", metavar="ID", help="e.g. FOGRA51")
    b.add_argument(
        "--force",
        action="store_true",
        help="rebuild everything, even outputs whose inputs have not changed",
    )

    sub.add_parser("list", help="list editions, their decks, and the print profiles")

    ex = sub.add_parser("export", help="PNG files per card side, or Tabletop Simulator decks")
    ex.add_argument(
        "format",
        choices=("png", "tts"),
        help="png: one 300-dpi PNG per card side at trim + bleed; tts: Tabletop Simulator "
        "card sheets, backs and a saved object per deck",
    )
    ex.add_argument("--edition", action="append", metavar="NAME", help="edition (default: all)")
    ex.add_argument("--out", type=Path, default=Path("build"), help="the build folder")
    ex.add_argument(
        "--jobs", type=int, default=None, metavar="N", help="N processes (default: one per core)"
    )
    ex.add_argument(
        "--base-url",
        default=None,
        metavar="URL",
        help="tts: the address the build folder will be served from, for the saved objects' "
        "image links (default: file:/// links to this computer)",
    )

    pv = sub.add_parser("preview", help="a small website showing every deck's cards")
    pv.add_argument("--out", type=Path, default=Path("build"), help="the build folder")
    pv.add_argument("--site", type=Path, default=None, help="where to write (default: OUT/preview)")
    pv.add_argument(
        "--jobs", type=int, default=None, metavar="N", help="N processes (default: one per core)"
    )
    pv.add_argument(
        "--no-build",
        action="store_true",
        help="do not rebuild first when the sources have changed (the preview says it is stale)",
    )

    pf = sub.add_parser("preflight", help="check built files as a print shop would")
    pf.add_argument("--out", type=Path, default=Path("build"), help="the build folder")
    pf.add_argument(
        "--ink-limit",
        type=float,
        default=None,
        metavar="PERCENT",
        help="most total ink allowed (default: each file's profile's, 240 for the shipped ones)",
    )

    lt = sub.add_parser("lint", help="advice on names, hints and translations")
    lt.add_argument("paths", nargs="*", metavar="EDITION", help="editions (default: all)")
    lt.add_argument("--strict", action="store_true", help="fail on any advice")

    w = sub.add_parser("watch", help="rebuild whenever a source changes")
    w.add_argument("--edition", action="append", metavar="NAME", help="edition to build")
    w.add_argument("--profile", action="append", metavar="NAME", help="profile to build")
    w.add_argument("--out", type=Path, default=Path("build"), help="output folder")

    n = sub.add_parser("new", help="start a custom edition or a place deck")
    what = n.add_subparsers(dest="what", required=True, metavar="WHAT")
    ne = what.add_parser("edition", help="a new edition in decks/NAME reusing another's decks")
    ne.add_argument("name", metavar="NAME")
    ne.add_argument(
        "--from",
        dest="base",
        default="guess-the-mess-en",
        metavar="EDITION",
        help="the edition to start from (default: guess-the-mess-en)",
    )
    np_ = what.add_parser("place-deck", help="a commented place deck to fill in")
    np_.add_argument("path", type=Path, metavar="PATH")
    return parser


def show(problem: Problem, root: Path) -> str:
    """A problem as printed: its line, then the source line with a caret under the spot."""
    text = problem.format()
    ref = problem.ref
    if not ref.line or ref.cell:  # a spreadsheet's cell has no line of text to show
        return text
    path = Path(ref.file)
    if not path.is_absolute():
        path = root / path
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            line = next(itertools.islice(handle, ref.line - 1, None), None)
    except OSError:
        return text
    if line is None:
        return text
    line = line.rstrip("\n").replace("\t", " ")
    if len(line) > 160 or "\x00" in line:
        return text
    gutter = f"{ref.line:>5} | "
    caret = " " * (len(gutter) - 2) + "| " + " " * max(ref.column - 1, 0) + "^"
    return f"{text}\n{gutter}{line}\n{caret}"


def _report(problems, root: Path) -> None:
    for problem in problems:
        print(show(problem, root), file=sys.stderr)


def _validate(args: argparse.Namespace) -> int:
    from deckforge.build.pipeline import check
    from deckforge.sources.load import Project

    project = Project(args.decks)
    laid_out, _, problems = check(project, args.paths or None)
    _report(problems, project.root)
    if errors_only(problems, args.strict):
        count = len(errors_only(problems, args.strict))
        print(f"{count} problem{'s' if count != 1 else ''} found", file=sys.stderr)
        return 1
    cards = sum(len(c) for laid in laid_out for c in laid.cards.values())
    print(f"ok: {len(laid_out)} edition(s), {cards} cards")
    return 0


def _up_to_date(args: argparse.Namespace) -> int | None:
    """How many editions are all up to date, if every one is; checked without importing
    the rendering stages, so that a build with nothing to do returns at once."""
    changed = args.back_offset != (0.0, 0.0) or getattr(args, "output_profile", None)
    if args.force or args.strict or args.edition or changed:
        return None
    from deckforge.build import cache

    manifests = sorted(args.decks.glob("*/edition.yaml"))
    folder = Path(__file__).parent / "profiles"
    names = args.profile or [path.stem for path in sorted(folder.glob("*.yaml"))]
    profiles = {name: folder / f"{name}.yaml" for name in names}
    if not manifests or not all(path.is_file() for path in profiles.values()):
        return None
    fresh = cache.fresh_editions(args.decks.resolve().parent, manifests, args.out, profiles)
    return len(manifests) if len(fresh) == len(manifests) else None


class _Progress:
    """A bar on a terminal, a line per file otherwise."""

    def __init__(self, out: Path, quiet: bool):
        self.out, self.quiet, self.done = out, quiet, 0
        self.total = 0
        self.bar = sys.stderr.isatty() and not quiet

    def start(self, total: int) -> None:
        self.total = total

    def advance(self, path: str, written: bool) -> None:
        self.done += 1
        if self.quiet:
            return
        if self.bar:
            width = 30
            filled = width * self.done // max(self.total, 1)
            sys.stderr.write(
                f"\r[{'#' * filled}{' ' * (width - filled)}] "
                f"{self.done}/{self.total} {path[-40:]:<40}"
            )
            sys.stderr.flush()
        elif written:
            print(f"  rendered {self.out / path}")

    def close(self) -> None:
        if self.bar and self.done:
            sys.stderr.write("\n")


def _build(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    editions = _up_to_date(args)
    if editions is not None:
        if not args.quiet:
            where = (
                f"the edition in {args.out}/ is"
                if editions == 1
                else f"all {editions} editions in {args.out}/ are"
            )
            print(f"nothing to do: {where} up to date ({time.perf_counter() - started:.2f} s)")
        return 0
    from deckforge.build.pipeline import build
    from deckforge.profiles import OutputIntent
    from deckforge.sources.load import Project

    project = Project(args.decks)
    progress = _Progress(args.out, args.quiet)
    try:
        report = build(
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
    _report(report.warnings, project.root)
    if not args.quiet:
        pages = sum(e.pages for e in report.written)
        count = len(report.written)
        parts = [f"built {count} file{'s' if count != 1 else ''} ({pages} pages)"]
        if report.unchanged:
            parts.append(f"{len(report.unchanged)} unchanged")
        if report.fresh_editions:
            fresh = len(report.fresh_editions)
            parts.append(f"{fresh} edition{'s' if fresh != 1 else ''} already up to date")
        print(
            f"{', '.join(parts)} in {args.out}/ in {time.perf_counter() - started:.1f} s; "
            f"see {args.out}/manifest.json"
        )
    return 0


def _list(args: argparse.Namespace) -> int:
    from deckforge.build.pipeline import check
    from deckforge.profiles import all_profiles
    from deckforge.sources.load import Project

    project = Project(args.decks)
    laid_out, _, problems = check(project, None)
    print("editions:")
    for laid in laid_out:
        e = laid.edition
        print(f"  {e.id} ({e.locale}) {e.title}")
        for deck in e.decks:
            print(
                f"    {deck.id}: {len(deck.cards)} cards, {deck.size_name} "
                f"{deck.size_mm[0]:g} × {deck.size_mm[1]:g} mm"
            )
        for component in e.components:
            print(f"    {component.id}")
    if errors_only(problems):
        print(f"  ({len(errors_only(problems))} problems; run 'deckforge validate')")
    print("profiles:")
    for profile in all_profiles().values():
        print(f"  {profile.id}: {profile.description}")
    return 0


def _new(args: argparse.Namespace) -> int:
    from deckforge.authoring import scaffold
    from deckforge.sources.load import Project

    project = Project(args.decks)
    if args.what == "edition":
        folder = scaffold.new_edition(project, args.name, args.base)
        print(f"created {folder}/edition.yaml and {folder}/places.yaml")
        print(f"edit {folder}/places.yaml, then: deckforge build --edition {args.name}")
    else:
        path = scaffold.new_place_deck(project, args.path)
        print(f"created {path}; name it in an edition's decks to print it")
    return 0


def _export(args: argparse.Namespace) -> int:
    from deckforge.cli_images import export

    return export(args)


def _preview(args: argparse.Namespace) -> int:
    from deckforge.cli_images import preview

    return preview(args)


def _preflight(args: argparse.Namespace) -> int:
    from deckforge.preflight import format_table, preflight

    reports = preflight(args.out, args.ink_limit)
    print(format_table(reports))
    return 1 if any(report.failed for report in reports) else 0


def _lint(args: argparse.Namespace) -> int:
    from deckforge.authoring.lint import lint_edition
    from deckforge.build.pipeline import gather
    from deckforge.sources.load import Project, select_editions

    project = Project(args.decks)
    _, problems = gather(project, select_editions(project, args.paths or None), lint_edition)
    _report(problems, project.root)
    errors = errors_only(problems)
    advice = len(problems) - len(errors)
    print(f"{advice} piece(s) of advice, {len(errors)} error(s)")
    return 1 if errors or (args.strict and advice) else 0


def _watch(args: argparse.Namespace) -> int:
    from deckforge.authoring.watch import watch
    from deckforge.sources.load import Project

    project = Project(args.decks)

    def say(result) -> None:
        when = time.strftime("%H:%M:%S")
        if result.problems:
            _report(result.problems, project.root)
        failed = any(p.severity == "error" for p in result.problems)
        what = ", ".join(result.changed[:3]) + ("…" if len(result.changed) > 3 else "")
        if failed:
            print(
                f"[{when}] {what}: not rebuilt, {len(result.problems)} problem(s); "
                "waiting for the next change",
                flush=True,
            )
        elif result.written:
            print(
                f"[{when}] {what}: rebuilt {len(result.written)} file(s) in "
                f"{result.seconds:.1f} s: {', '.join(result.written)}",
                flush=True,
            )
        else:
            print(f"[{when}] {what}: everything up to date ({result.seconds:.2f} s)", flush=True)

    print(f"watching {args.decks}/ (Ctrl-C to stop)", flush=True)
    try:
        watch(project, args.out, args.edition, args.profile, say)
    except KeyboardInterrupt:
        print("stopped watching")
    return 0


def run() -> int:
    """The ``deckforge`` program: :func:`main` in a process of its own."""
    # A build makes millions of small objects and almost no reference cycles. Python's
    # default (a collection every 700 new objects, rescanning all that were loaded) took
    # a sixth of a 10,000-card build; collect rarely, and never rescan what the imports
    # made (which also keeps forked workers from copying those pages). Only for a
    # process that runs one command: main() called in-process leaves the collector be.
    gc.set_threshold(500_000, 1000, 1000)
    gc.freeze()
    return main()


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 problems, 2 usage)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    commands = {
        "validate": _validate,
        "build": _build,
        "list": _list,
        "new": _new,
        "watch": _watch,
        "lint": _lint,
        "export": _export,
        "preview": _preview,
        "preflight": _preflight,
    }
    try:
        if not args.decks.is_dir():
            raise UsageError(f"no decks folder at '{args.decks}' (use --decks DIR)")
        if args.command == "validate" and args.paths:
            from deckforge.sources.load import Project, select_editions

            select_editions(Project(args.decks), args.paths)
        return commands[args.command](args)
    except UsageError as exc:
        print(f"deckforge: {exc}", file=sys.stderr)
        return 2
    except BuildFailed as exc:
        _report(exc.problems, args.decks.resolve().parent)
        n = len(exc.problems)
        print(
            f"build failed: {n} problem{'s' if n != 1 else ''}; nothing was written",
            file=sys.stderr,
        )
        return 1
    except DeckforgeError as exc:
        print(f"deckforge: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        print(
            f"deckforge: cannot write{where}: {exc.strerror or exc}; previous outputs are "
            "unchanged",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        print("deckforge: interrupted; previous outputs are unchanged", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        if args.debug:
            traceback.print_exc()
        else:
            print(
                f"deckforge: internal error: {exc!r} (run with --debug for details)",
                file=sys.stderr,
            )
        return 3


if __name__ == "__main__":
    sys.exit(run())
