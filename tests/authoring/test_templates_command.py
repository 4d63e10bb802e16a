"""``deckforge templates list`` and ``show``: what an edition's cards are drawn from, and
a template as drawn, which drawn again from its printed form gives the same cards."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from deckforge.authoring.game import new_game
from deckforge.cli import main
from deckforge.drawing.ops import Rect
from deckforge.layout import cards as card_layout
from deckforge.pipeline.recipe import gather
from deckforge.sources.load import Project, select_editions
from deckforge.templates import load
from templates_support import flat

OWN = "kind: template\nextends: trivia\ncolours:\n  science: '#123456'\nelements:\n"
OWN += "  - {name: question, style: answer}\n"


@pytest.fixture()
def game(tmp_path) -> Path:
    """A new game whose trivia template is its own: it extends the shipped one."""
    (tmp_path / "decks").mkdir()
    folder = new_game(Project(tmp_path / "decks"), "quiz")
    (folder / "templates" / "trivia.yaml").write_text(OWN, encoding="utf-8")
    return tmp_path / "decks"


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list_names_every_shipped_template_with_its_file(capsys):
    code, out, _ = _run(capsys, "templates", "list")
    assert code == 0
    names = sorted(p.stem for p in load.SHIPPED.glob("*.yaml"))
    listed = [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    assert listed == names
    assert "    deckforge/templates/shipped/trivia.yaml" in out.replace("  ", " ")


def test_list_for_an_edition_shows_its_own_templates_and_what_they_hide(game, capsys):
    code, out, _ = _run(capsys, "--decks", str(game), "templates", "list", "--edition", "quiz")
    assert code == 0
    lines = [line.strip() for line in out.splitlines()]
    assert "decks/quiz/templates/host-back.yaml" in lines
    hides = "decks/quiz/templates/trivia.yaml (hides deckforge/templates/shipped/trivia.yaml)"
    assert hides in lines


def test_show_prints_the_template_after_extends_as_drawn(game, capsys):
    code, out, _ = _run(
        capsys, "--decks", str(game), "templates", "show", "trivia", "--edition", "quiz"
    )
    assert code == 0
    assert out.startswith(
        "# trivia: read from decks/quiz/templates/trivia.yaml ← "
        "deckforge/templates/shipped/trivia.yaml\n"
    )
    data = yaml.safe_load(out)
    assert data["colours"]["science"] == "#123456" and data["colours"]["history"] == "#D55E00"
    question = next(e for e in data["elements"] if e["name"] == "question")
    assert question["style"] == "answer" and question["text"] == "{question}"
    assert "  # deckforge/templates/shipped/trivia.yaml:49:5; changed at " in out
    assert "decks/quiz/templates/trivia.yaml:6\n" in out


def _faces(decks: Path) -> list:
    project = Project(decks)
    editions, problems = gather(project, select_editions(project, ["quiz"]))
    assert problems == []
    deck = next(d for d in editions[0].decks if d.id == "trivia")
    laid, problems = card_layout.lay_out_deck(editions[0], deck)
    assert problems == []
    return [card.face for card in laid]


def test_the_shown_template_saved_as_a_file_draws_the_same_cards(game, capsys):
    """What 'show' prints is the template itself: saved in place of the two files it was
    merged from, it draws the same cards."""
    before = _faces(game)
    _, out, _ = _run(
        capsys, "--decks", str(game), "templates", "show", "trivia", "--edition", "quiz"
    )
    (game / "quiz" / "templates" / "trivia.yaml").write_text(out, encoding="utf-8")
    assert "extends" not in out
    assert _faces(game) == before


def test_show_of_an_unknown_template_names_the_known_ones(capsys):
    code, _, err = _run(capsys, "templates", "show", "trivai")
    assert code == 1
    assert "no template named 'trivai' (known: back, blank-place," in err


def test_the_template_reference_is_generated_from_the_registry():
    from deckforge.authoring.template_docs import reference
    from deckforge.templates.elements import load_all

    written = (Path(__file__).resolve().parents[2] / "docs" / "templates.md").read_text(
        encoding="utf-8"
    )
    assert written == reference(), "docs/templates.md is stale: run 'make docs'"
    for name in load_all():
        assert f"### `{name}`" in written


def test_the_references_worked_example_restyles_the_science_cards(game):
    """The override the reference shows, saved where it says, builds and changes the
    colour of the science cards."""
    from deckforge.authoring.template_docs import reference

    text = reference()
    start = text.index("```yaml\nkind: template\nextends: trivia")
    example = text[start + len("```yaml\n") : text.index("```", start + 8)]
    (game / "quiz" / "templates" / "trivia.yaml").write_text(example, encoding="utf-8")
    face = _faces(game)[0]  # q01, a science question
    fills = {
        "#" + "".join(f"{round(c * 255):02X}" for c in op.fill)
        for op in flat(face)
        if isinstance(op, Rect) and op.fill
    }
    assert "#3A0CA3" in fills and "#0072B2" not in fills
