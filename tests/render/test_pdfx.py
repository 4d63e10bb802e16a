"""PDF/X files read back independently of deckforge: with pikepdf (qpdf) for the file's
structure and littleCMS for its output profile.

Every ``printer`` file must be PDF/X-4 and every ``printer-cmyk`` file PDF/X-1a:2001
(ISO 15930-7 and -1): output intent with an embedded CMYK output profile, the version
keys in Info and XMP, /Trapped, /ID, TrimBox and BleedBox on every page, and the colour
each standard allows. deckforge's own preflight must pass them too.
"""

from __future__ import annotations

import io

import pikepdf
import pytest
from PIL import ImageCms

from deckforge.preflight import format_table, preflight_file

PDFX = {
    "printer": ("1.6", {"/GTS_PDFXVersion": "PDF/X-4"}),
    "printer-cmyk": (
        "1.3",
        {"/GTS_PDFXVersion": "PDF/X-1:2001", "/GTS_PDFXConformance": "PDF/X-1a:2001"},
    ),
}
XMP_VERSION = "{http://www.npes.org/pdfx/ns/id/}GTS_PDFXVersion"


def _files(manifest, profile):
    return [e for e in manifest if e["profile"] == profile]


def _streams(pdf: pikepdf.Pdf):
    """Every content stream: pages' and forms', with the resources they draw with."""
    for page in pdf.pages:
        yield page.obj, page.obj.get("/Resources")
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form":
            yield obj, obj.get("/Resources")


@pytest.mark.parametrize("profile", sorted(PDFX))
def test_declarations_output_intent_and_boxes(built, manifest, profile):
    version, keys = PDFX[profile]
    files = _files(manifest, profile)
    assert len(files) == 21  # the decks and components of the three editions
    for entry in files:
        with pikepdf.open(built / entry["path"]) as pdf:
            assert pdf.check_pdf_syntax() == [], entry["path"]  # qpdf's structural check
            assert pdf.pdf_version == version
            assert pdf.trailer.ID[0] == pdf.trailer.ID[1]
            info = pdf.docinfo
            for key, value in keys.items():
                assert str(info[key]) == value
            assert info.Trapped == pikepdf.Name("/False")
            (intent,) = pdf.Root.OutputIntents
            assert intent.S == pikepdf.Name.GTS_PDFX
            assert str(intent.OutputConditionIdentifier) == "FOGRA39"
            assert str(intent.RegistryName) == "http://www.color.org"
            icc = intent.DestOutputProfile
            assert int(icc.N) == 4
            opened = ImageCms.ImageCmsProfile(io.BytesIO(icc.read_bytes()))
            assert opened.profile.device_class == "prtr"
            assert opened.profile.xcolor_space.strip() == "CMYK"
            assert "FOGRA39" in ImageCms.getProfileDescription(opened)
            with pdf.open_metadata() as xmp:
                assert xmp[XMP_VERSION] == keys["/GTS_PDFXVersion"]
                assert xmp["dc:title"] == str(info.Title)
                assert xmp["pdf:Trapped"] == "False"
            for page in pdf.pages:
                trim = [float(v) for v in page.TrimBox]
                bleed = [float(v) for v in page.BleedBox]
                media = [float(v) for v in page.MediaBox]
                assert media[0] <= bleed[0] <= trim[0] and trim[2] <= bleed[2] <= media[2]
                assert media[1] <= bleed[1] <= trim[1] and trim[3] <= bleed[3] <= media[3]


def test_x1a_files_hold_cmyk_only_and_no_transparency(built, manifest):
    for entry in _files(manifest, "printer-cmyk"):
        with pikepdf.open(built / entry["path"]) as pdf:
            for owner, resources in _streams(pdf):
                for _, operator in pikepdf.parse_content_stream(owner):
                    assert str(operator) not in ("rg", "RG", "cs", "CS", "sc", "scn"), entry
                if resources is not None and "/ExtGState" in resources:
                    for gs in resources.ExtGState.values():
                        assert float(gs.get("/ca", 1)) == 1 and float(gs.get("/CA", 1)) == 1
                        assert gs.get("/SMask", pikepdf.Name.None_) == pikepdf.Name.None_
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                    assert obj.ColorSpace in (pikepdf.Name.DeviceCMYK, pikepdf.Name.DeviceGray)
                    assert "/SMask" not in obj
                if isinstance(obj, pikepdf.Dictionary) and "/Group" in obj:
                    assert obj.Group.get("/S") != pikepdf.Name.Transparency


def test_x4_rgb_is_srgb_by_its_default_colour_space(built, manifest):
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
    for entry in _files(manifest, "printer"):
        with pikepdf.open(built / entry["path"]) as pdf:
            for owner, resources in _streams(pdf):
                uses_rgb = any(
                    str(op) in ("rg", "RG") for _, op in pikepdf.parse_content_stream(owner)
                )
                if not uses_rgb:
                    continue
                space = resources.ColorSpace.DefaultRGB
                assert space[0] == pikepdf.Name.ICCBased and int(space[1].N) == 3
                embedded = ImageCms.ImageCmsProfile(io.BytesIO(space[1].read_bytes()))
                assert ImageCms.getProfileDescription(embedded) == ImageCms.getProfileDescription(
                    srgb
                )


@pytest.mark.slow  # preflights all 128 shipped files
@pytest.mark.parametrize("profile", sorted(PDFX))
def test_deckforge_preflight_passes_every_pdfx_file(preflighted, manifest, profile):
    for entry in _files(manifest, profile):
        report = preflighted[entry["path"]]
        assert not report.failed, format_table([report])
        for name in ("pdf/x", "output intent", "pdf/x colour", "ink", "marks", "rules"):
            assert report.check(name).status == "ok", (entry["path"], report.check(name))


@pytest.mark.slow  # builds for a shop's profile from an empty cache
def test_a_shops_own_press_profile_is_used_and_embedded(tmp_path):
    import shutil

    from conftest import ROOT
    from deckforge.cli import main
    from deckforge.render import press

    shop = tmp_path / "shop.icc"
    shop.write_bytes(press.profile_bytes(300))  # stands for the shop's own file (kept once made)
    shutil.copytree(ROOT / "tests" / "data" / "minimal", tmp_path / "decks" / "minimal")
    out = tmp_path / "out"
    args = ["--decks", str(tmp_path / "decks"), "build", "--out", str(out), "--quiet"]
    args += ["--profile", "printer-cmyk", "--output-profile", str(shop)]
    assert main([*args, "--output-condition", "FOGRA39"]) == 0
    with pikepdf.open(out / "minimal-en" / "printer-cmyk" / "places.pdf") as pdf:
        (intent,) = pdf.Root.OutputIntents
        assert str(intent.OutputConditionIdentifier) == "FOGRA39"
        assert intent.DestOutputProfile.read_bytes() == shop.read_bytes()
    report = preflight_file(
        out / "minimal-en" / "printer-cmyk" / "places.pdf",
        {
            "path": "places.pdf",
            "profile": "printer-cmyk",
            "kind": "cards",
            "bleed_mm": 3.175,
            "trim_mm": [63.5, 88.9],
        },
    )
    assert not report.failed, format_table([report])


@pytest.mark.slow  # builds for a shop's profile
def test_a_build_for_a_shops_press_profile_is_never_taken_for_one_already_made(tmp_path):
    # The files in the build folder were made for one press profile and condition: a
    # build for another makes them again, and so does a build back to the default.
    import shutil

    from conftest import ROOT
    from deckforge.cli import main
    from deckforge.render import press

    shop = tmp_path / "shop.icc"
    shop.write_bytes(press.make_profile(300))
    shutil.copytree(ROOT / "tests" / "data" / "minimal", tmp_path / "decks" / "minimal")
    out = tmp_path / "out"
    places = out / "minimal-en" / "printer-cmyk" / "places.pdf"
    args = ["--decks", str(tmp_path / "decks"), "build", "--out", str(out), "--quiet"]
    args += ["--profile", "printer-cmyk"]

    def intent() -> tuple[str, bytes]:
        with pikepdf.open(places) as pdf:
            (found,) = pdf.Root.OutputIntents
            return str(found.OutputConditionIdentifier), found.DestOutputProfile.read_bytes()

    assert main(args) == 0
    default = places.read_bytes()
    assert intent()[1] != shop.read_bytes()
    assert main([*args, "--output-profile", str(shop), "--output-condition", "FOGRA39"]) == 0
    assert intent() == ("FOGRA39", shop.read_bytes())
    assert main([*args, "--output-profile", str(shop), "--output-condition", "FOGRA51"]) == 0
    assert intent() == ("FOGRA51", shop.read_bytes())
    assert main(args) == 0
    assert places.read_bytes() == default


def test_an_output_profile_that_is_not_cmyk_is_refused(tmp_path, capsys):
    from conftest import DECKS
    from deckforge.cli import main
    from deckforge.render.colour import srgb_profile

    rgb = tmp_path / "srgb.icc"
    rgb.write_bytes(srgb_profile())
    args = ["--decks", str(DECKS), "build", "--out", str(tmp_path / "out"), "--quiet"]
    assert main([*args, "--output-profile", str(rgb)]) != 0
    assert "not a CMYK output (printer) ICC profile" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "what,reason",
    [("pipe", "it is a named pipe (FIFO), not a file"), ("folder", "it is a folder, not a file")],
)
def test_an_output_profile_that_is_not_a_file_is_refused_not_waited_on(
    tmp_path, capsys, what, reason
):
    import os

    from conftest import DECKS
    from deckforge.cli import main

    named = tmp_path / "shop.icc"
    os.mkfifo(named) if what == "pipe" else named.mkdir()
    args = ["--decks", str(DECKS), "build", "--out", str(tmp_path / "out"), "--quiet"]
    assert main([*args, "--output-profile", str(named)]) == 1
    assert capsys.readouterr().err == f"deckforge: --output-profile: {named}: {reason}\n"
    assert not (tmp_path / "out").exists()


# --- files that break one PDF/X rule fail preflight for it -------------------------------


@pytest.fixture(scope="module")
def minimal_pdfx(tmp_path_factory):
    """The minimal edition's places in both print-shop profiles."""
    import shutil

    from conftest import ROOT
    from deckforge.cli import main

    root = tmp_path_factory.mktemp("pdfx")
    shutil.copytree(ROOT / "tests" / "data" / "minimal", root / "decks" / "minimal")
    args = ["--decks", str(root / "decks"), "build", "--out", str(root / "out"), "--quiet"]
    assert main([*args, "--profile", "printer", "--profile", "printer-cmyk"]) == 0
    return root / "out" / "minimal-en"


def _broken(minimal_pdfx, tmp_path, profile: str, breaking) -> dict:
    """Preflight of the places file after ``breaking`` changed it (with pikepdf)."""
    path = tmp_path / f"{profile}.pdf"
    with pikepdf.open(minimal_pdfx / profile / "places.pdf") as pdf:
        version = breaking(pdf)
        pdf.save(path, min_version=version or "", force_version=version or "")
    entry = {
        "path": "places.pdf",
        "profile": profile,
        "kind": "cards",
        "bleed_mm": 3.175,
        "trim_mm": [63.5, 88.9],
    }
    report = preflight_file(path, entry)
    return {c.name: c for c in report.checks if c.status == "fail"}


def test_the_untouched_files_pass(minimal_pdfx, tmp_path):
    for profile in ("printer", "printer-cmyk"):
        assert _broken(minimal_pdfx, tmp_path, profile, lambda pdf: None) == {}


def test_no_output_intent_fails(minimal_pdfx, tmp_path):
    def breaking(pdf):
        del pdf.Root.OutputIntents

    failed = _broken(minimal_pdfx, tmp_path, "printer-cmyk", breaking)
    assert failed["output intent"].detail == "0 output intents of type GTS_PDFX, not one"


def test_a_wrong_version_key_fails(minimal_pdfx, tmp_path):
    def breaking(pdf):
        pdf.docinfo["/GTS_PDFXVersion"] = "PDF/X-3:2002"

    failed = _broken(minimal_pdfx, tmp_path, "printer-cmyk", breaking)
    assert failed["pdf/x"].detail.startswith(
        "Info /GTS_PDFXVersion is 'PDF/X-3:2002', not 'PDF/X-1:2001'"
    )


def test_missing_xmp_fails(minimal_pdfx, tmp_path):
    def breaking(pdf):
        del pdf.Root.Metadata

    assert _broken(minimal_pdfx, tmp_path, "printer", breaking)["pdf/x"].detail == (
        "no XMP metadata"
    )


def test_pdf_1_6_is_too_new_for_x1a(minimal_pdfx, tmp_path):
    failed = _broken(minimal_pdfx, tmp_path, "printer-cmyk", lambda pdf: "1.6")
    assert failed["pdf/x"].detail.startswith("PDF 1.6, PDF/X-1a:2001 allows at most 1.3")


def test_transparency_fails_x1a(minimal_pdfx, tmp_path):
    def breaking(pdf):
        page = pdf.pages[0]
        page.Resources.ExtGState = pikepdf.Dictionary(
            GS1=pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, ca=0.5)
        )
        page.contents_add(pikepdf.Stream(pdf, b"/GS1 gs"), prepend=True)

    failed = _broken(minimal_pdfx, tmp_path, "printer-cmyk", breaking)
    assert failed["pdf/x colour"].detail == "page 1: ca 0.5 (constant alpha) (transparency)"


def test_bare_device_rgb_fails_x4(minimal_pdfx, tmp_path):
    def breaking(pdf):
        for _, resources in _streams(pdf):
            if resources is not None and "/ColorSpace" in resources:
                del resources.ColorSpace

    failed = _broken(minimal_pdfx, tmp_path, "printer", breaking)
    assert "without a profile" in failed["pdf/x colour"].detail


def test_a_page_without_trim_box_and_a_page_of_another_size_fail(minimal_pdfx, tmp_path):
    def breaking(pdf):
        del pdf.pages[1].TrimBox
        pdf.pages[2].MediaBox = [0, 0, 300, 300]

    failed = _broken(minimal_pdfx, tmp_path, "printer", breaking)
    assert failed["pdf/x"].detail == "page 2: neither TrimBox nor ArtBox"
    assert failed["boxes"].detail.startswith("page 2: no TrimBox")
    assert failed["sizes"].detail.startswith("page 3 is 105.8 × 105.8 mm")
