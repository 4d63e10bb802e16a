"""User art: checked for resolution, readability and where it lives before it is drawn."""

from __future__ import annotations

import re

from PIL import Image

from deckforge.cli import main

EN = "guess-the-mess-en"
#: The place card's round picture area is 100.8 pt (1.4 in) across.
PICTURE_INCHES = 1.4


def _with_art(project, art: str) -> None:
    places = project / "decks" / "guess-the-mess" / "places.yaml"
    text = places.read_text(encoding="utf-8")
    text = re.sub(r'(    icon: "[0-9A-F-]+"\n)', rf"\1    art: {art}\n", text, count=1)
    places.write_text(text, encoding="utf-8")


def _png(path, dpi: int) -> None:
    side = round(PICTURE_INCHES * dpi)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (side, side), (200, 60, 40)).save(path)


def _build(project, *extra):
    return main(
        [
            "--decks",
            str(project / "decks"),
            "build",
            "--edition",
            EN,
            "--profile",
            "printer",
            "--out",
            str(project / "build"),
            "--quiet",
            *extra,
        ]
    )


def test_art_under_150_dpi_fails_naming_card_file_and_dpi(project, capsys):
    _png(project / "decks" / "guess-the-mess" / "art" / "kitchen.png", 100)
    _with_art(project, "art/kitchen.png")
    assert _build(project) == 1
    err = capsys.readouterr().err
    assert re.search(
        r"places\.yaml:\d+:\d+: places\[0\]\.art: card 'kitchen': 'kitchen\.png' is "
        r"140 × 140 px, only 100 dpi at print size; at least 150 dpi is needed",
        err,
    )
    assert not (project / "build").exists()


def test_art_under_300_dpi_warns_and_strict_fails(project, capsys):
    _png(project / "decks" / "guess-the-mess" / "art" / "kitchen.png", 200)
    _with_art(project, "art/kitchen.png")
    assert _build(project) == 0
    assert re.search(
        r"places\[0\]\.art: warning: 'kitchen\.png' is 280 × 280 px, 200 dpi at "
        r"print size; 300 dpi is recommended",
        capsys.readouterr().err,
    )
    assert _build(project, "--strict") == 1


def _assert_picture_drawn(project) -> None:
    """The first place card's picture area shows the art's colour (200, 60, 40)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(project / "build" / EN / "printer" / "places.pdf")
    image = pdf[1].render(scale=1).to_pil().convert("RGB")
    pdf.close()
    centre = image.getpixel((image.width // 2, int(image.height * 0.38)))
    assert all(abs(a - b) < 30 for a, b in zip(centre, (200, 60, 40), strict=True)), centre


def test_art_is_drawn_on_the_card(project):
    _png(project / "decks" / "guess-the-mess" / "art" / "kitchen.png", 300)
    _with_art(project, "art/kitchen.png")
    assert _build(project) == 0
    _assert_picture_drawn(project)


def test_missing_art_is_an_error(project, capsys):
    _with_art(project, "art/nowhere.png")
    assert _build(project) == 1
    assert "places[0].art: the art file 'art/nowhere.png' does not exist" in capsys.readouterr().err


def test_art_outside_the_project_is_refused(project, tmp_path_factory, capsys):
    outside = tmp_path_factory.mktemp("elsewhere") / "secret.png"
    _png(outside, 300)
    _with_art(project, "../../../secret.png")
    assert _build(project) == 1
    assert "is outside the project folder; art must stay inside it" in capsys.readouterr().err


def test_a_link_out_of_the_project_is_refused(project, tmp_path_factory, capsys):
    outside = tmp_path_factory.mktemp("elsewhere") / "secret.png"
    _png(outside, 300)
    link = project / "decks" / "guess-the-mess" / "art" / "link.png"
    link.parent.mkdir(parents=True)
    link.symlink_to(outside)
    _with_art(project, "art/link.png")
    assert _build(project) == 1
    assert "'art/link.png' is outside the project folder" in capsys.readouterr().err


def test_a_corrupt_image_is_an_error(project, capsys):
    bad = project / "decks" / "guess-the-mess" / "art" / "bad.png"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + b"garbage" * 20)
    _with_art(project, "art/bad.png")
    assert _build(project) == 1
    assert "card 'kitchen': 'bad.png' is not a readable image" in capsys.readouterr().err


def test_svg_art_may_not_reach_outside(project, capsys):
    svg = project / "decks" / "guess-the-mess" / "art" / "x.svg"
    svg.parent.mkdir(parents=True)
    svg.write_text(
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        "<text>&x;</text></svg>",
        encoding="utf-8",
    )
    _with_art(project, "art/x.svg")
    assert _build(project) == 1
    assert "'x.svg' declares entities (<!ENTITY …>); SVG art must be self-contained" in (
        capsys.readouterr().err
    )


def _svg_holding(path, png: bytes) -> None:
    """SVG art that holds a picture, as Inkscape and Illustrator save a placed image."""
    import base64

    data = base64.b64encode(png).decode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="100" height="100" viewBox="0 0 100 100">'
        f'<image xlink:href="data:image/png;base64,{data}" width="100" height="100"/></svg>',
        encoding="utf-8",
    )


def test_a_picture_inside_svg_art_is_drawn(project):
    import io

    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), (200, 60, 40)).save(buffer, "PNG")
    _svg_holding(project / "decks" / "guess-the-mess" / "art" / "placed.svg", buffer.getvalue())
    _with_art(project, "art/placed.svg")
    assert _build(project) == 0
    _assert_picture_drawn(project)


def test_a_link_in_an_art_folder_that_leads_out_is_refused(project, tmp_path_factory, capsys):
    outside = tmp_path_factory.mktemp("elsewhere") / "secret.png"
    Image.new("RGB", (1000, 1500), (20, 160, 60)).save(outside)
    folder = project / "decks" / "gomaneh"
    (folder / "art").mkdir()
    (folder / "art" / "01.png").symlink_to(outside)
    source = folder / "pictures.yaml"
    source.write_text(source.read_text(encoding="utf-8") + "art_folder: art\n", encoding="utf-8")
    code = main(
        ["--decks", str(project / "decks"), "build", "--edition", "gomaneh-fa"]
        + ["--profile", "printer", "--out", str(project / "build"), "--quiet"]
    )
    assert code == 1
    assert re.search(
        r"pictures\.yaml:\d+:\d+: art_folder: 'art/01\.png' is outside the project folder; "
        r"art must stay inside it",
        capsys.readouterr().err,
    )
    assert not (project / "build").exists()
