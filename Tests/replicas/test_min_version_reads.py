"""Reads with `Min-Version` that the replica cannot answer yet are answered
later (docs/API.md, "Replicas"): no worker thread waits for them, they are
woken when the table reaches the version, and answered `not-caught-up` after
the wait."""

import json
import threading

from support import EventFollower, wait_until
from test_replicas import start_replicas


class Pending:
    """A request on its own thread; `answer` once it came."""

    def __init__(self, replica, path, headers):
        self.answer = None
        self.thread = threading.Thread(target=lambda: setattr(self, "answer", replica.request("GET", path, headers=headers)))
        self.thread.start()

    def result(self):
        self.thread.join(30)
        return self.answer


def test_a_waiting_read_holds_no_worker_thread(serve, postgres, tmp_path):
    (replica,) = start_replicas(serve, postgres, tmp_path, 1, "--threads", "1")
    version = replica.json("/api/tables/t")["version"]
    waiting = [Pending(replica, "/api/tables/t", {"Min-Version": str(version + 50)}) for _ in range(4)]
    # The one worker thread answers other reads meanwhile.
    for _ in range(20):
        assert replica.request("GET", "/api/tables/t/sections")[0] == 200
    assert all(pending.answer is None for pending in waiting)
    for pending in waiting:
        status, headers, body = pending.result()
        assert status == 503 and json.loads(body)["type"] == "not-caught-up" and "retry-after" in headers


def test_a_waiting_read_is_woken_by_the_version_it_asks_for(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2)
    version = b.json("/api/tables/t")["version"]
    read = Pending(b, "/api/tables/t", {"Min-Version": str(version + 1)})
    changes = Pending(b, f"/api/tables/t/changes?since={version}", {"Min-Version": str(version + 1)})
    status, _, body = a.request("POST", "/api/tables/t/sections/0/rows", {"row": {"text": "awaited"}})
    assert status == 200 and json.loads(body)["version"] == version + 1
    status, _, body = read.result()
    assert status == 200 and json.loads(body)["version"] == version + 1
    status, _, body = changes.result()
    assert status == 200 and [c["version"] for c in json.loads(body)["changes"]] == [version + 1]


def test_an_event_stream_waits_for_its_min_version_too(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2)
    version = b.json("/api/tables/t")["version"]
    assert a.request("POST", "/api/tables/t/sections/0/rows", {"row": {"text": "one"}})[0] == 200
    follower = EventFollower(b, "t", since=version, headers={"Min-Version": str(version + 1)})
    wait_until(lambda: follower.updates() == [version + 1], "the stream carries the change it waited for")
    follower.close()
