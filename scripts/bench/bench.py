"""Runs every benchmark of docs/PERFORMANCE.md and writes that file.

Usage: bench.py --product BIN --floor BIN --hummingbird BIN --model-bench BIN
                --sse-clients BIN --sse-floor BIN --out FILE --raw FILE [--quick] [--only STEP,…]
                [--allow-dirty]
       bench.py --report-only RAW_FILE OUT_FILE   (the Markdown again, from saved results)
Run by scripts/bench/run.sh, which installs and builds what these need.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ablation  # noqa: E402
import measure  # noqa: E402
import replication  # noqa: E402
import report  # noqa: E402
import tables  # noqa: E402
import token_read  # noqa: E402
import view_cost  # noqa: E402
import views  # noqa: E402


class Tools:
    """Paths of the programs under test and of the data files."""

    def __init__(self, args, work):
        self.product = args.product
        self.floor = args.floor
        self.hummingbird = args.hummingbird
        self.sse_clients = args.sse_clients
        self.sse_floor = args.sse_floor
        self.bench = args.model_bench
        self.work = work
        self.scripts = os.path.dirname(os.path.abspath(__file__))
        self.root = os.path.dirname(os.path.dirname(self.scripts))
        self.large_rows = 100_000 if args.quick else 1_000_000
        self.data = tables.make(work, self.large_rows)

    def serve(self, *extra):
        return [self.product, "serve", "--port", "0", "--log-level", "warning", *extra]

    def model_bench(self, *arguments):
        output = subprocess.run([self.bench, *map(str, arguments)], capture_output=True, text=True, check=True).stdout
        return [dict(field.split("=", 1) for field in line.split()[1:]) for line in output.splitlines() if line]


def main():
    parser = argparse.ArgumentParser()
    for name in ("product", "floor", "hummingbird", "model-bench", "sse-clients", "sse-floor", "out", "raw"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--quick", action="store_true", help="fewer and shorter runs, to try the script")
    parser.add_argument("--only", help="comma-separated steps to run (json_row, page, …); their results are "
                        "printed and no file is written, since a report is one whole run")
    parser.add_argument("--allow-dirty", action="store_true", help="measure a tree with uncommitted changes; "
                        "the report says so in its Commit line")
    if sys.argv[1:2] == ["--report-only"]:
        # Rewrites the Markdown from the raw results of an earlier run: --report-only RAW OUT
        with open(sys.argv[2]) as file:
            results = json.load(file, object_hook=lambda o: {int(k) if k.isdigit() else k: v for k, v in o.items()})
        with open(sys.argv[3], "w") as file:
            file.write(report.markdown(results))
        return
    args = parser.parse_args()
    rounds, seconds = (2, 2) if args.quick else (5, 4)
    # The JSON row against the C floor is the narrowest comparison: more rounds
    # steady its median against this shared machine's noise.
    json_rounds = 3 if args.quick else 9
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    head, changes = report.tree(root)
    writes_report = not args.only and not args.quick
    if changes and writes_report and not args.allow_dirty:
        sys.exit(f"bench: uncommitted changes ({', '.join(changes[:8])}): commit them, so that the report "
                 "names the commit its figures are of, or pass --allow-dirty to mark the report")
    with tempfile.TemporaryDirectory(prefix="wtv-bench-") as work:
        tools = Tools(args, work)
        os.chdir(tools.root)
        results = {"rounds": rounds, "json_rounds": json_rounds, "seconds": seconds}
        steps = [
            ("json_row", lambda: measure.json_row(tools, json_rounds, seconds)),
            ("reads", lambda: measure.reads(tools, rounds, seconds)),
            ("token_read", lambda: token_read.measure(tools, rounds, seconds)),
            ("page", lambda: measure.page_vs_json(tools, rounds, seconds)),
            ("edits", lambda: measure.edits_and_memory(tools, rounds, seconds)),
            ("writes", lambda: measure.writes(tools, rounds, seconds)),
            ("diff", lambda: measure.snapshot_diff(tools, 3 if args.quick else 5)),
            ("diff_shapes", lambda: measure.diff_shapes(tools, 2 if args.quick else 5, 10 if args.quick else 1)),
            # One-row edits with 100 live views open: the model alone, then the server over HTTP.
            ("views", lambda: {
                "model": measure.live_views(tools, tools.large_rows, 100, 50 if args.quick else 400),
                "server": views.measure(tools, tools.large_rows, 100, 50 if args.quick else 400)}),
            # Opening 100 views, /healthz while they follow an edit burst, memory once they close.
            ("view_cost", lambda: view_cost.measure(tools.product, tools.large_rows)),
            ("model_memory", lambda: measure.model_memory(tools, 100_000 if args.quick else 1_000_000,
                                                          100_000 if args.quick else 1_000_000)),
            ("follow", lambda: measure.follow(tools, 3 if args.quick else 5)),
            # At least 100,000 delivered events a turn, so that a turn's first, cold changes
            # weigh little; an even number of rounds, so that each server goes first as often
            # as second, and 16 of them, as a round's ratio moves by ±20 % on this machine.
            ("fan_out", lambda: measure.fan_out(
                tools, {1000: 10, 10_000: 4} if args.quick else {1000: 100, 10_000: 40}, 2 if args.quick else 16)),
            ("compression", lambda: measure.compression(tools, rounds, seconds, json_rounds)),
            ("start_up", lambda: measure.start_up(tools, 5 if args.quick else 15)),
            # Each optimisation off alone against on; 8 rounds, each side first as often.
            ("ablation", lambda: ablation.measure(tools, 2 if args.quick else 8, seconds, 20 if args.quick else 100)),
        ]
        # Replicas through PostgreSQL, once the server has serve --database (docs/SCALING.md).
        if replication.supported(tools.product):
            steps.append(("replication", lambda: replication.measure(tools.product, work, args.quick)))
        if args.only:
            wanted = args.only.split(",")
            unknown = set(wanted) - {name for name, _ in steps}
            if unknown:
                sys.exit(f"bench: no step named {', '.join(sorted(unknown))}; steps: {', '.join(n for n, _ in steps)}")
            steps = [(name, step) for name, step in steps if name in wanted]
        for name, step in steps:
            print(f"bench: {name}", file=sys.stderr, flush=True)
            results[name] = step()
            print(json.dumps(results[name], default=str), file=sys.stderr, flush=True)
    if args.only:
        return
    results["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    results["machine"] = report.machine()
    if report.tree(root) != (head, changes):
        changes = changes + ["(the tree changed while the bench ran)"]
    results["commit"] = report.commit(head, changes)
    with open(args.out, "w") as file:
        file.write(report.markdown(results))
    with open(args.raw, "w") as file:
        json.dump(results, file, indent=1, default=str)
    print(f"bench: wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
