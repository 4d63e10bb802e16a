"""What the separation's tests and its benchmark (bench/colour.py) measure: the design
colours of the shipped and starter templates and games, the colours the press profile
once separated worst, the sets of colours compared, and a shop's profile made by Argyll."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np

from deckforge.render import gamut, separation

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
    return {
        "hard": rgb(HARD),
        "design": rgb(design_colours()),
        "grid": grid_colours(9),
        "grey": grey_axis(52),
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


# --- the best any mixture of inks reaches, and what is printed ---------------------------


def _mixtures(step: float, limit: float) -> np.ndarray:
    levels = np.round(np.arange(0.0, 1.0 + 1e-9, step), 6)
    grid = np.stack(np.meshgrid(levels, levels, levels, levels, indexing="ij"), -1)
    grid = grid.reshape(-1, 4)
    return grid[grid.sum(axis=1) <= limit + 1e-9]


def best_reachable(table: gamut.ProfileTable, labs: np.ndarray, limit: float) -> np.ndarray:
    """For each Lab colour (n, 3), the least CIEDE2000 any mixture of a 4 % grid of the
    four inks within ``limit`` (a fraction) reaches, refined on a 2 % grid around the
    best found."""
    coarse = _mixtures(0.04, limit)
    coarse_lab = table.lab(coarse)
    labs = np.asarray(labs, dtype=float)
    # Candidates by a weighted Lab distance close to CIEDE2000, as one product of
    # matrices: |W (t - l)|² = tᵀMt - 2 tᵀM l + lᵀM l with M = WᵀW.
    m = np.swapaxes(separation.weights(labs), 1, 2) @ separation.weights(labs)
    lin = -2 * (m @ labs[:, :, None])[:, :, 0]
    pairs = [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)]
    quad = np.stack([m[:, i, j] * (1 if i == j else 2) for i, j in pairs], axis=1)
    left = np.concatenate([lin, quad], axis=1)
    right = np.concatenate(
        [coarse_lab, np.stack([coarse_lab[:, i] * coarse_lab[:, j] for i, j in pairs], 1)], 1
    )
    right = right.T.astype(np.float32)  # candidates only: single precision is plenty
    left = left.astype(np.float32)
    offsets = _mixtures(0.02, 4.0)
    offsets = offsets[(offsets <= 0.08 + 1e-9).all(axis=1)] - 0.04
    best = np.empty(len(labs))
    for lo in range(0, len(labs), 64):
        part = slice(lo, lo + 64)
        near = np.argpartition(left[part] @ right, 48, axis=1)[:, :48]
        cands = coarse[near]  # (p, 48, 4)
        de = gamut.delta_e_2000(labs[part, None, :], coarse_lab[near])
        centre = cands[np.arange(len(cands)), de.argmin(axis=1)]
        fine = np.clip(centre[:, None, :] + offsets[None], 0.0, 1.0)
        ok = fine.sum(axis=2) <= limit + 1e-9
        fine_lab = table.lab(fine.reshape(-1, 4)).reshape(fine.shape[:2] + (3,))
        fine_de = np.where(ok, gamut.delta_e_2000(labs[part, None, :], fine_lab), np.inf)
        best[part] = np.minimum(fine_de.min(axis=1), de.min(axis=1))
    return best


def grid_colours(levels: int = 9) -> np.ndarray:
    """sRGB colours (n, 3) in 0–1, ``levels`` a channel, as 8-bit values hold them."""
    steps = np.round(np.linspace(0, 255, levels)) / 255
    return np.stack(np.meshgrid(steps, steps, steps, indexing="ij"), -1).reshape(-1, 3)


def grey_axis(count: int = 52) -> np.ndarray:
    """Neutral sRGB colours (n, 3) from black to white, as 8-bit values hold them."""
    steps = np.round(np.linspace(0, 255, count)) / 255
    return np.repeat(steps[:, None], 3, axis=1)


def summary(values: np.ndarray) -> dict[str, float]:
    """Mean, 95th percentile and maximum of some differences."""
    values = np.asarray(values, dtype=float)
    return {
        "mean": float(values.mean()),
        "p95": float(np.percentile(values, 95)),
        "max": float(values.max()),
    }


def printed_and_best(converter, rgbs: np.ndarray, limit: float) -> tuple[np.ndarray, ...]:
    """For sRGB colours (n, 3) in 0–1: the CMYK ``converter`` prints each as (a large
    area's colour), the CIEDE2000 of that print on the converter's own profile, and the
    least any mixture within ``limit`` per cent reaches (:func:`best_reachable`)."""
    table = gamut.ProfileTable(converter.profile, 1)
    design = gamut.srgb_to_lab(rgbs)
    inks = np.array([converter.area(tuple(float(v) for v in rgb)) for rgb in rgbs])
    printed = gamut.delta_e_2000(design, table.lab(inks))
    return inks, printed, best_reachable(table, design, limit / 100.0)
