"""How well a CMYK output profile prints colours: CIEDE2000 against the design colour,
through the profile's own CMYK-to-Lab table.

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


def printable_srgb(converter, cmyk) -> str:
    """The sRGB colour (``#RRGGBB``) a CMYK colour prints as through ``converter``'s
    profile: for a colour outside the gamut, the nearest one the press reaches."""
    return "#" + "".join(f"{v:02X}" for v in converter.printed_rgb(tuple(cmyk)))
