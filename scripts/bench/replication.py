"""Replicas sharing their tables through PostgreSQL (docs/SCALING.md), measured
on loopback with processes, no containers:

- writes: latency p50/p99 and throughput of single-row moves on one table, at a
  replica (`--database`, three replicas running) and at a single server with
  `--journal DIR --fsync always`, interleaved rounds in the same run;
- lag: writes paced at 200 and 1,000 a second to replica A; for each version,
  the time from A's answer to the event arriving from replica C's stream, both
  times as the kernel stamped the bytes' arrival (SO_TIMESTAMPNS);
- reads: server CPU per `GET` of one row at a replica and at a single server;
- ceiling: PostgreSQL alone, the replicas' statement for one change run by
  `pgbench` clients with three connections LISTENing: the most commits one
  table gets from this cluster on this machine, whatever the replicas do.

Run by bench.py (`make bench`) when the server has `serve --database`; alone (each section
printed as one JSON line as soon as it is measured), to
try it: python3 scripts/bench/replication.py --product BIN [--quick]
It starts a private PostgreSQL 15 cluster (Debian's `postgresql`) in a temporary
folder on a free loopback port, as the `postgres` user when run as root, and
stops it at the end."""
import argparse
import atexit
import http.client
import json
import os
import queue
import re
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from procs import Server, loaded, summary  # noqa: E402

PG_BIN = "/usr/lib/postgresql/15/bin"
SCRIPTS = os.path.dirname(os.path.abspath(__file__))
ROWS = 1000
TABLES = [f"lag{i}" for i in range(4)]
# <linux/socket.h>; Python names it only from 3.14 on.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def supported(product):
    """Whether this server build can share its tables through PostgreSQL."""
    help_text = subprocess.run([product, "serve", "--help"], capture_output=True, text=True).stdout
    return "--database" in help_text


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgreSQL:
    """A private cluster in a temporary folder; `url()` names a fresh database."""

    def __init__(self):
        # Its own folder, open to the postgres user (the bench's work folder is not).
        self.folder = tempfile.mkdtemp(prefix="wtv-bench-pg-")
        os.chmod(self.folder, 0o777)
        self.port = free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.databases = 0
        self.run("initdb", "-D", f"{self.folder}/db", "-A", "trust", "-U", "postgres")
        self.run("pg_ctl", "-D", f"{self.folder}/db", "-w", "-l", f"{self.folder}/pg.log",
                 "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200",
                 "start")
        atexit.register(self.stop)

    def run(self, tool, *arguments):
        subprocess.run(self.as_user + [f"{PG_BIN}/{tool}", *arguments], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def url(self):
        self.databases += 1
        name = f"bench{self.databases}"
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self):
        if os.path.exists(f"{self.folder}/db/postmaster.pid"):
            self.run("pg_ctl", "-D", f"{self.folder}/db", "-w", "-m", "fast", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def wrk_latency(url, seconds, connections, script):
    """wrk --latency: (requests/s, p50 ms, p99 ms, non-2xx answers)."""
    argv = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "--latency", "-s", script, url]
    output = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 60).stdout

    def milliseconds(label):
        value, unit = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", output, re.MULTILINE).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return rate, milliseconds(50), milliseconds(99), int(errors.group(1)) if errors else 0


def data_file(work):
    path = os.path.join(work, "replication.json")
    with open(path, "w") as file:
        json.dump([{"id": table, "sections": [{"id": "s", "rows": [
            {"id": f"r{i}", "text": f"Row {i}"} for i in range(ROWS)]}]} for table in TABLES], file)
    return path


# The one optimisation of this path, switched off for the ablation rows: notices that
# carry their changes, which replicas then apply without a query (docs/SCALING.md).
WITHOUT_NOTICE_CHANGES = ("--ablate", "notice-changes")


def replicas(product, data, url, count=3, options=()):
    """`count` replicas of one database, each given `options` too; the first seeds it from `data`."""
    started = []
    for index in range(count):
        started.append(Server(f"replica {'ABC'[index]}", [
            product, "serve", "--port", "0", "--log-level", "warning", "--data", data, "--database", url,
            *options]))
    return started


def writes(product, data, postgres, work, rounds, seconds, connections=4, ablation=True):
    """Single-row moves on one table: at a replica (PostgreSQL) vs `--journal --fsync always`,
    and, with `ablation`, at a replica whose notices carry no changes."""
    script = os.path.join(SCRIPTS, "move.lua")
    os.environ["BENCH_TABLE"], os.environ["BENCH_ROWS"] = TABLES[0], str(ROWS)
    journal = Server("journal", [product, "serve", "--port", "0", "--log-level", "warning", "--data", data,
                                 "--journal", tempfile.mkdtemp(prefix="journal-", dir=work), "--fsync", "always"])
    group = replicas(product, data, postgres.url())
    ablated = replicas(product, data, postgres.url(), options=WITHOUT_NOTICE_CHANGES) if ablation else []
    names = ("database", "journal", "database_without_notice_changes")[:3 if ablation else 2]
    results = {name: {"rate": [], "p50_ms": [], "p99_ms": []} for name in names}
    try:
        for round_index in range(rounds):
            order = [("database", group[0]), ("journal", journal)]
            order += [("database_without_notice_changes", ablated[0])] if ablation else []
            for name, server in order if round_index % 2 == 0 else order[::-1]:
                rate, p50, p99, errors = wrk_latency(server.base, seconds, connections, script)
                if errors:
                    raise RuntimeError(f"{name}: {errors} error answers to moves")
                for key, value in (("rate", rate), ("p50_ms", p50), ("p99_ms", p99)):
                    results[name][key].append(value)
    finally:
        journal.stop()
        for server in group + ablated:
            server.stop()
    rates = {name: results[name]["rate"] for name in names}
    return {
        "connections": connections,
        **{name: {key: summary(values) for key, values in r.items()} for name, r in results.items()},
        "rate_ratio": summary([a / b for a, b in zip(rates["database"], rates["journal"])]),
        # Off/on, as the ablation step gives it: below 1 when carrying changes buys writes.
        **({"notice_changes_rate_ratio": summary(
            [a / b for a, b in zip(rates["database_without_notice_changes"], rates["database"])])}
           if ablation else {}),
    }


# One change a commit, as a replica's optimistic edit sends it (TableDatabase's
# `compare_and_append`): move the table's version, insert the change, notify.
CEILING_SCHEMA = """
CREATE TABLE tables (id text PRIMARY KEY, incarnation bigint NOT NULL UNIQUE, version bigint NOT NULL);
CREATE TABLE changes (incarnation bigint NOT NULL REFERENCES tables (incarnation) ON DELETE CASCADE,
                      version bigint NOT NULL, change text NOT NULL, commit_id bigint,
                      PRIMARY KEY (incarnation, version));
INSERT INTO tables VALUES ('t', 1, 0);
"""
CEILING_CHANGE = '{"version":1,"batch":{"moves":[{"from":[0,12],"to":[0,345]}]}}'
CEILING_STATEMENT = f"""WITH moved AS (UPDATE tables SET version = version + 1 WHERE id = 't' AND incarnation = 1
                 RETURNING version),
inserted AS (INSERT INTO changes (incarnation, version, change, commit_id)
             SELECT 1, moved.version, '{CEILING_CHANGE}', 7 FROM moved)
SELECT pg_notify('webtableview', 't:1' || chr(10) || '1' || chr(10) || '{CEILING_CHANGE}') FROM moved;
"""


class Listener:
    """A connection that LISTENs on the replicas' channel and reads what arrives, as a
    replica's follower does: PostgreSQL's wire protocol (trust authentication) by hand."""

    def __init__(self, port, database):
        self.socket = socket.create_connection(("127.0.0.1", port))
        startup = b"user\0postgres\0database\0" + database.encode() + b"\0\0"
        self.socket.sendall(struct.pack("!ii", 8 + len(startup), 196608) + startup)
        query = b"LISTEN webtableview\0"
        self.socket.sendall(b"Q" + struct.pack("!i", 4 + len(query)) + query)
        threading.Thread(target=self.drain, daemon=True).start()

    def drain(self):
        try:
            while self.socket.recv(65536):
                pass
        except OSError:
            pass

    def close(self):
        self.socket.close()


def ceiling(postgres, rounds, seconds, clients=(1, 4)):
    """Commits a second of the replicas' statement, from `pgbench` alone."""
    database = postgres.url().rsplit("/", 1)[1]
    address = ["-h", "127.0.0.1", "-p", str(postgres.port), "-U", "postgres"]
    postgres.run("psql", *address, "-d", database, "-q", "-v", "ON_ERROR_STOP=1", "-c", CEILING_SCHEMA)
    script = os.path.join(postgres.folder, "ceiling.sql")  # where the postgres user reads
    with open(script, "w") as file:
        file.write(CEILING_STATEMENT)
    os.chmod(script, 0o644)
    listeners = [Listener(postgres.port, database) for _ in range(3)]
    results = {count: [] for count in clients}
    try:
        for _ in range(rounds):
            for count in clients:
                output = subprocess.run(
                    postgres.as_user + [f"{PG_BIN}/pgbench", *address, "-n", "-M", "prepared", "-c", str(count),
                                        "-j", "1", "-T", str(seconds), "-f", script, database],
                    capture_output=True, text=True, check=True, timeout=seconds + 60).stdout
                results[count].append(float(re.search(r"tps = ([\d.]+)", output).group(1)))
    finally:
        for listener in listeners:
            listener.close()
    return {count: summary(values) for count, values in results.items()}


class Unstamped:
    """Counts the `recvmsg` calls whose data came without the kernel's receive time: the
    kernel leaves it out now and then (a segment merged into one already queued, say), and a
    version whose arrival or acknowledgement has no time is left out of the lag, counted."""

    def __init__(self):
        self.lock = threading.Lock()
        self.segments = 0

    def count(self):
        with self.lock:
            self.segments += 1

    def take(self):
        with self.lock:
            taken, self.segments = self.segments, 0
            return taken


UNSTAMPED = Unstamped()


def kernel_time(ancillary):
    """The kernel's receive time of a `recvmsg` (SO_TIMESTAMPNS), in seconds; None (counted
    in UNSTAMPED) when none came with the data."""
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
            seconds, nanoseconds = struct.unpack("qq", data[:16])
            return seconds + nanoseconds / 1e9
    UNSTAMPED.count()
    return None


def timestamped(connection):
    """Asks the kernel to stamp every segment `connection` receives with its arrival time: the
    lag is measured between two such stamps, so a Python thread scheduled late (the GIL hands
    over every 5 ms, and 40 writer threads share it) does not count as lag."""
    connection.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    return connection


def receive(connection):
    """(bytes, the kernel's arrival time of them) from one `recvmsg`."""
    data, ancillary, _, _ = connection.recvmsg(1 << 16, socket.CMSG_SPACE(16))
    return data, kernel_time(ancillary) if data else None


class EventReader(threading.Thread):
    """Reads one table's event stream; records when each version arrived (the kernel's time)."""

    def __init__(self, port, table, since):
        super().__init__(daemon=True)
        self.arrived = {}
        self.connection = timestamped(socket.create_connection(("127.0.0.1", port)))
        self.connection.sendall(f"GET /api/tables/{table}/events?since={since} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        self.start()

    def run(self):
        pending = b""
        while True:
            try:
                data, at = receive(self.connection)
            except OSError:
                return
            if not data:
                return
            pending += data
            for version in re.findall(rb"(?m)^id: (\d+)\r?$", pending):
                # None: it arrived, at no known time.
                self.arrived.setdefault(int(version), at)
            pending = pending[pending.rfind(b"\n") + 1:]

    def close(self):
        self.connection.close()


class Writer:
    """One kept-alive connection that POSTs and reads each answer whole, with the kernel's
    arrival time of its last byte (None when that came without one)."""

    def __init__(self, port):
        self.connection = timestamped(socket.create_connection(("127.0.0.1", port)))
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def post(self, path, body):
        self.connection.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        answer = b""
        while True:
            data, at = receive(self.connection)
            if not data:
                raise RuntimeError("the server closed a writer's connection")
            answer += data
            head, _, content = answer.partition(b"\r\n\r\n")
            length = re.search(rb"(?im)^content-length: *(\d+)", head)
            if length and len(content) >= int(length.group(1)):
                return int(head.split(b" ", 2)[1]), content, at

    def close(self):
        self.connection.close()


def paced_writes(port, rate, seconds):
    """Moves paced at `rate` a second, spread over TABLES, from enough connections that
    each write may take 40 ms without holding the next one back:
    [(table, version, acknowledged at: the kernel's arrival time of the answer)], and the
    rate achieved."""
    writers = max(8, rate // 25)
    acknowledged = []
    lock = threading.Lock()
    start, start_time = time.monotonic() + 0.2, time.time() + 0.2
    total = int(rate * seconds)
    failures = queue.Queue()

    def writer(index):
        connection = Writer(port)
        for n in range(index, total, writers):
            delay = start + n / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            table = TABLES[n % len(TABLES)]
            body = json.dumps({"to": [0, (n * 7919) % ROWS]}).encode()
            status, answer, at = connection.post(f"/api/tables/{table}/sections/0/rows/{n % ROWS}/move", body)
            if status != 200:
                failures.put(f"{status} {answer[:200]!r}")
                return
            with lock:
                acknowledged.append((table, json.loads(answer)["version"], at))
        connection.close()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if not failures.empty():
        raise RuntimeError(f"a paced write failed: {failures.get()}")
    elapsed = max((at for _, _, at in acknowledged if at is not None), default=time.time()) - start_time
    return acknowledged, len(acknowledged) / elapsed


def lag(product, data, postgres, rates, seconds, options=()):
    """Acknowledged at replica A → event received from replica C, at each rate."""
    results = {}
    for rate in rates:
        group = replicas(product, data, postgres.url(), options=options)
        try:
            a, c = group[0], group[2]
            versions = {table: json.loads(http_get(c.port, f"/api/tables/{table}"))["version"] for table in TABLES}
            readers = {table: EventReader(c.port, table, versions[table]) for table in TABLES}
            acknowledged, achieved = paced_writes(a.port, rate, seconds)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and any(
                    version not in readers[table].arrived for table, version, _ in acknowledged):
                time.sleep(0.05)
            arrived = [(readers[table].arrived[version], at) for table, version, at in acknowledged
                       if version in readers[table].arrived]
            missing = len(acknowledged) - len(arrived)
            lags = [(received - at) * 1000 for received, at in arrived if received is not None and at is not None]
            for reader in readers.values():
                reader.close()
        finally:
            for server in group:
                server.stop()
        if missing:
            raise RuntimeError(f"at {rate} writes/s, {missing} acknowledged versions never arrived at replica C")
        if not lags:
            raise RuntimeError(f"at {rate} writes/s, no version came with both its kernel times")
        results[rate] = {"achieved": achieved, "writes": len(lags), "unstamped_versions": len(arrived) - len(lags),
                         "unstamped_segments": UNSTAMPED.take(),
                         "p50_ms": statistics.median(lags), "p99_ms": percentile(lags, 0.99),
                         "max_ms": max(lags)}
    return results


def http_get(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    assert response.status == 200, (path, response.status)
    return body


def reads(product, data, postgres, rounds, seconds):
    """Server CPU per GET of one row: a replica against a single server, interleaved."""
    single = Server("single", [product, "serve", "--port", "0", "--log-level", "warning", "--data", data])
    group = replicas(product, data, postgres.url())
    path = f"/api/tables/{TABLES[0]}/sections/0/rows/0"
    results = {"replica": [], "single": []}
    try:
        assert http_get(group[0].port, path) == http_get(single.port, path), "a replica answers other bytes"
        for round_index in range(rounds):
            order = [("replica", group[0]), ("single", single)]
            for name, server in order if round_index % 2 == 0 else order[::-1]:
                results[name].append(loaded(server, server.base + path, seconds, 32)[0])
    finally:
        single.stop()
        for server in group:
            server.stop()
    return {"replica_us": summary(results["replica"]), "single_us": summary(results["single"]),
            "ratio": summary([a / b for a, b in zip(results["replica"], results["single"])])}


def measure(product, work, quick, on_section=None):
    """Every figure of the replication rows of docs/PERFORMANCE.md; `on_section(name, figures)`
    is called as each section is measured, so a later failure loses none of them."""
    rounds, seconds = (1, 2) if quick else (3, 5)
    data = data_file(work)
    postgres = PostgreSQL()
    lag_seconds = 2 if quick else 10
    sections = [
        ("writes", lambda: writes(product, data, postgres, work, rounds, seconds)),
        # The same with 64 writers: the replicas commit the edits that wait in groups, the
        # journal records one edit of a table after the other (docs/SCALING.md).
        ("writes_64", lambda: writes(product, data, postgres, work, rounds, seconds, connections=64, ablation=False)),
        ("lag", lambda: lag(product, data, postgres, (200, 1000), lag_seconds)),
        ("lag_without_notice_changes",
         lambda: lag(product, data, postgres, (200, 1000), lag_seconds, options=WITHOUT_NOTICE_CHANGES)),
        # A ratio that must fall within 5 % either way: seven rounds, since
        # two servers of the same build differ by up to 5 % in one round here.
        ("reads", lambda: reads(product, data, postgres, 1 if quick else 7, seconds if quick else 3)),
        ("ceiling", lambda: ceiling(postgres, rounds, seconds)),
    ]
    results = {}
    try:
        for name, run in sections:
            results[name] = run()
            if on_section:
                on_section(name, results[name])
        return results
    finally:
        postgres.stop()


def print_section(name, figures):
    """Prints one section's figures at once, as one JSON line."""
    print(json.dumps({name: figures}, default=str), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--product", required=True, help="the webtableview binary")
    parser.add_argument("--quick", action="store_true", help="short runs, to try the script")
    args = parser.parse_args()
    if not supported(args.product):
        sys.exit(f"{args.product} has no serve --database")
    os.chdir(os.path.dirname(os.path.dirname(SCRIPTS)))  # the servers find Public/ and Templates/ there
    with tempfile.TemporaryDirectory(prefix="wtv-replication-") as work:
        measure(args.product, work, args.quick, on_section=print_section)


if __name__ == "__main__":
    main()
