"""Views followed at one replica while random edits arrive at the others send
the batches a single server sends (docs/API.md, "Views": views are derived
from the table a server holds, so a replica serves them from its own copy).

Several views — a search, filters, sorts with ties and missing values, groups
by text, by number and by section — are followed at replica 0 and at a plain
server (a journal, no database). Each random edit (index batches, moves,
deletes, inserts, rows respelled or reloaded as they were, edits by id,
properties, selections, snapshot PUTs) is made at replica 1 or 2 and sent as it
is to the plain server. A closing property edit changes every view, so each
stream ends at the same version. Then each view's updates at the replica must
be the plain server's, byte for byte, version for version; where one server
followed a run of changes together (a run that derives the views again, or a
snapshot PUT's versions, which a replica reads one by one: docs/API.md
"Views"), the two must still meet at the run's end. A second
stream of one view leaves mid-run and reconnects with `Last-Event-ID`: it gets
exactly the updates the first stream got."""

import json
import os
import random
from urllib.parse import quote

from support import EventFollower, wait_until
from test_random_edits import crash_test
from test_replicas import start_replicas

# make test's run takes seconds; a long one is asked for by VIEW_REPLICA_EDITS.
EDITS = int(os.environ.get("VIEW_REPLICA_EDITS", "400"))
SEED = int(os.environ.get("VIEW_REPLICA_SEED", "20261206"))

# Texts that tie folded but are spelled otherwise, digits as numbers, marks.
PALETTE = ["apple", "Apple", "APPLE", "apple pie", "banana", "Banana", "São Paulo", "sao", "Straße", "strasse",
           "Café", "cafe", "item 2", "Item 10", "item 02", "éclair", "3 Musketeers", ""]
NUMBERS = [-2.25, 0, 1.5, 2, 10, 1000, 1000.0, 12345678901234567890]

VIEWS = [
    "q=apple",
    "sort=text",
    "q=a&sort=-fields.w",
    "group=text&sort=-fields.w",
    "group=-fields.n&sort=text",
    "group=section&sort=fields.n",
    "filter[fields.n][gte]=2&sort=-fields.n",
    "filter[fields.w][ne]=b&sort=fields.n,text",
    "filter[text][prefix]=ap&group=fields.w",
]


def query(view: str) -> str:
    """The view's parameters, brackets escaped as a browser sends them."""
    return "?" + "&".join(quote(name, safe="=.,-") for name in view.split("&"))


def fields(rng: random.Random) -> dict:
    made = {}
    if rng.random() < 0.85:
        made["n"] = rng.choice(NUMBERS)
    if rng.random() < 0.85:
        made["w"] = rng.choice("abc")
    return made


def seed_table(rng: random.Random) -> dict:
    sections = []
    for s, header in enumerate(["Fruit", "Cities", "Items"]):
        rows = [{"id": f"r{s}-{i}", "text": rng.choice(PALETTE), "fields": fields(rng)} for i in range(8)]
        sections.append({"id": f"s{s}", "header": header, "rows": rows})
    return {"id": "t", "title": "Views", "sections": sections}


def random_edit(rng: random.Random, table: dict, serial: int):
    """A request that edits `table`: one of crash-test's (batches, moves,
    deletes, inserts, properties, selections, snapshots), or rows respelled,
    reloaded as they are, swapped, or replaced by id."""
    paths = [(s, r) for s, section in enumerate(table["sections"]) for r in range(len(section["rows"]))]
    kind = rng.random()
    if kind < 0.45 or len(paths) < 2:
        method, path, body = crash_test.random_edit(rng, table, 0, serial)
        if path == "/api/tables" or (method == "DELETE" and path == "/api/tables/t"):
            return "PATCH", "/api/tables/t", {"title": f"title {serial}"}  # the table stays
        return method, path, body
    if kind < 0.65:
        reloads = []
        for s, r in rng.sample(paths, min(len(paths), rng.randint(1, 3))):
            row = dict(table["sections"][s]["rows"][r])
            if rng.random() < 0.6:
                spell = rng.choice([str.upper, str.lower, str.capitalize])
                row["text"] = spell(row.get("text", ""))
            reloads.append({"at": [s, r], "row": row})
        return "POST", "/api/tables/t/batch", {"reloadRows": reloads}
    if kind < 0.80:
        at = rng.randrange(len(paths) - 1)
        a, b = list(paths[at]), list(paths[at + 1])
        return "POST", "/api/tables/t/batch", {"moveRows": [{"from": a, "to": b}, {"from": b, "to": a}]}
    ids = [row["id"] for section in table["sections"] for row in section["rows"] if "id" in row]
    if not ids:
        return crash_test.random_edit(rng, table, 0, serial)
    return "PUT", f"/api/tables/t/items/{rng.choice(ids)}", {"text": rng.choice(PALETTE), "fields": fields(rng)}


def updates(follower: EventFollower) -> list[dict]:
    return [json.loads(data) for name, _, data in follower.events if name == "update"]


def compare(view: str, expected: list[dict], got: list[dict]) -> tuple[int, int]:
    """Checks the replica's updates against the plain server's; answers how
    many were the same and how many runs one of them followed together."""
    ends = ({0} | {u["version"] for u in expected}) & ({0} | {u["version"] for u in got})
    same, together = 0, 0
    runs = ([], [])
    queues = [list(expected), list(got)]
    while queues[0] or queues[1]:
        for k in (0, 1):
            runs[k].clear()
            while queues[k]:
                runs[k].append(queues[k].pop(0))
                if runs[k][-1]["version"] in ends:
                    break
        assert runs[0] and runs[1], f"{view}: one stream has updates the other has not: {runs}"
        assert runs[0][-1]["version"] == runs[1][-1]["version"], f"{view}: the streams part at {runs}"
        if len(runs[0]) == len(runs[1]) == 1:
            assert runs[0] == runs[1], f"{view}: at version {runs[0][0]['version']}:\n{runs[0]}\n{runs[1]}"
            same += 1
        else:
            together += 1
    return same, together


def test_views_followed_at_a_replica_send_a_single_servers_batches(serve, postgres, tmp_path):
    rng = random.Random(SEED)
    (tmp_path / "tables.json").write_text(json.dumps([seed_table(rng)]))
    replicas = start_replicas(serve, postgres, tmp_path, 3)
    reference = serve("--data", str(tmp_path / "tables.json"), "--journal", str(tmp_path / "journal"),
                      "--history", "100000", name="reference")
    follower, editors = replicas[0], replicas[1:]
    followed = {view: (EventFollower(reference, "t", query=query(view)), EventFollower(follower, "t", query=query(view)))
                for view in VIEWS}
    leaving = EventFollower(follower, "t", query=query(VIEWS[3]))
    parts = []
    version = 0
    derived = 0
    try:
        for serial in range(EDITS):
            status, _, body = follower.request("GET", "/api/tables/t", headers={"Min-Version": str(version)})
            assert status == 200, body
            method, path, edit = random_edit(rng, json.loads(body), serial)
            made = rng.choice(editors).request(method, path, edit)
            expected = reference.request(method, path, edit)
            assert (made[0], made[2]) == (expected[0], expected[2]), (serial, method, path, edit)
            derived += method == "PUT" and path == "/api/tables/t"
            version = reference.json("/api/tables/t")["version"]
            if serial == EDITS // 3:  # fewer updates missed than a view keeps (64)
                wait_until(lambda: updates(leaving) == updates(followed[VIEWS[3]][1]), "the leaving stream is even")
                leaving.close()
                parts.append(updates(leaving))
            if serial == min(EDITS // 3 + 20, EDITS - 1):
                since = parts[0][-1]["version"] if parts[0] else 0
                leaving = EventFollower(follower, "t", since=since, query=query(VIEWS[3]))
        # A property every view carries: each view's last update is at this version, on both servers.
        fence = {"title": "fence"}
        assert rng.choice(editors).request("PATCH", "/api/tables/t", fence)[0] == 200
        assert reference.request("PATCH", "/api/tables/t", fence)[0] == 200
        version = reference.json("/api/tables/t")["version"]
        for view, streams in followed.items():
            for stream in streams:
                wait_until(lambda: stream.updates()[-1:] == [version], f"{view}: the stream reaches the fence")

        totals = [0, 0, 0]
        for view, (expected, got) in followed.items():
            same, together = compare(view, updates(expected), updates(got))
            totals[0] += same
            totals[1] += together
            totals[2] += len(updates(got))
            # The reads agree too (a view of a field no row has left is 400 on both).
            read = follower.request("GET", f"/api/tables/t{query(view)}", headers={"Min-Version": str(version)})
            answer = reference.request("GET", f"/api/tables/t{query(view)}")
            assert (read[0], read[2]) == (answer[0], answer[2]), view
        wait_until(lambda: leaving.updates()[-1:] == [version], "the reconnected stream reaches the fence")
        assert parts[0] + updates(leaving) == updates(followed[VIEWS[3]][1])
        print(f"random views: {EDITS} edits ({derived} snapshots) to version {version}, {len(VIEWS)} views, "
              f"{totals[2]} updates at the replica, {totals[0]} the same as the plain server's, "
              f"{totals[1]} runs followed together by one of them")
        # Most updates are single versions on both servers, compared byte for byte.
        assert totals[0] > totals[2] // 2
    finally:
        for streams in followed.values():
            for stream in streams:
                stream.close()
        leaving.close()
