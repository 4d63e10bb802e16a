"""``deckforge preflight``: check the built files as a print shop would."""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "preflight"
HELP = "check built files as a print shop would"


def arguments(parser: argparse.ArgumentParser) -> None:
    """Which build, and the ink limit of CMYK files."""
    parser.add_argument("--out", type=Path, default=Path("build"), help="the build folder")
    parser.add_argument(
        "--ink-limit",
        type=float,
        default=None,
        metavar="PERCENT",
        help="most total ink allowed (default: each file's profile's, 240 for the shipped ones)",
    )


def run(args: argparse.Namespace) -> int:
    """Print the table of checks; fail if any file fails one."""
    from deckforge.preflight import format_table, preflight

    reports = preflight(args.out, args.ink_limit)
    print(format_table(reports))
    return 1 if any(report.failed for report in reports) else 0
