"""A style's ``font`` given as a family: the files of its regular, bold, italic and
bold-italic faces together, so that ``**bold**`` and ``*italic*`` in text set in it use
the family's own faces rather than the shipped ones::

    styles:
      body:
        font: {regular: LiberationSerif-Regular.ttf, bold: LiberationSerif-Bold.ttf,
               italic: LiberationSerif-Italic.ttf, bold_italic: LiberationSerif-BoldItalic.ttf}

Only ``regular`` is needed; a style the family lacks is set in the shipped face of that
style, as a single font file's emphasis is. A family installed as a Python font package
(``pip install fontpkg-noto-serif``) is named by its name: ``font: Noto Serif``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckforge.text import fonts
from deckforge.text.packages import package_family

if TYPE_CHECKING:
    from deckforge.templates.compile import Compiler
    from deckforge.templates.spec import Spec

#: The keys of a family and the face style each names.
STYLES = {
    "regular": fonts.REGULAR,
    "bold": fonts.BOLD,
    "italic": fonts.ITALIC,
    "bold_italic": fonts.BOLD_ITALIC,
}
#: The schema of a family (a style's ``font`` may also be one file, or 'sans').
SCHEMA = {
    "type": "object",
    "description": "A font family: its faces' TrueType files, relative to this file.",
    "properties": {
        key: {"type": "string", "minLength": 1, "maxLength": 300, "description": f"The {key} face."}
        for key in STYLES
    },
    "required": ["regular"],
    "additionalProperties": False,
}


def family_key(compiler: Compiler, spec: Spec, weight: str) -> str:
    """The weight key of the family's face of ``weight`` (regular or bold), its files
    registered; ``weight`` itself after a problem with one of them."""
    named = spec.data["font"]
    if isinstance(named, str):  # a packaged family, by its name
        try:
            files, labels = package_family(named)
            return fonts.register_family(files, weight, labels)
        except (fonts.FontFileError, OSError) as exc:
            compiler.problem(spec, "font", str(exc))
            return weight
    files = {}
    for key, style in STYLES.items():
        value = spec.data["font"].get(key)
        if value is None:
            continue
        path = compiler.path(spec, "font", (".ttf", ".otf"), value)
        if path is None:
            return weight
        files[style] = path
    try:
        return fonts.register_family(files, weight)
    except (fonts.FontFileError, OSError) as exc:
        compiler.problem(spec, "font", str(exc))
        return weight
