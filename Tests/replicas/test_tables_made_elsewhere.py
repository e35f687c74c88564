"""A table created, deleted or re-created through one replica and edited (or
read with Min-Version) through another at once (docs/API.md, "Replicas"): the
other replica asks PostgreSQL before it answers 404, so an edit is made on
the table as it is now, and never on an incarnation that is gone."""

import json

from test_replicas import start_replicas

EMPTY = {"sections": [{"rows": []}]}


def test_an_edit_right_after_a_create_elsewhere_is_made(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2)
    for n in range(40):
        table = f"new{n}"
        assert a.request("POST", "/api/tables", {"id": table, **EMPTY})[0] == 201
        status, _, body = b.request("POST", f"/api/tables/{table}/sections/0/rows", {"row": {"text": "b"}})
        assert (status, json.loads(body).get("version")) == (200, 1), body


def test_a_min_version_read_right_after_a_create_elsewhere_finds_the_table(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2)
    for n in range(40):
        table = f"read{n}"
        assert a.request("POST", "/api/tables", {"id": table, **EMPTY})[0] == 201
        status, _, body = b.request("GET", f"/api/tables/{table}", headers={"Min-Version": "0"})
        assert status == 200, body


def test_an_edit_of_a_table_deleted_elsewhere_is_404_and_changes_nothing(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2)
    for n in range(20):
        table = f"gone{n}"
        assert a.request("POST", "/api/tables", {"id": table, **EMPTY})[0] == 201
        assert b.request("GET", f"/api/tables/{table}", headers={"Min-Version": "0"})[0] == 200
        assert a.request("DELETE", f"/api/tables/{table}")[0] == 204
        status, _, body = b.request("POST", f"/api/tables/{table}/sections/0/rows", {"row": {"text": "late"}})
        assert status == 404 and json.loads(body)["type"] == "not-found", body
        assert b.request("GET", f"/api/tables/{table}")[0] == 404
    assert postgres.psql("SELECT count(*) FROM webtableview_changes") == "0"


def test_an_edit_of_a_table_recreated_elsewhere_goes_to_the_new_one(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2)
    for n in range(20):
        table = f"again{n}"
        assert a.request("POST", "/api/tables", {"id": table, "sections": [{"rows": [{"text": "old"}]}]})[0] == 201
        assert b.request("GET", f"/api/tables/{table}", headers={"Min-Version": "0"})[0] == 200
        assert a.request("DELETE", f"/api/tables/{table}")[0] == 204
        assert a.request("POST", "/api/tables", {"id": table, "sections": [{"rows": [{"text": "new"}]}]})[0] == 201
        status, _, body = b.request("POST", f"/api/tables/{table}/sections/0/rows", {"row": {"text": "b"}})
        assert status == 200, body
        reply = json.loads(body)
        assert reply["version"] == 1
        status, _, body = a.request("GET", f"/api/tables/{table}", headers={"Min-Version": "1"})
        rows = [row["text"] for row in json.loads(body)["sections"][0]["rows"]]
        assert status == 200 and rows == ["new", "b"], rows


def test_a_create_right_after_a_delete_elsewhere_is_made(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2)
    for n in range(20):
        table = f"reborn{n}"
        assert a.request("POST", "/api/tables", {"id": table, **EMPTY})[0] == 201
        assert b.request("GET", f"/api/tables/{table}", headers={"Min-Version": "0"})[0] == 200
        assert a.request("DELETE", f"/api/tables/{table}")[0] == 204
        status, _, body = b.request("POST", "/api/tables", {"id": table, "sections": [{"rows": [{"text": "b"}]}]})
        assert status == 201, body
        status, _, body = a.request("GET", f"/api/tables/{table}", headers={"Min-Version": "0"})
        rows = [row["text"] for row in json.loads(body)["sections"][0]["rows"]]
        assert status == 200 and rows == ["b"], body
        # A table that is there in PostgreSQL too stays 409 at every replica.
        assert a.request("POST", "/api/tables", {"id": table, **EMPTY})[0] == 409
        assert b.request("POST", "/api/tables", {"id": table, **EMPTY})[0] == 409
