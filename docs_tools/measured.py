"""The page of the latest figures `make bench` keeps in bench/results.json, each section
with the date it was measured: ``python docs_tools/measured.py > docs/explanation/measured.md``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[1] / "bench" / "results.json"


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def _rows(prefix: str, section: dict) -> list[str]:
    rows = []
    for key, value in section.items():
        if key in ("date", "runs", "cores"):
            continue
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            rows += _rows(f"{name}: ", value)
        else:
            rows.append(f"| {name} | {_value(value)} |")
    return rows


def page(results: dict) -> str:
    """Every section of the results as a table: seconds, megabytes and ratios as measured."""
    out = [
        "# Latest measurements",
        "",
        "What the last `make bench` measured, as `bench/results.json` keeps it: times in",
        "seconds (wall clock, `cpu` for processor time), memory (`rss`) in megabytes. What",
        "each figure means is on the [Performance](performance.md) and [colour](colour.md) pages.",
        "",
    ]
    for name, section in results.items():
        out += [f"## {name}", ""]
        if isinstance(section, list):
            out += ["| target | value | met | measured |", "|---|---|---|---|"]
            out += [
                f"| {t['target']} | {t['value']} | {_value(t['met'])} | {t['date']} |"
                for t in section
            ]
        else:
            out += [
                f"Measured {section['date']}, {section['runs']} runs on {section['cores']} cores.",
                "",
                "| figure | value |",
                "|---|---|",
                *_rows("", section),
            ]
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(page(json.loads(RESULTS.read_text(encoding="utf-8"))))
