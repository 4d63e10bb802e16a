"""deckforge's benchmark: `make bench`.

Prints medians of several runs (with min and max) for:
  * a first build on a machine whose cache of font instances and icon drawings is empty
    (``DECKFORGE_CACHE`` an empty folder for each run), against a build of the same
    editions with that cache filled: one edition in one profile, and everything;
  * a full build (``--force``) of every edition and profile, in parallel and in one
    process;
  * a rebuild with nothing changed (a fresh process each time, interpreter start included);
  * a rebuild after editing one place name;
  * start-up: a build of nine cards;
  * synthetic place decks of 1,000, 10,000 and 100,000 cards (each one YAML file) in
    pnp-a4, and of 1,000 and 10,000 in printer, built in one process, interleaved with
    the floor: a minimal ReportLab script drawing the same number of plain text cards
    onto the same sheets with crop marks (bench/floors.py); wall time, processor time
    and peak memory (RSS) of both, and their ratios;
  * colour: how near the default press profile and a shop's profile print every design
    colour, a 729-colour grid and the grey axis to the best the inks reach
    (bench/colour.py);
  * raster outputs of the English edition: PNG export (cold, with nothing changed, after
    editing one place name) against a floor (a plain loop drawing every page with
    PDFium and saving it with Pillow's defaults, in one process, as exports were made
    before), and the milliseconds a card side of the export in one process against
    the floor's a page; Tabletop Simulator export and the preview site, cold and warm.

The machine is shared and noisy: read medians and ratios (of processor time above all),
not single runs. BENCH_ONLY=builds,floor,raster (any of them) times those alone; every
run writes its medians and the targets to bench/results.json (keeping the sections it
did not time from earlier runs).

The package's bytecode is compiled before anything is timed, as installing it compiles
it on a user's machine: where ``PYTHONDONTWRITEBYTECODE`` is set, every process would
otherwise compile deckforge's sources again (a tenth of a second of each start-up).
"""

from __future__ import annotations

import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import colour
from floors import FLOOR, RASTER_FLOOR

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


def peak_rss(args: list[str], cwd: Path) -> tuple[float, float, float]:
    """Wall seconds, processor seconds (user and system) and the peak RSS (MB) of a
    command, measured by a fresh wrapper."""
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "r = subprocess.run(sys.argv[1:]); w = time.perf_counter() - t; "
        "u = resource.getrusage(resource.RUSAGE_CHILDREN); m = u.ru_maxrss / 1024; "
        "print(f'{w} {u.ru_utime + u.ru_stime} {m}'); sys.exit(r.returncode)"
    )
    done = subprocess.run([PYTHON, "-c", probe, *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"benchmark step failed: {' '.join(args)}\n{done.stderr[-2000:]}")
    wall, cpu, rss = done.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu), float(rss)


def summary(name: str, values: list[float], unit: str = "s") -> float:
    median = statistics.median(values)
    print(
        f"  {name:<46} median {median:8.2f} {unit}   (min {min(values):.2f}, "
        f"max {max(values):.2f}, {len(values)} runs)"
    )
    return median


def deckforge(*args: str) -> list[str]:
    return [PYTHON, "-m", "deckforge", *args]


def synthetic_project(folder: Path, cards: int, icons: list[str] | None = None) -> Path:
    """A project with one edition (``synthetic``) of ``cards`` place cards: plain, or
    each with the OpenMoji icon of that hexcode in ``icons``."""
    decks = folder / "decks" / "synthetic"
    decks.mkdir(parents=True)
    categories = ["home", "food", "shop", "school", "travel", "outdoors", "water", "fantasy"]
    lines = ["kind: places", "categories:"]
    lines += [f'  - {{id: {c}, name: {c.title()}, colour: "#3366AA"}}' for c in categories]
    lines.append("places:")
    for n in range(cards):
        icon = f', icon: "{icons[n]}"' if icons else ""
        lines.append(
            f"  - {{id: place-{n}, name: 'Place number {n}', "
            f"category: {categories[n % len(categories)]}{icon}}}"
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


#: The synthetic decks timed against the floor: (cards, profile).
SYNTHETIC = [(1_000, "pnp-a4"), (10_000, "pnp-a4"), (100_000, "pnp-a4"), (1_000, "printer"),
             (10_000, "printer")]  # fmt: skip


def pairs(cards: int) -> int:
    """Runs of a synthetic deck and its floor. A run of 1,000 cards takes a fifth of a
    second, and on this machine such short runs of the same floor vary by a sixth from
    one to the next: three were not enough for a median that holds from one benchmark to
    the next, so the shorter cases run more often."""
    return RUNS * 3 if cards <= 1_000 else RUNS * 2 if cards <= 10_000 else RUNS


def synthetic_builds(scratch: Path, sizes=SYNTHETIC) -> dict[str, dict[str, float]]:
    """Synthetic place decks (each one YAML file) built in one process, each run followed
    by a run of the plain ReportLab floor (interleaved, so both meet the same load on a
    shared machine): medians of wall time, processor time and peak memory of both, and
    the ratios, by "cards-profile"."""
    results: dict = {}
    for cards, profile in sizes:
        synth = scratch / f"synthetic-{cards}"
        if not synth.exists():
            synthetic_project(synth, cards)
        build = deckforge(
            "build", "--profile", profile, "--out", str(synth / "build"), "--force", "--quiet",
            "--jobs", "1",
        )  # fmt: skip
        floor = [PYTHON, "-c", FLOOR, str(cards), profile, str(synth / "floor.pdf")]
        ours, theirs = [], []
        for _ in range(pairs(cards)):
            ours.append(peak_rss(build, synth))
            theirs.append(peak_rss(floor, synth))
        print(f"{cards:,} place cards, {profile}, one process (deckforge / floor):")
        figures: dict = {"runs": len(ours)}
        for index, name, unit in ((0, "wall", "s"), (1, "cpu", "s"), (2, "rss", "MB")):
            mine = summary(f"deckforge {name}", [r[index] for r in ours], unit)
            plain = summary(f"floor (plain ReportLab) {name}", [r[index] for r in theirs], unit)
            figures |= {name: mine, f"floor_{name}": plain, f"{name}_ratio": mine / plain}
            print(f"  {name + ' ratio to the floor':<46} {mine / plain:8.2f} ×")
        results[f"{cards}-{profile}"] = figures
    return results


def start_up(scratch: Path) -> dict[str, float]:
    """A build of nine cards (one sheet) in one process: what start-up costs."""
    synth = scratch / "synthetic-9"
    if not synth.exists():
        synthetic_project(synth, 9)
    build = deckforge("build", "--profile", "pnp-a4", "--out", str(synth / "build"), "--force",
                      "--quiet", "--jobs", "1")  # fmt: skip
    runs = [run(build, synth) for _ in range(RUNS * 2)]
    print("start-up: a build of 9 cards, one process:")
    wall = summary("wall", [w for w, _ in runs])
    cpu = summary("processor time", [c for _, c in runs])
    return {"wall": wall, "cpu": cpu}


#: Measured before exports drew pages in parallel, once, and only when changed (2 cores).
EARLIER = {"png": "93–118 s", "preview": "51 s"}


def raster(project: Path, out: Path, scratch: Path) -> tuple[list[tuple], dict[str, float]]:
    """Time the raster outputs of the English edition; returns the targets' checks and
    the figures (medians) by name.

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
    sides = len(list((out / edition / "png").rglob("*.png")))
    single = deckforge("export", "png", "--edition", edition, "--out", str(out), "--jobs", "1")
    for _ in range(RUNS):
        shutil.rmtree(out / edition / "png", ignore_errors=True)
        times.setdefault("png cold, one process", []).append(run(single, project))
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
    pages = len(list((scratch / "floor-png").glob("*.png")))
    # One core: the export in one process, its wall time a file; the floor's a page.
    per_side = 1000 * walls["png cold, one process"] / sides
    floor_page = 1000 * walls[floor] / pages
    print(f"  {f'ms a card side, one process ({sides} files)':<46} {per_side:8.2f}")
    print(f"  {f'floor: ms a page, one process ({pages} pages)':<46} {floor_page:8.2f}")
    figures = {f"{name} wall": value for name, value in walls.items()}
    figures |= {f"{name} cpu": value for name, value in cpus.items()}
    figures |= {"png ms a side, one process": per_side, "floor ms a page": floor_page,
                "png files": sides, "floor pages": pages}  # fmt: skip
    checks = [
        ("cold PNG export at least 3 × as fast as the floor", ratio >= 3, f"{ratio:.2f} ×"),
        ("PNG export with nothing changed under 1 s", walls["png warm"] < 1,
         f"{walls['png warm']:.2f} s"),
        ("PNG, one process: at most 15 ms a card side", per_side <= 15, f"{per_side:.1f} ms"),
        ("PNG, one process: at most 1.5 × the floor's page", per_side <= 1.5 * floor_page,
         f"{per_side / floor_page:.2f} ×"),
    ]  # fmt: skip
    return checks, figures


def builds(project: Path, out: Path, scratch: Path) -> tuple[list[tuple], dict]:
    """The shipped editions: first builds, full builds, no-op and one-edit rebuilds.
    Leaves ``DECKFORGE_CACHE`` set to the cache the first builds filled."""
    firsts, filled = first_builds(project, scratch)
    # Everything after this reads that cache, not the user's.
    os.environ["DECKFORGE_CACHE"] = str(filled)
    print("every edition and profile:")
    force = deckforge("build", "--out", str(out), "--force", "--quiet")
    cold = [run(force, project)[0] for _ in range(RUNS)]
    single = [run([*force, "--jobs", "1"], project)[0] for _ in range(RUNS)]
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
        places.write_text(original.replace("{en: Kitchen,", f"{{en: Kitchen {n},", 1), "utf-8")
        edits.append(run(deckforge("build", "--out", str(out), "--quiet"), project)[0])
    places.write_text(original, encoding="utf-8")
    edit_m = summary("rebuild after editing one place name", edits)
    checks = [("no-op rebuild under 0.5 s", noop_m < 0.5, f"{noop_m:.2f} s")]
    for name, ratio in firsts.items():
        checks.append((f"{name}: empty cache at most 3 × filled", ratio <= 3, f"{ratio:.2f} ×"))
    checks.append(
        ("parallel full build at least 1.6 × one process", speed_up >= 1.6, f"{speed_up:.2f} ×")
    )
    figures = {"full build": cold_m, "full build, one process": single_m, "no-op": noop_m,
               "after editing one place": edit_m,
               "empty cache / filled": firsts}  # fmt: skip
    return checks, figures


#: Ratio of processor time to the floor's not to exceed, by number of cards (pnp-a4).
FLOOR_TARGETS = {1_000: 1.5, 10_000: 1.3, 100_000: 1.3}


def floor_checks(results: dict, startup: dict) -> list[tuple]:
    """The targets of the synthetic decks: ratios of processor time (what the machine
    being shared does not change) to the floor's, memory, start-up."""
    checks = []
    for cards, target in FLOOR_TARGETS.items():
        ratio = results[f"{cards}-pnp-a4"]["cpu_ratio"]
        checks.append((f"{cards:,} cards, pnp-a4: at most {target} × the floor's processor time",
                       ratio <= target, f"{ratio:.2f} ×"))  # fmt: skip
    memory = results["100000-pnp-a4"]["rss_ratio"]
    checks.append(("100,000 cards, pnp-a4: peak memory at most 1.3 × the floor's",
                   memory <= 1.3, f"{memory:.2f} ×"))  # fmt: skip
    checks.append(("start-up (a build of 9 cards) under 0.3 s of processor time",
                   startup["cpu"] < 0.3, f"{startup['cpu']:.2f} s"))  # fmt: skip
    return checks


def write_results(figures: dict, checks: list[tuple]) -> None:
    """bench/results.json: this run's medians by section (a run of some sections keeps
    the others from earlier runs), each with its date, and the targets."""
    path = ROOT / "bench" / "results.json"
    kept = json.loads(path.read_text()) if path.exists() else {}
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    for name, values in figures.items():
        kept[name] = {"date": date, "runs": RUNS, "cores": os.cpu_count(), **values}
    targets = {t["target"]: t for t in kept.get("targets", [])}
    for name, met, value in checks:
        targets[name] = {"target": name, "met": met, "value": value, "date": date}
    kept["targets"] = list(targets.values())
    path.write_text(json.dumps(kept, indent=1, ensure_ascii=False) + "\n")
    print(f"written: {path.relative_to(ROOT)}")


def compile_package() -> None:
    """deckforge's code compiled as an installed copy has it (pip compiles it when
    installing), even if this environment asks Python to write no bytecode."""
    compileall.compile_dir(ROOT / "src", quiet=1)


def main() -> None:
    """Every figure, or only those of ``BENCH_ONLY`` (``builds``, ``floor``, ``raster``,
    ``colour``, comma-separated); printed, and written to bench/results.json."""
    only = set(filter(None, os.environ.get("BENCH_ONLY", "").split(",")))
    compile_package()
    print(f"deckforge benchmark: {RUNS} runs each; {os.cpu_count()} cores")
    figures: dict = {}
    checks: list[tuple] = []
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        project = scratch / "project"
        shutil.copytree(ROOT / "decks", project / "decks")
        shutil.copytree(ROOT / "schemas", project / "schemas")
        out = scratch / "build"
        if not only or "builds" in only:
            found, figures["builds"] = builds(project, out, scratch)
            checks += found
        if not only or "floor" in only:
            startup = start_up(scratch)
            results = synthetic_builds(scratch)
            figures["start-up"], figures["floor"] = startup, results
            checks += floor_checks(results, startup)
        if not only or "raster" in only:
            found, figures["raster"] = raster(project, out, scratch)
            checks += found
        if not only or "colour" in only:
            found, figures["colour"] = colour.separation(scratch)
            checks += found
    print("targets (medians):")
    for name, met, value in checks:
        print(f"  {name:<64} {value:>9}  {'met' if met else 'NOT MET'}")
    write_results(figures, checks)


if __name__ == "__main__":
    main()
