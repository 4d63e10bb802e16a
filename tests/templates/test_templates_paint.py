"""Templates' transform and paint: any rotation about the centre or a pivot, opacity,
gradients, drop shadows, outlined and letter-spaced text; drawn with live transparency
in RGB and PDF/X-4 files, and mixed into flat colours (or refused) in PDF/X-1a."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pikepdf
import pytest
from reportlab.lib.rl_accel import fp_str

from deckforge.cli import main
from deckforge.drawing.ops import Layer, Rect, Shadow, Text, Transform, hex_colour, mix
from deckforge.preflight import preflight_file
from deckforge.profiles import OutputIntent
from deckforge.render import colour
from golden_pages import PAINT_DECKS
from templates_support import close, flat, lay_out, library, render, text

HEAD = "kind: template\nsize: poker\nelements:\n"


def _face(tmp_path: Path, elements: str, locale: str = "en", **fields):
    lib = library(tmp_path, t=HEAD + elements)
    cards, problems = lay_out(lib, [{k: text(v) for k, v in fields.items()}], "t", locale=locale)
    assert problems == []
    return cards[0]


def _map(matrix, point):
    a, b, c, d, e, f = matrix
    return a * point[0] + c * point[1] + e, b * point[0] + d * point[1] + f


def _only(ops, kind):
    (found,) = [op for op in ops if isinstance(op, kind)]
    return found


def test_any_angle_turns_the_box_about_its_centre(tmp_path):
    card = _face(
        tmp_path,
        "  - {name: a, type: rect, x: 10mm, y: 10mm, w: 20mm, h: 10mm, fill: ink, rotation: 30}\n",
    )
    turn = _only(flat(card.face), Transform)
    box = _only(turn.ops, Rect)
    centre = (box.x + box.w / 2, box.y + box.h / 2)
    assert _map(turn.matrix, centre) == pytest.approx(centre)
    # Clockwise on the page (y up): the right edge's midpoint goes down.
    right = (box.x + box.w, centre[1])
    x, y = _map(turn.matrix, right)
    half = box.w / 2
    assert (x, y) == pytest.approx(
        (
            centre[0] + half * math.cos(math.radians(30)),
            centre[1] - half * math.sin(math.radians(30)),
        )
    )


def test_a_pivot_stays_where_it_is_and_mirrors_in_right_to_left_editions(tmp_path):
    element = (
        "  - {name: a, type: rect, x: 10mm, y: 10mm, w: 20mm, h: 10mm, fill: ink, "
        "rotation: 15, pivot: bottom-left}\n"
    )
    for locale, corner, sign in (("en", "left", -1), ("fa", "right", 1)):
        card = _face(tmp_path / locale, element, locale=locale)
        turn = _only(flat(card.face), Transform)
        box = _only(turn.ops, Rect)
        pivot = (box.x if corner == "left" else box.x + box.w, box.y)
        assert _map(turn.matrix, pivot) == pytest.approx(pivot)
        # The box's top edge leans right (clockwise) in English, left when mirrored.
        b = turn.matrix[1]
        assert math.copysign(1, b) == sign
        assert abs(b) == pytest.approx(math.sin(math.radians(15)))


def test_a_quarter_turn_about_the_centre_still_turns_what_is_inside_the_box(tmp_path):
    card = _face(
        tmp_path,
        "  - {name: a, type: rect, x: 0, y: 0, w: 20mm, h: 10mm, fill: ink, rotation: 90}\n",
    )
    box = _only(_only(flat(card.face), Transform).ops, Rect)
    assert (box.x, box.y) == (0.0, 0.0)
    assert (round(box.w, 3), round(box.h, 3)) == (28.346, 56.693)  # laid out across


BAD = [
    (
        "{name: a, type: rect, fill: ink, opacity: 1.5}",
        "4:47: elements[0].opacity: 1.5 is above the maximum 1",
    ),
    (
        "{name: a, type: rect, fill: ink, rotation: 400}",
        "4:48: elements[0].rotation: 400 is above the maximum 360",
    ),
    (
        "{name: a, type: rect, fill: ink, pivot: middle}",
        "4:45: elements[0].pivot: 'middle' is not one of: top-left, top, top-right, left, "
        "centre, right, bottom-left, bottom, bottom-right",
    ),
    (
        "{name: a, type: rect, fill: ink, shadow: {spread: 1pt}}",
        "4:47: elements[0].shadow.spread: unknown key 'spread'; allowed keys: x, y, blur, "
        "colour, opacity",
    ),
    (
        "{name: a, type: rect, gradient: {angle: 3}}",
        "4:37: elements[0].gradient: missing required key 'stops'",
    ),
    (
        "{name: a, type: rect, fill: ink, gradient: {stops: [{offset: 0, colour: ink}, "
        "{offset: 1, colour: paper}]}}",
        "4:48: elements[0].gradient: give 'fill' or 'gradient', not both",
    ),
    (
        "{name: a, type: rect, gradient: {stops: [{offset: 0.5, colour: ink}, "
        "{offset: 0.2, colour: paper}]}}",
        "4:37: elements[0].gradient: gradient stop 2's offset 0.2 is before the one before it",
    ),
    (
        "{name: a, type: line, gradient: {stops: [{offset: 0, colour: ink}, "
        "{offset: 1, colour: ink}]}}",
        "4:27: elements[0].gradient: a line element has no key 'gradient'",
    ),
    (
        "{name: a, type: text, text: hi, shadow: {blur: 2pt}}",
        "4:45: elements[0].shadow: a text's shadow is hard: leave out 'blur' or give it 0",
    ),
    (
        "{name: a, type: text, text: hi, letter_spacing: 30pt}",
        "4:53: elements[0].letter_spacing: letter spacing must be from -2pt to 20pt",
    ),
]


@pytest.mark.parametrize(("element", "message"), BAD)
def test_wrong_paint_is_an_error_at_its_place(tmp_path, element, message):
    lib = library(tmp_path, t=HEAD + f"  - {element}\n")
    _, problems = lay_out(lib, [{"name": text("x")}], "t")
    assert [p.format() for p in problems] == [f"decks/test/templates/t.yaml:{message}"]


def test_a_translucent_shape_shows_what_is_beneath_it(tmp_path):
    card = _face(
        tmp_path,
        "  - {name: under, type: rect, x: 0, y: 0, w: 50%, h: 100%, fill: '#0000FF'}\n"
        "  - {name: over, type: rect, x: 25%, y: 25%, w: 50%, h: 50%, fill: '#FF0000', "
        "opacity: 0.6}\n",
    )
    image = render(tmp_path, card.face, card.width, card.height)
    w, h = image.size
    assert close(image.getpixel((int(w * 0.4), h // 2)), "#990066", 8)  # over blue
    assert close(image.getpixel((int(w * 0.6), h // 2)), "#FF6666", 8)  # over white


def test_a_translucent_group_is_made_translucent_as_one(tmp_path):
    card = _face(
        tmp_path,
        "  - name: pair\n    type: group\n    x: 10%\n    y: 10%\n    w: 80%\n    h: 40%\n"
        "    opacity: 0.5\n    elements:\n"
        "      - {name: a, type: rect, x: 0, y: 0, w: 60%, h: 100%, fill: '#000000'}\n"
        "      - {name: b, type: rect, x: 40%, y: 0, w: 60%, h: 100%, fill: '#000000'}\n",
    )
    assert isinstance(flat(card.face)[0], Layer)
    image = render(tmp_path, card.face, card.width, card.height)
    w, h = image.size
    alone, both = (
        image.getpixel((int(w * 0.2), int(h * 0.3))),
        image.getpixel((w // 2, int(h * 0.3))),
    )
    assert close(alone, "#808080", 8) and close(both, "#808080", 8)  # no darker overlap


def test_linear_and_radial_gradients_run_from_their_first_stop_to_their_last(tmp_path):
    card = _face(
        tmp_path,
        "  - {name: sky, type: rect, bleed: true, gradient: {angle: 0, stops: ["
        "{offset: 0, colour: '#FF0000'}, {offset: 1, colour: '#0000FF'}]}}\n"
        "  - {name: sun, type: circle, x: 25%, y: 40%, w: 50%, h: 20%, gradient: {type: radial, "
        "stops: [{offset: 0, colour: '#FFFFFF'}, {offset: 1, colour: '#00FF00'}]}}\n",
    )
    image = render(tmp_path, card.face, card.width, card.height)
    w, h = image.size
    assert close(image.getpixel((1, 5)), "#FF0000", 16)
    assert close(image.getpixel((w - 2, 5)), "#0000FF", 16)
    assert close(image.getpixel((w // 2, 5)), "#800080", 16)
    assert close(image.getpixel((w // 2, h // 2)), "#FFFFFF", 16)


def test_shadows_are_the_shape_moved_hard_or_blurred(tmp_path):
    card = _face(
        tmp_path,
        "  - {name: hard, type: rect, x: 10%, y: 10%, w: 30%, h: 30%, fill: '#FFFFFF', "
        "shadow: {x: 4pt, y: 4pt, colour: '#000000', opacity: 1}}\n"
        "  - {name: soft, type: rect, x: 55%, y: 10%, w: 30%, h: 30%, fill: '#FFFFFF', "
        "shadow: {x: 4pt, y: 4pt, blur: 4pt, colour: '#000000', opacity: 1}}\n",
    )
    ops = flat(card.face)
    assert [type(op) for op in ops] == [Shadow, Rect, Shadow, Rect]
    image = render(tmp_path, card.face, card.width, card.height, dpi=144)
    scale = 2
    hard, soft = ops[1], ops[3]
    # Just right of the hard shape's right edge, in its shadow: black.
    at = (round((hard.x + hard.w + 2) * scale), round((card.height - hard.y - hard.h / 2) * scale))
    assert close(image.getpixel(at), "#000000", 8)
    # A blurred shadow fades: dark within, grey at the moved edge, white far out.
    y = round((card.height - soft.y - soft.h / 2) * scale)
    edge = soft.x + soft.w + 4
    values = [image.getpixel((round((edge + d) * scale), y))[0] for d in (-3, 0, 8)]
    assert values[0] < 80 and 80 < values[1] < 200 and values[2] > 230


def test_outlined_text_is_filled_then_stroked(tmp_path):
    card = _face(
        tmp_path,
        "  - {name: t, type: text, x: 10%, y: 10%, w: 80%, h: 20%, text: '{name}', "
        "font_size: 24pt, colour: '#FFFFFF', stroke: '#FF0000', stroke_width: 1pt}\n",
        name="Outlined",
    )
    op = _only(flat(card.face), Text)
    assert op.outline == hex_colour("#FF0000") and op.outline_width == 1.0
    render(tmp_path, card.face, card.width, card.height)
    with pikepdf.open(tmp_path / "card.pdf") as pdf:
        content = b"".join(s.read_bytes() for s in _contents(pdf))
    assert b"1 0 0 RG 1 w 1 j 2 Tr" in content and b"0 Tr Q" in content


def _contents(pdf):
    for obj in pdf.objects:
        if (
            isinstance(obj, pikepdf.Stream)
            and "/Length" in obj
            and obj.get("/Subtype")
            in (
                None,
                pikepdf.Name.Form,
            )
        ):
            yield obj


def test_letter_spacing_spaces_latin_letters_and_never_persian_ones(tmp_path):
    element = (
        "  - {name: t, type: text, x: 5%, y: 10%, w: 90%, h: 20%, text: '{name}', "
        "font_size: 12pt, letter_spacing: 2pt}\n"
    )
    plain = _face(tmp_path / "plain", element.replace(", letter_spacing: 2pt", ""), name="Paint")
    spaced = _face(tmp_path / "spaced", element, name="Paint")
    (a,), (b,) = (
        _only(flat(plain.face), Text).fitted.lines,
        _only(flat(spaced.face), Text).fitted.lines,
    )
    assert b.width == pytest.approx(a.width + 2 * (len("Paint") - 1))
    assert [r.spacing for r in b.runs] == [2.0]
    mixed = _face(tmp_path / "fa", element, locale="fa", name="رنگ Paint")
    (line,) = _only(flat(mixed.face), Text).fitted.lines
    spacing = {run.text.strip(): run.spacing for run in line.runs if run.text.strip()}
    assert spacing["Paint"] == 2.0
    # Persian is drawn in its joined letter forms (Arabic Presentation Forms).
    persian = [s for t, s in spacing.items() if any("\ufb50" <= ch <= "\ufeff" for ch in t)]
    assert persian and set(persian) == {0.0}


@pytest.fixture(scope="module")
def paint_build(tmp_path_factory) -> Path:
    """The paint edition built for print shops: live (PDF/X-4) and flattened (PDF/X-1a)."""
    out = tmp_path_factory.mktemp("paint") / "build"
    args = ["--decks", str(PAINT_DECKS), "build", "--out", str(out), "--quiet"]
    assert main([*args, "--profile", "printer", "--profile", "printer-cmyk"]) == 0
    return out


def _states(pdf):
    """Every graphics state of the pages' and forms' resources."""
    owners = [page.obj for page in pdf.pages]
    owners += [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and "/Resources" in o]
    for owner in owners:
        resources = owner.get("/Resources")
        if resources is not None and "/ExtGState" in resources:
            yield from resources.ExtGState.values()


@pytest.mark.parametrize("deck", ["fan", "dawn"])
def test_pdfx_1a_files_hold_no_transparency_and_pass_preflight(paint_build, deck):
    path = paint_build / "paint" / "printer-cmyk" / f"{deck}.pdf"
    with pikepdf.open(path) as pdf:
        assert pdf.check_pdf_syntax() == []
        for state in _states(pdf):
            assert float(state.get("/ca", 1)) == 1 and float(state.get("/CA", 1)) == 1
            assert "/SMask" not in state or state.SMask == pikepdf.Name.None_
        for obj in pdf.objects:
            if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
                assert "/SMask" not in obj
                if "/Group" in obj:
                    assert obj.Group.get("/S") != pikepdf.Name.Transparency
    entry = {"profile": "printer-cmyk", "kind": "cards", "path": f"paint/printer-cmyk/{deck}.pdf"}
    report = preflight_file(path, _entry(paint_build, entry["path"]))
    assert not report.failed, report
    for name in ("pdf/x", "pdf/x colour", "ink"):
        assert report.check(name).status == "ok", report.check(name)


def _entry(built: Path, path: str) -> dict:
    import json

    outputs = json.loads((built / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    (found,) = [e for e in outputs if e["path"] == path]
    return found


def test_pdfx_4_files_keep_live_transparency_and_pass_preflight(paint_build):
    path = paint_build / "paint" / "printer" / "fan.pdf"
    with pikepdf.open(path) as pdf:
        alphas = {float(s.get("/ca", 1)) for s in _states(pdf)}
        groups = [
            o
            for o in pdf.objects
            if isinstance(o, pikepdf.Stream) and o.get("/Group", {}).get("/S") == "/Transparency"
        ]
    assert 0.8 in alphas and groups
    report = preflight_file(path, _entry(paint_build, "paint/printer/fan.pdf"))
    assert not report.failed, report


def _project(tmp_path: Path, template: str) -> Path:
    decks = tmp_path / "decks"
    shutil.copytree(PAINT_DECKS, decks)
    (decks / "paint" / "templates" / "fan.yaml").write_text(HEAD + template, encoding="utf-8")
    return decks


def _cmyk_fan(decks: Path, out: Path) -> tuple[colour.Converter, str]:
    """The paint edition built in printer-cmyk: the converter its colours went through,
    and the fan card file's page content."""
    args = ["--decks", str(decks), "build", "--out", str(out), "--quiet", "--edition", "paint"]
    assert main([*args, "--profile", "printer-cmyk"]) == 0
    converter = colour.converter(OutputIntent(), 240.0, (0.6, 0.4, 0.4, 1.0))
    with pikepdf.open(out / "paint" / "printer-cmyk" / "fan.pdf") as pdf:
        content = b"".join(s.read_bytes() for s in _contents(pdf)).decode("latin-1")
    return converter, content


def test_translucent_flat_colours_are_mixed_into_the_exact_inks_of_the_mixed_colour(tmp_path):
    """Over a fill, over an outline (its ring, filled even-odd) and over the paper."""
    decks = _project(
        tmp_path,
        "  - {name: under, type: rect, bleed: true, fill: '#F2C14E'}\n"
        "  - {name: edge, type: rect, x: 10%, y: 10%, w: 50%, h: 50%, radius: 2mm, "
        "stroke: '#6B2A7A', stroke_width: 2pt}\n"
        "  - {name: over, type: rect, x: 20%, y: 20%, w: 60%, h: 60%, radius: 3mm, "
        "fill: '#3A7CA5', rotation: 15, opacity: 0.8}\n",
    )
    converter, content = _cmyk_fan(decks, tmp_path / "out")
    under, over = hex_colour("#F2C14E"), hex_colour("#3A7CA5")
    expected = {
        fp_str(*converter.inks(mix(under, over, 0.8), True)) + " k",  # over the yellow
        fp_str(*converter.inks(mix((1.0, 1.0, 1.0), over, 0.8), True)) + " k",  # over paper
        # Over the outline, painted inside the ring the outline covers.
        fp_str(*converter.inks(mix(hex_colour("#6B2A7A"), over, 0.8), True)) + " k",
    }
    assert all(code in content for code in expected), expected
    assert "W* n" in content  # the outline's ring, as a clip


def test_an_opaque_hard_shadow_over_a_gradient_is_drawn_flat_in_pdfx_1a(tmp_path):
    # Opaque over a gradient hides it as any opaque shape does: nothing to mix.
    decks = _project(
        tmp_path,
        "  - {name: sky, type: rect, bleed: true, gradient: {angle: 90, stops: "
        "[{offset: 0, colour: '#F2C14E'}, {offset: 1, colour: '#3A7CA5'}]}}\n"
        "  - {name: plate, type: rect, x: 20%, y: 20%, w: 60%, h: 40%, fill: paper, "
        "shadow: {x: 0pt, y: -2pt, blur: 0pt, opacity: 1, colour: '#6B2A7A'}}\n",
    )
    out = tmp_path / "out"
    converter, content = _cmyk_fan(decks, out)
    assert fp_str(*converter.inks(hex_colour("#6B2A7A"), True)) + " k" in content
    path = out / "paint" / "printer-cmyk" / "fan.pdf"
    entry = _entry(out, "paint/printer-cmyk/fan.pdf")
    report = preflight_file(path, entry)
    assert not report.failed, report


@pytest.mark.parametrize(
    ("element", "what"),
    [
        (
            "{name: soft, type: rect, x: 10%, y: 10%, w: 50%, h: 50%, fill: ink, "
            "shadow: {blur: 3pt}}",
            "has a blurred shadow",
        ),
        (
            "{name: soft, type: rect, x: 10%, y: 10%, w: 50%, h: 50%, opacity: 0.5, gradient: "
            "{stops: [{offset: 0, colour: ink}, {offset: 1, colour: paper}]}}",
            "has a gradient under opacity",
        ),
        (
            "{name: soft, type: text, x: 10%, y: 5%, w: 80%, h: 10%, text: x, opacity: 0.5}",
            "is translucent over text",
        ),
    ],
)
def test_what_cannot_be_flattened_is_refused_at_its_place_in_pdfx_1a_only(
    tmp_path, capsys, element, what
):
    template = (
        "  - {name: bg, type: rect, bleed: true, fill: paper}\n"
        "  - {name: label, type: text, x: 10%, y: 5%, w: 80%, h: 10%, text: '{title}'}\n"
        f"  - {element}\n"
    )
    decks = _project(tmp_path, template)
    place = "paint/templates/fan.yaml:6:5: elements[2]: "
    # validate finds it before a build does (the default profiles include printer-cmyk).
    assert main(["--decks", str(decks), "validate", "paint"]) == 1
    assert f"{place}this element {what}, and PDF/X-1a" in capsys.readouterr().err
    args = ["--decks", str(decks), "build", "--quiet", "--edition", "paint"]
    assert main([*args, "--out", str(tmp_path / "x4"), "--profile", "printer"]) == 0
    capsys.readouterr()
    code = main([*args, "--out", str(tmp_path / "x1a"), "--profile", "printer-cmyk"])
    assert code not in (0, 3)
    err = capsys.readouterr().err
    # Reported as every problem of a build is: its place, its line and a caret under it.
    assert f"{place}this element {what}, and PDF/X-1a" in err, err
    assert "print it from the printer profile (PDF/X-4)" in err
    assert f"    6 |   - {element}\n      |     ^\n" in err, err
    assert "build failed: 1 problem; nothing was written" in err
    assert not (tmp_path / "x1a" / "paint" / "printer-cmyk" / "fan.pdf").exists()


def test_the_template_reference_shows_the_templates_its_pictures_are_drawn_from():
    from deckforge.authoring import template_docs, template_examples

    templates = PAINT_DECKS / "paint" / "templates"
    assert template_examples.PAINT_FAN == (templates / "fan.yaml").read_text(encoding="utf-8")
    assert template_examples.PAINT_DAWN == (templates / "dawn.yaml").read_text(encoding="utf-8")
    reference = template_docs.reference()
    for picture in ("paint/printer/fan-p2.png", "paint/printer/dawn-p2.png"):
        assert f"(pictures/golden/paint/{picture})" in reference
        assert (Path(__file__).parents[1] / "golden" / "paint" / picture).is_file()


def test_the_paint_cards_draw_what_the_golden_drawing_log_says():
    """Every operation of the golden renders' cards, as text: a change to what they
    draw shows here line by line (``make golden`` writes the log again)."""
    from drawing_log import LOG, drawing_log

    assert drawing_log() == LOG.read_text(encoding="utf-8")


def test_gradients_in_pdfx_1a_go_through_the_cmyk_separation(paint_build):
    """Each stop's inks are its colour's separation, and colours between two stops are
    separated too (eight a segment), not a straight line of inks."""
    converter = colour.converter(OutputIntent(), 240.0, (0.6, 0.4, 0.4, 1.0))
    sky = [hex_colour(c) for c in ("#1B2D52", "#E4572E", "#F2C14E")]
    with pikepdf.open(paint_build / "paint" / "printer-cmyk" / "dawn.pdf") as pdf:
        (linear,) = [
            o
            for o in pdf.objects
            if isinstance(o, (pikepdf.Dictionary, pikepdf.Stream)) and o.get("/ShadingType") == 2
        ]
        assert linear.ColorSpace == pikepdf.Name.DeviceCMYK
        parts = linear.Function.Functions
        assert len(parts) == 16
        first = [float(v) for v in parts[0].C0]
        middle = [float(v) for v in parts[7].C1]  # the stop at 0.6
        last = [float(v) for v in parts[-1].C1]
    for found, rgb in zip((first, middle, last), sky, strict=True):
        assert found == pytest.approx(converter.inks(rgb, True), abs=1e-4)
