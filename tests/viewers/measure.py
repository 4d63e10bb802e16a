"""What a built file should give back, and how much of it each engine does.

The expected text is what the file prints: every text the layout drew, line by line
(:func:`printed`). Measured per file and engine:

words      share of the printed words found in the engine's text (multiset; ZWNJ,
           bidi marks, tatweel and Arabic diacritics ignored; case folded)
lines      share of the short printed lines (names, labels, headings: at most 32
           characters) found whole on one line of the engine's text
sentences  rulebooks: share of consecutive sentences that come out in order
search     share of queries the engine's own search finds: every name or label (a text
           of at most four words), every word holding a ZWNJ, typed with it, and every
           two-word phrase of the rulebook's running text, typed as printed. pdf.js drops
           ZWNJ from the text it searches: it is given the queries without.
"""

from __future__ import annotations

import collections
import re
import unicodedata
from dataclasses import dataclass, field

ZWNJ = "\u200c"
ARABIC = re.compile("[\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff]")
INVISIBLE = (
    "\u200b\u200c\u200d\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
    "\u2066\u2067\u2068\u2069\ufeff\u0640"
)
_DROP = dict.fromkeys(map(ord, INVISIBLE))
_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "0123456789" * 2)
DIACRITICS = re.compile("[\u064b-\u065f\u0670\u06d6-\u06ed]")
SPLIT = re.compile(r"[\s()\[\]{}«»،؛؟!?.,:;\"'\-–—/…•+*%#]+")
#: Punctuation a query leaves out at its ends (a phrase is typed without the full stop).
OUTER = "()[]{}«»،؛؟!?.,:;\"'…•"
ENGINES = ("pdfium", "pdfjs", "poppler")


def norm(text: str) -> str:
    """Text as compared: NFKC, invisible marks and diacritics gone, digits and case unified."""
    text = unicodedata.normalize("NFKC", text).translate(_DROP)
    text = DIACRITICS.sub("", text).translate(_DIGITS)
    return text.replace("\u064a", "\u06cc").replace("\u0643", "\u06a9").casefold()


def words(text: str, locale: str) -> list[str]:
    """The words of a text in the locale's script."""
    out = []
    for word in SPLIT.split(norm(text)):
        if word and (ARABIC.search(word) if locale == "fa" else re.search("[a-z]", word)):
            out.append(word)
    return out


def norm_line(text: str) -> str:
    return " ".join(norm(text).split())


def composed(ch: str) -> bool:
    """Whether an Arabic letter is a letter and a mark composed (آ أ ؤ إ ئ ۀ ۂ ۓ)."""
    decomposition = unicodedata.decomposition(ch)
    return "\u0600" <= ch <= "\u06ff" and bool(decomposition) and decomposition[0] != "<"


@dataclass
class Printed:
    """What one file prints: its texts in drawing order, and for a rulebook its running
    text as paragraphs (lines joined) in reading order."""

    locale: str
    kind: str
    texts: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    paragraphs: list[str] = field(default_factory=list)
    #: Texts printed over more than one line, and the two-word phrases of the running
    #: text whose words stand on different lines (each only if never printed on one).
    across: set[str] = field(default_factory=set)
    #: Phrases across a page break: each engine searches page by page.
    across_pages: set[str] = field(default_factory=set)
    #: Phrases across the end of a first line that a marker (a list item's number, a
    #: bullet) is drawn after.
    after_label: set[str] = field(default_factory=set)


@dataclass
class Result:
    """One engine's reading of one file: (found, of) per measure, and what it missed."""

    counts: dict = field(default_factory=dict)
    missed: dict = field(default_factory=dict)

    def share(self, key: str) -> float | None:
        found, total = self.counts.get(key, (0, 0))
        return found / total if total else None


def sentences(paragraphs: list[str]) -> list[str]:
    """Sentences of three words or more, in order."""
    out = []
    for paragraph in paragraphs:
        for sentence in re.split(r"(?<=[.!?؟])\s+", paragraph):
            if len(SPLIT.split(sentence.strip())) >= 3:
                out.append(sentence)
    return out


def phrase(first: str, second: str) -> str:
    """Two words as a query: typed without the punctuation around the pair."""
    return f"{first.lstrip(OUTER)} {second.rstrip(OUTER)}"


def queries(printed: Printed) -> dict[str, str]:
    """Each query and its kind: name, zwnj or phrase."""
    found: dict[str, str] = {}
    for text in printed.texts:
        if 0 < len(text.split()) <= 4 and words(text, printed.locale):
            found.setdefault(text, "name")
    for text in printed.texts:
        for word in text.split():
            word = word.strip(OUTER)
            if ZWNJ in word:
                found.setdefault(word, "zwnj")
    if printed.kind == "rulebook":
        for paragraph in printed.paragraphs:
            pieces = paragraph.split()
            for first, second in zip(pieces, pieces[1:], strict=False):
                if words(first, printed.locale) and words(second, printed.locale):
                    found.setdefault(phrase(first, second), "phrase")
    return found


def word_recall(expected: list[str], pages: list[str], locale: str) -> tuple[int, int, list]:
    want = collections.Counter(expected)
    got = collections.Counter(words("\n".join(pages), locale))
    hit = sum(min(count, got[w]) for w, count in want.items())
    return hit, sum(want.values()), [w for w in want if got[w] < want[w]]


def line_recall(expected: list[str], pages: list[str]) -> tuple[int, int, list]:
    got = {norm_line(line) for page in pages for line in page.split("\n") if line.strip()}
    lines = [norm_line(line) for line in expected]
    missed = []
    hit = 0
    for line in lines:
        pattern = re.compile(r"(?<!\w)" + re.escape(line) + r"(?!\w)")
        if line in got or any(pattern.search(g) for g in got):
            hit += 1
        else:
            missed.append(line)
    return hit, len(lines), missed


def _locate(wanted: list[str], stream: list[str]) -> int | None:
    """Where a sentence's words best match a window of the word stream (its start), if
    at least 60 % of them are there."""
    size = len(wanted)
    if not size or not stream:
        return None
    want = collections.Counter(wanted)
    window = min(len(stream), size + 2)
    have = collections.Counter(stream[:window])
    score = sum(min(c, have[w]) for w, c in want.items())
    best, best_at = score, 0
    for i in range(1, len(stream) - window + 1):
        out, inn = stream[i - 1], stream[i + window - 1]
        if out in want and have[out] <= want[out]:
            score -= 1
        have[out] -= 1
        have[inn] += 1
        if inn in want and have[inn] <= want[inn]:
            score += 1
        if score > best:
            best, best_at = score, i
    return best_at if best >= 0.6 * size else None


def sentence_order(expected: list[str], pages: list[str], locale: str) -> tuple[int, int, list]:
    stream = words("\n".join(pages), locale)
    starts: list[int | None] = []
    after = 0
    for sentence in expected:
        # Looked for after the sentence before it first: short sentences that repeat
        # words ("۲ نفر سمت چپ", "۳ نفر سمت چپ") would match too early otherwise.
        wanted = words(sentence, locale)
        found = _locate(wanted, stream[after:])
        start = after + found if found is not None else _locate(wanted, stream)
        starts.append(start)
        if start is not None:
            after = start + 1
    pairs = list(zip(starts, starts[1:], strict=False))
    ok = [a is not None and b is not None and a < b for a, b in pairs]
    missed = [(expected[i], expected[i + 1]) for i, good in enumerate(ok) if not good]
    return sum(ok), len(pairs), missed


def measure(printed: Printed, pages: dict[str, list[str]], found: dict[str, dict]) -> dict:
    """Each engine's :class:`Result` for one file, from its pages and search results."""
    expected_words = [w for text in printed.texts for w in words(text, printed.locale)]
    short = [line for line in dict.fromkeys(printed.lines) if len(line) <= 32]
    short = [line for line in short if words(line, printed.locale)]
    wanted = queries(printed)
    order = sentences(printed.paragraphs) if printed.kind == "rulebook" else []
    results = {}
    for engine in ENGINES:
        result = Result()
        for key, (hit, total, missed) in (
            ("words", word_recall(expected_words, pages[engine], printed.locale)),
            ("lines", line_recall(short, pages[engine])),
        ):
            result.counts[key] = (hit, total)
            result.missed[key] = missed
        if order:
            hit, total, missed = sentence_order(order, pages[engine], printed.locale)
            result.counts["sentences"] = (hit, total)
            result.missed["sentences"] = missed
        for kind in ("name", "zwnj", "phrase", "all"):
            asked = [q for q, k in wanted.items() if kind in ("all", k)]
            hits = [q for q in asked if found[engine].get(q)]
            result.counts[f"search {kind}"] = (len(hits), len(asked))
            result.missed[f"search {kind}"] = [q for q in asked if not found[engine].get(q)]
        results[engine] = result
    return results


def pdfjs_query(query: str) -> str:
    """A query as a Firefox user can find it: pdf.js never has ZWNJ in its text."""
    return query.replace(ZWNJ, "")
