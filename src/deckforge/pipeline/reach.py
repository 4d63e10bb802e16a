"""Design colours the press cannot print: a build for CMYK says which, where each is
used, how far its print is from it (CIEDE2000) and the nearest colour that prints.

Colours are found as written (``#RRGGBB``) in the files an edition is built from: its
sources, templates and data tables, each at its line and column (a workbook's at its
sheet and cell).
"""

from __future__ import annotations

import re
from pathlib import Path

from deckforge.errors import WARNING, Problem, SourceRef
from deckforge.model import Edition
from deckforge.profiles import Profile

#: A print further than this (CIEDE2000) from its design colour is said to miss it.
TOLERANCE = 3.0
_HEX = re.compile(r"#([0-9A-Fa-f]{6})\b")
_TEXT = {".yaml", ".yml", ".csv", ".tsv", ".xlsx"}


def colour_uses(editions: list[Edition]) -> dict[str, list[SourceRef]]:
    """Every ``#RRGGBB`` colour in the editions' text inputs, with where it is written."""
    found: dict[str, list[SourceRef]] = {}
    seen: set[Path] = set()
    for edition in editions:
        for path in sorted(edition.inputs):
            if path in seen or path.suffix.lower() not in _TEXT or not path.is_file():
                continue
            seen.add(path)
            display = _display(path, edition.root)
            if path.suffix.lower() == ".xlsx":
                for value, ref in _cells(path, display):
                    for match in _HEX.finditer(value):
                        found.setdefault("#" + match.group(1).upper(), []).append(ref)
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for number, line in enumerate(text.splitlines(), 1):
                for match in _HEX.finditer(line):
                    ref = SourceRef(display, number, match.start() + 1)
                    found.setdefault("#" + match.group(1).upper(), []).append(ref)
    return found


def _cells(path: Path, display: str) -> list[tuple[str, SourceRef]]:
    """Every cell of every sheet of a workbook, with its place."""
    import openpyxl

    from deckforge.sources.tabular import read_table

    try:
        book = openpyxl.load_workbook(path, read_only=True)
        names = book.sheetnames
        book.close()
    except Exception:  # noqa: BLE001 - a workbook that cannot be read is reported by its deck
        return []
    cells: list[tuple[str, SourceRef]] = []
    for name in names:
        table, _ = read_table(path, display, name)
        for row in table.rows if table is not None else ():
            cells.extend((cell.value, cell.ref) for cell in row.values())
    return cells


def _display(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    parts = path.parts
    if "deckforge" in parts:  # a shipped template: named as the package holds it
        return "/".join(parts[len(parts) - 1 - parts[::-1].index("deckforge") :])
    return path.as_posix()


def unreachable(editions: list[Edition], profiles: list[Profile]) -> list[Problem]:
    """A warning for each design colour whose print on a CMYK profile misses it by more
    than :data:`TOLERANCE`, at its first use (once per colour and output profile)."""
    cmyk = {(p.output_intent, p.ink_limit): p for p in profiles if p.cmyk}
    if not cmyk:
        return []
    uses = colour_uses(editions)
    if not uses:
        return []
    import numpy as np

    from deckforge.render import colour, gamut

    names = sorted(uses)
    rgbs = np.array([[int(name[i : i + 2], 16) / 255 for i in (1, 3, 5)] for name in names])
    problems = []
    for (intent, limit), profile in cmyk.items():
        converter = colour.converter(intent, limit, profile.rich_black)
        press = intent.condition_name if intent.condition == "Custom" else intent.condition
        table = gamut.ProfileTable(converter.profile)
        inks = np.array([converter.area((float(r), float(g), float(b))) for r, g, b in rgbs])
        misses = gamut.delta_e_2000(gamut.srgb_to_lab(rgbs), table.lab(inks))
        for name, ink, miss in zip(names, inks, misses, strict=True):
            if miss <= TOLERANCE:
                continue
            refs = uses[name]
            more = f" (and {len(refs) - 1} more places)" if len(refs) > 1 else ""
            printed = "/".join(str(round(v * 100)) for v in ink)
            problems.append(
                Problem(
                    refs[0],
                    f"colour {name}{more} is outside what {press} prints at "
                    f"{limit:g} % ink: it prints as {printed} (C/M/Y/K), ΔE2000 {miss:.1f} "
                    f"from its design; the nearest printable colour is "
                    f"{gamut.printable_srgb(converter, ink)}",
                    WARNING,
                )
            )
    return problems


def by_edition(editions: list[Edition], profiles: list[Profile]) -> dict[tuple[str, str], list]:
    """:func:`unreachable` of each edition under each CMYK profile, by edition and
    profile id: what the build record keeps, so that a build finding an edition up to
    date gives its warnings again."""
    return {(e.id, p.id): unreachable([e], [p]) for e in editions for p in profiles if p.cmyk}
