"""The shape of the code: imports point down the pipeline, modules and functions stay small.

The pipeline's order is :data:`LAYERS`, top to bottom: a module may import from its own
layer and from the layers above it, never from one below. A name is placed by its
longest prefix in the table (``render.pdf`` before ``render``). Every import counts,
including those made inside functions to start quickly.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "deckforge"

#: The pipeline, top to bottom, as packages and modules of ``deckforge``.
LAYERS: tuple[tuple[str, ...], ...] = (
    # What every stage speaks of: problems with their place, lengths; the version.
    ("", "errors", "units", "versions"),
    # The build folder: atomic writes, the lock, the build manifest; the cache.
    ("fsutil", "manifest", "cache"),
    # The drawing operations: the plain data that text, art, templates and layout make
    # and renderers draw, the shapes (player symbols, arrows) made of them, and cards' cut
    # shapes.
    ("drawing",),
    # Every use of ReportLab's private API (documents and pages, font faces): below the
    # text and render stages that use it.
    ("rl",),
    # Libraries that know nothing of decks: icons and images; text shaping and fitting
    # (which draws icons inline).
    ("art",),
    ("text",),
    # Sources read and checked (YAML; CSV and XLSX card data), print profiles, the model,
    # and each kind of card.
    ("sources",),
    ("profiles",),
    ("model",),
    ("kinds",),
    # Presentation: card templates, then layout of cards and components, then files.
    ("templates",),
    ("layout",),
    ("render",),
    # Using all of the above: the build, checking what it made, helping authors.
    ("pipeline",),
    ("preflight",),
    ("authoring",),
    ("cli", "__main__"),
)

MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _layer(name: str) -> int:
    """The layer of a module: where the longest table entry that is a prefix of it is."""
    best, where = -1, None
    for index, layer in enumerate(LAYERS):
        for entry in layer:
            if name == entry or name.startswith(entry + "."):
                if len(entry) > best:
                    best, where = len(entry), index
    assert where is not None, f"deckforge.{name} is in no layer of LAYERS"
    return where


def _imports(name: str, path: Path) -> list[tuple[int, str]]:
    """The deckforge modules a module imports (line, name without 'deckforge.')."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ("deckforge." + package).split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # 'from deckforge.x import y' imports the module deckforge.x.y when there is one.
            targets = [
                f"{module}.{alias.name}" if f"{module}.{alias.name}"[10:] in MODULES else module
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            if target == "deckforge" or target.startswith("deckforge."):
                found.append((node.lineno, target[len("deckforge.") :]))
    return found


def test_every_module_is_in_a_layer():
    for name in MODULES:
        _layer(name)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_down_the_pipeline(name):
    here = _layer(name)
    upward = [
        f"line {line}: imports deckforge.{target} ({_where(target)}) from {_where(name)}"
        for line, target in _imports(name, MODULES[name])
        if _layer(target) > here
    ]
    assert not upward, f"deckforge.{name} imports from further down the pipeline:\n" + "\n".join(
        upward
    )


def _where(name: str) -> str:
    return f"layer {_layer(name) + 1}, {' '.join(e or 'deckforge' for e in LAYERS[_layer(name)])}"


def _functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _has_reason(node: ast.FunctionDef, lines: list[str]) -> bool:
    """Whether a whole-line comment stands between the function's first line and its
    first statement after the docstring."""
    body = node.body
    first = body[1] if len(body) > 1 and _is_docstring(body[0]) else body[0]
    return any(line.strip().startswith("#") for line in lines[node.lineno : first.lineno - 1])


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


@pytest.mark.parametrize("name", sorted(MODULES))
def test_modules_and_functions_stay_small(name):
    found = _too_large(name)
    assert not found, (
        f"deckforge.{name} is over {MAX_MODULE_LINES} lines, or has functions over "
        f"{MAX_FUNCTION_LINES} lines without a one-line reason at their top: {found}"
    )


def _too_large(name: str) -> list[str]:
    """What makes a module too large: its length, and its long functions."""
    text = MODULES[name].read_text(encoding="utf-8")
    lines = text.splitlines()
    found = [f"{len(lines)} lines"] if len(lines) > MAX_MODULE_LINES else []
    for node in _functions(ast.parse(text)):
        length = node.end_lineno - node.lineno + 1
        if length > MAX_FUNCTION_LINES and not _has_reason(node, lines):
            found.append(f"{node.name} (line {node.lineno}): {length} lines")
    return found
