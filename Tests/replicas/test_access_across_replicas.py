"""Access per table across replicas (docs/ACCESS.md, "Replicas"): replicas
given the same policy file and JWT secret answer every requester alike, a
token verified at one replica is honoured at the others, and a bound reader
follows its own view live at one replica while an editor writes through
another."""

import base64
import hashlib
import hmac
import json
import time

from support import JSON, EventFollower, wait_until
from test_replicas import start_replicas

SECRET = "a secret of the replica access tests, 32 bytes or more"
AUDIENCE = "webtableview"
EDIT_TOKEN = "edit-token-of-the-replica-access-tests"

POLICY = {
    "anonymous": "none",
    "rules": [
        {"tables": ["tasks"], "role": "member", "rows": "filter[fields.owner]={sub}", "right": "read"},
        {"tables": ["tasks"], "role": "editor", "right": "edit"},
    ],
}

TASKS = [{"id": "tasks", "sections": [{"id": "open", "rows": [
    {"id": "t1", "text": "Task 1", "fields": {"owner": "ana"}},
    {"id": "t2", "text": "Task 2", "fields": {"owner": "bob"}},
    {"id": "t3", "text": "Task 3", "fields": {"owner": "ana"}},
]}]}]


def encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(sub: str, roles: list[str], expires_in: int = 3600) -> str:
    """An HS256 JWT (RFC 7519) signed with the replicas' secret."""
    header = encode(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = {"sub": sub, "roles": roles, "aud": AUDIENCE, "exp": int(time.time()) + expires_in}
    payload = encode(json.dumps(claims).encode())
    signature = hmac.new(SECRET.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{encode(signature)}"


def bearer(value: str) -> dict:
    return {"Authorization": f"Bearer {value}"}


def start(serve, postgres, tmp_path, count):
    (tmp_path / "policy.json").write_text(json.dumps(POLICY))
    (tmp_path / "secret").write_text(SECRET)
    (tmp_path / "token").write_text(EDIT_TOKEN)
    (tmp_path / "tasks.json").write_text(json.dumps(TASKS))
    return start_replicas(serve, postgres, tmp_path, count, "--data", str(tmp_path / "tasks.json"),
                          "--access-policy", str(tmp_path / "policy.json"),
                          "--jwt-secret-file", str(tmp_path / "secret"), "--jwt-audience", AUDIENCE,
                          "--token-file", str(tmp_path / "token"))


def row_ids(replica, headers) -> list[str]:
    status, _, body = replica.request("GET", "/api/tables/tasks/sections/0/rows", headers=headers)
    assert status == 200, body
    return [row["id"] for row in json.loads(body)["rows"]]


def test_every_replica_answers_every_requester_alike(serve, postgres, tmp_path):
    replicas = start(serve, postgres, tmp_path, 3)
    ana, editor = bearer(token("ana", ["member"])), bearer(token("ed", ["editor"]))
    forged = bearer(token("ed", ["editor"])[:-2] + "AA")
    for replica in replicas:
        status, headers, body = replica.request("GET", "/api/tables/tasks")
        assert status == 401 and headers["www-authenticate"].startswith("Bearer "), body
        assert replica.request("GET", "/api/tables/tasks", headers=forged)[0] == 401
        assert row_ids(replica, ana) == ["t1", "t3"]
        assert row_ids(replica, editor) == ["t1", "t2", "t3"]
        status, _, body = replica.request("DELETE", "/api/tables/tasks", headers=editor)
        assert status == 403 and json.loads(body)["type"] == "missing-right", body
        assert replica.request("GET", "/metrics", headers=bearer(EDIT_TOKEN))[0] == 200
    # An edit through one replica by a token, refused for a reader at another.
    status, _, body = replicas[0].request("POST", "/api/tables/tasks/sections/0/rows",
                                          {"row": {"id": "t4", "text": "Task 4", "fields": {"owner": "ana"}}},
                                          headers={**editor, **JSON})
    assert status == 200, body
    status, _, body = replicas[1].request("POST", "/api/tables/tasks/sections/0/rows",
                                          {"row": {"text": "not allowed"}}, headers={**ana, **JSON})
    assert status == 403 and json.loads(body)["type"] == "missing-right", body
    for replica in replicas:
        wait_until(lambda: row_ids(replica, ana) == ["t1", "t3", "t4"], "the edit reaches every replica")


def test_a_bound_reader_follows_its_view_at_one_replica_while_an_editor_writes_through_another(
        serve, postgres, tmp_path):
    writer, reader = start(serve, postgres, tmp_path, 2)
    ana, editor = bearer(token("ana", ["member"])), bearer(token("ed", ["editor"]))
    status, _, body = reader.request("GET", "/api/tables/tasks", headers=ana)
    assert status == 200, body
    follower = EventFollower(reader, "tasks", since=json.loads(body)["version"], headers=ana)
    try:
        # bob's row changes: ana's view does not, and her stream says nothing of it.
        status, _, body = writer.request("PATCH", "/api/tables/tasks/items/t2", {"text": "Task 2, bob's"},
                                         headers={**editor, **JSON})
        assert status == 200, body
        # A row of ana's changes: her stream sends it, in her view's index paths.
        status, _, body = writer.request("PATCH", "/api/tables/tasks/items/t3", {"text": "Task 3, edited"},
                                         headers={**editor, **JSON})
        assert status == 200, body
        wait_until(lambda: any(name == "update" for name, _, _ in follower.events),
                   "ana's stream carries the edit of her row")
        updates = [json.loads(data) for name, _, data in follower.events if name == "update"]
        assert len(updates) == 1, updates
        assert "Task 3, edited" in json.dumps(updates)
        assert "Task 2" not in json.dumps(updates) and "bob" not in json.dumps(updates)
        assert row_ids(reader, ana) == ["t1", "t3"]
    finally:
        follower.close()
