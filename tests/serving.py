"""Running ``deckforge serve`` on a scratch project in a subprocess, for the tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def start_serve(project: Path, *options: str) -> subprocess.Popen:
    """``deckforge serve`` on a free port over ``project``'s decks, its output piped."""
    environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "deckforge", "--decks", str(project / "decks"), "serve"]
        + ["--port", "0", "--out", str(project / "build"), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )


def line_with(process: subprocess.Popen, text: str, timeout: float = 180) -> str:
    """The next line the server prints that holds ``text``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if text in line:
            return line
        assert line or process.poll() is None, process.stderr.read()
    raise AssertionError(f"no line with {text!r} in {timeout} s")


def port_of(address_line: str) -> int:
    """The port in the server's 'serving http://127.0.0.1:PORT/…' line."""
    return int(address_line.split()[1].split(":")[2].split("/")[0])
