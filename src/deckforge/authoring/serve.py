"""Serve mode: the preview of a build in the browser, kept live as sources are saved.

On every save (``watch``), the cards whose drawing changed are found from the sources'
models and drawn from a file of just them (:mod:`deckforge.authoring.quick`); when that
cannot show the change (cards added or removed, a new back, many cards), the printer
profile of the served editions is built again (the incremental build skips every file
that did not change). The preview is then made again (``work.carry_out`` draws only the
images whose drawing changed), and every open page is told which images those were; a
build that fails leaves the last good files in place and its problems are shown over
them until a save fixes them. Every profile's files are built, incrementally, once the
saves pause, and before any of them is downloaded, so that downloads are never stale.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from deckforge.authoring.quick import Quick, quick_round
from deckforge.authoring.server import Live, Server, Update
from deckforge.authoring.watch import Round, build_round, watch
from deckforge.errors import ERROR, DeckforgeError, Problem, UsageError
from deckforge.render.raster.preview import card_files, problems_html, write_site
from deckforge.sources.load import Project

#: The profile the preview's images are drawn from.
PROFILE = "printer"
#: The preview's folder inside the build folder.
SITE = "serve"
#: Checks in a row that found no change (each :data:`~deckforge.authoring.watch.ARMED_AFTER`
#: milliseconds) after which every profile's files are built.
PAUSE = 10


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
    with tempfile.TemporaryDirectory(prefix="deckforge-serve-") as scratch:
        loop = _Loop(project, out_dir, Path(scratch), editions, describe, live, proof, on_round)
        try:
            server = Server(out_dir, host, port, live, f"{SITE}/index.html", loop.downloaded)
        except OSError as error:
            message = f"cannot listen on {host}:{port}: {error.strerror or error}"
            raise UsageError(message) from None
        thread = threading.Thread(target=server.serve_forever, name="deckforge-serve", daemon=True)
        thread.start()
        on_ready(server.url)
        try:
            watch(project, out_dir, editions, [PROFILE], loop.shown, stop, loop.rebuild, loop.quiet)
        finally:
            live.close()
            server.shutdown()
            server.server_close()


class _Loop:
    """What serve does on each save, on a pause in the saves, and before a download."""

    def __init__(self, project, out_dir, scratch, editions, describe, live, proof, on_round):
        self.project, self.out_dir, self.scratch, self.editions = (
            project,
            out_dir,
            scratch,
            editions,
        )
        self.describe, self.live, self.proof, self.on_round = describe, live, proof, on_round
        self.version = 0
        self.decks: dict = {}
        #: The printer card files as the pages show them, and the last quick round.
        self.known: dict = {}
        self.quick: Quick | None = None
        #: Whether some profile's files may be older than the sources.
        self.stale = True
        self.lock = threading.RLock()

    def rebuild(self, result: Round) -> None:
        """A save's round: the quick one when it can show the change, else the build."""
        with self.lock:
            self.stale = True
            self.quick = None
            if self.known:
                try:
                    self.quick = quick_round(
                        self.project, self.out_dir, self.scratch, self.editions, self.known
                    )
                except DeckforgeError:  # what the build then finds is shown
                    self.quick = None
            if self.quick is None:
                build_round(self.project, self.out_dir, self.editions, [PROFILE], result)

    def shown(self, result: Round) -> None:
        """The preview made again after a round, and the open pages told."""
        with self.lock:
            self._show(result.seconds, [p for p in result.problems if p.severity == ERROR])

    def quiet(self, checks: int) -> None:
        """Once the saves pause, every profile's files are built."""
        if checks == PAUSE and self.stale:
            self.downloaded()

    def downloaded(self, path: Path | None = None) -> None:
        """Before a file of the build is sent (or when ``path`` is None): every profile's
        files of the served editions built, if the sources changed since."""
        if path is not None and path.resolve().is_relative_to((self.out_dir / SITE).resolve()):
            return
        with self.lock:
            if not self.stale:
                return
            self.stale, self.quick = False, None
            started = time.perf_counter()
            result = Round(changed=[])
            build_round(self.project, self.out_dir, self.editions, None, result)
            errors = [p for p in result.problems if p.severity == ERROR]
            if not errors:
                self._show(time.perf_counter() - started, [], report=False)

    def _show(self, seconds: float, errors: list[Problem], report: bool = True) -> None:
        """Write the preview, tell the pages, and (``report``) say what the round cost."""
        self.version += 1
        timing = Timing(build=seconds)
        shown = [self.describe(p) for p in errors]
        started = time.perf_counter()
        changed: list[str] = []
        names: dict[str, str] = {}
        quick = self.quick if not errors else None
        # Over problems, the cards as last shown (the card files may be older than them).
        current = quick.current if quick else None
        if errors:
            current = {pdf: deck for pdf, (deck, _) in self.known.items()}
        try:
            site = write_site(
                self.out_dir,
                self.out_dir / SITE,
                editions=self.editions,
                live=True,
                problems=shown,
                decks=self.decks,
                proof=self.proof,
                current=current,
                redraw=quick.redraw if quick else None,
            )
            base = self.out_dir.resolve()
            for image in site.images:
                path = Path(image).resolve().relative_to(base).as_posix()
                changed.append(path)
                if image in site.names:
                    names[path] = site.names[image]
            if not errors:
                self._remember(quick)
        except DeckforgeError as error:  # no build yet to show: only the problems
            if not shown:
                shown = [str(error)]
        timing.images = time.perf_counter() - started
        started = time.perf_counter()
        self.live.publish(Update(self.version, tuple(changed), names, problems_html(shown)))
        timing.notify = time.perf_counter() - started
        timing.changed, timing.problems = changed, len(shown)
        if self.on_round and report:
            self.on_round(timing)

    def _remember(self, quick: Quick | None) -> None:
        """The card files as the pages now show them."""
        if quick is None:
            self.known = card_files(self.out_dir, self.decks)
        else:
            for pdf, deck in quick.current.items():
                self.known[pdf] = (deck, self.known[pdf][1])
