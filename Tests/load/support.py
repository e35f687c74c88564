"""What every load scenario shares: the server process, raw HTTP connections,
figures and the verdict."""

import asyncio
import atexit
import json
import os
import re
import resource
import socket
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import wtv  # noqa: E402

HOST = "127.0.0.1"
# Every server process started and not yet stopped: killed at exit, whatever happens.
RUNNING = set()


def kill_running(*_):
    for process in list(RUNNING):
        if process.poll() is None:
            process.kill()
            process.wait()
    RUNNING.clear()


atexit.register(kill_running)


def log(message):
    print(message, flush=True)


# --------------------------------------------------------------------------
# The server under test


class Server:
    """`webtableview serve` on a free port of 127.0.0.1, with a fresh table file."""

    def __init__(self, binary, tables, *flags):
        self.binary = binary
        self.tables = tables
        self.flags = [str(flag) for flag in flags]
        self.process = None
        self.port = None
        self.folder = tempfile.mkdtemp(prefix="wtv-load-")

    def __enter__(self):
        data = os.path.join(self.folder, "tables.json")
        with open(data, "w") as file:
            json.dump(self.tables, file)
        self.stderr = open(os.path.join(self.folder, "stderr"), "w+")

        def raise_limit():
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

        self.process, url = wtv.launch(
            [self.binary, "serve", "--port", "0", "--data", data, "--log-level", "warning", *self.flags],
            self.stderr, preexec_fn=raise_limit, start_new_session=True)
        RUNNING.add(self.process)
        self.port = int(url.rsplit(":", 1)[1])
        return self

    def __exit__(self, failure_type, *_):
        self.stop()
        if failure_type is not None:
            # A scenario that raised: what the server wrote tells why.
            self.stderr.seek(0)
            lines = self.stderr.read().splitlines()[-40:]
            log("\n".join([f"load: the server's last {len(lines)} lines of stderr:", *lines]))

    def stop(self):
        """SIGTERM, then SIGKILL after 10 s; answers the exit status."""
        if self.process is None:
            return None
        try:
            return wtv.stop(self.process)
        finally:
            RUNNING.discard(self.process)

    def alive(self):
        return self.process.poll() is None

    def rss_mib(self):
        with open(f"/proc/{self.process.pid}/status") as file:
            for line in file:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def established(self):
        """Server-side TCP connections established on its port."""
        count = 0
        for name in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                with open(name) as file:
                    next(file)
                    for line in file:
                        parts = line.split()
                        if parts[3] == "01" and int(parts[1].split(":")[1], 16) == self.port:
                            count += 1
            except FileNotFoundError:
                pass
        return count

    def errors(self):
        if not hasattr(self, "stderr"):
            return ""
        self.stderr.flush()
        self.stderr.seek(0)
        return self.stderr.read()[-2000:]


def grow_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


# --------------------------------------------------------------------------
# A minimal HTTP/1.1 client


class HTTPError(Exception):
    pass


class Connection:
    """One keep-alive connection; requests with Content-Length bodies only."""

    def __init__(self, reader, writer):
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port, receive_buffer=None):
        if receive_buffer:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, (HOST, port))
            reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 20)
        else:
            reader, writer = await asyncio.open_connection(HOST, port, limit=1 << 20)
        return cls(reader, writer)

    def send(self, method, path, body=None, headers=()):
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}"]
        payload = b""
        if body is not None:
            payload = json.dumps(body).encode()
            lines += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
        lines += list(headers)
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)

    async def read_head(self):
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        return status, headers

    async def request(self, method, path, body=None, headers=()):
        self.send(method, path, body, headers)
        await self.writer.drain()
        status, response_headers = await self.read_head()
        if "content-length" not in response_headers:
            raise HTTPError(f"{method} {path}: answer without Content-Length")
        content = await self.reader.readexactly(int(response_headers["content-length"]))
        return status, response_headers, content

    def close(self):
        try:
            self.writer.close()
        except Exception:
            pass


async def one_request(port, method, path, body=None):
    connection = await Connection.open(port)
    try:
        return await connection.request(method, path, body, headers=("Connection: close",))
    finally:
        connection.close()


async def metric(port, name):
    status, _, content = await one_request(port, "GET", "/metrics")
    match = re.search(rf"^{name} (\d+)", content.decode(), re.M)
    return int(match.group(1)) if match else None


def percentile(values, fraction):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def table(table_id, rows, text_bytes=8):
    return {
        "id": table_id, "title": table_id,
        "sections": [{"id": "s0", "header": "Rows",
                      "rows": [{"id": f"r{i}", "text": f"row {i}".ljust(text_bytes, ".")} for i in range(rows)]}],
    }


class Verdict:
    def __init__(self, scenario):
        self.scenario = scenario
        self.failures = []

    def check(self, condition, message):
        if not condition:
            self.failures.append(message)
        return condition

    def figure(self, text):
        log(f"load: {self.scenario}: {text}")

    def finish(self):
        if self.failures:
            log(f"load: {self.scenario}: FAIL: " + "; ".join(self.failures))
        else:
            log(f"load: {self.scenario}: PASS")
        return not self.failures


# --------------------------------------------------------------------------
# 1. Readers and writers

def server_latency_bound(metrics_text, method, route):
    """The smallest histogram bound (seconds) under which every observation of the route falls."""
    count = re.search(rf'^http_request_duration_seconds_count{{method="{method}",route="{re.escape(route)}"}} (\d+)',
                      metrics_text, re.M)
    if not count:
        return None
    for bound, cumulative in re.findall(
            rf'^http_request_duration_seconds_bucket{{method="{method}",route="{re.escape(route)}",le="([^"]+)"}} (\d+)',
            metrics_text, re.M):
        if int(cumulative) == int(count.group(1)):
            return bound
    return None
