"""A project font family: its regular, bold, italic and bold-italic files declared
together, so that markup in text of that family is set in the family's own faces."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from templates_support import one, problems_of, text

#: Liberation Serif, a Debian package (fonts-liberation), not a PyPI one.
pytestmark = pytest.mark.engines

LIBERATION = Path("/usr/share/fonts/truetype/liberation")
FACES = {
    "regular": "LiberationSerif-Regular.ttf",
    "bold": "LiberationSerif-Bold.ttf",
    "italic": "LiberationSerif-Italic.ttf",
    "bold_italic": "LiberationSerif-BoldItalic.ttf",
}


@pytest.fixture
def family(tmp_path) -> str:
    """The template's style line naming the family, its files beside the template."""
    folder = tmp_path / "decks" / "test" / "templates"
    folder.mkdir(parents=True)
    for name in FACES.values():
        if not (LIBERATION / name).is_file():
            pytest.fail(f"{LIBERATION / name} is missing: install fonts-liberation")
        shutil.copy(LIBERATION / name, folder / name)
    return ", ".join(f"{key}: {name}" for key, name in FACES.items())


def _faces(tmp_path, family: str, value: str, weight: str = "regular") -> list[tuple[str, str]]:
    body = (
        f"styles:\n  body: {{font: {{{family}}}, weight: {weight}}}\n"
        "elements:\n  - {name: t, type: text, text: '{n}', style: body, from: safe}\n"
    )
    (op,) = one(tmp_path, body, [{"n": text(value)}])
    return [(run.text, run.font.rsplit("-", 1)[0]) for run in op.fitted.lines[0].runs]


def test_markup_in_a_familys_text_uses_the_familys_own_faces(tmp_path, family):
    faces = _faces(tmp_path, family, "Gain **power** or *grace* or ***both***")
    fonts = {font for _, font in faces}
    assert all(font.startswith("LiberationSerif") for font in fonts), faces
    by_text = {t.strip(): font for t, font in faces}
    assert by_text["power"] == "LiberationSerif-Bold" and len(fonts) == 4, faces


def test_a_bold_style_of_a_family_starts_from_its_bold_face(tmp_path, family):
    regular = _faces(tmp_path, family, "Plain")
    bold = _faces(tmp_path, family, "Plain", "bold")
    assert regular != bold and all(f.startswith("LiberationSerif") for _, f in bold)


def test_a_family_needs_its_regular_face_and_files_that_exist(tmp_path, family):
    body = (
        "styles:\n  body: {font: {bold: LiberationSerif-Bold.ttf}}\n"
        "elements:\n  - {name: t, type: text, text: a, style: body}\n"
    )
    assert problems_of(tmp_path, body) == [
        "decks/test/templates/t.yaml:4:16: styles.body.font: missing required key 'regular'"
    ]
    body = body.replace("{bold:", "{regular: Gone.ttf, bold:")
    assert problems_of(tmp_path, body) == [
        "decks/test/templates/t.yaml:4:16: styles.body.font: the file 'Gone.ttf' does not "
        "exist (looked in decks/test/templates/)"
    ]


def test_a_family_installed_as_a_font_package_is_named_by_its_name(tmp_path):
    body = (
        "styles:\n  body: {font: Noto Serif}\n"
        "elements:\n  - {name: t, type: text, text: 'Gain **power** or *grace*', style: body}\n"
    )
    (op,) = one(tmp_path, body)
    faces = {run.text.strip(): run.font for run in op.fitted.lines[0].runs}
    wanted = {"Gain": "Regular", "power": "Bold", "or": "Regular", "grace": "Italic"}
    assert faces.keys() == wanted.keys(), faces
    assert all(faces[word].startswith(f"NotoSerif-{style}-") for word, style in wanted.items())
    missing = problems_of(tmp_path, body.replace("Noto Serif", "Nope Sans"))
    assert missing == [
        "decks/test/templates/t.yaml:4:16: styles.body.font: no font package holds the family "
        "'Nope Sans' (installed: Noto Sans, Noto Sans Arabic, Noto Serif); install its "
        "package, fontpkg-nope-sans, or name a font file"
    ]


def test_a_span_names_a_declared_family_by_its_regular_file(tmp_path, family):
    body = (
        f"styles:\n  serif: {{font: {{{family}}}}}\n"
        "elements:\n  - {name: t, type: text, text: '{n}', from: safe}\n"
    )
    value = "Sans [font=LiberationSerif-Regular.ttf]serif **bold**[/] sans"
    (op,) = one(tmp_path, body, [{"id": text("a"), "n": text(value)}])
    faces = {run.text.strip(): run.font.rsplit("-", 1)[0] for run in op.fitted.lines[0].runs}
    assert faces["serif"] == "LiberationSerif-Regular", faces
    assert faces["bold"] == "LiberationSerif-Bold", faces
    assert not faces["Sans"].startswith("Liberation") and not faces["sans"].startswith("Lib")
