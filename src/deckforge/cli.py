"""Command line: ``deckforge validate``, ``deckforge build``, ``deckforge list``."""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

from deckforge import __version__
from deckforge.errors import BuildFailed, DeckforgeError, UsageError, errors_only
from deckforge.pipeline import Project, build, check, select_editions
from deckforge.profiles import all_profiles


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

    sub.add_parser("list", help="list editions, their decks, and the print profiles")
    return parser


def _validate(args: argparse.Namespace) -> int:
    project = Project(args.decks)
    laid_out, _, problems = check(project, args.paths or None)
    for problem in problems:
        print(problem.format(), file=sys.stderr)
    if errors_only(problems, args.strict):
        count = len(errors_only(problems, args.strict))
        print(f"{count} problem{'s' if count != 1 else ''} found", file=sys.stderr)
        return 1
    cards = sum(len(c) for laid in laid_out for c in laid.cards.values())
    print(f"ok: {len(laid_out)} edition(s), {cards} cards")
    return 0


def _build(args: argparse.Namespace) -> int:
    project = Project(args.decks)
    started = time.perf_counter()
    say = (lambda _: None) if args.quiet else (lambda path: print(f"  rendered {args.out / path}"))
    entries, warnings = build(project, args.out, args.edition, args.profile, args.strict, say)
    for warning in warnings:
        print(warning.format(), file=sys.stderr)
    if not args.quiet:
        pages = sum(e["pages"] for e in entries)
        print(
            f"built {len(entries)} files ({pages} pages) into {args.out}/ in "
            f"{time.perf_counter() - started:.1f} s; see {args.out}/manifest.json"
        )
    return 0


def _list(args: argparse.Namespace) -> int:
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


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 problems, 2 usage)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    commands = {"validate": _validate, "build": _build, "list": _list}
    try:
        if not args.decks.is_dir():
            raise UsageError(f"no decks folder at '{args.decks}' (use --decks DIR)")
        if args.command == "validate" and args.paths:
            select_editions(Project(args.decks), args.paths)
        return commands[args.command](args)
    except UsageError as exc:
        print(f"deckforge: {exc}", file=sys.stderr)
        return 2
    except BuildFailed as exc:
        for problem in exc.problems:
            print(problem.format(), file=sys.stderr)
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
    sys.exit(main())
