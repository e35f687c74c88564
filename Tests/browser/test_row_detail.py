"""A row's detail page, `/tables/{t}/rows/{id}` (docs/API.md, "Pages"): a row
with fields shows its first one under its text and opens, clicked or chosen
with Enter, a record of every field in order; its back button returns to the
table at that row; an edit of the row arrives live, a deletion says the row is
gone; a value edited in place is sent as a JSON Merge Patch (the PATCH route
of docs/API.md); the page reads without JavaScript and has no axe violation."""

import pytest
from selenium.webdriver.common.keys import Keys

from support import open_table, wait
from test_accessibility import violations

CITIES = {"id": "cities", "title": "Cities", "sections": [{"header": "US", "rows": [
    {"id": "la", "text": "Los Angeles", "fields": {"population": 3979576, "state": "CA"}},
    {"id": "nyc", "text": "New York", "fields": {
        "population": 8336817, "area": 783.8, "note": "Big <apple> & a very long note " * 8,
        "capital": False, "boroughs": ["Bronx", 5]}},
    {"text": "Nowhere", "fields": {"state": "??"}},
]}]}

RECORD = """
return Array.from(document.querySelectorAll('.record-field')).map(
  (field) => [field.querySelector('dt').textContent, field.querySelector('dd').textContent]);
"""


def record(driver):
    return driver.execute_script(RECORD)


def open_record(driver, server, row_id):
    driver.get(f"{server.url}/tables/cities/rows/{row_id}")
    wait(driver, lambda: driver.find_elements("css selector", ".nav-trailing .tv-edit-button"),
         "the detail page's script did not start")


def test_a_row_opens_its_fields_in_order_and_goes_back_to_the_row(serve, browser):
    server = serve([CITIES])
    window = browser()
    open_table(window, server, "cities")
    subtitles = window.execute_script(
        "return Array.from(document.querySelectorAll('tr.cell .detail')).map((d) => d.textContent)")
    assert subtitles == ["3979576", "8336817", "??"]
    # A row without an id opens nothing.
    assert not window.find_elements("css selector", "#section-0-row-2 a.cell-link")

    window.find_element("css selector", "#section-0-row-1").click()
    wait(window, lambda: window.current_url.endswith("/tables/cities/rows/nyc"), "the row did not open")
    assert window.find_element("css selector", ".nav-title").get_attribute("title") == "New York"
    assert record(window) == [
        ["population", "8336817"], ["area", "783.8"], ["note", "Big <apple> & a very long note " * 8],
        ["capital", "false"], ["boroughs", '["Bronx",5]']]
    # The long note wraps rather than running off the page.
    assert window.execute_script(
        "const v = document.querySelectorAll('.record-value')[2];"
        "return v.getBoundingClientRect().height > 44 && document.documentElement.scrollWidth <= innerWidth")

    back = window.find_element("css selector", ".nav-back")
    assert back.text == "Cities"
    back.click()
    wait(window, lambda: window.current_url.endswith("/tables/cities#section-0-row-1"), "back went elsewhere")
    wait(window, lambda: window.execute_script("return document.activeElement?.id") == "section-0-row-1",
         "the row was not focused on the way back")


def test_enter_on_a_focused_row_opens_it(serve, browser):
    server = serve([CITIES])
    window = browser()
    open_table(window, server, "cities")
    window.execute_script("document.getElementById('section-0-row-0').focus()")
    window.switch_to.active_element.send_keys(Keys.ENTER)
    wait(window, lambda: window.current_url.endswith("/tables/cities/rows/la"), "Enter did not open the row")
    assert record(window) == [["population", "3979576"], ["state", "CA"]]


def test_an_edit_arrives_live_and_a_deletion_offers_the_way_back(serve, browser):
    server = serve([CITIES])
    window = browser()
    open_record(window, server, "la")
    server.edit("PUT", "/api/tables/cities/items/la", {
        "id": "la", "text": "Los Angeles, CA", "fields": {"state": "CA", "population": 3898747, "county": "LA"}})
    wait(window, lambda: record(window) == [["state", "CA"], ["population", "3898747"], ["county", "LA"]],
         "the edit did not arrive")
    assert window.find_element("css selector", ".nav-title").get_attribute("title") == "Los Angeles, CA"

    server.edit("DELETE", "/api/tables/cities/items/la")
    banner = wait(window, lambda: window.find_elements("css selector", ".tv-banner"), "no word of the deletion")[0]
    assert banner.text.startswith("This row has been deleted.")
    link = banner.find_element("css selector", "a")
    assert link.get_attribute("href").endswith("/tables/cities#section-0-row-0")
    assert not window.find_element("css selector", ".tv-edit-button").is_displayed()


def test_the_record_reads_without_javascript(serve, browser):
    server = serve([CITIES])
    window = browser(javascript=False)
    window.get(f"{server.url}/tables/cities/rows/nyc")
    assert record(window)[0] == ["population", "8336817"]
    window.get(f"{server.url}/tables/cities")
    window.find_element("css selector", "#section-0-row-1 a.cell-link").click()
    assert window.current_url.endswith("/tables/cities/rows/nyc")
    window.get(f"{server.url}/tables/cities/rows/gone")
    assert window.find_element("css selector", ".error-detail").text == 'table "cities" has no item "gone"'


def test_editing_mode_puts_each_value_in_a_labelled_field(serve, browser):
    server = serve([CITIES])
    window = browser()
    open_record(window, server, "la")
    window.find_element("css selector", ".tv-edit-button").click()
    fields = window.find_elements("css selector", ".record-value input")
    assert [(field.get_attribute("aria-label"), field.get_attribute("value")) for field in fields] == [
        ("population", "3979576"), ("state", "CA")]
    assert window.switch_to.active_element == fields[0]
    window.find_element("css selector", ".tv-edit-button").click()
    assert record(window) == [["population", "3979576"], ["state", "CA"]]


def test_a_value_edited_in_place_is_sent_as_a_merge_patch(serve, browser):
    server = serve([CITIES])
    window = browser()
    open_record(window, server, "la")
    window.find_element("css selector", ".tv-edit-button").click()
    population = window.find_element("css selector", ".record-value input")
    # Typed over, as a reader does (Selenium's clear() would send the empty value at once).
    population.send_keys(Keys.CONTROL, "a")
    population.send_keys("3898747", Keys.ENTER)
    wait(window, lambda: server.table("cities")["sections"][0]["rows"][0]["fields"]["population"] == 3898747,
         "Enter did not send the edit")
    # The edit comes back through the stream; the page, still editing, shows it in its fields.
    wait(window, lambda: window.execute_script(
        "return Number(document.querySelector('.record').dataset.version)") == 1, "the edit did not come back")
    state = window.find_elements("css selector", ".record-value input")[1]
    state.send_keys(Keys.CONTROL, "a")
    state.send_keys("California")
    window.find_element("css selector", ".tv-edit-button").click()
    wait(window, lambda: server.table("cities")["sections"][0]["rows"][0]["fields"]
         == {"population": 3898747, "state": "California"}, "leaving the field did not send the edit")
    # The number stayed a number, the string a string; the row kept everything else.
    assert server.table("cities")["sections"][0]["rows"][0]["text"] == "Los Angeles"
    wait(window, lambda: record(window) == [["population", "3898747"], ["state", "California"]],
         "the page did not show the edits")

    # A value emptied removes the field.
    window.find_element("css selector", ".tv-edit-button").click()
    state = window.find_elements("css selector", ".record-value input")[1]
    state.send_keys(Keys.CONTROL, "a")
    state.send_keys(Keys.BACKSPACE, Keys.ENTER)
    wait(window, lambda: server.table("cities")["sections"][0]["rows"][0]["fields"] == {"population": 3898747},
         "the emptied field was not removed")
    wait(window, lambda: len(window.find_elements("css selector", ".record-field")) == 1, "the field still shows")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_detail_page_has_no_axe_violation(serve, browser, scheme):
    server = serve([CITIES])
    window = browser(width=1280, height=900)
    window.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    open_record(window, server, "nyc")
    found = {"record": violations(window)}
    window.find_element("css selector", ".tv-edit-button").click()
    found["editing"] = violations(window)
    open_table(window, server, "cities")
    found["list"] = violations(window)
    assert {page: found[page] for page in found if found[page]} == {}
