"""How well a CMYK output profile prints colours: CIEDE2000 against the design colour,
and against the best any ink mixture within the ink limit reaches on the same profile.

A profile's CMYK-to-Lab table (ICC ``lut16``/``lut8``, as version 2 profiles and
Argyll's hold it) is evaluated here in floating point the way littleCMS interpolates
it, so a separation is judged by the profile a RIP would read, not by a model behind it.
"""

from __future__ import annotations

import struct

import numpy as np

from deckforge.render import separation

#: The sRGB primaries to CIE XYZ, Bradford-adapted to D50 as ICC profiles hold sRGB.
_SRGB_TO_XYZ = np.array(
    [
        [0.4360747, 0.3850649, 0.1430804],
        [0.2225045, 0.7168786, 0.0606169],
        [0.0139322, 0.0971045, 0.7141733],
    ]
)


def srgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB (D50) of sRGB colours (..., 3) in 0–1, from the sRGB definition."""
    rgb = np.asarray(rgb, dtype=float)
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return separation.xyz_to_lab(100 * lin @ _SRGB_TO_XYZ.T)


def delta_e_2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 colour differences of Lab arrays (..., 3): the length of the three parts
    the separation's solver works with."""
    return np.sqrt(np.sum(separation.delta_e_parts(lab1, lab2) ** 2, axis=-1))


class ProfileTable:
    """A CMYK profile's colour table (CMYK to media-relative Lab) for one intent."""

    def __init__(self, data: bytes, intent: int = 1) -> None:
        tags = {}
        for i in range(struct.unpack(">I", data[128:132])[0]):
            sig, start, size = struct.unpack(">4sII", data[132 + 12 * i : 144 + 12 * i])
            tags[sig] = data[start : start + size]
        body = tags.get(f"A2B{intent}".encode()) or tags[b"A2B0"]
        self.xyz_pcs = data[20:24] == b"XYZ "
        kind = body[:4]
        if kind not in (b"mft2", b"mft1"):
            raise ValueError(f"unsupported colour table {kind!r}")
        inputs, outputs, points = body[8], body[9], body[10]
        if inputs != 4:
            raise ValueError("not a CMYK profile")
        if kind == b"mft2":
            n_in, n_out = struct.unpack(">2H", body[48:52])
            pos, width, scale, code = 52, 2, 65535.0, ">{}H"
        else:
            n_in = n_out = 256
            pos, width, scale, code = 48, 1, 255.0, ">{}B"

        def read(count: int) -> np.ndarray:
            nonlocal pos
            values = struct.unpack(code.format(count), body[pos : pos + count * width])
            pos += count * width
            return np.array(values, dtype=float) / scale

        self.in_curves = read(inputs * n_in).reshape(inputs, n_in)
        self.clut = read(points**inputs * outputs).reshape((points,) * inputs + (outputs,))
        self.out_curves = read(outputs * n_out).reshape(outputs, n_out)
        self.points = points
        self.wide = kind == b"mft2"  # version 2's 16-bit Lab: L 0–100 as 0–0xFF00

    def lab(self, cmyk: np.ndarray) -> np.ndarray:
        """The media-relative Lab of CMYK values (n, 4) in 0–1."""
        x = np.clip(np.asarray(cmyk, dtype=float), 0.0, 1.0)
        curved = np.stack([_curve(self.in_curves[i], x[:, i]) for i in range(4)], axis=1)
        raw = _interpolate4(self.clut, curved * (self.points - 1))
        v = np.stack([_curve(self.out_curves[i], raw[:, i]) for i in range(3)], axis=1)
        if self.xyz_pcs:
            return separation.xyz_to_lab(v * 65535 / 32768 * 100)
        top = 65535 / 256 if self.wide else 255.0
        lightness = v[:, 0] * (65535 / 652.80 if self.wide else 100.0)
        return np.stack([lightness, v[:, 1] * top - 128, v[:, 2] * top - 128], axis=1)


def _curve(table: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.interp(x, np.linspace(0.0, 1.0, len(table)), table)


def _interpolate4(clut: np.ndarray, x: np.ndarray) -> np.ndarray:
    """littleCMS's four-input interpolation: linear along the first input between two
    tetrahedral interpolations of the other three."""
    g = clut.shape[0]
    first = np.minimum(np.floor(x[:, 0]).astype(int), g - 2)
    t = (x[:, 0] - first)[:, None]
    low = _tetrahedral(clut, first, x[:, 1:])
    high = _tetrahedral(clut, first + 1, x[:, 1:])
    return low * (1 - t) + high * t


def _tetrahedral(clut: np.ndarray, first: np.ndarray, x: np.ndarray) -> np.ndarray:
    g = clut.shape[0]
    base = np.minimum(np.floor(x).astype(int), g - 2)
    r = x - base
    order = np.argsort(-r, axis=1)  # the largest fraction first
    fractions = np.take_along_axis(r, order, axis=1)
    corner = base.copy()
    value = clut[first, corner[:, 0], corner[:, 1], corner[:, 2]]
    result = value * (1 - fractions[:, 0:1])
    rows = np.arange(len(x))
    for step in range(3):
        corner[rows, order[:, step]] += 1
        value = clut[first, corner[:, 0], corner[:, 1], corner[:, 2]]
        after = fractions[:, step + 1 : step + 2] if step < 2 else 0.0
        result = result + value * (fractions[:, step : step + 1] - after)
    return result


def _mixtures(step: float, limit: float) -> np.ndarray:
    levels = np.round(np.arange(0.0, 1.0 + 1e-9, step), 6)
    grid = np.stack(np.meshgrid(levels, levels, levels, levels, indexing="ij"), -1)
    grid = grid.reshape(-1, 4)
    return grid[grid.sum(axis=1) <= limit + 1e-9]


def best_reachable(table: ProfileTable, labs: np.ndarray, limit: float) -> np.ndarray:
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
        de = delta_e_2000(labs[part, None, :], coarse_lab[near])
        centre = cands[np.arange(len(cands)), de.argmin(axis=1)]
        fine = np.clip(centre[:, None, :] + offsets[None], 0.0, 1.0)
        ok = fine.sum(axis=2) <= limit + 1e-9
        fine_lab = table.lab(fine.reshape(-1, 4)).reshape(fine.shape[:2] + (3,))
        fine_de = np.where(ok, delta_e_2000(labs[part, None, :], fine_lab), np.inf)
        best[part] = np.minimum(fine_de.min(axis=1), de.min(axis=1))
    return best


def printable_srgb(converter, cmyk) -> str:
    """The sRGB colour (``#RRGGBB``) a CMYK colour prints as through ``converter``'s
    profile: for a colour outside the gamut, the nearest one the press reaches."""
    return "#" + "".join(f"{v:02X}" for v in converter.printed_rgb(tuple(cmyk)))


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
    table = ProfileTable(converter.profile, 1)
    design = srgb_to_lab(rgbs)
    inks = np.array([converter.area(tuple(float(v) for v in rgb)) for rgb in rgbs])
    printed = delta_e_2000(design, table.lab(inks))
    return inks, printed, best_reachable(table, design, limit / 100.0)
