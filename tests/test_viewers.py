"""The built files as people read them: in Chrome (PDFium), Firefox (pdf.js) and Evince
(poppler), each engine driven as its viewer drives it (see ``tests/viewers``).

Every printed word comes back, short lines come back whole, rulebook sentences come back
in order, and each engine's own search finds names, ZWNJ words and rulebook phrases
typed as printed, except where the engine itself cannot (each exception named below,
with why). Rulebooks and score pads are tagged PDF whose structure tree reads as the
rulebook; every file says its language.
"""

from __future__ import annotations

import re

import pikepdf
import pytest

from conftest import DECKS
from viewers import engines
from viewers.measure import ENGINES, SPLIT, norm, norm_line, queries
from viewers.printed import printed_files
from viewers.read import pooled, read
from viewers.report import CAUSES, FILE_COLUMNS, by_cause, cause, per_file

#: PDFium, pdf.js (node) and poppler read the PDFs back.
pytestmark = pytest.mark.engines

PROFILES = ["pnp-a4", "printer"]


@pytest.fixture(scope="module")
def printed():
    return printed_files(DECKS, PROFILES)


@pytest.fixture(scope="module")
def readings(built, printed):
    need = engines.missing()
    assert not need, "the engine tests need: " + "; ".join(need) + " (make test installs them)"
    return read(built, printed)


def _shares(readings, printed, key, **match):
    for path, by_engine in readings.items():
        if any(getattr(printed[path], k) != v for k, v in match.items()):
            continue
        for engine, result in by_engine.items():
            share = result.share(key)
            if share is not None:
                yield path, engine, share, result.missed[key]


def test_every_engine_gives_back_every_printed_word(readings, printed):
    low = [
        (path, engine, f"{share:.1%}", missed[:5])
        for path, engine, share, missed in _shares(readings, printed, "words")
        if share < 0.99
    ]
    assert not low, low


def test_short_lines_come_back_whole(readings, printed):
    low = []
    for path, engine, _, missed in _shares(readings, printed, "lines"):
        lines = [line for line in dict.fromkeys(printed[path].lines) if len(line) <= 32]
        possible = [line for line in lines if not READS_OTHERWISE[engine](line)]
        lost = [line for line in missed if not READS_OTHERWISE[engine](line)]
        if len(lost) > 0.01 * len(possible):
            low.append((path, engine, f"{len(lost)} of {len(possible)}", lost[:5]))
    assert not low, low


def test_rulebook_sentences_come_back_in_order(readings, printed):
    low = []
    checked = 0
    for path, by_engine in readings.items():
        if printed[path].kind != "rulebook":
            continue
        for engine, result in by_engine.items():
            checked += 1
            missed = result.missed["sentences"]
            found, pairs = result.counts["sentences"]
            if len(missed) > 0.02 * pairs:
                low.append((path, engine, f"{found}/{pairs}", [b[:50] for _, b in missed[:3]]))
    assert checked == 2 * 3 * len(ENGINES)  # two profiles, three rulebooks
    assert not low, low


def _pdfium_reads_otherwise(text: str) -> bool:
    # PDFium puts a line into reading order by cutting it into runs of one direction
    # (CFX_BidiChar::AppendChar) and writing each right-to-left run backwards, every
    # character mirrored once more (CPDF_TextPage::CloseTempLine, AddCharInfoByRLDirection:
    # GetMirrorChar; PDFium 159 in pypdfium2). A bracket drawn mirrored in right-to-left
    # text reads, through /ToUnicode, as the bracket typed, which is what pdf.js (bidi.js)
    # and poppler (reorderText), who mirror nothing, need: one /ToUnicode serves all three
    # engines, and reading the glyph as the bracket it looks like would turn the two others
    # wrong. And it counts the punctuation beside a number (+ % . , : ،: classes ES, ET,
    # CS) into the number's left-to-right run, written in drawing order ("+۳" for "۳+").
    return bool(re.search(r"[()\[\]{}«»]|[0-9۰-۹][+%،.,:]", text))


def _pdfjs_reads_otherwise(text: str) -> bool:
    # pdf.js reads a line of which fewer than 30 % of the characters are right-to-left
    # as left-to-right ("و …)." comes back ".)… و").
    letters = sum(1 for ch in text if "\u0600" <= ch <= "\u06ff")
    return 0 < letters < 0.3 * len(text)


def _poppler_reads_otherwise(text: str) -> bool:
    # poppler's copy (reorderText) counts . , : ، as part of a number, with the space
    # beside them: between two right-to-left words it puts them on the far side of the
    # space ("این ،هر" for "این، هر"). Only a right-to-left mark between the two would
    # keep them apart, and poppler's search, which looks for the query as drawn, would
    # then find no phrase typed with them (deckforge.text.lines draws none there).
    letter = "[\u0621-\u064a\u0671-\u06d3]"
    return bool(re.search(f"{letter}[)\\]»]?[.,:،][ ()\\[\\]«»]* [ ()\\[\\]«»]*{letter}", text))


#: Text an engine reads otherwise than written (in order, though), however it is drawn.
READS_OTHERWISE = {
    "pdfium": _pdfium_reads_otherwise,
    "pdfjs": _pdfjs_reads_otherwise,
    "poppler": _poppler_reads_otherwise,
}


def _pdfium_cannot(query: str, printed) -> bool:
    return _pdfium_reads_otherwise(query)


def _pdfjs_cannot(query: str, printed) -> bool:
    # pdf.js (4.10, getTextContent) starts a new text item at every change of font
    # (setFont: flushTextContentItem), puts each item into reading order on its own, and
    # joins the items in the order they are drawn, without a space after a step back to
    # the left (compareWithLastPosition). A right-to-left list number or bullet is set in
    # another face than its line, so it is an item of its own, read where it is drawn.
    # Drawn before its line it ran into the line's first word (".۶هر") and the word was
    # lost; drawn after the item's second line, PDFium lost more phrases than pdf.js
    # found. It is drawn after its line, so a phrase across the end of that line has the
    # number in it.
    return _pdfjs_reads_otherwise(query) or query in printed.after_label


def _poppler_cannot(query: str, printed) -> bool:
    # Evince's search, poppler's TextPage::findText (poppler 22.12, TextOutputDev.cc),
    # looks for the query put into drawing order by reorderText() in each line's text as
    # drawn; copying (pdftotext, Evince's copy) puts that same text into reading order by
    # reorderText(). What no drawing lets it find while copying stays right:
    # * a letter composed with a mark: the query is normalised after reordering
    #   (unicodeNormalizeNFKC(reordered, ...)), which keeps آ composed, the page's text
    #   with reverseRTL (unicodeNormalizeNFKC(line->text, ..., true);
    #   UnicodeTypeTable.cc, decomp_compat), which writes the mark before its letter,
    #   where it never composes again. The page would have to hold alef, then madda, in
    #   drawing order, and copying reverses that into madda, alef.
    # * a number next to a space: reorderText() keeps a number and the spaces beside it
    #   one left-to-right piece, so "بازیکن ۱" is looked for as " ۱نکیزاب", the space on
    #   the number's far side and the number against the word; a line's text is made from
    #   where its words stand, with a space in each gap: "۱ نکیزاب". Where the number comes
    #   first ("۸۴ کارت"), the page would have to hold it against the next word, and copying
    #   would glue the two. A number that ends a text could be held in search order only in
    #   an /ActualText, which PDFium reads too, as if it were the drawn text, and then loses
    #   words and phrases.
    # * a bracket beside . , : ،: poppler counts those as numbers and keeps the neutral
    #   characters beside them in the number's left-to-right piece, in typed order, so
    #   "باشد)، راوی" is looked for with ")،" where the page draws "،)".
    # * a phrase broken across lines: findText goes on in the next line only after the
    #   start of the query matched the end of a line (matchAcrossLines); in drawing order
    #   the query starts with the phrase's second word, which ends the lower line's text
    #   as drawn, and goes on with the first word, which stands in the line above.
    return cause(query, printed) != CAUSES[-1]


#: What an engine cannot find however the text is drawn, with why. Each was measured on
#: lines whose extracted text is right (see ``tests/viewers``).
CANNOT_FIND = {"pdfium": _pdfium_cannot, "pdfjs": _pdfjs_cannot, "poppler": _poppler_cannot}


def test_each_engines_search_finds_all_it_can_in_persian(readings, printed):
    low = []
    for path, by_engine in readings.items():
        if printed[path].locale != "fa":
            continue
        asked = list(queries(printed[path]))
        for engine, result in by_engine.items():
            missed = set(result.missed["search all"])
            possible = [
                q
                for q in asked
                if not CANNOT_FIND[engine](q, printed[path]) and q not in printed[path].across_pages
            ]
            lost = [q for q in possible if q in missed]
            if len(lost) > 0.01 * len(possible):
                low.append((path, engine, f"{len(lost)} of {len(possible)}", lost[:5]))
    assert not low, low


#: The least share of all the queries asked of the Persian files (every query counted,
#: those an engine cannot find too) that each engine's search finds.
PERSIAN_SEARCH_FLOOR = {"pdfium": 0.97, "pdfjs": 0.98, "poppler": 0.875}


def test_persian_search_over_every_query(readings, printed):
    totals = pooled(readings, printed, locale="fa")
    shares = {engine: totals[engine]["search all"] for engine in ENGINES}
    low = {e: f"{h}/{t}" for e, (h, t) in shares.items() if h < PERSIAN_SEARCH_FLOOR[e] * t}
    assert not low, low


def test_evince_misses_in_persian_only_what_it_cannot_find(readings, printed):
    # Counted by cause as the report counts them (report.py --causes): every query
    # poppler misses has one of the causes named in _poppler_cannot, but for a handful.
    counts = by_cause(readings, printed)
    totals = pooled(readings, printed, locale="fa")
    for engine in ENGINES:
        found, asked = totals[engine]["search all"]
        assert sum(counts[engine].values()) == asked - found
    assert counts["poppler"][CAUSES[-1]] <= 0.01 * totals["poppler"]["search all"][1], counts


def test_the_report_gives_each_persian_files_figures_in_every_engine(readings, printed):
    rows = per_file(readings, printed)
    persian = sorted(path for path in readings if printed[path].locale == "fa")
    editions = sorted({path.split("/")[0] for path in persian})
    assert {"gomaneh-fa", "guess-the-mess-fa"} <= set(editions)
    assert [row[0] for row in rows] == [
        *persian,
        *(f"{edition} (all)" for edition in editions),
        "fa (all)",
    ]
    assert all(len(row) == 2 + len(FILE_COLUMNS) * len(ENGINES) for row in rows)
    # The last row is every query of every Persian file.
    asked = sum(len(queries(printed[path])) for path in persian)
    assert rows[-1][1] == str(asked)


def test_english_search_finds_names_and_phrases(readings, printed):
    low = [
        (path, engine, f"{share:.1%}", missed[:5])
        for path, engine, share, missed in _shares(readings, printed, "search all", locale="en")
        if share < 0.99
    ]
    assert not low, low


def _tree_texts(pdf, marked: list[dict]) -> list[tuple[str, str]]:
    """The structure tree's elements that hold content, in the tree's order, each with
    its text as pdf.js reads its marked content (what Firefox's accessibility tree
    reads), lines joined by spaces."""
    pages = {page.objgen: index for index, page in enumerate(pdf.pages)}
    out = []

    def walk(element):
        parts = []
        kids = element.get("/K")
        kids = kids if isinstance(kids, pikepdf.Array) else [kids]
        for kid in kids:
            if isinstance(kid, pikepdf.Dictionary) and kid.get("/Type") == "/MCR":
                text = marked[pages[kid.Pg.objgen]].get(str(int(kid.MCID)), "")
                parts.append(text.strip())
            elif isinstance(kid, pikepdf.Dictionary):
                if parts:
                    out.append((str(element.S)[1:], " ".join(parts)))
                    parts = []
                walk(kid)
        if parts:
            out.append((str(element.S)[1:], " ".join(parts)))

    root = pdf.Root.StructTreeRoot.K
    walk(root[0] if isinstance(root, pikepdf.Array) else root)
    return out


def _tokens(text: str) -> list[str]:
    return [token for token in SPLIT.split(norm(text)) if token] or [norm_line(text)]


def _rulebook_text(book) -> list[str]:
    """The rulebook's texts in reading order, each list item's label before it."""
    from deckforge.text.script import list_letter, number

    out = [book.title] + ([book.subtitle] if book.subtitle else [])

    def section(part) -> None:
        out.append(part.heading.value)
        for block in part.blocks:
            if block.kind in ("paragraph", "note"):
                out.append(block.texts[0].value)
            elif block.kind == "bullets":
                for text in block.texts:
                    out.extend(["•", text.value])
            else:
                for step in block.steps:
                    out.extend([f"{number(step.number, book.locale)}.", step.text.value])
                    for k, sub in enumerate(step.substeps):
                        out.extend([f"{list_letter(k, book.locale)}.", sub.value])
        for sub in part.sections:
            section(sub)

    for part in book.sections:
        section(part)
    out.append("  ".join(book.credits))
    return out


@pytest.fixture(scope="module")
def rulebooks():
    from deckforge.kinds.rulebook import Rulebook
    from deckforge.pipeline.recipe import gather
    from deckforge.sources.load import Project, select_editions

    editions, _ = gather(Project(DECKS), select_editions(Project(DECKS), None))
    return {
        edition.id: next(c for c in edition.components if isinstance(c, Rulebook))
        for edition in editions
    }


@pytest.mark.parametrize("profile", PROFILES)
def test_rulebook_structure_tree_reads_as_the_rulebook(built, rulebooks, profile):
    need = engines.missing()
    assert not need, "the engine tests need: " + "; ".join(need)
    paths = {edition: built / edition / profile / "rulebook.pdf" for edition in rulebooks}
    marked = engines.pdfjs([{"pdf": str(p), "marked": True} for p in paths.values()])
    for edition, path in paths.items():
        with pikepdf.open(path) as pdf:
            assert pdf.Root.MarkInfo.Marked is True
            tree = _tree_texts(pdf, marked[str(path)]["marked"])
        kinds = {kind for kind, _ in tree}
        assert {"H1", "H2", "P", "Lbl", "LBody"} <= kinds, kinds
        # Compared word for word (numbers too), leaving out punctuation: pdf.js reads a
        # list number alone as left-to-right text (".۱" for "۱.").
        got = [_tokens(text) for _, text in tree]
        want = [_tokens(text) for text in _rulebook_text(rulebooks[edition])]
        assert got == want, next(
            (i, g, w) for i, (g, w) in enumerate(zip(got, want, strict=False)) if g != w
        )


def test_score_pads_are_tagged_tables(built, manifest):
    for entry in manifest:
        if entry["kind"] != "score-pad":
            continue
        with pikepdf.open(built / entry["path"]) as pdf:
            assert pdf.Root.MarkInfo.Marked is True
            document = pdf.Root.StructTreeRoot.K[0]
            assert [str(kid.S) for kid in document.K] == ["/H1", "/Table"], entry["path"]
            rows = document.K[1].K
            assert all(str(row.S) == "/TR" for row in rows)
            assert all(str(cell.S) == "/TH" for row in rows for cell in row.K)


def test_every_file_says_its_language(built, manifest):
    for entry in manifest:
        with pikepdf.open(built / entry["path"]) as pdf:
            assert str(pdf.Root.get("/Lang")) == entry["locale"], entry["path"]
            tagged = entry["kind"] in ("rulebook", "score-pad")
            assert ("/StructTreeRoot" in pdf.Root) == tagged, entry["path"]
