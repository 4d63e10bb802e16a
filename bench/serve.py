"""Save-to-screen time of ``deckforge serve``: ``python bench/serve.py`` (part of `make bench`).

A copy of the project is served (the English edition, the printer profile) and a deck
page opened in headless Chromium (tests/browser.py); one card's name is then saved
``BENCH_RUNS`` times, in the Places deck (144 cards) and in the Mess deck (400 cards),
and each time the time is taken from the file's write to the new image's load event in
the page. The server's own account of each round splits it: the build (the sources
modelled, and a file of just the changed card laid out and drawn), the preview (the card
files read, the images whose drawing changed drawn, the pages written) and telling the
pages; what is left is noticing the save (watchfiles) and the browser fetching and
decoding the image. How a full rebuild of the deck's file divides is given beside it.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from run import RUNS, write_results  # noqa: E402 - bench/run.py, beside this file

from browser import Browser, find_chromium  # noqa: E402 - from the tests folder, above

ROUND = re.compile(
    r"built in (?P<build>[\d.]+) s, (?P<images>\d+) image\(s\) drawn in (?P<draw>[\d.]+) s, "
    r"pages told in (?P<notify>[\d.]+) ms"
)
#: Every image load in the page, with the time it happened (milliseconds since the epoch).
WATCH_LOADS = """window.loads = [];
document.addEventListener("load", (event) => {
  if (event.target.tagName === "IMG")
    window.loads.push({src: event.target.src, at: performance.timeOrigin + performance.now()});
}, true);"""
#: The decks timed: the page, the file, and the text of one card's name in it.
DECKS = {
    "places": ("guess-the-mess/places.yaml", "{en: Kitchen,", "{{en: Kitchen {},"),
    "mess": ("guess-the-mess/mess.yaml", "{en: Apple,", "{{en: Apple {},"),
}


def _lines(process: subprocess.Popen) -> queue.Queue:
    """The server's output lines, as they come."""
    lines: queue.Queue = queue.Queue()

    def read() -> None:
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return lines


def _next_round(lines: queue.Queue, timeout: float = 300) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = ROUND.search(lines.get(timeout=timeout))
        if found:
            return {k: float(v) for k, v in found.groupdict().items()}
    raise TimeoutError("the server finished no round")


def time_deck(browser: Browser, lines: queue.Queue, decks: Path, port: int, deck: str) -> dict:
    """Medians of the save-to-screen time of one card of ``deck`` and of its parts."""
    source, old, new = DECKS[deck]
    path = decks / source
    text = path.read_text(encoding="utf-8")
    browser.open(f"http://127.0.0.1:{port}/serve/guess-the-mess-en/{deck}.html")
    browser.until("window.deckforgeLive && window.deckforgeLive.updates >= 1")
    browser.evaluate(WATCH_LOADS)
    first = "document.querySelector('ol.faces img')"
    runs = []
    try:
        for run in range(1, RUNS + 1):
            written = time.time() * 1000
            path.write_text(text.replace(old, new.format(run), 1), encoding="utf-8")
            loaded = browser.until(
                f"(() => {{ const src = {first}.src; return src.includes('?v=') && "
                f"window.loads.filter((l) => l.src === src).map((l) => l.at)[0]; }})()",
            )
            parts = _next_round(lines)
            total = (loaded - written) / 1000
            parts["rest"] = total - parts["build"] - parts["draw"] - parts["notify"] / 1000
            runs.append({"save_to_screen": total, **parts})
            browser.evaluate("window.loads = []")
    finally:
        path.write_text(text, encoding="utf-8")
        _next_round(lines)
    figures = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
    figures["max_save_to_screen"] = max(r["save_to_screen"] for r in runs)
    return figures


#: Where the processor time of a build goes, by the folder of the code it is spent in.
PARTS = (
    ("layout", ("/deckforge/templates/", "/deckforge/layout/", "/deckforge/text/", "/bidi/",
                "/arabic_reshaper/", "/uharfbuzz/")),
    ("drawing", ("/deckforge/render/", "/deckforge/rl/", "/reportlab/", "/rlaccel/", "/zlib")),
    ("sources", ("/deckforge/sources/", "/deckforge/kinds/", "/yaml/", "/jsonschema/",
                 "/fastjsonschema/", "/deckforge/model.py")),
)  # fmt: skip


def _part(file: str) -> str:
    return next((name for name, folders in PARTS if any(f in file for f in folders)), "other")


def build_shares(decks: Path, out: Path, deck: str) -> dict[str, float]:
    """How the processor time of rebuilding ``deck`` after one card's save divides between
    reading the sources, laying out (templates, text), drawing (the PDF) and the rest,
    measured in this process with cProfile (each function's own time, by its folder)."""
    import cProfile
    import pstats

    from deckforge.cli import main as deckforge

    source, old, new = DECKS[deck]
    path = decks / source
    text = path.read_text(encoding="utf-8")
    args = ["--decks", str(decks), "build", "--edition", "guess-the-mess-en"]
    args += ["--profile", "printer", "--out", str(out), "--quiet", "--jobs", "1"]
    deckforge(args)
    path.write_text(text.replace(old, new.format("shares"), 1), encoding="utf-8")
    profile = cProfile.Profile()
    try:
        profile.enable()
        deckforge(args)
        profile.disable()
    finally:
        path.write_text(text, encoding="utf-8")
    spent: dict[str, float] = {"sources": 0.0, "layout": 0.0, "drawing": 0.0, "other": 0.0}
    for (file, _, _), (_, _, own, _, callers) in pstats.Stats(profile).stats.items():
        if file == "~" and callers:
            # A built-in function (zlib, hashing, unpickling): the code that called it most.
            file = max(callers.items(), key=lambda item: item[1][2])[0][0]
        spent[_part(file.replace("\\", "/"))] += own
    total = sum(spent.values())
    return {name: value / total for name, value in spent.items()}


def main() -> None:
    """Time both decks and write the medians to bench/results.json."""
    chromium = find_chromium()
    if chromium is None:
        sys.exit("bench/serve.py needs Chromium (Debian's chromium)")
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        shutil.copytree(ROOT / "decks", scratch / "decks")
        environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
        process = subprocess.Popen(
            [sys.executable, "-m", "deckforge", "--decks", str(scratch / "decks"), "serve"]
            + ["--edition", "guess-the-mess-en", "--port", "0", "--out", str(scratch / "build")],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=environment,
        )
        browser = Browser(chromium, scratch / "chromium")
        try:
            lines = _lines(process)
            address = lines.get(timeout=120)
            port = int(re.search(r":(\d+)/", address).group(1))
            _next_round(lines)
            decks = scratch / "decks"
            figures = {deck: time_deck(browser, lines, decks, port, deck) for deck in DECKS}
        finally:
            browser.close()
            process.send_signal(signal.SIGINT)
            process.wait(timeout=60)
        for deck, found in figures.items():
            shares = build_shares(decks, scratch / "shares", deck)
            for part, share in shares.items():
                found[f"full_build_{part}"] = share
    for deck, found in figures.items():
        print(
            f"{deck}: save to screen {found['save_to_screen']:.2f} s (median of {RUNS}; "
            f"max {found['max_save_to_screen']:.2f} s): build {found['build']:.2f} s (a full "
            f"rebuild of the deck's file: sources {found['full_build_sources']:.0%}, layout "
            f"{found['full_build_layout']:.0%}, drawing the PDF {found['full_build_drawing']:.0%}, "
            f"the rest {found['full_build_other']:.0%}), preview "
            f"{found['draw']:.2f} s ({found['images']:.0f} images), telling the pages "
            f"{found['notify']:.1f} ms, noticing the save and loading the image "
            f"{found['rest']:.2f} s"
        )
    mess = figures["mess"]["save_to_screen"]
    checks = [("serve: one Mess card's save to screen at most 1 s", mess <= 1.0, f"{mess:.2f} s")]
    write_results({"serve": figures}, checks)


if __name__ == "__main__":
    main()
