"""Replicas that share their tables through PostgreSQL (docs/SCALING.md,
docs/API.md "Replicas"): one order per table everywhere, no lost or duplicated
change, the same versions and events on every replica, read-your-writes, and
what happens when a replica or PostgreSQL goes away."""

import http.client
import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from support import JSON, EventFollower, wait_for_more, wait_until

SEED = [{"id": "t", "allowsMultipleSelection": True,
         "sections": [{"rows": [{"text": f"seed {i}"} for i in range(20)]}]}]


def start_replicas(serve, postgres, tmp_path, count, *extra, first=0, **options):
    """`count` replicas named replica{first}… (each its own log), `options` passed to `serve`."""
    data = tmp_path / "tables.json"
    if not data.exists():
        data.write_text(json.dumps(SEED))
    # Every change the tests make stays in each replica's feed: the checkers read
    # whole feeds (`?since=0`), and a fast run of the Jepsen-style test passes
    # the default 8 MiB a table.
    args = ("--database", postgres.url, "--data", str(data), "--history", "100000",
            "--history-bytes", str(1 << 30), "--threads", "4", *extra)
    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(lambda i: serve(*args, name=f"replica{i}", **options), range(first, first + count)))


class Writers:
    """`count` threads editing table `t` through `replicas` in turn, mixing
    batches, single operations, selects and snapshot PUTs, with and without
    If-Match. Every acknowledged change is kept with when it was sent and
    answered, and counted by the replica that answered it (`through`)."""

    def __init__(self, replicas, count):
        self.replicas = replicas
        self.count = count
        self.acknowledged = []   # (sent, answered, version, [batch, ...])
        self.through = {}        # replica -> changes it acknowledged
        self.refusals = {}       # status -> count
        self.unavailable = 0
        self.lock = threading.Lock()
        self.running = True

    def run_for(self, seconds, during=None):
        threads = [threading.Thread(target=self.write, args=(n,)) for n in range(self.count)]
        for thread in threads:
            thread.start()
        try:
            if during:
                during()
            else:
                # The load's length is the scenario (so many writers for so long),
                # not a wait for something: what it must have made is checked after.
                time.sleep(seconds)
        finally:
            # Also when a wait in `during` ran out: the writers stop and the test fails.
            self.running = False
            for thread in threads:
                thread.join()

    def write(self, n):
        rng = random.Random(n)
        serial = 0
        while self.running:
            replica = self.replicas[(n + serial) % len(self.replicas)]
            serial += 1
            text = f"w{n}-{serial}"
            try:
                self.one(replica, rng, text)
            except OSError:
                pass  # a replica being killed

    def one(self, replica, rng, text):
        kind = rng.random()
        headers = dict(JSON)
        if kind < 0.35:
            method, path, body = "POST", "/api/tables/t/batch", {"insertRows": [{"at": [0, 0], "row": {"text": text}}]}
        elif kind < 0.55:
            method, path, body = "POST", "/api/tables/t/sections/0/rows", {"row": {"text": text}}
        elif kind < 0.80:
            method, path, body = "DELETE", "/api/tables/t/sections/0/rows/0", None
        elif kind < 0.90:
            method, path, body = "POST", f"/api/tables/t/sections/0/rows/{rng.randrange(5)}/select", None
        else:
            status, reply_headers, table = replica.request("GET", "/api/tables/t")
            if status != 200:
                return
            table = json.loads(table)
            rows = table["sections"][0]["rows"]
            if rows:
                rows[0]["text"] = text
            method, path, body = "PUT", "/api/tables/t", {"sections": table["sections"]}
            headers["If-Match"] = reply_headers["etag"]
        if method in ("POST", "DELETE") and rng.random() < 0.5:
            status, reply_headers, _ = replica.request("GET", "/api/tables/t")
            if status != 200:
                return
            headers["If-Match"] = reply_headers["etag"]
        sent = time.monotonic()
        status, _, reply = replica.request(method, path, body, headers)
        answered = time.monotonic()
        with self.lock:
            if status == 200:
                reply = json.loads(reply)
                if "changes" in reply:
                    batches = [(change["version"], change["batch"]) for change in reply["changes"]]
                else:
                    batches = [(reply["version"], reply["batch"])]
                # A no-op (selecting a selected row) answers the version it left alone.
                batches = [(version, batch) for version, batch in batches if set(batch) - {"animation"}]
                if batches:
                    self.acknowledged.append((sent, answered, batches))
                    self.through[replica] = self.through.get(replica, 0) + 1
            else:
                self.refusals[status] = self.refusals.get(status, 0) + 1
                if status == 503:
                    # Not made, or — when the connection broke during its
                    # commit and PostgreSQL stayed away — not known.
                    assert json.loads(reply)["type"] in ("storage-unavailable", "outcome-unknown")
                    self.unavailable += 1


def converged(replicas, table="t"):
    """Every replica's table and full change feed, once they are all the same bytes."""
    def same():
        tables = [replica.request("GET", f"/api/tables/{table}")[2] for replica in replicas]
        changes = [replica.request("GET", f"/api/tables/{table}/changes?since=0")[2] for replica in replicas]
        if len(set(tables)) == 1 and len(set(changes)) == 1:
            return json.loads(tables[0]), json.loads(changes[0])
        return None
    return wait_until(same, "the replicas converge", timeout=60, interval=0.2)


def check_acknowledged(writers, feed):
    """Every acknowledged change is in the feed exactly once, at its version, as
    it was answered; one acknowledged before another was sent has the lower version."""
    by_version = {change["version"]: change["batch"] for change in feed["changes"]}
    assert sorted(by_version) == list(range(1, feed["version"] + 1)), "the feed has a gap"
    versions = []
    for _, _, batches in writers.acknowledged:
        for version, batch in batches:
            assert by_version[version] == batch, f"version {version} is not the change acknowledged"
            versions.append(version)
    assert len(versions) == len(set(versions)), "one version acknowledged twice"
    # Real-time order: an edit sent after another was acknowledged has a higher
    # version. Walk the sends in time order, keeping the highest version
    # acknowledged before each.
    answers = sorted((answered, max(v for v, _ in batches)) for _, answered, batches in writers.acknowledged)
    sends = sorted((sent, min(v for v, _ in batches)) for sent, _, batches in writers.acknowledged)
    highest, index = 0, 0
    for sent, version in sends:
        while index < len(answers) and answers[index][0] < sent:
            highest = max(highest, answers[index][1])
            index += 1
        assert version > highest, "an edit sent after an acknowledgement got a lower version"


def test_three_replicas_thirty_writers_agree(serve, postgres, tmp_path):
    replicas = start_replicas(serve, postgres, tmp_path, 3)
    # Started at the same moment on an empty database: seeded exactly once.
    assert postgres.psql("SELECT count(*) FROM webtableview_tables") == "1"
    followers = [EventFollower(replica, "t", since=0) for replica in replicas]

    writers = Writers(replicas, 30)
    writers.run_for(20)

    table, feed = converged(replicas)
    assert len(writers.acknowledged) > 100, writers.refusals
    check_acknowledged(writers, feed)
    # Every replica's stream carried every change, in order, once, with the same bytes.
    wait_until(lambda: all(f.updates()[-1:] == [feed["version"]] for f in followers), "every stream reaches the end")
    for follower in followers:
        assert follower.updates() == list(range(1, feed["version"] + 1))
    assert len({json.dumps(f.events) for f in followers}) == 1
    for follower in followers:
        follower.close()


def test_read_your_writes_and_readiness(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2)
    for replica in (a, b):
        status, _, body = replica.request("GET", "/readyz")
        assert (status, json.loads(body)["status"]) == (200, "ready")
    status, _, body = a.request("POST", "/api/tables", {"id": "fresh", "sections": [{"rows": []}]})
    assert status == 201
    status, _, body = a.request("POST", "/api/tables/fresh/sections/0/rows", {"row": {"text": "mine"}})
    version = json.loads(body)["version"]
    # Asked through the other replica with Min-Version: never older than the write.
    status, headers, body = b.request("GET", "/api/tables/fresh", headers={"Min-Version": str(version)})
    assert status == 200
    assert json.loads(body)["sections"][0]["rows"][0]["text"] == "mine"
    # A version nobody made: a bounded wait, then 503.
    status, headers, body = b.request("GET", "/api/tables/fresh", headers={"Min-Version": "99"})
    assert status == 503 and json.loads(body)["type"] == "not-caught-up" and "retry-after" in headers
    status, _, body = b.request("GET", "/api/tables/fresh", headers={"Min-Version": "soon"})
    assert status == 400
    # A delete through one replica reaches the other.
    assert b.request("DELETE", "/api/tables/fresh")[0] == 204
    wait_until(lambda: a.request("GET", "/api/tables/fresh")[0] == 404, "the delete reaches the other replica")


def test_sigkilled_replica_restarts_and_converges(serve, postgres, tmp_path):
    a, b, c = start_replicas(serve, postgres, tmp_path, 3)
    writers = Writers([a, b, c], 8)
    streams = {}

    def kill_and_restart():
        viewer = streams["before"] = EventFollower(c, "t", since=0)
        # c is killed in the middle of the writes: once its viewer has had 20 of them.
        wait_until(lambda: len(viewer.updates()) >= 20, "the viewer of c gets 20 updates before the kill")
        c.kill()
        writers.replicas.remove(c)
        # The viewer of the dead replica reconnects to another with the last id it got:
        # once its stream has ended, every update that reached it before the kill is read.
        wait_until(lambda: not viewer.thread.is_alive(), "the viewer's stream of the killed replica ends")
        last = viewer.updates()[-1]
        streams["after"] = EventFollower(a, "t", since=last)
        # The others go on without c, then c comes back and takes edits of its own.
        wait_for_more(lambda: len(writers.acknowledged), 20, "edits acknowledged while c is away")
        restarted = start_replicas(serve, postgres, tmp_path, 1)[0]
        writers.replicas.append(restarted)
        wait_until(lambda: writers.through.get(restarted, 0) >= 20, "20 edits acknowledged by the restarted replica")

    writers.run_for(0, during=kill_and_restart)
    restarted = writers.replicas[-1]
    _, feed = converged([a, b, restarted])
    check_acknowledged(writers, feed)
    # No gap and no duplicate across the failover.
    wait_until(lambda: streams["after"].updates()[-1:] == [feed["version"]], "the reconnected stream reaches the end")
    assert streams["before"].updates() + streams["after"].updates() == list(range(1, feed["version"] + 1))
    streams["after"].close()


def test_database_url_from_the_environment_and_no_journal_beside_it(serve, postgres, tmp_path):
    import subprocess
    from support import BINARY, ROOT
    replica = serve(env={"WEBTABLEVIEW_DATABASE_URL": postgres.url})
    assert replica.request("GET", "/readyz")[0] == 200
    demo_tables = len(list((ROOT / "examples").glob("*.json")))  # embedded from examples/
    assert postgres.psql("SELECT count(*) FROM webtableview_tables") == str(demo_tables)  # the demo tables, seeded
    both = subprocess.run([str(BINARY), "serve", "--port", "0", "--database", postgres.url,
                           "--journal", str(tmp_path / "j")], capture_output=True, text=True, timeout=30)
    assert both.returncode != 0 and "exclude each other" in both.stderr


def test_postgresql_away_edits_503_reads_go_on(serve, postgres, tmp_path):
    replicas = start_replicas(serve, postgres, tmp_path, 2)
    writers = Writers(replicas, 6)
    seen = {}

    def outage():
        # PostgreSQL goes away in the middle of the writes, stays away until the
        # writers have been refused, and the writes go on once it is back.
        wait_for_more(lambda: len(writers.acknowledged), 20, "edits acknowledged before the outage")
        postgres.stop()
        wait_until(lambda: all(r.request("GET", "/readyz")[0] == 503 for r in replicas), "replicas say not ready")
        seen["reads"] = [r.request("GET", "/api/tables/t")[0] for r in replicas]
        seen["health"] = [r.request("GET", "/healthz")[0] for r in replicas]
        seen["edit"] = replicas[0].request("POST", "/api/tables/t/batch", {"deleteRows": [[0, 0]]}, JSON)
        wait_for_more(lambda: writers.unavailable, 20, "writers' edits refused (503) while PostgreSQL is away")
        postgres.start()
        wait_until(lambda: all(r.request("GET", "/readyz")[0] == 200 for r in replicas), "replicas ready again")
        wait_for_more(lambda: len(writers.acknowledged), 20, "edits acknowledged after the outage")

    writers.run_for(0, during=outage)
    assert seen["reads"] == [200, 200] and seen["health"] == [200, 200]
    status, headers, body = seen["edit"]
    assert status == 503 and json.loads(body)["type"] == "storage-unavailable" and "retry-after" in headers
    assert writers.unavailable > 0
    _, feed = converged(replicas)
    check_acknowledged(writers, feed)


def test_late_replica_starts_from_a_snapshot(serve, postgres, tmp_path):
    (a,) = start_replicas(serve, postgres, tmp_path, 1, "--snapshot-every", "1000", "--history", "1000")

    def insert(n):
        connection = http.client.HTTPConnection("127.0.0.1", a.port, timeout=30)
        for i in range(1250):
            connection.request("POST", "/api/tables/t/sections/0/rows",
                               json.dumps({"row": {"text": f"{n}-{i}"}}), JSON)
            response = connection.getresponse()
            assert response.status == 200, response.read()
            response.read()
        connection.close()

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(insert, range(8)))
    assert a.json("/api/tables/t")["version"] == 10_000
    wait_until(lambda: int(postgres.psql("SELECT max(version) FROM webtableview_snapshots")) >= 9000,
               "a snapshot is stored")
    # Trimmed: the oldest change kept is far past the start, so a new replica
    # cannot rebuild from the creation; it starts from a snapshot.
    assert int(postgres.psql("SELECT min(version) FROM webtableview_changes")) > 1000
    late = serve("--database", postgres.url, "--history", "1000", name="late")
    assert late.request("GET", "/api/tables/t")[2] == a.request("GET", "/api/tables/t")[2]
    since = 10_000 - 1000
    assert late.request("GET", f"/api/tables/t/changes?since={since}")[2] == \
        a.request("GET", f"/api/tables/t/changes?since={since}")[2]
    follower = EventFollower(late, "t", since=10_000)
    assert a.request("POST", "/api/tables/t/sections/0/rows", {"row": {"text": "after"}})[0] == 200
    wait_until(lambda: follower.updates() == [10_001], "the late replica follows")
    follower.close()


def test_a_2000_row_insert_replicates(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2)
    follower = EventFollower(b, "t", since=0)
    batch = {"insertRows": [{"at": [0, i], "row": {"text": f"r{i}"}} for i in range(2000)]}
    status, _, body = a.request("POST", "/api/tables/t/batch", batch)
    assert status == 200 and len(body) > 8000
    version = json.loads(body)["version"]
    table, feed = converged([a, b])
    assert table["version"] == version and len(table["sections"][0]["rows"]) == 2020
    assert feed["changes"][-1]["batch"] == json.loads(body)["batch"]
    # The notice was tiny; the change was read from the database and streamed.
    wait_until(lambda: follower.updates() == [version], "the stream on the other replica carries it")
    assert json.loads(follower.events[-1][2])["batch"] == json.loads(body)["batch"]
    follower.close()


def test_replicas_keep_the_console_clean(serve, postgres, tmp_path):
    """PostgreSQL's notices (`NOTICE: relation … already exists, skipping`,
    drawn by the schema's IF NOT EXISTS at every start after the first) stay
    off a replica's standard error."""
    first = start_replicas(serve, postgres, tmp_path, 1)[0]
    second = serve("--database", postgres.url, name="second")
    assert second.json("/api/tables/t")["id"] == "t"
    for replica in (first, second):
        log = replica.log.read_text(errors="replace")
        assert "NOTICE" not in log, log


def test_views_on_a_replica_follow_edits_made_through_another(serve, postgres, tmp_path):
    """Views (docs/API.md, "Views") are derived on each replica from its own
    copy of the table: a view's reads and its stream on one replica follow
    edits made through another."""
    a, b = start_replicas(serve, postgres, tmp_path, 2)
    follower = EventFollower(b, "t", since=0, query="?q=seed+1&sort=text")
    try:
        status, _, body = b.request("GET", "/api/tables/t/sections/0/rows?q=seed+1&sort=text")
        assert status == 200
        assert [row["text"] for row in json.loads(body)["rows"]][:3] == ["seed 1", "seed 10", "seed 11"]
        # "seed 0" becomes "seed 1z": it enters the view, second in its order (digits as numbers: 1 < 10).
        status, _, body = a.request("PUT", "/api/tables/t/sections/0/rows/0", {"text": "seed 1z"})
        assert status == 200
        version = json.loads(body)["version"]
        status, _, body = b.request("GET", "/api/tables/t/sections/0/rows?q=seed+1&sort=text",
                                    headers={"Min-Version": str(version)})
        assert [row["text"] for row in json.loads(body)["rows"]][:3] == ["seed 1", "seed 1z", "seed 10"]
        wait_until(lambda: follower.updates() == [version], "the view's update reaches the other replica")
        update = json.loads(next(data for name, _, data in follower.events if name == "update"))
        assert update["steps"][0]["batch"]["insertRows"][0]["at"] == [0, 1]
    finally:
        follower.close()

