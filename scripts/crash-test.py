#!/usr/bin/env python3
"""Crash test for `webtableview serve --journal`.

Workers apply random edits (batches, single operations, PATCH, select, snapshot
PUT, create, delete) to a journaled server, which is killed with SIGKILL at
random moments and restarted on the same journal. A reference server without a
journal, never killed, receives every request the journaled server answered, in
the same order per table (each worker owns its tables), so it holds exactly the
acknowledged changes replayed. After every restart:

- every table (version included) equals the reference's: no acknowledged change
  is lost, none is invented, versions continue without a gap;
- a request cut off by the kill is either wholly absent or wholly applied
  (then it is replayed on the reference too);
- `/changes` since the last check, where the restarted server still has them,
  lists consecutive versions equal to the reference's changes.

Every few cycles a torn record is appended to the journal before the restart:
it must be dropped with a warning. Standard library only; binds 127.0.0.1 port 0.
"""
import argparse
import http.client
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "support"))
import wtv  # noqa: E402

WORKERS = 4


class Server:
    """One `webtableview serve` process and its port."""

    def __init__(self, args, workdir, name):
        self.stderr_path = os.path.join(workdir, name + ".err")
        self.stderr = open(self.stderr_path, "ab")
        try:
            self.process, url = wtv.launch(args, self.stderr)
        except RuntimeError as error:
            self.stderr.close()
            raise RuntimeError(f"{name}: {error}") from None
        self.port = int(url.rsplit(":", 1)[1])

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.process.stdout.close()
        self.stderr.close()


class Client:
    """A keep-alive JSON client; any transport failure raises ConnectionError."""

    def __init__(self, port, timeout=10):
        self.port, self.timeout, self.connection = port, timeout, None

    def request(self, method, path, body=None):
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.connection.close()
            self.connection = None
            raise ConnectionError(str(error)) from error
        return response.status, payload

    def json(self, path):
        status, payload = self.request("GET", path)
        return status, (json.loads(payload) if payload else None)


def seed_tables():
    def row(name):
        return {"id": name, "text": name.upper(), "detail": "seed"}

    return [{"id": f"w{k}", "title": f"Worker {k}", "sections": [
        {"id": "a", "header": "A", "rows": [row(f"a{i}") for i in range(6)]},
        {"id": "b", "header": "B", "rows": [row(f"b{i}") for i in range(4)]},
    ]} for k in range(WORKERS)]


def random_edit(rng, table, worker, serial):
    """A request (method, path, body) that edits `table`; some are meant to be refused."""
    t = table["id"]
    sections = table["sections"]
    counts = [len(s["rows"]) for s in sections]
    total = sum(counts)
    fresh = lambda: {"id": f"n{worker}-{serial}-{rng.randrange(10**6)}", "text": f"row {serial}",
                     "accessory": rng.choice(["none", "checkmark", "disclosureIndicator"])}
    filled = [i for i, c in enumerate(counts) if c > 0]
    choice = rng.random()
    if not sections:
        return ("POST", f"/api/tables/{t}/sections", {"section": {"header": f"S{serial}", "rows": [fresh()]}})
    if choice < 0.30:
        ops = {}
        s = rng.randrange(len(sections))
        if total > 40 or (filled and rng.random() < 0.4):
            s = rng.choice(filled)
            rows = rng.sample(range(counts[s]), min(counts[s], rng.randint(1, 3)))
            ops["deleteRows"] = [[s, r] for r in rows]
            counts[s] -= len(rows)
        if rng.random() < 0.7:
            ops["insertRows"] = [{"at": [s, rng.randint(0, counts[s])], "row": fresh()}]
        if rng.random() < 0.05:
            ops["deleteRows"] = [[0, 999]]  # refused: 409
        ops["animation"] = rng.choice(["fade", "automatic", "none"])
        return ("POST", f"/api/tables/{t}/batch", ops)
    if choice < 0.40 and filled:
        s = rng.choice(filled)
        return ("POST", f"/api/tables/{t}/sections/{s}/rows/{rng.randrange(counts[s])}/move",
                {"to": [s, rng.randrange(counts[s])]})
    if choice < 0.50 and filled:
        s = rng.choice(filled)
        return ("DELETE", f"/api/tables/{t}/sections/{s}/rows/{rng.randrange(counts[s])}", None)
    if choice < 0.60:
        s = rng.randrange(len(sections))
        return ("POST", f"/api/tables/{t}/sections/{s}/rows", {"rows": [fresh() for _ in range(rng.randint(1, 3))]})
    if choice < 0.68:
        return ("PATCH", f"/api/tables/{t}", {"title": f"title {serial}", "rowHeight": rng.choice([44, 50.5, 60]),
                                              "header": rng.choice([None, "header"])})
    if choice < 0.76 and filled:
        s = rng.choice(filled)
        action = rng.choice(["select", "deselect"])
        return ("POST", f"/api/tables/{t}/sections/{s}/rows/{rng.randrange(counts[s])}/{action}", None)
    if choice < 0.86:
        snapshot = json.loads(json.dumps(table))
        del snapshot["version"]
        for section in snapshot["sections"]:
            rng.shuffle(section["rows"])
            section["rows"] = section["rows"][:max(0, len(section["rows"]) - rng.randint(0, 2))]
        if rng.random() < 0.3:
            snapshot["sections"].insert(rng.randint(0, len(snapshot["sections"])),
                                        {"id": f"s{worker}-{serial}", "header": "New", "rows": [fresh()]})
        if len(snapshot["sections"]) > 4:
            snapshot["sections"].pop(rng.randrange(len(snapshot["sections"])))
        rng.shuffle(snapshot["sections"])
        return ("PUT", f"/api/tables/{t}", snapshot)
    if choice < 0.93:
        return ("POST", "/api/tables", {"id": f"w{worker}-x{serial}", "title": "extra",
                                        "sections": [{"rows": [fresh()]}]})
    return ("DELETE", f"/api/tables/{t}", None)


def versions_made(request, answer):
    """How many versions an acknowledged request made (0 for a create, a delete or a no-op)."""
    method, path, _ = request
    if path == "/api/tables" or (method == "DELETE" and path.count("/") == 3):
        return 0
    body = json.loads(answer[1])
    if method == "PUT" and path.count("/") == 3:
        return len(body["changes"])
    if method == "PATCH":
        return 1
    return 1 if set(body["batch"]) - {"animation"} else 0


class Worker(threading.Thread):
    """Edits its own tables on the journaled server, mirroring every answered request on the reference."""

    def __init__(self, index, rng, durable_port, reference, stats, failures, stop):
        super().__init__(daemon=True)
        self.index, self.rng, self.stats, self.failures, self.stop = index, rng, stats, failures, stop
        self.durable, self.reference = Client(durable_port), reference
        self.in_doubt = None

    def tables(self):
        status, listing = self.reference.json("/api/tables")
        mine = [t["id"] for t in listing["tables"] if t["id"].split("-")[0] == f"w{self.index}"]
        return mine or [f"w{self.index}"]

    def run(self):
        try:
            self.edit()
        except Exception as error:  # a worker must never die silently
            self.failures.append(f"worker {self.index}: {error!r}")

    def edit(self):
        serial = 0
        while not self.stop.is_set() and not self.failures:
            serial += 1
            table_id = self.rng.choice(self.tables())
            status, table = self.reference.json(f"/api/tables/{table_id}")
            if status == 404:  # a deleted main table comes back
                request = ("POST", "/api/tables", seed_tables()[self.index])
            else:
                request = random_edit(self.rng, table, self.index, serial)
            try:
                answer = self.durable.request(*request)
            except ConnectionError:
                self.in_doubt = request
                return
            expected = self.reference.request(*request)
            if answer != expected:
                self.failures.append(f"{request[0]} {request[1]}: journaled {answer}, reference {expected}")
                return
            with self.stats["lock"]:
                self.stats["requests"] += 1
                if 200 <= answer[0] < 300:
                    self.stats["acknowledged"] += 1
                    self.stats["versions"] += versions_made(request, answer)
                else:
                    self.stats["refused"] += 1


def compare(durable, reference, last_checked, stats):
    """Every table equal to the reference's; /changes since the last check consecutive and equal."""
    problems = []
    _, ours = durable.json("/api/tables")
    _, theirs = reference.json("/api/tables")
    ours_by_id = {t["id"]: t for t in ours["tables"]}
    theirs_by_id = {t["id"]: t for t in theirs["tables"]}
    if set(ours_by_id) != set(theirs_by_id):
        problems.append(f"tables differ: journaled {sorted(ours_by_id)}, reference {sorted(theirs_by_id)}")
    for table_id in sorted(set(ours_by_id) & set(theirs_by_id)):
        a, b = durable.request("GET", f"/api/tables/{table_id}"), reference.request("GET", f"/api/tables/{table_id}")
        if a != b:
            problems.append(f"table {table_id} differs:\n  journaled {a[1][:300]}\n  reference {b[1][:300]}")
            continue
        version = theirs_by_id[table_id]["version"]
        since = min(last_checked.get(table_id, 0), version)
        status, changes = durable.json(f"/api/tables/{table_id}/changes?since={since}")
        if status == 200:
            versions = [c["version"] for c in changes["changes"]]
            if versions != list(range(since + 1, version + 1)):
                problems.append(f"table {table_id}: /changes since {since} lists versions {versions}, expected {since + 1}…{version}")
            elif changes != reference.json(f"/api/tables/{table_id}/changes?since={since}")[1]:
                problems.append(f"table {table_id}: /changes since {since} differ from the reference's")
            else:
                stats["feed_checked"] += len(versions)
        elif status != 410:
            problems.append(f"table {table_id}: /changes answered {status}")
        last_checked[table_id] = version
    stats["tables_checked"] += len(theirs_by_id)
    return problems


def resolve_in_doubt(request, durable, reference, stats):
    """A request cut off by the kill: wholly absent, or wholly applied (then replayed on the reference)."""
    method, path, body = request
    table_id = body["id"] if (method, path) == ("POST", "/api/tables") else path.split("/")[3]
    fetch = lambda client: client.request("GET", f"/api/tables/{table_id}")
    if fetch(durable) == fetch(reference):
        stats["in_doubt_lost"] += 1
    else:
        reference.request(*request)
        stats["in_doubt_applied"] += 1


SEGMENT_MAGIC = b"WTVJRNL1"


def tear_tail(journal, rng):
    """Appends a partial record (header and some payload) to the last segment, as a cut-off write would leave.

    Answers False, tearing nothing, when the last segment does not start with its magic: the kill
    cut its creation short, and the server writes no record into a segment before its magic is on
    the disk, so no crash can leave a record there (recovery rewrites such a segment, tested apart)."""
    segments = sorted(f for f in os.listdir(journal) if f.startswith("segment-"))
    path = os.path.join(journal, segments[-1])
    with open(path, "rb") as f:
        if f.read(len(SEGMENT_MAGIC)) != SEGMENT_MAGIC:
            return False
    with open(path, "ab") as f:
        length = rng.randint(30, 200)
        f.write(length.to_bytes(4, "little") + rng.randbytes(12) + rng.randbytes(rng.randint(0, length - 1)))
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--cycles", type=int, default=25)
    parser.add_argument("--seconds", type=float, default=100, help="stop starting new cycles after this")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    options = parser.parse_args()
    rng = random.Random(options.seed)
    workdir = tempfile.mkdtemp(prefix="webtableview-crash-")
    journal = os.path.join(workdir, "journal")
    seed = os.path.join(workdir, "seed.json")
    with open(seed, "w") as f:
        json.dump(seed_tables(), f)
    common = [options.binary, "serve", "--host", "127.0.0.1", "--port", "0", "--threads", "4", "--data", seed,
              "--templates", os.path.join(options.root, "Templates"), "--public", os.path.join(options.root, "Public")]
    stats = {"lock": threading.Lock(), "requests": 0, "acknowledged": 0, "versions": 0, "refused": 0,
             "in_doubt_lost": 0, "in_doubt_applied": 0, "tables_checked": 0, "feed_checked": 0, "torn": 0}
    servers, failures, last_checked, started, cycles = [], [], {}, time.monotonic(), 0
    print(f"crash test: seed {options.seed}, journal {journal}", flush=True)
    try:
        reference = Server(common + ["--history", "1000000"], workdir, "reference")
        servers.append(reference)
        reference_client = Client(reference.port)
        in_doubt = []
        while cycles < options.cycles and time.monotonic() - started < options.seconds and not failures:
            torn = cycles % 5 == 4 and tear_tail(journal, rng)
            durable = Server(common + ["--journal", journal, "--fsync", "always", "--snapshot-every",
                                       str(rng.choice([7, 30, 100]))], workdir, "journaled")
            servers.append(durable)
            client = Client(durable.port)
            if torn:
                stats["torn"] += 1
                if "torn record" not in open(durable.stderr_path).read():
                    failures.append("a torn tail was not reported")
            for request in in_doubt:
                resolve_in_doubt(request, client, reference_client, stats)
            failures += compare(client, reference_client, last_checked, stats)
            if failures:
                break
            stop = threading.Event()
            workers = [Worker(k, random.Random(rng.random()), durable.port, Client(reference.port), stats, failures, stop)
                       for k in range(WORKERS)]
            for worker in workers:
                worker.start()
            # A random moment of the workers' writes to kill at: the scenario, not a wait.
            time.sleep(rng.uniform(0.2, 1.6))
            durable.kill()  # SIGKILL, wherever the workers and the journal are
            servers.remove(durable)
            stop.set()
            for worker in workers:
                worker.join(timeout=30)
            in_doubt = [w.in_doubt for w in workers if w.in_doubt]
            cycles += 1
        if not failures:
            durable = Server(common + ["--journal", journal], workdir, "journaled")
            servers.append(durable)
            client = Client(durable.port)
            for request in in_doubt:
                resolve_in_doubt(request, client, reference_client, stats)
            failures += compare(client, reference_client, last_checked, stats)
    finally:
        for server in servers:
            server.kill()
    elapsed = time.monotonic() - started
    files = os.listdir(journal) if os.path.isdir(journal) else []
    size = sum(os.path.getsize(os.path.join(journal, f)) for f in files)
    print(f"crash test: journal at the end: {sum(f.startswith('segment-') for f in files)} segments, "
          f"{sum(f.startswith('snapshot-') for f in files)} snapshot, {size // 1024} KiB", flush=True)
    print(f"crash test: {cycles} SIGKILL cycles in {elapsed:.0f} s; {stats['requests']} requests answered, "
          f"{stats['acknowledged']} acknowledged (making {stats['versions']} versions), {stats['refused']} refused alike; "
          f"requests cut off by a kill: {stats['in_doubt_applied']} kept whole, {stats['in_doubt_lost']} absent; "
          f"{stats['tables_checked']} table comparisons, {stats['feed_checked']} /changes entries checked, "
          f"{stats['torn']} torn tails dropped", flush=True)
    if failures or cycles < min(20, options.cycles):
        for failure in failures[:10]:
            print("FAIL:", failure, file=sys.stderr)
        if not failures:
            print(f"FAIL: only {cycles} cycles in the time allowed", file=sys.stderr)
        print(f"crash test: journal and logs kept in {workdir}", file=sys.stderr)
        return 1
    shutil.rmtree(workdir)
    print("crash test: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
