"""Preflight: read built PDFs back and check them as a print shop would.

Every output listed in a build's ``manifest.json`` is opened, its pages interpreted
(:mod:`.interpret`) and measured against their boxes (:mod:`.measure`), and every check
of the registry (:mod:`.checks`, :mod:`.checks_pdfx`) judges what was found against
what the file's profile promises: its colour mode, its PDF/X version, its ink limit.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from deckforge import manifest as build_manifest
from deckforge.errors import DeckforgeError
from deckforge.preflight import checks, checks_cut, checks_pdfx  # noqa: F401 - they register the checks
from deckforge.preflight.interpret import Interpreter
from deckforge.preflight.measure import Findings, more
from deckforge.preflight.pdfobjects import resolve
from deckforge.preflight.registry import REGISTRY, FileFacts, Target
from deckforge.preflight.report import FAIL, NA, OK, WARNING, Check, Report
from deckforge.preflight.report import format_table as _format_table

__all__ = [
    "CHECKS",
    "FAIL",
    "NA",
    "OK",
    "WARNING",
    "Check",
    "Report",
    "format_table",
    "preflight",
    "preflight_file",
]

#: The checks of every report, in the order they are listed and tabled.
CHECKS = tuple(REGISTRY)

#: What reading a damaged file raises, from pypdf or from interpreting what it returns
#: (NotImplementedError: a filter name garbled into one pypdf does not know).
_UNREADABLE: tuple[type[BaseException], ...] = (
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    AttributeError,
    ArithmeticError,
    NotImplementedError,
    RecursionError,
    OSError,
    zlib.error,
    struct.error,
)


def target(entry: dict, ink_limit: float | None = None) -> Target:
    """What a file is checked against: its manifest entry and its profile, looked up by
    the id the manifest gives (a profile deckforge does not know promises nothing)."""
    from deckforge.profiles import all_profiles

    profile = all_profiles().get(str(entry.get("profile", "")))
    if profile is None:
        return Target(entry, False, None, ink_limit or 240.0)
    limit = ink_limit if ink_limit is not None else profile.ink_limit
    return Target(entry, profile.cmyk, profile.pdfx, limit, profile.mixed_sizes)


def _facts(reader, pdf: Path) -> FileFacts:
    root = resolve(reader.trailer["/Root"])
    info = {str(k).lstrip("/"): str(resolve(v)) for k, v in (reader.metadata or {}).items()}
    intents = []
    for intent in resolve(root.get("/OutputIntents")) or []:
        intent = resolve(intent)
        keys = {str(k).lstrip("/"): str(resolve(v)) for k, v in intent.items()}
        profile = resolve(intent.get("/DestOutputProfile"))
        intents.append((keys, profile.get_data() if profile is not None else None))
    metadata = resolve(root.get("/Metadata"))
    version = reader.pdf_header.replace("%PDF-", "")
    return FileFacts(
        version=version,
        info=info,
        has_id="/ID" in reader.trailer,
        encrypted=bool(reader.is_encrypted),
        intents=tuple(intents),
        xmp=metadata.get_data() if metadata is not None else None,
        reader=reader,
        path=pdf,
    )


def preflight_file(pdf: Path, entry: dict, ink_limit: float | None = None) -> Report:
    """Check one PDF against its manifest entry (``ink_limit`` overrides the profile's)."""
    import pikepdf
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    pdf = Path(pdf)
    path = str(entry.get("path") or pdf.name)
    profile = str(entry.get("profile", ""))
    if not pdf.is_file():
        raise DeckforgeError(f"{pdf}: no such file; rebuild it with 'deckforge build'")
    goal = target(entry, ink_limit)
    findings = Findings()
    try:
        reader = PdfReader(pdf)
        if reader.is_encrypted:
            raise ValueError("the file is encrypted")
        safe_area = goal.bleed > 0 and goal.cards
        with pikepdf.open(pdf) as pike:
            interpreter = Interpreter(reader, pike)
            for number, page in enumerate(reader.pages, start=1):
                findings.add_page(number, page, interpreter.page(page, number - 1), safe_area)
        if not findings.pages:
            raise ValueError("the file has no pages")
        facts = _facts(reader, pdf)
        results = tuple(function(findings, goal, facts) for function in REGISTRY.values())
    except _UNREADABLE + (PyPdfError, pikepdf.PdfError) as error:
        reason = str(error) or type(error).__name__
        return Report(path, profile, (Check("file", FAIL, f"not a readable PDF: {reason}"),))
    return Report(path, profile, results)


def preflight(out_dir: Path, ink_limit: float | None = None) -> list[Report]:
    """Check every output listed in out_dir/manifest.json."""
    out_dir = Path(out_dir)
    entries = [e.to_json() for e in build_manifest.read(out_dir)]
    manifest = out_dir / build_manifest.MANIFEST_NAME
    missing = [str(e.get("path")) for e in entries if not (out_dir / str(e.get("path"))).is_file()]
    if missing:
        listed = ", ".join(missing[:5]) + more(len(missing) - 5, "file")
        raise DeckforgeError(
            f"{manifest} lists files that do not exist: {listed}; rebuild with "
            f"'deckforge build --out {out_dir}'"
        )
    return [preflight_file(out_dir / str(e["path"]), e, ink_limit) for e in entries]


def format_table(reports: list[Report]) -> str:
    """A plain-text table of reports: a row per file, a column per check, then every
    warning and failure with its file, page and what to do."""
    return _format_table(reports, CHECKS)
