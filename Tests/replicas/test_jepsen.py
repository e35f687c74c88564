"""A Jepsen-style run (docs/SCALING.md, "What it guarantees"): three replicas,
writers at random replicas retrying as docs/API.md says, while faults are
injected — a replica SIGKILLed and restarted, PostgreSQL restarted, our
backends terminated, PostgreSQL frozen (SIGSTOP) for 5 s. Then a checker:
no acknowledged edit lost, none applied twice, no edit answered "not made"
that was made, versions gapless, the same feed on every replica, and per-table
linearizability. Every edit inserts a row whose text names it and is sent
with an `Idempotency-Key` of its own; a retry (503 `storage-unavailable`,
`overloaded` or `outcome-unknown` after `Retry-After`, or a connection lost)
sends the same key and the same body, at any replica, so the feed tells which
edits were applied, and how often."""

import json
import random
import threading
import time

from support import EventFollower, wait_until
from test_replicas import start_replicas

TABLES = ("t", "u")
NOT_MADE = {"storage-unavailable", "overloaded"}
RETRIED = NOT_MADE | {"outcome-unknown", "idempotency-key-in-use"}


class Run:
    def __init__(self, replicas):
        self.replicas = replicas
        self.lock = threading.Lock()
        self.running = True
        self.acknowledged = []   # (table, text, sent, answered, version)
        self.not_made = []       # (table, text, answered): an attempt answered "not made"
        self.unknown = []        # (table, text): no answer when the run ended (outcome-unknown, connection lost)
        self.retries = 0
        self.lost_connections = 0
        self.outcome_unknown = 0
        self.repeats = 0         # acknowledged edits sent again and answered as the first time
        self.repeats_answered_otherwise = []

    def writer(self, n):
        rng = random.Random(n)
        serial = 0
        while self.running:
            serial += 1
            table = rng.choice(TABLES)
            text = f"w{n}-{serial}"
            key = {"Idempotency-Key": text}
            edit = {"insertRows": [{"at": [0, 0], "row": {"text": text}}]}
            sent = time.monotonic()
            for attempt in range(200):
                with self.lock:
                    replica = rng.choice(self.replicas)
                pause = 0.05
                try:
                    status, headers, body = replica.request(
                        "POST", f"/api/tables/{table}/batch", edit, headers=key, timeout=60)
                except OSError:
                    status, kind = None, None
                    with self.lock:
                        self.lost_connections += 1
                else:
                    if status == 200:
                        with self.lock:
                            self.acknowledged.append(
                                (table, text, sent, time.monotonic(), json.loads(body)["version"]))
                        if serial % 10 == 0:
                            self.send_again(rng, table, edit, key, body)
                        break
                    kind = json.loads(body).get("type")
                    assert status in (503, 409) and kind in RETRIED, (status, body)
                    pause = min(float(headers.get("retry-after", "1")), 0.5)
                with self.lock:
                    self.retries += 1
                    if kind in NOT_MADE:
                        self.not_made.append((table, text, time.monotonic()))
                    elif kind == "outcome-unknown":
                        self.outcome_unknown += 1
                if not self.running:
                    with self.lock:
                        self.unknown.append((table, text))
                    break
                # The client's own back-off before a retry (Retry-After, at most
                # half a second, as docs/API.md asks of clients): part of the
                # writers' behaviour, not a wait for something to happen.
                time.sleep(pause)
            else:
                with self.lock:
                    self.unknown.append((table, text))


    def send_again(self, rng, table, edit, key, first):
        """Sends an acknowledged edit again, with its key, to a random replica,
        as a client does whose answer was lost: the first answer comes back."""
        with self.lock:
            replica = rng.choice(self.replicas)
        try:
            status, _, body = replica.request("POST", f"/api/tables/{table}/batch", edit, headers=key, timeout=60)
        except OSError:
            return
        with self.lock:
            if status == 200 and body == first:
                self.repeats += 1
            elif status != 503:
                self.repeats_answered_otherwise.append((key, status, body[:200]))


def faults(run, serve, postgres, tmp_path):
    """The nemesis: one fault after another on a clock, as Jepsen's schedules
    run, whatever the writers are doing at that moment. Its sleeps are the
    scenario's timeline, not waits for an outcome: nothing is asserted after
    them; the checker reads the converged feeds once the run has ended."""
    time.sleep(3)
    victim = run.replicas[2]
    victim.kill()
    with run.lock:
        run.replicas.remove(victim)
    time.sleep(2)
    # A replica that starts loads every table from the database while the
    # writers (and, in the hostile run, the hostile clients) keep the others
    # and the database busy: its start is given the run's longer deadline, and
    # a name of its own, so a failure shows its own log.
    restarted = start_replicas(serve, postgres, tmp_path, 1, first=len(run.replicas) + 1, timeout=120)[0]
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
        time.sleep(5)  # the fault itself: PostgreSQL frozen for 5 s (SIGSTOP), its connections open
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


def through_faults(threads, loops, serve, postgres, tmp_path):
    """Starts `threads`, injects the faults into `loops[0]`'s replicas, then
    ends every loop (`running`) and waits for the threads."""
    for thread in threads:
        thread.start()
    try:
        faults(loops[0], serve, postgres, tmp_path)
    finally:
        for loop in loops:
            loop.running = False
        for thread in threads:
            thread.join()


def applied_lost_twice(run, feeds):
    """What the feeds applied (text -> [(table, version)]), once their versions
    are found gapless; the acknowledged edits not applied at their version
    (lost), and the edits applied more than once."""
    applied = {}
    for table, feed in feeds.items():
        versions = [change["version"] for change in feed["changes"]]
        assert versions == list(range(1, feed["version"] + 1)), f"{table}: the feed has a gap"
        for change in feed["changes"]:
            for insert in change["batch"].get("insertRows", []):
                applied.setdefault(insert["row"]["text"], []).append((table, change["version"]))
    twice = [text for text, places in applied.items() if len(places) > 1]
    lost = [(table, text) for table, text, _, _, version in run.acknowledged
            if applied.get(text) != [(table, version)]]
    return applied, lost, twice


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
    through_faults(writers, [run], serve, postgres, tmp_path)
    wait_until(lambda: all(r.request("GET", "/readyz")[0] == 200 for r in run.replicas), "every replica is ready")
    feeds = converged_feeds(run.replicas)

    applied, lost, twice = applied_lost_twice(run, feeds)
    # An attempt answered "not made" was made when its edit's version was
    # acknowledged (to any writer of the table) before that answer came:
    # the retries that followed were all sent after it.
    false_not_made = []
    for table in TABLES:
        answers = sorted((answered, version) for t, _, _, answered, version in run.acknowledged if t == table)
        for t, text, answered in run.not_made:
            place = applied.get(text)
            if t == table and place and any(when < answered and version >= place[0][1] for when, version in answers):
                false_not_made.append(text)
    unknown_made = sum(1 for _, text in run.unknown if text in applied)
    versions = ", ".join(f"{table}={feed['version']}" for table, feed in feeds.items())
    print(f"\njepsen: {len(run.acknowledged)} edits acknowledged, {run.retries} retries with the same key "
          f"({len(run.not_made)} answered not made, {run.outcome_unknown} outcome-unknown, "
          f"{run.lost_connections} connections lost); {len(run.unknown)} unanswered at the end "
          f"({unknown_made} of them made); lost {len(lost)}, applied twice {len(twice)}, "
          f"false not-made {len(false_not_made)}; {run.repeats} sent again after their answer, answered as first; "
          f"versions {versions}")
    for stream in streams:
        table = stream.table
        wait_until(lambda: stream.updates()[-1:] == [feeds[table]["version"]], "every stream reaches the end")
        assert stream.updates() == list(range(1, feeds[table]["version"] + 1)), f"{table}: a stream has a gap"
        stream.close()
    assert len(run.acknowledged) > 100
    assert run.repeats > 10
    assert run.repeats_answered_otherwise == [], run.repeats_answered_otherwise[:5]
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
