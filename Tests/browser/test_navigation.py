"""Getting around a table: the section index strip, virtual scrolling through a
10,000-row section, and the page without JavaScript."""

import string

from selenium.webdriver.common.action_chains import ActionChains

from support import cell, dom_texts, numbering, open_table, table, version_shown, wait

LETTERS = table("letters", [
    {"header": f"{letter} words", "indexTitle": letter, "rows": [cell(f"{letter}{n}") for n in range(12)]}
    for letter in string.ascii_uppercase[:12]
])

SECTION_TOP = """
const section = document.getElementById(arguments[0]);
const bar = document.querySelector('.nav-bar');
return Math.round(section.getBoundingClientRect().top - (bar ? bar.getBoundingClientRect().bottom : 0));
"""


def index_link(driver, title):
    return driver.find_element("xpath", f"//nav[contains(@class,'section-index')]/a[text()='{title}']")


def test_the_section_index_strip_jumps(serve, browser):
    server = serve([LETTERS])
    window = browser(height=700)
    open_table(window, server, "letters")
    assert window.execute_script("return window.scrollY") == 0

    index_link(window, "H").click()
    wait(window, lambda: abs(window.execute_script(SECTION_TOP, "section-7")) <= 1, "H is not at the top")
    assert window.execute_script("return window.scrollY") > 0

    # Dragging along the strip jumps to each title passed; release on E.
    ActionChains(window, duration=30).click_and_hold(index_link(window, "A")) \
        .move_to_element(index_link(window, "C")).move_to_element(index_link(window, "E")).release().perform()
    wait(window, lambda: abs(window.execute_script(SECTION_TOP, "section-4")) <= 1, "E is not at the top")

    # Deleting a section renumbers the strip's targets.
    server.edit("DELETE", "/api/tables/letters/sections/0")
    wait(window, lambda: version_shown(window) == 1)
    wait(window, lambda: index_link(window, "B").get_attribute("href").endswith("#section-0"))
    index_link(window, "D").click()
    wait(window, lambda: abs(window.execute_script(SECTION_TOP, "section-2")) <= 1, "D is not at the top")


# Scrolls down a viewport and a half at a time to the end of the page; at each
# stop, once the rows in view are loaded, records every loaded row's text by
# index path. Answers the texts and the most rows the page held at once.
SCROLL_THROUGH = """
const done = arguments[arguments.length - 1];
const seen = {};
let most = 0;
const inView = (element) => {
  const box = element.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight && box.height > 0;
};
function step() {
  const spacers = document.querySelectorAll('tr.tv-spacer, tr.more');
  if (Array.from(spacers).some(inView)) { requestAnimationFrame(step); return; }
  const rows = document.querySelectorAll('tbody.section > tr.cell:not(.tv-removing)');
  most = Math.max(most, rows.length);
  for (const row of rows) seen[`${row.dataset.section},${row.dataset.row}`] = row.querySelector('.text').textContent;
  const page = document.scrollingElement;
  if (window.scrollY + window.innerHeight >= page.scrollHeight - 1) { done({seen, most}); return; }
  window.scrollBy(0, window.innerHeight * 1.5);
  requestAnimationFrame(step);
}
step();
"""


def test_scrolling_a_10000_row_section_shows_every_row_in_order(serve, browser):
    big = {"header": "Numbers", "rows": [cell(f"Row {n}") for n in range(10_000)]}
    server = serve([table("big", [big, {"header": "After", "rows": [cell("Last")]}])])
    window = browser()
    open_table(window, server, "big")

    # A live update before the reader scrolls: one row gone from the loaded part,
    # one added there and one added far below it.
    server.edit("POST", "/api/tables/big/batch", {
        "deleteRows": [[0, 0]],
        "insertRows": [{"at": [0, 2], "row": cell("Near")}, {"at": [0, 5000], "row": cell("Far")}],
    })
    wait(window, lambda: version_shown(window) == 1)
    assert numbering(window)["problems"] == []

    window.set_script_timeout(120)
    scrolled = window.execute_async_script(SCROLL_THROUGH)
    expected = server.texts("big")
    assert len(expected[0]) == 10_001
    shown = [[scrolled["seen"].get(f"{s},{r}") for r in range(len(rows))] for s, rows in enumerate(expected)]
    assert shown == expected
    # The rows far above were unloaded on the way.
    assert scrolled["most"] < 500, scrolled["most"]

    # Live updates keep working where the reader is and far from it.
    server.edit("DELETE", "/api/tables/big/sections/0/rows/9000")
    server.edit("DELETE", "/api/tables/big/sections/0/rows/10")
    wait(window, lambda: version_shown(window) == 3)
    assert numbering(window)["problems"] == []
    expected = server.texts("big")
    loaded = window.execute_script(
        "return Array.from(document.querySelectorAll('tr.cell:not(.tv-removing)')).map((row) => "
        "[Number(row.dataset.section), Number(row.dataset.row), row.querySelector('.text').textContent])")
    assert loaded and all(expected[s][r] == text for s, r, text in loaded)


def test_without_javascript_every_section_is_shown(serve, browser):
    server = serve([LETTERS])
    window = browser(javascript=False)
    window.get(f"{server.url}/tables/letters")
    headers = [element.text for element in window.find_elements("css selector", "tbody.section th[scope=rowgroup]")]
    assert headers == [f"{letter} words" for letter in string.ascii_uppercase[:12]]
    assert dom_texts(window) == server.texts("letters")
    assert window.find_elements("css selector", ".tv-edit-button") == []
    assert "tv-live" not in window.find_element("css selector", "table.table-view").get_attribute("class")


def test_without_javascript_show_more_rows_opens_a_whole_page(serve, browser):
    big = {"header": "Numbers", "footer": "The end", "rows": [cell(f"Row {n}") for n in range(2_500)]}
    server = serve([table("big", [big], title="Big numbers")])
    window = browser(javascript=False)
    window.get(f"{server.url}/tables/big")
    # The table's page draws a first window of 200 rows; each page after it 1,000.
    for first, last, label in ((200, 1199, "Show 2,300 more rows"), (1200, 2199, "Show 1,300 more rows"),
                               (2200, 2499, "Show 300 more rows")):
        link = window.find_element("css selector", "tr.more a")
        assert link.text == label
        link.click()
        wait(window, lambda: window.find_elements("css selector", "tr.cell"))
        # A page like the table's: its title, the style sheet, the section's header and the next rows.
        assert window.title == "Big numbers · WebTableView"
        assert window.find_element("css selector", ".nav-title").text == "Big numbers"
        assert window.execute_script("return getComputedStyle(document.querySelector('tr.cell')).display") == "flex"
        assert window.find_element("css selector", "th[scope=rowgroup]").text == "Numbers"
        texts = dom_texts(window)[0]
        assert texts[0] == f"Row {first}" and texts[-1] == f"Row {last}" and len(texts) == last - first + 1
    assert window.find_elements("css selector", "tr.more") == []
    assert window.find_element("css selector", "tr.section-footer").text == "The end"
