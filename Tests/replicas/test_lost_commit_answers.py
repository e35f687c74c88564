"""A commit whose answer is lost with its connection (docs/SCALING.md, "When a
commit's answer is lost"): the replica finds out on a new connection whether
it committed and answers the truth; only when it cannot find out does it
answer 503 `outcome-unknown`, never "not made" for an edit that was made."""

import json
import time

import pytest

from support import CuttingProxy, wait_until
from test_replicas import SEED

ROW = "/api/tables/t/sections/0/rows"


@pytest.fixture
def proxied(serve, postgres, tmp_path):
    """A replica that reaches PostgreSQL through a `CuttingProxy`: (proxy, replica)."""
    proxy = CuttingProxy(postgres.cluster.port)
    data = tmp_path / "tables.json"
    data.write_text(json.dumps(SEED))
    # One edit connection: the marker's statement is prepared on it by the
    # first edit, so later ones send only its name (in a Bind message).
    replica = serve("--database", proxy.url(postgres.url), "--data", str(data), "--database-connections", "1")
    assert replica.request("POST", ROW, {"row": {"text": "warm"}})[0] == 200
    yield proxy, replica
    proxy.stop()


def texts(postgres):
    return postgres.psql("SELECT change FROM webtableview_changes ORDER BY version")


def test_an_edit_whose_commit_answer_is_lost_is_answered_made(proxied, postgres):
    proxy, replica = proxied
    for n in range(3):
        # A new connection prepares the statement first (its name is in
        # that message too): once, before the proxy is armed.
        assert replica.request("POST", ROW, {"row": {"text": f"warm {n}"}})[0] == 200
        proxy.arm(b"compare_and_append_1\x00")
        status, _, body = replica.request("POST", ROW, {"row": {"text": f"lost answer {n}"}})
        assert proxy.cuts == n + 1
        assert status == 200, body
        assert texts(postgres).count(f"lost answer {n}") == 1
    # The table on the replica holds each once, at the versions answered.
    rows = [row["text"] for row in replica.json("/api/tables/t")["sections"][0]["rows"]]
    assert [text for text in rows if text.startswith("lost answer")] == [f"lost answer {n}" for n in range(3)]


def test_a_create_whose_commit_answer_is_lost_is_answered_made(proxied, postgres):
    proxy, replica = proxied
    proxy.arm(b"COMMIT\x00")
    status, _, body = replica.request("POST", "/api/tables", {"id": "lost", "sections": [{"rows": []}]})
    assert proxy.cuts == 1
    assert status == 201, body
    assert postgres.psql("SELECT count(*) FROM webtableview_tables WHERE id = 'lost'") == "1"
    assert replica.request("GET", "/api/tables/lost")[0] == 200


def test_when_it_cannot_find_out_it_says_so(proxied, postgres):
    proxy, replica = proxied
    proxy.arm(b"compare_and_append_1\x00")
    proxy.refusing = True
    started = time.monotonic()
    status, headers, body = replica.request("POST", ROW, {"row": {"text": "unknown"}}, timeout=60)
    assert proxy.cuts == 1
    assert status == 503 and json.loads(body)["type"] == "outcome-unknown", body
    assert "retry-after" in headers
    assert time.monotonic() - started < 15
    # It was in fact committed: "not made" would have been false.
    assert texts(postgres).count("unknown") == 1
    proxy.refusing = False
    wait_until(lambda: replica.request("GET", "/readyz")[0] == 200, "the replica is ready again")
    wait_until(lambda: "unknown" in [row["text"] for row in replica.json("/api/tables/t")["sections"][0]["rows"]],
               "the replica follows the commit")
