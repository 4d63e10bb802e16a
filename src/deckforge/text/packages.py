"""Font families installed as Python font packages (``fontpkg-…`` on PyPI), named by
their family name in a template (``font: Noto Serif``): each style's static face, cut
from the package's variable font as the shipped faces are."""

from __future__ import annotations

from pathlib import Path

from deckforge.text import fonts

#: The weight and slant of each style, as the package's files give them.
_WANTED = {
    fonts.REGULAR: (400, False, "Regular"),
    fonts.BOLD: (700, False, "Bold"),
    fonts.ITALIC: (400, True, "Italic"),
    fonts.BOLD_ITALIC: (700, True, "BoldItalic"),
}


def package_family(name: str) -> tuple[dict[str, Path], dict[str, str]]:
    """The font files of a packaged family's faces, by style (those it has), and the name
    of each face (``NotoSerif-Bold``); FontFileError naming the installed families when no
    package holds it."""
    import fontpkg  # read only by templates that name a packaged family

    try:
        family = fontpkg.family(name)
    except fontpkg.FontpkgError:
        installed = ", ".join(sorted(f.name for f in fontpkg.families().values()))
        raise fonts.FontFileError(
            f"no font package holds the family '{name}' (installed: {installed}); install "
            f"its package, fontpkg-{fontpkg.slugify(name)}, or name a font file"
        ) from None
    stem = "".join(part for part in family.name.split() if part.isalnum())
    files: dict[str, Path] = {}
    labels: dict[str, str] = {}
    for style, (weight, italic, suffix) in _WANTED.items():
        for found in family.files:
            if (found.style == "italic") != italic:
                continue
            if found.variable and (found.wght_min or 0) <= weight <= (found.wght_max or 1000):
                instance = fonts.Instance(found.path, weight, f"{stem}-{suffix}")
                files[style] = fonts.instance_file(instance)
                labels[style] = f"{stem}-{suffix}"
                break
            if not found.variable and found.weight == weight:
                files[style] = found.path
                break
    if fonts.REGULAR not in files:
        raise fonts.FontFileError(f"the font package of '{name}' has no regular face")
    return files, labels
