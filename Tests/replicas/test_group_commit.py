"""The group commit of a table's edits through PostgreSQL (docs/SCALING.md,
"Group commit"): edits that arrive while a commit of their table is in flight
are validated against the table as the edits before them leave it (If-Match
too), committed together in one transaction, and answered only after it; when
that commit fails, none of them is acknowledged or applied anywhere.

To hold a commit in flight, the tests lock the table's row from a psql session:
the replica's commit then waits for that lock in PostgreSQL."""

import json
import re
import subprocess
import threading

from support import wait_until
from test_replicas import converged, start_replicas


class RowLock:
    """A psql session holding table `t`'s row lock until `release()`."""

    def __init__(self, postgres):
        self.process = subprocess.Popen(["psql", "-qAtX", postgres.url], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.send("BEGIN; SELECT 'locked' FROM webtableview_tables WHERE id = 't' FOR UPDATE;")
        assert self.process.stdout.readline().strip() == "locked"

    def send(self, sql):
        self.process.stdin.write(sql + "\n")
        self.process.stdin.flush()

    def release(self):
        if self.process.poll() is None:
            self.send("ROLLBACK;")
            self.process.stdin.close()
            self.process.wait(timeout=30)


class Edit(threading.Thread):
    """One edit sent to `replica` on its own thread; `answer` is (status, headers, JSON body)."""

    def __init__(self, replica, text, if_match=None):
        super().__init__(daemon=True)
        self.replica, self.text, self.if_match = replica, text, if_match
        self.answer = None
        self.start()

    def run(self):
        headers = {"If-Match": self.if_match} if self.if_match else {}
        status, reply_headers, body = self.replica.request(
            "POST", "/api/tables/t/batch", {"insertRows": [{"at": [0, 0], "row": {"text": self.text}}]}, headers)
        self.answer = (status, reply_headers, json.loads(body))


def waiting_commits(postgres):
    """How many of the replicas' statements wait for a lock in PostgreSQL."""
    return int(postgres.psql(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'webtableview' AND wait_event_type = 'Lock'"))


def answered(replica, path):
    """GET `path`, tried again on a fresh connection when no answer comes within
    2 s (an edit waiting for its commit holds no worker thread, but a slow
    machine may be slow)."""
    for _ in range(30):
        try:
            return replica.request("GET", path, timeout=2)
        except TimeoutError:
            continue
    raise AssertionError(f"no answer to GET {path}")


def in_flight(replica):
    """Requests the replica received and has not answered, this one included."""
    _, _, body = answered(replica, "/metrics")
    return int(re.search(rb"^http_requests_in_flight (\d+)$", body, re.MULTILINE).group(1))


def edits_in_groups(replica):
    """Edits the replica validated and queued in their table's group commit,
    or in the commit in flight (`webtableview_edits_in_groups`)."""
    _, _, body = answered(replica, "/metrics")
    return int(re.search(rb"^webtableview_edits_in_groups (\d+)$", body, re.MULTILINE).group(1))


def wait_until_queued(replica, edits):
    """Waits until `edits` edits are queued in the group commit: an edit whose
    request a worker thread reads late (CI's loaded machine), queued once the
    commit in flight ended, would join the group after the next."""
    wait_until(lambda: edits_in_groups(replica) == edits, "every edit is queued in the group commit")


def queue_behind_a_held_commit(postgres, a, count, if_match=()):
    """Locks the row, sends one edit (its commit then waits for the lock), then
    `count` more, one at a time, each once the one before is in flight, the
    first ones with the If-Match values given: answers (lock, first, [queued])."""
    lock = RowLock(postgres)
    first = Edit(a, "first")
    wait_until(lambda: waiting_commits(postgres) == 1, "the first edit's commit waits for the row lock")
    queued = []
    for index in range(count):
        queued.append(Edit(a, f"queued {index}", if_match[index] if index < len(if_match) else None))
        wait_until(lambda: in_flight(a) == index + 3, "the edit is queued")
    wait_until_queued(a, count + 1)
    return lock, first, queued


def test_edits_queued_behind_a_commit_commit_together_validated_on_the_tip(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2, "--threads", "16")
    version = a.json("/api/tables/t")["version"]
    # Queued behind the first edit (version + 1, not committed yet): If-Match
    # is judged against the table as the first edit leaves it.
    lock, first, queued = queue_behind_a_held_commit(
        postgres, a, 6, if_match=[f'"{version + 1}"', f'"{version}"'])
    # Nothing is answered, applied or visible while the commit waits.
    assert all(edit.answer is None for edit in [first, *queued])
    assert json.loads(answered(a, "/api/tables/t")[2])["version"] == version
    lock.release()
    for edit in [first, *queued]:
        edit.join(30)

    assert first.answer[0] == 200 and first.answer[2]["version"] == version + 1
    on_tip, stale, *others = queued
    assert on_tip.answer[0] == 200 and on_tip.answer[2]["version"] == version + 2
    assert stale.answer[0] == 412, stale.answer
    assert all(edit.answer[0] == 200 for edit in others), [edit.answer for edit in others]
    versions = sorted(edit.answer[2]["version"] for edit in [on_tip, *others])
    assert versions == list(range(version + 2, version + 7))
    # The five queued changes were committed in one transaction, the first edit in its own.
    assert postgres.psql(
        f"SELECT count(DISTINCT xmin::text) FROM webtableview_changes WHERE version > {version + 1}") == "1"
    assert postgres.psql(
        f"SELECT count(DISTINCT xmin::text) FROM webtableview_changes WHERE version > {version}") == "2"

    table, feed = converged([a, b])
    assert table["version"] == version + 6
    by_version = {change["version"]: change["batch"] for change in feed["changes"]}
    for edit in [first, on_tip, *others]:
        assert by_version[edit.answer[2]["version"]] == edit.answer[2]["batch"]
    assert [row["text"] for row in table["sections"][0]["rows"][:6]] == [
        by_version[v]["insertRows"][0]["row"]["text"] for v in range(version + 6, version, -1)]


def test_a_failed_group_commit_acknowledges_and_applies_nothing(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2, "--threads", "16")
    version = a.json("/api/tables/t")["version"]
    before = a.request("GET", "/api/tables/t")[2]
    lock, first, queued = queue_behind_a_held_commit(postgres, a, 5, if_match=[f'"{version + 1}"'])
    # The commit in flight fails: its connection is cut while it waits.
    assert postgres.psql(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
        " WHERE application_name = 'webtableview' AND wait_event_type = 'Lock'") == "1"
    for edit in [first, *queued]:
        edit.join(30)
    lock.release()

    # The first edit and every edit queued behind it (validated on top of it) failed.
    for edit in [first, *queued]:
        status, headers, body = edit.answer
        assert status == 503 and body["type"] == "storage-unavailable" and "retry-after" in headers, edit.answer
    assert postgres.psql(f"SELECT count(*) FROM webtableview_changes WHERE version > {version}") == "0"
    for replica in (a, b):
        assert replica.request("GET", "/api/tables/t")[2] == before
    # The next edit takes the next version, on both replicas, and nothing else appears.
    status, _, body = a.request("POST", "/api/tables/t/batch", {"insertRows": [{"at": [0, 0], "row": {"text": "after"}}]})
    assert status == 200 and json.loads(body)["version"] == version + 1
    table, feed = converged([a, b])
    assert table["version"] == version + 1
    assert [change["version"] for change in feed["changes"]][-1:] == [version + 1]
    assert table["sections"][0]["rows"][0]["text"] == "after"
    assert all(row["text"] not in ("first", *(f"queued {i}" for i in range(5))) for row in table["sections"][0]["rows"])


def test_edits_from_connections_on_one_worker_thread_commit_in_one_group(serve, postgres, tmp_path):
    # One worker thread serves every connection: an edit waiting for its
    # commit does not hold it (its connection is suspended), so the thread
    # takes the next edits, which queue behind the commit, and answers reads.
    a, b = start_replicas(serve, postgres, tmp_path, 2, "--threads", "1")
    version = a.json("/api/tables/t")["version"]
    lock = RowLock(postgres)
    first = Edit(a, "first")
    wait_until(lambda: waiting_commits(postgres) == 1, "the first edit's commit waits for the row lock")
    queued = [Edit(a, f"queued {index}") for index in range(5)]
    wait_until(lambda: in_flight(a) == 7, "every edit waits, and /metrics is answered meanwhile")
    wait_until_queued(a, 6)
    # A read on that same thread is answered at once, from the committed table.
    status, _, body = a.request("GET", "/api/tables/t", timeout=10)
    assert status == 200 and json.loads(body)["version"] == version
    assert all(edit.answer is None for edit in [first, *queued])
    lock.release()
    for edit in [first, *queued]:
        edit.join(30)

    assert first.answer[0] == 200 and first.answer[2]["version"] == version + 1
    assert sorted(edit.answer[2]["version"] for edit in queued) == list(range(version + 2, version + 7))
    assert all(edit.answer[0] == 200 for edit in queued), [edit.answer for edit in queued]
    # The five edits queued behind the first committed in one transaction.
    assert postgres.psql(
        f"SELECT count(DISTINCT xmin::text) FROM webtableview_changes WHERE version > {version + 1}") == "1"
    table, _ = converged([a, b])
    assert table["version"] == version + 6
