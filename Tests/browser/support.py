"""Helpers for the browser tests: the real server on port 0 and polling
(Tests/support/wtv.py), HTTP calls with urllib, headless Chromium through
Selenium, and reading the table off the page."""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import wtv  # noqa: E402
from wtv import BINARY, ROOT, TIMEOUT  # noqa: E402,F401  (the suite's names)

# Where screenshots go: a scratch folder, unless `make screenshots` names docs/screenshots.
SCREENSHOTS = Path(os.environ.get("WEBTABLEVIEW_SCREENSHOTS", "/tmp/webtableview-screenshots"))


class Server(wtv.Server):
    """`webtableview serve --port 0 --data FILE` of `tables`, stopped by `stop()`;
    `request` speaks JSON both ways."""

    def __init__(self, tables: list[dict], workdir: Path, *extra: str, port: int = 0):
        data = workdir / "tables.json"
        data.write_text(json.dumps(tables))
        super().__init__(workdir, "--data", str(data), *extra, port=port)

    def request(self, method: str, path: str, body=None, headers: dict | None = None):
        """Answers (status, parsed JSON body or None)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                payload = response.read()
                return response.status, json.loads(payload) if payload else None
        except urllib.error.HTTPError as error:
            payload = error.read()
            return error.code, json.loads(payload) if payload else None

    def table(self, table_id: str) -> dict:
        status, document = self.request("GET", f"/api/tables/{table_id}")
        assert status == 200, document
        return document

    def texts(self, table_id: str) -> list[list[str]]:
        return [[row.get("text", "") for row in section["rows"]] for section in self.table(table_id)["sections"]]

    def edit(self, method: str, path: str, body=None) -> dict:
        status, answer = self.request(method, path, body)
        assert status in (200, 201), answer
        return answer


def chromium(*, width: int = 1024, height: int = 900, javascript: bool = True,
             reduced_motion: bool = False, scrollbars: bool = False) -> webdriver.Chrome:
    """A headless window; `scrollbars` shows classic scrollbars that take room, as on a desktop."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    if not scrollbars:
        options.add_argument("--hide-scrollbars")
    options.set_capability("goog:loggingPrefs", {"browser": "SEVERE"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    if not javascript:
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    if reduced_motion:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    return driver


def as_phone(driver, width: int = 390, height: int = 844) -> None:
    """Makes the window an iPhone-sized touch screen."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 3, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})


def script_errors(driver) -> list[str]:
    """Uncaught exceptions and console.error messages of the page's scripts."""
    return [entry["message"] for entry in driver.get_log("browser")
            if "Failed to load resource" not in entry["message"]]


def wait(driver, condition, message: str = "", timeout: float = TIMEOUT):
    """Waits for `condition()` to be truthy (never a fixed sleep); an element
    not there yet, or replaced by a reload between finding it and reading it,
    counts as not yet, as with Selenium's WebDriverWait."""
    return wtv.wait_until(
        condition, message, timeout=timeout, ignoring=(NoSuchElementException, StaleElementReferenceException))


def open_table(driver, server: Server, table_id: str, query: str = "") -> None:
    driver.get(f"{server.url}/tables/{table_id}{query}")
    wait(driver, lambda: driver.execute_script(
        "return document.querySelector('table.table-view')?.classList.contains('tv-live')"),
        "the script did not start")


DOM_TEXTS = """
return Array.from(document.querySelectorAll('table.table-view > tbody.section[data-section]')).map(
  (tbody) => Array.from(tbody.querySelectorAll(':scope > tr.cell[data-row]')).map(
    (row) => row.querySelector('.text').textContent));
"""


def dom_texts(driver) -> list[list[str]]:
    """Row texts per section as the page shows them (rows leaving with an animation excluded)."""
    return driver.execute_script(DOM_TEXTS)


NUMBERING = """
const table = document.querySelector('table.table-view');
const problems = [];
Array.from(table.querySelectorAll(':scope > tbody.section[data-section]')).forEach((tbody, s) => {
  if (tbody.dataset.section !== String(s)) problems.push(`section ${s} numbered ${tbody.dataset.section}`);
  // Loaded rows are a window of the section: the spacer before it stands for the rows before.
  const first = Number(tbody.querySelector(':scope > tr.tv-spacer')?.dataset.rows ?? 0);
  Array.from(tbody.querySelectorAll(':scope > tr.cell[data-row]')).forEach((row, i) => {
    const r = first + i;
    if (row.dataset.section !== String(s) || row.dataset.row !== String(r))
      problems.push(`row ${s},${r} numbered ${row.dataset.section},${row.dataset.row}`);
  });
});
return {version: Number(table.dataset.version), problems};
"""


def numbering(driver) -> dict:
    """The page's version and any row or section whose data-section/data-row is wrong."""
    return driver.execute_script(NUMBERING)


def version_shown(driver) -> int:
    return int(driver.execute_script("return document.querySelector('table.table-view').dataset.version"))


def settled(driver) -> bool:
    """True when no animation runs and nothing is on its way out."""
    return driver.execute_script(
        "return !document.querySelector('.tv-animating, .tv-removing')")


def row_selector(section: int, index: int) -> str:
    return f"tbody.section[data-section='{section}'] > tr.cell[data-row='{index}']"


def row(driver, section: int, index: int):
    return driver.find_element("css selector", row_selector(section, index))


MODIFIERS = (Keys.SHIFT, Keys.CONTROL, Keys.ALT, Keys.META)


def press(driver, *keys: str) -> None:
    """Types `keys` to whatever has the focus when they arrive, as a keyboard does;
    a leading modifier is held for the rest. Not through an element reference:
    the live page may redraw the focused row (keeping its focus) at any moment."""
    actions = ActionChains(driver)
    if len(keys) > 1 and keys[0] in MODIFIERS:
        actions.key_down(keys[0]).send_keys(*keys[1:]).key_up(keys[0])
    else:
        actions.send_keys(*keys)
    actions.perform()


def focus_control(driver, section: int, index: int, selector: str) -> None:
    """Focuses the row with a click, then its first control with Right, as a keyboard user reaches it."""
    row(driver, section, index).click()
    # By selector, not by element: the live page may replace the row meanwhile.
    wait(driver, lambda: driver.execute_script(
        "return document.activeElement.matches(arguments[0])", row_selector(section, index)),
        "the row did not take the focus")
    press(driver, Keys.ARROW_RIGHT)
    wait(driver, lambda: driver.execute_script("return document.activeElement.matches(arguments[0])", selector),
         f"Right did not reach {selector}")


def cell(text: str, **fields) -> dict:
    return {"text": text, **fields}


def table(table_id: str, sections: list[dict], **properties) -> dict:
    return {"id": table_id, "title": properties.pop("title", table_id.title()), "sections": sections, **properties}
