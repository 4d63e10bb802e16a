"""Colour accuracy of CMYK separations: ``make bench`` (``BENCH_ONLY=colour``).

For the default press profile, and for a shop's profile made here from FOGRA's data by
Argyll's ``colprof`` (as ``--output-profile`` would be given it), every design colour of
the shipped and starter templates and games, a 729-colour sRGB grid (9 levels a channel)
and the grey axis are converted as printer-cmyk converts large areas, read back through
the profile's own CMYK-to-Lab table, and compared (CIEDE2000) with the best any mixture
within 240 % reaches on that profile (a 4 % then 2 % grid search): the mean, 95th
percentile and worst of printed minus best. Also the processor time the default profile
takes to make.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from colours_support import (  # noqa: E402 - tests/, above
    FOGRA39,
    HARD,
    LIMIT,
    colour_sets,
    printed_and_best,
    summary,
)
from colours_support import shop_profile as made_shop_profile  # noqa: E402


def shop_profile(folder: Path, quality: str = "m") -> Path | None:
    """A CMYK profile made by Argyll from FOGRA39L (None without Argyll or the data)."""
    if shutil.which("colprof") is None or not FOGRA39.is_file():
        return None
    return made_shop_profile(folder, quality)


def measure(converter) -> dict:
    """Printed minus best reachable ΔE2000 (mean, p95, max) of each set of colours."""
    figures = {}
    for name, rgbs in colour_sets().items():
        inks, printed, best = printed_and_best(converter, rgbs, LIMIT)
        figures[name] = {**summary(printed - best), "most_ink": float(inks.sum(1).max())}
        if name == "hard":
            figures[name]["each"] = dict(zip(HARD, (printed - best).round(2).tolist(), strict=True))
    return figures


def separation(scratch: Path) -> tuple[list[tuple], dict]:
    """The colour figures and their targets."""
    from deckforge.profiles import OutputIntent
    from deckforge.render import colour, press

    started = time.process_time()
    press.make_profile(LIMIT)
    made = time.process_time() - started
    figures = {"profile_cpu": made, "default": measure(colour.Converter(OutputIntent(), LIMIT))}
    shop = shop_profile(scratch)
    if shop is not None:
        figures["shop"] = measure(colour.Converter(OutputIntent.from_file(shop), LIMIT))
    default = figures["default"]
    checks = []
    for name in ("design", "grid"):
        p95, worst = default[name]["p95"], default[name]["max"]
        checks.append((f"colour, {name}: printed ΔE − best at 240 %, p95 ≤ 0.5",
                       p95 <= 0.5, f"{p95:.2f}"))  # fmt: skip
        checks.append((f"colour, {name}: printed ΔE − best at 240 %, worst ≤ 1.0",
                       worst <= 1.0, f"{worst:.2f}"))  # fmt: skip
    hard = max(default["hard"]["each"].values())
    checks.append(("colour: the six hard colours within 0.5 of their best", hard <= 0.5,
                   f"{hard:.2f}"))  # fmt: skip
    for name, values in default.items():
        print(f"  default profile, {name:<7} " + _line(values))
    for name, values in figures.get("shop", {}).items():
        print(f"  Argyll profile,  {name:<7} " + _line(values))
    print(f"  default profile made in {made:.2f} s of processor time")
    return checks, figures


def _line(values: dict) -> str:
    return f"mean {values['mean']:.2f}  p95 {values['p95']:.2f}  max {values['max']:.2f}"


if __name__ == "__main__":
    import json
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        found, figures = separation(Path(folder))
    print(json.dumps(figures, indent=1))
