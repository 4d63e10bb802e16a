"""Print each engine's reading of a build folder, pooled per locale and kind, and for
the Persian files one row each: what every engine's search finds of all the queries
asked of the file, and whether every word and rulebook sentence comes back in order.

usage: python tests/viewers/report.py BUILD_DIR [--files] [--causes]
(the build must hold pnp-a4 and printer files of the shipped decks; --causes counts
each engine's Persian search misses by :func:`cause`)
"""

from __future__ import annotations

import collections
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from viewers.measure import ENGINES, Printed, composed  # noqa: E402
from viewers.printed import printed_files  # noqa: E402
from viewers.read import pooled, read  # noqa: E402

COLUMNS = ("words", "lines", "sentences", "search name", "search zwnj", "search phrase")
PROFILES = ["pnp-a4", "printer"]
#: What each engine's search finds, and the words and sentences it reads, per file.
FILE_COLUMNS = ("search all", "words", "sentences")


#: What keeps a query from being found, first cause first (see tests/test_viewers.py,
#: which names the engines' code behind each).
CAUSES = (
    "composed letter",
    "across pages",
    "across lines",
    "number beside a space",
    "bracket beside punctuation",
    "other",
)


def cause(query: str, printed: Printed) -> str:
    """The first of :data:`CAUSES` that a query of a file has."""
    if any(map(composed, query)):
        return CAUSES[0]
    if query in printed.across_pages:
        return CAUSES[1]
    if query in printed.across:
        return CAUSES[2]
    if re.search("[0-9۰-۹]", query) and " " in query:
        return CAUSES[3]
    if re.search(r"[()\[\]{}«»][.,:،]|[.,:،][()\[\]{}«»]", query):
        return CAUSES[4]
    return CAUSES[5]


def by_cause(results: dict, files: dict, locale: str = "fa") -> dict[str, collections.Counter]:
    """Each engine's search misses over the locale's files, counted by :func:`cause`."""
    out = {engine: collections.Counter() for engine in ENGINES}
    for path, by_engine in results.items():
        if files[path].locale != locale:
            continue
        for engine, result in by_engine.items():
            out[engine].update(cause(q, files[path]) for q in result.missed["search all"])
    return out


def cell(counts, key) -> str:
    hit, total = counts.get(key, (0, 0))
    return f"{100 * hit / total:.1f} %" if total else "–"


def per_file(results: dict, files: dict, locale: str = "fa") -> list[list[str]]:
    """One row per file of the locale (path, queries, then each engine's share of each
    of :data:`FILE_COLUMNS`), then a row per edition and one for all of them."""
    rows = []
    paths = sorted(path for path in results if files[path].locale == locale)
    groups = [(path, [path]) for path in paths]
    editions = sorted({path.split("/")[0] for path in paths})
    groups += [
        (f"{edition} (all)", [p for p in paths if p.startswith(edition + "/")])
        for edition in editions
    ]
    groups.append((f"{locale} (all)", paths))
    for name, members in groups:
        totals: dict = {engine: {} for engine in ENGINES}
        for path in members:
            for engine, result in results[path].items():
                for key, (hit, total) in result.counts.items():
                    was = totals[engine].get(key, (0, 0))
                    totals[engine][key] = (was[0] + hit, was[1] + total)
        asked = totals[ENGINES[0]].get("search all", (0, 0))[1]
        cells = [cell(totals[engine], key) for key in FILE_COLUMNS for engine in ENGINES]
        rows.append([name, str(asked), *cells])
    return rows


def main(argv: list[str]) -> None:
    build = Path(argv[0])
    decks = Path(__file__).resolve().parents[2] / "decks"
    files = printed_files(decks, PROFILES)
    files = {p: f for p, f in files.items() if (build / p).is_file()}
    results = read(build, files)
    print("| locale | kind | engine | " + " | ".join(COLUMNS) + " |")
    print("|---" * (3 + len(COLUMNS)) + "|")
    groups = sorted({(f.locale, f.kind) for f in files.values()})
    for locale, kind in [("fa", "all"), ("en", "all"), *groups]:
        match = {"locale": locale} if kind == "all" else {"locale": locale, "kind": kind}
        totals = pooled(results, files, **match)
        for engine in ENGINES:
            cells = " | ".join(cell(totals[engine], key) for key in COLUMNS)
            print(f"| {locale} | {kind} | {engine} | {cells} |")
    heads = [f"{key} {engine}" for key in FILE_COLUMNS for engine in ENGINES]
    print("\n| file | queries | " + " | ".join(heads) + " |")
    print("|---" * (2 + len(heads)) + "|")
    for row in per_file(results, files):
        print("| " + " | ".join(row) + " |")
    if "--causes" in argv:
        print("\n| engine | " + " | ".join(CAUSES) + " |")
        print("|---" * (1 + len(CAUSES)) + "|")
        for engine, counts in by_cause(results, files).items():
            print(f"| {engine} | " + " | ".join(str(counts[c]) for c in CAUSES) + " |")
    if "--files" in argv:
        for path, by_engine in results.items():
            for engine, result in by_engine.items():
                for key, missed in result.missed.items():
                    if missed and key != "search all":
                        print(path, engine, key, missed[:6])


if __name__ == "__main__":
    main(sys.argv[1:])
