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


#: The schemes a Tabletop Simulator saved object's image links may have.
URL_SCHEMES = ("http", "https", "file")
#: What an address's path keeps as it is (RFC 3986's unreserved and sub-delimiters, and
#: '%' of what is encoded already); anything else is percent-encoded.
_URL_SAFE = "/%:@!$&()*+,;=-._~"
_URL_EXAMPLE = "like https://example.org/build/"


def base_url(text: str) -> str:
    """``--base-url URL``: an http, https or file address of a folder, its path
    percent-encoded; no spaces, quotes or control characters, no query or fragment."""
    from urllib.parse import quote, urlsplit, urlunsplit

    shown = text if len(text) <= 80 else text[:77] + "…"
    bad = next((c for c in text if c.isspace() or c in "\"'<>`\\" or ord(c) < 32), None)
    if bad is not None:
        if bad.isspace():
            what = "a space in it; write it as %20"
        elif ord(bad) < 32:
            what = "a control character in it"
        else:
            what = f"a quote or bracket ({bad}) in it; an address cannot hold one"
        raise argparse.ArgumentTypeError(f"'{shown}' has {what}")
    try:
        parts = urlsplit(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"'{shown}' is not an address ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme and scheme not in URL_SCHEMES:
        raise argparse.ArgumentTypeError(
            f"'{shown}' is a '{scheme}:' address; give an http://, https:// or file:// one, "
            f"{_URL_EXAMPLE}"
        )
    if not scheme or not text[len(scheme) :].startswith("://"):
        raise argparse.ArgumentTypeError(
            f"'{shown}' has no scheme: give an http://, https:// or file:// address, {_URL_EXAMPLE}"
        )
    if scheme != "file" and not parts.hostname:
        raise argparse.ArgumentTypeError(f"'{shown}' names no host: give one, {_URL_EXAMPLE}")
    if parts.query or parts.fragment or text.endswith(("?", "#")):
        raise argparse.ArgumentTypeError(
            f"'{shown}' has a query or fragment ('?' or '#'); give the address of the folder "
            "the build is served from"
        )
    return urlunsplit((scheme, parts.netloc, quote(parts.path, safe=_URL_SAFE), "", ""))


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


#: The most cards a showcase picture shows (as render.raster.showcase allows).
_MOST_SHOWN = 12
_HEX = re.compile(r"#([0-9A-Fa-f]{6})")


def card_numbers(text: str) -> list[int]:
    """``--cards 1,4,9``: card numbers counted from 1, at most :data:`_MOST_SHOWN`."""
    parts = [part.strip() for part in text.split(",")]
    if not all(_DIGITS.fullmatch(part) and len(part) <= 9 for part in parts):
        raise argparse.ArgumentTypeError(f"'{text}' is not a list of card numbers such as 1,4,9")
    numbers = [int(part) for part in parts]
    if min(numbers) < 1 or len(numbers) > _MOST_SHOWN:
        raise argparse.ArgumentTypeError(
            f"'{text}': give 1 to {_MOST_SHOWN} card numbers, counted from 1"
        )
    return numbers


def background(text: str) -> tuple[int, int, int, int] | None:
    """``--background``: 'transparent' (None), or a colour '#RRGGBB', opaque."""
    if text.strip().lower() == "transparent":
        return None
    found = _HEX.fullmatch(text.strip())
    if not found:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a background: give 'transparent' or a colour such as '#1A1A2E'"
        )
    value = int(found.group(1), 16)
    return value >> 16, (value >> 8) & 0xFF, value & 0xFF, 255
