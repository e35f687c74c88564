"""A Jepsen-style run (docs/SCALING.md, "What it guarantees"): three replicas,
writers at random replicas retrying as docs/API.md says, while faults are
injected — a replica SIGKILLed and restarted, PostgreSQL restarted, our
backends terminated, PostgreSQL frozen (SIGSTOP) for 5 s. Then a checker:
no acknowledged edit lost, none applied twice, no edit answered "not made"
that was made, versions gapless, the same feed on every replica, and per-table
linearizability. Every edit inserts a row whose text names its attempt, so
the feed tells which attempts were applied."""

import json
import random
import threading
import time

from support import EventFollower, wait_until
from test_replicas import start_replicas

TABLES = ("t", "u")
NOT_MADE = {"storage-unavailable", "overloaded"}


class Run:
    def __init__(self, replicas):
        self.replicas = replicas
        self.lock = threading.Lock()
        self.running = True
        self.acknowledged = []   # (table, text, sent, answered, version)
        self.not_made = []       # (table, text): answered "not made"
        self.unknown = []        # (table, text): outcome-unknown, or the connection lost
        self.retries = 0

    def writer(self, n):
        rng = random.Random(n)
        serial = 0
        while self.running:
            serial += 1
            table = rng.choice(TABLES)
            for attempt in range(50):
                text = f"w{n}-{serial}-a{attempt}"
                with self.lock:
                    replica = rng.choice(self.replicas)
                sent = time.monotonic()
                try:
                    status, headers, body = replica.request(
                        "POST", f"/api/tables/{table}/batch",
                        {"insertRows": [{"at": [0, 0], "row": {"text": text}}]}, timeout=60)
                except OSError:
                    with self.lock:
                        self.unknown.append((table, text))
                    break
                answered = time.monotonic()
                if status == 200:
                    with self.lock:
                        self.acknowledged.append((table, text, sent, answered, json.loads(body)["version"]))
                    break
                kind = json.loads(body).get("type")
                assert status == 503, (status, body)
                if kind not in NOT_MADE:
                    assert kind == "outcome-unknown", body
                    with self.lock:
                        self.unknown.append((table, text))
                    break
                with self.lock:
                    self.not_made.append((table, text))
                    self.retries += 1
                if not self.running:
                    break
                time.sleep(min(float(headers.get("retry-after", "1")), 0.5))


def faults(run, serve, postgres, tmp_path):
    time.sleep(3)
    victim = run.replicas[2]
    victim.kill()
    with run.lock:
        run.replicas.remove(victim)
    time.sleep(2)
    restarted = start_replicas(serve, postgres, tmp_path, 1)[0]
    with run.lock:
        run.replicas.append(restarted)
    time.sleep(3)
    postgres.cluster.run("pg_ctl", "-D", str(postgres.cluster.data), "-w", "-m", "fast", "restart", "-o",
                         f"-p {postgres.cluster.port} -k {postgres.cluster.folder} -c listen_addresses=127.0.0.1"
                         " -c max_connections=200 -c fsync=off -c full_page_writes=off")
    time.sleep(4)
    postgres.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'webtableview'")
    time.sleep(4)
    postgres.cluster.freeze()
    try:
        time.sleep(5)
    finally:
        postgres.cluster.thaw()
    time.sleep(4)


def converged_feeds(replicas):
    def same():
        feeds = {}
        for table in TABLES:
            bodies = [r.request("GET", f"/api/tables/{table}/changes?since=0")[2] for r in replicas]
            tables = [r.request("GET", f"/api/tables/{table}")[2] for r in replicas]
            if len(set(bodies)) != 1 or len(set(tables)) != 1:
                return None
            feeds[table] = json.loads(bodies[0])
        return feeds
    return wait_until(same, "every replica has the same feeds", timeout=60, interval=0.2)


def test_jepsen_style_run_loses_nothing_and_applies_nothing_twice(serve, postgres, tmp_path):
    replicas = start_replicas(serve, postgres, tmp_path, 3)
    assert replicas[0].request("POST", "/api/tables", {"id": "u", "sections": [{"rows": []}]})[0] == 201
    run = Run(list(replicas))
    # Viewers of the replicas that are not killed: each stream must carry
    # every version of its table once, in order. (Min-Version: 0 — u was just
    # created through another replica.)
    streams = [EventFollower(replica, table, headers={"Min-Version": "0"})
               for replica in replicas[:2] for table in TABLES]
    writers = [threading.Thread(target=run.writer, args=(n,)) for n in range(8)]
    for thread in writers:
        thread.start()
    try:
        faults(run, serve, postgres, tmp_path)
    finally:
        run.running = False
        for thread in writers:
            thread.join()
    wait_until(lambda: all(r.request("GET", "/readyz")[0] == 200 for r in run.replicas), "every replica is ready")
    feeds = converged_feeds(run.replicas)

    applied = {}   # text -> [(table, version)]
    for table, feed in feeds.items():
        versions = [change["version"] for change in feed["changes"]]
        assert versions == list(range(1, feed["version"] + 1)), f"{table}: the feed has a gap"
        for change in feed["changes"]:
            for insert in change["batch"].get("insertRows", []):
                applied.setdefault(insert["row"]["text"], []).append((table, change["version"]))
    twice = [text for text, places in applied.items() if len(places) > 1]
    lost = [(table, text) for table, text, _, _, version in run.acknowledged
            if applied.get(text) != [(table, version)]]
    false_not_made = [text for _, text in run.not_made if text in applied]
    unknown_made = sum(1 for _, text in run.unknown if text in applied)
    versions = ", ".join(f"{table}={feed['version']}" for table, feed in feeds.items())
    print(f"\njepsen: {len(run.acknowledged)} acknowledged, {len(run.not_made)} answered not made "
          f"({run.retries} retried), {len(run.unknown)} unknown ({unknown_made} of them made); "
          f"lost {len(lost)}, applied twice {len(twice)}, false not-made {len(false_not_made)}; "
          f"versions {versions}")
    for stream in streams:
        table = stream.table
        wait_until(lambda: stream.updates()[-1:] == [feeds[table]["version"]], "every stream reaches the end")
        assert stream.updates() == list(range(1, feeds[table]["version"] + 1)), f"{table}: a stream has a gap"
        stream.close()
    assert len(run.acknowledged) > 100
    assert lost == [], lost[:5]
    assert twice == [], twice[:5]
    assert false_not_made == [], false_not_made[:5]
    # Per table: an edit sent after another was acknowledged has a higher version.
    for table in TABLES:
        edits = [(sent, answered, version) for t, _, sent, answered, version in run.acknowledged if t == table]
        answers = sorted((answered, version) for _, answered, version in edits)
        highest, index = 0, 0
        for sent, _, version in sorted(edits):
            while index < len(answers) and answers[index][0] < sent:
                highest = max(highest, answers[index][1])
                index += 1
            assert version > highest, f"{table}: an edit sent after an acknowledgement got a lower version"
