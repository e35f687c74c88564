"""The search bar of a table's page (docs/API.md, "Views"): filtering in place
as the reader types (no page load, no history entry, focus kept, the count
announced), the URL keeping `?q=`, Return committing one history entry that
Back and Forward restore, Escape and Cancel, "No Results" in the empty list,
the section index hidden while searching, searching the rows held offline,
the view following live edits, and the GET form without JavaScript."""

import time

from selenium.webdriver.common.keys import Keys

from support import dom_texts, open_table, table, version_shown, wait

CITIES = [
    {"id": "west", "header": "West", "indexTitle": "W", "rows": [
        {"id": "la", "text": "Los Angeles"}, {"id": "sf", "text": "San Francisco"}, {"id": "sea", "text": "Seattle"}]},
    {"id": "south", "header": "South", "indexTitle": "S", "rows": [
        {"id": "sa", "text": "San Antonio"}, {"id": "sp", "text": "São Paulo"}]},
]
TABLES = [table("cities", CITIES)]


def field(window):
    return window.find_element("css selector", "form.search-bar input[name=q]")


def visible_texts(window):
    """Row texts per section the reader sees (rows and sections hidden by an offline search left out)."""
    return window.execute_script("""
return Array.from(document.querySelectorAll('table.table-view > tbody.section[data-section]:not([hidden])')).map(
  (tbody) => Array.from(tbody.querySelectorAll(':scope > tr.cell[data-row]:not([hidden])')).map(
    (row) => row.querySelector('.text').textContent)).filter((rows) => rows.length);""")


def type_slowly(window, text):
    """Types `text` into the field a key at a time, pausing longer than a search takes after each, as a reader does."""
    for key in text:
        field(window).send_keys(key)
        time.sleep(0.35)


def mark_document(window):
    """A marker on this document: gone if the page loads again."""
    window.execute_script("window.searchMarker = 'same document'")


def same_document(window):
    return window.execute_script("return window.searchMarker") == "same document"


def focus_in_field(window):
    return window.execute_script("return document.activeElement.name") == "q"


def announced(window):
    return window.execute_script("return document.querySelector('.tv-announcer').textContent")


# The texts of rows animated out (`tv-delete`) and in (`tv-insert`) from now on.
WATCH_ANIMATIONS = """
window.animated = {out: [], in: []};
new MutationObserver((changes) => {
  for (const change of changes) {
    const row = change.target;
    if (!row.matches?.('tr.cell')) continue;
    const text = row.querySelector('.text')?.textContent;
    if (row.classList.contains('tv-delete') && !window.animated.out.includes(text)) window.animated.out.push(text);
    if (row.classList.contains('tv-insert') && !window.animated.in.includes(text)) window.animated.in.push(text);
  }
}).observe(document.querySelector('table.table-view'), {attributes: true, attributeFilter: ['class'], subtree: true});
"""


def test_typing_filters_in_place_and_return_commits_one_history_entry(serve, browser):
    server = serve(TABLES)
    window = browser()
    open_table(window, server, "cities")
    mark_document(window)
    window.execute_script(WATCH_ANIMATIONS)
    entries = window.execute_script("return history.length")
    assert window.find_element("css selector", "nav.section-index").is_displayed()
    field(window).click()
    # Focused and empty: the list dimmed, the section index hidden at once.
    assert window.find_element("css selector", ".table-container.tv-search-dimmed")
    assert not window.find_element("css selector", "nav.section-index").is_displayed()
    type_slowly(window, "sao")
    wait(window, lambda: dom_texts(window) == [["São Paulo"]], "the table did not filter")
    assert window.execute_script("return location.search") == "?q=sao"
    assert same_document(window), "the page loaded again"
    assert window.execute_script("return history.length") == entries, "typing added history entries"
    assert focus_in_field(window)
    wait(window, lambda: announced(window) == "1 result", "the count was not announced")
    assert not window.find_elements("css selector", ".table-container.tv-search-dimmed")
    # The rows that left the view faded out where they were, as a live update's do
    # ("sa" left Los Angeles and Seattle, "sao" San Antonio); San Francisco, last
    # of its section, went with the section at once.
    assert sorted(window.execute_script("return window.animated.out")) == ["Los Angeles", "San Antonio", "Seattle"]
    # Return commits the search: one history entry, Back and Forward show field and rows that agree.
    field(window).send_keys(Keys.RETURN)
    wait(window, lambda: window.execute_script("return history.length") == entries + 1, "Return added no entry")
    window.back()
    wait(window, lambda: window.execute_script("return location.search") == "", "Back did not leave the search")
    wait(window, lambda: dom_texts(window) == server.texts("cities"), "Back did not show the whole list")
    assert field(window).get_attribute("value") == ""
    # The rows that came back faded in.
    wait(window, lambda: sorted(window.execute_script("return window.animated.in")) == [
        "Los Angeles", "San Antonio", "San Francisco", "Seattle"], "the rows did not fade in")
    window.forward()
    wait(window, lambda: dom_texts(window) == [["São Paulo"]], "Forward did not show the search")
    assert field(window).get_attribute("value") == "sao"
    assert same_document(window)


# Every text the live region is given from now on.
WATCH_ANNOUNCER = """
window.announcements = [];
const live = document.querySelector('.tv-announcer');
new MutationObserver(() => {
  if (live.textContent) window.announcements.push(live.textContent);
}).observe(live, {childList: true, characterData: true, subtree: true});
"""

# Counts the search bar's requests for a view's page (`/tables/ID?q=…`) from now on.
COUNT_SEARCHES = """
window.searches = 0;
const fetchPage = window.fetch;
window.fetch = (url, options) => {
  if (String(url).startsWith('/tables/') && String(url).includes('?q=')) window.searches += 1;
  return fetchPage(url, options);
};
"""


def test_each_keystroke_searches_but_the_count_is_announced_once_typing_pauses(serve, browser):
    """Results follow every key; the live region says the count once, when they have settled,
    so a screen reader is not flooded with one count per key."""
    server = serve(TABLES)
    window = browser()
    open_table(window, server, "cities")
    mark_document(window)
    window.execute_script(WATCH_ANNOUNCER)
    window.execute_script(COUNT_SEARCHES)
    for key in "san":
        field(window).send_keys(key)
        time.sleep(0.1)  # a quick typist: far under the count's wait after the results settle
    wait(window, lambda: dom_texts(window) == [["San Francisco"], ["San Antonio"]], "the table did not filter")
    assert window.execute_script("return window.searches") >= 2, "keys typed apart did not each search"
    wait(window, lambda: announced(window) == "2 results", "the count was not announced")
    # That nothing more is said is an absence: watch past one more settling wait (500 ms).
    time.sleep(0.7)
    assert window.execute_script("return window.announcements") == ["2 results"]
    assert same_document(window) and focus_in_field(window)


def test_the_share_button_exports_what_the_page_shows(serve, browser):
    """Found by an outside check: the share button of a searched page exported the whole table."""
    server = serve(TABLES)
    window = browser()
    open_table(window, server, "cities")

    def share():
        return window.find_element("css selector", "a.nav-export").get_attribute("href")

    assert share().endswith("/api/tables/cities?format=csv")
    type_slowly(window, "sao")
    wait(window, lambda: dom_texts(window) == [["São Paulo"]], "the table did not filter")
    wait(window, lambda: share().endswith("/api/tables/cities?format=csv&q=sao"), f"the share link is {share()}")
    exported = window.execute_script("return fetch(arguments[0]).then((r) => r.text())", share())
    assert exported == "section,id,text,detail\r\nSouth,sp,São Paulo,\r\n"
    field(window).send_keys(Keys.ESCAPE)
    wait(window, lambda: share().endswith("/api/tables/cities?format=csv"), "Escape left the search in the link")
    window.get(server.url + "/tables/cities?q=san")
    assert share().endswith("/api/tables/cities?format=csv&q=san"), "a page opened on a search links that search"


def test_no_results_is_drawn_in_the_empty_list_and_announced(serve, browser):
    server = serve([table("cities", CITIES, footer="5 cities")])
    window = browser()
    open_table(window, server, "cities")
    assert window.find_element("css selector", "tfoot").is_displayed()
    type_slowly(window, "zzz")
    wait(window, lambda: window.find_element("css selector", ".table-container > table + .search-no-results")
         .text == "No Results", "No Results is not in the empty list")
    assert not window.find_element("css selector", "tfoot").is_displayed()
    wait(window, lambda: announced(window) == "No Results")


def test_escape_and_cancel_restore_the_list_without_a_history_entry_or_losing_focus(serve, browser):
    server = serve(TABLES)
    window = browser()
    open_table(window, server, "cities")
    mark_document(window)
    entries = window.execute_script("return history.length")
    type_slowly(window, "san")
    wait(window, lambda: dom_texts(window) == [["San Francisco"], ["San Antonio"]])
    field(window).send_keys(Keys.ESCAPE)
    wait(window, lambda: dom_texts(window) == server.texts("cities"), "Escape did not restore the list")
    assert focus_in_field(window), "Escape moved the focus"
    assert field(window).get_attribute("value") == ""
    assert window.execute_script("return location.search") == ""
    type_slowly(window, "san")
    wait(window, lambda: dom_texts(window) == [["San Francisco"], ["San Antonio"]])
    window.find_element("css selector", ".search-cancel").click()
    wait(window, lambda: dom_texts(window) == server.texts("cities"), "Cancel did not restore the list")
    # Cancel hides: the focus goes to the control after it, never to <body>.
    assert window.execute_script("return document.activeElement.matches('nav.style-picker a')")
    assert window.execute_script("return history.length") == entries
    assert same_document(window)
    wait(window, lambda: window.find_element("css selector", "nav.section-index").is_displayed(),
         "the section index did not come back")


def test_offline_the_page_searches_the_rows_it_holds(serve, browser):
    server = serve(TABLES)
    window = browser()
    open_table(window, server, "cities")
    mark_document(window)
    server.stop()
    type_slowly(window, "san")
    wait(window, lambda: visible_texts(window) == [["San Francisco"], ["San Antonio"]],
         "the rows held were not searched")
    status = window.find_element("css selector", ".search-status")
    assert "may be incomplete" in status.text
    assert same_document(window), "the page was left for an error page"
    assert focus_in_field(window)


def test_a_view_follows_edits_of_the_table_live(serve, browser):
    server = serve(TABLES)
    window = browser()
    open_table(window, server, "cities", "?q=san")
    assert dom_texts(window) == [["San Francisco"], ["San Antonio"]]
    server.edit("PUT", "/api/tables/cities/items/sea", {"text": "Santa Cruz"})  # enters the view
    server.edit("PUT", "/api/tables/cities/items/la", {"text": "LA"})  # not in the view: nothing
    server.edit("DELETE", "/api/tables/cities/items/sa")  # leaves it
    wait(window, lambda: dom_texts(window) == [["San Francisco", "Santa Cruz"]], "the view did not follow")
    wait(window, lambda: version_shown(window) == 3)


def test_the_search_bar_works_without_javascript(serve, browser):
    server = serve(TABLES)
    window = browser(javascript=False)
    window.get(f"{server.url}/tables/cities")
    field(window).send_keys("antonio", Keys.RETURN)
    wait(window, lambda: "q=antonio" in window.current_url)
    texts = [cell.text for cell in window.find_elements("css selector", "tr.cell .text")]
    assert texts == ["San Antonio"]
    window.find_element("css selector", "a.search-cancel").click()
    wait(window, lambda: window.current_url.endswith("/tables/cities"))
