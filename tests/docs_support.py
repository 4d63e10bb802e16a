"""What the documentation tests share: the checkout, and mkdocs run as `make docs` runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def mkdocs(config: Path, site: Path) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` of a config into ``site``; its output kept for the failure."""
    return subprocess.run(
        [str(BIN / "mkdocs"), "build", "--strict", "-f", str(config), "--site-dir", str(site)],
        capture_output=True,
        text=True,
    )
