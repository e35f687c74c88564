"""The measurements of docs/PERFORMANCE.md, one function a row of its table."""
import hashlib
import os
import socket
import subprocess
import threading
import time

import tables
from procs import SETTLE_S, Server, first_byte_and_total, http, loaded, summary


def version_of_tag(tag):
    """The version an ETag names: `"k3f9a2c1.7"` (the server's life and the version) or `"7"` (docs/API.md, Caching)."""
    return int(tag.strip('"').rsplit(".", 1)[-1])


def json_row(tools, rounds, seconds):
    """GET one row as JSON: WebTableView vs the C floor vs Hummingbird, interleaved.

    WebTableView answers an unchanged row from the answer it keeps ready
    (docs/ARCHITECTURE.md, Kept answers); a second WebTableView with
    `--answer-cache 0` makes the answer for every request, for comparison."""
    product = Server("webtableview", tools.serve())
    made = None
    try:
        path = "/api/tables/countries/sections/0/rows/0"
        status, headers, body = http(product.port, "GET", path)
        assert status == 200, status
        body_file = os.path.join(tools.work, "row.json")
        with open(body_file, "wb") as file:
            file.write(body)
        same = [body_file, headers["content-type"], headers["etag"]]
        floor = Server("C floor", [tools.floor] + same + ["2"])
        hummingbird = Server("Hummingbird", [tools.hummingbird] + same)
        made = Server("webtableview, made each time", tools.serve("--answer-cache", "0"))
        servers = [product, floor, hummingbird, made]
        for server in servers:
            assert http(server.port, "GET", path)[2] == body, f"{server.name} answers other bytes"
        results = {server.name: {"cpu": [], "rate": []} for server in servers}
        for round_index in range(rounds):
            turn = round_index % len(servers)
            order = servers[turn:] + servers[:turn]
            for server in order:
                cpu, rate = loaded(server, server.base + path, seconds, 32)
                results[server.name]["cpu"].append(cpu)
                results[server.name]["rate"].append(rate)
        floor.stop()
        hummingbird.stop()
    finally:
        product.stop()
        if made:
            made.stop()
    p, c, h, m = (results[name] for name in ("webtableview", "C floor", "Hummingbird", "webtableview, made each time"))
    return {
        "bytes": len(body),
        "servers": {name: {"cpu": summary(r["cpu"]), "rate": summary(r["rate"])} for name, r in results.items()},
        "vs_floor_cpu": summary([a / b for a, b in zip(p["cpu"], c["cpu"])]),
        "vs_hb_rate": summary([a / b for a, b in zip(p["rate"], h["rate"])]),
        "vs_hb_cpu": summary([a / b for a, b in zip(p["cpu"], h["cpu"])]),
        "made_vs_floor_cpu": summary([a / b for a, b in zip(m["cpu"], c["cpu"])]),
        "made_vs_hb_rate": summary([a / b for a, b in zip(m["rate"], h["rate"])]),
        "made_vs_hb_cpu": summary([a / b for a, b in zip(m["cpu"], h["cpu"])]),
    }


def page_vs_json(tools, rounds, seconds):
    """The 10,000-row page against the same table as JSON; whether the page streams; and the
    1,000-row page and the JSON of the same rows, each against the C floor sending the same bytes.

    The server runs with `--answer-cache 0` so that the 1,000-row table's JSON is made for every
    request, as the page is (a kept answer would measure sending, not writing; the 10,000-row
    table's JSON and every page are never kept)."""
    server = Server("webtableview", tools.serve("--data", tools.data["page"], "--answer-cache", "0"))
    floors = []
    try:
        html, json = [], []
        for _ in range(rounds):
            html.append(loaded(server, server.base + "/tables/page10k", seconds, 2)[0] / 10_000)
            json.append(loaded(server, server.base + "/api/tables/page10k", seconds, 2)[0] / 10_000)
        firsts, totals, chunked = [], [], True
        for _ in range(rounds):
            first, total, is_chunked = first_byte_and_total(server.port, "/tables/page10k")
            firsts.append(first * 1000)
            totals.append(total * 1000)
            chunked = chunked and is_chunked
        size_html = len(http(server.port, "GET", "/tables/page10k")[2])
        size_json = len(http(server.port, "GET", "/api/tables/page10k")[2])
        # The 1,000-row page and its rows' JSON, each with a C floor answering its bytes.
        targets = {}
        for kind, path in (("html", "/tables/page1k"), ("json", "/api/tables/page1k")):
            status, headers, body = http(server.port, "GET", path)
            assert status == 200, (path, status)
            body_file = os.path.join(tools.work, f"page1k.{kind}")
            with open(body_file, "wb") as file:
                file.write(body)
            floor = Server(f"C floor ({kind})", [tools.floor, body_file, headers["content-type"], '"1"', "2"])
            floors.append(floor)
            assert http(floor.port, "GET", path)[2] == body
            targets[kind] = (path, floor, len(body))
        page1k = {kind: {"product": [], "floor": []} for kind in targets}
        for round_index in range(rounds):
            for kind, (path, floor, _) in targets.items():
                pair = [("product", server), ("floor", floor)]
                for name, target in pair[round_index % 2:] + pair[:round_index % 2]:
                    page1k[kind][name].append(loaded(target, target.base + path, seconds, 2)[0] / 1000)
    finally:
        server.stop()
        for floor in floors:
            floor.stop()
    return {
        "html_row": summary(html), "json_row": summary(json),
        "ratio": summary([a / b for a, b in zip(html, json)]),
        "first_ms": summary(firsts), "total_ms": summary(totals), "chunked": chunked,
        "html_bytes": size_html, "json_bytes": size_json,
        "page1k": {kind: {"bytes": targets[kind][2], "row_us": summary(v["product"]),
                          "floor_row_us": summary(v["floor"]),
                          "vs_floor": summary([a / b for a, b in zip(v["product"], v["floor"])])}
                   for kind, v in page1k.items()},
    }


def edits_and_memory(tools, rounds, seconds):
    """Random single-row moves at 1k and 1M rows over HTTP, and the memory of the 1M-row table."""
    started = time.monotonic()
    server = Server("webtableview", tools.serve("--data", tools.data["edits"]))
    load_seconds = time.monotonic() - started
    try:
        rss, hwm = server.memory_kib()
        status, _, body = http(server.port, "GET", "/api/tables/rows1m")
        assert status == 200
        json_bytes = len(body)
        del body
        rss_after_get = server.memory_kib()[0]
        script = os.path.join(tools.scripts, "move.lua")
        http_cost = {"rows1k": [], "rows1m": []}
        for _ in range(rounds):
            for table, rows in (("rows1k", 1000), ("rows1m", 1_000_000)):
                os.environ["BENCH_TABLE"], os.environ["BENCH_ROWS"] = table, str(rows)
                http_cost[table].append(loaded(server, server.base, seconds, 4, script)[0])
        rss_after, hwm_after = server.memory_kib()
    finally:
        server.stop()
    model = {1000: {"insert_ns": [], "delete_ns": [], "move_ns": []},
             1_000_000: {"insert_ns": [], "delete_ns": [], "move_ns": []}}
    for _ in range(rounds):
        for rows in model:
            for line in tools.model_bench("edits", rows, 2000, 1):
                for key in model[rows]:
                    model[rows][key].append(int(line[key]))
    return {
        "json_bytes": json_bytes, "input_bytes": os.path.getsize(tools.data["edits"]),
        "rss_kib": rss, "hwm_kib": hwm, "load_s": load_seconds, "rss_after_get_kib": rss_after_get,
        "rss_after_edits_kib": rss_after, "hwm_after_edits_kib": hwm_after,
        "http": {k: summary(v) for k, v in http_cost.items()},
        "http_ratio": summary([a / b for a, b in zip(http_cost["rows1m"], http_cost["rows1k"])]),
        "model": {rows: {k: summary(v) for k, v in kinds.items()} for rows, kinds in model.items()},
        "model_ratio": {k: summary([a / b for a, b in zip(model[1_000_000][k], model[1000][k])])
                        for k in model[1000]},
    }


def writes(tools, rounds, seconds, subscribers=100):
    """Random single-row moves over HTTP in a 1,000-row table (`wrk -c4`, move.lua): server CPU
    per move with no event-stream subscriber, and with `subscribers` streams reading every event
    (the C clients of the fan-out step), servers taking turns; and, for comparison, the model's
    own move (`ModelBench edits`, thread CPU). Every subscriber must get every event."""
    script = os.path.join(tools.scripts, "move.lua")
    os.environ["BENCH_TABLE"], os.environ["BENCH_ROWS"] = "rows1k", "1000"
    quiet = Server("webtableview", tools.serve("--data", tools.data["writes"]))
    watched = Server("webtableview, watched", tools.serve("--data", tools.data["writes"]))
    clients = None
    try:
        clients = subprocess.Popen([tools.sse_clients, str(watched.port), "/api/tables/rows1k/events",
                                    str(subscribers)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert clients.stdout.readline().startswith("ready"), "subscribers did not connect"
        totals = []
        reader = threading.Thread(target=lambda: totals.extend(int(line.split()[1]) for line in clients.stdout),
                                  daemon=True)
        reader.start()
        cpu = {"quiet": [], "watched": []}
        for round_index in range(rounds):
            pair = [("quiet", quiet), ("watched", watched)]
            for name, server in pair[round_index % 2:] + pair[:round_index % 2]:
                cpu[name].append(loaded(server, server.base, seconds, 4, script)[0])
        moves = version_of_tag(http(watched.port, "GET", "/api/tables/rows1k")[1]["etag"])
        # The subscribers keep up with the moves (about 20,000 a second to 100 streams: 300 MB/s
        # to one process; docs/perf-history/event-streams.md, "The writes step"); what is still
        # on its way drains, for as long as it takes, but never stalls for 10 s.
        received, progressed = -1, time.monotonic()
        while (not totals or totals[-1] < moves * subscribers) and time.monotonic() - progressed < 10:
            if totals and totals[-1] != received:
                received, progressed = totals[-1], time.monotonic()
            time.sleep(0.1)
        drained = time.monotonic() - progressed
        assert totals and totals[-1] == moves * subscribers, \
            f"subscribers got {totals[-1] if totals else 0} events of {moves * subscribers}, none for {drained:.0f} s"
    finally:
        if clients:
            clients.stdin.close()
            clients.wait(timeout=30)
        quiet.stop()
        watched.stop()
    model = [int(line["move_ns"]) / 1000 for _ in range(rounds) for line in tools.model_bench("edits", 1000, 2000, 1)]
    return {
        "subscribers": subscribers, "moves_watched": moves,
        "quiet_us": summary(cpu["quiet"]), "watched_us": summary(cpu["watched"]), "model_move_us": summary(model),
        "watched_vs_quiet": summary([a / b for a, b in zip(cpu["watched"], cpu["quiet"])]),
    }


def snapshot_diff(tools, rounds):
    """SnapshotDiff at 100k and 200k rows, interleaved (100k, 200k, 100k, …; each the second,
    warm, of two runs in one process) so that linearity is a ratio within each round; Swift's
    difference where it fits in memory and time."""
    sizes = ((100_000, 100), (200_000, 200))
    lines = {rows: [] for rows, _ in sizes}
    for _ in range(rounds):
        for rows, sections in sizes:
            lines[rows].append(tools.model_bench("diff", rows, sections, 2)[-1])
    ours = {}
    for rows, _ in sizes:
        ours[rows] = {key: summary([int(line[key]) / 1e6 for line in lines[rows]]) for key in ("diff_ns", "apply_ns")}
        ours[rows]["batches"] = int(lines[rows][0]["batches"])
    linearity = summary([int(big["diff_ns"]) / int(small["diff_ns"]) for small, big in zip(lines[100_000], lines[200_000])])
    side = {}
    for rows, sections in ((5_000, 50), (10_000, 100)):
        lines = tools.model_bench("diff", rows, sections, rounds, "swift")
        side[rows] = {key: summary([int(line[key]) / 1e6 for line in lines]) for key in ("diff_ns", "swift_ns")}
        side[rows]["ratio"] = summary([int(line["swift_ns"]) / int(line["diff_ns"]) for line in lines])
    return {"ours": ours, "side": side, "linearity": linearity}


def diff_shapes(tools, rounds, divisor=1):
    """The six shapes of the diff target (`DiffBench.shapes`): thread CPU of the current
    SnapshotDiff against the frozen copy of the previous one, in one process, shapes taking
    turns; and Swift's difference(from:) at the size it can take (see `DiffBench.swiftChanges`)."""
    lines = tools.model_bench("diff-shapes", rounds, divisor)
    shapes = {}
    for line in lines:
        shapes.setdefault(int(line["shape"]), []).append(line)
    results = {}
    for shape, runs in sorted(shapes.items()):
        first = runs[0]
        results[shape] = {
            "rows": int(first["rows"]), "sections": int(first["sections"]), "swift_rows": int(first["swift_rows"]),
            "current_ms": summary([int(r["current_ns"]) / 1e6 for r in runs]),
            "frozen_ms": summary([int(r["frozen_ns"]) / 1e6 for r in runs]),
            "speed_up": summary([int(r["frozen_ns"]) / int(r["current_ns"]) for r in runs]),
            "swift_ms": summary([int(r["swift_ns"]) / 1e6 for r in runs]),
            "swift_vs_current": summary([int(r["swift_ns"]) / int(r["current_at_swift_rows_ns"]) for r in runs]),
        }
    return results


def model_memory(tools, rows, moves):
    """`ModelBench memory`: a table of `rows` short rows decoded from its JSON, its peak and RSS
    after loading, then after `moves` random single-row moves (the model alone, one process)."""
    line = tools.model_bench("memory", rows, moves)[-1]
    return {key: int(value) for key, value in line.items()}


def follow(tools, rounds, rows=100_000):
    """`ModelBench follow`: the client's mirror (`TableMirror.follow`, what `TableFollower` runs per
    event) applying one published one-row change to a mirror of `rows` rows while the app holds the
    previous update's table, as a data source does: thread CPU per reload, insert, delete and move
    of a row, 1,000 of each a round, `rounds` rounds in one process."""
    lines = tools.model_bench("follow", rows, 1000, rounds)
    return {"rows": rows, **{kind: summary([int(line[f"{kind}_ns"]) / 1000 for line in lines])
                             for kind in ("reload", "insert", "delete", "move")}}


def live_views(tools, rows, views, edits):
    """`ModelBench views`: `edits` one-row edits of a `rows`-row table with `views` different live
    views open, each edit followed by every view (the model alone, one process): thread CPU per
    edit, and the resident memory the open views take, per view."""
    line = tools.model_bench("views", rows, views, edits)[-1]
    return {key: int(value) for key, value in line.items()}


def fan_out(tools, changes_by_count, rounds):
    """One change delivered to N event-stream subscribers: server CPU per delivered event, idle
    CPU; and the same for two floors, a C program that writes an event of the same size to N
    sockets and does nothing else: with one send() each, and with io_uring, a batch of sends a
    system call (`sse_floor --io-uring`), as the server does where the kernel allows it. The
    three hold their N subscribers at once and take turns, round by round, so that each ratio
    compares the same moments of this shared machine; a turn's CPU is read procs.SETTLE_S after
    its last event arrives, as for every wrk turn, which also leaves the next turn a quiet
    start. `changes_by_count` gives the changes of a turn for each N."""
    results = {}
    for count, changes in changes_by_count.items():
        server = Server("webtableview", tools.serve("--data", tools.data["feed"], "--connection-limit", "20000"))
        floors, watching = [], []
        try:
            def change(text):
                status = http(server.port, "PUT", "/api/tables/feed/sections/0/rows/0",
                              body=f'{{"id":"r0","text":"{text}"}}', headers={"Content-Type": "application/json"})[0]
                assert status == 200, status

            def floor_change(floor):
                def make(_):
                    assert http(floor.port, "POST", "/change")[0] == 204
                return make
            # One change first, to give the floors an event of the same size.
            change("Change 0-0")
            size = last_event_size(server.port, "feed")
            floors = [Server("SSE floor", [tools.sse_floor, str(size)]),
                      Server("SSE floor, io_uring", [tools.sse_floor, str(size), "--io-uring"])]
            watching = [Subscribers(tools, server, count)] + [Subscribers(tools, floor, count) for floor in floors]
            idle = watching[0].idle_us_per_s()
            per_event, floor_per_event, batched_per_event = [], [], []
            turns = [(watching[0], change, per_event), (watching[1], floor_change(floors[0]), floor_per_event),
                     (watching[2], floor_change(floors[1]), batched_per_event)]
            for round_index in range(rounds):
                first = round_index % len(turns)
                for subscribers, make_change, out in turns[first:] + turns[:first]:
                    out.append(subscribers.per_event_us(make_change, changes, round_index))
        finally:
            for subscribers in watching:
                subscribers.close()
            server.stop()
            for floor in floors:
                floor.stop()
        results[count] = {"per_event_us": summary(per_event), "idle_us_per_s": idle, "event_bytes": size,
                          "floor_per_event_us": summary(floor_per_event), "changes": changes,
                          "vs_floor": summary([a / b for a, b in zip(per_event, floor_per_event)]),
                          "batched_floor_per_event_us": summary(batched_per_event),
                          "vs_batched_floor": summary([a / b for a, b in zip(per_event, batched_per_event)])}
    return results


class Subscribers:
    """`count` event-stream subscribers of `server` (`sse_clients`, one process)."""

    def __init__(self, tools, server, count):
        self.server, self.count = server, count
        self.clients = subprocess.Popen([tools.sse_clients, str(server.port), "/api/tables/feed/events", str(count)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.clients.stdout.readline().startswith("ready"), "subscribers did not connect"

    def idle_us_per_s(self):
        """The server's CPU per second while its subscribers wait, after a second to settle."""
        time.sleep(1)
        before = self.server.cpu_us()
        time.sleep(3)
        return (self.server.cpu_us() - before) / 3

    def per_event_us(self, make_change, changes, round_index):
        """Makes `changes` changes, each once every subscriber has the one before: the server's
        CPU per delivered event, read SETTLE_S after the last one arrives, so that what the
        changes left behind (acknowledgements, the last connection's teardown) counts with them."""
        before = self.server.cpu_us()
        for number in range(changes):
            make_change(f"Change {round_index}-{number}")
            line = self.clients.stdout.readline()
            assert line.startswith("events"), line
        time.sleep(SETTLE_S)
        return (self.server.cpu_us() - before) / (changes * self.count)

    def close(self):
        self.clients.stdin.close()
        self.clients.wait(timeout=30)


def last_event_size(port, table):
    """The size of the table's last `update` event, from the chunk that replays it alone."""
    version = version_of_tag(http(port, "GET", f"/api/tables/{table}")[1]["etag"])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(f"GET /api/tables/{table}/events?since={version - 1} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data or b"\r\n" not in data.split(b"\r\n\r\n", 1)[1]:
            data += connection.recv(65536)
    return int(data.split(b"\r\n\r\n", 1)[1].split(b"\r\n", 1)[0], 16)


READ_PATTERNS = ("same", "uniform", "zipf")
READ_SERVERS = ("webtableview", "webtableview, --answer-cache 0", "C floor")


def reads(tools, rounds, seconds):
    """GET rows of a 100,000-row table (10 sections × 10,000) as users read them: the same row,
    uniformly random rows, Zipf-distributed rows (s = 1.1) — `reads.lua` — from WebTableView
    with its kept answers, with `--answer-cache 0`, and from the C floor serving each row's
    bytes from an answer made at start-up (`mhd_floor --paths`). Servers take turns; each
    pattern is measured after a warm-up run on every server."""
    product = Server(READ_SERVERS[0], tools.serve("--data", tools.data["reads"]))
    made = floor = None
    try:
        made = Server(READ_SERVERS[1], tools.serve("--data", tools.data["reads"], "--answer-cache", "0"))
        answers = os.path.join(tools.work, "reads-answers")
        content_type = write_row_answers(made.port, answers)
        floor = Server(READ_SERVERS[2], [tools.floor, "--paths", answers, content_type, "2"])
        servers = [product, made, floor]
        for path in ("/api/tables/reads/sections/0/rows/0", "/api/tables/reads/sections/9/rows/9999",
                     "/api/tables/reads/sections/4/rows/1234"):
            bodies = {http(server.port, "GET", path)[2] for server in servers}
            assert len(bodies) == 1, f"{path}: the servers answer other bytes"
        os.environ.update(BENCH_TABLE="reads", BENCH_SECTIONS=str(tables.READ_SECTIONS), BENCH_ROWS=str(tables.READ_ROWS))
        script = os.path.join(tools.scripts, "reads.lua")
        cpu = {pattern: {server.name: [] for server in servers} for pattern in READ_PATTERNS}
        rate = {pattern: {server.name: [] for server in servers} for pattern in READ_PATTERNS}
        # A pattern at a time, each server first warmed on it: the rounds measure reads that
        # keep that pattern, as a server under one kind of use sees them, not the switch.
        for pattern in READ_PATTERNS:
            os.environ["BENCH_READS"] = pattern
            for server in servers:
                loaded(server, server.base + "/", seconds, 32, script)
            for round_index in range(rounds):
                turn = round_index % len(servers)
                for server in servers[turn:] + servers[:turn]:
                    used, served = loaded(server, server.base + "/", seconds, 32, script)
                    cpu[pattern][server.name].append(used)
                    rate[pattern][server.name].append(served)
    finally:
        for server in (product, made, floor):
            if server:
                server.stop()
    results = {}
    for pattern in READ_PATTERNS:
        kept, each, c = (cpu[pattern][name] for name in READ_SERVERS)
        results[pattern] = {
            "cpu": {name: summary(values) for name, values in cpu[pattern].items()},
            "rate": {name: summary(values) for name, values in rate[pattern].items()},
            "kept_vs_floor": summary([a / b for a, b in zip(kept, c)]),
            "made_vs_floor": summary([a / b for a, b in zip(each, c)]),
            "kept_vs_made": summary([a / b for a, b in zip(kept, each)]),
        }
    return results


def write_row_answers(port, file_name):
    """Every row's answer, as `port` sends it, in the floor's `--paths` records; answers the
    Content-Type they share. Requests are pipelined a section at a time on one connection."""
    content_types = set()
    with open(file_name, "wb") as output, socket.create_connection(("127.0.0.1", port), timeout=60) as connection:
        reader = connection.makefile("rb")
        for section in range(tables.READ_SECTIONS):
            paths = [f"/api/tables/reads/sections/{section}/rows/{row}" for row in range(tables.READ_ROWS)]
            connection.sendall(b"".join(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode() for path in paths))
            for path in paths:
                status = reader.readline()
                assert status.split()[1] == b"200", (path, status)
                headers = {}
                while (line := reader.readline()) != b"\r\n":
                    name, _, value = line.decode().partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = reader.read(int(headers["content-length"]))
                content_types.add(headers["content-type"])
                output.write(f"{path}\t{headers['etag']}\t{len(body)}\n".encode() + body)
    assert len(content_types) == 1, content_types
    return content_types.pop()


CODINGS = ("identity", "gzip", "br")


def compression(tools, rounds, seconds, row_rounds):
    """Bytes and server CPU per request in each coding (docs/API.md, Compression): the JSON row
    (a kept answer, kept once per coding), the 1,000-row page (compressed as it streams) and the
    large table's JSON (1,000,000 rows; in pieces, compressed as they are sent). Codings take turns.
    The row's target (compressed within ×1.10 of identity) is as narrow as the JSON row's against
    the floor, so it gets the JSON row's `row_rounds`, its codings run back to back in each."""
    row = Server("webtableview", tools.serve())
    data = Server("webtableview", tools.serve("--data", tools.data["compression"]))
    row_path = "/api/tables/countries/sections/0/rows/0"
    targets = {"row": (row, row_path), "page": (data, "/tables/page1k"), "large": (data, "/api/tables/large")}
    try:
        sizes = {name: {} for name in targets}
        for name, (server, path) in targets.items():
            digests = set()
            for coding in CODINGS:
                status, headers, body = http(server.port, "GET", path, headers={"Accept-Encoding": coding})
                assert status == 200, (path, coding, status)
                assert headers.get("content-encoding", "identity") == coding, (path, coding, headers)
                sizes[name][coding] = len(body)
                digests.add(hashlib.sha256(decoded(body, coding)).digest())
                del body
            assert len(digests) == 1, f"{path}: the codings decode to different bytes"
        cpu = {name: {coding: [] for coding in CODINGS} for name in targets}
        for round_index in range(row_rounds):
            turn = round_index % len(CODINGS)
            for coding in CODINGS[turn:] + CODINGS[:turn]:
                cpu["row"][coding].append(
                    loaded(row, row.base + row_path, seconds, 32, headers={"Accept-Encoding": coding})[0])
        for round_index in range(rounds):
            turn = round_index % len(CODINGS)
            for coding in CODINGS[turn:] + CODINGS[:turn]:
                cpu["page"][coding].append(
                    loaded(data, data.base + "/tables/page1k", seconds, 2, headers={"Accept-Encoding": coding})[0])
                before = data.cpu_us()
                assert http(data.port, "GET", "/api/tables/large", headers={"Accept-Encoding": coding})[0] == 200
                cpu["large"][coding].append(data.cpu_us() - before)
    finally:
        row.stop()
        data.stop()
    return {
        "large_rows": tools.large_rows,
        "bytes": sizes,
        "cpu_us": {name: {coding: summary(values) for coding, values in codings.items()} for name, codings in cpu.items()},
        "cpu_ratio": {name: {coding: summary([a / b for a, b in zip(codings[coding], codings["identity"])])
                             for coding in CODINGS[1:]} for name, codings in cpu.items()},
    }


def decoded(body, coding):
    """`body` with its content coding undone (br by Debian's `brotli` command)."""
    if coding == "gzip":
        import gzip
        return gzip.decompress(body)
    if coding == "br":
        return subprocess.run(["brotli", "--decompress", "--stdout"], input=body, capture_output=True, check=True).stdout
    return body


def start_up(tools, runs):
    """Spawn to the first answer of GET /healthz, with the demo tables; against spawning `true`."""
    product, baseline, cpu = [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(["true"])
        baseline.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        server = Server("webtableview", tools.serve())
        try:
            assert http(server.port, "GET", "/healthz")[0] == 200
            product.append((time.perf_counter() - start) * 1000)
            cpu.append(server.cpu_us() / 1000)
        finally:
            server.stop()
    return {"product_ms": summary(product), "true_ms": summary(baseline), "cpu_ms": summary(cpu)}
