"""The separation of the default press profile, measured as a print shop would: each
colour's print (the CMYK the build writes, read back through the profile's CMYK-to-Lab
table as littleCMS interpolates it) against the best any ink mixture within 240 % reaches
on the same profile (a 4 % then 2 % grid search), in CIEDE2000."""

from __future__ import annotations

import shutil
from types import SimpleNamespace

import numpy as np
import pytest

from colours_support import (
    FOGRA39,
    HARD,
    LIMIT,
    colour_sets,
    design_colours,
    grey_axis,
    printed_and_best,
    rgb,
    shop_profile,
    summary,
)
from deckforge.pipeline import reach
from deckforge.profiles import OutputIntent, all_profiles
from deckforge.render import colour


@pytest.fixture(scope="module")
def converter():
    return colour.converter(OutputIntent(), LIMIT)


@pytest.fixture(scope="module")
def measured(converter):
    """For each set of colours: the inks printed, their ΔE2000, the best reachable."""
    sets = colour_sets()
    every = np.concatenate(list(sets.values()))
    inks, printed, best = printed_and_best(converter, every, LIMIT)
    result, start = {}, 0
    for name, rgbs in sets.items():
        end = start + len(rgbs)
        result[name] = (inks[start:end], printed[start:end], best[start:end])
        start = end
    return result


def test_the_design_colours_are_found():
    names = design_colours()
    assert len(names) > 20
    assert {"#D55E00", "#5B8E23", "#4B3F9E", "#7209B7"} <= set(names)


@pytest.mark.slow  # searches every ink mixture for each colour's best
@pytest.mark.parametrize("name", ["design", "grid", "grey"])
def test_colours_print_as_near_as_the_inks_reach(measured, name):
    inks, printed, best = measured[name]
    figures = summary(printed - best)
    assert figures["p95"] <= 0.5, figures
    assert figures["max"] <= 1.0, figures
    assert (inks.sum(axis=1) <= LIMIT / 100 + 1e-6).all()


@pytest.mark.slow  # searches every ink mixture for each colour's best
def test_the_hard_colours_print_within_half_a_unit_of_their_best(measured):
    inks, printed, best = measured["hard"]
    over = dict(zip(HARD, np.round(printed - best, 2), strict=True))
    assert all(v <= 0.5 for v in over.values()), over
    assert max(printed[1:3]) < 6.1  # not the 13–22 of a grey K tint or cut-back inks


def test_black_replaces_grey_within_the_ink_limit(converter):
    # A dark grey keeps its darkness by black, not by cutting every ink.
    c, m, y, k = converter.area((0x20 / 255,) * 3)
    assert k > 0.95 and c + m + y + k <= LIMIT / 100 + 1e-6
    assert converter.area((0.0, 0.0, 0.0)) == (0.6, 0.4, 0.4, 1.0)
    assert converter.cmyk((0.0, 0.0, 0.0)) == (0.0, 0.0, 0.0, 1.0)


RAMPS = {
    "grey": (1, 1, 1),
    "red": (1, 0, 0),
    "green": (0, 1, 0),
    "blue": (0, 0, 1),
    "cyan": (0, 1, 1),
    "magenta": (1, 0, 1),
    "yellow": (1, 1, 0),
}


@pytest.mark.parametrize("ramp", sorted(RAMPS))
def test_ramps_separate_without_steps(converter, ramp):
    # From white to the colour (and, for grey, to black), in 256 steps.
    end = np.array(RAMPS[ramp], dtype=float)
    steps = np.arange(256)[:, None] / 255
    rgbs = steps * end + (1 - steps) if ramp != "grey" else steps * end
    inks = np.array([converter.separated(tuple(float(v) for v in rgb)) for rgb in rgbs])
    assert np.abs(np.diff(inks, axis=0)).max() <= 0.02 + 1e-9


def test_colours_the_press_cannot_print_are_named_where_they_are_used(tmp_path):
    source = tmp_path / "cards.yaml"
    inside = " ".join(f"'{c}'" for c in design_colours() if c not in ("#7209B7", "#B5179E"))
    source.write_text(f"inside: [{inside}]\nfun: {{colour: '#7209B7'}}\n", encoding="utf-8")
    edition = SimpleNamespace(inputs={source: ""}, root=tmp_path)
    found = reach.unreachable([edition], [all_profiles()["printer-cmyk"]])  # type: ignore[list-item]
    assert [p.format() for p in found] == [
        "cards.yaml:2:16: warning: colour #7209B7 is outside what FOGRA39 prints at 240 % "
        "ink: it prints as 82/100/0/0 (C/M/Y/K), ΔE2000 9.2 from its design; the nearest "
        "printable colour is #603285"
    ]
    assert reach.unreachable([edition], [all_profiles()["printer"]]) == []  # type: ignore[list-item]


def test_a_colour_in_card_data_is_named_at_its_cell(tmp_path):
    import openpyxl

    (tmp_path / "cards.csv").write_text("name,colour\nFun,#7209b7\nSea,#0B3736\n")
    book = openpyxl.Workbook()
    book.active.title = "Cards"
    book.active.append(["name", "colour"])
    book.active.append(["Sport", "#B5179E"])
    book.save(tmp_path / "cards.xlsx")
    inputs = {tmp_path / "cards.csv": "", tmp_path / "cards.xlsx": ""}
    edition = SimpleNamespace(inputs=inputs, root=tmp_path)
    found = reach.unreachable([edition], [all_profiles()["printer-cmyk"]])  # type: ignore[list-item]
    assert [(p.ref.where, p.message.split(" is ")[0]) for p in found] == [
        ("cards.csv:2:5", "colour #7209B7"),
        ("cards.xlsx!Cards:B2", "colour #B5179E"),
    ]


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    """A shop's CMYK profile, made by Argyll's colprof from FOGRA's data at 240 %."""
    assert shutil.which("colprof"), "Argyll is missing: install Debian's argyll"
    assert FOGRA39.is_file(), "FOGRA's data is missing: install Debian's icc-profiles-free"
    return OutputIntent.from_file(shop_profile(tmp_path_factory.mktemp("shop"), "l"))


@pytest.mark.engines  # Argyll makes the shop's profile from FOGRA's data
def test_a_shop_profile_is_used_as_it_is_and_measured_the_same_way(shop):
    converter = colour.Converter(shop, LIMIT)
    rgbs = np.concatenate([rgb(design_colours()), grey_axis(52)])
    inks, printed, best = printed_and_best(converter, rgbs, LIMIT)
    assert (inks.sum(axis=1) <= LIMIT / 100 + 1e-6).all()
    figures = summary(printed - best)
    # Its own separation, not the press model's: the two differ.
    ours = colour.converter(OutputIntent(), LIMIT)
    assert any(converter.area(tuple(rgb)) != ours.area(tuple(rgb)) for rgb in rgbs[:8])
    assert 0.0 <= figures["mean"] < figures["max"], figures
    # Along the grey axis Argyll's separation is near the best its profile reaches.
    grey = (printed - best)[-52:]
    assert np.percentile(grey, 95) < 2.0, grey


def test_a_cmyk_build_says_which_colour_it_cannot_print(tmp_path, capsys):
    from deckforge.cli import main

    folder = tmp_path / "game"
    assert main(["init", str(folder)]) == 0
    places = folder / "decks" / "example" / "places.yaml"
    places.write_text(places.read_text().replace("#4B3F9E", "#7209B7"))
    decks = str(folder / "decks")
    out = str(folder / "build")
    assert main(["--decks", decks, "build", "--out", out, "--profile", "printer"]) == 0
    assert "#7209B7" not in capsys.readouterr().err
    assert main(["--decks", decks, "build", "--out", out, "--profile", "printer-cmyk"]) == 0
    err = capsys.readouterr().err
    assert "decks/example/places.yaml:12:43: warning: colour #7209B7 is outside what " in err
    assert err.count("warning: colour #") == 1, err


def test_a_build_with_nothing_to_make_still_says_which_colour_it_cannot_print(tmp_path, capsys):
    from deckforge.cli import main

    folder = tmp_path / "game"
    assert main(["init", str(folder)]) == 0
    places = folder / "decks" / "example" / "places.yaml"
    places.write_text(places.read_text().replace("#4B3F9E", "#7209B7"))
    build = ["--decks", str(folder / "decks"), "build", "--out", str(folder / "build")]
    warning = "decks/example/places.yaml:12:43: warning: colour #7209B7 is outside what "
    assert main([*build, "--profile", "printer", "--profile", "printer-cmyk"]) == 0
    assert capsys.readouterr().err.count(warning) == 1
    # Up to date: the command line's quick answer, and the build's, give it again.
    assert main([*build, "--profile", "printer-cmyk"]) == 0
    out, err = capsys.readouterr()
    assert "nothing to do" in out and err.count(warning) == 1, (out, err)
    assert main([*build, "--profile", "printer-cmyk", "--edition", "example-en"]) == 0
    out, err = capsys.readouterr()
    assert "already up to date" in out and err.count(warning) == 1, (out, err)
    # A warm build of another change gives it once; a build not for CMYK, not at all.
    rulebook = folder / "decks" / "example" / "rulebook.yaml"
    rulebook.write_text(rulebook.read_text() + "# A note that changes no page.\n")
    assert main([*build, "--profile", "printer", "--profile", "printer-cmyk"]) == 0
    out, err = capsys.readouterr()
    assert "unchanged" in out and err.count(warning) == 1, (out, err)
    assert main([*build, "--profile", "printer"]) == 0
    assert "#7209B7" not in capsys.readouterr().err


def test_the_arrays_delta_e_2000_matches_the_published_test_data():
    # Sharma, Wu and Dalal's CIEDE2000 pairs, all at once, as the separation measures.
    from deckforge.render.gamut import delta_e_2000

    first = np.array(
        [(50, 2.6772, -79.7751), (50, -1.3802, -84.2814), (60.2574, -34.0099, 36.2677)]
    )
    second = np.array([(50, 0, -82.7485), (50, 0, -82.7485), (60.4626, -34.1751, 39.4387)])
    assert delta_e_2000(first, second) == pytest.approx([2.0425, 1.0, 1.2644], abs=1e-3)
