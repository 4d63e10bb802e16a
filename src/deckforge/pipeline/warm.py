"""The caches a build draws from, filled before its workers start.

A first build (an empty cache) cuts static font instances and turns the icons its cards
show into drawings: seconds each, and each of them in one worker would leave the other
cores idle (the deck of 400 icons is one task). Neither depends on the other, so they
are made together over the build's processes, the longest first, and kept here before
the workers fork and share them. A warm cache makes this a few checks. The Latin
instances, which every build draws with, are started before the sources are read
(:func:`start`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable

from deckforge.model import Edition
from deckforge.profiles import OutputIntent, Profile
from deckforge.render import colour, press
from deckforge.render.pdf import icon_cache
from deckforge.text import fonts, lineface
from deckforge.text.script import is_rtl_locale

_log = logging.getLogger(__name__)

#: Icon drawings a process makes at a time: few enough that the processes finish together.
ICONS_A_TASK = 24


class Started:
    """The Latin instances a first build cuts while it reads its sources: every build
    draws Latin text, and cutting them (the longest of a first build's tasks) need not
    wait until the sources are read and checked (on a first build, the schemas' checks
    are compiled then). The pool they are cut in does the rest of the
    build's first-time work (:func:`warm`)."""

    def __init__(self, jobs: int) -> None:
        self.pool = None
        self.cuts: dict = {}
        if jobs <= 1:
            return
        todo = [
            instance
            for weight in (fonts.REGULAR, fonts.BOLD)
            if (instance := fonts.instance_of("latin", weight)) is not None
            and not fonts.is_cached(instance)
        ]
        if todo:
            self.pool = _pool(jobs)
            for instance in sorted(todo, key=lambda i: -i.weight):  # the Bold first
                self.cuts[instance] = self.pool.submit(fonts.cut, instance)

    def keep(self) -> None:
        """Wait for the instances being cut and keep them in the cache."""
        for instance, cut in self.cuts.items():
            fonts.keep(instance, cut.result())
        self.cuts = {}

    def __enter__(self) -> Started:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Keep what was cut (nothing made is lost, even by a build that stops at its
        sources) and let the pool's processes go."""
        if self.pool is None:
            return
        try:
            self.keep()
        except Exception as exc:  # noqa: BLE001 - the build's own outcome is what matters
            _log.warning("a font instance could not be cut ahead (%s); it is cut when drawn", exc)
        finally:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None


def start(jobs: int | None) -> Started:
    """Start a build's first-time work that needs nothing but the build's processes
    (``jobs``; None: one for each core)."""
    return Started(jobs or os.cpu_count() or 1)


def _pool(jobs: int):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context())


class _Here:
    """Tasks done in this process as they are given, where forking for a single one
    would cost more than it saves; the same calls as a pool's."""

    @staticmethod
    def submit(task, *args):
        from concurrent.futures import Future

        done: Future = Future()
        done.set_result(task(*args))
        return done

    def shutdown(self, cancel_futures: bool = False) -> None:
        pass


def warm(
    jobs: int,
    editions: Iterable[Edition],
    profiles: Iterable[Profile],
    started: Started | None = None,
) -> None:
    """Fill the font and icon caches for a build of ``editions`` in ``profiles`` over
    ``jobs`` processes (in the pool of ``started``, with the instances it is cutting),
    and load them into this process. With one process nothing is made ahead: faces and
    icons are made as the cards need them."""
    started = started or Started(1)
    editions, profiles = list(editions), list(profiles)
    icon_cache.begin()
    codes = _icons(editions)
    if codes:
        icon_cache.load()  # here, so that the workers forked next share what it read
    # The Arabic faces, and the line faces made from both families (text.lineface), are
    # made ahead for editions in a right-to-left language only: the odd Persian word in
    # another edition has them made as it is drawn.
    rtl = any(is_rtl_locale(edition.locale) for edition in editions)
    if jobs <= 1:
        started.close()
        return
    if rtl:
        started.keep()  # a line face is made from the instances: they are kept first
    families = tuple(fonts.FAMILIES) if rtl else ("latin",)
    lines = lineface.missing() if rtl else []
    # A line face is made in one process with the instances it is made from (the longest
    # tasks, so they go first); the other instances are cut on their own.
    chained = {fonts.instance_of(family, weight) for family in fonts.FAMILIES for weight in lines}
    instances = [i for i in fonts.missing(families) if i not in chained and i not in started.cuts]
    colours = _colours(profiles)
    # A press profile deckforge makes (seconds) is made in a process of its own, the
    # longest task of all; the icons are drawn in its colours once it is there.
    presses = sorted(
        {
            inks[1]
            for inks in colours
            if inks and inks[0].icc is None and not press.is_cached(inks[1])
        }
    )
    batches = [] if presses else _icon_batches(codes, colours)
    tasks = len(presses) + len(lines) + len(instances) + len(batches)
    pool = started.pool or (_pool(jobs) if tasks > 1 else _Here())
    try:
        _made_ahead(pool, started, presses, lines, instances, codes, colours, batches)
    finally:
        started.pool = None
        # Done, or interrupted (Ctrl-C in serve): what has not started is not waited for.
        pool.shutdown(cancel_futures=True)
    fonts.register(families)
    if rtl:
        lineface.prepare(jobs)


def _made_ahead(pool, started: Started, presses, lines, instances, codes, colours, batches):
    """Make the press profiles, line faces, instances and icons in ``pool`` (where
    ``started`` is cutting the Latin instances, or in this process) and keep them here."""
    made_presses = [pool.submit(press.profile_bytes, limit) for limit in presses]
    faces = [pool.submit(lineface.make, weight) for weight in lines]
    cuts = [pool.submit(fonts.cut, instance) for instance in instances]
    for made in made_presses:
        made.result()
    if presses:  # their profiles are read from the cache now
        batches = _icon_batches(codes, colours)
    drawn = [pool.submit(_draw, batch) for batch in batches]
    started.keep()
    for instance, cut in zip(instances, cuts, strict=True):
        fonts.keep(instance, cut.result())
    for done in drawn:
        for made, key in done.result():
            icon_cache.keep(made, key)
    for made in faces:
        made.result()


#: The colours of a CMYK profile's icons (its output intent and ink limit); None: RGB.
Inks = tuple[OutputIntent, float] | None
#: A batch of icons to draw: for each colour, the codes to draw in it.
Batch = list[tuple[list[str], Inks]]


def _colours(profiles: list[Profile]) -> list[Inks]:
    """The colours the profiles print icons in, RGB first."""
    return sorted(
        {(p.output_intent, p.ink_limit) if p.cmyk else None for p in profiles},
        key=lambda c: c is not None,
    )


def _icon_batches(codes: set[str], colours: list[Inks]) -> list[Batch]:
    """The icons the cache lacks, in batches, in each of ``colours``. An icon's drawings
    in every colour are in one batch: the process that makes them reads and parses its
    SVG (two thirds of the cost) once. (Asking for a colour's converter here, before the
    build's workers fork, has them share it.)"""
    todo = {
        inks: set(icon_cache.missing(codes, None if inks is None else colour.converter(*inks).key))
        for inks in colours
    }
    every = sorted(set().union(*todo.values()))
    size = max(1, ICONS_A_TASK // max(1, len(colours)))
    chunks = [every[n : n + size] for n in range(0, len(every), size)]
    return [[([c for c in chunk if c in todo[inks]], inks) for inks in colours] for chunk in chunks]


def _draw(batch: Batch) -> list[tuple[list, str | None]]:
    """A batch's drawings in each colour, with the colour key they are kept under."""
    # Imported only when icons are missing from the cache (a first build).
    from deckforge.render.pdf import icon_maker

    drawn = []
    for codes, inks in batch:
        converter = None if inks is None else colour.converter(*inks)
        made = icon_maker.drawings(codes, converter)
        drawn.append((made, None if converter is None else converter.key))
    return drawn


def _icons(editions: list[Edition]) -> set[str]:
    """The icons the editions' cards show (icons in running text and generated pictures
    are few, and made as they are drawn)."""
    return {
        code
        for edition in editions
        for deck in edition.decks
        for card in deck.cards
        if isinstance(code := getattr(card, "icon", None), str)
    }
