"""The web server of ``deckforge serve``: files of one build folder, and server-sent events.

The standard library's ``ThreadingHTTPServer`` is enough for one designer's browser: a
thread per connection, one of them held open per page for its events (``/events``, the
``text/event-stream`` of the HTML standard: lines of text, no framing to write). It
answers only ``GET`` and ``HEAD``, only for regular files inside the build folder (after
every symbolic link is followed), and only to requests whose ``Host`` is the address it
listens on, so that a web page elsewhere cannot reach it through a name it controls
(DNS rebinding).
"""

from __future__ import annotations

import ipaddress
import json
import mimetypes
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: Seconds between the comments that keep an idle event stream open through proxies.
KEEP_ALIVE = 15.0
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


@dataclass(frozen=True)
class Update:
    """What open pages are told after a rebuild: its number, the images drawn again
    (paths inside the build folder), the card name each changed face shows, and the
    problems panel (HTML, every source text escaped)."""

    version: int
    changed: tuple[str, ...] = ()
    names: dict = field(default_factory=dict, compare=False)
    problems: str = ""

    def event(self) -> bytes:
        """The update as one server-sent event."""
        data = {
            "version": self.version,
            "changed": list(self.changed),
            "names": self.names,
            "problems": self.problems,
        }
        return b"event: update\ndata: " + json.dumps(data).encode() + b"\n\n"


class Live:
    """The latest update, and the pages waiting for the next one."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._update = Update(version=0)
        self.closed = False

    @property
    def update(self) -> Update:
        """The latest update."""
        with self._condition:
            return self._update

    def publish(self, update: Update) -> None:
        """Make ``update`` the latest and wake every page waiting for it."""
        with self._condition:
            self._update = update
            self._condition.notify_all()

    def close(self) -> None:
        """Wake every waiting page to end its stream."""
        with self._condition:
            self.closed = True
            self._condition.notify_all()

    def next_after(self, version: int, timeout: float) -> Update | None:
        """The latest update once it is newer than ``version``; None after ``timeout``
        seconds or once closed."""
        with self._condition:
            self._condition.wait_for(lambda: self.closed or self._update.version > version, timeout)
            if self.closed or self._update.version <= version:
                return None
            return self._update


def contained(root: Path, url_path: str) -> Path | HTTPStatus:
    """The file of the build folder ``root`` that ``url_path`` names, or why not: 404 for
    a path that climbs (``..``, also percent-encoded), holds a backslash, a drive or a
    hidden name, or names no file; 403 for one that leads outside through a link."""
    text = unquote(url_path, errors="strict") if "%" in url_path else url_path
    if not text.startswith("/") or any(c in text for c in "\\\0:"):
        return HTTPStatus.NOT_FOUND
    parts = [part for part in text.split("/") if part]
    if not parts or any(part.startswith(".") for part in parts):
        return HTTPStatus.NOT_FOUND
    base = root.resolve()
    try:
        target = base.joinpath(*parts).resolve(strict=True)
    except (OSError, RuntimeError):
        return HTTPStatus.NOT_FOUND
    if not target.is_relative_to(base):
        return HTTPStatus.FORBIDDEN
    return target if target.is_file() else HTTPStatus.NOT_FOUND


def allowed_hosts(host: str, port: int) -> set[str] | None:
    """The ``Host`` values a server on ``host``:``port`` answers; None for any address
    written as digits (a server on every interface is reached by any of its addresses,
    but a rebound name is never one)."""
    if host in ("", "0.0.0.0", "::"):
        return None
    shown = f"[{host}]" if ":" in host else host
    names = {shown, *LOOPBACK_NAMES} if _loopback(host) else {shown}
    return {f"{name}:{port}" for name in names}


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _is_address(host: str) -> bool:
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


class Server(ThreadingHTTPServer):
    """A build folder over HTTP, with the live updates of its preview at ``/events``."""

    daemon_threads = True

    def __init__(
        self,
        root: Path,
        host: str,
        port: int,
        live: Live,
        home: str,
        before_file: Callable[[Path], None] | None = None,
    ):
        self.root, self.live, self.home = Path(root), live, home
        #: Told of each file before it is sent (what brings a download up to date).
        self.before_file = before_file
        super().__init__((host, port), Handler)
        self.hosts = allowed_hosts(host, self.server_address[1])

    @property
    def url(self) -> str:
        """Where a browser opens the preview."""
        host, port = self.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else host
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/{self.home}"


class Handler(BaseHTTPRequestHandler):
    """One request: a file of the build folder, the event stream, or a refusal."""

    server: Server
    server_version = "deckforge"

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        """Requests are not logged: the terminal is for the sources' problems."""

    def do_HEAD(self) -> None:
        """The headers a GET would send."""
        self._answer(body=False)

    def do_GET(self) -> None:
        """A file, the event stream, or a refusal."""
        self._answer(body=True)

    def _answer(self, body: bool) -> None:
        host = self.headers.get("Host", "")
        hosts = self.server.hosts
        if (hosts is None and not _is_address(host)) or (hosts is not None and host not in hosts):
            self._refuse(HTTPStatus.FORBIDDEN, "this server answers only its own address")
            return
        path = urlsplit(self.path).path
        if path == "/":
            self.send_response(HTTPStatus.FOUND)
            self.send_header("Location", "/" + self.server.home)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/events":
            self._events(body)
        else:
            try:
                found = contained(self.server.root, path)
            except UnicodeDecodeError:
                found = HTTPStatus.NOT_FOUND
            if isinstance(found, HTTPStatus):
                self._refuse(found, "not a file of this build")
            else:
                if self.server.before_file is not None:
                    self.server.before_file(found)
                self._file(found, body)

    def _refuse(self, status: HTTPStatus, why: str) -> None:
        data = f"{status.value} {status.phrase}: {why}\n".encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _file(self, path: Path, body: bool) -> None:
        data = path.read_bytes()
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind.endswith("javascript"):
            kind += "; charset=utf-8"
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        # Pages and images change under the same names as the sources are saved.
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _events(self, body: bool) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if not body:
            return
        live = self.server.live
        update = live.update
        try:
            # The latest update at once, so that a page opened while the sources do not
            # build shows why.
            self.wfile.write(update.event())
            self.wfile.flush()
            while not live.closed:
                newer = live.next_after(update.version, KEEP_ALIVE)
                if newer is not None:
                    update = newer
                self.wfile.write(update.event() if newer is not None else b": still here\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return
