"""A preview of a build as a small static site, for authors to review in a browser.

``index.html`` lists every edition and deck (cards, size, the files of every profile to
download, the warnings the build found); ``<edition>/<deck>.html`` shows the deck's faces
as a grid of thumbnails and then each of its distinct backs once, every one a link to a
larger image. Cards are drawn from the printer-profile PDFs, so the preview shows what the
print shop gets; given a soft proof's output intent, each image is also made as the press
prints it (``…-proof.jpg``, ``…-proof-small.png``), and a switch on the deck's page
(``proof.js``) shows those instead. Pages come from Jinja2 templates in ``templates/``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from deckforge.errors import DeckforgeError, display_path
from deckforge.render.raster.pdfread import (
    Deck,
    deck_of,
    manifest_entries,
    pixels,
    read_deck,
    side_page,
)
from deckforge.render.raster.work import ImageJob, Plan, Slot, carry_out

TEMPLATES = Path(__file__).parent / "templates"
#: Width of a thumbnail in the grid, in pixels.
THUMB_WIDTH = 200
#: The longer side of the larger image a thumbnail links to, in pixels (whatever the size
#: of the card: a large screen shows a mini card as well as a big one).
LARGE_SIDE = 800
#: The images of a deck's page; others in its folder are left alone.
PREVIEW_FILES = r"(face|back)-\d+(-proof)?(\.jpg|-small\.png)"
RTL_LOCALES = {"fa", "ar", "he", "ur"}


def _href(target: Path, page_dir: Path) -> str:
    """A relative, URL-quoted link from a page in ``page_dir`` to ``target``."""
    relative = os.path.relpath(Path(target).resolve(), Path(page_dir).resolve())
    return quote(Path(relative).as_posix())


def _preview_source(entries: list[dict], single: set[str] | None) -> dict | None:
    """The entry whose PDF the previews of a deck are drawn from: the printer profile's,
    else another one-card-per-page profile's, else none."""
    candidates = [e for e in entries if e.get("profile") == "printer"]
    if not candidates and single:
        candidates = sorted(
            (e for e in entries if e.get("profile") in single), key=lambda e: e["profile"]
        )
    return candidates[0] if candidates else None


def _files(entries: list[dict], build_dir: Path, page_dir: Path) -> list[dict]:
    """The downloads of one deck or component: a link per profile's file."""
    found = []
    for entry in sorted(entries, key=lambda e: (str(e.get("profile")), e["path"])):
        target = build_dir / entry["path"]
        found.append(
            {
                "profile": str(entry.get("profile")),
                "name": Path(entry["path"]).name,
                "pages": entry.get("pages"),
                "href": _href(target, page_dir) if target.is_file() else None,
            }
        )
    return found


def _size(entry: dict) -> str:
    trim = entry.get("trim_mm") or []
    return " × ".join(f"{value:g}" for value in trim) + " mm" if trim else ""


def _deck_plan(
    deck: Deck, folder: Path, proof: tuple | None = None
) -> tuple[Plan, list[dict], list[dict]]:
    """The images of a deck's page: each face, then each distinct back, large (see
    :data:`LARGE_SIDE`) and as a thumbnail, and with ``proof`` (an output intent and ink
    limit) each also as the press prints it."""
    trim_w, trim_h = deck.geometry.trim_size
    scale = LARGE_SIDE / max(trim_w, trim_h)
    large = (pixels(trim_w * scale), pixels(trim_h * scale))
    small = (THUMB_WIDTH, pixels(THUMB_WIDTH * large[1] / large[0]))
    plan = Plan(folder, PREVIEW_FILES)
    digits = max(3, len(str(deck.cards)))
    faces, backs = [], []
    sides = [("face", n, side_page(n, "face"), deck.faces[n]) for n in range(deck.cards)]
    sides += [("back", n, deck.back_page(n), deck.backs[n]) for n in range(len(deck.backs))]
    for side, number, page, drawing in sides:
        stem = f"{side}-{number + 1:0{digits}d}" if side == "face" else f"{side}-{number + 1}"
        # Drawn twice rather than scaled: PDFium draws a thumbnail for less than a good
        # resampling filter takes to shrink the large image.
        # The large image is a JPEG: it is only looked at, and quick to encode.
        for size, name, printed in (
            (large, f"{stem}.jpg", f"{stem}-proof.jpg"),
            (small, f"{stem}-small.png", f"{stem}-proof-small.png"),
        ):
            slot = Slot(page, drawing, deck.geometry.trim, size)
            proofed = (str(folder / printed),) if proof else ()
            files = (str(folder / name),)
            plan.jobs.append(
                ImageJob(str(deck.pdf), size, (slot,), files, proof=proof, proofed=proofed)
            )
        shown = {
            "large": f"{folder.name}/{stem}.jpg",
            "thumb": f"{folder.name}/{stem}-small.png",
            "width": small[0],
            "height": small[1],
        }
        if side == "face":
            faces.append(
                {
                    **shown,
                    "number": number + 1,
                    "name": deck.names[number],
                    "source": deck.sources[number],
                }
            )
        else:
            backs.append({**shown, "number": number + 1, "cards": deck.shown_by(number)})
    return plan, faces, backs


def _group(outputs: list[dict]) -> dict[str, dict]:
    """Entries by edition, then by card deck or by kind of other file."""
    editions: dict[str, dict] = {}
    for entry in outputs:
        edition = editions.setdefault(
            str(entry.get("edition", "")),
            {"locale": str(entry.get("locale", "")), "decks": {}, "others": {}},
        )
        if entry.get("kind") == "cards":
            edition["decks"].setdefault(str(entry.get("deck")), []).append(entry)
        else:
            edition["others"].setdefault(str(entry.get("kind")), []).append(entry)
    return editions


def _unique_warnings(entries: list[dict], warnings: dict[str, list[str]]) -> list[str]:
    """The warnings recorded for any of ``entries``' files, each once (a source's warning
    is found again under every profile)."""
    return list(dict.fromkeys(w for e in entries for w in warnings.get(e["path"], [])))


@dataclass(eq=False)
class Site:
    """A preview site written: its index page, the images made this time (every one
    that was missing or whose drawing changed) and the card name each face image shows."""

    index: Path
    images: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)


def preview_site(
    build_dir: Path,
    site_dir: Path,
    warnings: dict[str, list[str]] | None = None,
    stale: str | None = None,
    processes: int | None = None,
    proof: tuple | None = None,
) -> Path:
    """Write the preview site of the build in ``build_dir`` into ``site_dir``.

    ``warnings`` are the build's warnings by output path (as the manifest names files);
    ``stale``, when given, says why the build may not show the sources as they are now,
    and is shown on every page; ``proof`` (an output intent and ink limit) adds soft
    proofs of every card and the switch that shows them. Returns the index.html path.
    """
    return write_site(build_dir, site_dir, warnings, stale, processes, proof=proof).index


@cache
def _environment():
    """The templates' environment: made once, as it compiles each template once."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def problems_html(problems: list[str]) -> str:
    """The problems panel of a live page: each problem as the command line prints it
    (its place, the source line and a caret), escaped."""
    macros = _environment().get_template("macros.html").module
    return str(macros.problem_list(problems))


def write_site(
    build_dir: Path,
    site_dir: Path,
    warnings: dict[str, list[str]] | None = None,
    stale: str | None = None,
    processes: int | None = None,
    editions: list[str] | None = None,
    live: bool = False,
    problems: list[str] | None = None,
    decks: dict | None = None,
    proof: tuple | None = None,
) -> Site:
    """Write the preview site of the build in ``build_dir`` into ``site_dir`` (see
    :func:`preview_site`), of the editions named (all by default).

    ``live`` pages load ``live.js``, which keeps them current as ``deckforge serve``
    tells them what changed, and show ``problems`` (the command line's text of each)
    above the cards of the last good build. ``decks`` keeps the geometry of the card
    files read for the next call, so that their pages are not checked again (see
    :func:`_read`). ``proof`` is as :func:`preview_site` takes it.
    """
    build_dir, site_dir = Path(build_dir), Path(site_dir)
    environment = _environment()
    common = {"stale": stale, "live": live, "problems": problems or [], "proof": _named(proof)}
    grouped = _group(manifest_entries(build_dir))
    if editions:
        grouped = {name: groups for name, groups in grouped.items() if name in editions}
    shown: list = []
    plans: list = []
    pages: dict[Path, dict] = {}
    names: dict[str, str] = {}
    # Editions by name, then the printers' calibration sheets, which belong to none.
    for edition_id in sorted(grouped, key=lambda name: (name == "calibration", name)):
        edition, edition_plans, edition_pages, edition_names = _edition_site(
            edition_id, grouped[edition_id], build_dir, site_dir, warnings or {}, decks, proof
        )
        for name, context in edition_pages.items():
            page = environment.get_template("deck.html").render({**context, **common})
            pages.setdefault(site_dir / edition_id, {})[name] = page
        plans += edition_plans
        names.update(edition_names)
        shown.append(edition)
    index = environment.get_template("index.html").render(
        {"editions": shown, "root": "", "build": display_path(build_dir), **common}
    )
    site = Plan(site_dir, r"index\.html|style\.css|live\.js|proof\.js")
    assets: tuple[str, ...] = ("style.css", "live.js") if live else ("style.css",)
    assets += ("proof.js",) if proof else ()
    site.texts = {name: (TEMPLATES / name).read_text("utf-8") for name in assets}
    site.texts["index.html"] = index
    for folder, texts in pages.items():
        plans.append(Plan(folder, r".+\.html", texts=texts))
    if not shown:
        raise DeckforgeError(f"{display_path(build_dir)}: the build manifest lists no files")
    done = carry_out([*plans, site], processes)
    images = [path for path in done.images if not path.endswith(".html")]
    return Site(site_dir / "index.html", images, names)


def _named(proof: tuple | None) -> str | None:
    """What a soft proof prints with, as its switch names it: the press and ink limit."""
    if proof is None:
        return None
    intent, limit = proof
    press = intent.condition_name if intent.condition == "Custom" else intent.condition
    return f"{press} at {limit:g} % ink"


#: What a card file's manifest entry says of its pages' geometry.
_GEOMETRY = ("profile", "cards", "pages", "trim_mm", "bleed_mm")


def _read(pdf: Path, entry: dict, decks: dict | None) -> Deck:
    """The card file of ``entry``, its pages checked once in ``decks``' keeping.

    A file read before, or made again with the same geometry (its entry's cards, pages,
    trim and bleed), keeps the checked geometry of that reading: checking every page of
    a large file again would cost more than drawing the cards that changed in it. What its
    pages are comes from the entry each time.
    """
    if decks is None:
        return read_deck(pdf, entry)
    geometry = tuple(entry.get(k) for k in _GEOMETRY)
    known = decks.get(str(pdf))
    if known is not None and known[0] == geometry:
        return deck_of(pdf, known[1], entry)
    deck = read_deck(pdf, entry)
    decks[str(pdf)] = (geometry, deck.geometry)
    return deck


def _edition_site(
    edition_id: str,
    groups: dict,
    build_dir: Path,
    site_dir: Path,
    warnings: dict,
    decks: dict | None,
    proof: tuple | None = None,
) -> tuple[dict, list[Plan], dict[str, dict], dict[str, str]]:
    """One edition of the site: what the index shows of it, the plans of its decks'
    images, each deck page's context by file name, and the card name of each face image."""
    from deckforge.render.raster.pdfread import _single_card_profiles

    single = _single_card_profiles()
    edition_dir = site_dir / edition_id
    locale = groups["locale"]
    every = [e for entries in groups["decks"].values() for e in entries]
    every += [e for entries in groups["others"].values() for e in entries]
    edition = {
        "id": edition_id,
        "locale": locale,
        "dir": "rtl" if locale in RTL_LOCALES else "ltr",
        "decks": [],
        "others": [],
        "warnings": _unique_warnings(every, warnings),
    }
    plans: list = []
    pages: dict[str, dict] = {}
    names: dict[str, str] = {}
    for name, entries in sorted(groups["decks"].items()):
        source = _preview_source(entries, single)
        shown: dict[str, Any] = {
            "id": name,
            "cards": (source or entries[0]).get("cards", "?"),
            "size": _size(source or entries[0]),
            "files": _files(entries, build_dir, site_dir),
            "warnings": _unique_warnings(entries, warnings),
            "page": None,
            "cover": None,
        }
        edition["decks"].append(shown)
        if source is None:
            continue
        deck = _read(build_dir / source["path"], source, decks)
        shown["template"] = deck.template
        shown["elements"] = ", ".join(deck.elements)
        plan, faces, backs = _deck_plan(deck, edition_dir / name, proof)
        plans.append(plan)
        for face in faces:
            for image in (face["large"], face["thumb"]):
                names[str(edition_dir / image)] = face["name"]
        shown["page"] = f"{quote(edition_id)}/{quote(name)}.html"
        shown["cover"] = f"{quote(edition_id)}/{quote(faces[0]['thumb'])}"
        pages[f"{name}.html"] = {
            "edition": edition,
            "deck": {**shown, "files": _files(entries, build_dir, edition_dir)},
            "faces": faces,
            "backs": backs,
            "root": "../",
        }
    for kind, entries in sorted(groups["others"].items()):
        edition["others"].append({"kind": kind, "files": _files(entries, build_dir, site_dir)})
    return edition, plans, pages, names
