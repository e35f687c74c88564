"""A live page behind nginx keeps following after its replica is SIGKILLed.

Run by scripts/container/deploy-checks.sh (`make container-test`) against the
stack of deploy/compose.yaml: opens the countries table through nginx in
headless Chromium, finds the replica holding the page's event stream (its
/metrics), kills that container with `podman kill`, edits through nginx, and
checks that the page shows every version after the kill, in order, once each,
and ends equal to the table. Writes the killed container's name to --killed.
Exits non-zero, saying why, on any failure."""

import argparse
import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from support import TIMEOUT, chromium, dom_texts, script_errors, wait  # noqa: E402
from wtv import wait_until  # noqa: E402

# Every version the page applies, in order.
RECORD_VERSIONS = """
window.versions = [];
document.querySelector('table.table-view').addEventListener(
  'webtableview:update', (event) => window.versions.push(event.detail.version));
"""


def request(method: str, url: str, token: str = "", body=None):
    data = None if body is None else json.dumps(body).encode()
    call = urllib.request.Request(url, data=data, method=method)
    if body is not None:
        call.add_header("Content-Type", "application/json")
    if token:
        call.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(call, timeout=TIMEOUT) as response:
        return json.loads(response.read())


def open_streams(url: str) -> int:
    with urllib.request.urlopen(f"{url}/metrics", timeout=TIMEOUT) as response:
        metrics = response.read().decode()
    found = re.search(r"^http_event_streams_open (\d+)$", metrics, re.MULTILINE)
    assert found, f"{url}/metrics has no http_event_streams_open"
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nginx", required=True, help="nginx's URL")
    parser.add_argument("--token", required=True, help="the edit token")
    parser.add_argument("--replica", action="append", required=True, help="CONTAINER=URL, for each replica")
    parser.add_argument("--killed", required=True, help="file to write the killed container's name to")
    options = parser.parse_args()
    replicas = dict(entry.split("=", 1) for entry in options.replica)

    driver = chromium()
    try:
        driver.get(f"{options.nginx}/tables/countries")
        wait(driver, lambda: driver.execute_script(
            "return document.querySelector('table.table-view')?.classList.contains('tv-live')"),
            "the page's script did not start")
        driver.execute_script(RECORD_VERSIONS)
        shown = int(driver.execute_script("return document.querySelector('table.table-view').dataset.version"))

        # Once the page's stream is the only one open in the stack, its replica is the one showing it.
        counts = wait_until(lambda: (lambda found: found if sum(found.values()) == 1 else None)(
                 {name: open_streams(url) for name, url in replicas.items()}),
                 "the replicas do not show the page's event stream alone")
        holder = next(name for name, count in counts.items() if count == 1)
        subprocess.run(["podman", "kill", holder], check=True, capture_output=True)
        Path(options.killed).write_text(holder)
        print(f"killed {holder}, which held the page's stream at version {shown}")

        versions = [request("PUT", f"{options.nginx}/api/tables/countries/sections/0/rows/0", options.token,
                            {"id": "england", "text": f"England after the kill, {n}"})["version"] for n in range(3)]
        print(f"edits through nginx after the kill: versions {versions}")
        wait(driver, lambda: driver.execute_script("return window.versions.at(-1)") == versions[-1],
             f"the page did not reach version {versions[-1]}: it applied "
             f"{driver.execute_script('return window.versions')}")

        applied = driver.execute_script("return window.versions")
        expected = list(range(shown + 1, versions[-1] + 1))
        assert applied == expected, f"the page applied versions {applied}, not {expected} once each in order"
        survivor = next(url for name, url in replicas.items() if name != holder)
        table = request("GET", f"{survivor}/api/tables/countries")
        texts = [[row.get("text", "") for row in section["rows"]] for section in table["sections"]]
        wait(driver, lambda: dom_texts(driver) == texts, "the page does not show the table's rows")
        assert wait_until(lambda: sum(open_streams(url) for name, url in replicas.items() if name != holder) == 1,
                          "the page's stream is not open at another replica")
        errors = [error for error in script_errors(driver) if "events" not in error]
        assert errors == [], f"the page's scripts failed: {errors}"
        print(f"the page followed on to version {versions[-1]} through another replica")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
