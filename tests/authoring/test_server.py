"""The web server of ``deckforge serve`` over HTTP: only the build folder's own files, only
to requests for its own address, every source text escaped, and a clean stop on Ctrl-C."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from deckforge.authoring.server import Live, Server, Update, allowed_hosts
from deckforge.render.raster.preview import problems_html
from serving import line_with, port_of, start_serve

SCRIPT = "<script>alert(1)</script>"


@pytest.fixture()
def served(tmp_path):
    """A server on a free port over a small build folder, beside a secret it must not give."""
    root = tmp_path / "build"
    (root / "serve" / "en").mkdir(parents=True)
    (root / "serve" / "index.html").write_text("<p>index</p>", encoding="utf-8")
    (root / "serve" / "en" / "face-001.jpg").write_bytes(b"\xff\xd8jpeg")
    (root / ".deckforge-cache.json").write_text("{}", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("secret", encoding="utf-8")
    (root / "serve" / "out").symlink_to(tmp_path / "secret.txt")
    (root / "serve" / "outside").symlink_to(tmp_path, target_is_directory=True)
    live = Live()
    server = Server(root, "127.0.0.1", 0, live, "serve/index.html")
    # Its loop looks for the stop every 50 ms, so that stopping it takes no half second.
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield server
    live.close()
    server.shutdown()
    server.server_close()


def _get(server: Server, path: str, host: str | None = None) -> tuple[int, bytes]:
    """The status and body of a GET of ``path`` sent exactly as written."""
    port = server.server_address[1]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest("GET", path, skip_host=True)
    connection.putheader("Host", f"127.0.0.1:{port}" if host is None else host)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def test_it_serves_the_build_folders_files(served):
    port = served.server_address[1]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/serve/index.html") as response:
        assert response.read() == b"<p>index</p>"
        assert response.headers["Content-Type"] == "text/html; charset=utf-8"
    with urllib.request.urlopen(f"http://localhost:{port}/") as response:
        assert response.url.endswith("/serve/index.html")
    assert _get(served, "/serve/en/face-001.jpg") == (200, b"\xff\xd8jpeg")


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/serve/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2e%2e%2fsecret.txt",
        "/serve%2f%2e%2e%2f%2e%2e%2fsecret.txt",
        "/..%5csecret.txt",
        "/serve%5c..%5c..%5csecret.txt",
        "/%252e%252e/secret.txt",
        "//etc/passwd",
        "/etc/passwd",
        f"/{Path('/etc/passwd').as_posix()}",
        "/C:/Windows/win.ini",
        "/serve/index.html%00.jpg",
        "/.deckforge-cache.json",
        "/%2edeckforge-cache.json",
        "/serve/nothing.png",
        "/serve/%ff",
    ],
)
def test_a_path_out_of_the_build_folder_is_not_found(served, path):
    status, body = _get(served, path)
    assert status == 404, path
    assert b"secret" not in body


def test_a_path_through_a_symlink_out_of_the_build_folder_is_forbidden(served):
    for path in ("/serve/out", "/serve/outside/secret.txt"):
        status, body = _get(served, path)
        assert status == 403, path
        assert b"secret" not in body


def test_a_foreign_host_is_refused(served):
    port = served.server_address[1]
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.nip.io:{port}", ""):
        assert _get(served, "/serve/index.html", host)[0] == 403, host
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/serve/index.html", headers={"Host": f"rebound.example:{port}"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    assert refused.value.code == 403
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        assert _get(served, "/serve/index.html", host)[0] == 200, host


def test_the_hosts_a_server_answers():
    assert allowed_hosts("127.0.0.1", 80) == {
        "127.0.0.1:80",
        "localhost:80",
        "[::1]:80",
    }
    assert allowed_hosts("192.0.2.7", 80) == {"192.0.2.7:80"}
    assert allowed_hosts("0.0.0.0", 80) is None  # any address written in digits


def _first_event(port: int) -> dict:
    """The first server-sent event of ``/events``, as its data."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/events", timeout=10) as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        lines = []
        while (line := response.readline()) not in (b"\n", b""):
            lines.append(line.decode())
    assert lines[0] == "event: update\n"
    return json.loads(lines[1].removeprefix("data: "))


def test_an_update_reaches_a_waiting_page_with_its_problems_escaped(served):
    port = served.server_address[1]
    assert _first_event(port) == {"version": 0, "changed": [], "names": {}, "problems": ""}
    problem = f"decks/x.yaml:3:5: YAML syntax error\n    3 | name: {SCRIPT}\n      |     ^"
    served.live.publish(Update(1, ("serve/en/face-001.jpg",), {}, problems_html([problem])))
    data = _first_event(port)
    assert data["changed"] == ["serve/en/face-001.jpg"]
    assert "<script>" not in data["problems"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in data["problems"]
    assert "decks/x.yaml:3:5: YAML syntax error" in data["problems"]


def test_serve_shows_a_source_error_escaped_and_stops_cleanly_on_ctrl_c(project):
    places = project / "decks" / "guess-the-mess" / "places.yaml"
    text = places.read_text(encoding="utf-8")
    places.write_text(text.replace("{en: Kitchen,", f"{{en: {SCRIPT}],", 1), encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "{en: Kitchen," in row)
    process = start_serve(project, "--edition", "guess-the-mess-en")
    try:
        address_line = line_with(process, "serving http://127.0.0.1:")
        assert "/serve/index.html" in address_line
        line_with(process, "problem(s): shown in the page")
        data = _first_event(port_of(address_line))
        assert f"decks/guess-the-mess/places.yaml:{line}:" in data["problems"]
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in data["problems"]
        assert "<script>" not in data["problems"]
    finally:
        process.send_signal(signal.SIGINT)
        out, errors = process.communicate(timeout=30)
    assert process.returncode in (0, 130), errors
    assert "Traceback" not in out + errors
    assert "stopped serving" in errors


@pytest.mark.slow  # a whole serve session in a process of its own
def test_serve_stops_on_ctrl_c_when_started_with_interrupts_ignored(project):
    # As a shell without job control starts a command in the background: the interrupt
    # is ignored in it and in what it starts, and Python then raises no KeyboardInterrupt.
    process = subprocess.Popen(
        [sys.executable, "-m", "deckforge", "--decks", str(project / "decks"), "serve"]
        + ["--port", "0", "--out", str(project / "build"), "--edition", "guess-the-mess-en"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        line_with(process, "serving http://127.0.0.1:")
        line_with(process, "built in")
    finally:
        process.send_signal(signal.SIGINT)
        out, errors = process.communicate(timeout=30)
    assert "stopped serving" in errors, errors


def test_serve_refuses_a_port_in_use(project):
    with Server(project, "127.0.0.1", 0, Live(), "") as taken:
        port = taken.server_address[1]
        process = subprocess.run(
            [sys.executable, "-m", "deckforge", "--decks", str(project / "decks"), "serve"]
            + ["--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert process.returncode == 2, process.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in process.stderr
