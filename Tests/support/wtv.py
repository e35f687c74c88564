"""What every Python suite shares (Tests/browser, Tests/replicas, Tests/load,
Tests/metrics, Tests/deploy, scripts/test-docs.py, scripts/crash-test.py): the
binary under test, starting `webtableview serve` and reading the address it
prints, stopping it, and waiting for a condition without a fixed sleep.

Import it after putting this folder on the path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import socket
import subprocess
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The binary the tests run: WEBTABLEVIEW_BIN, or the debug build of this checkout.
BINARY = Path(os.environ.get("WEBTABLEVIEW_BIN", ROOT / ".build" / "debug" / "webtableview"))
TEMPLATES = ROOT / "Templates"
PUBLIC = ROOT / "Public"
# The longest any start or wait takes before the test fails, in seconds.
TIMEOUT = 30


def free_port() -> int:
    """A TCP port of 127.0.0.1 free at this moment (for what cannot take port 0)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def launch(command: list[str], stderr, timeout: float = TIMEOUT, **popen) -> tuple[subprocess.Popen, str]:
    """Starts `command`, a `webtableview serve`, and answers the process and
    the URL of its first line, `listening on URL`. `stderr` is a file open for
    writing (read back when the start fails); other Popen arguments pass through.
    A server that prints anything else first, or nothing within `timeout`
    seconds, is stopped and the start raises RuntimeError with its stderr."""
    process = subprocess.Popen([str(part) for part in command], stdout=subprocess.PIPE, stderr=stderr, **popen)
    lines: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=lambda: lines.put(process.stdout.readline()), daemon=True).start()
    try:
        first = lines.get(timeout=timeout)
    except queue.Empty:
        first = b""
    text = first.decode() if isinstance(first, bytes) else first
    if not text.startswith("listening on "):
        stop(process)
        raise RuntimeError(f"the server did not start ({text!r}): {stderr_tail(stderr)}")
    return process, text.removeprefix("listening on ").strip()


def stderr_tail(stderr) -> str:
    """The last 2,000 characters written to `stderr`, an open file."""
    try:
        stderr.flush()
        with open(stderr.name, errors="replace") as file:
            return file.read()[-2000:]
    except (OSError, AttributeError, TypeError):
        return ""


def stop(process: subprocess.Popen, timeout: float = 10) -> int | None:
    """SIGTERM, then SIGKILL after `timeout` seconds; answers the exit status
    (None when it had to be killed)."""
    if process.poll() is not None:
        return process.returncode
    process.terminate()
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None


def wait_until(condition, message: str, timeout: float = TIMEOUT, interval: float = 0.05, ignoring=()):
    """Polls `condition()` until it answers a true value, which it returns; an
    exception of a type in `ignoring` counts as not yet. Raises AssertionError
    with `message` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
            if value:
                return value
        except ignoring:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out: {message}")
        time.sleep(interval)


class Server:
    """`webtableview serve --port PORT ARGS...` (port 0: a free one) with this
    checkout's Templates and Public, its stderr in WORKDIR/NAME.log; stopped by
    `stop()` (or `kill()`)."""

    def __init__(self, workdir: Path, *args: str, name: str = "server", env: dict | None = None,
                 preexec=None, port: int = 0, timeout: float = TIMEOUT):
        self.workdir = workdir
        self.log = workdir / f"{name}.log"
        command = [BINARY, "serve", "--port", str(port), "--public", PUBLIC, "--templates", TEMPLATES, *args]
        with self.log.open("ab") as stderr:
            self.process, self.url = launch(command, stderr, timeout, text=True,
                                            env={**os.environ, **(env or {})}, preexec_fn=preexec)
        self.port = int(self.url.rsplit(":", 1)[1])

    def stop(self) -> None:
        stop(self.process)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def request(self, method: str, path: str, body=None, headers: dict | None = None,
                timeout: float = TIMEOUT) -> tuple[int, dict, bytes]:
        """(status, headers with lower-case names, body bytes); a dict or list body is sent as JSON."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
            sent = dict(headers or {})
            if data is not None:
                sent.setdefault("Content-Type", "application/json")
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()

    def json(self, path: str) -> dict:
        status, _, body = self.request("GET", path)
        assert status == 200, (path, status, body)
        return json.loads(body)
