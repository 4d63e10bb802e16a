"""Benchmark of a deck of any game: `python bench/cards.py` (part of `make bench`);
`python bench/cards.py tokens` times only the tokens.

Builds the trivia deck 'deckforge new game' makes with 10,000 rows in its cards.csv, in
the pnp-a4 profile in one process, and a floor: a plain ReportLab script drawing the same
sheets of the same cards (a band in the category's colour with its name, the question
wrapped to the card, the answer upside down at the bottom, the backs with the game's
name, crop marks). Prints medians of several runs (with min and max), deckforge's peak
memory, and the ratio of processor times to the floor's; the target is at most 2 ×.

Beside it, 10,000 tokens: the round tokens of the same game (its template's
``shape: {type: circle}``: each clipped to its circle, with its cut line), against the
same 10,000 cards drawn as plain squares (the template without its shape). The target is
at most 1.3 × the plain cards' processor time.

The machine is shared and noisy: read medians and ratios, not single runs.
"""

from __future__ import annotations

import csv
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floors import NINE_UP  # noqa: E402
from run import PYTHON, RUNS, deckforge, peak_rss, summary  # noqa: E402

CARDS = 10_000
CATEGORIES = {
    "science": "#0072B2",
    "history": "#D55E00",
    "geography": "#009E73",
    "arts": "#CC79A7",
    "sports": "#E69F00",
    "nature": "#56B4E9",
}


def row(n: int) -> tuple[str, str, str, str]:
    """The n-th card: id, question, answer, category."""
    question = f"Question number {n}: which of the answers below is the right one?"
    return f"q{n:05}", question, f"Answer {n}", list(CATEGORIES)[n % len(CATEGORIES)]


def _starter(folder: Path) -> Path:
    """The starter game made in ``folder``'s decks/ by a fresh process, as a user's
    ``deckforge new game`` makes it; its folder."""
    code = (
        "import sys; from pathlib import Path; from deckforge.authoring.game import new_game;"
        "from deckforge.sources.load import Project; new_game(Project(Path(sys.argv[1])), 'quiz')"
    )
    (folder / "decks").mkdir(parents=True)
    peak_rss([PYTHON, "-c", code, str(folder / "decks")], folder)
    return folder / "decks" / "quiz"


def project(folder: Path) -> Path:
    """A project holding the new game with ``CARDS`` trivia rows and no role deck."""
    game = _starter(folder)
    with (game / "cards.csv").open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(("id", "question", "answer", "category"))
        writer.writerows(row(n) for n in range(CARDS))
    manifest = (game / "edition.yaml").read_text(encoding="utf-8")
    kept = [line for line in manifest.splitlines() if "id: roles" not in line]
    (game / "edition.yaml").write_text("\n".join(kept) + "\n", encoding="utf-8")
    return folder


FLOOR = (
    NINE_UP
    + r"""
import sys
sys.path.insert(0, sys.argv[3])
from cards import CATEGORIES, row
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen import canvas
cards, path = int(sys.argv[1]), sys.argv[2]
W, H = 63.5 * 72 / 25.4, 88.9 * 72 / 25.4
c = canvas.Canvas(path, pagesize=A4)


def face(x, y, n):
    _, question, answer, category = row(n)
    c.setFillColor(CATEGORIES[category])
    c.rect(x, y + H * 0.83, W, H * 0.17, fill=1, stroke=0)
    c.setFillColorRGB(1, 1, 1)
    c.setFont("Helvetica-Bold", 13)
    c.drawCentredString(x + W / 2, y + H * 0.9, category.upper())
    c.setFillColorRGB(0.1, 0.1, 0.15)
    c.setFont("Helvetica-Bold", 16)
    lines = simpleSplit(question, "Helvetica-Bold", 16, W - 26)
    for i, line in enumerate(lines):
        c.drawCentredString(x + W / 2, y + H * 0.6 - i * 18, line)
    c.saveState()
    c.translate(x + W / 2, y + 30)
    c.rotate(180)
    c.setFont("Helvetica-Bold", 13)
    c.drawCentredString(0, 0, answer)
    c.restoreState()


def card(side, x, y, n):
    if side == "face":
        face(x, y, n)
    else:
        c.setFillColorRGB(0.89, 0.34, 0.18)
        c.rect(x, y, W, H, fill=1, stroke=0)
        c.setFillColorRGB(1, 1, 1)
        c.setFont("Helvetica-Bold", 16)
        c.drawCentredString(x + W / 2, y + H / 2, "Quiz")


nine_up(c, cards, W, H, card)
c.save()
"""
)


def token_project(folder: Path, shaped: bool) -> Path:
    """A project holding the new game's token deck alone, with ``CARDS`` tokens: round, or
    (not ``shaped``) the same drawing on plain square cards."""
    game = _starter(folder)
    with (game / "tokens.csv").open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(("id", "label", "icon", "count"))
        writer.writerows((f"t{n:05}", str(n), ("1FA99", "2B50")[n % 2], 1) for n in range(CARDS))
    manifest = (game / "edition.yaml").read_text(encoding="utf-8")
    kept = [line for line in manifest.splitlines() if "- {id:" not in line or "tokens" in line]
    (game / "edition.yaml").write_text("\n".join(kept).replace("count: 30", "") + "\n")
    if not shaped:
        for name in ("token", "token-back"):
            template = game / "templates" / f"{name}.yaml"
            text = template.read_text(encoding="utf-8")
            text = text.replace("shape: {type: circle}\n", "height: 25mm\n")
            template.write_text(text, encoding="utf-8")
    return folder


def tokens() -> None:
    """Time 10,000 round tokens against the same cards square, and say whether the
    target is met."""
    with tempfile.TemporaryDirectory() as scratch:
        round_, square = (
            token_project(Path(scratch) / k, k == "round") for k in ("round", "square")
        )
        cpus: dict[str, list[float]] = {"round": [], "square": []}
        for _ in range(RUNS):
            for kind, folder in (("round", round_), ("square", square)):
                args = ["build", "--profile", "pnp-a4", "--out", str(folder / "build")]
                command = deckforge(*args, "--force", "--quiet", "--jobs", "1")
                cpus[kind].append(peak_rss(command, folder)[1])
        print(f"{CARDS:,} round tokens and {CARDS:,} plain square cards of the same look, pnp-a4:")
        shaped = summary("tokens, processor time", cpus["round"])
        plain = summary("plain cards, processor time", cpus["square"])
        ratio = shaped / plain
        met = "met" if ratio <= 1.3 else "NOT MET"
        print(f"  {'10,000 tokens: at most 1.3 × 10,000 plain cards':<56} {ratio:>7.2f} ×  {met}")


def main() -> None:
    """Time the deck and its floor, and say whether the target is met."""
    here = str(Path(__file__).resolve().parent)
    with tempfile.TemporaryDirectory() as scratch:
        folder = project(Path(scratch))
        times, cpus, peaks, floors, floor_cpus = [], [], [], [], []
        for _ in range(RUNS):
            args = ["build", "--profile", "pnp-a4", "--out", str(folder / "build")]
            wall, cpu, rss = peak_rss(deckforge(*args, "--force", "--quiet", "--jobs", "1"), folder)
            times.append(wall)
            cpus.append(cpu)
            peaks.append(rss)
            floor, floor_cpu, _ = peak_rss(
                [PYTHON, "-c", FLOOR, str(CARDS), str(folder / "floor.pdf"), here], folder
            )
            floors.append(floor)
            floor_cpus.append(floor_cpu)
        print(f"{CARDS:,} trivia cards from a CSV file, pnp-a4:")
        summary("deckforge (one process, like the floor)", times)
        c = summary("deckforge, processor time", cpus)
        summary("deckforge peak RSS", peaks, "MB")
        summary("floor (plain ReportLab)", floors)
        f = summary("floor, processor time", floor_cpus)
        # Processor time, as for the place decks: the machine's cores are shared.
        ratio = c / f
        print(f"  {'ratio to the floor (processor time)':<46} {ratio:8.2f} ×")
        met = "met" if ratio <= 2 else "NOT MET"
        print(f"  {'10,000 CSV cards, pnp-a4: at most 2 × the floor':<56} {ratio:>7.2f} ×  {met}")


if __name__ == "__main__":
    os.environ.setdefault("DECKFORGE_CACHE", str(Path.home() / ".cache" / "deckforge"))
    if sys.argv[1:] != ["tokens"]:
        main()
    tokens()
