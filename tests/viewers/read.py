"""Every engine's reading of a build's files, measured (see :mod:`viewers.measure`)."""

from __future__ import annotations

from pathlib import Path

from viewers import engines
from viewers.measure import ENGINES, Printed, measure, pdfjs_query, queries


def read(build: Path, files: dict[str, Printed]) -> dict[str, dict]:
    """Each file's results per engine, by its path in the build folder."""
    asked = {path: list(queries(printed)) for path, printed in files.items()}
    pdfjs = engines.pdfjs(
        [
            {"pdf": str(build / path), "queries": sorted({pdfjs_query(q) for q in asked[path]})}
            for path in files
        ]
    )
    poppler = engines.poppler_find(
        [{"pdf": str(build / path), "queries": asked[path]} for path in files]
    )
    results = {}
    for path, printed in files.items():
        pdf = build / path
        js = pdfjs[str(pdf)]
        pages = {
            "pdfium": engines.pdfium_pages(pdf),
            "pdfjs": js["pages"],
            "poppler": engines.poppler_pages(pdf),
        }
        found = {
            "pdfium": engines.pdfium_find(pdf, asked[path]),
            "pdfjs": {q: js["found"][pdfjs_query(q)] > 0 for q in asked[path]},
            "poppler": poppler[str(pdf)],
        }
        results[path] = measure(printed, pages, found)
    return results


def pooled(results: dict[str, dict], files: dict[str, Printed], **match) -> dict:
    """Counts summed over the files whose locale and kind match, per engine."""
    totals: dict = {engine: {} for engine in ENGINES}
    for path, by_engine in results.items():
        printed = files[path]
        if any(getattr(printed, key) != value for key, value in match.items()):
            continue
        for engine, result in by_engine.items():
            for key, (hit, total) in result.counts.items():
                was = totals[engine].get(key, (0, 0))
                totals[engine][key] = (was[0] + hit, was[1] + total)
    return totals
