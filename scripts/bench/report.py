"""docs/PERFORMANCE.md from the results of bench.py: the latest run's report, nothing
older (the history of experiments and decisions is docs/perf-history/, by hand)."""
import os
import platform
import subprocess

import token_read
import view_cost


def machine():
    model = "unknown CPU"
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as meminfo:
        memory = int(meminfo.readline().split()[1]) // (1024 * 1024)
    load = open("/proc/loadavg").read().split()[:3]
    return (f"{model}, {os.cpu_count()} cores, {memory} GiB, Linux {platform.release()}; "
            f"load average at the end {' '.join(load)} (shared machine, others building)")


def tree(root):
    """(the full commit of HEAD, the paths changed since it): what the binaries are
    built from. docs/ is left out, as the bench writes docs/PERFORMANCE.md itself."""
    def git(*args):
        return subprocess.run(["git", "-C", root, *args], capture_output=True, text=True).stdout
    head = git("rev-parse", "HEAD").strip() or "unknown"
    changes = git("status", "--porcelain", "--", ".", ":(exclude)docs")
    return head, [line[3:] for line in changes.splitlines() if line]


def commit(head, changes):
    """The report's Commit line: the exact commit, and loudly any change beside it."""
    if not changes:
        return f"`{head}`"
    shown = ", ".join(f"`{path}`" for path in changes[:8]) + (", …" if len(changes) > 8 else "")
    return (f"`{head}` **WITH UNCOMMITTED CHANGES ({len(changes)} paths: {shown}): "
            f"these figures are of no commit**")


def spread(s, digits=1, unit=""):
    f = f"{{:.{digits}f}}"
    return f"{f.format(s['median'])}{unit} ({f.format(s['min'])}–{f.format(s['max'])}, n={s['n']})"


def verdict(ok):
    return "**met**" if ok else "**not met**"


def diff_shapes_row(shapes):
    """The targets-table row of `measure.diff_shapes` (issue 17: half the time on every shape)."""
    if not shapes:
        return ("PUT snapshot diff, six shapes, against the previous diff", "not run", "—", "≥ ×2 on every shape", "—")
    worst = min(v["speed_up"]["median"] for v in shapes.values())
    return ("PUT snapshot diff, six shapes, against the previous diff",
            ", ".join(f"×{v['speed_up']['median']:.2f}" for v in shapes.values()),
            f"×{worst:.2f} (worst)", "≥ ×2 on every shape", verdict(worst >= 2))


def page1k_rows(page1k):
    """The targets of the 1,000-row page and its rows' JSON (issue 17: ≤ 1 µs a row, ≤ ×6 the floor)."""
    if not page1k:
        return []
    names = {"html": "HTML page, 1,000 rows, per row", "json": "JSON of the same 1,000 rows (made), per row"}
    return [(names[kind], f"{v['row_us']['median']:.3f} µs vs C floor {v['floor_row_us']['median']:.3f} µs "
             f"({v['bytes']:,} bytes)", f"×{v['vs_floor']['median']:.2f}", "≤ 1 µs a row, ≤ ×6 of the floor",
             verdict(v["row_us"]["median"] <= 1 and v["vs_floor"]["median"] <= 6)) for kind, v in page1k.items()]


def summary_rows(r):
    j, p, e, d, f, s = (r[k] for k in ("json_row", "page", "edits", "diff", "fan_out", "start_up"))
    wtv, floor, hb = (j["servers"][k] for k in ("webtableview", "C floor", "Hummingbird"))
    made = j["servers"]["webtableview, made each time"]
    edit_worst = max(e["model_ratio"][k]["median"] for k in e["model_ratio"])
    fan_worst = max(v["per_event_us"]["median"] for v in f.values())
    idle_worst = max(v["idle_us_per_s"] for v in f.values())
    side = d["side"][10_000]
    rss_mb = e["rss_kib"] / 1024
    return [
        ("JSON row, server CPU per request", f"{wtv['cpu']['median']:.2f} µs vs C floor {floor['cpu']['median']:.2f} µs",
         f"×{j['vs_floor_cpu']['median']:.2f}", "≤ ×1.10", verdict(j["vs_floor_cpu"]["median"] <= 1.10)),
        ("JSON row vs Hummingbird 2", f"{wtv['rate']['median']:,.0f} vs {hb['rate']['median']:,.0f} req/s; "
         f"CPU/request ×{j['vs_hb_cpu']['median']:.2f}", f"×{j['vs_hb_rate']['median']:.2f} req/s",
         "≥ ×2 req/s at ≤ ×1 CPU", verdict(j["vs_hb_rate"]["median"] >= 2 and j["vs_hb_cpu"]["median"] <= 1)),
        ("JSON row made for every request (`--answer-cache 0`), for comparison",
         f"{made['cpu']['median']:.2f} µs, {made['rate']['median']:,.0f} req/s",
         f"×{j['made_vs_floor_cpu']['median']:.2f} of the floor's CPU; ×{j['made_vs_hb_rate']['median']:.2f} "
         f"Hummingbird's req/s at ×{j['made_vs_hb_cpu']['median']:.2f} its CPU", "—", "not a target"),
        ("HTML page, 10,000 rows, per row", f"{p['html_row']['median']:.3f} µs vs JSON {p['json_row']['median']:.3f} µs",
         f"×{p['ratio']['median']:.2f}", "≤ ×2", verdict(p["ratio"]["median"] <= 2)),
        *page1k_rows(p.get("page1k")),
        ("HTML page streams", f"first bytes {p['first_ms']['median']:.1f} ms, last {p['total_ms']['median']:.1f} ms, "
         f"chunked: {'yes' if p['chunked'] else 'no'}", f"×{p['first_ms']['median'] / p['total_ms']['median']:.2f}",
         "first bytes before the whole table", verdict(p["chunked"] and p["first_ms"]["median"] < 0.5 * p["total_ms"]["median"])),
        ("one row inserted/deleted/moved, 1M vs 1k rows (model)", ", ".join(
            f"{k.split('_')[0]} ×{v['median']:.2f}" for k, v in e["model_ratio"].items()),
         f"×{edit_worst:.2f} (worst)", "≤ ×3", verdict(edit_worst <= 3)),
        ("one row moved over HTTP, 1M vs 1k rows", f"{e['http']['rows1m']['median']:.1f} vs {e['http']['rows1k']['median']:.1f} µs CPU",
         f"×{e['http_ratio']['median']:.2f}", "≤ ×3", verdict(e["http_ratio"]["median"] <= 3)),
        ("PUT snapshot diff, 100k rows", f"{d['ours'][100_000]['diff_ns']['median']:.0f} ms; at 10k rows "
         f"{side['diff_ns']['median']:.1f} ms vs Swift's {side['swift_ns']['median']:.0f} ms",
         f"Swift ×{side['ratio']['median']:.0f} slower", "faster", verdict(side["ratio"]["median"] > 1)),
        diff_shapes_row(r.get("diff_shapes")),
        ("PUT snapshot diff, linear", "200k vs 100k rows, run by run", f"×{d['linearity']['median']:.2f}", "≈ ×2",
         verdict(d["linearity"]["median"] <= 2.4)),
        ("one change to 1,000 / 10,000 subscribers", ", ".join(
            f"{n:,}: {v['per_event_us']['median']:.2f} µs" for n, v in f.items()) + "; the C floor (one `send()` "
            "a subscriber) " + ", ".join(f"{v['floor_per_event_us']['median']:.2f} µs" for v in f.values()),
         f"{fan_worst:.2f} µs (worst), ×" + "/×".join(f"{v['vs_floor']['median']:.2f}" for v in f.values())
         + " of the floor", "≤ ×1.10 of the floor, both (issue 17; the earlier ≤ 2 µs is below the floor itself)",
         verdict(all(v["vs_floor"]["median"] <= 1.10 for v in f.values()))),
        ("idle subscribers", ", ".join(f"{n:,}: {v['idle_us_per_s']:.0f} µs CPU/s" for n, v in f.items()),
         f"{idle_worst / 10_000:.2f} % of a core", "no idle CPU", verdict(idle_worst <= 10_000)),
        ("memory, 1,000,000 short rows", f"{rss_mb:.0f} MB RSS (peak {e['hwm_kib'] / 1024:.0f} MB); JSON {e['json_bytes'] / 1e6:.1f} MB",
         f"×{e['rss_kib'] * 1024 / e['json_bytes']:.2f} of the JSON", "≤ 300 MB RSS", verdict(rss_mb <= 300)),
        *reads_rows(r.get("reads")),
        *compression_rows(r.get("compression")),
        ("start-up to the first answer", f"{s['product_ms']['median']:.1f} ms vs `true` {s['true_ms']['median']:.1f} ms",
         f"×{s['product_ms']['median'] / s['true_ms']['median']:.0f}", "< 100 ms", verdict(s["product_ms"]["median"] < 100)),
    ]


def model_memory_rows(m):
    """The targets of memory under edits (issue 17), from `measure.model_memory`."""
    if not m:
        return []
    mib = {key: value / 1024 for key, value in m.items() if key.endswith("_kib")}
    return [
        (f"memory after {m['moves']:,} random moves, {m['rows']:,} short rows (model)",
         f"{mib['rss_load_kib']:.0f} MiB RSS after loading, {mib['rss_moves_kib']:.0f} MiB after the moves",
         f"×{m['rss_moves_kib'] / m['rss_load_kib']:.2f}", "≤ 300 MiB", verdict(mib["rss_moves_kib"] <= 300)),
        (f"peak while loading {m['rows']:,} short rows (model)", f"{mib['peak_load_kib']:.0f} MiB", "—",
         "≤ 400 MiB", verdict(mib["peak_load_kib"] <= 400)),
    ]


def follow_rows(f):
    """The target of the client's follower (issue 33), from `measure.follow`."""
    if not f:
        return []
    kinds = ("reload", "insert", "delete", "move")
    return [(f"one-row change applied by the client's follower, {f['rows']:,}-row mirror (model)",
             " / ".join(f"{kind} {f[kind]['median']:.1f} µs" for kind in kinds), "—", "≤ 20 µs",
             verdict(max(f[kind]["median"] for kind in kinds) <= 20))]


def live_views_rows(v):
    """The target of live views (issue 31), from `measure.live_views` (model) and `views.measure`
    (server): the CPU an edit costs the views, against 2 ms."""
    if not v:
        return []
    m, s = v["model"], v["server"]
    return [
        (f"one-row edit of {s['rows']:,} rows with {s['views']} live views followed (server, over HTTP)",
         f"{s['views_us'] / 1000:.3f} ms CPU for the views ({s['watched_us'] / 1000:.3f} ms the edit with them, "
         f"{s['quiet_us'] / 1000:.3f} ms without"
         + (f", {s['closed_us'] / 1000:.3f} ms once their streams closed" if "closed_us" in s else "")
         + (f", {s['close_ms']:,} ms CPU to let the {s['views']} views go" if "close_ms" in s else "")
         + f"); {s['kib_per_view']:,} KiB RSS a view",
         f"×{s['views_us'] / 2000:.2f}", "≤ 2 ms", verdict(s["views_us"] <= 2000)),
        *([(f"one-row insert or delete, or move, in the middle of {s['rows']:,} rows with {s['views']} live views "
             "followed (server, over HTTP)",
             f"{s['insert_views_us'] / 1000:.3f} ms CPU for the views an insert or delete, "
             f"{s['move_views_us'] / 1000:.3f} ms a move",
             f"×{max(s['insert_views_us'], s['move_views_us']) / 2000:.2f}", "≤ 2 ms",
             verdict(max(s["insert_views_us"], s["move_views_us"]) <= 2000))] if "move_views_us" in s else []),
        *([(f"first page of a search (`q`) over {s['rows']:,} rows (server)",
             f"{s['search_json_us'] / 1000:.1f} ms CPU the JSON rows, {s['search_html_us'] / 1000:.1f} ms the "
             "HTML page (medians of 20 searches each)"
             + (f"; the table's first since it was loaded {s['search_first_us'] / 1000:.1f} ms"
                if "search_first_us" in s else ""),
             f"×{max(s['search_json_us'], s['search_html_us']) / 50000:.2f}", "≤ 50 ms",
             verdict(max(s["search_json_us"], s["search_html_us"]) <= 50000)),
           (f"{s['views']} live views open, nothing edited (server)",
            f"{s['idle_views_us_per_s']:,} µs CPU a second", "—", "no CPU",
            verdict(s["idle_views_us_per_s"] <= 1000))] if "search_json_us" in s else []),
        (f"one-row edit of {m['rows']:,} rows with {m['views']} live views open (model)",
         f"{m['median_ns'] / 1e6:.3f} ms CPU median, {m['max_ns'] / 1e6:.1f} ms max, edit and views; "
         f"{m['kib_per_view']:,} KiB a view of {m['view_rows'] // m['views']:,} rows"
         + (f", {m['open_ns_per_view'] / 1e6:.1f} ms CPU to open" if "open_ns_per_view" in m else ""),
         f"×{m['median_ns'] / 2e6:.2f}", "≤ 2 ms", verdict(m["median_ns"] <= 2_000_000)),
    ]


def writes_rows(w):
    """The targets of one row moved over HTTP (issue 17, Writes), from `measure.writes`."""
    if not w:
        return []
    return [(f"one row moved over HTTP, server CPU per move, with 0 / {w['subscribers']} event-stream subscribers",
             f"{w['quiet_us']['median']:.1f} / {w['watched_us']['median']:.1f} µs; the model's move alone "
             f"{w['model_move_us']['median']:.1f} µs",
             f"×{w['quiet_us']['median'] / w['model_move_us']['median']:.1f} / "
             f"×{w['watched_us']['median'] / w['model_move_us']['median']:.1f} of the model's move",
             "≤ 40 µs, both", verdict(max(w["quiet_us"]["median"], w["watched_us"]["median"]) <= 40))]


def writes_section(w):
    """The Markdown of `measure.writes`."""
    if not w:
        return []
    return ["", f"### Moves with and without subscribers (`wrk -c4 -s scripts/bench/move.lua`, 1,000 rows)", "",
            f"Random single-row moves in one section of 1,000 rows, at two servers taking turns: one with no "
            f"event stream, one with {w['subscribers']} subscribers (`sse_clients`) that received every event "
            f"({w['moves_watched']:,} moves, {w['moves_watched'] * w['subscribers']:,} events). Server CPU per move: "
            f"no subscriber {spread(w['quiet_us'], 1, ' µs')}, {w['subscribers']} subscribers "
            f"{spread(w['watched_us'], 1, ' µs')} (ratio {spread(w['watched_vs_quiet'], 2)}). The floor it is compared "
            f"with is the model's own move (`ModelBench edits 1000`, thread CPU): {spread(w['model_move_us'], 1, ' µs')}."]


def diff_shapes_section(shapes):
    """The Markdown of `measure.diff_shapes`."""
    names = ["5k, 500 deleted + 500 inserted", "100k, 10k deleted + 10k inserted", "100k, 10k moved + 10k changed",
             "100 sections × 1,000, 10 % of each kind", "100k, 10 % of each kind", "1M, 1 % of each kind"]
    out = ["", "### Snapshot diff, six shapes: current against the previous diff and Swift", "",
           "`ModelBench diff-shapes` (thread CPU ms, one process, shapes taking turns). *Previous* is a frozen "
           "copy of the diff before the symbol table (`Benchmarks/Sources/ModelBench/FrozenSnapshotDiff.swift`). "
           "Swift's `difference(from:).inferringMoves()` on the flattened ids is Myers' algorithm, O((N+M)·D) "
           "time and O(D²) memory: it runs on the same shape scaled down to at most 2,000 changes, against the "
           "current diff on that same smaller input.", "",
           "| shape | rows × sections | current | previous | previous/current | Swift (rows) | Swift/current |",
           "|---|---|---|---|---|---|---|"]
    for shape, v in shapes.items():
        out.append(f"| {names[int(shape)]} | {v['rows']:,} × {v['sections']} | {spread(v['current_ms'], 2)} | "
                   f"{spread(v['frozen_ms'], 2)} | ×{v['speed_up']['median']:.2f} ({v['speed_up']['min']:.2f}–"
                   f"{v['speed_up']['max']:.2f}) | {spread(v['swift_ms'], 1)} ({v['swift_rows']:,}) | "
                   f"×{v['swift_vs_current']['median']:.0f} |")
    return out


READ_PATTERNS = {"same": "the same row", "uniform": "uniformly random rows", "zipf": "Zipf-distributed rows (s = 1.1)"}


def reads_rows(reads):
    """The targets of reads as users make them (issue 17); none for results saved before the step."""
    if not reads:
        return []
    worst = max(v["kept_vs_floor"]["median"] for v in reads.values())
    slowest = max(v["kept_vs_made"]["median"] for v in reads.values())
    return [
        ("GET rows of a 100,000-row table: same, uniform, Zipf, server CPU per request",
         ", ".join(f"{p} {v['cpu']['webtableview']['median']:.2f} µs vs floor {v['cpu']['C floor']['median']:.2f}"
                   for p, v in reads.items()),
         "/".join(f"×{v['kept_vs_floor']['median']:.2f}" for v in reads.values()) + " of the floor",
         "≤ ×1.3 on each", verdict(worst <= 1.3)),
        ("the same, kept answers vs `--answer-cache 0`",
         ", ".join(f"{p} {v['cpu']['webtableview, --answer-cache 0']['median']:.2f} µs" for p, v in reads.items())
         + " without", "/".join(f"×{v['kept_vs_made']['median']:.2f}" for v in reads.values()),
         "≤ ×1.00 on each", verdict(slowest <= 1.0)),
    ]


def reads_section(reads):
    if not reads:
        return []
    out = ["### Reads as users make them (`GET …/sections/{s}/rows/{r}` of 10 sections × 10,000 rows)", "",
           "`wrk -c32 -s scripts/bench/reads.lua`: the same row, uniformly random rows, or Zipf-distributed rows "
           "(the row of rank k read with weight 1/k^1.1, ranks scattered over the table). The C floor "
           "(`mhd_floor --paths`) answers each row with its own bytes, made at start-up and found by the path's "
           "hash. Servers take turns, a pattern at a time, each server warmed on the pattern by one run first; "
           "server CPU µs per request.", "",
           "| rows read | webtableview | `--answer-cache 0` | C floor | kept vs floor | made vs floor | kept vs made |",
           "|---|---|---|---|---|---|---|"]
    for pattern, v in reads.items():
        cpu = v["cpu"]
        out.append(f"| {READ_PATTERNS[pattern]} | {spread(cpu['webtableview'], 2)} | "
                   f"{spread(cpu['webtableview, --answer-cache 0'], 2)} | {spread(cpu['C floor'], 2)} | "
                   f"{spread(v['kept_vs_floor'], 2)} | {spread(v['made_vs_floor'], 2)} | {spread(v['kept_vs_made'], 2)} |")
    return out + [""]


COMPRESSED = {"row": "JSON row (kept answer)", "page": "1,000-row page (streamed)", "large": "large table's JSON (streamed)"}


def compression_rows(c):
    """The two compression targets; none for results saved before the step existed."""
    if not c:
        return []
    page, row = c["bytes"]["page"], c["cpu_us"]["row"]
    smaller = min(page["identity"] / page[coding] for coding in ("gzip", "br"))
    worst = max(c["cpu_ratio"]["row"][coding]["median"] for coding in ("gzip", "br"))
    return [
        ("1,000-row page compressed", f"{page['identity']:,} bytes; gzip {page['gzip']:,}, br {page['br']:,}",
         f"×{smaller:.1f} smaller (the lesser)", "≥ ×8 smaller", verdict(smaller >= 8)),
        ("JSON row compressed, server CPU per request", f"{row['identity']['median']:.2f} µs; gzip "
         f"{row['gzip']['median']:.2f} µs, br {row['br']['median']:.2f} µs", f"×{worst:.2f} (the greater)",
         "≤ ×1.10 of uncompressed", verdict(worst <= 1.10)),
    ]


def compression_section(c):
    if not c:
        return []
    out = ["### Compression (`Accept-Encoding: identity`, `gzip`, `br`, taking turns)", "",
           f"The large table has {c['large_rows']:,} short rows; its figure is the server CPU of one whole "
           "`GET` a run. The row and the page are wrk runs as above.", "",
           "| answer | coding | bytes | server CPU per request | CPU vs identity |", "|---|---|---|---|---|"]
    for name, label in COMPRESSED.items():
        for coding in ("identity", "gzip", "br"):
            ratio = "—" if coding == "identity" else spread(c["cpu_ratio"][name][coding], 2)
            out.append(f"| {label} | {coding} | {c['bytes'][name][coding]:,} | "
                       f"{spread(c['cpu_us'][name][coding], 1, ' µs')} | {ratio} |")
    return out + [""]


def replication_rows(r):
    """The target rows of replicas sharing their tables through PostgreSQL (docs/SCALING.md)."""
    w, lag, reads = r["writes"], r["lag"], r["reads"]
    db, journal = w["database"], w["journal"]
    return [
        ("writes to one table: replica (PostgreSQL) vs `--journal --fsync always`",
         f"{db['rate']['median']:,.0f} vs {journal['rate']['median']:,.0f} writes/s; p50/p99 "
         f"{db['p50_ms']['median']:.1f}/{db['p99_ms']['median']:.1f} ms vs "
         f"{journal['p50_ms']['median']:.1f}/{journal['p99_ms']['median']:.1f} ms"
         + (f"; PostgreSQL alone commits one table {r['ceiling'][1]['median']:,.0f} times a second"
            if r.get("ceiling") else ""),
         f"×{w['rate_ratio']['median']:.2f} writes/s", "≥ ×1.00 (the journal's)",
         verdict(w["rate_ratio"]["median"] >= 1.0)),
        ("replicated writes' p99 (4 connections, one table)", f"{db['p99_ms']['median']:.1f} ms at "
         f"{db['rate']['median']:,.0f} writes/s", "—", "≤ 10 ms at 2,000 writes/s",
         verdict(db["p99_ms"]["median"] <= 10 and db["rate"]["median"] >= 2000)),
        *[(f"replication lag A → C at {rate:,} writes/s", f"p50 {v['p50_ms']:.1f} ms, p99 {v['p99_ms']:.1f} ms "
           f"(achieved {v['achieved']:,.0f} writes/s, {v['writes']:,} writes)", "—",
           "p99 ≤ 10 ms" if rate == 200 else "p99 ≤ 5 ms",
           verdict(v["p99_ms"] <= (10 if rate == 200 else 5))) for rate, v in lag.items()],
        ("read one row: replica vs single server, server CPU", f"{reads['replica_us']['median']:.2f} vs "
         f"{reads['single_us']['median']:.2f} µs", f"×{reads['ratio']['median']:.2f}", "≤ ×1.05 (no dearer, within 5 %)",
         verdict(reads["ratio"]["median"] <= 1.05)),
    ]


def replication_section(r):
    """The raw figures of replication (markdown lines)."""
    w, reads = r["writes"], r["reads"]
    out = ["### Replicas through PostgreSQL (`scripts/bench/replication.py`)", "",
           "Three replicas (`serve --database`) of a private PostgreSQL 15 cluster on loopback (Debian's package, "
           "default settings: `fsync` and `synchronous_commit` on), four tables of 1,000 rows; the single server "
           "runs on the same tables with `--journal DIR --fsync always`.", "",
           f"Writes: `wrk -c{w['connections']} --latency -s scripts/bench/move.lua` (random single-row moves) on one "
           "table, at replica A while B and C follow, and at the single server, rounds interleaved:", "",
           "| server | writes/s | p50 | p99 |", "|---|---|---|---|"]
    for name, label in (("database", "replica (PostgreSQL)"), ("journal", "single server, journal fsync always"),
                        ("database_without_notice_changes", "replica, notices without their changes (ablation)")):
        v = w.get(name)
        if not v:
            continue
        out.append(f"| {label} | {spread(v['rate'], 0)} | {spread(v['p50_ms'], 2, ' ms')} | {spread(v['p99_ms'], 2, ' ms')} |")
    if r.get("writes_64"):
        w64 = r["writes_64"]
        out += ["", f"The same with `wrk -c{w64['connections']}`: the replica commits the moves that wait meanwhile "
                "in one group; the single server records one move of a table after the other, each flushed:", "",
                "| server | writes/s | p50 | p99 |", "|---|---|---|---|"]
        for name, label in (("database", "replica (PostgreSQL)"), ("journal", "single server, journal fsync always")):
            v = w64[name]
            out.append(f"| {label} | {spread(v['rate'], 0)} | {spread(v['p50_ms'], 2, ' ms')} | "
                       f"{spread(v['p99_ms'], 2, ' ms')} |")
        out += ["", f"Replica vs single server at {w64['connections']} connections: "
                f"×{w64['rate_ratio']['median']:.2f} writes/s."]
    if r.get("ceiling"):
        one, four = r["ceiling"][1], r["ceiling"][4]
        journal = w["journal"]["rate"]["median"]
        out += ["", "PostgreSQL alone, the ceiling of one table: `pgbench -M prepared` runs the replicas' statement "
                "for one change (move the table's version, insert the change, `NOTIFY`, with three connections "
                f"`LISTEN`ing) on one table: {spread(one, 0)} commits/s from one client, {spread(four, 0)} from four. "
                "Each commit holds the table's row until its WAL is flushed, so a table gets no more commits than "
                "that from this cluster on this machine, whatever the replicas do: the single server's "
                f"{journal:,.0f} writes/s would need {journal / one['median']:.1f} edits in every commit of the "
                "table (a replica's group commit sends one commit of a table at a time)."]
    out += ["", "Lag: moves paced over 8 connections (40 at 1,000/s) to replica A, spread over the four tables; for each "
            "acknowledged version, the time from A's answer to its event arriving on replica C's stream of that table, "
            "both as the kernel stamped their arrival (`SO_TIMESTAMPNS`), so that a Python thread scheduled late does "
            "not count; the ablation rows run replicas whose notices carry no changes (`serve --ablate "
            "notice-changes`: every replica reads every change by query). A negative lag is an event that reached "
            "the reader at C before A's answer reached its writer: C applied the change from PostgreSQL's notice while "
            "A was still answering.", "",
            "| replicas | asked | achieved | writes | p50 | p99 | max |", "|---|---|---|---|---|---|---|"]
    for label, key in (("as built", "lag"), ("notices without changes", "lag_without_notice_changes")):
        for rate, v in r.get(key, {}).items():
            out.append(f"| {label} | {rate:,}/s | {v['achieved']:,.0f}/s | {v['writes']:,} | {v['p50_ms']:.2f} ms | "
                       f"{v['p99_ms']:.2f} ms | {v['max_ms']:.2f} ms |")
    out += ["", f"Reads (`GET` one row, `wrk -c32`): server CPU per request at a replica {spread(reads['replica_us'], 2, ' µs')}, "
            f"at a single server {spread(reads['single_us'], 2, ' µs')}; ratio {spread(reads['ratio'], 2)}.", ""]
    return out


def page1k_lines(page1k):
    """The raw figures of the 1,000-row page and its rows' JSON against their floors."""
    if not page1k:
        return []
    out = ["### 1,000-row page and its rows' JSON against the C floor", "",
           "`GET /tables/page1k` and `GET /api/tables/page1k` (made for every request: the server runs with "
           "`--answer-cache 0`), server CPU per row; the floor is `Benchmarks/Floor/mhd_floor.c` answering "
           "the same bytes, taking turns with the server.", "",
           "| answer | bytes | webtableview | C floor | ratio |", "|---|---|---|---|---|"]
    for kind, v in page1k.items():
        out.append(f"| {'HTML' if kind == 'html' else 'JSON'} | {v['bytes']:,} | {spread(v['row_us'], 3, ' µs')} | "
                   f"{spread(v['floor_row_us'], 3, ' µs')} | {spread(v['vs_floor'], 2)} |")
    return out + [""]


def ablation_section(rows):
    """Each optimisation off alone against on (scripts/bench/ablation.py)."""
    out = ["### Ablation: what each optimisation buys", "",
           "Each optimisation switched off alone, against the same build with it on, interleaved round by "
           "round (each side first as often); off/on is taken round by round. One that costs less than 5 % "
           "when off does not earn its code (issue 34). Switched off by the server's options: "
           "`serve --answer-cache 0`, `--ablate row-plan`, `--ablate send-ring`. The replicas' notices that carry "
           "their changes are switched off in the replication step (`--ablate notice-changes`); their rows are "
           "in its tables above.", "",
           "| optimisation | figure | on | off | off/on | keeps its place |", "|---|---|---|---|---|---|"]
    for row in rows:
        ratio = row["off_vs_on"]["median"]
        out.append(f"| {row['optimisation']} | {row['figure']} | {spread(row['on'], 3)} | {spread(row['off'], 3)} | "
                   f"{spread(row['off_vs_on'], 2)} | {'yes' if ratio >= 1.05 else '**no**'} |")
    return out + [""]


def preface():
    """What the report is, its one link to the history, and how to run the bench."""
    return [
        "The latest full run of `make bench`: the targets, the raw figures and what each optimisation buys. "
        "`make bench` writes this file whole; do not edit it by hand.", "",
        "Earlier runs, the experiments and the reasoning behind each decision: "
        "[docs/perf-history/](perf-history/README.md).", "",
        "## Running the bench", "",
        "- `make bench` (`scripts/bench/run.sh`) installs what "
        "is missing (as root), builds the release binaries (WebTableView with `--scratch-path .build-bench`, "
        "`Benchmarks/`, the C floors of `Benchmarks/Floor/`), runs every step on loopback and rewrites this "
        "file; `scripts/bench/search_keystroke.py` then writes its section at the end.",
        "- Run it alone on the machine: most figures are the server's CPU time, steadier than rates, but every "
        "step still shares the cores with whatever else runs.",
        "- It refuses a tree with changes outside docs/ not committed, so that the report names the commit "
        "its figures are of; `scripts/bench/run.sh --allow-dirty` measures them and says so in the Commit line.",
        "- `scripts/bench/run.sh --quick`: short runs, to try the scripts; `--only json_row,reads,…`: those "
        "steps alone, their results printed and no file written.",
        "- The raw results stay in `.build-bench/bench-results.json`; `python3 scripts/bench/bench.py "
        "--report-only .build-bench/bench-results.json docs/PERFORMANCE.md` writes this file again from them.",
        "",
        "## The run", "",
    ]


def markdown(r):
    j, p, e, d, f, s = (r[k] for k in ("json_row", "page", "edits", "diff", "fan_out", "start_up"))
    out = ["# Performance", "", *preface(),
           f"- Date: {r['date']}", f"- Machine: {r['machine']}", f"- Commit: {r['commit']}",
           "- Release builds: `swift build -c release --scratch-path .build-bench --product webtableview`; "
           "`swift build -c release` in `Benchmarks/`; the C programs with `gcc -O2`.",
           f"- Load: `wrk -t1 -c32 -d{r['seconds']}s` (JSON row), `-c2` (page), `-c4 -s scripts/bench/move.lua` (moves), "
           f"on 127.0.0.1; servers run `--threads 2 --log-level warning`.",
           f"- Every figure is the median of {r['rounds']} interleaved runs ({r.get('json_rounds', r['rounds'])} for the JSON row, "
           "the narrowest comparison; servers take turns, A B C A B C …) with "
           "(min–max, n); ratios are taken run by run, within the same round, then their median.",
           "- Server CPU is the server process's CPU clock (every thread, to the nanosecond; "
           "clock_getcpuclockid(3)) over the run and the half second of quiet after it (what the run left "
           "behind counts with it, not with the next server's turn), divided by the requests wrk completed; "
           "it is steadier than requests/s on this shared machine. Model figures are thread CPU time inside "
           "one process.", "",
           "## Targets", "", "| what | measured | ratio | target | |", "|---|---|---|---|---|"]
    rows = summary_rows(r) + writes_rows(r.get("writes")) + model_memory_rows(r.get("model_memory")) + (
        follow_rows(r.get("follow"))) + (
        live_views_rows(r.get("views"))) + token_read.rows(r.get("token_read")) + (view_cost.rows(r["view_cost"]) if "view_cost" in r else []) + (
        replication_rows(r["replication"]) if "replication" in r else [])
    out += [f"| {a} | {b} | {c} | {t} | {v} |" for a, b, c, t, v in rows]
    out += ["", "## Raw figures", "", f"### JSON row (`GET /api/tables/countries/sections/0/rows/0`, {j['bytes']} bytes)", "",
            "| server | CPU µs/request | requests/s |", "|---|---|---|"]
    for name, v in j["servers"].items():
        out.append(f"| {name} | {spread(v['cpu'], 2)} | {spread(v['rate'], 0)} |")
    out += ["", "Requests per CPU-second of the server (1 / CPU per request), what each would answer on "
            "cores of its own: " + ", ".join(f"{name} {1e6 / v['cpu']['median']:,.0f}" for name, v in j["servers"].items()) + "."]
    out += ["", f"Ratios: CPU vs floor {spread(j['vs_floor_cpu'], 2)}; requests/s vs Hummingbird "
            f"{spread(j['vs_hb_rate'], 2)}; CPU vs Hummingbird {spread(j['vs_hb_cpu'], 2)}.",
            "", "The first WebTableView answers the unchanged row from the answer it keeps ready (see "
            "docs/ARCHITECTURE.md, *Kept answers*); the one with `--answer-cache 0` makes the answer for every "
            f"request: CPU vs floor {spread(j['made_vs_floor_cpu'], 2)}; requests/s vs Hummingbird "
            f"{spread(j['made_vs_hb_rate'], 2)}; CPU vs Hummingbird {spread(j['made_vs_hb_cpu'], 2)}.", "",
            "### Page vs JSON (10 sections × 1,000 rows)", "",
            f"- HTML: {spread(p['html_row'], 3, ' µs')} server CPU per row; {p['html_bytes']:,} bytes",
            f"- JSON: {spread(p['json_row'], 3, ' µs')} server CPU per row; {p['json_bytes']:,} bytes",
            f"- ratio HTML/JSON: {spread(p['ratio'], 2)}",
            f"- page first bytes {spread(p['first_ms'], 1, ' ms')}, last byte {spread(p['total_ms'], 1, ' ms')}, "
            f"chunked transfer coding: {'yes' if p['chunked'] else 'no'}", "",
            *page1k_lines(p.get("page1k")),
            "### Edits at 1,000 and 1,000,000 rows", "", "Model (`Table.apply`, thread CPU ns per edit, 2,000 random edits a run):", "",
            "| rows | insert | delete | move |", "|---|---|---|---|"]
    for rows, kinds in e["model"].items():
        out.append(f"| {int(rows):,} | " + " | ".join(spread(kinds[k], 0) for k in ("insert_ns", "delete_ns", "move_ns")) + " |")
    out += ["", f"Ratios 1M/1k: " + ", ".join(f"{k.split('_')[0]} {spread(v, 2)}" for k, v in e["model_ratio"].items()), "",
            f"HTTP (`POST …/rows/{{r}}/move` to a random place, server CPU µs per request): 1k rows "
            f"{spread(e['http']['rows1k'], 1)}, 1M rows {spread(e['http']['rows1m'], 1)}; ratio {spread(e['http_ratio'], 2)}.", "",
            *writes_section(r.get("writes")), "",
            "### Memory (`--data` with a 1,000-row and a 1,000,000-row table of short rows)", "",
            f"- RSS after loading {e['rss_kib'] / 1024:.0f} MB, peak during load {e['hwm_kib'] / 1024:.0f} MB "
            f"(loaded in {e['load_s']:.1f} s); after one `GET /api/tables/rows1m` {e['rss_after_get_kib'] / 1024:.0f} MB; "
            f"after the move runs {e['rss_after_edits_kib'] / 1024:.0f} MB",
            f"- JSON of the 1M-row table as `GET` answers it (every field, defaults filled in): {e['json_bytes']:,} bytes; "
            f"the `--data` file (ids and texts only, both tables): {e['input_bytes']:,} bytes", "",
            "### Snapshot diff (thread CPU ms; a tenth of the rows each deleted, inserted, moved, changed)", "",
            "| rows | SnapshotDiff | applying its batches | batches |", "|---|---|---|---|"]
    for rows, v in d["ours"].items():
        out.append(f"| {int(rows):,} | {spread(v['diff_ns'], 1)} | {spread(v['apply_ns'], 1)} | {v['batches']} |")
    out += ["", "The sizes take turns (100k, 200k, 100k, …), each figure the second of two runs in one process; "
            f"200k against 100k, round by round: {spread(d['linearity'], 2)}.", "", "Against Swift's `difference(from:).inferringMoves()` on the flattened ids (Myers: O((N+M)·D) time, "
            "O(D²) memory, so it is run at smaller sizes):", "", "| rows | SnapshotDiff | Swift | Swift/ours |", "|---|---|---|---|"]
    for rows, v in d["side"].items():
        out.append(f"| {int(rows):,} | {spread(v['diff_ns'], 1)} | {spread(v['swift_ns'], 1)} | {spread(v['ratio'], 0)} |")
    if "diff_shapes" in r:
        out += diff_shapes_section(r["diff_shapes"])
    first = next(iter(f.values()))
    changes = ", ".join(f"{v.get('changes', 20)} changes a run at {int(n):,}" for n, v in f.items())
    out += ["", f"### Event-stream fan-out ({changes}; "
            f"{first['per_event_us']['n']} runs each, taking turns with the floors)", "",
            "The floor is `Benchmarks/Floor/sse_floor.c`: the same subscribers, an event of the same size, "
            "written with one `send()` to each socket and nothing else (the target's floor). With "
            "`--io-uring` it is the floor of batched sends, which the server uses where the kernel allows "
            "it: the event goes to the sockets through an io_uring, up to 512 sends a system call. The "
            "three hold their subscribers at once and take turns, run by run; a run's CPU is read half a "
            "second after its last event arrives, so what it left behind counts with it and the next run "
            "starts quiet. Ratios are taken run by run.", "",
            "| subscribers | event | server CPU per delivered event | C floor, `send()` | ratio | "
            "C floor, io_uring | ratio | idle CPU |",
            "|---|---|---|---|---|---|---|---|"]
    for n, v in f.items():
        batched = (f"{spread(v['batched_floor_per_event_us'], 2, ' µs')} | ×{v['vs_batched_floor']['median']:.2f}"
                   if "vs_batched_floor" in v else "— | —")
        out.append(f"| {int(n):,} | {v['event_bytes']} bytes | {spread(v['per_event_us'], 2, ' µs')} | "
                   f"{spread(v['floor_per_event_us'], 2, ' µs')} | ×{v['vs_floor']['median']:.2f} | "
                   f"{batched} | {v['idle_us_per_s']:.0f} µs/s |")
    out += ["", *reads_section(r.get("reads")), *token_read.section(r.get("token_read")),
            *compression_section(r.get("compression"))]
    out += ["### Start-up (`serve --port 0` with the demo tables, spawn to the first `GET /healthz` answer)", "",
            f"- webtableview: {spread(s['product_ms'], 1, ' ms')} (its own CPU time by then: "
            f"{spread(s['cpu_ms'], 0, ' ms')})", f"- `true`: {spread(s['true_ms'], 1, ' ms')}", ""]
    if "replication" in r:
        out += replication_section(r["replication"])
    if "ablation" in r:
        out += ablation_section(r["ablation"])
    return "\n".join(out)
