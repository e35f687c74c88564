"""`Idempotency-Key` across replicas (docs/API.md, "Idempotency-Key"): the key
is stored with its change in PostgreSQL (a create's or a delete's in a table of
keys of its own), so a retry at another replica — one
that was running, or one started after the change's row was trimmed behind a
snapshot — is answered with the first answer and not made again."""

import json

from support import wait_until
from test_replicas import SEED

EDIT = {"insertRows": [{"at": [0, 0], "row": {"text": "once"}}]}


def replica(serve, postgres, tmp_path, name, *extra):
    data = tmp_path / "tables.json"
    if not data.exists():
        data.write_text(json.dumps(SEED))
    return serve("--database", postgres.url, "--data", str(data), *extra, name=name)


def test_a_retry_at_another_replica_is_answered_as_the_first_and_made_once(serve, postgres, tmp_path):
    a = replica(serve, postgres, tmp_path, "a")
    b = replica(serve, postgres, tmp_path, "b")
    key = {"Idempotency-Key": "across-replicas"}
    status, headers, first = a.request("POST", "/api/tables/t/batch", EDIT, headers=key)
    assert status == 200, first
    version = json.loads(first)["version"]
    status, again_headers, again = b.request("POST", "/api/tables/t/batch", EDIT, headers=key)
    assert (status, again, again_headers["etag"]) == (200, first, headers["etag"])
    other = {"insertRows": [{"at": [0, 0], "row": {"text": "other"}}]}
    status, _, body = b.request("POST", "/api/tables/t/batch", other, headers=key)
    assert status == 422 and json.loads(body)["type"] == "idempotency-key-reused", body
    for server in (a, b):
        assert server.json("/api/tables/t")["version"] == version


def test_a_replica_started_after_the_change_was_trimmed_knows_its_key(serve, postgres, tmp_path):
    a = replica(serve, postgres, tmp_path, "a", "--history", "2", "--snapshot-every", "3")
    key = {"Idempotency-Key": "kept-by-a-snapshot"}
    status, _, first = a.request("POST", "/api/tables/t/batch", EDIT, headers=key)
    assert status == 200, first
    version = json.loads(first)["version"]

    def trimmed():
        # Edit on (each change may start a snapshot) until the keyed change's row is gone.
        assert a.request("POST", "/api/tables/t/sections/0/rows", {"row": {"text": "more"}})[0] == 200
        return postgres.psql("SELECT count(*) FROM webtableview_changes WHERE change LIKE '%kept-by-a-snapshot%'") == "0"
    wait_until(trimmed, "the keyed change is trimmed behind a snapshot")
    latest = a.json("/api/tables/t")["version"]
    b = replica(serve, postgres, tmp_path, "b", "--history", "2", "--snapshot-every", "3")
    status, _, again = b.request("POST", "/api/tables/t/batch", EDIT, headers=key)
    assert (status, again) == (200, first)
    assert json.loads(again)["version"] == version
    assert b.json("/api/tables/t")["version"] == latest


def test_a_create_and_a_delete_retried_at_another_replica_are_made_once(serve, postgres, tmp_path):
    a = replica(serve, postgres, tmp_path, "a")
    b = replica(serve, postgres, tmp_path, "b")
    table = {"id": "made-once", "sections": [{"rows": [{"text": "a"}]}]}
    create = {"Idempotency-Key": "create-once"}
    status, headers, first = a.request("POST", "/api/tables", table, headers=create)
    assert status == 201, first
    status, again_headers, again = b.request("POST", "/api/tables", table, headers=create)
    assert (status, again, again_headers["etag"]) == (201, first, headers["etag"])
    delete = {"Idempotency-Key": "delete-once"}
    assert b.request("DELETE", "/api/tables/made-once", headers=delete)[0] == 204
    # Created again: a repeat of the create or of the delete, at either
    # replica, answers as the first and leaves the new incarnation alone.
    wait_until(lambda: a.request("GET", "/api/tables/made-once")[0] == 404, "a follows the deletion")
    assert a.request("POST", "/api/tables", table)[0] == 201
    assert a.request("DELETE", "/api/tables/made-once", headers=delete)[0] == 204
    status, _, again = b.request("POST", "/api/tables", table, headers=create)
    assert (status, again) == (201, first)
    status, _, body = b.request("POST", "/api/tables", {"id": "other"}, headers=create)
    assert status == 422 and json.loads(body)["type"] == "idempotency-key-reused", body
    for server in (a, b):
        wait_until(lambda: server.request("GET", "/api/tables/made-once")[0] == 200, "the table is followed")
        assert server.json("/api/tables/made-once")["version"] == 0
    assert postgres.psql("SELECT count(*) FROM webtableview_tables WHERE id = 'made-once'") == "1"
    # Deleted again: a repeat of the create still makes no table, at a replica
    # started since too.
    assert a.request("DELETE", "/api/tables/made-once")[0] == 204
    c = replica(serve, postgres, tmp_path, "c")
    for server in (b, c):
        status, _, again = server.request("POST", "/api/tables", table, headers=create)
        assert (status, again) == (201, first)
    assert c.request("DELETE", "/api/tables/made-once", headers=delete)[0] == 204
    assert postgres.psql("SELECT count(*) FROM webtableview_tables WHERE id = 'made-once'") == "0"


def test_a_repeat_while_postgresql_is_down_is_answered_as_the_first(serve, postgres, tmp_path):
    """Issue 44: a repeat of a keyed edit the replica made, sent while PostgreSQL is out of
    reach, was answered 503 storage-unavailable, "so it was not made", though it was made. The
    replica knows the key: the repeat is answered with the first answer, the key with another
    request is 422, and only a new edit is 503, not made."""
    a = replica(serve, postgres, tmp_path, "a")
    edits = [("POST", "/api/tables/t/batch", EDIT),
             ("DELETE", "/api/tables/t/sections/0/rows/0", None),
             ("PUT", "/api/tables/t", {"sections": [{"id": "s", "rows": [{"text": "after"}]}]})]
    firsts = []
    for index, (method, path, body) in enumerate(edits):
        status, headers, first = a.request(method, path, body, headers={"Idempotency-Key": f"outage-{index}"})
        assert status == 200, first
        firsts.append((first, headers["etag"]))
    version = a.json("/api/tables/t")["version"]
    postgres.stop()
    wait_until(lambda: a.request("GET", "/readyz")[0] == 503, "the replica says not ready")
    for index, (method, path, body) in enumerate(edits):
        status, headers, again = a.request(method, path, body, headers={"Idempotency-Key": f"outage-{index}"})
        assert (status, again, headers.get("etag")) == (200, *firsts[index]), (method, path, again)
    status, _, body = a.request("POST", "/api/tables/t/batch", {"insertRows": [{"at": [0, 0], "row": {}}]},
                                headers={"Idempotency-Key": "outage-0"})
    assert status == 422 and json.loads(body)["type"] == "idempotency-key-reused", body
    status, _, body = a.request("POST", "/api/tables/t/batch", EDIT, headers={"Idempotency-Key": "new-in-the-outage"})
    assert status == 503 and json.loads(body)["type"] == "storage-unavailable", body
    assert a.json("/api/tables/t")["version"] == version
