"""Print each engine's reading of a build folder, pooled per locale and kind.

usage: python tests/viewers/report.py BUILD_DIR [--files]
(the build must hold pnp-a4 and printer files of the shipped decks)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from viewers.measure import ENGINES  # noqa: E402
from viewers.printed import printed_files  # noqa: E402
from viewers.read import pooled, read  # noqa: E402

COLUMNS = ("words", "lines", "sentences", "search name", "search zwnj", "search phrase")
PROFILES = ["pnp-a4", "printer"]


def cell(counts, key) -> str:
    hit, total = counts.get(key, (0, 0))
    return f"{100 * hit / total:.1f} %" if total else "–"


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
    if "--files" in argv:
        for path, by_engine in results.items():
            for engine, result in by_engine.items():
                for key, missed in result.missed.items():
                    if missed and key != "search all":
                        print(path, engine, key, missed[:6])


if __name__ == "__main__":
    main(sys.argv[1:])
