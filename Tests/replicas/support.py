"""Helpers for the replica and storage tests: the real server on port 0, a
private PostgreSQL cluster on a free loopback port, and HTTP calls with
http.client. Every process a test starts is stopped by its fixture."""

from __future__ import annotations

import http.client
import json
import os
import queue
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("WEBTABLEVIEW_BIN", ROOT / ".build" / "debug" / "webtableview"))
TEMPLATES = ROOT / "Templates"
PUBLIC = ROOT / "Public"
TIMEOUT = 30
JSON = {"Content-Type": "application/json"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`webtableview serve --port 0 ARGS...`, stopped by `stop()` (or `kill()`)."""

    def __init__(self, workdir: Path, *args: str, name: str = "server", env: dict | None = None,
                 preexec=None, port: int = 0):
        self.workdir = workdir
        self.log = workdir / f"{name}.log"
        command = [str(BINARY), "serve", "--port", str(port),
                   "--public", str(PUBLIC), "--templates", str(TEMPLATES), *args]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=self.log.open("ab"), text=True,
            env={**os.environ, **(env or {})}, preexec_fn=preexec)
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: lines.put(self.process.stdout.readline()), daemon=True).start()
        try:
            first = lines.get(timeout=TIMEOUT)
        except queue.Empty:
            self.stop()
            raise RuntimeError(f"server did not start: {self.log.read_text()}")
        if not first.startswith("listening on "):
            self.stop()
            raise RuntimeError(f"server did not start ({first!r}): {self.log.read_text()}")
        self.url = first.removeprefix("listening on ").strip()
        self.port = int(self.url.rsplit(":", 1)[1])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def request(self, method: str, path: str, body=None, headers: dict | None = None,
                timeout: float = TIMEOUT) -> tuple[int, dict, bytes]:
        """(status, headers with lower-case names, body bytes)."""
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


class PostgreSQL:
    """A private cluster in a temporary folder on a free loopback port, run as
    the unprivileged `postgres` user when the tests run as root (PostgreSQL
    refuses root). `stop()`/`start()` take it away and bring it back;
    `database()` makes a fresh, empty database and answers its URL."""

    BIN = Path("/usr/lib/postgresql/15/bin")

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="webtableview-pg-"))
        self.folder.chmod(0o777)
        self.data = self.folder / "db"
        self.port = free_port()
        self.databases = 0
        self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres")
        self.start()

    def database(self) -> str:
        self.databases += 1
        name = f"wtv{self.databases}"
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def run(self, tool: str, *args: str) -> None:
        command = [str(self.BIN / tool), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-w", "-l", str(self.folder / "pg.log"), "-o",
                 # fsync off: a test cluster need not survive a power cut, and
                 # commits then cost CPU, not the disk's flush latency.
                 f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
                 " -c fsync=off -c full_page_writes=off",
                 "start")

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-w", "-m", "fast", "stop")

    @property
    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def destroy(self) -> None:
        if self.running:
            try:
                self.stop()
            except subprocess.CalledProcessError:
                pass
        shutil.rmtree(self.folder, ignore_errors=True)


class Database:
    """One fresh database of the cluster: `url`, `psql(sql)`, and the
    cluster's `stop()`/`start()`."""

    def __init__(self, cluster: PostgreSQL):
        self.cluster = cluster
        self.url = cluster.database()

    def psql(self, sql: str) -> str:
        out = subprocess.run(["psql", "-qAt", self.url, "-c", sql], check=True, capture_output=True, text=True)
        return out.stdout.strip()

    def stop(self) -> None:
        self.cluster.stop()

    def start(self) -> None:
        self.cluster.start()


def wait_until(condition, message: str, timeout: float = TIMEOUT, interval: float = 0.05):
    """Polls `condition` until it answers a true value (which it returns)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out: {message}")
        time.sleep(interval)


class EventFollower:
    """Reads `/api/tables/{t}/events` from `Last-Event-ID: since` on a thread;
    `events` holds (event name, id, data) as they arrive."""

    def __init__(self, server: Server, table: str, since: int = 0):
        self.events: list[tuple[str, int | None, str]] = []
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
        self.connection.request("GET", f"/api/tables/{table}/events", headers={"Last-Event-ID": str(since)})
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self) -> None:
        name, ident, data = "message", None, []
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line == "":
                    if data:
                        self.events.append((name, ident, "\n".join(data)))
                    name, ident, data = "message", None, []
                elif line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("id: "):
                    ident = int(line[4:])
                elif line.startswith("data: "):
                    data.append(line[6:])
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # closed by the test, or the server went away

    def updates(self) -> list[int]:
        return [ident for name, ident, _ in self.events if name == "update"]

    def close(self) -> None:
        self.connection.close()
