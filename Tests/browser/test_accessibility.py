"""axe-core (the copy the axe-core-python package carries) over every demo
page — the list of tables, and each demo table (and examples/settings.json)
in the three styles with editing mode on and a Delete button shown — in a desktop window and on a phone, in light and in dark mode
(prefers-color-scheme emulated): no violation at all."""

import json
from pathlib import Path

import axe_core_python
import pytest

from support import ROOT, as_phone, open_table, wait

AXE = (Path(axe_core_python.__file__).parent / "axe.min.js").read_text()
DEMO = [table for name in ("countries", "us-cities", "settings")
        for table in (lambda document: document if isinstance(document, list) else [document])(
            json.loads((ROOT / "examples" / f"{name}.json").read_text()))]

RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document).then((results) => done(results.violations.map((violation) => ({
  rule: violation.id,
  nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`)}))));
"""


def violations(driver) -> list[dict]:
    driver.execute_script(AXE)
    return driver.execute_async_script(RUN_AXE)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_every_demo_page_has_no_axe_violation(serve, browser, device, scheme):
    server = serve(DEMO)
    window = browser(width=1280, height=900)
    if device == "phone":
        as_phone(window)
    window.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    found = {}
    window.get(server.url + "/")
    assert window.execute_script(
        "return matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
    found["/"] = violations(window)
    for table in DEMO:
        for style in ("plain", "grouped", "insetGrouped"):
            open_table(window, server, table["id"], f"?style={style}")
            window.find_element("css selector", ".tv-edit-button").click()
            # One row asks to confirm its delete: the Delete button is checked too.
            controls = window.find_elements("css selector", "tr.cell .tv-delete-control")
            if controls:
                controls[0].click()
                wait(window, lambda: window.find_elements("css selector", ".tv-confirming .tv-delete-confirm"))
            found[f"{table['id']} {style}, editing"] = violations(window)
    assert {page: found[page] for page in found if found[page]} == {}
