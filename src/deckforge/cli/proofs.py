"""What the ``proof`` command does: the earlier build found or made (from a git revision
of the project, built into a temporary folder), both builds' cards compared, the proof
written into each edition's folder, and reprint sheets built from the cards that differ.

The command line's own module: it joins git, the build and the raster proofs, which know
nothing of each other.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import tarfile
import tempfile
from pathlib import Path

from deckforge.errors import UsageError

#: The most a project's files at a revision may unpack to (its sources, templates, art).
MOST_ARCHIVED = 1 << 30


def _build(decks: Path, out: Path, editions: list[str] | None, profiles: list[str], jobs,
           only=None) -> None:  # fmt: skip
    from deckforge.pipeline.recipe import build
    from deckforge.sources.load import Project

    build(Project(decks), out, editions, profiles, jobs=jobs, only=only)


def _git(root: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UsageError(f"git could not be run ({exc})") from None
    if done.returncode != 0:
        raise UsageError(done.stderr.decode("utf-8", "replace").strip() or "git failed")
    return done.stdout


def _at_revision(root: Path, decks: Path, revision: str, folder: Path) -> Path:
    """The project's files as they were at ``revision``, unpacked into ``folder``; the
    decks folder there."""
    if revision.startswith("-"):
        raise UsageError(f"'{revision}' is not a git revision")
    try:
        top = Path(_git(root, "rev-parse", "--show-toplevel").decode().strip())
    except UsageError:
        raise UsageError(
            f"'{revision}' is not a build folder (it has no manifest.json), and the project "
            f"{root} is not in a git repository to find it as a revision in"
        ) from None
    try:
        commit = _git(top, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    except UsageError:
        raise UsageError(
            f"'{revision}' is neither a build folder (with a manifest.json) nor a revision "
            "of the project's git repository"
        ) from None
    inner = root.resolve().relative_to(top.resolve()).as_posix()
    archive = _git(top, "archive", "--format=tar", commit.decode().strip(), "--", inner or ".")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        members = tar.getmembers()
        if sum(m.size for m in members) > MOST_ARCHIVED:
            raise UsageError(f"the project at {revision} is over 1 GiB: too large to proof")
        tar.extractall(folder, members=members, filter="data")
    old = folder / inner / decks.resolve().relative_to(root.resolve())
    if not old.is_dir():
        raise UsageError(f"the project had no {decks.name}/ folder at {revision}")
    return old


def _known(decks: Path, names: list[str] | None) -> list[str] | None:
    """Those of the editions ``names`` that the project at ``decks`` has (all: None)."""
    from deckforge.sources.load import Project, select_editions

    if not names:
        return None
    known = []
    for name in names:
        try:
            select_editions(Project(decks), [name])
        except UsageError:
            continue  # added since
        known.append(name)
    return known


def _old_build(decks: Path, out: Path, editions: list[str] | None, args) -> None:
    """The printer files of the project at the revision the proof is against."""
    from deckforge.errors import BuildFailed

    try:
        _build(decks, out, editions, ["printer"], args.jobs)
    except BuildFailed as exc:
        first = exc.problems[0]
        raise UsageError(
            f"the project at {args.against} does not build ({len(exc.problems)} problems; "
            f"the first: {first.message}); proof against another revision or a build folder"
        ) from None


def proof(args: argparse.Namespace) -> int:
    """``deckforge proof``: build, compare with the earlier build, write the proofs."""
    from deckforge.render.raster import proof as proofs
    from deckforge.sources.load import Project

    project = Project(args.decks)
    _build(args.decks, args.out, args.edition, ["printer"], args.jobs)
    against = Path(args.against)
    with tempfile.TemporaryDirectory(prefix="deckforge-proof-") as scratch:
        if (against / "manifest.json").is_file():
            old_build = against
        else:
            old_decks = _at_revision(project.root, args.decks, args.against, Path(scratch) / "src")
            old_build = Path(scratch) / "build"
            editions = _known(old_decks, args.edition)
            if not (args.edition and not editions):  # else none of them was there then
                _old_build(old_decks, old_build, editions, args)
        found = proofs.compare(old_build, args.out, args.edition)
        by_edition: dict[str, list] = {}
        for deck in found:
            by_edition.setdefault(deck.edition, []).append(deck)
        for edition, decks in sorted(by_edition.items()):
            folder = args.out / edition / "proof"
            proofs.write(decks, folder, args.against)
            for deck in decks:
                counts = {s: sum(c.state == s for c in deck.cards) for s in proofs.STATES}
                said = ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "no change"
                print(f"  {edition}/{deck.deck}: {said}; {deck.unchanged} unchanged")
            print(f"  {folder}/index.html, {folder}/proof.pdf")
            if args.reprint:
                only = {
                    edition: {
                        d.deck: {c.key[0] for c in d.cards if c.state != "removed"} for d in decks
                    }
                }
                if any(only[edition].values()):
                    reprint = folder / "reprint"
                    _build(args.decks, reprint, [edition], args.reprint, args.jobs, only)
                    print(f"  {reprint}/: sheets of the added and changed cards")
    return 0
