"""What live views cost the rest of the server (issue 44): the server's CPU to open 100 different
views of a large table, `/healthz` while those views follow a burst of edits (sections inserted,
which derive every view again, and one-row edits), and the memory the views leave once closed.

Run by itself: python3 scripts/bench/view_cost.py --product PATH [--rows N]; the JSON goes to stdout."""
import argparse
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time

import tables
from procs import SETTLE_S, Server, http
from views import STATES, Streams, held_views, queries, wait_for


def memory(server):
    """Resident memory and heap in use (`process_heap_in_use_bytes` of /metrics), in KiB."""
    text = http(server.port, "GET", "/metrics")[2].decode()
    heap = int(re.search(r"^process_heap_in_use_bytes (\d+)$", text, re.MULTILINE).group(1))
    return {"rss_kib": server.memory_kib()[0], "heap_kib": heap // 1024}


def wait_idle(server, limit_s):
    """Waits until the server has used under 5 % of a core (and 5 ms) for a second, at most
    `limit_s`; answers the seconds until that quiet second began."""
    start = time.monotonic()
    since = [start, server.cpu_us()]
    while time.monotonic() < start + limit_s:
        time.sleep(0.05)
        now, used = time.monotonic(), server.cpu_us()
        if used - since[1] > 50_000 * (now - since[0]) + 5_000:
            since[:] = [now, used]
        elif now - since[0] > 1.0:
            break
    return since[0] - start


class Prober:
    """`GET /healthz` in a loop, one at a time, each on a new connection, timed; one not answered
    200 (a timeout, a connection reset) counts as failed, timed until it failed."""

    def __init__(self, port):
        self.port, self.times, self.failed, self.running = port, [], 0, True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while self.running:
            start = time.monotonic()
            try:
                ok = http(self.port, "GET", "/healthz", timeout=120)[0] == 200
            except OSError:
                ok = False
            self.failed += 0 if ok else 1
            self.times.append((time.monotonic() - start) * 1000)
            time.sleep(0.01)

    def stop(self):
        self.running = False
        self.thread.join()
        ordered = sorted(self.times)
        return {"probes": len(ordered), "failed": self.failed, "p50_ms": round(statistics.median(ordered), 2),
                "p99_ms": round(ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)], 2),
                "max_ms": round(ordered[-1], 2)}


def measure(product, rows, count=100, sections=3, edits=30):
    """A `rows`-row table (as `views.measure` makes it) served alone. Opens `count` different views
    (one event stream each) and reads the server's CPU until it holds them all (`open_cpu_ms_per_view`);
    then, with `/healthz` probed throughout, `sections` sections inserted and `edits` one-row edits
    (`PUT`), every one answered before the next is sent: the burst's wall time, the slowest edit's
    answer, and the time until every view has followed it (`caught_up_s`); then closes the streams
    and waits until the server has let the views go. Resident memory and heap in use before the
    views, with them, and after they closed (`after_*`, and their ratio to before)."""
    generator = random.Random(rows)
    with tempfile.TemporaryDirectory(prefix="wtv-view-cost-") as work:
        path = os.path.join(work, "views.json")
        tables.write(path, [{"id": "views", "sections": [{"id": "s", "rows": [
            {"id": f"r{i}", "text": f"Row {i}", "fields": {"state": generator.choice(STATES),
                                                          "pop": generator.randrange(1000)}}
            for i in range(rows)]}]}])
        server = Server("webtableview", [product, "serve", "--port", "0", "--log-level", "warning", "--data", path])
        try:
            time.sleep(SETTLE_S)
            before = memory(server)
            cpu = server.cpu_us()
            streams = Streams(server.port, "views", queries(count))
            # /metrics asked once a second: its heap figure (mallinfo2) is dear with a large heap.
            wait_for(lambda: held_views(server.port) == count, 900, every_s=1)
            wait_idle(server, 900)
            open_ms = (server.cpu_us() - cpu) / 1000
            opened = memory(server)
            print(f"view_cost: opened {count} views, {open_ms / count:.1f} ms of CPU a view", file=sys.stderr, flush=True)

            prober = Prober(server.port)
            time.sleep(1)
            start, slowest = time.monotonic(), 0
            for number in range(sections + edits):
                began = time.monotonic()
                if number % ((sections + edits) // sections) == 0:
                    body = {"insertSections": [{"at": 1, "section": {"rows": [{"text": f"S{number % 50} new"}]}}]}
                    status = http(server.port, "POST", "/api/tables/views/batch", body=json.dumps(body),
                                  headers={"Content-Type": "application/json"}, timeout=1800)[0]
                else:
                    index = generator.randrange(rows)
                    row = {"id": f"r{index}", "text": f"Row {index}",
                           "fields": {"state": generator.choice(STATES), "pop": generator.randrange(1000)}}
                    status = http(server.port, "PUT", f"/api/tables/views/sections/0/rows/{index}",
                                  body=json.dumps(row), headers={"Content-Type": "application/json"}, timeout=1800)[0]
                assert status == 200, status
                slowest = max(slowest, time.monotonic() - began)
            burst_s = time.monotonic() - start
            # Every view has followed the burst when the server is idle again.
            caught_up_s = wait_idle(server, 900) + burst_s
            health = prober.stop()
            print(f"view_cost: burst {burst_s:.1f} s, caught up {caught_up_s:.1f} s, /healthz {health}",
                  file=sys.stderr, flush=True)

            streams.close()
            close_wait_s = wait_for(lambda: held_views(server.port) == 0, 120)
            time.sleep(1)
            after = memory(server)
        finally:
            server.stop()
    return {"rows": rows, "views": count, "open_cpu_ms_per_view": round(open_ms / count, 2),
            "burst": {"sections": sections, "edits": edits, "wall_s": round(burst_s, 2),
                      "slowest_edit_s": round(slowest, 2), "caught_up_s": round(caught_up_s, 2)},
            "healthz_during_burst": health, "close_wait_s": round(close_wait_s, 2),
            "memory": {"before": before, "open": opened, "after": after,
                       "after_over_before_rss": round(after["rss_kib"] / before["rss_kib"], 3),
                       "after_over_before_heap": round(after["heap_kib"] / before["heap_kib"], 3)}}


def rows(v):
    """The target rows of the views' cost (report.py's table: what, measured, ratio, target, verdict)."""
    def verdict(ok):
        return "**met**" if ok else "**not met**"
    health, burst, memory_ = v["healthz_during_burst"], v["burst"], v["memory"]
    return [
        (f"opening {v['views']} different views of {v['rows']:,} rows, server CPU a view",
         f"{v['open_cpu_ms_per_view']:.1f} ms", "—", "≤ 20 ms", verdict(v["open_cpu_ms_per_view"] <= 20)),
        (f"`/healthz` while {v['views']} views follow {burst['sections']} sections inserted and "
         f"{burst['edits']} row edits", f"p99 {health['p99_ms']:.1f} ms, max {health['max_ms']:.1f} ms "
         f"({health['probes']} probes, {health['failed']} failed; slowest edit {burst['slowest_edit_s']:.2f} s, views caught up in "
         f"{burst['caught_up_s']:.1f} s)", "—", "p99 ≤ 100 ms, none failed",
         verdict(health["p99_ms"] <= 100 and health["failed"] == 0)),
        ("resident memory once the views closed, against before them",
         f"{memory_['after']['rss_kib'] // 1024} vs {memory_['before']['rss_kib'] // 1024} MiB (heap in use "
         f"{memory_['after']['heap_kib'] // 1024} vs {memory_['before']['heap_kib'] // 1024} MiB)",
         f"×{memory_['after_over_before_rss']:.2f}", "≤ ×1.10", verdict(memory_["after_over_before_rss"] <= 1.10)),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--product", required=True, help="the webtableview binary (a release build)")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--sections", type=int, default=3, help="sections inserted in the burst")
    parser.add_argument("--edits", type=int, default=30, help="one-row edits in the burst")
    args = parser.parse_args()
    json.dump(measure(os.path.abspath(args.product), args.rows, sections=args.sections, edits=args.edits),
              sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
