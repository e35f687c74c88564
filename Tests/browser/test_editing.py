"""Editing mode: reordering by touch and by keyboard, and an edit the server refuses."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.keys import Keys

from support import cell, dom_texts, numbering, open_table, row, settled, table, version_shown, wait

LIST = table("list", [
    {"id": "first", "header": "First", "rows": [cell(name, id=name.lower(), canMove=True) for name in ("A", "B", "C")]},
    {"id": "second", "header": "Second", "rows": [cell(name, id=name.lower(), canMove=True) for name in ("D", "E")]},
])


def handle(driver, section, index):
    return row(driver, section, index).find_element("css selector", ".tv-reorder-handle")


def test_rows_move_by_touch(serve, browser):
    server = serve([LIST])
    window = browser()
    open_table(window, server, "list")
    window.find_element("css selector", ".tv-edit-button").click()

    # A finger on B's handle carries it down past C.
    grip = handle(window, 0, 1).rect
    x, y = int(grip["x"] + grip["width"] / 2), int(grip["y"] + grip["height"] / 2)
    finger = ActionBuilder(window, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"), duration=20)
    finger.pointer_action.move_to_location(x, y).pointer_down()
    for step in range(1, 9):
        finger.pointer_action.move_to_location(x, y + step * 7)
    finger.pointer_action.pointer_up()
    finger.perform()
    expected = [["A", "C", "B"], ["D", "E"]]
    wait(window, lambda: server.texts("list") == expected, "the touch drag did not move the row")
    wait(window, lambda: version_shown(window) == 1 and dom_texts(window) == expected)


def test_rows_move_with_the_keyboard(serve, browser):
    server = serve([LIST])
    window = browser()
    open_table(window, server, "list")
    window.find_element("css selector", ".tv-edit-button").click()

    handle(window, 0, 0).send_keys(Keys.ALT, Keys.ARROW_DOWN)
    wait(window, lambda: server.texts("list") == [["B", "A", "C"], ["D", "E"]], "Alt+ArrowDown did not move")
    wait(window, lambda: version_shown(window) == 1)

    # Pick up C, carry it into the next section (after D), drop it.
    focused = handle(window, 0, 2)
    focused.send_keys(Keys.SPACE)
    assert focused.get_attribute("aria-pressed") == "true"
    window.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    window.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    window.switch_to.active_element.send_keys(Keys.SPACE)
    expected = [["B", "A"], ["D", "C", "E"]]
    wait(window, lambda: server.texts("list") == expected, "the keyboard move was not sent")
    wait(window, lambda: version_shown(window) == 2 and dom_texts(window) == expected)
    assert numbering(window)["problems"] == []

    # Escape puts a picked-up row back and sends nothing.
    handle(window, 1, 0).send_keys(Keys.SPACE)
    window.switch_to.active_element.send_keys(Keys.ARROW_UP)
    window.switch_to.active_element.send_keys(Keys.ESCAPE)
    assert dom_texts(window) == expected
    assert server.table("list")["version"] == 2


def editing(serve, browser, tables):
    """A server with `tables` and a window showing the first in editing mode."""
    server = serve(tables)
    window = browser()
    open_table(window, server, tables[0]["id"])
    window.find_element("css selector", ".tv-edit-button").click()
    return server, window


def drag_a_below_b(window):
    """Picks A up and drags it below B; answers the ActionChains to release it with."""
    first = row(window, 0, 0)
    actions = ActionChains(window, duration=20).click_and_hold(handle(window, 0, 0))
    for _ in range(6):
        actions.move_by_offset(0, (first.size["height"] + 12) // 6)
    actions.perform()
    assert dom_texts(window)[0][:2] == ["B", "A"]


def test_a_move_lands_where_it_was_dropped_whatever_else_changed(serve, browser):
    server, window = editing(serve, browser, [LIST])

    # While A is dragged below B, a script inserts a row above and deletes one
    # below: the page's version is stale when A is dropped, and A still lands
    # after B, the row the reader saw above it.
    drag_a_below_b(window)
    server.edit("POST", "/api/tables/list/sections/0/rows", {"at": 0, "row": cell("Z", id="z")})
    server.edit("DELETE", "/api/tables/list/sections/1/rows/1")
    ActionChains(window).release().perform()
    expected = [["Z", "B", "A", "C"], ["D"]]
    wait(window, lambda: server.texts("list") == expected, "the move did not land")
    wait(window, lambda: dom_texts(window) == expected and settled(window), "the page does not show the move")
    assert numbering(window) == {"version": 3, "problems": []}
    assert window.find_element("css selector", ".tv-toast").is_displayed() is False


def test_a_move_of_a_row_deleted_meanwhile_is_refused_in_plain_words(serve, browser):
    server, window = editing(serve, browser, [LIST])

    drag_a_below_b(window)
    server.edit("DELETE", "/api/tables/list/sections/0/rows/0")
    ActionChains(window).release().perform()

    toast = window.find_element("css selector", ".tv-toast")
    wait(window, toast.is_displayed, "no message for the refused move")
    assert toast.text.startswith("That row is no longer in the table, so nothing was changed.")
    expected = [["B", "C"], ["D", "E"]]
    wait(window, lambda: dom_texts(window) == expected and settled(window), "the page did not resynchronise")
    assert server.texts("list") == expected
    assert numbering(window) == {"version": 1, "problems": []}


def test_a_refused_edit_is_told_in_plain_words(serve, browser):
    # Rows without ids are moved by position, at the version the page showed:
    # another edit meanwhile makes the server refuse it.
    unnamed = table("list", [{"header": "First", "rows": [cell(name, canMove=True) for name in ("A", "B", "C")]}])
    server, window = editing(serve, browser, [unnamed])
    drag_a_below_b(window)
    server.edit("POST", "/api/tables/list/sections/0/rows", {"at": 3, "row": cell("Z")})
    ActionChains(window).release().perform()

    toast = window.find_element("css selector", ".tv-toast")
    wait(window, toast.is_displayed, "no message for the refused move")
    assert "Someone changed this table just before your edit arrived, so nothing was changed." in toast.text
    assert all(word not in toast.text for word in ("If-Match", "version", "412", '"')), toast.text
    expected = [["A", "B", "C", "Z"]]
    wait(window, lambda: dom_texts(window) == expected and settled(window), "the page did not resynchronise")
    assert numbering(window) == {"version": 1, "problems": []}
