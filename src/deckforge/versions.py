"""The versions of installed packages, which name what made a cached file or an output.

Read from the names of the ``*.dist-info`` folders on the import path
(``pillow-13.0.0.dist-info``), where installers write the version in its normalised form
(2.12 for 2.012): importing :mod:`importlib.metadata` to read each package's metadata
file instead would add to every build's start-up. A package installed another way (an
``.egg-info``) is looked up by :mod:`importlib.metadata`.
"""

from __future__ import annotations

import os
import re
import sys
from functools import cache


def _normal(name: str) -> str:
    """A distribution's name as the packaging standards compare it."""
    return re.sub(r"[-_.]+", "-", name).lower()


@cache
def _installed() -> dict[str, str]:
    """The version of every distribution with a ``.dist-info`` folder on the import path,
    by normalised name; the first found wins, as for imports."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue  # a zip file or a folder that is not there
        for name in names:
            if name.endswith(".dist-info") and "-" in name:
                distribution, _, version = name[: -len(".dist-info")].partition("-")
                found.setdefault(_normal(distribution), version)
    return found


def version(name: str) -> str | None:
    """The installed version of the distribution ``name``; None if it is not installed."""
    found = _installed().get(_normal(name))
    if found:
        return found
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None
