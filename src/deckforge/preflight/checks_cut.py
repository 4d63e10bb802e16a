"""The die line of shaped cards in shop files: one path a page in the Separation colour
``CutContour``, stroked and overprinting, drawn round the TrimBox's shape; on its own
optional-content layer where the file's PDF/X version has layers (PDF/X-4), on none where
it has not (PDF/X-1a:2001, PDF 1.3). A tuck box's shop file has the same one path for its
cut, round its TrimBox, and its folds in the spot colour ``Crease`` inside it."""

from __future__ import annotations

from deckforge.drawing.ops import IDENTITY, apply, mul
from deckforge.preflight.measure import Findings, more
from deckforge.preflight.pdfobjects import matrix
from deckforge.preflight.registry import FileFacts, Target, check
from deckforge.preflight.report import FAIL, NA, OK, Check

NAME = "CutContour"
FOLD = "Crease"
#: How far (points) a die line's extent may stand from the TrimBox.
TOLERANCE = 0.05


@check("die line")
def die_line(f: Findings, t: Target, facts: FileFacts) -> Check:
    """Every page of a shop file of shaped cards has its die line, and nothing else is
    drawn in the die line's colour."""
    box = t.entry.get("kind") == "tuckbox"
    shaped = "tuck box" if box else t.entry.get("shape")
    if not (t.cards or box) or not t.bleed:
        return Check("die line", NA, "home sheets draw their cut lines")
    import pikepdf

    problems: list[str] = []
    with pikepdf.open(facts.path) as pdf:
        layered = "/OCProperties" in pdf.Root
        for number, page in enumerate(pdf.pages, start=1):
            lines = _die_lines(page, NAME)
            if not shaped:
                if lines:
                    problems.append(f"page {number}: a {NAME} path on a rectangular card")
                continue
            if "/TrimBox" not in page:
                problems.append(f"page {number}: no TrimBox to cut round")
                continue
            trim = [float(v) for v in page.TrimBox]
            found = _page_problems(lines, trim, t, layered)
            if box:
                found += _fold_problems(_die_lines(page, FOLD), trim, t)
            problems.extend(f"page {number}: {p}" for p in found)
    if problems:
        advice = f"draw one {NAME} path a page, overprinting, round the trim"
        return Check("die line", FAIL, problems[0] + more(len(problems) - 1, "problem"), advice)
    if not shaped:
        return Check("die line", NA, "rectangular cards: the trim is the cut")
    if box:
        return Check("die line", OK, f"a {NAME} cut and {FOLD} folds on every page")
    return Check("die line", OK, f"a {shaped} {NAME} path on every page")


def _fold_problems(folds: list, trim: list[float], t: Target) -> list[str]:
    """A tuck box's folds: there, overprinting, inside the trim, on the ``Crease`` layer
    where the file may have layers."""
    if not folds:
        return [f"no {FOLD} path for the folds"]
    problems = []
    x0, y0, x1, y1 = trim
    for (a, b, c, d), overprint, layer in folds:
        if a < x0 - TOLERANCE or b < y0 - TOLERANCE or c > x1 + TOLERANCE or d > y1 + TOLERANCE:
            problems.append(f"a {FOLD} path outside the TrimBox")
        if not overprint:
            problems.append(f"the {FOLD} path does not overprint")
        if t.pdfx == "PDF/X-4" and layer != FOLD:
            problems.append(f"the {FOLD} path is not on a layer of its own")
    return problems


def _page_problems(lines: list, trim: list[float], t: Target, layered: bool) -> list[str]:
    if len(lines) != 1:
        return [f"{len(lines)} {NAME} paths, not one"]
    extent, overprint, layer = lines[0]
    problems = []
    if any(abs(a - b) > TOLERANCE for a, b in zip(extent, trim, strict=True)):
        shown = ", ".join(f"{v:.2f}" for v in extent)
        problems.append(f"the {NAME} path spans {shown}, not the TrimBox")
    if not overprint:
        problems.append(f"the {NAME} path does not overprint")
    if t.pdfx == "PDF/X-4" and layer != NAME:
        problems.append(f"the {NAME} path is not on a layer of its own")
    if t.pdfx != "PDF/X-4" and (layer or layered):
        problems.append(f"optional content, which {t.pdfx or 'the file'} may not have")
    return problems


def _die_lines(page, name: str) -> list[tuple[list[float], bool, str]]:
    """Each path stroked in the spot colour ``name``: its extent (x0, y0, x1, y1), whether
    it overprints, and the name of the layer it is on ('' for none)."""
    import pikepdf

    resources = page.get("/Resources", {})
    states = resources.get("/ExtGState", {})
    groups = resources.get("/Properties", {})
    found: list[tuple[list[float], bool, str]] = []
    stack: list[tuple] = []
    ctm, spot, overprint, layers = IDENTITY, False, False, []
    points: list[tuple[float, float]] = []
    for instruction in pikepdf.parse_content_stream(page):
        operands, operator = instruction.operands, instruction.operator
        op = str(operator)
        if op == "q":
            stack.append((ctm, spot, overprint))
        elif op == "Q" and stack:
            ctm, spot, overprint = stack.pop()
        elif op == "cm":
            ctm = mul(matrix(float(v) for v in operands), ctm)
        elif op == "CS":
            spot = str(operands[0]) == f"/{name}"
        elif op == "gs" and str(operands[0]) in states:
            overprint = bool(states[str(operands[0])].get("/OP", overprint))
        elif op in ("BDC", "BMC"):
            tag = str(operands[1]) if op == "BDC" and str(operands[0]) == "/OC" else ""
            group = groups.get(tag) if tag else None
            layers.append(str(group.get("/Name", "")) if group is not None else "")
        elif op == "EMC" and layers:
            layers.pop()
        elif op in ("m", "l", "c", "v", "y"):
            values = [float(v) for v in operands]
            points += [apply(ctm, *values[i : i + 2]) for i in range(0, len(values), 2)]
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            points += [apply(ctm, x, y), apply(ctm, x + w, y + h)]
        elif op in ("S", "s") and spot and points:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            layer = next((group for group in reversed(layers) if group), "")
            found.append(([min(xs), min(ys), max(xs), max(ys)], overprint, layer))
            points = []
        elif op in ("S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"):
            points = []
    return found
