"""The generated گمانه pictures: distinct, reproducible, and replaceable by the user's art."""

from __future__ import annotations

import pypdfium2 as pdfium
from PIL import Image

from deckforge.art import dreams
from deckforge.cli import main


def test_every_picture_has_its_own_hero():
    heroes = dreams.heroes(1404, 84)
    assert len(set(heroes)) == 84


def test_pictures_are_reproducible_and_differ_from_each_other():
    first = dreams.picture(1404, 1, "1F40B", 0, 0, 200, 300)
    assert first == dreams.picture(1404, 1, "1F40B", 0, 0, 200, 300)
    scenes = {tuple(dreams.picture(1404, n, "1F40B", 0, 0, 200, 300)) for n in range(1, 85)}
    assert len(scenes) == 84


def test_rendered_pictures_differ(built):
    pdf = pdfium.PdfDocument(built / "gomaneh-fa" / "printer" / "pictures.pdf")
    try:
        faces = [
            pdf[i].render(scale=0.25).to_pil().convert("RGB").tobytes() for i in range(1, 2 * 84, 2)
        ]
    finally:
        pdf.close()
    assert len(set(faces)) == 84


def test_rulebooks_credit_openmoji(built):
    for edition in ("guess-the-mess-en", "guess-the-mess-fa", "gomaneh-fa"):
        pdf = pdfium.PdfDocument(built / edition / "pnp-a4" / "rulebook.pdf")
        try:
            text = " ".join(
                " ".join(pdf[i].get_textpage().get_text_range().split()) for i in range(len(pdf))
            )
        finally:
            pdf.close()
        assert (
            "All emojis designed by OpenMoji – the open-source emoji and icon project. "
            "License: CC BY-SA 4.0" in text
        ), edition


def test_an_art_folder_replaces_pictures(project):
    folder = project / "decks" / "gomaneh"
    (folder / "art").mkdir()
    Image.new("RGB", (1000, 1500), (20, 160, 60)).save(folder / "art" / "01.png")
    source = folder / "pictures.yaml"
    source.write_text(source.read_text(encoding="utf-8") + "art_folder: art\n", encoding="utf-8")
    out = project / "build"
    assert (
        main(
            [
                "--decks",
                str(project / "decks"),
                "build",
                "--edition",
                "gomaneh-fa",
                "--profile",
                "printer",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    pdf = pdfium.PdfDocument(out / "gomaneh-fa" / "printer" / "pictures.pdf")
    try:
        own = pdf[1].render(scale=0.5).to_pil().convert("RGB")
        generated = pdf[3].render(scale=0.5).to_pil().convert("RGB")
    finally:
        pdf.close()
    assert own.getpixel((own.width // 2, own.height // 2)) == (20, 160, 60)
    assert generated.getpixel((generated.width // 2, generated.height // 2)) != (20, 160, 60)
