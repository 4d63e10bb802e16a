"""Making images from PDF pages: in parallel, each drawing once, and only when it changed.

Every raster output is an :class:`ImageJob`: card sides drawn from one PDF into a picture
and saved as one or more PNG files (the same picture at several sizes, or in several
places, as the 400 identical backs of a Mess deck are). Jobs run over one process per core.
Each output folder keeps a record of what every file in it was made from, so a file is
made again only when its job differs; "what it was made from" is a digest of the pages
(see :class:`~deckforge.render.raster.pdfread.Deck`), where they go, and the versions of
the code and libraries that draw and encode them.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image

from deckforge.fsutil import write_atomic
from deckforge.render.raster.pdfread import Box, open_pdf, render, render_png_rows
from deckforge.versions import version

RECORD_NAME = ".deckforge-images.json"
WHITE = (255, 255, 255)
#: Up to this many jobs are made in the calling process by default (see :func:`run`).
FEW_JOBS = 8


@dataclass(frozen=True)
class Slot:
    """One card side placed in a picture: page ``page`` of the job's PDF, its ``region``
    (None: the whole page) drawn to ``size`` pixels at ``at``, in grey if ``grey``.
    ``drawing`` is the digest of what the page is drawn from."""

    page: int
    drawing: str
    region: Box | None
    size: tuple[int, int]
    at: tuple[int, int] = (0, 0)
    grey: bool = False


@dataclass(frozen=True)
class ImageJob:
    """A picture of ``size`` pixels made of ``slots`` on a ``background``, saved to each
    of ``files`` (as JPEG if the first ends in ``.jpg``, else as PNG)."""

    pdf: str
    size: tuple[int, int]
    slots: tuple[Slot, ...]
    files: tuple[str, ...]
    background: tuple[int, int, int] = WHITE
    #: A soft proof: the output intent and ink limit the picture is shown printed with.
    proof: tuple | None = None
    #: Files that get the picture as the press prints it (through ``proof``) while
    #: ``files`` get it as drawn; when there are none, ``files`` get the proof.
    proofed: tuple[str, ...] = ()

    def key(self) -> str:
        """What the picture is made from."""
        parts = (tools(), self.size, self.background, repr(self.proof))
        slots = [(s.drawing, s.region, s.size, s.at, s.grey) for s in self.slots]
        return hashlib.blake2b(repr((parts, slots)).encode(), digest_size=12).hexdigest()


@cache
def tools() -> str:
    """The versions of what draws and encodes the images, and a digest of this package."""
    here = Path(__file__).parent
    code = hashlib.blake2b(digest_size=8)
    for path in sorted(here.glob("*.py")):
        code.update(path.name.encode() + path.read_bytes())
    versions = [f"{name}={version(name)}" for name in ("pypdfium2", "pillow")]
    return ";".join([*versions, f"zlib={zlib.ZLIB_VERSION}", code.hexdigest()])


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_from_rows(size: tuple[int, int], rows) -> bytes:
    """An 8-bit RGB PNG of ``size`` from its image data before compression (each row led
    by its filter type), with no metadata (no text, time or ICC chunks), so that equal
    pixels give equal bytes.

    Written here rather than by Pillow, whose encoder tries five filters on every row,
    which would be most of an export's time: rows unfiltered at zlib level 1 (drawn in
    place, see :func:`render_png_rows`) make files a little larger, far sooner.
    """
    header = struct.pack(">IIBBBBB", *size, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(rows, 1)),
            _chunk(b"IEND", b""),
        )
    )


def encode_png(image: Image.Image) -> bytes:
    """``image`` as a PNG (see :func:`png_from_rows`)."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    raw, stride = rgb.tobytes(), 3 * rgb.width
    # Each row starts with its filter type, 0: none.
    rows = b"".join(b"\0" + raw[start : start + stride] for start in range(0, len(raw), stride))
    return png_from_rows(rgb.size, rows)


def encode_jpeg(image: Image.Image) -> bytes:
    """``image`` as JPEG bytes at quality 90 without chroma subsampling (colour edges stay
    sharp), for pictures only looked at: quicker to encode than a PNG and a fraction of
    its size."""
    import io

    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=90, subsampling=0)
    return buffer.getvalue()


# --- running jobs --------------------------------------------------------------------------

#: Documents a process has open, by path: a worker opens each PDF once for all its jobs.
_DOCUMENTS: dict[str, Any] = {}  # PDFium's documents


def _document(pdf: str):
    document = _DOCUMENTS.get(pdf)
    if document is None:
        document = _DOCUMENTS[pdf] = open_pdf(Path(pdf), die_line=False)
    return document


def _close_documents() -> None:
    for document in _DOCUMENTS.values():
        document.close()
    _DOCUMENTS.clear()


def make(job: ImageJob) -> list[tuple[str, str, int]]:
    """Draw one job and save its files; returns each file's path, key and size in bytes."""
    document = _document(job.pdf)
    drawn: dict[tuple, Image.Image] = {}

    def side(slot: Slot) -> Image.Image:
        which = (slot.page, slot.region, slot.size, slot.grey)
        if which not in drawn:
            image = render(document, slot.page, slot.region, slot.size)
            drawn[which] = image.convert("L").convert("RGB") if slot.grey else image
        return drawn[which]

    only = job.slots[0] if len(job.slots) == 1 else None
    whole = only is not None and only.at == (0, 0) and only.size == job.size and not only.grey
    jpeg = job.files[0].endswith(".jpg")
    if only is not None and whole and not jpeg and job.proof is None:
        # One page filling the picture, as PNG: drawn straight into PNG's row layout.
        data = png_from_rows(job.size, render_png_rows(document, only.page, only.region, only.size))
    else:
        picture = side(only) if only and whole else Image.new("RGB", job.size, job.background)
        for slot in () if whole else job.slots:
            picture.paste(side(slot), slot.at)
        if job.proof is not None and not job.proofed:
            picture = proofed(picture, *job.proof)
        data = encode_jpeg(picture) if jpeg else encode_png(picture)
    key = job.key()
    written = [(path, data) for path in job.files]
    if job.proofed:
        # The drawn picture (never the quick path's rows: a job with a proof has none).
        printed = proofed(picture, *job.proof)  # type: ignore[misc]
        proof = encode_jpeg(printed) if job.proofed[0].endswith(".jpg") else encode_png(printed)
        written += [(path, proof) for path in job.proofed]
    for path, content in written:
        write_atomic(Path(path), content)
    return [(path, key, len(content)) for path, content in written]


def proofed(image: Image.Image, intent, ink_limit: float) -> Image.Image:
    """An sRGB picture as the press prints it: into CMYK through the output profile
    (as printer-cmyk converts), and back to sRGB through it with the same intent."""
    from deckforge.render import colour

    return colour.converter(intent, ink_limit).printed(image)


def _make_batch(jobs: list[ImageJob]) -> list[list[tuple[str, str, int]]]:
    return [make(job) for job in jobs]


def run(
    jobs: list[ImageJob],
    processes: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[tuple[str, str, int]]:
    """Make every job, over ``processes`` processes (default: one per core); returns what
    :func:`make` returns for each file. ``progress`` is told how many jobs are done.
    A few jobs (an edit's) are made in this process unless ``processes`` says otherwise:
    starting workers takes longer than drawing them."""
    if not jobs:
        return []
    if processes is None and len(jobs) <= FEW_JOBS:
        processes = 1
    processes = max(1, min(processes or os.cpu_count() or 1, len(jobs)))
    # Batches of jobs of one PDF, small enough to spread the work evenly.
    size = max(1, min(16, len(jobs) // (processes * 4)))
    batches: list[list[ImageJob]] = []
    for job in jobs:
        if batches and len(batches[-1]) < size and batches[-1][0].pdf == job.pdf:
            batches[-1].append(job)
        else:
            batches.append([job])
    results: list[tuple[str, str, int]] = []
    if processes == 1:
        try:
            for batch in batches:
                for done in _make_batch(batch):
                    results.extend(done)
                if progress:
                    progress(len(batch))
        finally:
            _close_documents()
        return results
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # Forked workers start at once and share the parent's imports; the parent has no
    # document open, so none is shared.
    _close_documents()
    context = multiprocessing.get_context()
    with ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool:
        futures = {pool.submit(_make_batch, batch): len(batch) for batch in batches}
        try:
            for future in as_completed(futures):
                for done in future.result():
                    results.extend(done)
                if progress:
                    progress(futures[future])
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return results


# --- planning: what to make, what is already there ----------------------------------------


@dataclass
class Plan:
    """The images and text files of one output folder.

    Files in the folder whose names match ``owned`` (a regular expression) and that the
    plan does not make are left from an earlier, longer output and are removed.
    """

    folder: Path
    owned: str
    jobs: list[ImageJob] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)


@dataclass
class Outcome:
    """What carrying plans out did: files written and files found up to date, and the
    paths of the images made (what a live preview tells open pages to load again)."""

    written: int = 0
    unchanged: int = 0
    images: list[str] = field(default_factory=list)


def _load_record(folder: Path) -> dict:
    try:
        data = json.loads((folder / RECORD_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _is_current(job: ImageJob, record: dict) -> bool:
    key = job.key()
    for path in job.files + job.proofed:
        made = record.get(Path(path).name)
        try:
            size = Path(path).stat().st_size
        except OSError:
            return False
        if not isinstance(made, dict) or made.get("key") != key:
            return False
        if made.get("size") != size:
            return False
    return True


def carry_out(
    plans: list[Plan],
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Outcome:
    """Make the images of every plan that are not already up to date (all of them in
    parallel), write its text files, and remove what earlier outputs left behind.
    ``progress`` is told the jobs done so far and how many there are."""
    outcome = Outcome()
    records: dict[Path, dict] = {}
    todo: list[ImageJob] = []
    for plan in plans:
        record = records[plan.folder] = _load_record(plan.folder)
        for job in plan.jobs:
            if _is_current(job, record):
                outcome.unchanged += len(job.files) + len(job.proofed)
            else:
                todo.append(job)
        plan.folder.mkdir(parents=True, exist_ok=True)
    done_jobs = 0

    def advance(count: int) -> None:
        nonlocal done_jobs
        done_jobs += count
        if progress:
            progress(done_jobs, len(todo))

    try:
        for path, key, size in run(todo, processes, advance):
            records[Path(path).parent][Path(path).name] = {"key": key, "size": size}
            outcome.written += 1
            outcome.images.append(path)
    finally:
        for plan in plans:
            _tidy(plan, records[plan.folder])
    for plan in plans:
        for name, text in plan.texts.items():
            target = plan.folder / name
            data = text.encode("utf-8")
            if not target.is_file() or target.read_bytes() != data:
                write_atomic(target, data)
                outcome.written += 1
            else:
                outcome.unchanged += 1
    return outcome


def _tidy(plan: Plan, record: dict) -> None:
    """Remove files of earlier outputs that this plan does not make, and save the record
    of the files that are there."""
    wanted = {Path(path).name for job in plan.jobs for path in job.files + job.proofed}
    wanted |= set(plan.texts)
    owned = re.compile(plan.owned)
    for old in plan.folder.iterdir():
        if old.is_file() and owned.fullmatch(old.name) and old.name not in wanted:
            old.unlink()
    if plan.jobs or record:
        kept = {name: made for name, made in record.items() if name in wanted}
        data = json.dumps(kept, indent=0, sort_keys=True).encode()
        target = plan.folder / RECORD_NAME
        # Kept as it is when nothing changed: a live preview redoes every plan on each save.
        if not target.is_file() or target.read_bytes() != data:
            write_atomic(target, data)
