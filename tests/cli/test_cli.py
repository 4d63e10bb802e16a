"""The command line: exit codes, every problem reported with its place, builds kept safe."""

from __future__ import annotations

import re

import pytest

from conftest import DECKS
from deckforge.cli import main

GTM = "guess-the-mess"


def _edit(path, old, new, count=1):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def _snapshot(folder):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_validate_passes_on_the_shipped_decks(capsys):
    assert main(["--decks", str(DECKS), "validate"]) == 0
    assert capsys.readouterr().out.startswith("ok:")


def test_usage_errors_exit_2(capsys):
    assert main(["--decks", str(DECKS), "build", "--edition", "no-such-edition"]) == 2
    assert "no edition named 'no-such-edition'" in capsys.readouterr().err
    assert main(["--decks", str(DECKS), "build", "--profile", "no-such-profile"]) == 2
    assert main(["frobnicate"]) == 2


def test_a_command_line_makes_the_parser_of_the_command_it_names(capsys):
    from deckforge.cli.parser import COMMANDS, parser

    def commands(argv):
        sub = next(a for a in parser(argv)._actions if a.dest == "command")
        return list(sub.choices)

    every = [command.NAME for command in COMMANDS]
    assert commands(["build", "--out", "new"]) == ["build"]
    # The folder --decks takes is not the command, however it is named.
    assert commands(["--decks", "new", "--debug", "validate"]) == ["validate"]
    for argv in (None, [], ["--help"], ["frobnicate", "build"], ["--decks", "build"]):
        assert commands(argv) == every
    # An unknown command's error, and help, list every command.
    assert main(["frobnicate", "build"]) == 2
    error = capsys.readouterr().err
    assert all(name in error for name in every)
    assert main(["--help"]) == 0
    shown = capsys.readouterr().out
    assert all(name in shown for name in every)
    assert main(["build", "--help"]) == 0
    assert "--profile NAME" in capsys.readouterr().out


def test_four_kinds_of_problem_are_all_reported_and_the_build_is_kept(project, capsys):
    decks = project / "decks"
    out = project / "build"
    args = [
        "--decks",
        str(decks),
        "build",
        "--edition",
        "guess-the-mess-en",
        "--out",
        str(out),
        "--profile",
        "pnp-a4",
        "--quiet",
    ]
    assert main(args) == 0
    before = _snapshot(out)

    folder = decks / GTM
    _edit(folder / "spots.yaml", "numbers: {from: 1, to: 8}", "numbers: {from: 1, to: 8")
    _edit(folder / "which-way.yaml", "direction: left, distance: 1", "direction: up, distance: 1")
    places = (folder / "places.yaml").read_text(encoding="utf-8")
    second_id = re.findall(r"- id: ([a-z0-9-]+)", places)[1]
    _edit(folder / "places.yaml", f"- id: {second_id}\n", "- id: kitchen\n")
    mess = (folder / "mess.yaml").read_text(encoding="utf-8")
    first_name = re.search(r"name: \{en: ([^,]+),", mess).group(1)
    _edit(
        folder / "mess.yaml",
        f"name: {{en: {first_name},",
        "name: {en: " + "Extraordinarily Unwieldy " * 12 + ",",
    )
    capsys.readouterr()

    assert main(args) == 1
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert any(
        re.match(r"decks/guess-the-mess/spots\.yaml:\d+:\d+: YAML syntax error", line)
        for line in lines
    ), err
    assert any(
        re.match(
            r"decks/guess-the-mess/which-way\.yaml:11:\d+: cards\[0\]\.direction: "
            r"'up' is not one of: left, right",
            line,
        )
        for line in lines
    ), err
    assert any(
        re.match(
            r"decks/guess-the-mess/places\.yaml:\d+:\d+: places\[1\]\.id: "
            r"duplicate id 'kitchen' \(also at line \d+\)",
            line,
        )
        for line in lines
    ), err
    assert any(
        re.match(
            r"decks/guess-the-mess/mess\.yaml:\d+:\d+: items\[0\]\.name\.en: "
            r"card '[a-z0-9-]+': cannot fit",
            line,
        )
        for line in lines
    ), err
    assert "nothing was written" in lines[-1]
    assert _snapshot(out) == before
    assert not list(out.rglob("*.tmp"))


def test_unknown_keys_suggest_the_right_one(project, capsys):
    folder = project / "decks" / GTM
    _edit(folder / "places.yaml", "    category: home\n", "    categry: home\n")
    assert main(["--decks", str(project / "decks"), "validate", GTM]) == 1
    err = capsys.readouterr().err
    assert re.search(
        r"places\.yaml:\d+:5: places\[0\]\.categry: unknown key 'categry'; "
        r"did you mean 'category'\?",
        err,
    ), err


def test_count_must_match_the_edition(project, capsys):
    folder = project / "decks" / GTM
    _edit(
        folder / "edition.yaml",
        "size: poker, count: 8, back: {en: Spot",
        "size: poker, count: 9, back: {en: Spot",
    )
    assert main(["--decks", str(project / "decks"), "validate", GTM]) == 1
    assert (
        "deck 'spots' has 8 cards in decks/guess-the-mess/spots.yaml; the edition says 9"
        in capsys.readouterr().err
    )


def test_which_way_cards_never_send_a_mess_home(project, capsys):
    folder = project / "decks" / GTM
    _edit(
        folder / "which-way.yaml",
        "{id: left-3, direction: left, distance: 3, min_players: 6}",
        "{id: left-3, direction: left, distance: 3, min_players: 3}",
    )
    assert main(["--decks", str(project / "decks"), "validate", GTM]) == 1
    assert (
        "'left-3' (left 3) sends a mess back to its own maker with 3 players"
        in capsys.readouterr().err
    )


def _usage_error(argv, capsys, tmp_path) -> str:
    out = tmp_path / "build"
    code = main(["--decks", str(DECKS), *argv[:1], "--out", str(out), *argv[1:]])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and "internal error" not in err
    assert not out.exists()
    return err.strip().splitlines()[-1]


def test_a_number_of_processes_under_one_is_a_usage_error(capsys, tmp_path):
    for value in ("0", "-1"):
        assert _usage_error(["build", "--jobs", value], capsys, tmp_path) == (
            f"deckforge build: error: argument --jobs: {value} processes: give a number from "
            "1 to 1024 (or leave --jobs out for one per core)"
        )
    assert _usage_error(["build", "--jobs", "two"], capsys, tmp_path) == (
        "deckforge build: error: argument --jobs: 'two' is not a whole number"
    )
    message = _usage_error(["export", "--jobs", "0"], capsys, tmp_path)
    assert message.startswith("deckforge export: error: argument --jobs: 0 processes")


def test_a_back_offset_that_is_not_a_number_is_a_usage_error(capsys, tmp_path):
    for value in ("nan,0", "0,inf"):
        assert _usage_error(["build", f"--back-offset={value}"], capsys, tmp_path) == (
            f"deckforge build: error: argument --back-offset: '{value}': both X and Y must "
            "be numbers of millimetres"
        )


def test_a_source_date_epoch_deckforge_cannot_write_is_a_usage_error(capsys, tmp_path, monkeypatch):
    for value, why in (
        ("yesterday", "it must be a whole number of seconds since 1970-01-01"),
        ("-5", "it must be a whole number of seconds since 1970-01-01"),
        ("1e9", "it must be a whole number of seconds since 1970-01-01"),
        ("99999999999999999999", "after the year 9999; it must be seconds since 1970-01-01"),
    ):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
        message = _usage_error(["build"], capsys, tmp_path)
        assert message.startswith(f"deckforge: SOURCE_DATE_EPOCH is '{value}'"), message
        assert why in message
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "253402300799")  # the last second of 9999
    assert main(["--decks", str(DECKS), "validate"]) == 0


@pytest.mark.parametrize("column", [1, 150, 500, 998])
def test_a_long_source_line_is_shown_around_the_spot_with_the_caret_under_it(tmp_path, column):
    from deckforge.cli.show import show
    from deckforge.errors import Problem, SourceRef

    line = "".join(chr(ord("a") + n % 26) for n in range(1000))
    (tmp_path / "long.yaml").write_text(f"first: 1\n{line}\n", encoding="utf-8")
    problem = Problem(SourceRef("long.yaml", 2, column), "wrong")
    _, shown, caret = show(problem, tmp_path).split("\n")
    part = shown.removeprefix("    2 | ")
    assert len(part.strip("…")) == 120
    assert part.startswith("…") == (column > 61) and part.endswith("…") == (column < 940)
    # The caret stands under the very character the problem is at.
    assert part[caret.index("^") - len("    2 | ")] == line[column - 1]


def test_validate_of_a_deck_file_checks_the_edition_it_belongs_to(tmp_path, capsys):
    from deckforge.authoring.game import new_game
    from deckforge.sources.load import Project

    (tmp_path / "decks").mkdir()
    folder = new_game(Project(tmp_path / "decks"), "quiz")
    decks = ["--decks", str(tmp_path / "decks")]
    for named in ("trivia.yaml", "cards.csv", "edition.yaml"):
        assert main([*decks, "validate", str(folder / named)]) == 0, named
        assert capsys.readouterr().out.startswith("ok: 1 edition(s)"), named
