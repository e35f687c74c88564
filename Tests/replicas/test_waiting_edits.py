"""Edits waiting for a frozen PostgreSQL (docs/SCALING.md, "Group commit"): a
bounded number of threads however many wait, a bound on the edits waiting
(503 `overloaded` beyond it), and every waiting edit answered once PostgreSQL
thaws."""

import json
import os
import socket

from support import wait_until
from test_replicas import start_replicas

PER_TABLE = 1_000  # GroupLeaders.Limits.perTable


def threads(server) -> int:
    return len(os.listdir(f"/proc/{server.process.pid}/task"))


def edits_waiting(server) -> int:
    metrics = server.request("GET", "/metrics")[2].decode()
    return int(next(line for line in metrics.splitlines() if line.startswith("webtableview_edits_waiting ")).split()[1])


def send_edit(port: int, table: str, text: str) -> socket.socket:
    """Sends an edit and leaves its answer unread (`Connection: close`)."""
    body = json.dumps({"row": {"text": text}}).encode()
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(
        f"POST /api/tables/{table}/sections/0/rows HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    return connection


def answer_status(connection: socket.socket) -> int:
    connection.settimeout(120)
    data = b""
    while chunk := connection.recv(65536):
        data += chunk
    connection.close()
    return int(data.split(b" ", 2)[1])


def test_1500_edits_wait_on_a_frozen_database_with_few_threads(serve, postgres, tmp_path):
    (replica,) = start_replicas(serve, postgres, tmp_path, 1)
    assert replica.request("POST", "/api/tables", {"id": "u", "sections": [{"rows": []}]})[0] == 201
    assert replica.request("POST", "/api/tables/t/sections/0/rows", {"row": {"text": "warm"}})[0] == 200
    idle = threads(replica)
    postgres.cluster.freeze()
    waiting = []
    try:
        waiting += [send_edit(replica.port, "t", f"t{n}") for n in range(PER_TABLE)]
        waiting += [send_edit(replica.port, "u", f"u{n}") for n in range(1_500 - PER_TABLE)]
        wait_until(lambda: edits_waiting(replica) >= len(waiting), "the replica has every edit", timeout=60)
        # t has as many waiting as it may: one more is refused at once.
        status, headers, body = replica.request("POST", "/api/tables/t/sections/0/rows", {"row": {"text": "over"}})
        assert status == 503 and json.loads(body)["type"] == "overloaded" and "retry-after" in headers
        # Reads still answer from memory.
        assert replica.request("GET", "/api/tables/u", timeout=10)[0] == 200
        # The warm edit started the lead threads: the 1,500 waiting edits hold
        # none (23 threads before and after on the 2-core machine). Spare: the
        # two leaders blocked on the frozen database, and a few threads
        # Dispatch may add beside them.
        assert threads(replica) <= idle + 16, (idle, threads(replica))
    finally:
        postgres.cluster.thaw()
    statuses = [answer_status(connection) for connection in waiting]
    assert statuses == [200] * len(waiting)
    assert replica.json("/api/tables/t")["version"] == 1 + PER_TABLE
    assert replica.json("/api/tables/u")["version"] == 1_500 - PER_TABLE
    assert postgres.psql("SELECT count(*) FROM webtableview_changes") == str(1 + 1_500)


def test_a_frozen_database_is_noticed_and_edits_answer_503(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2)
    postgres.cluster.freeze()
    try:
        # Within the statement deadline plus the follower's poll: not ready.
        wait_until(lambda: a.request("GET", "/readyz")[0] == 503, "the replica notices", timeout=15)
        status, _, body = a.request("POST", "/api/tables/t/sections/0/rows", {"row": {"text": "frozen"}})
        assert status == 503 and json.loads(body)["type"] == "storage-unavailable", body
        assert a.request("GET", "/api/tables/t")[0] == 200
    finally:
        postgres.cluster.thaw()
    wait_until(lambda: all(r.request("GET", "/readyz")[0] == 200 for r in (a, b)), "ready again once it thaws")
    status, _, body = a.request("POST", "/api/tables/t/sections/0/rows", {"row": {"text": "thawed"}})
    assert status == 200, body
    version = json.loads(body)["version"]
    assert b.request("GET", "/api/tables/t", headers={"Min-Version": str(version)})[0] == 200
