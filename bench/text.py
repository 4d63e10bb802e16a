"""Microbenchmark of the text fitter: `python bench/text.py`.

Fits every text of the shipped decks (English and Persian names, prompts, rulebook
paragraphs) into a card label box and a rulebook column, with every cache of the text
engine emptied first, as a build's first sight of each text would. Prints the median of
several runs (with min and max) of the plain texts and of the same texts with inline
markup (a bold word and an icon in each) and their ratio.

Times are the process's CPU time, which other work on a shared machine disturbs less
than wall time; still, read medians and ratios, not single runs.
"""

from __future__ import annotations

import os
import re
import statistics
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
RUNS = int(os.environ.get("BENCH_RUNS", "7"))
_ARABIC = re.compile("[\u0600-\u06ff]")


def texts() -> list[tuple[str, str]]:
    """(text, locale) for every string of the shipped decks that a card or page shows."""
    found: list[tuple[str, str]] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("id", "kind", "colour", "icon", "source", "category", "art"):
                    continue
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, str) and any(ch.isalpha() for ch in node):
            found.append((node, "fa" if _ARABIC.search(node) else "en"))

    for path in sorted((ROOT / "decks").rglob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return found


def marked(text: str) -> str:
    """The text with its second word bold and an icon after its first."""
    words = text.split(" ")
    if len(words) < 3:
        return f"**{text}** :star:"
    return " ".join([words[0], ":star:", f"**{words[1]}**", *words[2:]])


def clear_caches() -> None:
    import importlib

    for name in ("fit", "script", "markup"):
        try:
            module = importlib.import_module(f"deckforge.text.{name}")
        except ImportError:
            continue  # a version without markup
        for attr, value in vars(module).items():
            if hasattr(value, "cache_clear") and attr != "_reshaper":
                value.cache_clear()


def run(items: list[tuple[str, str]]) -> float:
    from deckforge.text.fit import FitError, TextStyle, fit

    label, column = TextStyle(12, 7, "bold", max_lines=3), TextStyle(10, 10, leading=1.3)
    clear_caches()
    started = time.process_time()
    for text, locale in items:
        for width, height, style in ((150.0, 60.0, label), (300.0, 10_000.0, column)):
            try:
                fit(text, width, height, style, locale)
            except FitError:
                pass  # a long paragraph in a label box: the fitter's work is done all the same
    return time.process_time() - started


def summary(name: str, values: list[float]) -> float:
    median = statistics.median(values)
    print(
        f"  {name:<40} median {median * 1000:8.1f} ms   (min {min(values) * 1000:.1f}, "
        f"max {max(values) * 1000:.1f}, {len(values)} runs)"
    )
    return median


def main() -> None:
    from deckforge.text import fonts

    for family in fonts.FAMILIES:  # cut and register the faces before timing
        for style in getattr(fonts, "STYLES", (fonts.REGULAR, fonts.BOLD)):
            fonts.face(family, style)
    items = texts()
    print(f"text fitter: {len(items)} texts, 2 boxes each, {RUNS} runs, caches emptied")
    run(items)  # warm the interpreter and the fonts
    plain = summary("plain text", [run(items) for _ in range(RUNS)])
    try:
        from deckforge.text import markup  # noqa: F401
    except ImportError:
        return  # a version without markup
    with_markup = [(marked(text), locale) for text, locale in items]
    rich = summary("the same with a bold word and an icon", [run(with_markup) for _ in range(RUNS)])
    print(f"  {'markup costs':<40} {rich / plain:8.2f} × plain")


if __name__ == "__main__":
    main()
