"""deckforge's default CMYK press profile: an ICC profile made from a model of FOGRA39.

No CMYK ICC profile that may be redistributed comes with PyPI or Debian's free
packages (Debian's ``icc-profiles-free`` holds FOGRA's characterization *data*, not a
profile), so deckforge computes one. The press is modelled as a Yule–Nielsen modified
Neugebauer mixture of its 16 solid overprints, with one tone value curve per ink. The
model's numbers below were fitted to the FOGRA39L data set (Fogra; distributed by
Kai-Uwe Behrmann under the zlib licence in ``icc-profiles-free``): against its 1,617
measured patches the model is off by a mean ΔE2000 of 1.6 (95 % within 3.2, at most
5.0), so it stands for the FOGRA39 condition (ISO 12647-2:2004, coated paper) as a
press profile, not as a proof.

The profile is ICC version 2 (what PDF/X-1a and every RIP read) with 16-bit lookup
tables: CMYK to Lab from the model, and Lab to CMYK by inverting it with grey component
replacement and the total ink limit built in. It is made once per ink limit and kept in
deckforge's cache folder.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from functools import lru_cache

from deckforge import cache as kept

#: The profile's name in its description tag, before its ink limit.
DESCRIPTION = "deckforge FOGRA39 model"

#: CIE XYZ (D50, 2°) of the 16 solid overprints, by which of C, M, Y, K print (FOGRA39L).
PRIMARIES = {
    "0000": (84.48, 87.62, 74.57),
    "0001": (2.02, 2.10, 1.73),
    "0010": (69.17, 74.16, 7.04),
    "0011": (1.84, 2.04, 0.82),
    "0100": (33.03, 16.79, 15.01),
    "0101": (1.61, 1.18, 0.89),
    "0110": (30.20, 16.02, 2.30),
    "0111": (1.56, 1.31, 0.65),
    "1000": (15.02, 22.93, 52.85),
    "1001": (0.91, 1.18, 1.79),
    "1010": (8.16, 18.42, 6.74),
    "1011": (0.89, 1.31, 0.85),
    "1100": (5.67, 4.10, 15.67),
    "1101": (0.99, 0.87, 1.08),
    "1110": (3.66, 3.80, 3.13),
    "1111": (0.93, 0.97, 0.69),
}
#: Each ink's effective coverage at 0, 10, … 100 % tone value (its dot gain).
CURVES = (
    (0.0, 0.1034, 0.2095, 0.3145, 0.4244, 0.5311, 0.6394, 0.743, 0.8408, 0.926, 1.0),
    (0.0, 0.1092, 0.2188, 0.3316, 0.4444, 0.5573, 0.6657, 0.7682, 0.8628, 0.94, 1.0),
    (0.0, 0.1023, 0.2071, 0.3163, 0.4267, 0.5363, 0.6456, 0.7518, 0.8498, 0.932, 1.0),
    (0.0, 0.1056, 0.2092, 0.3155, 0.4186, 0.5241, 0.6247, 0.7281, 0.824, 0.917, 1.0),
)
#: The Yule–Nielsen factor that fitted best.
YULE_NIELSEN = 1.7

D50 = (96.42, 100.0, 82.49)
#: Grid points per axis of the two lookup tables.
A2B_POINTS = 9
B2A_POINTS = 33
#: How the colour-to-CMYK grid's nodes are spread in a and b: closer together near grey
#: (a node's distance from grey grows as its step to this power); the entries of its
#: input curves.
AB_POWER = 1.3
CURVE_ENTRIES = 4096
#: Room (per cent) under the ink limit for the four inks' rounding to 8-bit plates, so a
#: colour at the limit stays within it as a RIP or preflight converts it.
ROUNDING = 0.8
#: Bump when the tables made from the model change, so cached profiles are remade.
_FORMAT = 3

_N = YULE_NIELSEN
_PAPER = PRIMARIES["0000"]
#: Primaries raised to 1/n, and scaled so that paper is D50 white (media-relative PCS).
_ROOTS = [
    (
        tuple(int(ch) for ch in key),
        tuple((v * w / p) ** (1 / _N) for v, w, p in zip(xyz, D50, _PAPER, strict=True)),
    )
    for key, xyz in PRIMARIES.items()
]


def _coverage(ink: int, value: float) -> float:
    curve = CURVES[ink]
    position = min(max(value, 0.0), 1.0) * 10
    low = min(int(position), 9)
    return curve[low] + (curve[low + 1] - curve[low]) * (position - low)


def model_xyz(cmyk: tuple[float, float, float, float]) -> tuple[float, float, float]:
    """Media-relative XYZ (paper = D50 white, Y 0–100) of a CMYK tint (0–1)."""
    e = [_coverage(i, v) for i, v in enumerate(cmyk)]
    x = y = z = 0.0
    for inks, (rx, ry, rz) in _ROOTS:
        w = 1.0
        for i in range(4):
            w *= e[i] if inks[i] else 1.0 - e[i]
        x += w * rx
        y += w * ry
        z += w * rz
    return (max(x, 0.0) ** _N, max(y, 0.0) ** _N, max(z, 0.0) ** _N)


def xyz_to_lab(xyz: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIE XYZ (D50, Y 0–100) to CIELAB."""

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, D50, strict=True))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def model_lab(cmyk: tuple[float, float, float, float]) -> tuple[float, float, float]:
    """Media-relative CIELAB of a CMYK tint (0–1) on the modelled press."""
    return xyz_to_lab(model_xyz(cmyk))


# --- the ICC file ---------------------------------------------------------------------------


def _s15(value: float) -> bytes:
    return struct.pack(">i", round(value * 65536))


def _lab16(lab: tuple[float, float, float]) -> tuple[int, int, int]:
    # ICC version 2's 16-bit Lab: L 0–100 as 0–0xFF00, a and b + 128 times 256.
    L, a, b = lab
    return (
        min(max(round(L * 652.80), 0), 0xFF00),
        min(max(round((a + 128) * 256), 0), 0xFFFF),
        min(max(round((b + 128) * 256), 0), 0xFFFF),
    )


def _lut16(
    inputs: int,
    outputs: int,
    points: int,
    grid: Sequence[tuple[int, ...]],
    curves: list[list[int]] | None = None,
) -> bytes:
    """A 'mft2' tag: identity matrix, input curves (``curves``, each of the same number
    of 16-bit entries; straight lines if not given) and a grid of 16-bit values."""
    head = b"mft2" + b"\0" * 4 + bytes([inputs, outputs, points, 0])
    matrix = b"".join(_s15(1.0 if r == c else 0.0) for r in range(3) for c in range(3))
    curve = struct.pack(">2H", 0, 65535)
    entries = len(curves[0]) if curves else 2
    body = struct.pack(">2H", entries, 2)
    if curves:
        body += b"".join(struct.pack(f">{entries}H", *c) for c in curves)
    else:
        body += curve * inputs
    body += b"".join(struct.pack(f">{outputs}H", *node) for node in grid)
    return head + matrix + body + curve * outputs


def _a2b() -> bytes:
    g = A2B_POINTS
    steps = [i / (g - 1) for i in range(g)]
    grid = [
        _lab16(model_lab((c, m, y, k))) for c in steps for m in steps for y in steps for k in steps
    ]
    return _lut16(4, 3, g, grid)


def _b2a(limit: float) -> bytes:
    """Lab to CMYK: the model inverted at every node of a Lab grid, in one solve."""
    import numpy as np

    from deckforge.render import separation

    g = B2A_POINTS
    steps = np.arange(g) / (g - 1)
    # The nodes are closer together near grey, where most colours a card shows are and
    # the inks change fastest; the input curves take each encoded value to its place.
    lightness = np.minimum(steps * 65535 / 652.80, 100.0)
    centred = 2 * steps - 1
    ab = 128 * np.sign(centred) * np.abs(centred) ** AB_POWER
    lab = np.stack(np.meshgrid(lightness, ab, ab, indexing="ij"), axis=-1)
    inks = separation.separate_grid(lab, (limit - ROUNDING) / 100.0)
    values = np.clip(np.round(inks.reshape(-1, 4) * 65535), 0, 65535).astype(int)
    u = np.arange(CURVE_ENTRIES) / (CURVE_ENTRIES - 1)
    w = np.clip((u * 65535 / 256 - 128) / 128, -1.0, 1.0)
    curves = [u, (1 + np.sign(w) * np.abs(w) ** (1 / AB_POWER)) / 2]
    tables = [np.round(c * 65535).astype(int).tolist() for c in (curves[0], curves[1], curves[1])]
    return _lut16(3, 4, g, [tuple(node) for node in values.tolist()], tables)


def _text_tags(limit: float) -> tuple[bytes, bytes]:
    text = f"{DESCRIPTION}, total ink {limit:g} %".encode("ascii")
    desc = b"desc" + b"\0" * 4 + struct.pack(">I", len(text) + 1) + text + b"\0"
    desc += b"\0" * 8 + b"\0" * 3 + b"\0" * 67  # no Unicode or ScriptCode description
    notice = (
        "Made by deckforge from a model fitted to the FOGRA39L data (Fogra); "
        "no copyright is claimed on the result."
    ).encode("ascii")
    cprt = b"text" + b"\0" * 4 + notice + b"\0"
    return desc, cprt


def _xyz_tag(xyz: tuple[float, float, float]) -> bytes:
    return b"XYZ " + b"\0" * 4 + b"".join(_s15(v) for v in xyz)


def _pad(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 4)


def make_profile(limit: float) -> bytes:
    """The ICC profile's bytes for a total ink limit in per cent."""
    desc, cprt = _text_tags(limit)
    white = tuple(v / 100 for v in _PAPER)
    a2b, b2a = _a2b(), _b2a(limit)
    # Every intent uses the same tables: the model has no gamut mapping of its own.
    tags = [
        (b"desc", desc),
        (b"cprt", cprt),
        (b"wtpt", _xyz_tag(white)),  # type: ignore[arg-type]
        (b"A2B0", a2b),
        (b"A2B1", a2b),
        (b"A2B2", a2b),
        (b"B2A0", b2a),
        (b"B2A1", b2a),
        (b"B2A2", b2a),
    ]
    offset = 128 + 4 + 12 * len(tags)
    table = struct.pack(">I", len(tags))
    data = b""
    placed: dict[bytes, tuple[int, int]] = {}
    for signature, body in tags:
        if body not in placed:
            placed[body] = (offset + len(data), len(body))
            data += _pad(body)
        start, size = placed[body]
        table += signature + struct.pack(">2I", start, size)
    size = offset + len(data)
    header = struct.pack(">I", size) + b"lcms" + bytes([2, 0x10, 0, 0])
    header += b"prtr" + b"CMYK" + b"Lab " + struct.pack(">6H", 2006, 12, 1, 0, 0, 0)
    header += b"acsp" + b"\0" * 4 + b"\0" * 4 + b"\0" * 8 + b"\0" * 8 + struct.pack(">I", 0)
    header += b"".join(_s15(v / 100) for v in D50) + b"dfrg" + b"\0" * 44
    assert len(header) == 128
    return header + table + data


def _name(limit: float) -> str:
    """The cache entry of the profile for an ink limit: named by what it is made from."""
    model = (PRIMARIES, CURVES, YULE_NIELSEN, A2B_POINTS, B2A_POINTS, AB_POWER, ROUNDING)
    return f"press-fogra39-{hashlib.sha256(repr((*model, limit)).encode()).hexdigest()[:12]}"


def is_cached(limit: float) -> bool:
    """Whether the cache holds the default press profile for an ink limit (making one
    takes seconds: a build has it made alongside its other first-time work)."""
    return kept.path_of(_name(limit)).is_file()


@lru_cache(maxsize=8)
def profile_bytes(limit: float) -> bytes:
    """The default press profile for an ink limit: from the cache, or made and cached.
    Every PDF for the press embeds it: one that is not whole is never used."""
    found = kept.load_file(_name(limit), _FORMAT, ".icc")
    if found is not None:
        if _icc_cmyk(found[1]):
            return found[1]
        kept.damaged(found[0], "it is not a CMYK ICC profile")
    data = make_profile(limit)
    kept.store_file(_name(limit), _FORMAT, data, ".icc")
    return data


def _icc_cmyk(data: bytes) -> bool:
    """Whether bytes are a CMYK output profile as ICC lays one out: its size in its
    first four bytes, the 'acsp' signature, the 'prtr' class and the CMYK space."""
    return (
        len(data) >= 132
        and int.from_bytes(data[:4], "big") == len(data)
        and data[36:40] == b"acsp"
        and data[12:16] == b"prtr"
        and data[16:20] == b"CMYK"
    )
