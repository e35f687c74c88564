"""Helpers for the replica and storage tests: the real server on port 0 and
polling (Tests/support/wtv.py), a private PostgreSQL cluster on a free loopback
port, and an event stream follower. Every process a test starts is stopped by
its fixture. A test waits for what it expects, with a deadline (`wait_until`,
`wait_for_more`), not for a set time."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from wtv import BINARY, ROOT, Server, free_port, wait_until  # noqa: E402,F401  (the suite's names)

JSON = {"Content-Type": "application/json"}


def wait_for_more(count, more: int, what: str, timeout: float = 60) -> None:
    """Waits until `count()` has grown by `more` from what it answers now: a run
    going on until that many more of what it counts (edits acknowledged,
    refusals) have happened, whatever the machine's speed; fails with `what`
    after `timeout` seconds."""
    start = count()
    wait_until(lambda: count() - start >= more, f"{more} more {what}", timeout=timeout)


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

    def processes(self) -> list[int]:
        """The postmaster's pid and its children's."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        children = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == postmaster:
                    children.append(int(entry.name))
        return [postmaster, *children]

    def freeze(self) -> None:
        """SIGSTOP the whole cluster: connections stay open, nothing answers."""
        for pid in self.processes():
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        for pid in self.processes():
            os.kill(pid, signal.SIGCONT)

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


class EventFollower:
    """Reads `/api/tables/{t}/events` from `Last-Event-ID: since` on a thread;
    `events` holds (event name, id, data) as they arrive."""

    def __init__(self, server: Server, table: str, since: int = 0, headers: dict | None = None, query: str = ""):
        self.table = table
        self.events: list[tuple[str, int | None, str]] = []
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
        self.connection.request("GET", f"/api/tables/{table}/events{query}",
                                headers={"Last-Event-ID": str(since), **(headers or {})})
        self.socket = self.connection.sock
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
        # Shut down first: the reader thread holds the response's buffer while
        # it waits for a line, and closing the response waits for that lock,
        # until the stream's next keep-alive comment (15 s) comes.
        try:
            self.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the server closed it already
        self.connection.close()
        self.thread.join(timeout=10)


class CuttingProxy:
    """A TCP proxy in front of PostgreSQL that can lose one answer. `arm(marker)`:
    the first message from a client that holds `marker` reaches PostgreSQL
    (which runs and commits it), then that connection is closed before its
    answer comes back — what a replica sees when PostgreSQL restarts or the
    network breaks during a commit. While `refusing`, new connections are
    closed at once."""

    def __init__(self, target_port: int):
        import socket
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.marker: bytes | None = None
        self.cuts = 0
        self.refusing = False
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def url(self, database_url: str) -> str:
        return database_url.replace(f":{self.target_port}/", f":{self.port}/")

    def arm(self, marker: bytes) -> None:
        with self.lock:
            self.marker = marker

    def accept(self) -> None:
        import socket
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing:
                client.close()
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            cut = threading.Event()
            threading.Thread(target=self.upstream, args=(client, server, cut), daemon=True).start()
            threading.Thread(target=self.downstream, args=(server, client, cut), daemon=True).start()

    def upstream(self, client, server, cut: threading.Event) -> None:
        try:
            while data := client.recv(65536):
                with self.lock:
                    if self.marker is not None and self.marker in data:
                        self.marker = None
                        self.cuts += 1
                        cut.set()
                server.sendall(data)
        except OSError:
            pass
        self.close(client, server)

    def downstream(self, server, client, cut: threading.Event) -> None:
        try:
            while data := server.recv(65536):
                if cut.is_set():
                    break
                client.sendall(data)
        except OSError:
            pass
        self.close(client, server)

    @staticmethod
    def close(*sockets) -> None:
        import socket
        for one in sockets:
            try:
                one.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            one.close()

    def stop(self) -> None:
        self.listener.close()
