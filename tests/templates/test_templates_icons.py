"""Icons in templates: a tint draws everything an icon paints in one colour, its shape
kept; the project's own SVG files are icons too, held inside the project; bad tints
and paths are errors at their place."""

from __future__ import annotations

import numpy as np
from PIL import Image

from deckforge.drawing.ops import WHITE, Face, Icon, Inks, Picture, Rect
from templates_support import H, problems_of, render, text
from templates_support import one as one_card

SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">
<rect x="1" y="1" width="8" height="8" fill="#FF0000" stroke="#0000FF"/></svg>
"""
WHERE = "decks/test/templates/t.yaml"


def test_a_tint_written_out_or_bound_is_the_icons_one_colour(tmp_path):
    ops = one_card(
        tmp_path,
        """
elements:
  - {name: a, type: icon, icon: 1F5E1, tint: white, x: 0, y: 0, size: 20pt}
  - {name: b, type: icon, icon: 1F5E1, tint: "{tint}", x: 0, y: 0, size: 20pt}
  - {name: c, type: icon, icon: 1F5E1, tint: "cmyk(0, 100, 100, 0)", x: 0, y: 0, size: 20pt}
  - {name: d, type: icon, icon: 1F5E1, x: 0, y: 0, size: 20pt}
""",
        [{"tint": text("#00FF00")}],
    )
    assert ops == [
        Icon("1F5E1", 0, H - 20, 20, 20, WHITE),
        Icon("1F5E1", 0, H - 20, 20, 20, (0.0, 1.0, 0.0)),
        Icon("1F5E1", 0, H - 20, 20, 20, Inks(0.0, 1.0, 1.0, 0.0)),
        Icon("1F5E1", 0, H - 20, 20, 20),
    ]


def test_an_svg_of_the_project_is_an_icon_and_takes_a_tint(tmp_path):
    folder = tmp_path / "decks" / "test" / "templates"
    folder.mkdir(parents=True)
    (folder / "crest.svg").write_text(SVG, encoding="utf-8")
    ops = one_card(
        tmp_path,
        "elements:\n  - {name: a, type: icon, icon: crest.svg, tint: black, size: 10mm}\n",
    )
    assert len(ops) == 1 and isinstance(ops[0], Picture)
    assert (ops[0].path, ops[0].kind, ops[0].cover, ops[0].tint) == (
        str(folder / "crest.svg"),
        "svg",
        False,
        (0.0, 0.0, 0.0),
    )


def test_bad_tints_and_svgs_outside_the_project_are_errors_at_their_place(tmp_path):
    found = problems_of(
        tmp_path,
        """
elements:
  - {name: a, type: icon, icon: 1F5E1, tint: whte}
  - {name: b, type: icon, icon: 1F5E1, tint: "cmyk(0, 0, 0)"}
  - {name: c, type: icon, icon: ../../../../outside.svg}
  - {name: d, type: icon, icon: gone.svg}
""",
    )
    assert found == [
        f"{WHERE}:5:46: elements[0].tint: unknown colour 'whte'; did you mean 'white'?",
        f"{WHERE}:6:46: elements[1].tint: cmyk() takes four inks, cyan, magenta, yellow and "
        "black, from 0 to 100; found 3: cmyk(0, 0, 0)",
        f"{WHERE}:7:33: elements[2].icon: '../../../../outside.svg' is outside the project; "
        "files must stay inside it",
        f"{WHERE}:8:33: elements[3].icon: the file 'gone.svg' does not exist (looked in "
        "decks/test/templates/)",
    ]


def _painted(image: Image.Image, ground: tuple[int, int, int]) -> np.ndarray:
    """Where a render differs from its ground colour."""
    pixels = np.asarray(image.convert("RGB"), dtype=np.int16)
    return np.abs(pixels - np.array(ground)).max(axis=2) > 40


def test_a_tinted_icon_keeps_its_shape_in_the_one_colour(tmp_path):
    magenta = (1.0, 0.0, 1.0)  # no colour of the icon's is near it
    size = 144.0

    def drawn(tint) -> Image.Image:
        ground = Rect(0, 0, size, size, fill=magenta)
        face = Face((ground, Icon("1F5E1", 0, 0, size, size, tint)))
        return render(tmp_path, face, size, size, dpi=144)

    own, white = drawn(None), drawn(WHITE)
    shape, silhouette = _painted(own, (255, 0, 255)), _painted(white, (255, 0, 255))
    overlap = (shape & silhouette).sum() / (shape | silhouette).sum()
    assert overlap > 0.99, overlap
    pixels = np.asarray(white.convert("RGB"), dtype=np.int16)[silhouette]
    # Inside the silhouette everything is the tint (edges blend into the ground).
    assert (pixels[:, 1] >= 40).all()  # green: none in the ground, all in the tint
    assert (np.abs(pixels - 255).max(axis=1) <= 2).mean() > 0.9
    colours = np.asarray(own.convert("RGB"))[shape]
    assert len({tuple(c) for c in colours}) > 20  # the icon's own colours, not one
