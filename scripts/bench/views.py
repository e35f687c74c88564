"""Live views over HTTP (issue 31): the server's CPU for a one-row edit of a large table while
many different views of it are followed by event streams, and the memory an open view takes."""
import json
import os
import random
import re
import selectors
import socket
import statistics
import threading
import time

import tables
from procs import SETTLE_S, Server, http

STATES = [f"S{i}" for i in range(50)]


def queries(count):
    """`count` different views, as `ModelBench views` opens them: a state each (2 % of the rows),
    and one of four shapes in turn."""
    shapes = ["sort=fields.pop", "sort=-text", "group=fields.pop&sort=text", None]
    result = []
    for index in range(count):
        state = STATES[(index // 4) % len(STATES)]
        shape = shapes[index % 4]
        result.append(f"filter%5Bfields.state%5D={state}&{shape}" if shape else f"q={state}")
    return result


class Streams:
    """Event streams of views of one table, held open and read by one thread."""

    def __init__(self, port, table, queries):
        self.selector = selectors.DefaultSelector()
        self.received = 0
        for query in queries:
            stream = socket.create_connection(("127.0.0.1", port))
            stream.sendall(f"GET /api/tables/{table}/events?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           "Accept: text/event-stream\r\n\r\n".encode())
            # The answer's head comes at once; the view opens on its table's view queue
            # (`held_views` says when).
            head = stream.recv(65536)
            assert head.startswith(b"HTTP/1.1 200"), head[:200]
            stream.setblocking(False)
            self.selector.register(stream, selectors.EVENT_READ)
        self.running = True
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        while self.running:
            for key, _ in self.selector.select(0.1):
                self.received += len(key.fileobj.recv(1 << 20))

    def close(self):
        self.running = False
        self.thread.join()
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


def open_streams_and_views(port):
    """`http_event_streams_open` and `webtableview_views_open` (None where the server has no such
    gauge) of /metrics."""
    text = http(port, "GET", "/metrics")[2].decode()
    found = {name: int(value) for name, value in re.findall(r"^(\w+) (\d+)$", text, re.MULTILINE)}
    return found["http_event_streams_open"], found.get("webtableview_views_open")


def held_views(port):
    """The views the server holds, rows and all: `webtableview_views_held`, or
    `webtableview_views_open` where the server has no such gauge (it then held the views streams
    follow, opened before their streams were answered)."""
    text = http(port, "GET", "/metrics")[2].decode()
    found = {name: int(value) for name, value in re.findall(r"^(\w+) (\d+)$", text, re.MULTILINE)}
    return found.get("webtableview_views_held", found["webtableview_views_open"])


def wait_for(predicate, limit_s, every_s=0.05):
    """Waits until `predicate()` holds, asked every `every_s`, at most `limit_s`; answers the
    seconds waited."""
    start = time.monotonic()
    while not predicate() and time.monotonic() < start + limit_s:
        time.sleep(every_s)
    return time.monotonic() - start


def measure(tools, rows, count, edits):
    """A `rows`-row table (`{"id", "text", "fields": {"state", "pop"}}`) served alone; `edits`
    one-row edits (`PUT` of a row: a new population, every fourth a new state too) with no view
    open, then with `count` views followed (one stream each), then with the streams closed — once
    the server has let the views go: what that takes, from the close until no stream and no view
    is open, is measured apart (`close_ms`, server CPU, mostly the views' rows freed;
    `close_wait_ms`). Answers the server's CPU per edit each time (`quiet_us`, `watched_us`,
    `closed_us`), what the views add (against the edits before they opened), and the resident
    memory they take.
    Beside them, the same for rows inserted in the middle of the section (each deleted again,
    as many deletes as inserts) and for rows moved within it (each moved back): what the views
    add per such edit (`insert_views_us`, `move_views_us`), over a tenth as many edits. Before
    any view is open, the first page of 40 different searches (`search_json_us`,
    `search_html_us`, median server CPU), after the table's first search since it was loaded
    (`search_first_us`); with the views open and nothing edited, the server's CPU a second
    (`idle_views_us_per_s`)."""
    generator = random.Random(rows)
    states = [generator.choice(STATES) for _ in range(rows)]
    path = os.path.join(tools.work, "views.json")
    tables.write(path, [{"id": "views", "sections": [{"id": "s", "rows": [
        {"id": f"r{i}", "text": f"Row {i}", "fields": {"state": states[i], "pop": generator.randrange(1000)}}
        for i in range(rows)]}]}])
    server = Server("webtableview", tools.serve("--data", path))
    try:
        def post(path, body):
            status = http(server.port, "POST", path, body=json.dumps(body),
                          headers={"Content-Type": "application/json"})[0]
            assert status in (200, 201), status

        def shifting(kind):
            """One-row edits that shift the rows after them, in pairs that leave the table as it was."""
            pairs = max(2, edits // 20)
            before = server.cpu_us()
            for _ in range(pairs):
                index = rows // 4 + generator.randrange(rows // 2)
                if kind == "insert":
                    post("/api/tables/views/sections/0/rows", {"at": index, "row": {
                        "text": f"New {index}", "fields": {"state": generator.choice(STATES), "pop": 1}}})
                    status = http(server.port, "DELETE", f"/api/tables/views/sections/0/rows/{index}")[0]
                    assert status == 200, status
                else:
                    to = rows // 4 + generator.randrange(rows // 2)
                    post(f"/api/tables/views/sections/0/rows/{index}/move", {"to": [0, to]})
                    post(f"/api/tables/views/sections/0/rows/{to}/move", {"to": [0, index]})
            time.sleep(SETTLE_S)
            return (server.cpu_us() - before) / (2 * pairs)

        def turn():
            before = server.cpu_us()
            for number in range(edits):
                index = generator.randrange(rows)
                if number % 4 == 0:
                    states[index] = generator.choice(STATES)
                row = {"id": f"r{index}", "text": f"Row {index}",
                       "fields": {"state": states[index], "pop": generator.randrange(1000)}}
                status = http(server.port, "PUT", f"/api/tables/views/sections/0/rows/{index}",
                              body=json.dumps(row), headers={"Content-Type": "application/json"})[0]
                assert status == 200, status
            time.sleep(SETTLE_S)
            return (server.cpu_us() - before) / edits

        def search(count):
            """Server CPU of the first page of `count` different searches, each asked once (a
            view is derived once per version and kept, `ViewCache`): the JSON page of rows
            (`…/rows?q=&limit=100`) and the HTML page (`/tables/views?q=`), medians in µs.
            Before them, the table's first search since it was loaded, alone (`first`)."""
            words = generator.sample(range(100, 1000), count + 1)
            before = server.cpu_us()
            path = f"/api/tables/views/sections/0/rows?q={words.pop()}&offset=0&limit=100"
            status = http(server.port, "GET", path)[0]
            assert status == 200, status
            first = server.cpu_us() - before
            times = {"json": [], "html": []}
            for number, word in enumerate(words):
                kind = "json" if number % 2 == 0 else "html"
                path = (f"/api/tables/views/sections/0/rows?q={word}&offset=0&limit=100" if kind == "json"
                        else f"/tables/views?q={word}")
                before = server.cpu_us()
                status = http(server.port, "GET", path)[0]
                assert status == 200, (path, status)
                times[kind].append(server.cpu_us() - before)
            return {"first": round(first),
                    **{kind: round(statistics.median(values)) for kind, values in times.items()}}

        def idle(seconds):
            """Server CPU a second with nothing edited."""
            before = server.cpu_us()
            time.sleep(seconds)
            return round((server.cpu_us() - before) / seconds)

        searched = search(40)
        kinds = ["insert", "move"]
        quiet = turn()
        quiet_shifting = {kind: shifting(kind) for kind in kinds}
        resident = server.memory_kib()[0]
        streams = Streams(server.port, "views", queries(count))
        wait_for(lambda: held_views(server.port) == count, 600)
        opened = server.memory_kib()[0]
        idle_us_per_s = idle(3)
        watched = turn()
        watched_shifting = {kind: shifting(kind) for kind in kinds}
        streams.close()
        # Once every stream is closed the views should go, and an edit cost what it did before
        # they opened; it is measured apart, not averaged into the baseline
        # (docs/perf-history/live-views-and-search.md). The
        # views go as their clients leave, with nothing edited; a server that notices a client
        # only when a write to it fails keeps them past the wait's 10 s limit. Asked every 0.2 s:
        # a /metrics answer reads the heap's size (mallinfo2), milliseconds with these views.
        before, start = server.cpu_us(), time.monotonic()
        while open_streams_and_views(server.port) not in ((0, 0), (0, None)) and time.monotonic() < start + 10:
            time.sleep(0.2)
        close_wait_ms = (time.monotonic() - start) * 1000
        time.sleep(SETTLE_S)
        close_ms = (server.cpu_us() - before) / 1000
        closed = turn()
    finally:
        server.stop()
    return {"rows": rows, "views": count, "edits": edits, "quiet_us": round(quiet),
            "watched_us": round(watched), "views_us": round(watched - quiet), "closed_us": round(closed),
            "close_ms": round(close_ms), "close_wait_ms": round(close_wait_ms),
            "kib_per_view": (opened - resident) // count, "stream_bytes": streams.received,
            "search_json_us": searched["json"], "search_html_us": searched["html"],
            "search_first_us": searched["first"],
            "idle_views_us_per_s": idle_us_per_s,
            **{f"{kind}_views_us": round(watched_shifting[kind] - quiet_shifting[kind]) for kind in kinds}}
