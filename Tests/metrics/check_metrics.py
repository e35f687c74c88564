#!/usr/bin/env python3
"""/metrics read by Prometheus' own text parser (PyPI prometheus-client).

The exposition is our own code (docs/ARCHITECTURE.md says why), so a parser
that is not ours reads it: every family typed and documented once, the series a
request leaves behind, histograms whose buckets add up.
Usage: Tests/metrics/check_metrics.py BASE_URL
"""
import math
import sys
import urllib.error
import urllib.request
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from wtv import wait_until  # noqa: E402

EXPECTED = {
    "http_requests": "counter",  # http_requests_total; the parser drops _total
    "http_request_duration_seconds": "histogram",
    "http_requests_in_flight": "gauge",
    "http_event_streams_open": "gauge",
    "http_event_chunks_written": "counter",  # http_event_chunks_written_total
    "process_resident_memory_bytes": "gauge",
    "process_virtual_memory_bytes": "gauge",
    "process_cpu_seconds": "counter",
    "process_max_fds": "gauge",
    "process_open_fds": "gauge",
    "process_heap_in_use_bytes": "gauge",
    "webtableview_tables": "gauge",
    "webtableview_sections": "gauge",
    "webtableview_rows": "gauge",
    "webtableview_views_open": "gauge",
    "webtableview_views_held": "gauge",
    "webtableview_heavy_running": "gauge",
    "webtableview_heavy_waiting": "gauge",
    "webtableview_heavy_refused": "counter",  # webtableview_heavy_refused_total
}


def get(url):
    try:
        with urllib.request.urlopen(url) as answer:
            return answer.status, answer.headers, answer.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode("utf-8")


def check_histogram(family, failures):
    series = {}
    for sample in family.samples:
        labels = {k: v for k, v in sample.labels.items() if k != "le"}
        key = tuple(sorted(labels.items()))
        entry = series.setdefault(key, {"buckets": [], "count": None, "sum": None})
        if sample.name.endswith("_bucket"):
            entry["buckets"].append((float(sample.labels["le"]), sample.value))
        elif sample.name.endswith("_count"):
            entry["count"] = sample.value
        elif sample.name.endswith("_sum"):
            entry["sum"] = sample.value
    for key, entry in series.items():
        bounds = [bound for bound, _ in entry["buckets"]]
        counts = [count for _, count in entry["buckets"]]
        if bounds != sorted(bounds) or not bounds or bounds[-1] != math.inf:
            failures.append(f"{family.name}{dict(key)}: buckets not ascending to +Inf: {bounds}")
        if counts != sorted(counts):
            failures.append(f"{family.name}{dict(key)}: bucket counts not cumulative: {counts}")
        if entry["count"] is None or counts[-1:] != [entry["count"]]:
            failures.append(f"{family.name}{dict(key)}: _count {entry['count']} is not the +Inf bucket")
        if entry["sum"] is None or entry["sum"] < 0:
            failures.append(f"{family.name}{dict(key)}: _sum {entry['sum']}")


def main():
    base = sys.argv[1].rstrip("/")
    get(base + "/api/tables/countries")
    get(base + "/no-such-page")
    # A request is counted when libmicrohttpd reports it complete, just after its
    # last byte is sent: a scrape on another connection may come first. Read
    # /metrics until both requests are in it (at most 5 s), then check that answer.
    failures = []

    def scrape():
        status, headers, text = get(base + "/metrics")
        counted = all(f'route="{route}",status="{code}"' in text
                      for route, code in (("/api/tables/{t}", "200"), ("unmatched", "404")))
        return (status, headers, text) if status != 200 or counted else None

    try:
        status, headers, text = wait_until(scrape, "the two requests are not counted in /metrics", timeout=5)
    except AssertionError as error:
        failures.append(str(error))
        status, headers, text = get(base + "/metrics")
    if status != 200:
        failures.append(f"/metrics answered {status}")
    if headers.get("Content-Type") != "text/plain; version=0.0.4; charset=utf-8":
        failures.append(f"Content-Type {headers.get('Content-Type')!r}")

    families = list(text_string_to_metric_families(text))
    names = [family.name for family in families]
    for name in sorted({name for name in names if names.count(name) > 1}):
        failures.append(f"family {name} exposed more than once")
    by_name = {family.name: family for family in families}
    for name, kind in EXPECTED.items():
        family = by_name.get(name)
        if family is None:
            failures.append(f"family {name} missing")
        elif family.type != kind:
            failures.append(f"family {name} is a {family.type}, expected a {kind}")
    for family in families:
        if family.type in ("unknown", "untyped"):
            failures.append(f"family {family.name} has no # TYPE")
        if not family.documentation:
            failures.append(f"family {family.name} has no # HELP")
        for sample in family.samples:
            if math.isnan(sample.value) or (family.type == "counter" and sample.value < 0):
                failures.append(f"{sample.name}{sample.labels} = {sample.value}")
        if family.type == "histogram":
            check_histogram(family, failures)

    requests = {(s.labels.get("method"), s.labels.get("route"), s.labels.get("status")): s.value
                for s in by_name["http_requests"].samples} if "http_requests" in by_name else {}
    for series in [("GET", "/api/tables/{t}", "200"), ("GET", "unmatched", "404")]:
        if requests.get(series, 0) < 1:
            failures.append(f"http_requests_total{series} not counted: {sorted(requests)}")
    samples = sum(len(family.samples) for family in families)
    for failure in failures:
        print(f"metrics: {failure}", file=sys.stderr)
    if failures:
        print(f"metrics: 0 passed, 1 failed")
        return 1
    print(f"metrics: {len(families)} families, {samples} samples read by prometheus-client's parser")
    print("metrics: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
