"""The three engines, as their viewers use them.

======== ====================== =====================================================
engine   used by                driven through
======== ====================== =====================================================
PDFium   Chrome, Edge           pypdfium2: FPDFText_GetText for text, FPDFText_Find
                                for search, each character's text object for its MCID
pdf.js   Firefox                pdfjs-dist under node (``pdfjs_tool.mjs``):
                                getTextContent items joined as its find controller
                                joins them, its PDFFindController, getStructTree
poppler  Evince, Okular         ``pdftotext`` for text; for search
                                poppler_page_find_text_with_options as Evince calls
                                it, through Debian's python3-gi (``poppler_find.py``)
======== ====================== =====================================================

``make test`` installs what they need (pdf.js into :func:`pdfjs_package`, with npm).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PDFJS_VERSION = "4.10.38"
#: The Python that has Debian's GObject binding of poppler (python3-gi).
SYSTEM_PYTHON = "/usr/bin/python3"


def pdfjs_package() -> Path:
    """Where ``make test`` unpacks pdfjs-dist (``PDFJS_PKG`` overrides)."""
    if "PDFJS_PKG" in os.environ:
        return Path(os.environ["PDFJS_PKG"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "deckforge-tests" / f"pdfjs-dist-{PDFJS_VERSION}" / "package"


def missing() -> list[str]:
    """What is not installed of what the engines need, as install hints."""
    need = []
    if not shutil.which("node"):
        need.append("node (Debian: nodejs)")
    if not (pdfjs_package() / "legacy" / "build" / "pdf.mjs").is_file():
        need.append(f"pdfjs-dist {PDFJS_VERSION} in {pdfjs_package().parent} (make test)")
    if not shutil.which("pdftotext"):
        need.append("pdftotext (Debian: poppler-utils)")
    probe = "import gi; gi.require_version('Poppler', '0.18')"
    if (
        not Path(SYSTEM_PYTHON).exists()
        or subprocess.run([SYSTEM_PYTHON, "-c", probe], capture_output=True).returncode
    ):
        need.append("poppler's GObject binding (Debian: python3-gi gir1.2-poppler-0.18)")
    return need


# --------------------------------------------------------------------------- PDFium
def pdfium_pages(pdf: Path) -> list[str]:
    """Each page's text as Chrome copies it."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return [
            doc[i].get_textpage().get_text_range().replace("\r\n", "\n").replace("\r", "\n")
            for i in range(len(doc))
        ]
    finally:
        doc.close()


def pdfium_find(pdf: Path, queries: list[str]) -> dict[str, bool]:
    """Whether PDFium's own find (FPDFText_Find, case-insensitive) finds each query."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        pages = [doc[i].get_textpage() for i in range(len(doc))]
        found = {}
        for query in queries:
            found[query] = False
            for page in pages:
                search = page.search(query, match_case=False, match_whole_word=False)
                hit = search.get_next()
                search.close()
                if hit:
                    found[query] = True
                    break
        return found
    finally:
        doc.close()


def pdfium_marked_text(pdf: Path) -> dict[tuple[int, int], str]:
    """The text of each marked-content sequence, by (page, MCID), in PDFium's reading."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf)
    out: dict[tuple[int, int], list[str]] = {}
    try:
        for index in range(len(doc)):
            textpage = doc[index].get_textpage()
            last = None
            for char in range(raw.FPDFText_CountChars(textpage)):
                obj = raw.FPDFText_GetTextObject(textpage, char)
                mcid = raw.FPDFPageObj_GetMarkedContentID(obj) if obj else -1
                if mcid < 0:
                    last = None
                    continue
                key = (index, mcid)
                if key != last and key in out:
                    out[key].append(" ")
                out.setdefault(key, []).append(chr(raw.FPDFText_GetUnicode(textpage, char)))
                last = key
    finally:
        doc.close()
    return {key: "".join(chars) for key, chars in out.items()}


# --------------------------------------------------------------------------- pdf.js
def pdfjs(jobs: list[dict]) -> dict[str, dict]:
    """Run ``pdfjs_tool.mjs``: jobs are {pdf, queries, structure}; results by pdf."""
    with tempfile.TemporaryDirectory() as temp:
        job, out = Path(temp, "job.json"), Path(temp, "out.json")
        job.write_text(json.dumps(jobs), encoding="utf-8")
        env = {**os.environ, "PDFJS_PKG": str(pdfjs_package())}
        done = subprocess.run(
            ["node", str(HERE / "pdfjs_tool.mjs"), str(job), str(out)],
            capture_output=True,
            text=True,
            env=env,
        )
        assert done.returncode == 0, f"pdf.js failed: {done.stderr[-2000:]}"
        return {result["pdf"]: result for result in json.loads(out.read_text("utf-8"))}


# --------------------------------------------------------------------------- poppler
def poppler_pages(pdf: Path) -> list[str]:
    """Each page's text as pdftotext gives it (its default reading-order mode)."""
    text = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    pages = text.split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages


def poppler_find(jobs: list[dict]) -> dict[str, dict[str, bool]]:
    """Whether Evince's search finds each query: jobs are {pdf, queries}."""
    with tempfile.TemporaryDirectory() as temp:
        job, out = Path(temp, "job.json"), Path(temp, "out.json")
        job.write_text(json.dumps(jobs), encoding="utf-8")
        done = subprocess.run(
            [SYSTEM_PYTHON, str(HERE / "poppler_find.py"), str(job), str(out)],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, f"poppler's find failed: {done.stderr[-2000:]}"
        return json.loads(out.read_text("utf-8"))
