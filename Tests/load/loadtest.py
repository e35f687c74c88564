#!/usr/bin/env python3
"""Load and fault tests of `webtableview serve`, over loopback only.

Each scenario starts its own server (port 0, the URL read from its first line
of output), drives it with asyncio clients on raw sockets, checks what it
promises and stops the server again, whatever happens. Standard library only.

    loadtest.py BINARY readers   1,000 readers and 20 writers on one table, twice: no
                                 error, no stall, no lost write, RSS steady
    loadtest.py BINARY slow      200 slowloris clients while others are served;
                                 idle and stalled connections closed on time
    loadtest.py BINARY sse       2,000 subscribers get every change in order; readers
                                 that stop reading are dropped, memory stays bounded
    loadtest.py BINARY all       the three, in that order

Every scenario prints `load: <scenario>: ...` figures and ends with `PASS` or
`FAIL: reasons`; the process exits 1 when any failed. Each is bounded in time.
"""

import asyncio
import atexit
import json
import os
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time

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

        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", "0", "--data", data, "--log-level", "warning", *self.flags],
            stdout=subprocess.PIPE, stderr=self.stderr, preexec_fn=raise_limit, start_new_session=True)
        RUNNING.add(self.process)
        line = self.process.stdout.readline().decode()
        match = re.match(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.stop()
            raise RuntimeError(f"the server did not start: {line!r} {self.errors()}")
        self.port = int(match.group(1))
        return self

    def __exit__(self, *_):
        self.stop()

    def stop(self):
        """SIGTERM, then SIGKILL after 10 s; answers the exit status."""
        if self.process is None:
            return None
        try:
            if self.process.poll() is not None:
                return self.process.returncode
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                return None
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


async def readers_round(server, verdict, round_number, readers, writers, seconds, rows):
    port = server.port
    latencies = []
    write_latencies = []
    errors = []
    served = [0] * readers
    writes = [0]
    stop = asyncio.Event()
    start_gate = asyncio.Event()

    async def connect_all(count):
        connections = []
        for batch_start in range(0, count, 100):
            batch = await asyncio.gather(
                *(Connection.open(port) for _ in range(batch_start, min(count, batch_start + 100))),
                return_exceptions=True)
            for item in batch:
                if isinstance(item, Exception):
                    errors.append(f"connect: {item!r}")
                else:
                    connections.append(item)
        return connections

    reader_connections = await connect_all(readers)
    writer_connections = await connect_all(writers)

    async def reader(index, connection):
        await start_gate.wait()
        rng = random.Random(index)
        while not stop.is_set():
            if rng.random() < 0.8:
                path = f"/api/tables/load/sections/0/rows?offset={rng.randrange(rows)}&limit=10"
            else:
                path = f"/api/tables/load/sections/0/rows/{rng.randrange(rows)}"
            began = time.monotonic()
            try:
                status, _, content = await asyncio.wait_for(connection.request("GET", path), 30)
            except Exception as error:  # a reset, a timeout, a malformed answer
                errors.append(f"reader {index}: {error!r}")
                return
            latencies.append(time.monotonic() - began)
            if status != 200:
                errors.append(f"reader {index}: GET {path} answered {status}: {content[:120]!r}")
                return
            served[index] += 1

    async def writer(index, connection):
        await start_gate.wait()
        rng = random.Random(1000 + index)
        number = 0
        while not stop.is_set():
            number += 1
            if number % 3:
                row = rng.randrange(rows)
                method, path, body = "PUT", f"/api/tables/load/sections/0/rows/{row}", {
                    "text": f"round {round_number} writer {index} edit {number}"}
            else:
                source = rng.randrange(rows)
                target = (source + 1 + rng.randrange(rows - 1)) % rows
                method, path, body = "POST", f"/api/tables/load/sections/0/rows/{source}/move", {"to": [0, target]}
            began = time.monotonic()
            try:
                status, _, content = await asyncio.wait_for(connection.request(method, path, body), 30)
            except Exception as error:
                errors.append(f"writer {index}: {error!r}")
                return
            write_latencies.append(time.monotonic() - began)
            if status != 200:
                errors.append(f"writer {index}: {method} {path} answered {status}: {content[:160]!r}")
                return
            writes[0] += 1

    _, _, before = await one_request(port, "GET", "/api/tables/load")
    version_before = json.loads(before)["version"]
    tasks = [asyncio.create_task(reader(i, c)) for i, c in enumerate(reader_connections)]
    tasks += [asyncio.create_task(writer(i, c)) for i, c in enumerate(writer_connections)]
    began = time.monotonic()
    start_gate.set()
    await asyncio.sleep(seconds / 2)
    held = server.established()
    await asyncio.sleep(seconds / 2)
    stop.set()
    await asyncio.wait(tasks, timeout=40)
    elapsed = time.monotonic() - began
    for connection in reader_connections + writer_connections:
        connection.close()

    _, _, after = await one_request(port, "GET", "/api/tables/load")
    version_after = json.loads(after)["version"]
    _, _, metrics_text = await one_request(port, "GET", "/metrics")
    metrics_text = metrics_text.decode()
    server_read = server_latency_bound(metrics_text, "GET", "/api/tables/{t}/sections/{s}/rows")
    server_write = server_latency_bound(metrics_text, "PUT", "/api/tables/{t}/sections/{s}/rows/{r}")
    requests = len(latencies)
    verdict.figure(
        f"round {round_number}: {len(reader_connections)} readers + {len(writer_connections)} writers, "
        f"{held} connections held at mid-run, {requests} reads ({requests / elapsed:.0f}/s) and "
        f"{writes[0]} writes in {elapsed:.1f} s; read latency p50 {ms(percentile(latencies, 0.5))}, "
        f"p99 {ms(percentile(latencies, 0.99))}, max {ms(max(latencies, default=0))}; write latency "
        f"p50 {ms(percentile(write_latencies, 0.5))}, max {ms(max(write_latencies, default=0))} (client side, "
        f"with the client's own queueing); server side, since start, every page read ≤ {server_read} s and "
        f"every row reload ≤ {server_write} s")
    verdict.check(not errors, f"round {round_number}: {len(errors)} errors, first: {errors[:3]}")
    verdict.check(held >= readers + writers,
                  f"round {round_number}: only {held} connections established at mid-run")
    starved = sum(1 for count in served if count == 0)
    verdict.check(starved == 0, f"round {round_number}: {starved} reader connections were never answered")
    verdict.check(max(latencies, default=0) < STALL_SECONDS and max(write_latencies, default=0) < STALL_SECONDS,
                  f"round {round_number}: a request waited {max(latencies + write_latencies):.2f} s "
                  f"(stall limit {STALL_SECONDS} s)")
    verdict.check(version_after - version_before == writes[0],
                  f"round {round_number}: {writes[0]} writes answered 200 but the version moved "
                  f"{version_after - version_before}")
    verdict.check(writes[0] > 0 and requests > 0, f"round {round_number}: no traffic")


STALL_SECONDS = 3.0


async def scenario_readers(binary):
    verdict = Verdict("readers")
    readers, writers, seconds, rows = 1000, 20, 12, 200
    with Server(binary, [table("load", rows, 40)], "--threads", 2, "--connection-timeout", 60) as server:
        rss_start = server.rss_mib()
        rss = []
        for round_number in (1, 2):
            await readers_round(server, verdict, round_number, readers, writers, seconds, rows)
            await asyncio.sleep(1.5)   # the closed connections are reaped
            rss.append(server.rss_mib())
            verdict.figure(f"round {round_number}: server RSS after the round {rss[-1]:.1f} MiB "
                           f"(at start {rss_start:.1f} MiB), server established connections now {server.established()}")
        verdict.check(server.alive(), "the server died")
        growth = (rss[1] - rss[0]) / rss[0]
        verdict.figure(f"RSS after the second round is {growth * 100:+.1f}% of after the first")
        verdict.check(growth <= 0.10, f"RSS grew {growth * 100:.1f}% from round 1 to round 2 (limit 10%)")
        code = server.stop()
        verdict.check(code == 0, f"the server exited with {code} on SIGTERM")
    return verdict.finish()


# --------------------------------------------------------------------------
# 2. Slow clients and timeouts


async def scenario_slow(binary):
    verdict = Verdict("slow")
    timeout = 3
    slow_count, trickle_seconds = 200, 8
    with Server(binary, [table("load", 50)], "--connection-timeout", timeout) as server:
        port = server.port
        request_text = b"GET /api/tables/load HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"x" * 64

        # 200 slowloris clients: the request headers one byte a second.
        slow = []
        for _ in range(slow_count):
            slow.append(await Connection.open(port))

        async def trickle(connection):
            for index in range(trickle_seconds):
                if index:
                    await asyncio.sleep(1)
                connection.writer.write(request_text[index:index + 1])
                await connection.writer.drain()
            return time.monotonic()   # the last byte is sent: idle from now on

        trickling = [asyncio.create_task(trickle(c)) for c in slow]

        # Meanwhile: ordinary clients, on new connections and on one kept alive.
        await asyncio.sleep(1.5)
        latencies = []
        errors = []
        kept = await Connection.open(port)
        deadline = time.monotonic() + trickle_seconds - 3
        while time.monotonic() < deadline:
            for use_new in (True, False):
                began = time.monotonic()
                try:
                    if use_new:
                        status, _, _ = await asyncio.wait_for(one_request(port, "GET", "/api/tables/load"), 5)
                    else:
                        status, _, _ = await asyncio.wait_for(kept.request("GET", "/api/tables/load"), 5)
                except Exception as error:
                    errors.append(repr(error))
                    continue
                latencies.append(time.monotonic() - began)
                if status != 200:
                    errors.append(f"status {status}")
            await asyncio.sleep(0.02)
        held = server.established()
        kept.close()
        verdict.figure(
            f"{slow_count} slowloris clients held ({held} server connections), {len(latencies)} ordinary "
            f"requests meanwhile: p50 {ms(percentile(latencies, 0.5))}, max {ms(max(latencies, default=0))}")
        verdict.check(not errors, f"ordinary requests failed while slow clients were connected: {errors[:3]}")
        verdict.check(len(latencies) >= 100, f"only {len(latencies)} ordinary requests were answered")
        verdict.check(max(latencies, default=9) < 0.5,
                      f"an ordinary request took {max(latencies, default=0):.3f} s while slow clients were connected")
        verdict.check(held >= slow_count, f"only {held} connections held for {slow_count} slow clients")

        # They stop sending mid-header: each must be closed after the timeout.
        last_byte = await asyncio.gather(*trickling)

        async def closed_after(connection, since):
            try:
                data = await asyncio.wait_for(connection.reader.read(65536), timeout + 5)
            except asyncio.TimeoutError:
                return None
            except ConnectionError:
                data = b""
            # A 408 or nothing, then the end.
            while data:
                try:
                    data = await asyncio.wait_for(connection.reader.read(65536), timeout + 5)
                except (asyncio.TimeoutError, ConnectionError):
                    break
            return time.monotonic() - since

        # Connections that never send a byte, and kept-alive ones left idle after one answer.
        silent = [await Connection.open(port) for _ in range(50)]
        silent_since = time.monotonic()
        idle = []
        for _ in range(50):
            connection = await Connection.open(port)
            status, _, _ = await connection.request("GET", "/healthz")
            verdict.check(status == 200, f"/healthz answered {status}")
            idle.append(connection)
        idle_since = time.monotonic()

        # An event stream idle for longer than the timeout stays open (it is suspended).
        stream = await Connection.open(port)
        stream.send("GET", "/api/tables/load/events")
        status, headers = await stream.read_head()
        verdict.check(status == 200 and headers.get("content-type", "").startswith("text/event-stream"),
                      f"events answered {status} {headers.get('content-type')}")

        results = await asyncio.gather(
            *(closed_after(c, since) for c, since in zip(slow, last_byte)),
            *(closed_after(c, silent_since) for c in silent),
            *(closed_after(c, idle_since) for c in idle))
        slow_times, silent_times, idle_times = (
            results[:slow_count], results[slow_count:slow_count + 50], results[slow_count + 50:])
        for name, times in (("stalled mid-header", slow_times), ("silent", silent_times), ("idle kept-alive", idle_times)):
            open_still = sum(1 for t in times if t is None)
            closed = [t for t in times if t is not None]
            verdict.figure(f"{name}: {len(closed)}/{len(times)} closed by the server after "
                           f"{min(closed, default=0):.1f}–{max(closed, default=0):.1f} s (timeout {timeout} s)")
            verdict.check(open_still == 0, f"{open_still} {name} connections were still open {timeout + 5} s later")
            verdict.check(all(timeout - 1.01 <= t <= timeout + 2.5 for t in closed),
                          f"{name} connections closed after {min(closed, default=0):.1f}–{max(closed, default=0):.1f} s, "
                          f"not about {timeout} s")

        status, _, content = await one_request(port, "PUT", "/api/tables/load/sections/0/rows/0", {"text": "after idle"})
        verdict.check(status == 200, f"edit answered {status}")
        try:
            data = await asyncio.wait_for(stream.reader.readuntil(b"\n\n"), 5)
            verdict.check(b"event: update" in data, f"the idle stream received {data[:80]!r}")
            verdict.figure(f"an event stream idle for {timeout + 5}+ s (over the timeout) still received the next change")
        except Exception as error:
            verdict.check(False, f"an event stream idle over the connection timeout was cut: {error!r}")
        stream.close()
        for connection in slow + silent + idle:
            connection.close()
        verdict.check(server.alive(), "the server died")
        code = server.stop()
        verdict.check(code == 0, f"the server exited with {code} on SIGTERM")
    return verdict.finish()


# --------------------------------------------------------------------------
# 3. Event streams


ID_LINE = re.compile(rb"^event: (\w+)\nid: (\d+)\n", re.M)


class Subscriber:
    """Reads one event stream and checks that update ids are consecutive."""

    def __init__(self, connection, first_version):
        self.connection = connection
        self.expected = first_version + 1
        self.received = 0
        self.problem = None
        self.buffer = b""
        self.ended = False
        self.last_at = None

    def feed(self, data):
        self.buffer += data
        cut = self.buffer.rfind(b"\n\n")
        if cut < 0:
            return
        complete, self.buffer = self.buffer[:cut + 2], self.buffer[cut + 2:]
        for match in ID_LINE.finditer(complete):
            kind, version = match.group(1), int(match.group(2))
            if kind != b"update":
                self.problem = self.problem or f"unexpected event {kind!r}"
            elif version != self.expected:
                self.problem = self.problem or f"event id {version} where {self.expected} was due"
            self.expected = version + 1
            self.received += 1
            self.last_at = time.monotonic()

    async def read_until(self, count, deadline):
        while self.received < count and self.problem is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            try:
                data = await asyncio.wait_for(self.connection.reader.read(1 << 18), remaining)
            except asyncio.TimeoutError:
                return False
            except ConnectionError:
                data = b""
            if not data:
                self.ended = True
                return False
            self.feed(data)
        return self.problem is None

    async def read_to_end(self, deadline):
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            try:
                data = await asyncio.wait_for(self.connection.reader.read(1 << 18), remaining)
            except asyncio.TimeoutError:
                return False
            except ConnectionError:
                data = b""
            if not data:
                self.ended = True
                return True
            self.feed(data)


async def subscribe(port, table_id, version, receive_buffer=None):
    connection = await Connection.open(port, receive_buffer)
    connection.send("GET", f"/api/tables/{table_id}/events")
    await connection.writer.drain()
    status, headers = await connection.read_head()
    if status != 200 or not headers.get("content-type", "").startswith("text/event-stream"):
        raise HTTPError(f"events answered {status} {headers}")
    return Subscriber(connection, version)


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


async def wait_for_metric(port, name, predicate, seconds):
    deadline = time.monotonic() + seconds
    value = None
    while time.monotonic() < deadline:
        value = await metric(port, name)
        if value is not None and predicate(value):
            return value
        await asyncio.sleep(0.1)
    return value


async def edit_many(port, table_id, count, text_bytes, label):
    """Sequential reloads of row 0; answers the latencies and every answered version."""
    connection = await Connection.open(port)
    latencies, versions = [], []
    try:
        for number in range(count):
            text = f"{label} {number} ".ljust(text_bytes, "x")
            began = time.monotonic()
            status, _, content = await connection.request(
                "PUT", f"/api/tables/{table_id}/sections/0/rows/{number % 10}", {"text": text})
            latencies.append(time.monotonic() - began)
            if status != 200:
                raise HTTPError(f"edit answered {status}: {content[:160]!r}")
            versions.append(json.loads(content)["version"])
    finally:
        connection.close()
    return latencies, versions


async def scenario_sse(binary):
    verdict = Verdict("sse")
    subscribers_count, edits = 2000, 100
    big_edits, big_text, normal_count, stalled_count = 120, 48 * 1024, 20, 10
    timeout = 10
    with Server(binary, [table("feed", 10), table("big", 10)],
                "--connection-timeout", timeout, "--history", 100) as server:
        port = server.port

        # Phase A: 2,000 subscribers, 100 changes, every one in order.
        subscribers = []
        for start in range(0, subscribers_count, 200):
            subscribers += await asyncio.gather(
                *(subscribe(port, "feed", 0) for _ in range(start, min(subscribers_count, start + 200))))
        streams = await wait_for_metric(port, "http_event_streams_open", lambda v: v >= subscribers_count, 20)
        rss_before = server.rss_mib()
        verdict.check(streams == subscribers_count, f"{streams} event streams open for {subscribers_count} subscribers")
        began = time.monotonic()
        readers = [asyncio.create_task(s.read_until(edits, time.monotonic() + 90)) for s in subscribers]
        latencies, versions = await edit_many(port, "feed", edits, 40, "fan-out")
        edits_done = time.monotonic()
        await asyncio.wait(readers, timeout=95)
        complete = sum(1 for s in subscribers if s.received == edits and s.problem is None)
        problems = [s.problem for s in subscribers if s.problem]
        last = max((s.last_at for s in subscribers if s.last_at), default=edits_done)
        verdict.check(versions == list(range(1, edits + 1)), f"edits answered versions {versions[:5]}…")
        verdict.check(complete == subscribers_count,
                      f"{complete}/{subscribers_count} subscribers got all {edits} changes in order; "
                      f"problems: {problems[:3]}; short: {[s.received for s in subscribers if s.received != edits][:5]}")
        verdict.figure(
            f"{subscribers_count} subscribers × {edits} changes: {complete} got every change in order "
            f"(ids consecutive 1…{edits}); edits took {edits_done - began:.1f} s (max {ms(max(latencies))}), "
            f"last event delivered {ms(last - edits_done)} after the last edit; server RSS {rss_before:.1f} → "
            f"{server.rss_mib():.1f} MiB")
        for s in subscribers:
            s.connection.close()

        # Phase B: readers that stop reading, among readers that keep up, under big changes.
        async def big_wave(wave):
            normal = [await subscribe(port, "big", versions_done[0]) for _ in range(normal_count)]
            stalled = [await subscribe(port, "big", versions_done[0], receive_buffer=4096) for _ in range(stalled_count)]
            for s in stalled:   # stop reading: nothing more leaves the 4 KiB socket buffer
                s.connection.writer.transport.pause_reading()
            await wait_for_metric(port, "http_event_streams_open", lambda v: v == normal_count + stalled_count, 20)
            readers = [asyncio.create_task(s.read_until(big_edits, time.monotonic() + 90)) for s in normal]
            began = time.monotonic()
            latencies, versions = await edit_many(port, "big", big_edits, big_text, f"wave {wave}")
            edits_done = time.monotonic()
            versions_done[0] = versions[-1]
            await asyncio.wait(readers, timeout=95)
            # A dropped reader's queue is freed at once and it gets no more changes; its
            # connection, blocked on a full socket, is closed by the connection timeout.
            open_streams = await wait_for_metric(
                port, "http_event_streams_open", lambda v: v == normal_count, timeout + 5)
            dropped_after = time.monotonic() - edits_done
            complete = sum(1 for s in normal if s.received == big_edits and s.problem is None)
            last = max((s.last_at for s in normal if s.last_at), default=edits_done)
            # The stalled readers read again: a consecutive prefix, then the end.
            for s in stalled:
                s.connection.writer.transport.resume_reading()
            await asyncio.gather(*(s.read_to_end(time.monotonic() + 20) for s in stalled))
            dropped = sum(1 for s in stalled if s.ended and s.received < big_edits and s.problem is None)
            verdict.figure(
                f"wave {wave}: {normal_count} readers got {complete}/{normal_count} × {big_edits} changes of "
                f"~{2 * big_text // 1024} KiB in order, last {ms(last - edits_done)} after the last edit; edit "
                f"latency max {ms(max(latencies))} over {edits_done - began:.1f} s; {dropped}/{stalled_count} "
                f"stalled readers dropped after {min((s.received for s in stalled), default=0)}–"
                f"{max((s.received for s in stalled), default=0)} changes, their connections closed "
                f"{dropped_after:.1f} s after the last edit (timeout {timeout} s)")
            verdict.check(complete == normal_count,
                          f"wave {wave}: {complete}/{normal_count} readers got every change: "
                          f"{[(s.received, s.problem) for s in normal if s.received != big_edits or s.problem][:3]}")
            verdict.check(dropped == stalled_count,
                          f"wave {wave}: {dropped}/{stalled_count} stalled readers were dropped "
                          f"{[(s.received, s.ended, s.problem) for s in stalled][:4]}")
            verdict.check(open_streams == normal_count,
                          f"wave {wave}: {open_streams} streams open {timeout + 5} s after the last edit, "
                          f"{normal_count} expected: the stalled readers' connections were not closed")
            verdict.check(max(latencies) < 1.0, f"wave {wave}: an edit took {max(latencies):.2f} s")
            verdict.check(last - edits_done < 5.0, f"wave {wave}: readers lagged {last - edits_done:.1f} s")
            for s in normal + stalled:
                s.connection.close()
            await asyncio.sleep(1)
            return server.rss_mib()

        versions_done = [0]
        rss_base = server.rss_mib()
        rss_one = await big_wave(1)
        rss_two = await big_wave(2)
        rss_three = await big_wave(3)
        # Bound: the change log (history 100 × event and JSON of ~2 × 48 KiB each), the stalled
        # queues (10 × 1 MiB), and slack for the allocator.
        bound = 100 * 4 * big_text / (1 << 20) + stalled_count * 1 + 64
        verdict.figure(f"RSS before the waves {rss_base:.1f} MiB, after wave 1 {rss_one:.1f}, after wave 2 "
                       f"{rss_two:.1f}, after wave 3 {rss_three:.1f} (growth bound {bound:.0f} MiB)")
        verdict.check(rss_one - rss_base < bound, f"RSS grew {rss_one - rss_base:.1f} MiB in wave 1 (bound {bound:.0f})")
        verdict.check(rss_three <= rss_two * 1.10,
                      f"RSS grew from {rss_two:.1f} to {rss_three:.1f} MiB between two identical waves (limit 10%)")
        verdict.check(server.alive(), "the server died")
        code = server.stop()
        verdict.check(code == 0, f"the server exited with {code} on SIGTERM")
    return verdict.finish()


SCENARIOS = {"readers": scenario_readers, "slow": scenario_slow, "sse": scenario_sse}


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in (*SCENARIOS, "all"):
        print(__doc__)
        return 2
    binary, chosen = sys.argv[1], sys.argv[2]
    signal.signal(signal.SIGTERM, lambda *_: (kill_running(), os._exit(143)))
    signal.signal(signal.SIGINT, lambda *_: (kill_running(), os._exit(130)))
    grow_fd_limit()
    names = list(SCENARIOS) if chosen == "all" else [chosen]
    results = []
    for name in names:
        began = time.monotonic()
        try:
            passed = asyncio.run(asyncio.wait_for(SCENARIOS[name](binary), 200))
        except Exception as error:
            log(f"load: {name}: FAIL: {error!r}")
            passed = False
        log(f"load: {name}: {time.monotonic() - began:.0f} s")
        results.append(passed)
    passed = sum(results)
    print(f"load: {passed} passed, {len(results) - passed} failed", flush=True)
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
