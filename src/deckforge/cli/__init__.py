"""The command line: ``deckforge COMMAND``, one module per command in ``commands/``.

:func:`main` runs a command line and returns its exit code; :func:`run` is the
``deckforge`` program. Commands import what they need when they run, so that a build
with nothing to do answers before the rendering stages are even loaded.
"""

from __future__ import annotations

import gc
import sys


def run() -> int:
    """The ``deckforge`` program: :func:`main` in a process of its own."""
    # A build makes millions of small objects and almost no reference cycles. Python's
    # default (a collection every 700 new objects, rescanning all that were loaded)
    # spends much of a large build, and of a small build's start-up, collecting for
    # nothing: collect rarely from the start (this module
    # imports nothing of deckforge at its top), and never rescan what the imports made
    # (which also keeps forked workers from copying those pages). Only for a process
    # that runs one command: main() called in-process leaves the collector be.
    gc.set_threshold(500_000, 1000, 1000)
    import deckforge.cli.parser  # noqa: F401 - what main() uses, loaded before freezing

    gc.freeze()
    code = main()
    # The process ends here: what it made is freed as the interpreter exits (files are
    # closed, exit handlers run) without the collections over every object it still
    # holds that exiting runs, a sixth of a small build's processor time.
    gc.disable()
    gc.freeze()
    return code


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 problems, 2 usage, 3 an
    internal error, 130 interrupted)."""
    from deckforge.cli.parser import parser
    from deckforge.cli.show import report
    from deckforge.cli.values import check_environment
    from deckforge.errors import BuildFailed, DeckforgeError, UsageError

    argv = sys.argv[1:] if argv is None else argv
    try:
        args = parser(argv).parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        check_environment()
        if args.needs_decks and not args.decks.is_dir():
            raise UsageError(
                f"no decks folder at '{args.decks}': start a project here with "
                "'deckforge init', or name the folder with --decks DIR"
            )
        return args.run(args)
    except UsageError as exc:
        print(f"deckforge: {exc}", file=sys.stderr)
        return 2
    except BuildFailed as exc:
        report(exc.problems, args.decks.resolve().parent)
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
        print(f"deckforge: {_os_error(exc, args)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("deckforge: interrupted; previous outputs are unchanged", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        if args.debug:
            import traceback

            traceback.print_exc()
        else:
            print(
                f"deckforge: internal error: {exc!r} (run it again as "
                "'deckforge --debug COMMAND ...' for the details)",
                file=sys.stderr,
            )
        return 3


def _os_error(exc: OSError, args) -> str:
    """What a failed file operation was, in words: writing when the file is in the
    command's output folder (the only place commands write), reading otherwise."""
    from pathlib import Path

    reason = f"{exc.strerror or exc}; previous outputs are unchanged"
    if not exc.filename:
        return f"cannot read or write a file: {reason}"
    path = Path(str(exc.filename)).absolute()
    out = getattr(args, "out", None)
    writing = out is not None and path.is_relative_to(Path(out).absolute())
    return f"cannot {'write' if writing else 'read'} {exc.filename}: {reason}"


__all__ = ["main", "run"]
