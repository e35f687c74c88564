#!/usr/bin/env python3
"""Keystroke to results in the browser (issue 45): a 50,000-row table served by
the release build, its page open in headless Chromium (Selenium), a word typed
into the search field one key at a time, each key after the results of the
one before. For each key: the time from its `keydown` to the table's rows
replaced by the results (a MutationObserver on the table), split into the
wait for the search bar's request (it asks at the next animation frame,
Public/search.js), the request and the server's answer (the fetch's resource
timing) and the page putting the answer in place.

    scripts/bench/search_keystroke.py --product BIN [--out docs/PERFORMANCE.md] [--quick]

Prints one Markdown table; with --out, writes it into that file between the
markers `<!-- search-keystroke -->` and `<!-- /search-keystroke -->` (added at
the end the first time), leaving the rest of the file as it is.
"""
import argparse
import json
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

from report import commit, tree

ROOT = Path(__file__).resolve().parents[2]
ROWS = 50_000
SECTIONS = 50
WORDS = ["sandstone", "harbour", "meadow"]
START = "<!-- search-keystroke -->"
END = "<!-- /search-keystroke -->"

# Times each keydown on the search field and the table's next change of rows after it.
PROBE = """
const field = document.querySelector('form.search-bar input[name=q]');
const table = document.querySelector('table.table-view[data-table]');
window.__keys = [];
field.addEventListener('keydown', () => window.__keys.push({down: performance.now(), rows: null}), true);
new MutationObserver(() => {
  const key = window.__keys[window.__keys.length - 1];
  if (key && key.rows === null) key.rows = performance.now();
}).observe(table, {childList: true});
"""

# The search bar's requests of this page (`/tables/big?q=…`), in order, from resource timing.
REQUESTS = """
const requests = performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/tables/big?q='));
performance.clearResourceTimings();
return requests.map((entry) => ({start: entry.startTime, end: entry.responseEnd}));
"""


def table():
    """50 sections of 1,000 rows; one row in 50 holds one of WORDS."""
    sections = []
    for s in range(SECTIONS):
        rows = []
        for r in range(ROWS // SECTIONS):
            n = s * (ROWS // SECTIONS) + r
            word = WORDS[n // 50 % len(WORDS)] if n % 50 == 0 else "place"
            rows.append({"id": f"r{n}", "text": f"{word.title()} {n}", "detail": f"{n * 7 % 100_000:,}"})
        sections.append({"id": f"s{s}", "header": f"Section {s}", "rows": rows})
    return {"id": "big", "title": "Big", "sections": sections}


def measure(product: str, quick: bool) -> dict:
    os.environ["WEBTABLEVIEW_BIN"] = product
    sys.path.insert(0, str(ROOT / "Tests" / "support"))
    sys.path.insert(0, str(ROOT / "Tests" / "browser"))
    import wtv  # noqa: E402
    from support import chromium  # noqa: E402
    from selenium.webdriver.common.by import By  # noqa: E402

    work = Path(tempfile.mkdtemp(prefix="bench-search-"))
    os.environ["TMPDIR"] = str(work)
    data = work / "big.json"
    data.write_text(json.dumps(table()))
    server = wtv.Server(work, "--data", str(data))
    window = chromium(width=1280, height=900)
    parts = {"total_ms": [], "before_request_ms": [], "request_ms": [], "in_place_ms": []}
    try:
        for run in range(1 if quick else 3):
            window.get(f"{server.url}/tables/big")
            wtv.wait_until(lambda: window.execute_script(
                "return document.querySelector('table.table-view')?.classList.contains('tv-live')"), "no live page")
            window.execute_script(PROBE)
            field = window.find_element(By.CSS_SELECTOR, "form.search-bar input[name=q]")
            field.click()
            for index, key in enumerate(WORDS[run % len(WORDS)]):
                field.send_keys(key)
                wtv.wait_until(lambda: window.execute_script(
                    f"return window.__keys[{index}]?.rows != null"), f"no results after key {index + 1}")
            keys = window.execute_script("return window.__keys")
            requests = window.execute_script(REQUESTS)
            if len(requests) != len(keys):
                sys.exit(f"{len(keys)} keys made {len(requests)} search requests: one each was expected")
            for key, request in zip(keys, requests):
                parts["total_ms"].append(key["rows"] - key["down"])
                parts["before_request_ms"].append(request["start"] - key["down"])
                parts["request_ms"].append(request["end"] - request["start"])
                parts["in_place_ms"].append(key["rows"] - request["end"])
    finally:
        window.quit()
        server.stop()
    return {"keys": len(parts["total_ms"]), **parts}


def report(result: dict) -> str:
    def cell(values):
        return f"{statistics.median(values):.0f} ms (max {max(values):.0f})"
    total = statistics.median(result["total_ms"])
    return "\n".join([
        START,
        "### Search: keystroke to results in the browser",
        "",
        f"Measured by `scripts/bench/search_keystroke.py`: a {ROWS:,}-row table ({SECTIONS} sections) on the",
        "release build, its page in headless Chromium, a word typed into the search field one key at a",
        f"time ({result['keys']} keys in all); from each key's `keydown` to the table's rows replaced by its results.",
        f"Commit: {commit(*tree(str(ROOT)))}.",
        "",
        "| figure | median (max) | target | verdict |",
        "|---|---|---|---|",
        f"| keystroke → rows updated | {cell(result['total_ms'])} | ≤ 100 ms | {'met' if total <= 100 else 'NOT met'} |",
        f"| of which: key to request (next animation frame) | {cell(result['before_request_ms'])} | | |",
        f"| of which: request and the server's answer | {cell(result['request_ms'])} | | |",
        f"| of which: answer put in place | {cell(result['in_place_ms'])} | | |",
        END,
    ])


def write(path: Path, section: str) -> None:
    text = path.read_text() if path.exists() else ""
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.DOTALL)
    text = pattern.sub(lambda _: section, text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--product", required=True, help="the release webtableview binary")
    parser.add_argument("--out", help="the report to write the table into (docs/PERFORMANCE.md)")
    parser.add_argument("--quick", action="store_true", help="one word instead of three")
    args = parser.parse_args()
    section = report(measure(args.product, args.quick))
    print(section)
    if args.out:
        write(Path(args.out), section)


if __name__ == "__main__":
    main()
