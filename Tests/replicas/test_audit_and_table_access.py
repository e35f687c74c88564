"""Audit and a table's own access across replicas (docs/ACCESS.md, "Audit"
and "Access per table"): a table's `access` made through one replica is
honoured by another once it holds the table's version, the actor of a
change made through one is on every replica's feed for admins only, and
`webtableview audit --database` prints it."""

import json
import subprocess
from pathlib import Path

from support import BINARY
from test_replicas import start_replicas

ACCESS = Path(__file__).resolve().parents[2] / "docs" / "access"

POLICY_ARGS = ("--access-policy", str(ACCESS / "policy.json"), "--jwt-secret-file", str(ACCESS / "jwt-secret.txt"),
               "--jwt-audience", "webtableview", "--token-file", str(ACCESS / "edit-token.txt"))
# docs/ACCESS.md's tokens, signed with docs/access/jwt-secret.txt, expiring in 2100.
ANA = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbmEiLCJleHAiOjQxMDI0NDQ4MDAsImF1ZCI6IndlYnRhYmxldmlldyJ9."
       "YOnQtb3kL0JHJ-c5k8SeWFTc52IoNE0Epe06CiJL7Eg")
OPS = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJvcHMtYm90IiwidGVhbSI6Im9wcyIsImV4cCI6NDEwMjQ0NDgwMCwiYXVkIjoid2"
       "VidGFibGV2aWV3In0.LxQ7D4Y_dwuWUgZZ6QqKH9gAxlWA4dtZAsTAQzvd8yE")


def bearer(token, version=None):
    headers = {"Authorization": f"Bearer {token}", "Host": "127.0.0.1"}
    if version is not None:
        headers["Min-Version"] = str(version)
    return headers


def test_a_tables_access_and_its_changes_actors_are_the_same_at_every_replica(serve, postgres, tmp_path):
    a, b = start_replicas(serve, postgres, tmp_path, 2, *POLICY_ARGS)
    admin = "example-edit-token"
    table = {"id": "team-x", "access": {"rules": [{"sub": "ana", "right": "edit"}]},
             "sections": [{"rows": [{"id": "r", "text": "R"}]}]}
    assert a.request("POST", "/api/tables", table, headers=bearer(admin))[0] == 201
    # b holds the table's version 0: the table's own rule lets ana edit there.
    assert b.request("GET", "/api/tables/team-x", headers=bearer(admin, 0))[0] == 200
    status, _, body = b.request("POST", "/api/tables/team-x/items/r/select", headers=bearer(ANA))
    assert status == 200, body
    for replica in (a, b):
        status, _, body = replica.request("GET", "/api/tables/team-x/changes?since=0", headers=bearer(OPS, 1))
        assert status == 200, body
        assert [change.get("actor") for change in json.loads(body)["changes"]] == ["ana"]
        status, _, body = replica.request("GET", "/api/tables/team-x/changes?since=0", headers=bearer(ANA, 1))
        assert [change.get("actor") for change in json.loads(body)["changes"]] == [None]
        assert "access" not in json.loads(replica.request("GET", "/api/tables/team-x", headers=bearer(ANA))[2])
        shown = json.loads(replica.request("GET", "/api/tables/team-x", headers=bearer(OPS))[2])
        assert shown["access"] == table["access"]
    # An admin's snapshot through b takes ana's right away at a, once a holds it.
    closed = {"id": "team-x", "access": {"rules": []}, "sections": [{"rows": [{"id": "r", "text": "R"}]}]}
    status, _, body = b.request("PUT", "/api/tables/team-x", closed, headers=bearer(OPS))
    assert status == 200, body
    version = json.loads(body)["version"]
    assert a.request("GET", "/api/tables/team-x", headers=bearer(OPS, version))[0] == 200
    assert a.request("GET", "/api/tables/team-x", headers=bearer(ANA))[0] == 403
    trail = subprocess.run([BINARY, "audit", "team-x", "--database", postgres.url], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    assert trail[0].split("\t")[2:] == ["ana", "reloaded 1 row"], trail
    assert trail[-1].split("\t")[2] == "ops-bot", trail
