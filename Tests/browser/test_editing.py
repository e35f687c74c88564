"""Editing mode: reordering by touch and by keyboard, and an edit the server refuses."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.keys import Keys

from support import cell, dom_texts, numbering, open_table, row, settled, table, version_shown, wait

LIST = table("list", [
    {"header": "First", "rows": [cell(name, canMove=True) for name in ("A", "B", "C")]},
    {"header": "Second", "rows": [cell(name, canMove=True) for name in ("D", "E")]},
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


def test_a_refused_move_shows_the_message_and_puts_the_row_back(serve, browser):
    server = serve([LIST])
    window = browser()
    open_table(window, server, "list")
    window.find_element("css selector", ".tv-edit-button").click()

    # Pick A up and drag it below B; meanwhile a script inserts a row, so the
    # page's version is stale when A is dropped.
    first = row(window, 0, 0)
    actions = ActionChains(window, duration=20).click_and_hold(handle(window, 0, 0))
    for _ in range(6):
        actions.move_by_offset(0, (first.size["height"] + 12) // 6)
    actions.perform()
    assert dom_texts(window)[0][:2] == ["B", "A"]
    server.edit("POST", "/api/tables/list/sections/0/rows", {"at": 0, "row": cell("Z")})
    ActionChains(window).release().perform()

    toast = window.find_element("css selector", ".tv-toast")
    wait(window, toast.is_displayed, "no message for the refused move")
    assert "Someone changed this table just before your edit arrived, so nothing was changed." in toast.text
    assert all(word not in toast.text for word in ("If-Match", "version", "412", '"')), toast.text
    expected = [["Z", "A", "B", "C"], ["D", "E"]]
    wait(window, lambda: dom_texts(window) == expected and settled(window), "the page did not resynchronise")
    assert server.texts("list") == expected
    assert numbering(window) == {"version": 1, "problems": []}
