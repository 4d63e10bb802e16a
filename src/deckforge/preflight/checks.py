"""The checks every file gets, one function each: fonts, page boxes and sizes, colour,
ink, images, text size and place, content past the page, marks and rules near the trim.

Each finding names the page and says what to do.
"""

from __future__ import annotations

import math
from typing import Any

from deckforge.preflight import ink as ink_measure
from deckforge.preflight.measure import (
    BOX_TOLERANCE_MM,
    MIN_TEXT_PT,
    RULE_INSET_MM,
    SAFE_INSET_MM,
    Findings,
    first_page,
    join,
    more,
    paper_name,
    snippet,
)
from deckforge.preflight.pdfobjects import size_mm
from deckforge.preflight.registry import FileFacts, Target, check
from deckforge.preflight.report import FAIL, NA, OK, WARNING, Check
from deckforge.units import MM

WARN_DPI = 300.0
FAIL_DPI = 150.0


@check("fonts")
def fonts(f: Findings, t: Target, facts: FileFacts) -> Check:
    """Every font used is embedded (a printer substitutes the others)."""
    missing = [p for p in f.problems if p[1].startswith("font ")]
    names: dict[str, tuple[bool, int]] = {}
    for font, page in f.fonts.values():
        embedded, first = names.get(font.name, (True, page))
        names[font.name] = (embedded and font.embedded, min(first, page))
    bad = sorted((page, name) for name, (ok, page) in names.items() if not ok)
    advice = "embed the font (deckforge embeds its own; art files must carry theirs)"
    if bad:
        listed = ", ".join(f"{name} (first used on page {page})" for page, name in bad[:5])
        return Check("fonts", FAIL, f"not embedded: {listed}{more(len(bad) - 5, 'font')}", advice)
    if missing:
        page, problem = missing[0]
        return Check("fonts", FAIL, f"page {page}: {problem}", advice)
    if not names:
        return Check("fonts", OK, "no text")
    count = len(names)
    return Check("fonts", OK, f"{count} font{'s' if count != 1 else ''}, all embedded")


def _box_problems(f: Findings, t: Target) -> list[str]:
    tol = BOX_TOLERANCE_MM * MM
    problems = []
    trim_mm: Any = t.entry.get("trim_mm")
    for number, boxes in f.boxes:
        trim, bleed, media = boxes.trim, boxes.bleed, boxes.media
        if trim is None:
            problems.append(f"page {number}: no TrimBox")
            continue
        if t.cards and (not trim_mm or len(trim_mm) != 2):
            problems.append(f"page {number}: the manifest gives no trim_mm to check the TrimBox")
        elif t.cards:
            tw, th = float(trim_mm[0]) * MM, float(trim_mm[1]) * MM
            if abs(trim[2] - trim[0] - tw) > tol or abs(trim[3] - trim[1] - th) > tol:
                problems.append(
                    f"page {number}: TrimBox {size_mm(trim)}, expected "
                    f"{float(trim_mm[0]):.1f} × {float(trim_mm[1]):.1f} mm"
                )
        if bleed is None:
            problems.append(f"page {number}: no BleedBox")
            continue
        b = t.bleed * MM
        grown = (trim[0] - b, trim[1] - b, trim[2] + b, trim[3] + b)
        if any(abs(p - q) > tol for p, q in zip(bleed, grown, strict=True)):
            problems.append(
                f"page {number}: BleedBox {size_mm(bleed)} is not the TrimBox "
                f"{size_mm(trim)} grown by {t.bleed:g} mm on each side"
            )
        if any(m > b_ + tol for m, b_ in zip(media[:2], bleed[:2], strict=True)) or any(
            m < b_ - tol for m, b_ in zip(media[2:], bleed[2:], strict=True)
        ):
            problems.append(
                f"page {number}: MediaBox {size_mm(media)} does not contain the BleedBox "
                f"{size_mm(bleed)}"
            )
    return problems


@check("boxes")
def boxes(f: Findings, t: Target, facts: FileFacts) -> Check:
    """With bleed: a TrimBox of the card's size on every page, the BleedBox the trim grown
    by the bleed, inside the MediaBox. Sheets: their paper."""
    if t.bleed <= 0:
        sizes: dict[str, int] = {}
        for _, b in f.boxes:
            label = f"{paper_name(b.media)} {size_mm(b.media)}".strip()
            sizes[label] = sizes.get(label, 0) + 1
        ordered = sorted(sizes, key=lambda label: -sizes[label])
        return Check("boxes", OK, ", ".join(ordered[:3]) + more(len(ordered) - 3, "page size"))
    problems = _box_problems(f, t)
    if problems:
        pages = {p.split(":")[0] for p in problems}
        advice = "set TrimBox to the finished size and BleedBox to it plus the bleed"
        return Check("boxes", FAIL, problems[0] + more(len(pages) - 1), advice)
    trims = sorted({size_mm(b.trim) for _, b in f.boxes if b.trim})
    count = len(f.boxes)
    return Check(
        "boxes",
        OK,
        f"{count} page{'s' if count != 1 else ''}: TrimBox {', '.join(trims)}, "
        f"BleedBox {t.bleed:g} mm beyond it",
    )


@check("sizes")
def sizes(f: Findings, t: Target, facts: FileFacts) -> Check:
    """All pages of a file are one size, unless the profile allows mixed sizes: a shop
    prints a file on one sheet size, a home printer on the paper in its tray."""
    tol = BOX_TOLERANCE_MM * MM
    first_page, first = f.boxes[0]
    size = _size(first.media)
    for number, b in f.boxes[1:]:
        other = _size(b.media)
        if abs(other[0] - size[0]) > tol or abs(other[1] - size[1]) > tol:
            detail = (
                f"page {number} is {size_mm((0, 0, *other))}, page {first_page} "
                f"{size_mm((0, 0, *size))}"
            )
            if t.mixed_sizes:
                return Check("sizes", OK, "mixed, as the profile allows: " + detail)
            advice = "lay every page out on the same paper (split the file if it must differ)"
            return Check("sizes", FAIL, detail, advice)
    return Check("sizes", OK, f"every page {size_mm((0, 0, *size))}")


def _size(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return box[2] - box[0], box[3] - box[1]


@check("colour")
def colour(f: Findings, t: Target, facts: FileFacts) -> Check:
    """A CMYK profile's files use no RGB at all."""
    spaces = sorted(f.spaces - {"Pattern"})
    found = ", ".join(spaces) if spaces else "no colour set"
    if not t.cmyk:
        return Check("colour", NA, found)
    if f.rgb:
        page, reason = f.rgb[0]
        advice = "convert it to CMYK through the output profile"
        return Check(
            "colour", FAIL, f"page {page}: {reason}{more(len(f.rgb) - 1, 'RGB use')}", advice
        )
    if set(spaces) <= {"DeviceCMYK"}:
        return Check("colour", OK, "DeviceCMYK only")
    return Check("colour", OK, f"no RGB; {found}")


@check("ink")
def ink(f: Findings, t: Target, facts: FileFacts) -> Check:
    """Total ink within the limit: CMYK files by their colours and image pixels (exact for
    opaque artwork); RGB files with an output intent by rendering every page and
    converting it to CMYK through the output profile, as the shop's RIP will."""
    limit = t.ink_limit
    advice = "convert with a profile that keeps the limit, or darken with black, not colour"
    if t.cmyk:
        worst, page, what = f.ink
        for image, number in f.cmyk_images.values():
            value = ink_measure.image_ink(image)
            if value is not None and value > worst:
                worst, page, what = value, number, f"an {image.label}"
        how = "by colour"
    else:
        profile = next((p for _, p in facts.intents if p), None)
        if profile is None or facts.path is None:
            return Check("ink", NA, "RGB without an output intent: the shop converts it")
        worst, page = ink_measure.rendered_ink(facts.path, profile)
        what, how = "the rendered page", "rendered through the output intent"
    if worst > limit + 0.05:
        detail = f"page {page}: {what} of {worst:.0f} % total ink (limit {limit:g} %)"
        return Check("ink", FAIL, detail, advice)
    return Check("ink", OK, f"at most {worst:.0f} % total ink {how} (limit {limit:g} %)")


@check("images")
def images(f: Findings, t: Target, facts: FileFacts) -> Check:
    """Images at 300 dpi or more where printed (a shop's files fail below it; home print
    warns, and fails below 150 dpi)."""
    if not f.images:
        return Check("images", OK, "no images")
    page, image, dpi = min(f.images, key=lambda item: item[2])
    lowest = "drawn with no size" if math.isinf(dpi) else f"{image.label} at {dpi:.0f} dpi"
    advice = "use art with more pixels, or draw it smaller"
    floor = WARN_DPI if t.pdfx else FAIL_DPI
    if round(dpi) < floor:
        return Check("images", FAIL, f"page {page}: {lowest}, below {floor:.0f} dpi", advice)
    if round(dpi) < WARN_DPI:
        return Check("images", WARNING, f"page {page}: {lowest}, below {WARN_DPI:.0f} dpi", advice)
    return Check("images", OK, f"{len(f.images)} drawn, lowest {dpi:.0f} dpi")


@check("small text")
def small_text(f: Findings, t: Target, facts: FileFacts) -> Check:
    """No text below 6 pt (it breaks up in print)."""
    if f.smallest is None:
        return Check("small text", OK, "no text")
    if f.small:
        page, (size, texts), others = first_page(f.small)
        detail = (
            f"page {page}: {size:.1f} pt text '{snippet(join(texts))}', below {MIN_TEXT_PT:g} pt"
        )
        detail += others
        return Check("small text", FAIL, detail, f"set it at {MIN_TEXT_PT:g} pt or more")
    return Check("small text", OK, f"smallest {f.smallest[0]:.1f} pt")


@check("safe area")
def safe_area(f: Findings, t: Target, facts: FileFacts) -> Check:
    """Cards' text at least 1/8 in inside the trim: the cut drifts."""
    if not (t.bleed > 0 and t.cards):
        return Check("safe area", NA, "only for cards with bleed")
    if any(b.trim is None for _, b in f.boxes):
        return Check("safe area", NA, "pages without a TrimBox (see boxes)")
    if f.unsafe:
        page, (reach, texts), others = first_page(f.unsafe)
        where = f"{reach:.1f} mm inside the trim" if reach >= 0 else f"{-reach:.1f} mm beyond it"
        detail = f"page {page}: text '{snippet(join(texts))}' reaches {where}, "
        detail += f"closer than {SAFE_INSET_MM:g} mm{others}"
        return Check("safe area", FAIL, detail, f"keep text {SAFE_INSET_MM:g} mm inside the trim")
    return Check("safe area", OK, f"all text at least {SAFE_INSET_MM:g} mm inside the trim")


@check("page edge")
def page_edge(f: Findings, t: Target, facts: FileFacts) -> Check:
    """No text or line runs past the MediaBox where nothing but the page's edge cuts it
    (fills may: that is bleed)."""
    if f.outside:
        page, what = f.outside[0]
        pages = len({p for p, _ in f.outside})
        advice = "lay it out within the page (more pages, or a larger paper)"
        return Check(
            "page edge", FAIL, f"page {page}: {what} past the MediaBox{more(pages - 1)}", advice
        )
    return Check("page edge", OK, "everything drawn is on the page")


@check("marks")
def marks(f: Findings, t: Target, facts: FileFacts) -> Check:
    """No crop or other marks (thin short lines) inside the TrimBox: they would print."""
    if all(b.trim is None for _, b in f.boxes):
        return Check("marks", NA, "no TrimBox")
    if f.marks:
        page, where = f.marks[0]
        pages = len({p for p, _ in f.marks})
        count = f"{len(f.marks)} mark{'s' if len(f.marks) != 1 else ''}"
        detail = f"page {page}: {count} inside the trim, first at {where}{more(pages - 1)}"
        return Check(
            "marks", FAIL, detail, "draw marks outside the BleedBox, or leave them to the shop"
        )
    return Check("marks", OK, "none inside the trim")


@check("rules")
def rules(f: Findings, t: Target, facts: FileFacts) -> Check:
    """No line runs along the trim closer than 3 mm: cutting drift shows as a border of
    uneven width."""
    if all(b.trim is None for _, b in f.boxes):
        return Check("rules", NA, "no TrimBox")
    if f.rules:
        page, gap, length = min(f.rules, key=lambda r: r[1])
        pages = len({p for p, _, _ in f.rules})
        detail = (
            f"page {page}: a {length:.0f} mm line {gap:.1f} mm from the trim, "
            f"closer than {RULE_INSET_MM:g} mm{more(pages - 1)}"
        )
        return Check("rules", FAIL, detail, f"move it {RULE_INSET_MM:g} mm inside, or to the bleed")
    return Check("rules", OK, f"no line along the trim within {RULE_INSET_MM:g} mm")


@check("content")
def content(f: Findings, t: Target, facts: FileFacts) -> Check:
    """Operators that could not be interpreted (the other checks measured the rest)."""
    other = [(page, p) for page, p in f.problems if not p.startswith("font ")]
    if not other:
        return Check("content", OK, "every operator read")
    page, problem = other[0]
    return Check(
        "content",
        WARNING,
        f"page {page}: {problem}{more(len(other) - 1, 'problem')}",
        "rewrite the file with a current PDF tool",
    )
