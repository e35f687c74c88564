"""The first page of a search over a large table (issue 44): the server's CPU for the JSON
rows page (`…/sections/0/rows?q=…&limit=100`) of a selective `q` (a number, some 100 rows of a
million) and of a `q` every row matches (`Row`), each asked again and again (a search that
selects without sorting reads its page in place and keeps no view: docs/ARCHITECTURE.md,
"Views"). Goal: the match-all page about what the selective one costs, both ≤ 50 ms.

Usage: search_pages.py --product BIN [--quick]   (run by scripts/bench/run.sh after bench.py;
prints one JSON line of medians in µs)"""
import argparse
import json
import os
import statistics
import sys
import tempfile

import tables
from procs import Server, http


def measure(product, rows, repeats):
    with tempfile.TemporaryDirectory(prefix="wtv-search-") as work:
        path = os.path.join(work, "search.json")
        tables.write(path, [{"id": "search", "sections": [{"id": "s", "rows": tables.short_rows(rows)}]}])
        server = Server("webtableview", [product, "serve", "--port", "0", "--log-level", "warning", "--data", path])
        try:
            def cpu(q):
                before = server.cpu_us()
                status, _, body = http(server.port, "GET", f"/api/tables/search/sections/0/rows?q={q}&limit=100")
                assert status == 200, (status, body[:200])
                return server.cpu_us() - before, json.loads(body)["total"]

            first, _ = cpu("4242")   # the table's first search folds every leaf's texts
            results = {"rows": rows, "first_search_us": round(first)}
            for name, q in (("selective", "4242"), ("match_all", "Row")):
                runs = [cpu(q) for _ in range(repeats)]
                results[f"{name}_us"] = round(statistics.median(cost for cost, _ in runs))
                results[f"{name}_total"] = runs[0][1]
            results["ratio"] = round(results["match_all_us"] / results["selective_us"], 2)
            return results
        finally:
            server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--product", required=True)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rows = 100_000 if args.quick else 1_000_000
    print("bench: search_pages", file=sys.stderr, flush=True)
    print(json.dumps({"search_pages": measure(args.product, rows, 5 if args.quick else 20)}), flush=True)


if __name__ == "__main__":
    main()
