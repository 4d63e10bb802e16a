"""The caches a build draws from, filled before its workers start.

A first build (an empty cache) cuts static font instances and turns the icons its cards
show into drawings: seconds each, and each of them in one worker would leave the other
cores idle (the deck of 400 icons is one task). Neither depends on the other, so they
are made together over the build's processes, the longest first, and kept here before
the workers fork and share them. A warm cache makes this a few checks.
"""

from __future__ import annotations

from collections.abc import Iterable

from deckforge.model import Edition
from deckforge.profiles import Profile
from deckforge.render.pdf import icon_cache, painter
from deckforge.text import fonts, lineface

#: Icons a process draws at a time: small enough that the processes finish together.
ICONS_A_TASK = 24


def warm(jobs: int, editions: Iterable[Edition], profiles: Iterable[Profile]) -> None:
    """Fill the font and icon caches for a build of ``editions`` in ``profiles`` over
    ``jobs`` processes, and load them into this process. With one process nothing is
    made ahead: faces and icons are made as the cards need them."""
    editions, profiles = list(editions), list(profiles)
    icon_cache.load()
    if jobs <= 1:
        return
    # Both families, whatever the editions' languages: the face lines are drawn in
    # (text.lineface) is made from both.
    instances = fonts.missing()
    # CMYK icons need the press profile's transform: they are made as they are drawn.
    rgb = any(not profile.cmyk for profile in profiles)
    codes = icon_cache.missing(_icons(editions)) if rgb else []
    batches = [codes[n : n + ICONS_A_TASK] for n in range(0, len(codes), ICONS_A_TASK)]
    if len(instances) + len(batches) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(jobs, mp_context=context) as pool:
            cuts = [pool.submit(fonts.cut, instance) for instance in instances]
            drawn = [pool.submit(painter.icon_drawings, batch) for batch in batches]
            for instance, cut in zip(instances, cuts, strict=True):
                fonts.keep(instance, cut.result())
            for done in drawn:
                icon_cache.keep(done.result())
    else:
        for instance in instances:
            fonts.keep(instance, fonts.cut(instance))
        icon_cache.keep(painter.icon_drawings(codes))
    fonts.register()
    lineface.prepare(jobs)


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
