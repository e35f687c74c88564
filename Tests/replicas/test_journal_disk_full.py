"""A journal write that fails (a full disk; here a file-size limit, RLIMIT_FSIZE,
which needs no root) answers 503 `storage-unavailable`, applies nothing, keeps
reads and event streams going, and edits resume once there is room again,
without a restart (docs/RELIABILITY.md, "If the disk fails while serving")."""

import json
import resource
import threading

from support import JSON

LIMIT = 256 * 1024


def limit_file_size():
    # Soft limit only: the test raises it again with prlimit, as freeing disk space would.
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, resource.RLIM_INFINITY))


def big_batch(start: int) -> dict:
    return {"insertRows": [{"at": [0, 0], "row": {"text": f"row {start} " + "x" * 20_000}}]}


def test_full_disk_answers_503_and_resumes(serve, tmp_path):
    data = tmp_path / "tables.json"
    data.write_text(json.dumps([{"id": "t", "sections": [{"rows": [{"text": "first"}]}]}]))
    journal = tmp_path / "journal"
    server = serve("--data", str(data), "--journal", str(journal), preexec=limit_file_size)

    events = []
    stream_open = threading.Event()

    def follow():
        import http.client
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        connection.request("GET", "/api/tables/t/events", headers={"Last-Event-ID": "0"})
        response = connection.getresponse()
        stream_open.set()
        for line in response:
            if line.startswith(b"id: "):
                events.append(int(line[4:]))
                if events[-1] == 999:
                    break

    threading.Thread(target=follow, daemon=True).start()
    assert stream_open.wait(10)

    acknowledged = 0
    refused = None
    for attempt in range(100):
        status, headers, body = server.request("POST", "/api/tables/t/batch", big_batch(attempt), JSON)
        if status == 200:
            acknowledged = json.loads(body)["version"]
            continue
        refused = (status, headers, json.loads(body))
        break
    assert refused is not None, "the file-size limit was never reached"
    status, headers, problem = refused
    assert status == 503
    assert problem["type"] == "storage-unavailable"
    assert headers["content-type"] == "application/problem+json"
    assert int(headers["retry-after"]) >= 1

    # Nothing applied; reads go on; every other kind of edit is refused the same way.
    table = server.json("/api/tables/t")
    assert table["version"] == acknowledged
    assert len(table["sections"][0]["rows"]) == acknowledged + 1
    for method, path, body in [
        ("PATCH", "/api/tables/t", {"title": "x" * 60_000}),
        ("PUT", "/api/tables/t", {"sections": [{"rows": [{"text": "y" * 60_000}]}]}),
    ]:
        status, _, reply = server.request(method, path, body, JSON)
        assert status == 503, (method, status, reply)
        assert json.loads(reply)["type"] == "storage-unavailable"
    assert server.json("/api/tables/t")["version"] == acknowledged
    assert server.json(f"/api/tables/t/changes?since={acknowledged}")["changes"] == []

    # Room again (as when the disk is freed): edits resume in the same process,
    # versions continue without a gap, and the stream carried every change.
    resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    status, _, body = server.request("POST", "/api/tables/t/batch", big_batch(999), JSON)
    assert status == 200, body
    assert json.loads(body)["version"] == acknowledged + 1
    assert server.process.poll() is None

    from support import wait_until
    wait_until(lambda: events and events[-1] == acknowledged + 1, "the stream got the change after the failure")
    assert events == list(range(1, acknowledged + 2))

    # The journal holds exactly the acknowledged changes.
    before = server.json("/api/tables/t")
    server.stop()
    again = serve("--data", str(data), "--journal", str(journal), name="restarted")
    assert again.json("/api/tables/t") == before
