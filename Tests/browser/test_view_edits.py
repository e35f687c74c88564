"""Editing while a view is shown (docs/API.md, "Views", edits through a view):
the page of `?q=…` edits rows by id — swipe to delete, delete in editing mode,
select — and the view follows live; a row without an id is read-only there,
and reordering is off."""

from support import cell, dom_texts, open_table, row, settled, table, wait
from test_swipe import swipe_by_touch

# In the view `?q=san` San Francisco is at [0, 0] and San Antonio at [1, 0];
# in the table those index paths are Los Angeles and Austin.
CITIES = table("cities", [
    {"id": "west", "header": "West", "rows": [
        cell("Los Angeles", id="la"), cell("San Francisco", id="sf"), cell("San Diego")]},
    {"id": "south", "header": "South", "rows": [
        cell("Austin", id="aus"), cell("San Antonio", id="sa"), cell("Santa Fe")]},
], allowsSelection=True)


def edit_button(window):
    return window.find_element("css selector", ".tv-edit-button")


def test_a_swipe_in_a_view_deletes_that_row_by_id(serve, browser):
    server = serve([CITIES])
    window = browser(width=600)
    open_table(window, server, "cities", "?q=san")
    assert dom_texts(window) == [["San Francisco", "San Diego"], ["San Antonio", "Santa Fe"]]
    swipe_by_touch(window, row(window, 0, 0), 500)
    wait(window, lambda: server.texts("cities") == [["Los Angeles", "San Diego"],
                                                    ["Austin", "San Antonio", "Santa Fe"]],
         "the full swipe did not delete San Francisco")
    wait(window, lambda: dom_texts(window) == [["San Diego"], ["San Antonio", "Santa Fe"]] and settled(window),
         "the view did not follow the delete")


def test_editing_mode_in_a_view_deletes_by_id_and_rows_without_ids_are_read_only(serve, browser):
    server = serve([CITIES])
    window = browser()
    open_table(window, server, "cities", "?q=san")
    edit_button(window).click()
    for index in (0, 1):  # San Diego and Santa Fe have no id
        assert not row(window, index, 1).find_elements("css selector", ".tv-delete-control, .tv-delete-confirm")
    row(window, 1, 0).find_element("css selector", ".tv-delete-control").click()
    confirm = row(window, 1, 0).find_element("css selector", ".tv-delete-confirm")
    wait(window, confirm.is_displayed, "the delete control revealed no confirmation")
    confirm.click()
    wait(window, lambda: server.texts("cities") == [["Los Angeles", "San Francisco", "San Diego"],
                                                    ["Austin", "Santa Fe"]],
         "the confirmation did not delete San Antonio")
    wait(window, lambda: dom_texts(window) == [["San Francisco", "San Diego"], ["Santa Fe"]] and settled(window),
         "the view did not follow the delete")
    # San Francisco is the last row of the view with an id: once it is gone, nothing is left to edit.
    row(window, 0, 0).find_element("css selector", ".tv-delete-control").click()
    confirm = row(window, 0, 0).find_element("css selector", ".tv-delete-confirm")
    wait(window, confirm.is_displayed, "the delete control revealed no confirmation")
    confirm.click()
    wait(window, lambda: dom_texts(window) == [["San Diego"], ["Santa Fe"]] and settled(window))
    wait(window, lambda: not edit_button(window).is_displayed(), "the Edit button stayed with nothing to edit")
    assert server.texts("cities") == [["Los Angeles", "San Diego"], ["Austin", "Santa Fe"]]


def test_a_view_of_rows_without_ids_has_no_edit_button_and_the_table_keeps_its_controls(serve, browser):
    server = serve([CITIES])
    window = browser()
    open_table(window, server, "cities", "?q=santa")
    assert dom_texts(window) == [["Santa Fe"]]
    assert not edit_button(window).is_displayed()
    assert not window.find_elements("css selector", ".tv-delete-control, .tv-delete-confirm, .tv-reorder-handle")
    open_table(window, server, "cities")  # outside a view, index-based edits as before
    assert edit_button(window).is_displayed()
    assert row(window, 0, 2).find_elements("css selector", ".tv-delete-control")


def test_reorder_handles_are_hidden_in_a_view(serve, browser):
    server = serve([CITIES])
    window = browser()
    open_table(window, server, "cities")
    assert len(window.find_elements("css selector", ".tv-reorder-handle")) == 6  # canMove is true by default
    open_table(window, server, "cities", "?q=san")
    edit_button(window).click()
    assert row(window, 0, 0).find_element("css selector", ".tv-delete-control").is_displayed()
    assert not window.find_elements("css selector", ".tv-reorder-handle")


def test_a_tap_in_a_view_selects_that_row_by_id(serve, browser):
    server = serve([CITIES])
    window = browser()
    open_table(window, server, "cities", "?q=san")
    row(window, 1, 0).click()
    wait(window, lambda: [item["text"] for section in server.table("cities")["sections"]
                          for item in section["rows"] if item.get("selected")] == ["San Antonio"],
         "the tap did not select San Antonio")
    wait(window, lambda: "selected" in row(window, 1, 0).get_attribute("class"), "the view did not show it")


def test_in_a_view_a_switch_flips_by_id_and_a_row_without_an_id_has_its_switch_disabled(serve, browser):
    settings = table("settings", [{"rows": [
        cell("Airplane Mode", id="airplane", accessoryView={"type": "switch"}),
        cell("Wifi Assist", id="assist", accessoryView={"type": "switch"}),
        cell("Wifi Calling", accessoryView={"type": "switch"}),
    ]}])
    server = serve([settings])
    window = browser()
    open_table(window, server, "settings", "?q=wifi")
    assert dom_texts(window) == [["Wifi Assist", "Wifi Calling"]]
    assert not row(window, 0, 1).find_element("css selector", "input.switch").is_enabled()
    row(window, 0, 0).find_element("css selector", "input.switch").click()
    wait(window, lambda: [item["accessoryView"]["on"] for item in server.table("settings")["sections"][0]["rows"]]
         == [False, True, False], "the flip did not reach Wifi Assist")
