"""axe-core 4.12 (the copy the axe-playwright-python package carries; only
its axe.min.js is used, Selenium drives the browser) over every demo
page — the list of tables, and each demo table (and examples/settings.json)
in the three styles with editing mode on and a Delete button shown — in a desktop window and on a phone, in light and in dark mode
(prefers-color-scheme emulated): no violation at all."""

import importlib.util
import json
import re
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains

from support import ROOT, as_phone, open_table, wait

# Found without importing the package, which would want Playwright.
AXE = (Path(importlib.util.find_spec("axe_playwright_python").submodule_search_locations[0])
       / "axe.min.js").read_text()
AXE_VERSION = tuple(int(part) for part in re.match(r"/\*! axe v(\d+)\.(\d+)", AXE).groups())
DEMO = [table for name in ("countries", "us-cities", "settings")
        for table in (lambda document: document if isinstance(document, list) else [document])(
            json.loads((ROOT / "examples" / f"{name}.json").read_text()))]

RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document).then((results) => done(results.violations.map((violation) => ({
  rule: violation.id,
  nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`)}))));
"""


def test_the_axe_core_run_is_a_4x_release():
    assert AXE_VERSION[0] == 4 and AXE_VERSION >= (4, 12), AXE_VERSION


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


NOTES = {"id": "notes", "title": "Notes", "allowsSelection": True, "sections": [{"header": "Notes", "rows": [
    {"text": "Selected", "style": "subtitle", "detail": "Detail", "selected": True,
     "accessoryView": {"type": "badge", "text": "3"}}, {"text": "Swiped"}, {"text": "Plain", "detail": "Detail"},
]}]}


# Contrast of the text of badges and Delete buttons on what is under it, which
# axe leaves "incomplete" when a pseudo element or a transform is near: the
# colours composited over the element's and its ancestors' backgrounds, then
# WCAG's formula.
FILL_CONTRAST = """
const parse = (css) => {
  const parts = css.match(/[\\d.]+/g).map(Number);
  return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
};
const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
const backgroundOf = (element) => {
  const layers = [];
  for (let node = element; node; node = node.parentElement) {
    const colour = parse(getComputedStyle(node).backgroundColor);
    if (colour[3] > 0) layers.push(colour);
    if (colour[3] >= 1) break;
  }
  return layers.reverse().reduce((bottom, top) => over(top, bottom), [255, 255, 255, 1]);
};
const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
return Array.from(document.querySelectorAll(arguments[0])).map((element) => {
  const background = backgroundOf(element);
  const text = over(parse(getComputedStyle(element).color), background);
  const [a, b] = [luminance(text), luminance(background)].sort((x, y) => y - x);
  return [element.className, Math.round((a + 0.05) / (b + 0.05) * 100) / 100];
});
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_toast_a_swiped_row_and_a_selected_row_have_no_axe_violation(serve, browser, scheme):
    # The page's stream is held up so that a click on a row is refused (the
    # page is a version behind) and the toast shows.
    server = serve([NOTES])
    window = browser(width=800, height=700)
    window.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    window.execute_cdp_cmd("Fetch.enable", {"patterns": [{"urlPattern": "*/events*"}]})
    open_table(window, server, "notes")
    server.edit("POST", "/api/tables/notes/sections/0/rows", {"row": {"text": "Added"}})
    window.find_element("css selector", "tr.cell[data-row='2']").click()
    wait(window, window.find_element("css selector", ".tv-toast").is_displayed, "no toast")
    assert violations(window) == []

    swiped = window.find_element("css selector", "tr.cell[data-row='1']")
    ActionChains(window, duration=20).move_to_element_with_offset(swiped, 200, 0).click_and_hold() \
        .move_by_offset(-40, 0).move_by_offset(-40, 0).move_by_offset(-40, 0).release().perform()
    wait(window, lambda: swiped.find_element("css selector", ".tv-delete-confirm").is_displayed(), "no swipe")
    assert violations(window) == []
    fills = window.execute_script(FILL_CONTRAST, ".badge, .selected .detail, .tv-swiped .tv-delete-confirm")
    assert len(fills) == 3 and all(ratio >= 4.5 for _, ratio in fills), fills


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("style", ["grouped", "insetGrouped"])
def test_the_button_accessory_meets_aa_contrast(serve, browser, style, scheme):
    # "Update Now", the Settings demo's button accessory: tinted text on a grey fill.
    server = serve(DEMO)
    window = browser(width=800, height=900)
    window.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    open_table(window, server, "settings", f"?style={style}")
    buttons = window.execute_script(FILL_CONTRAST, ".accessory-button")
    assert buttons and all(ratio >= 4.5 for _, ratio in buttons), buttons
    assert violations(window) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_searching_has_no_axe_violation(serve, browser, scheme):
    """The search bar focused (the list dimmed), showing results, offline, and showing "No Results"."""
    cities = next(table for table in DEMO if table["id"] == "us-cities")
    server = serve([cities])
    window = browser(width=1280, height=900)
    window.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    open_table(window, server, cities["id"])
    field = window.find_element("css selector", "form.search-bar input[name=q]")
    field.click()
    found = {"focused": violations(window)}
    field.send_keys("san")
    wait(window, lambda: window.find_elements("css selector", "form.search-bar.searching"), "no results shown")
    found["results"] = violations(window)
    field.send_keys("zzz")
    wait(window, lambda: window.find_elements("css selector", ".search-no-results"), "No Results not shown")
    found["no results"] = violations(window)
    server.stop()
    field.send_keys("\b\b\b")
    wait(window, lambda: window.find_element("css selector", ".search-status").text, "the offline search said nothing")
    found["offline"] = violations(window)
    assert {state: found[state] for state in found if found[state]} == {}
