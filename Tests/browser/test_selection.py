"""Selection through the API: single and multiple, highlight and checkmarks that
follow `selected`, `selectionStyle: none`, rows that open links, and the edit
token asked for once when the server wants one."""

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.keys import Keys

from support import cell, open_table, press, row, table, wait

PICKER = table("picker", [
    {"header": "Sizes", "rows": [
        cell("Small"), cell("Medium"), cell("Plain", selectionStyle="none"),
        cell("Help", link="/?from=help"),
        cell("About", accessory="detailButton", detailLink="/api/tables?from=detail"),
    ]},
])

CHECKMARK = """
const body = arguments[0].querySelector('.cell-body');
const mark = getComputedStyle(body, '::after');
return mark.content !== 'none' && mark.width === '15px';
"""


def selected_rows(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('tr.cell.selected')).map((row) => row.dataset.row)")


def selected_in_table(server):
    return [str(index) for index, item in enumerate(server.table("picker")["sections"][0]["rows"]) if item["selected"]]


def background(driver, element):
    return driver.execute_script("return getComputedStyle(arguments[0]).backgroundColor", element)


def test_single_then_multiple_selection(serve, browser):
    server = serve([PICKER])
    window = browser()
    open_table(window, server, "picker")
    unselected_background = background(window, row(window, 0, 1))

    row(window, 0, 0).click()
    wait(window, lambda: selected_rows(window) == ["0"], "Small was not selected")
    small = row(window, 0, 0)
    assert small.get_attribute("aria-selected") == "true"
    assert window.execute_script(CHECKMARK, small)
    assert background(window, small) != unselected_background

    row(window, 0, 1).click()
    wait(window, lambda: selected_rows(window) == ["1"], "single selection kept the old row")
    assert selected_in_table(server) == ["1"]
    assert not window.execute_script(CHECKMARK, row(window, 0, 0))

    row(window, 0, 2).click()
    wait(window, lambda: selected_rows(window) == ["2"])
    assert background(window, row(window, 0, 2)) == unselected_background, "selectionStyle none highlighted"

    server.edit("PATCH", "/api/tables/picker", {"allowsMultipleSelection": True})
    wait(window, lambda: window.execute_script(
        "return document.querySelector('table.table-view').dataset.allowsMultipleSelection") == "true")
    row(window, 0, 0).click()
    wait(window, lambda: selected_rows(window) == ["0", "2"], "multiple selection replaced the row")
    row(window, 0, 1).click()
    wait(window, lambda: selected_rows(window) == ["0", "1", "2"])
    assert all(window.execute_script(CHECKMARK, row(window, 0, index)) for index in range(3))
    row(window, 0, 0).click()
    wait(window, lambda: selected_rows(window) == ["1", "2"], "a selected row was not deselected")
    assert selected_in_table(server) == ["1", "2"]


def test_rows_with_links_open_them(serve, browser):
    server = serve([PICKER])
    window = browser()
    open_table(window, server, "picker")
    row(window, 0, 4).find_element("css selector", ".info-button").click()
    wait(window, lambda: window.current_url.endswith("/api/tables?from=detail"), "the detail button did not open")
    open_table(window, server, "picker")
    row(window, 0, 3).click()
    wait(window, lambda: window.current_url.endswith("/?from=help"), "the row's link did not open")
    assert not any(item["selected"] for item in server.table("picker")["sections"][0]["rows"])


def prompt_shown(driver):
    """The page's open prompt, or None."""
    try:
        alert = driver.switch_to.alert
        alert.text  # raises when no prompt is open
        return alert
    except NoAlertPresentException:
        return None


def test_an_edit_token_is_asked_for_once(serve, browser, tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("s3cret\n")
    server = serve([PICKER], "--token-file", str(token_file))
    window = browser()
    open_table(window, server, "picker")

    row(window, 0, 0).click()
    prompt = wait(window, lambda: prompt_shown(window), "no prompt for the token")
    prompt.send_keys("s3cret")
    prompt.accept()
    wait(window, lambda: selected_rows(window) == ["0"], "the edit with the token was not applied")
    assert window.execute_script("return sessionStorage.getItem('webtableview-token')") == "s3cret"

    # The token is kept: the next edit goes through without asking again.
    row(window, 0, 1).click()
    wait(window, lambda: selected_rows(window) == ["1"])


ACTIVE = """
const active = document.activeElement;
const row = active.closest('tr.cell');
return {tag: active.tagName.toLowerCase(), className: active.className, inTable: Boolean(active.closest('table')),
        row: row ? row.querySelector('.text').textContent : null};
"""


def test_one_tab_stop_per_row_arrow_keys_and_grid_roles(serve, browser):
    server = serve([PICKER])
    server.edit("PATCH", "/api/tables/picker", {"allowsMultipleSelection": True})
    window = browser()
    open_table(window, server, "picker")
    wait(window, lambda: window.execute_script(
        "return document.querySelector('table.table-view').getAttribute('aria-multiselectable')") == "true")
    roles = window.execute_script("""
      const table = document.querySelector('table.table-view');
      return {table: table.getAttribute('role'),
              rows: Array.from(table.querySelectorAll('tr.cell')).map((row) => row.getAttribute('role')),
              cells: Array.from(table.querySelectorAll('tr.cell > td')).map((cell) => cell.getAttribute('role')),
              header: table.querySelector('tr.section-header > th').getAttribute('role')};
    """)
    assert roles == {"table": "grid", "rows": ["row"] * 5, "cells": ["gridcell"] * 5, "header": "rowheader"}

    # Tab from the last link before the table: the first row, then out of the table.
    links = window.find_elements("css selector", "nav.style-picker a")
    links[-1].send_keys(Keys.TAB)
    assert window.execute_script(ACTIVE)["row"] == "Small"
    press(window, Keys.TAB)
    assert not window.execute_script(ACTIVE)["inTable"], "a row took more than one tab stop"

    # Back in: arrows move along the rows; the linked row is one stop, its link no other.
    press(window, Keys.SHIFT, Keys.TAB)
    assert window.execute_script(ACTIVE)["row"] == "Small"
    for expected in ("Medium", "Plain", "Help", "About"):
        press(window, Keys.ARROW_DOWN)
        assert window.execute_script(ACTIVE) == {"tag": "tr", "className": window.execute_script(
            "return document.activeElement.className"), "inTable": True, "row": expected}
    # Right reaches the row's detail button, Left goes back to the row.
    press(window, Keys.ARROW_RIGHT)
    assert window.execute_script(ACTIVE)["className"] == "info-button"
    press(window, Keys.ARROW_LEFT)
    assert window.execute_script(ACTIVE)["tag"] == "tr"
    press(window, Keys.ARROW_UP)
    press(window, Keys.ENTER)
    wait(window, lambda: window.current_url.endswith("/?from=help"), "Enter did not open the row's link")
