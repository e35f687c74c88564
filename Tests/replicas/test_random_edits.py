"""Random edits across three replicas, judged by a single server (docs/SCALING.md,
"What it guarantees"). Each edit — index batches, moves, deletes, inserts,
property changes, selections, snapshot PUTs, new tables; some meant to be
refused — is made against the table as read from a random replica with
`Min-Version`, sent to another random replica, and sent as it is to a plain
server (no database) whose batch engine is the one the property tests hold to
UIKit's rules. Every answer must be the plain server's, status and body, and
every replica must then hold the plain server's table."""

import importlib.util
import json
import random

from support import ROOT
from test_replicas import start_replicas

EDITS = 1000

spec = importlib.util.spec_from_file_location("crash_test", ROOT / "scripts" / "crash-test.py")
crash_test = importlib.util.module_from_spec(spec)
spec.loader.exec_module(crash_test)


def test_random_edits_at_random_replicas_answer_as_one_server(serve, postgres, tmp_path):
    replicas = start_replicas(serve, postgres, tmp_path, 3)
    reference = serve("--data", str(tmp_path / "tables.json"), "--history", "100000", name="reference")
    rng = random.Random(20261127)
    version = 0
    statuses = {}
    sent = 0
    for serial in range(EDITS):
        status, _, body = rng.choice(replicas).request("GET", "/api/tables/t", headers={"Min-Version": str(version)})
        assert status == 200, body
        table = json.loads(body)
        assert table["version"] >= version
        method, path, edit = crash_test.random_edit(rng, table, 0, serial)
        if method == "DELETE" and path == "/api/tables/t":
            continue  # the table stays; deletions elsewhere are test_tables_made_elsewhere's
        replica = rng.choice(replicas)
        made = replica.request(method, path, edit)
        expected = reference.request(method, path, edit)
        assert (made[0], made[2]) == (expected[0], expected[2]), (method, path, edit)
        statuses[made[0]] = statuses.get(made[0], 0) + 1
        sent += 1
        version = reference.json("/api/tables/t")["version"]

    served = reference.json("/api/tables")
    for replica in replicas:
        for summary in served["tables"]:
            path = f"/api/tables/{summary['id']}"
            status, _, body = replica.request("GET", path, headers={"Min-Version": str(summary["version"])})
            assert status == 200, (replica.url, path, body)
            assert body == reference.request("GET", path)[2], (replica.url, path)
    print(f"random edits: {sent} sent, answers by status {dict(sorted(statuses.items()))}, "
          f"table t at version {version}, {len(served['tables'])} tables alike on 3 replicas")
    # Most edits are made, and the refusals the generator means are refused alike.
    assert statuses.get(200, 0) + statuses.get(201, 0) > sent // 2
    assert sum(count for status, count in statuses.items() if status >= 400) > 0
