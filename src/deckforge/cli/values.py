"""Values the command line and the environment give, checked before a command runs: a
bad one is a usage error (exit 2) that names the option or variable, never an internal
error halfway through a build."""

from __future__ import annotations

import argparse
import os
import re

from deckforge.errors import UsageError

#: The most processes ``--jobs`` may ask for (far more than any machine has cores).
MAX_JOBS = 1024
#: The latest time SOURCE_DATE_EPOCH may give: the end of year 9999, the last a PDF date
#: (``D:YYYY…``) can say.
MAX_EPOCH = 253_402_300_799
_DIGITS = re.compile(r"[0-9]+")


def jobs(text: str) -> int:
    """``--jobs N``: a whole number of processes from 1 to :data:`MAX_JOBS`."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if not 1 <= value <= MAX_JOBS:
        raise argparse.ArgumentTypeError(
            f"{value} processes: give a number from 1 to {MAX_JOBS} (or leave --jobs out "
            "for one per core)"
        )
    return value


def check_environment() -> None:
    """UsageError if SOURCE_DATE_EPOCH (the time written into every PDF, for builds that
    make the same bytes again) is set to anything but a time deckforge can write."""
    text = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not text:
        return
    shown = text if len(text) <= 40 else text[:37] + "…"
    if not _DIGITS.fullmatch(text):
        raise UsageError(
            f"SOURCE_DATE_EPOCH is '{shown}'; it must be a whole number of seconds since "
            "1970-01-01 (like 1700000000), or unset"
        )
    if int(text) > MAX_EPOCH:
        raise UsageError(
            f"SOURCE_DATE_EPOCH is '{shown}', after the year 9999; it must be seconds "
            "since 1970-01-01 (like 1700000000), or unset"
        )


def add_jobs(
    parser: argparse.ArgumentParser, help: str = "N processes (default: one per core)"
) -> None:
    """The ``--jobs N`` option of every command that renders."""
    parser.add_argument("--jobs", type=jobs, default=None, metavar="N", help=help)
