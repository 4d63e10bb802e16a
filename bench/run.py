"""deckforge's benchmark: `make bench`.

Prints medians of several runs (with min and max) for:
  * a first build on a machine whose cache of font instances and icon drawings is empty
    (``DECKFORGE_CACHE`` an empty folder for each run), against a build of the same
    editions with that cache filled: one edition in one profile, and everything;
  * a full build (``--force``) of every edition and profile, in parallel and in one
    process;
  * a rebuild with nothing changed (a fresh process each time, interpreter start included);
  * a rebuild after editing one place name;
  * a synthetic 1,000- and 10,000-card place deck in the pnp-a4 and printer profiles:
    wall time and peak memory (RSS);
  * the floor: a minimal ReportLab script drawing the same number of plain text cards
    onto the same sheets with crop marks, and deckforge's time as a ratio of it;
  * raster outputs of the English edition: PNG export (cold, with nothing changed, after
    editing one place name) against a floor (a plain loop drawing every page with
    PDFium and saving it with Pillow's defaults, in one process, as exports were made
    before); Tabletop Simulator export and the preview site, cold and warm.

The machine is shared and noisy: read medians and ratios, not single runs.
BENCH_ONLY=raster times the raster outputs alone.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
RUNS = int(os.environ.get("BENCH_RUNS", "3"))


def run(args: list[str], cwd: Path, cache: Path | None = None) -> tuple[float, float]:
    """Wall seconds of one child process, and the processor seconds it and the processes
    it started and waited for used (user and system), with its font and icon cache in
    ``cache`` if given."""
    import resource

    env = None if cache is None else {**os.environ, "DECKFORGE_CACHE": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"benchmark step failed: {' '.join(args)}\n{done.stderr[-2000:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu


def peak_rss(args: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and the peak RSS (MB) of a command, measured by a fresh wrapper."""
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "r = subprocess.run(sys.argv[1:]); w = time.perf_counter() - t; "
        "m = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024; "
        "print(f'{w} {m}'); sys.exit(r.returncode)"
    )
    done = subprocess.run([PYTHON, "-c", probe, *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"benchmark step failed: {' '.join(args)}\n{done.stderr[-2000:]}")
    wall, rss = done.stdout.strip().splitlines()[-1].split()
    return float(wall), float(rss)


def summary(name: str, values: list[float], unit: str = "s") -> float:
    median = statistics.median(values)
    print(
        f"  {name:<46} median {median:8.2f} {unit}   (min {min(values):.2f}, "
        f"max {max(values):.2f}, {len(values)} runs)"
    )
    return median


def deckforge(*args: str) -> list[str]:
    return [PYTHON, "-m", "deckforge", *args]


def synthetic_project(folder: Path, cards: int) -> Path:
    """A project with one edition of ``cards`` plain place cards."""
    decks = folder / "decks" / "synthetic"
    decks.mkdir(parents=True)
    categories = ["home", "food", "shop", "school", "travel", "outdoors", "water", "fantasy"]
    lines = ["kind: places", "categories:"]
    lines += [f'  - {{id: {c}, name: {c.title()}, colour: "#3366AA"}}' for c in categories]
    lines.append("places:")
    for n in range(cards):
        lines.append(
            f"  - {{id: place-{n}, name: 'Place number {n}', "
            f"category: {categories[n % len(categories)]}}}"
        )
    (decks / "places.yaml").write_text("\n".join(lines) + "\n")
    (decks / "edition.yaml").write_text(
        "kind: edition\nid: synthetic\ngame: synthetic\ntitle: Synthetic\nlocale: en\n"
        "decks:\n  - {id: places, source: places.yaml, size: poker, back: Place}\n"
    )
    return folder


#: What the first-build case builds: one edition in one profile, and everything.
FIRST_BUILDS = {
    "guess-the-mess-en, pnp-a4": ["--edition", "guess-the-mess-en", "--profile", "pnp-a4"],
    "every edition and profile": [],
}


def first_builds(project: Path, scratch: Path) -> tuple[dict[str, float], Path]:
    """A build with an empty font and icon cache (a new folder for every run) against the
    same build with the cache its first run filled; cold over warm, by selection. Also
    returns the cache that building everything filled, for the cases that follow."""
    ratios = {}
    for index, (name, selection) in enumerate(FIRST_BUILDS.items()):
        args = deckforge(
            "build", "--out", str(scratch / "first-build"), "--force", "--quiet", *selection
        )
        filled = scratch / f"filled-cache-{index}"
        cold = []
        for n in range(RUNS):
            cache = filled if n == 0 else scratch / f"empty-cache-{index}-{n}"
            cache.mkdir()
            cold.append(run(args, project, cache)[0])
            if cache != filled:
                shutil.rmtree(cache)
        warm = [run(args, project, filled)[0] for _ in range(RUNS)]
        print(f"{name}, one process per core:")
        cold_m = summary("first build, empty cache", cold)
        warm_m = summary("the same, cache filled", warm)
        ratios[name] = cold_m / warm_m
        print(f"  {'empty cache / filled cache':<46} {ratios[name]:8.2f} ×")
    return ratios, filled


FLOOR = r"""
import sys
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas
cards, mode, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
W, H = 63.5 * 72 / 25.4, 88.9 * 72 / 25.4


def name(side, n):
    return "Synthetic" if side == "back" else f"Place number {n}"


if mode == "printer":
    b = 9.0
    c = canvas.Canvas(path, pagesize=(W + 2 * b, H + 2 * b))
    for n in range(cards):
        for side in ("back", "face"):
            c.setTrimBox((b, b, b + W, b + H))
            c.setBleedBox((0, 0, W + 2 * b, H + 2 * b))
            c.setFillColorRGB(0.2, 0.4, 0.67)
            c.rect(0, 0, W + 2 * b, H + 2 * b, fill=1, stroke=0)
            c.setFillColorRGB(1, 1, 1)
            c.setFont("Helvetica-Bold", 16)
            c.drawCentredString(b + W / 2, b + H / 2, name(side, n))
            c.showPage()
else:
    pw, ph = A4
    c = canvas.Canvas(path, pagesize=A4)
    left, bottom = (pw - 3 * W) / 2, (ph - 3 * H) / 2
    for start in range(0, cards, 9):
        chunk = range(start, min(start + 9, cards))
        for side in ("face", "back"):
            for i, n in enumerate(chunk):
                row, col = divmod(i, 3)
                if side == "back":
                    col = 2 - col
                x, y = left + col * W, bottom + (2 - row) * H
                c.saveState()
                p = c.beginPath()
                p.rect(x, y, W, H)
                c.clipPath(p, stroke=0, fill=0)
                c.setFillColorRGB(0.9, 0.93, 1)
                c.rect(x, y, W, H, fill=1, stroke=0)
                c.setFillColorRGB(0, 0, 0)
                c.setFont("Helvetica-Bold", 16)
                c.drawCentredString(x + W / 2, y + H / 2, name(side, n))
                c.restoreState()
            c.setLineWidth(0.25)
            for k in range(4):
                x = left + k * W
                c.line(x, bottom + 3 * H + 3, x, bottom + 3 * H + 17)
                c.line(x, bottom - 3, x, bottom - 17)
                y = bottom + k * H
                c.line(left - 3, y, left - 17, y)
                c.line(left + 3 * W + 3, y, left + 3 * W + 17, y)
            c.showPage()
c.save()
"""


def synthetic_builds(scratch: Path) -> dict[tuple[int, str], tuple[float, float, float]]:
    """Synthetic place decks of 1,000 and 10,000 cards in one process: deckforge's time
    and peak memory, and the plain ReportLab floor's time, by (cards, profile)."""
    results: dict = {}
    for cards in (1_000, 10_000):
        synth = synthetic_project(scratch / f"synthetic-{cards}", cards)
        for profile in ("pnp-a4", "printer"):
            times, peaks, floors = [], [], []
            for _ in range(RUNS):
                wall, rss = peak_rss(
                    deckforge(
                        "build",
                        "--profile",
                        profile,
                        "--out",
                        str(synth / "build"),
                        "--force",
                        "--quiet",
                        "--jobs",
                        "1",
                    ),
                    synth,
                )
                times.append(wall)
                peaks.append(rss)
                floor, _ = peak_rss(
                    [PYTHON, "-c", FLOOR, str(cards), profile, str(synth / "floor.pdf")], synth
                )
                floors.append(floor)
            print(f"{cards:,} place cards, {profile}:")
            t = summary("deckforge (one process, like the floor)", times)
            m = summary("deckforge peak RSS", peaks, "MB")
            f = summary("floor (plain ReportLab)", floors)
            print(f"  {'ratio to the floor':<46} {t / f:8.2f} ×")
            results[(cards, profile)] = (t, m, f)
    return results


RASTER_FLOOR = r"""
import sys
from pathlib import Path
import pypdfium2 as pdfium
out = Path(sys.argv[1])
out.mkdir(exist_ok=True)
for pdf in sys.argv[2:]:
    document = pdfium.PdfDocument(pdf)
    for index in range(len(document)):
        page = document[index]
        image = page.render(scale=300 / 72, rev_byteorder=True).to_pil()
        image.save(out / f"{Path(pdf).stem}-{index}.png")
"""

#: Measured before exports drew pages in parallel, once, and only when changed (2 cores).
EARLIER = {"png": "93–118 s", "preview": "51 s"}


def raster(project: Path, out: Path, scratch: Path) -> list[tuple[str, bool, str]]:
    """Time the raster outputs of the English edition; returns the targets' checks.

    The machine is shared: besides wall time, the processor time of each run (its
    processes' user and system seconds) shows the work done, whatever else is running.
    """
    edition = "guess-the-mess-en"
    print(
        f"raster outputs of {edition} (earlier: PNG export {EARLIER['png']}, "
        f"preview of every edition {EARLIER['preview']}):"
    )
    run(deckforge("build", "--out", str(out), "--quiet"), project)
    times: dict[str, list[tuple[float, float]]] = {}
    for fmt in ("png", "tts"):
        export = deckforge("export", fmt, "--edition", edition, "--out", str(out))
        for _ in range(RUNS):
            shutil.rmtree(out / edition / fmt, ignore_errors=True)
            times.setdefault(f"{fmt} cold", []).append(run(export, project))
        times[f"{fmt} warm"] = [run(export, project) for _ in range(RUNS)]
    places = project / "decks" / "guess-the-mess" / "places.yaml"
    original = places.read_text(encoding="utf-8")
    export = deckforge("export", "png", "--edition", edition, "--out", str(out))
    for n in range(RUNS):
        places.write_text(original.replace("{en: Kitchen,", f"{{en: Kitchen {n},", 1), "utf-8")
        run(deckforge("build", "--out", str(out), "--quiet"), project)
        times.setdefault("png after editing one place", []).append(run(export, project))
    places.write_text(original, encoding="utf-8")
    run(deckforge("build", "--out", str(out), "--quiet"), project)
    preview = deckforge("preview", "--out", str(out))
    for _ in range(RUNS):
        shutil.rmtree(out / "preview", ignore_errors=True)
        times.setdefault("preview cold", []).append(run(preview, project))
    times["preview warm"] = [run(preview, project) for _ in range(RUNS)]
    pdfs = sorted(str(p) for p in (out / edition / "printer").glob("*.pdf"))
    pdfs = [p for p in pdfs if Path(p).stem not in ("rulebook", "score-pad")]
    for _ in range(RUNS):
        shutil.rmtree(scratch / "floor-png", ignore_errors=True)
        plain = [PYTHON, "-c", RASTER_FLOOR, str(scratch / "floor-png"), *pdfs]
        times.setdefault("floor: every page drawn and saved, one process", []).append(
            run(plain, project)
        )
    walls, cpus = {}, {}
    for name, values in times.items():
        walls[name] = summary(name, [wall for wall, _ in values])
        cpus[name] = summary("  processor time", [cpu for _, cpu in values])
    floor = "floor: every page drawn and saved, one process"
    ratio, work = walls[floor] / walls["png cold"], cpus[floor] / cpus["png cold"]
    print(f"  {'cold PNG export, times as fast as the floor':<46} {ratio:8.2f} ×")
    print(f"  {'cold PNG export, times less processor time':<46} {work:8.2f} ×")
    return [
        ("cold PNG export at least 3 × as fast as the floor", ratio >= 3, f"{ratio:.2f} ×"),
        ("PNG export with nothing changed under 1 s", walls["png warm"] < 1,
         f"{walls['png warm']:.2f} s"),
    ]  # fmt: skip


def main() -> None:
    print(f"deckforge benchmark: {RUNS} runs each; {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        project = scratch / "project"
        shutil.copytree(ROOT / "decks", project / "decks")
        shutil.copytree(ROOT / "schemas", project / "schemas")
        out = scratch / "build"
        if os.environ.get("BENCH_ONLY") == "raster":
            for name, met, value in raster(project, out, scratch):
                print(f"  {name:<56} {value:>9}  {'met' if met else 'NOT MET'}")
            return

        firsts, filled = first_builds(project, scratch)
        # Everything after this reads that cache, not the user's.
        os.environ["DECKFORGE_CACHE"] = str(filled)

        print("every edition and profile:")
        cold = [
            run(deckforge("build", "--out", str(out), "--force", "--quiet"), project)[0]
            for _ in range(RUNS)
        ]
        single = [
            run(
                deckforge("build", "--out", str(out), "--force", "--quiet", "--jobs", "1"), project
            )[0]
            for _ in range(RUNS)
        ]
        cold_m = summary("full build, one process per core", cold)
        single_m = summary("full build, one process", single)
        speed_up = single_m / cold_m
        print(f"  {'parallel speed-up':<46} {speed_up:8.2f} ×")
        noop = [run(deckforge("build", "--out", str(out)), project)[0] for _ in range(RUNS * 2)]
        noop_m = summary("no-op rebuild (fresh process)", noop)
        places = project / "decks" / "guess-the-mess" / "places.yaml"
        original = places.read_text(encoding="utf-8")
        edits = []
        for n in range(RUNS):
            places.write_text(
                original.replace("{en: Kitchen,", f"{{en: Kitchen {n},", 1), encoding="utf-8"
            )
            edits.append(run(deckforge("build", "--out", str(out), "--quiet"), project)[0])
        places.write_text(original, encoding="utf-8")
        summary("rebuild after editing one place name", edits)

        results = synthetic_builds(scratch)
        growth = {}
        for profile in ("pnp-a4", "printer"):
            small, large = results[(1_000, profile)][0], results[(10_000, profile)][0]
            growth[profile] = large / small
            print(f"{profile}: 10,000 cards cost {growth[profile]:.2f} × 1,000 cards")
        print(json.dumps({f"{c}-{p}": v for (c, p), v in results.items()}))

        raster_checks = raster(project, out, scratch)

        print("targets (medians):")
        checks = [("no-op rebuild under 0.5 s", noop_m < 0.5, f"{noop_m:.2f} s")]
        for name, ratio in firsts.items():
            checks.append((f"{name}: empty cache at most 3 × filled", ratio <= 3, f"{ratio:.2f} ×"))
        checks.append(
            ("parallel full build at least 1.6 × one process", speed_up >= 1.6, f"{speed_up:.2f} ×")
        )
        for profile in ("pnp-a4", "printer"):
            t, m, f = results[(10_000, profile)]
            checks.append(
                (f"10,000 cards, {profile}: at most 2 × the floor", t / f <= 2, f"{t / f:.2f} ×")
            )
            checks.append(
                (
                    f"10,000 cards, {profile}: at most 11 × 1,000 cards",
                    growth[profile] <= 11,
                    f"{growth[profile]:.2f} ×",
                )
            )
            checks.append(
                (f"10,000 cards, {profile}: peak RSS under 300 MB", m < 300, f"{m:.0f} MB")
            )
        checks += raster_checks
        for name, met, value in checks:
            print(f"  {name:<56} {value:>9}  {'met' if met else 'NOT MET'}")


if __name__ == "__main__":
    main()
