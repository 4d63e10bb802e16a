"""``deckforge watch``: rebuild whenever a source changes, saying what was rebuilt."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from deckforge.cli.show import report

NAME = "watch"
HELP = "rebuild whenever a source changes"


def arguments(parser: argparse.ArgumentParser) -> None:
    """What to build on every change."""
    parser.add_argument("--edition", action="append", metavar="NAME", help="edition to build")
    parser.add_argument("--profile", action="append", metavar="NAME", help="profile to build")
    parser.add_argument("--out", type=Path, default=Path("build"), help="output folder")


def interruptible() -> None:
    """Let Ctrl-C (SIGINT) stop a command that runs until interrupted, even where it was
    started with interrupts ignored, as a shell without job control starts commands in
    the background and their children inherit: Python then never raises
    KeyboardInterrupt, and nothing would stop it but a kill."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def run(args: argparse.Namespace) -> int:
    """Build, then rebuild on every change until interrupted."""
    interruptible()
    from deckforge.authoring.watch import Round, watch
    from deckforge.sources.load import Project

    project = Project(args.decks)

    def say(result: Round) -> None:
        when = time.strftime("%H:%M:%S")
        if result.problems:
            report(result.problems, project.root)
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
