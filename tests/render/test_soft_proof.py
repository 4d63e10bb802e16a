"""Soft proofs: ``export png --proof`` shows a card as the press prints it. The reference
is the printer-cmyk page itself, rendered to CMYK pixels by MuPDF (not the PDFium that
draws the exports) and converted to sRGB through the same output profile."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageCms

from colours_support import FOGRA39, shop_profile
from deckforge.cli import main
from deckforge.profiles import all_profiles
from deckforge.render import colour


def _pam(data: bytes) -> Image.Image:
    """A CMYK image from MuPDF's PAM output."""
    head, _, body = data.partition(b"ENDHDR\n")
    fields = dict(line.split(b" ", 1) for line in head.splitlines()[1:] if b" " in line)
    size = (int(fields[b"WIDTH"]), int(fields[b"HEIGHT"]))
    assert int(fields[b"DEPTH"]) == 4, fields
    return Image.frombytes("CMYK", size, body[: size[0] * size[1] * 4])


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    folder = tmp_path_factory.mktemp("proof") / "game"
    assert main(["init", str(folder)]) == 0
    out = folder / "build"
    decks = str(folder / "decks")
    args = ["--decks", decks, "build", "--out", str(out), "--quiet"]
    assert main([*args, "--profile", "printer", "--profile", "printer-cmyk"]) == 0
    assert main(["--decks", decks, "export", "png", "--proof", "--out", str(out)]) == 0
    return out


def _printed(pdf: Path, profile: bytes, size: tuple[int, int]) -> np.ndarray:
    """The first card face of a printer-cmyk file as MuPDF draws its inks, converted to
    sRGB through ``profile``: what the press prints."""
    mutool = shutil.which("mutool")
    assert mutool, "MuPDF is missing: install Debian's mupdf-tools"
    page = subprocess.run(
        [mutool, "draw", "-q", "-c", "cmyk", "-r", "300", "-F", "pam", "-o", "-", str(pdf), "2"],
        check=True,
        capture_output=True,
    ).stdout
    cmyk = _pam(page)
    assert abs(cmyk.size[0] - size[0]) <= 1 and abs(cmyk.size[1] - size[1]) <= 1
    cmyk = cmyk.resize(size) if cmyk.size != size else cmyk
    to_srgb = ImageCms.buildTransform(
        ImageCms.ImageCmsProfile(io.BytesIO(profile)),
        ImageCms.ImageCmsProfile(io.BytesIO(colour.srgb_profile())),
        "CMYK",
        "RGB",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
    )
    return np.asarray(ImageCms.applyTransform(cmyk, to_srgb), dtype=float)


@pytest.mark.engines  # MuPDF draws the reference
def test_a_proof_shows_the_card_as_the_cmyk_page_prints(project):
    proof = Image.open(project / "example-en" / "png-proof" / "places" / "001-face.png")
    pdf = project / "example-en" / "printer-cmyk" / "places.pdf"
    profile = all_profiles()["printer-cmyk"]
    press = colour.output_profile(profile.output_intent, profile.ink_limit)
    shown = np.asarray(proof.convert("RGB"), dtype=float)
    assert np.abs(_printed(pdf, press, proof.size) - shown).mean() <= 2.0


def test_the_previews_proofs_are_the_exported_proofs(project):
    # The preview's cards as the press prints them: the exported proof (trim and bleed,
    # 300 dpi) cut to the trim and brought to the preview's sizes; the cards as drawn are
    # further from it.
    decks = str(Path(project).parent / "decks")
    assert main(["--decks", decks, "preview", "--out", str(project)]) == 0
    folder = project / "preview" / "example-en" / "places"
    exported = Image.open(project / "example-en" / "png-proof" / "places" / "001-face.png")
    bleed = 3.175 / 25.4 * 300
    trim = (bleed, bleed, exported.width - bleed, exported.height - bleed)
    for name in ("face-001{}.jpg", "face-001{}-small.png"):
        shown = Image.open(folder / name.format("-proof")).convert("RGB")
        drawn = Image.open(folder / name.format("")).convert("RGB")
        reference = exported.convert("RGB").resize(shown.size, Image.Resampling.BOX, box=trim)
        near = np.abs(np.asarray(shown, float) - np.asarray(reference, float)).mean()
        far = np.abs(np.asarray(drawn, float) - np.asarray(reference, float)).mean()
        assert near <= 1.5 and far > near, (name, near, far)
    page = (project / "preview" / "example-en" / "places.html").read_text(encoding="utf-8")
    assert '<input type="checkbox" id="proof">' in page and "FOGRA39 at 240 % ink" in page
    assert (project / "preview" / "proof.js").is_file()


@pytest.mark.engines  # MuPDF draws the reference; Argyll makes a profile from FOGRA's data
def test_a_proof_through_a_shops_profile_shows_the_page_made_for_it(project, tmp_path):
    # The shop's profile, made by Argyll from FOGRA's data; the cards built for it.
    assert shutil.which("colprof"), "Argyll is missing: install Debian's argyll"
    assert FOGRA39.is_file(), "FOGRA's data is missing: install Debian's icc-profiles-free"
    shop = shop_profile(tmp_path, "l")
    decks = str(Path(project).parent / "decks")
    out = tmp_path / "build"
    build = ["--decks", decks, "build", "--out", str(out), "--quiet", "--output-profile", str(shop)]
    assert main([*build, "--profile", "printer", "--profile", "printer-cmyk"]) == 0
    export = ["--decks", decks, "export", "png", "--proof", "--out", str(out)]
    assert main([*export, "--output-profile", str(shop)]) == 0
    face = Path("example-en", "png-proof", "places", "001-face.png")
    proof = Image.open(out / face)
    shown = np.asarray(proof.convert("RGB"), dtype=float)
    pdf = out / "example-en" / "printer-cmyk" / "places.pdf"
    assert np.abs(_printed(pdf, shop.read_bytes(), proof.size) - shown).mean() <= 2.0
    # Not the default press profile's proof of the same card.
    default = np.asarray(Image.open(project / face).convert("RGB"), dtype=float)
    assert np.abs(default - shown).max() > 8


def test_an_output_profile_is_for_proofs(project, capsys):
    decks = str(Path(project).parent / "decks")
    args = ["--decks", decks, "export", "png", "--out", str(project)]
    assert main([*args, "--output-profile", "shop.icc"]) == 2
    assert "--output-profile: only soft proofs are printed through it" in capsys.readouterr().err


def test_proofs_are_png_only(project, capsys):
    decks = str(Path(project).parent / "decks")
    assert main(["--decks", decks, "export", "tts", "--proof", "--out", str(project)]) == 2
    assert "--proof: soft proofs are PNG files" in capsys.readouterr().err
