"""Links to a row, `/tables/{t}#section-S-row-R`: the row lands clear of every
sticky element (the navigation bar, its section's header), takes the focus and
is marked for a moment, on a small table and on a virtualised 200,000-row one;
without JavaScript the rows carry the ids the links name."""

import json

from support import ROOT, cell, open_table, table, wait

US_CITIES = json.loads((ROOT / "examples" / "us-cities.json").read_text())

# 100 sections of 2,000 rows.
BIG = table("big", [{"header": f"Part {s}", "rows": [cell(f"Row {s}.{r}") for r in range(2_000)]}
                    for s in range(100)])

# Records every row that gets the mark, from before the page's scripts run.
RECORD_MARKS = """
window.marked = [];
new MutationObserver((records) => {
  for (const record of records) {
    if (record.target.classList?.contains('tv-marked')) window.marked.push(record.target.id);
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['class']});
"""

# Where the row is against what sticks to the top, and what is drawn at its middle.
PLACE = """
const row = document.getElementById(arguments[0]);
const box = row.getBoundingClientRect();
const header = row.parentNode.querySelector(':scope > tr.section-header').getBoundingClientRect();
const bar = document.querySelector('.nav-bar').getBoundingClientRect();
const hit = document.elementFromPoint(box.left + 8, box.top + 2);
return {
  top: box.top, headerBottom: header.bottom, barBottom: bar.bottom,
  visible: box.bottom <= window.innerHeight && row.contains(hit),
  focused: document.activeElement === row,
};
"""


def record_marks(window):
    window.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_MARKS})


def assert_landed_clear(window, row_id):
    place = window.execute_script(PLACE, row_id)
    # Just below the sticky header, itself just below the navigation bar: the row is the first one seen.
    assert place["headerBottom"] >= place["barBottom"] - 0.5, place
    assert place["headerBottom"] - 0.5 <= place["top"] <= place["headerBottom"] + 2, place
    assert place["visible"], place


def test_a_link_to_a_row_lands_it_below_the_sticky_header_focused_and_marked(serve, browser):
    server = serve([US_CITIES])
    window = browser(height=600)
    record_marks(window)
    window.get(f"{server.url}/tables/us-cities#section-2-row-3")
    wait(window, lambda: window.execute_script(
        "return document.activeElement.id") == "section-2-row-3", "the row did not take the focus")
    assert window.execute_script("return document.activeElement.dataset.row") == "3"
    assert_landed_clear(window, "section-2-row-3")
    assert "section-2-row-3" in window.execute_script("return window.marked")

    # A link followed on the page does the same.
    window.execute_script("window.location.hash = '#section-5-row-1'")
    wait(window, lambda: window.execute_script(
        "return document.activeElement.id") == "section-5-row-1", "the second link did not land")
    assert_landed_clear(window, "section-5-row-1")
    assert "section-5-row-1" in window.execute_script("return window.marked")


def test_without_javascript_rows_carry_the_ids_links_name(serve, browser):
    server = serve([US_CITIES])
    window = browser(height=600, javascript=False)
    window.get(f"{server.url}/tables/us-cities#section-2-row-3")
    target = window.find_element("css selector", "tr.cell:target")
    assert (target.get_attribute("data-section"), target.get_attribute("data-row")) == ("2", "3")
    assert_landed_clear(window, "section-2-row-3")
    ids = window.execute_script(
        "return Array.from(document.querySelectorAll('tr.cell')).map((row) => "
        "row.id === `section-${row.dataset.section}-row-${row.dataset.row}`)")
    assert ids and all(ids)


def test_a_link_into_a_virtualised_200000_row_table_lands_the_row(serve, browser):
    server = serve([BIG])
    window = browser(height=700)
    record_marks(window)
    window.get(f"{server.url}/tables/big#section-60-row-1500")
    wait(window, lambda: window.execute_script(
        "return document.activeElement.id") == "section-60-row-1500", "the row did not take the focus")
    assert window.execute_script("return document.activeElement.querySelector('.text').textContent") == "Row 60.1500"
    assert_landed_clear(window, "section-60-row-1500")
    assert "section-60-row-1500" in window.execute_script("return window.marked")

    # Without JavaScript: the rows of the first window and of a section's pages carry their ids.
    plain = browser(height=700, javascript=False)
    plain.get(f"{server.url}/tables/big#section-0-row-40")
    assert plain.find_element("css selector", "tr.cell:target").text == "Row 0.40"
    assert_landed_clear(plain, "section-0-row-40")
    plain.get(f"{server.url}/tables/big/sections/60?offset=1000#section-60-row-1500")
    assert plain.find_element("css selector", "tr.cell:target").text == "Row 60.1500"
    assert_landed_clear(plain, "section-60-row-1500")


def test_a_link_lands_below_the_navigation_bar_in_grouped_style(serve, browser):
    server = serve([US_CITIES])
    window = browser(height=600)
    open_table(window, server, "us-cities", "?style=insetGrouped#section-4-row-2")
    wait(window, lambda: window.execute_script(
        "return document.activeElement.id") == "section-4-row-2", "the row did not take the focus")
    place = window.execute_script(PLACE, "section-4-row-2")
    assert place["barBottom"] - 0.5 <= place["top"] <= place["barBottom"] + 2, place
    assert place["visible"], place
