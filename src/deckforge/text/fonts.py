"""Fonts from PyPI packages, made static and registered with ReportLab.

The packaged Noto fonts are variable fonts; ReportLab embeds TrueType outlines
as they are, so we cut static Regular and Bold instances (and, where the package ships
an italic variable font, Italic and Bold Italic) with fontTools once and keep them in the
cache (:mod:`deckforge.cache`), each checked against its digest on every use.

How an instance is cut is :mod:`deckforge.text.instances`.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from deckforge import cache as kept
from deckforge.fsutil import read_regular
from deckforge.rl import faces
from deckforge.text.instances import cut, reachable
from deckforge.versions import version

REGULAR = "regular"
BOLD = "bold"
ITALIC = "italic"
BOLD_ITALIC = "bold-italic"
_WEIGHTS = {REGULAR: 400, BOLD: 700}
#: Each style: its weight, whether it is cut from the italic font, its face-name suffix.
_STYLES = {
    REGULAR: (400, False, "Regular"),
    BOLD: (700, False, "Bold"),
    ITALIC: (400, True, "Italic"),
    BOLD_ITALIC: (700, True, "BoldItalic"),
}
#: Every style a face can be asked for.
STYLES = tuple(_STYLES)


@dataclass(frozen=True)
class FontFace:
    """One registered face: its ReportLab name, its cached file and the code points it
    can draw."""

    name: str
    path: Path
    coverage: frozenset[int]


def _package_font(module: str, italic: bool = False) -> Path | None:
    """The package's variable font, upright or italic; None if it has no italic."""
    package = __import__(module)
    files = sorted((Path(str(package.__file__)).parent / "files").glob("*.ttf"))
    chosen = [f for f in files if ("Italic" in f.name) == italic]
    if not chosen:
        if italic:
            return None
        raise RuntimeError(f"the font package {module} has no upright TrueType font")
    return chosen[0]


#: Font families by script role: the package each comes from and its face-name stem.
FAMILIES = {
    "latin": ("fontpkg_noto_sans", "NotoSans"),
    "arabic": ("fontpkg_noto_sans_arabic", "NotoSansArabic"),
}

#: Bump when the way instances are made changes, so cached files are remade.
_INSTANCE_VERSION = 5


@dataclass(frozen=True)
class Instance:
    """What one static instance is cut from, and its PostScript name."""

    source: Path
    weight: int
    ps_name: str


def instance_of(family: str, weight: str) -> Instance | None:
    """The instance of a family in a style; None for an italic style of a family that
    has no italic font."""
    module, stem = FAMILIES[family]
    wght, italic, suffix = _STYLES[weight]
    source = _package_font(module, italic)
    return None if source is None else Instance(source, wght, f"{stem}-{suffix}")


def upright_instance(family: str, weight: str) -> Instance:
    """The instance of a family in an upright style (every family has them)."""
    found = instance_of(family, weight)
    if found is None:
        raise ValueError(f"the {family} family has no {weight} font")
    return found


@cache
def _tag(source: Path) -> str:
    """What an instance's bytes depend on: the source font, the fontTools that cuts it
    and the way it is cut. Hashing the source font would cost as much as reading the
    face, so the tag is kept in the cache, by the font's path, size and time."""
    tools = f"fonttools {version('fonttools')} v{_INSTANCE_VERSION}"
    found = source.stat()
    key = f"{source}\0{found.st_size}\0{found.st_mtime_ns}\0{tools}"
    key = hashlib.sha256(key.encode()).hexdigest()
    tags = _kept_dict(_TAGS)
    if isinstance(tags.get(key), str) and len(tags[key]) == 16:
        return tags[key]
    total = hashlib.sha256(source.read_bytes())
    total.update(tools.encode())
    tags[key] = total.hexdigest()[:16]
    kept.store(_TAGS, 1, tags)
    return tags[key]


#: The cache entry of :func:`_tag`'s tags.
_TAGS = "font-sources"


def _kept_dict(name: str) -> dict[str, str]:
    """A cache entry that holds digests by digest (none if there is none)."""
    return kept.load(name, 1, kept.digests) or {}


def _name(instance: Instance) -> str:
    """The cache entry of an instance."""
    return f"font-{instance.ps_name}-{_tag(instance.source)}"


def cached_path(instance: Instance) -> Path | None:
    """The file of an instance in the cache (not read); None if there is none."""
    return cached_path_named(_name(instance))


def cached_path_named(name: str) -> Path | None:
    """The file of the font kept as ``name`` (not read); None if there is none."""
    return kept.file_named(name, _INSTANCE_VERSION, ".ttf")


def is_cached(instance: Instance) -> bool:
    """Whether the cache has an entry for an instance (whole or not: reading it tells)."""
    return kept.path_of(_name(instance)).is_file()


def cached_bytes(name: str) -> tuple[Path, bytes] | None:
    """A font kept in the cache as ``name``: its file and bytes, if it is there whole;
    None if it must be made (said so if it was found damaged)."""
    return kept.load_file(name, _INSTANCE_VERSION, ".ttf")


def keep_bytes(name: str, data: bytes) -> Path:
    """Keep a font made once in the cache as ``name``; its file."""
    return kept.store_file(name, _INSTANCE_VERSION, data, ".ttf")


def instance_file(instance: Instance) -> Path:
    """An instance's file in the cache, cut if need be."""
    return _bytes_of(instance)[0]


def _bytes_of(instance: Instance) -> tuple[Path, bytes]:
    """An instance's cached file and its bytes (cut if need be)."""
    found = cached_bytes(_name(instance))
    if found is None:
        data = cut(instance)
        found = keep_bytes(_name(instance), data), data
    return found


#: Faces from font files a project names, by the key text styles give as their weight,
#: with the weight of the shipped faces that draw what the file lacks.
_FILE_FACES: dict[str, tuple[FontFace, str]] = {}
#: Every face made so far (shipped or from a file), by name.
_FACES: dict[str, FontFace] = {}


#: Each face of a project's font family, by the key of each of its faces: style → key.
_FAMILY: dict[str, dict[str, str]] = {}


def _style(bold: bool, italic: bool) -> str:
    if italic:
        return BOLD_ITALIC if bold else ITALIC
    return BOLD if bold else REGULAR


def styled(weight: str, bold: bool, italic: bool) -> str:
    """The style of text in ``weight`` (regular or bold) made bold and/or italic.

    A font family a project declares sets emphasis in its own faces. A font file a
    project names alone has one face: text in it made bold or italic is set in the
    shipped face of that style (which shows the emphasis), the rest in the file's.
    """
    family = _FAMILY.get(weight)
    if family is not None:
        own_style = next(style for style, key in family.items() if key == weight)
        heavy = bold or own_style in (BOLD, BOLD_ITALIC)
        slanted = italic or own_style in (ITALIC, BOLD_ITALIC)
        wanted = family.get(_style(heavy, slanted))
        if wanted is not None:
            return wanted
    own = _FILE_FACES.get(weight)
    if own is not None:
        return styled(own[1], bold, italic) if bold or italic else weight
    heavy = bold or weight in (BOLD, BOLD_ITALIC)
    slanted = italic or weight in (ITALIC, BOLD_ITALIC)
    if slanted:
        return BOLD_ITALIC if heavy else ITALIC
    return BOLD if heavy else REGULAR


def upright(style: str) -> str:
    """The upright style of the same weight."""
    family = _FAMILY.get(style)
    if family is not None:
        if style == family.get(ITALIC):
            return family[REGULAR]
        if style == family.get(BOLD_ITALIC):
            return family.get(BOLD, family[REGULAR])
    if style in _FILE_FACES:
        return style
    return BOLD if style in (BOLD, BOLD_ITALIC) else REGULAR


def register_family(
    files: dict[str, Path], weight: str = REGULAR, labels: dict[str, str] | None = None
) -> str:
    """A project's font family: the files of its faces by style (regular, and any of
    bold, italic, bold_italic), each registered as :func:`register_file` does (named by
    ``labels`` where given); returns the key of its face of ``weight``. Markup in text
    set in it uses its own faces."""
    labels = labels or {}
    family = {style: register_file(path, style, labels.get(style)) for style, path in files.items()}
    for key in family.values():
        _FAMILY[key] = family
    return family.get(weight, family[REGULAR])


class FontFileError(ValueError):
    """A font file that cannot be used."""


def register_file(path: Path, fallback: str = REGULAR, label: str | None = None) -> str:
    """A TrueType font file (.ttf, or .otf with TrueType outlines) as a face to set text
    in, embedded and subset like the shipped ones; returns the key text styles give as
    their weight. Letters the file lacks (Persian in a Latin face) are set in the shipped
    faces at the ``fallback`` weight. The face is named by the file's name, or by
    ``label`` (a cached instance's file is named by its digest)."""
    stem = label or path.stem
    data = read_regular(path)
    digest = hashlib.sha256(data).hexdigest()[:12]
    key = f"file-{digest}-{fallback}"
    if key in _FILE_FACES:
        return key
    name = f"{stem[:24]}-{digest}"
    try:
        font = TTFont(name, io.BytesIO(data))  # the bytes checked, not the file again
    except Exception as exc:  # noqa: BLE001 - ReportLab raises several kinds for bad files
        reason = str(exc)
        if "postscript outlines" in reason.lower():
            reason = "it has PostScript (CFF) outlines; use the font's TrueType (.ttf) version"
        raise FontFileError(f"cannot use the font '{path.name}': {reason}") from None
    _check_glyphs(path, data)
    # Embedded under a name of its own: one it shares with another face (a shipped
    # face's, NotoSans-Regular) would have ReportLab draw and embed that face instead.
    faces.rename(font, f"{_PS_UNSAFE.sub('', stem)[:24] or 'Font'}-{digest}")
    pdfmetrics.registerFont(font)
    own = _FACES[name] = FontFace(name, path, frozenset(font.face.charToGlyph))
    _FILE_FACES[key] = (own, fallback)
    return key


#: What a PostScript name may not hold (it is kept to letters, digits and '-').
_PS_UNSAFE = re.compile(r"[^A-Za-z0-9-]")
#: The cache entry of the project font files whose glyphs were all read (by SHA-256).
_READ_FONTS = "font-files"


def _check_glyphs(path: Path, data: bytes) -> None:
    """FontFileError unless every glyph a PDF can draw from the font (see
    :func:`instances.reachable`) can be read: ReportLab reads them only when it embeds
    them, and fails there, or embeds garbage. Checked once per file (kept in the cache)."""
    from fontTools.ttLib import TTFont as FTFont

    digest = hashlib.sha256(data).hexdigest()
    checked = _kept_dict(_READ_FONTS)
    if checked.get(digest) == digest:
        return
    try:
        reachable(FTFont(io.BytesIO(data), lazy=True))
    except Exception as exc:  # noqa: BLE001 - fontTools raises many kinds for bad glyphs
        reason = str(exc) or type(exc).__name__
        raise FontFileError(
            f"cannot use the font '{path.name}': its glyphs cannot be read ({reason})"
        ) from None
    checked[digest] = digest
    kept.store(_READ_FONTS, 1, dict(list(checked.items())[-4096:]))


@cache
def face(family: str, weight: str | None = None) -> FontFace:
    """The registered face of a family ('latin' or 'arabic') in a style (see STYLES;
    regular if not given), or the face of a registered font file, whose 'arabic' family
    is the shipped one.

    A family without an italic font (Noto Sans Arabic: the Arabic script has no
    italic) gives its upright face of the same weight for the italic styles.
    """
    if weight is None:
        return face(family, REGULAR)  # the face read once, whether its style is named or not
    own = _FILE_FACES.get(weight)
    if own is not None:
        return own[0] if family == "latin" else face(family, own[1])
    instance = instance_of(family, weight)
    if instance is None:
        return face(family, upright(weight))
    path, data = _bytes_of(instance)
    # ReportLab reads the bytes that were checked, not the file again.
    try:
        font = faces.load(instance.ps_name, path, data)
    except Exception as exc:  # noqa: BLE001 - ReportLab raises several kinds for bad fonts
        # Whole by its checksum, yet not a font ReportLab can read: made again.
        kept.damaged(path, f"it is not a font ReportLab can read: {exc}")
        data = cut(instance)
        path = keep_bytes(_name(instance), data)
        font = faces.load(instance.ps_name, path, data)
    pdfmetrics.registerFont(font)
    coverage = frozenset(font.face.charToGlyph.keys())
    made = _FACES[instance.ps_name] = FontFace(instance.ps_name, path, coverage)
    return made


#: The faces that draw the card suits and game symbols (♠♣♥♦★☆✦⚔) the Noto faces lack,
#: by weight: DejaVu Sans, from Debian's fonts-dejavu-core. No font package pip reaches
#: carries such a font and is kept up; where the files are absent, text holding these
#: characters is refused with a message that says what to install.
SYMBOL_FILES = {
    REGULAR: Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    BOLD: Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
}
#: What to install for :data:`SYMBOL_FILES`, said where a symbol cannot be drawn.
SYMBOL_PACKAGE = "fonts-dejavu-core"
#: The blocks the symbol face draws: arrows, technical symbols, geometric shapes,
#: miscellaneous symbols (suits, chess, dice), dingbats, and symbols and arrows. Emoji
#: are left to OpenMoji's icons, which the refusal of one names.
SYMBOL_BLOCKS = ((0x2190, 0x21FF), (0x2300, 0x23FF), (0x25A0, 0x27BF), (0x2B00, 0x2BFF))


def is_symbol(code: int) -> bool:
    """Whether a code point is in :data:`SYMBOL_BLOCKS`, which the symbol face draws."""
    return any(a <= code <= b for a, b in SYMBOL_BLOCKS)


@cache
def symbol_face(style: str) -> FontFace | None:
    """The symbol fallback face of a style's weight (:data:`SYMBOL_FILES`, italics
    upright), registered on first use, covering :data:`SYMBOL_BLOCKS` only; None where
    its file is not installed."""
    path = SYMBOL_FILES[BOLD if style in (BOLD, BOLD_ITALIC) else REGULAR]
    if not path.is_file():
        return None
    face = _FILE_FACES[register_file(path)][0]
    drawn = frozenset(c for c in face.coverage if is_symbol(c))
    return FontFace(face.name, face.path, drawn)


def coverage(font_name: str) -> frozenset[int]:
    """The code points a face made by :func:`face` can draw (none for another name)."""
    made = _FACES.get(font_name)
    return made.coverage if made is not None else frozenset()


def missing(families: Iterable[str] = tuple(FAMILIES)) -> list[Instance]:
    """The Regular and Bold instances of ``families`` that the cache lacks (or holds
    damaged), the largest first, so that processes cutting them finish together."""
    wanted = [instance_of(family, weight) for family in families for weight in _WEIGHTS]
    todo = [i for i in wanted if i is not None and cached_bytes(_name(i)) is None]
    todo.sort(key=lambda i: (-i.source.stat().st_size, -i.weight))
    return todo


def keep(instance: Instance, data: bytes) -> None:
    """Keep an instance :func:`cut` made in the cache."""
    keep_bytes(_name(instance), data)


def register(families: Iterable[str] = tuple(FAMILIES)) -> None:
    """Register the Regular and Bold faces of ``families`` in this process, so that the
    worker processes it forks share them instead of each reading its own."""
    for family in families:
        for weight in _WEIGHTS:
            face(family, weight)


def prepare(jobs: int) -> None:
    """Before a build forks ``jobs`` worker processes: cut the instances the cache lacks
    (or holds damaged) over up to ``jobs`` processes, and register every face here, so
    that the workers share the faces instead of each cutting and reading its own. With
    one process nothing is done ahead: faces are made as text needs them."""
    if jobs <= 1:
        return
    todo = missing()
    if len(todo) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context()
        with ProcessPoolExecutor(min(jobs, len(todo)), mp_context=context) as pool:
            made = list(pool.map(cut, todo))
    else:
        made = [cut(instance) for instance in todo]
    for instance, data in zip(todo, made, strict=True):
        keep(instance, data)
    register()


def width(text: str, font_name: str, size: float) -> float:
    """The advance width of text in one face, in points."""
    return _string_width(font_name)(text, size)


@cache
def _string_width(font_name: str):
    """A registered font's ``stringWidth`` (looked up once: widths are asked for every
    word of every card)."""
    return pdfmetrics.getFont(font_name).stringWidth


def ascent_descent(font_name: str, size: float) -> tuple[float, float]:
    """The face's ascent and (negative) descent at a size, in points."""
    font = pdfmetrics.getFont(font_name)
    return font.face.ascent * size / 1000.0, font.face.descent * size / 1000.0
