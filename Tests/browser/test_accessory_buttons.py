"""Accessory buttons: a press (click, Enter or Space) is a `press` change that
every window hears as a `webtableview:press` event, with no row changed."""

from selenium.webdriver.common.keys import Keys

from support import cell, focus_control, open_table, press, row, table, wait

SETTINGS = table("settings", [
    {"header": "Software Update", "rows": [
        cell("iOS 26.2", id="update-now", accessoryView={"type": "button", "title": "Update Now"}),
        cell("Anonymous", accessoryView={"type": "button", "title": "Go"}),
        cell("Plain", id="plain"),
    ]},
], style="grouped")

LISTEN = """
window.presses = [];
document.querySelector('table.table-view').addEventListener('webtableview:press',
  (event) => window.presses.push(event.detail));
"""


def button(driver, index):
    return row(driver, 0, index).find_element("css selector", "button.accessory-button")


def presses(driver):
    return driver.execute_script("return window.presses")


def test_a_press_in_one_window_is_an_event_in_another(serve, browser):
    server = serve([SETTINGS])
    first, second = browser(), browser()
    open_table(first, server, "settings")
    open_table(second, server, "settings")
    for window in (first, second):
        window.execute_script(LISTEN)
    html_before = second.execute_script("return document.querySelector('table.table-view tbody').innerHTML")

    button(first, 0).click()
    wait(second, lambda: presses(second) == [{"version": 1, "at": [0, 0], "id": "update-now"}],
         "the other window did not hear the press")
    wait(first, lambda: presses(first) == [{"version": 1, "at": [0, 0], "id": "update-now"}],
         "the pressing window did not hear its own press")
    assert server.table("settings")["version"] == 1
    table_element = second.find_element("css selector", "table.table-view")
    assert table_element.get_attribute("data-version") == "1"
    assert second.execute_script(
        "return document.querySelector('table.table-view tbody').innerHTML") == html_before, "a press changed rows"
    assert row(first, 0, 0).get_attribute("aria-selected") == "false", "a press selected the row"

    # A row without an id is pressed by its position; a press from a script is heard too.
    button(second, 1).click()
    wait(first, lambda: len(presses(first)) == 2, "the press by position was not heard")
    assert presses(first)[1] == {"version": 2, "at": [0, 1]}
    server.edit("POST", "/api/tables/settings/items/update-now/press")
    wait(second, lambda: len(presses(second)) == 3 and presses(second)[2]["version"] == 3)


def on_the_first_button(serve, browser):
    """A server and a window whose keyboard focus is on the first row's button, presses recorded."""
    server = serve([SETTINGS])
    window = browser()
    open_table(window, server, "settings")
    window.execute_script(LISTEN)
    focus_control(window, 0, 0, "button.accessory-button")
    return server, window


def test_enter_and_space_press_the_focused_button(serve, browser):
    # Clicking the row to focus it selects it (a change of its own): presses are counted by their events.
    _, window = on_the_first_button(serve, browser)
    press(window, Keys.ENTER)
    wait(window, lambda: [press["id"] for press in presses(window)] == ["update-now"], "Enter did not press the button")
    press(window, Keys.SPACE)
    wait(window, lambda: len(presses(window)) == 2, "Space did not press the button")
    assert presses(window)[1]["at"] == [0, 0]


def test_a_focused_button_keeps_the_focus_when_its_row_is_redrawn(serve, browser):
    # Another client reloads the row whose button the keyboard user is on: the
    # redrawn row's button has the focus, and Space presses it.
    server, window = on_the_first_button(serve, browser)
    wait(window, lambda: window.execute_script("return document.querySelector('table').dataset.version") == "1",
         "the click's selection did not arrive")
    server.edit("PUT", "/api/tables/settings/sections/0/rows/0",
                cell("iOS 26.3", id="update-now", accessoryView={"type": "button", "title": "Update Now"}))
    wait(window, lambda: window.execute_script(
        "return document.querySelector(\"tr.cell[data-row='0'] .text\").textContent") == "iOS 26.3",
        "the row was not redrawn")
    assert window.execute_script(
        "return document.activeElement.matches(\"tr.cell[data-row='0'] button.accessory-button\")")
    press(window, Keys.SPACE)
    wait(window, lambda: [press["id"] for press in presses(window)] == ["update-now"], "Space did not press")
