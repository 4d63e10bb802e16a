"""The documentation's pictures, drawn from real builds: the shipped games' and the starter's.

``python docs_tools/pictures.py --build build --docs docs`` draws PNGs of the PDFs in the
build folder and of a starter game (``deckforge new game quiz``) built here, into
``docs/pictures/`` (not kept in git), writes the gallery page ``docs/gallery.md`` beside
them, and the README's one picture ``docs/readme-cards.png``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

#: How the pages are drawn: 100 dpi for the site's pictures, 40 for the README's.
DPI = 100
README_DPI = 40

#: The template change the tutorial makes (step 4), drawn beside the card it changes.
RESTYLE = """kind: template
extends: trivia
colours: {science: "#3A0CA3", music: "#7A5195"}
styles:
  question: {font_size: 18pt}
"""

#: The README's picture: one card of each shipped game and of the starter, in a row.
README_CARDS = (
    ("shipped", "guess-the-mess-en", "places"),
    ("shipped", "guess-the-mess-fa", "mess"),
    ("shipped", "gomaneh-fa", "pictures"),
    ("starter", "quiz", "trivia"),
    ("starter", "quiz", "roles"),
)


def page(pdf: Path, index: int, dpi: int, bleed_mm: float = 0.0) -> Image.Image:
    """Page ``index`` of ``pdf`` drawn at ``dpi``, cut to its trim when it has a bleed."""
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()
    cut = round(bleed_mm / 25.4 * dpi)
    if cut:
        image = image.crop((cut, cut, image.width - cut, image.height - cut))
    return image


def row(images: list[Image.Image], height: int, gap: int = 8) -> Image.Image:
    """The images side by side at one height, on white."""
    scaled = [
        im.resize((round(im.width * height / im.height), height), Image.LANCZOS) for im in images
    ]
    out = Image.new(
        "RGB", (sum(im.width for im in scaled) + gap * (len(scaled) - 1), height), "white"
    )
    x = 0
    for im in scaled:
        out.paste(im, (x, 0))
        x += im.width + gap
    return out


def outputs(build: Path) -> list[dict]:
    """The build's manifest entries."""
    return json.loads((build / "manifest.json").read_text(encoding="utf-8"))["outputs"]


def first_face(build: Path, entry: dict, dpi: int) -> Image.Image:
    """The first card face of a ``printer`` file (one card side a page, back then face)."""
    return page(build / entry["path"], 1, dpi, entry["bleed_mm"])


def run(*words: str, cwd: Path) -> None:
    """A deckforge command, as the user runs it; its output is kept from the page's."""
    command = [str(Path(sys.executable).with_name("deckforge")), *words]
    subprocess.run(
        command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL
    )


def starter(work: Path) -> tuple[Path, Path]:
    """A starter game built as the tutorial builds it, and again with its template change."""
    run("init", "proj", "--from", "example-en", cwd=work)
    project = work / "proj"
    run("new", "game", "quiz", cwd=project)
    profiles = ("--profile", "printer", "--profile", "pnp-a4", "--profile", "pnp-a4-fold")
    run("build", "--edition", "quiz", *profiles, cwd=project)
    (project / "decks/quiz/templates/trivia.yaml").write_text(RESTYLE, encoding="utf-8")
    run("build", "--edition", "quiz", "--profile", "printer", "--out", "restyled", cwd=project)
    return project / "build", project / "restyled"


def source_template(entry: dict, decks: Path) -> str:
    """The template that draws a file: its cards' face, or a component's own template."""
    if entry.get("face_template"):
        return entry["face_template"]
    for source in (decks / entry["edition"]).glob(f"{entry['deck']}.yaml"):
        for line in source.read_text(encoding="utf-8").splitlines():
            if line.startswith("template:"):
                return line.split(":", 1)[1].split("#")[0].strip()
    return entry["kind"]


def gallery(docs: Path, shipped: Path, quiz: Path, quiz_decks: Path) -> None:
    """One card of every shipped deck and every starter component, and the gallery page."""
    folder = docs / "pictures" / "gallery"
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        "# Gallery",
        "",
        "One card of every deck of the shipped games, and every component of the starter game",
        "(`deckforge new game`), each as its `printer` file prints it, with the template that",
        "draws it. Every picture here is drawn from a real build by `make docs`.",
        "",
    ]
    shipped_decks = Path(__file__).resolve().parents[1] / "decks"
    for title, build, decks in (
        ("The shipped games", shipped, shipped_decks),
        ("The starter game", quiz, quiz_decks),
    ):
        lines += [f"## {title}", "", "| edition | deck | template | picture |", "|---|---|---|---|"]
        for entry in outputs(build):
            if entry["profile"] != "printer" or entry["kind"] == "calibration":
                continue
            name = f"{entry['edition']}-{entry['deck']}.png"
            if entry["kind"] == "cards":
                image = first_face(build, entry, DPI)
            else:
                image = page(
                    build / entry["path"],
                    0,
                    DPI // 4 if entry["kind"] == "board" else DPI // 2,
                    entry["bleed_mm"],
                )
            image.thumbnail((240, 240))
            image.save(folder / name, optimize=True)
            template = source_template(entry, decks)
            lines.append(
                f"| `{entry['edition']}` | `{entry['deck']}` ({entry['kind']}) | `{template}` "
                f"| ![{entry['deck']} of {entry['edition']}](pictures/gallery/{name}) |"
            )
        lines.append("")
    lines += [
        "How each template is written is in [the template reference](templates.md); which",
        "fields each kind of deck gives its templates is in",
        "[Change how cards look](how-to/change-the-look.md).",
        "",
    ]
    (docs / "gallery.md").write_text("\n".join(lines), encoding="utf-8")


def readme_picture(shipped: Path, quiz: Path) -> Image.Image:
    """The README's row of cards, small enough to keep in git."""
    builds = {"shipped": shipped, "starter": quiz}
    cards = []
    for which, edition, deck in README_CARDS:
        entry = next(
            e
            for e in outputs(builds[which])
            if (e["edition"], e["deck"], e["profile"]) == (edition, deck, "printer")
        )
        cards.append(first_face(builds[which], entry, README_DPI))
    return row(cards, 140)


#: The profiles the profile reference shows a page of, and the page.
PROFILE_PAGES = (
    ("pnp-a4", 0),
    ("pnp-a4", 1),
    ("pnp-a4-fold", 0),
    ("printer", 1),
    ("printer-cmyk", 1),
)


def profiles(pictures: Path, build: Path) -> None:
    """A page of the English place cards in each home and shop profile."""
    places = {
        e["profile"]: e
        for e in outputs(build)
        if (e["edition"], e["deck"]) == ("guess-the-mess-en", "places")
    }
    for profile, index in PROFILE_PAGES:
        entry = places[profile]
        dpi = 30 if profile.startswith("pnp") else 60
        page(build / entry["path"], index, dpi).save(
            pictures / f"profile-{profile}-{index + 1}.png"
        )


def golden(docs: Path) -> None:
    """The golden renders the template reference shows (tests/test_golden.py holds them to
    what the build draws), copied into the site."""
    root = Path(__file__).resolve().parents[1]
    for link in re.findall(
        r"\(pictures/golden/([^)]+\.png)\)", (docs / "templates.md").read_text(encoding="utf-8")
    ):
        target = docs / "pictures" / "golden" / link
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / "tests" / "golden" / link, target)


def draw(build: Path, docs: Path, work: Path) -> None:
    """Every picture of the documentation, into ``docs``."""
    quiz, restyled = starter(work)
    pictures = docs / "pictures"
    pictures.mkdir(parents=True, exist_ok=True)
    entries = {(e["deck"], e["profile"]): e for e in outputs(quiz) if e["edition"] == "quiz"}
    face = first_face(quiz, entries["trivia", "printer"], DPI)
    row([face, first_face(quiz, entries["roles", "printer"], DPI)], 360).save(
        pictures / "starter-cards.png"
    )
    after = {e["deck"]: e for e in outputs(restyled) if e["profile"] == "printer"}["trivia"]
    row([face, first_face(restyled, after, DPI)], 360).save(pictures / "tutorial-restyled.png")
    for deck, profile, name in (
        ("trivia", "pnp-a4", "starter-sheet"),
        ("trivia", "pnp-a4-fold", "starter-fold"),
        ("tokens", "pnp-a4", "starter-tokens-sheet"),
        ("tiles", "pnp-a4", "starter-tiles-sheet"),
    ):
        page(quiz / entries[deck, profile]["path"], 0, 60).save(pictures / f"{name}.png")
    for deck, name, dpi in (("board", "starter-board", 25), ("trivia-box", "starter-tuckbox", 60)):
        entry = entries[deck, "printer"]
        page(quiz / entry["path"], 0, dpi, entry["bleed_mm"]).save(pictures / f"{name}.png")
    profiles(pictures, build)
    gallery(docs, build, quiz, work / "proj" / "decks")
    golden(docs)
    readme_picture(build, quiz).save(docs / "readme-cards.png", optimize=True)


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument(
        "--build", type=Path, default=Path("build"), help="a build of every edition"
    )
    arguments.add_argument("--docs", type=Path, default=Path("docs"), help="where the pictures go")
    options = arguments.parse_args()
    os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
    with tempfile.TemporaryDirectory() as work:
        draw(options.build.resolve(), options.docs.resolve(), Path(work))


if __name__ == "__main__":
    main()
