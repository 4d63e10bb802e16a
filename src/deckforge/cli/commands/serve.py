"""``deckforge serve``: the preview in a browser, kept live as sources are saved."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

NAME = "serve"
HELP = "the preview on a local web server, updated on every save"


def _port(text: str) -> int:
    """``--port N``: 0 (any free port) to 65535."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value}: give a port from 0 (any free one) to 65535")
    return value


def arguments(parser: argparse.ArgumentParser) -> None:
    """What to serve, and where."""
    parser.add_argument("--edition", action="append", metavar="NAME", help="edition to serve")
    parser.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free)")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="ADDR",
        help="address to listen on (default 127.0.0.1: this computer only)",
    )
    parser.add_argument("--out", type=Path, default=Path("build"), help="the build folder")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    from deckforge.authoring.serve import Timing, serve
    from deckforge.cli.commands.watch import interruptible
    from deckforge.cli.show import report, show
    from deckforge.sources.load import Project

    interruptible()
    project = Project(args.decks)

    def ready(url: str) -> None:
        print(f"serving {url} (Ctrl-C to stop)", flush=True)

    def done(timing: Timing) -> None:
        when = time.strftime("%H:%M:%S")
        if timing.problems:
            print(f"[{when}] {timing.problems} problem(s): shown in the page", flush=True)
        print(
            f"[{when}] built in {timing.build:.2f} s, {len(timing.changed)} image(s) drawn in "
            f"{timing.images:.2f} s, pages told in {timing.notify * 1000:.1f} ms",
            flush=True,
        )

    def describe(problem) -> str:
        report([problem], project.root)
        return show(problem, project.root)

    try:
        from deckforge.cli.images import soft_proof

        serve(project, args.out, args.edition, args.host, args.port, describe, ready, done,
              proof=soft_proof(args))  # fmt: skip
    except KeyboardInterrupt:
        print("stopped serving", file=sys.stderr)
    return 0
