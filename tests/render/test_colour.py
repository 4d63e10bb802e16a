"""Colour management: every design colour, converted to CMYK through the press profile
and rendered back through the same profile, is the colour it was designed as (ΔE2000).

The design colour's CIELAB is computed here from the sRGB definition (IEC 61966-2-1,
Bradford-adapted to D50), independently of littleCMS; the printed colour's comes from
littleCMS rendering the CMYK back through the profile. "In gamut" means the press model
reaches the colour; for the others conversion keeps them as close as the inks allow
(the best mixture is found by searching the profile, :mod:`deckforge.render.gamut`).
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image, ImageCms

from colours_support import best_reachable
from deckforge.profiles import OutputIntent
from deckforge.render import colour, gamut, press

DECKS = Path(__file__).resolve().parents[2] / "decks"
LIMIT = 240.0


def _design_colours() -> dict[str, str]:
    """Every player colour, vote colour and place category colour of the shipped games."""
    found = {}
    for source, key, field in (
        ("guess-the-mess/players.yaml", "colours", "hex"),
        ("gomaneh/votes.yaml", "colours", "hex"),
        ("guess-the-mess/places.yaml", "categories", "colour"),
    ):
        data = yaml.safe_load((DECKS / source).read_text(encoding="utf-8"))
        for item in data[key]:
            found[f"{source.split('/')[1]}:{item['id']}"] = item[field]
    return found


COLOURS = _design_colours()


def _srgb_to_lab(hex_value: str) -> tuple[float, float, float]:
    rgb = [int(hex_value.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
    # sRGB primaries to XYZ (D65), then Bradford to D50, as ICC profiles hold sRGB.
    m = (
        (0.4360747, 0.3850649, 0.1430804),
        (0.2225045, 0.7168786, 0.0606169),
        (0.0139322, 0.0971045, 0.7141733),
    )
    xyz = [100 * sum(m[r][c] * lin[c] for c in range(3)) for r in range(3)]
    return press.xyz_to_lab(tuple(xyz))  # type: ignore[arg-type]


def delta_e_2000(lab1, lab2) -> float:
    """CIEDE2000 colour difference."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dh = 0.0 if c1p * c2p == 0 else ((h2p - h1p + 180) % 360) - 180
    d_hp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    rot = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc, sh = 1 + 0.045 * cp_mean, 1 + 0.015 * cp_mean * t
    rt = -math.sin(math.radians(2 * rot)) * rc
    dl, dc = (L2 - L1) / sl, (c2p - c1p) / sc
    dhh = d_hp / sh
    return math.sqrt(dl * dl + dc * dc + dhh * dhh + rt * dc * dhh)


def test_delta_e_2000_matches_the_published_test_data():
    # Sharma, Wu and Dalal's test pairs for CIEDE2000.
    assert delta_e_2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(
        2.0425, abs=1e-4
    )
    assert delta_e_2000((50, -1.3802, -84.2814), (50, 0, -82.7485)) == pytest.approx(1.0, abs=1e-3)
    assert delta_e_2000(
        (60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387)
    ) == pytest.approx(1.2644, abs=1e-4)


@pytest.fixture(scope="module")
def printed():
    """Each colour as CMYK through the press profile, and as rendered back (Lab)."""
    converter = colour.converter(OutputIntent(), LIMIT)
    back = ImageCms.buildTransform(
        ImageCms.ImageCmsProfile(io.BytesIO(converter.profile)),
        ImageCms.createProfile("LAB"),
        "CMYK",
        "LAB",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
    )
    result = {}
    for name, hex_value in COLOURS.items():
        rgb = tuple(int(hex_value.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))
        cmyk = converter.area(rgb)  # type: ignore[arg-type]
        pixel = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in cmyk))
        L, a, b = ImageCms.applyTransform(pixel, back).getpixel((0, 0))
        result[name] = (cmyk, (L * 100 / 255, a - 128, b - 128))
    return result


@pytest.fixture(scope="module")
def reachable():
    """Each colour's least ΔE2000 any mixture within the limit reaches on the profile."""
    converter = colour.converter(OutputIntent(), LIMIT)
    labs = np.array([_srgb_to_lab(COLOURS[name]) for name in sorted(COLOURS)])
    best = best_reachable(gamut.ProfileTable(converter.profile), labs, LIMIT / 100)
    return dict(zip(sorted(COLOURS), best, strict=True))


@pytest.mark.parametrize("name", sorted(COLOURS))
def test_each_colour_prints_as_designed(printed, reachable, name):
    design = _srgb_to_lab(COLOURS[name])
    cmyk, lab = printed[name]
    difference = delta_e_2000(design, lab)
    assert sum(cmyk) * 100 <= LIMIT + 0.5
    # As near as the inks reach (give or take the 8-bit Lab littleCMS renders back to);
    # every colour the inks reach within 1.5 prints within 3.
    assert difference <= reachable[name] + 1.0, (name, cmyk, difference, reachable[name])
    if reachable[name] <= 1.5:
        assert difference <= 3.0, (name, cmyk, difference)


def test_text_black_is_black_ink_alone():
    converter = colour.converter(OutputIntent(), LIMIT)
    for ink in ("#1D1D2C", "#1B1B2F", "#000000"):
        rgb = tuple(int(ink.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))
        assert converter.cmyk(rgb) == (0.0, 0.0, 0.0, 1.0)  # type: ignore[arg-type]


def test_images_go_through_the_same_profile_as_vector_colours():
    converter = colour.converter(OutputIntent(), LIMIT)
    swatch = Image.new("RGB", (4, 4), (0x00, 0x9E, 0x73))
    pixel = converter.image(swatch).getpixel((1, 1))
    vector = converter.cmyk((0x00 / 255, 0x9E / 255, 0x73 / 255))
    assert [round(v / 255, 2) for v in pixel] == [round(v, 2) for v in vector]
    assert converter.image(swatch).mode == "CMYK"


@pytest.mark.engines
def test_the_press_profile_model_fits_fogra39():
    data = Path("/usr/share/color/icc/FOGRA39L.ti3")
    assert data.is_file(), "FOGRA's data is missing: install Debian's icc-profiles-free"
    rows, reading = [], False
    for line in data.read_text(encoding="latin-1").splitlines():
        if line.startswith("BEGIN_DATA") and not line.startswith("BEGIN_DATA_FORMAT"):
            reading = True
        elif line.startswith("END_DATA") and not line.startswith("END_DATA_FORMAT"):
            reading = False
        elif reading:
            fields = line.split()
            cmyk = tuple(float(v) / 100 for v in fields[1:5])
            rows.append((cmyk, tuple(float(v) for v in fields[5:8])))
    assert len(rows) == 1617
    paper = rows[0][1]

    def relative(xyz):  # measured colour relative to the paper, as the profile holds it
        return press.xyz_to_lab(
            tuple(v * w / p for v, w, p in zip(xyz, press.D50, paper, strict=True))
        )

    errors = sorted(delta_e_2000(relative(xyz), press.model_lab(cmyk)) for cmyk, xyz in rows)
    assert sum(errors) / len(errors) < 2.0
    assert errors[int(0.95 * len(errors))] < 3.5
