"""What the separation's tests and its benchmark (bench/colour.py) measure: the design
colours of the shipped and starter templates and games, the colours the press profile
once separated worst, the sets of colours compared, and a shop's profile made by Argyll."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
#: The total ink limit printer-cmyk separates to, in per cent.
LIMIT = 240.0
#: FOGRA's measurements of the FOGRA39 condition (Debian's icc-profiles-free).
FOGRA39 = Path("/usr/share/color/icc/FOGRA39L.ti3")
#: The colours whose separation the press profile once got furthest wrong.
HARD = ("#0B3736", "#1A1A2E", "#200000", "#D55E00", "#5B8E23", "#4B3F9E")
#: The package folders whose files hold design colours.
FOLDERS = ("templates/shipped", "authoring/new_game", "sources/games")


def design_colours() -> list[str]:
    """Every ``#RRGGBB`` in the shipped templates, games and starter project."""
    found = set()
    for folder in FOLDERS:
        for path in (ROOT / "src" / "deckforge" / folder).rglob("*"):
            if path.suffix in (".yaml", ".csv"):
                found |= {h.upper() for h in re.findall(r"#[0-9A-Fa-f]{6}\b", path.read_text())}
    return sorted(found)


def rgb(names) -> np.ndarray:
    """``#RRGGBB`` colours as rows of sRGB values from 0 to 1."""
    return np.array([[int(h[i : i + 2], 16) / 255 for i in (1, 3, 5)] for h in names])


def colour_sets() -> dict[str, np.ndarray]:
    """The colours measured, by set: the hard ones, the design colours, a 729-colour
    grid (9 levels a channel) and the grey axis."""
    from deckforge.render import gamut

    return {
        "hard": rgb(HARD),
        "design": rgb(design_colours()),
        "grid": gamut.grid_colours(9),
        "grey": gamut.grey_axis(52),
    }


def shop_profile(folder: Path, quality: str) -> Path:
    """A shop's CMYK profile, made by Argyll's colprof from FOGRA's data at 240 % (``-q``
    quality l, m or h), in ``folder``."""
    shutil.copy(FOGRA39, folder / FOGRA39.name)
    subprocess.run(
        ["colprof", f"-q{quality}", "-kr", "-l240", "-D", "Argyll FOGRA39", "-O", "shop.icc",
         FOGRA39.stem], cwd=folder, check=True, capture_output=True,
    )  # fmt: skip
    return folder / "shop.icc"
