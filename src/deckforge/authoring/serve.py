"""Serve mode: the preview of a build in the browser, kept live as sources are saved.

On every save (``watch``), the printer profile of the served editions is built again
(the incremental build skips every file that did not change), the preview is made again
(``work.carry_out`` draws only the images whose drawing changed), and every open page is
told which images those were; a build that fails leaves the last good files in place and
its problems are shown over them until a save fixes them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from deckforge.authoring.server import Live, Server, Update
from deckforge.authoring.watch import Round, watch
from deckforge.errors import ERROR, DeckforgeError, Problem, UsageError
from deckforge.render.raster.preview import problems_html, write_site
from deckforge.sources.load import Project

#: The profile the preview's images are drawn from.
PROFILE = "printer"
#: The preview's folder inside the build folder.
SITE = "serve"


@dataclass
class Timing:
    """Where one round's time went, in seconds: building, making the preview's images
    and pages, and telling the pages."""

    build: float = 0.0
    images: float = 0.0
    notify: float = 0.0
    changed: list[str] = field(default_factory=list)
    problems: int = 0


def serve(
    project: Project,
    out_dir: Path,
    editions: list[str] | None,
    host: str,
    port: int,
    describe: Callable[[Problem], str],
    on_ready: Callable[[str], None] = print,
    on_round: Callable[[Timing], None] | None = None,
    stop: threading.Event | None = None,
    proof: tuple | None = None,
) -> None:
    """Serve the preview of ``editions`` (all by default) on ``host``:``port`` until
    interrupted (or ``stop`` is set). ``describe`` is how a problem is shown, as the
    command line prints it; ``on_ready`` is given the address once the server listens,
    ``on_round`` what each round cost; ``proof`` (an output intent and ink limit) adds
    the cards as the press prints them, and a switch that shows them."""
    out_dir = Path(out_dir)
    live = Live()
    try:
        server = Server(out_dir, host, port, live, f"{SITE}/index.html")
    except OSError as error:
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    thread = threading.Thread(target=server.serve_forever, name="deckforge-serve", daemon=True)
    thread.start()
    on_ready(server.url)
    version = 0
    decks: dict = {}

    def rebuilt(result: Round) -> None:
        nonlocal version
        version += 1
        timing = Timing(build=result.seconds)
        errors = [p for p in result.problems if p.severity == ERROR]
        shown = [describe(p) for p in errors]
        started = time.perf_counter()
        changed: list[str] = []
        names: dict[str, str] = {}
        try:
            site = write_site(
                out_dir,
                out_dir / SITE,
                editions=editions,
                live=True,
                problems=shown,
                decks=decks,
                proof=proof,
            )
            base = out_dir.resolve()
            for image in site.images:
                path = Path(image).resolve().relative_to(base).as_posix()
                changed.append(path)
                if image in site.names:
                    names[path] = site.names[image]
        except DeckforgeError as error:  # no build yet to show: only the problems
            if not shown:
                shown = [str(error)]
        timing.images = time.perf_counter() - started
        started = time.perf_counter()
        live.publish(Update(version, tuple(changed), names, problems_html(shown)))
        timing.notify = time.perf_counter() - started
        timing.changed, timing.problems = changed, len(shown)
        if on_round:
            on_round(timing)

    try:
        watch(project, out_dir, editions, [PROFILE], rebuilt, stop)
    finally:
        live.close()
        server.shutdown()
        server.server_close()
