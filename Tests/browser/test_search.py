"""The search bar of a table's page (docs/API.md, "Views"): filtering as the
reader types, the URL keeping `?q=`, Back leaving the search, "No Results",
the section index hidden while searching, the view following live edits,
and the GET form without JavaScript."""

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


def test_typing_filters_the_table_and_back_leaves_the_search(serve, browser):
    server = serve(TABLES)
    window = browser()
    open_table(window, server, "cities")
    assert window.find_element("css selector", "nav.section-index").is_displayed()
    field(window).send_keys("sao")
    wait(window, lambda: window.execute_script("return location.search") == "?q=sao", "the URL did not take q")
    wait(window, lambda: dom_texts(window) == [["São Paulo"]], "the page did not show the view")
    assert not window.find_elements("css selector", "nav.section-index")
    # Typing on replaces the search's history entry and keeps the caret in the field.
    wait(window, lambda: window.execute_script("return document.activeElement.name") == "q", "focus lost")
    field(window).send_keys(Keys.BACKSPACE, Keys.BACKSPACE, Keys.BACKSPACE, "zzz")
    wait(window, lambda: window.execute_script("return location.search") == "?q=zzz")
    wait(window, lambda: window.find_element("css selector", ".search-no-results").text == "No Results")
    window.back()
    wait(window, lambda: window.execute_script("return location.search") == "", "Back did not leave the search")
    wait(window, lambda: dom_texts(window) == server.texts("cities"))


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
