"""A headless Chromium driven over the DevTools protocol, through a pipe.

Chromium started with ``--remote-debugging-pipe`` reads protocol commands from file
descriptor 3 and writes replies and events to descriptor 4, each message JSON ended by a
NUL byte; no port, no websocket, nothing to install besides the browser (Debian's
``chromium``).
"""

from __future__ import annotations

import base64
import fcntl
import io
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

from PIL import Image

#: The flags for a browser run by root on a machine without a display, which must not
#: reach out to the network or show first-run pages.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--window-size=1280,900",
    "--remote-debugging-pipe",
)


def find_chromium() -> str | None:
    """The Chromium on this machine, if there is one."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _above_nine(fd: int) -> int:
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


class Browser:
    """One headless Chromium with one page (tab) to drive."""

    def __init__(self, executable: str, profile: Path):
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # The shell puts the two pipes where Chromium looks for them, 3 and 4; from above
        # 9 first, so that neither end is one of them already.
        to_browser_r, from_browser_w = (_above_nine(fd) for fd in (to_browser_r, from_browser_w))
        script = f'exec "$0" "$@" 3<&{to_browser_r} 4>&{from_browser_w}'
        self.process = subprocess.Popen(
            # bash: dash, Debian's sh, takes no descriptor above 9 in a redirection.
            ["bash", "-c", script, executable, *FLAGS, f"--user-data-dir={profile}"],
            pass_fds=(to_browser_r, from_browser_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next_id = 0
        self._buffer = b""
        self.events: list[dict] = []
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        self.send("Page.enable", session=True)

    def _read(self) -> dict:
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, session: bool = False, **params) -> dict:
        """Send a command (to the page when ``session``) and return its result."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def _wait_for(self, event: str) -> None:
        while True:
            for index, seen in enumerate(self.events):
                if seen.get("method") == event:
                    del self.events[: index + 1]
                    return
            self.events.append(self._read())

    def open(self, url: str) -> None:
        """Load ``url`` and wait until the page has loaded."""
        self.events.clear()
        self.send("Page.navigate", session=True, url=url)
        self._wait_for("Page.loadEventFired")

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (promises are awaited)."""
        result = self.send(
            "Runtime.evaluate",
            session=True,
            expression=expression,
            awaitPromise=True,
            returnByValue=True,
        )
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def until(self, expression: str, timeout: float = 90, poll: float = 0.05):
        """The value of ``expression`` in the page once it is truthy, asked every ``poll``
        seconds; TimeoutError after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(poll)
        raise TimeoutError(f"still false after {timeout} s: {expression}")

    def screenshot(self, x: float, y: float, width: float, height: float) -> Image.Image:
        """A region of the page (CSS pixels from its top left) as the browser shows it."""
        clip = {"x": x, "y": y, "width": width, "height": height, "scale": 1}
        data = self.send(
            "Page.captureScreenshot",
            session=True,
            format="png",
            clip=clip,
            captureBeyondViewport=True,
        )["data"]
        return Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")

    def close(self) -> None:
        """Quit the browser."""
        try:
            self.send("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
