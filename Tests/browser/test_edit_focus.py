"""Edits that keep their place for the reader: a row deleted by someone else
while it is dragged ends the drag and sends nothing; after a keyboard reorder
the focus stays on the moved row's handle, after a keyboard delete it goes to
the row that takes the deleted row's place, announced; Up and Home work from a
control inside a row."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from support import cell, dom_texts, focus_control, open_table, press, row, row_selector, settled, table, \
    version_shown, wait

LIST = table("list", [
    {"id": "first", "header": "First", "rows": [
        cell("A", id="a1"), cell("B", id="b"), cell("Not yet", id="undefined"), cell("C", id="c")]},
])

# The requests the page made that moved a row.
MOVES = """
return performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => name.includes('/api/') && name.endsWith('/move'));
"""

FOCUSED = """
const element = document.activeElement;
const row = element.closest('tr.cell');
return {
  handle: element.matches('.tv-reorder-handle'), row: element.matches('tr.cell'),
  text: row ? row.querySelector('.text').textContent : element.tagName,
};
"""


def editing(serve, browser):
    server = serve([LIST])
    window = browser()
    open_table(window, server, "list")
    window.find_element("css selector", ".tv-edit-button").click()
    return server, window


def handle(window, index):
    return row(window, 0, index).find_element("css selector", ".tv-reorder-handle")


def test_a_drag_whose_row_is_deleted_ends_and_sends_nothing(serve, browser):
    server, window = editing(serve, browser)
    first = row(window, 0, 0)
    actions = ActionChains(window, duration=20).click_and_hold(handle(window, 0))
    for _ in range(6):
        actions.move_by_offset(0, (first.size["height"] * 2 + 12) // 6)
    actions.perform()
    assert dom_texts(window)[0][:3] == ["B", "Not yet", "A"]

    server.edit("DELETE", "/api/tables/list/items/a1")
    # The drag ends as the delete arrives, before the pointer is lifted.
    toast = window.find_element("css selector", ".tv-toast")
    wait(window, toast.is_displayed, "no message while the row was held")
    assert "“A” was deleted while you were moving it" in toast.text
    assert not window.find_elements("css selector", "tr.tv-dragging")
    ActionChains(window).release().perform()

    expected = [["B", "Not yet", "C"]]
    wait(window, lambda: dom_texts(window) == expected and settled(window), "the page does not show the delete")
    assert server.texts("list") == expected, "a row moved"
    assert server.table("list")["version"] == 1
    assert window.execute_script(MOVES) == []


def test_keyboard_reorder_keeps_the_focus_on_the_moved_rows_handle(serve, browser):
    server, window = editing(serve, browser)

    handle(window, 0).send_keys(Keys.ALT, Keys.ARROW_DOWN)
    wait(window, lambda: server.texts("list") == [["B", "A", "Not yet", "C"]], "Alt+ArrowDown did not move")
    wait(window, lambda: version_shown(window) == 1 and settled(window))
    assert window.execute_script(FOCUSED) == {"handle": True, "row": False, "text": "A"}

    # Space, Down, Down, Space: B is picked up, carried down two places and dropped.
    handle(window, 0).send_keys(Keys.SPACE)
    press(window, Keys.ARROW_DOWN)
    press(window, Keys.ARROW_DOWN)
    press(window, Keys.SPACE)
    expected = [["A", "Not yet", "B", "C"]]
    wait(window, lambda: server.texts("list") == expected, "the keyboard move was not sent")
    wait(window, lambda: version_shown(window) == 2 and dom_texts(window) == expected and settled(window))
    assert window.execute_script(FOCUSED) == {"handle": True, "row": False, "text": "B"}


def test_keyboard_delete_focuses_the_row_that_takes_its_place(serve, browser):
    server, window = editing(serve, browser)
    control = row(window, 0, 1).find_element("css selector", ".tv-delete-control")
    window.execute_script("arguments[0].focus()", control)

    press(window, Keys.ENTER)
    wait(window, lambda: window.execute_script(
        "return document.activeElement.matches('.tv-delete-confirm')"), "Enter did not ask to confirm")
    press(window, Keys.ENTER)
    expected = [["A", "Not yet", "C"]]
    wait(window, lambda: server.texts("list") == expected, "the delete was not sent")
    wait(window, lambda: version_shown(window) == 1 and dom_texts(window) == expected and settled(window))
    assert window.execute_script(FOCUSED) == {"handle": False, "row": True, "text": "Not yet"}
    assert window.execute_script("return document.activeElement.getAttribute('tabindex')") == "0"
    wait(window, lambda: window.find_element("css selector", ".tv-announcer").get_attribute("textContent")
         == "1 row deleted", "the delete was not announced")


SWITCHES = table("switches", [{"header": "Settings", "rows": [
    cell("Wi-Fi"), cell("Bluetooth"), cell("Airplane Mode", accessoryView={"type": "switch"}),
]}])


def test_up_and_home_work_from_a_control_inside_a_row(serve, browser):
    server = serve([SWITCHES])
    window = browser()
    open_table(window, server, "switches")

    focus_control(window, 0, 2, "input.switch")
    press(window, Keys.ARROW_UP)
    wait(window, lambda: window.execute_script(
        "return document.activeElement.matches(arguments[0])", row_selector(0, 1)), "Up did not reach Bluetooth")

    focus_control(window, 0, 2, "input.switch")
    press(window, Keys.HOME)
    wait(window, lambda: window.execute_script(
        "return document.activeElement.matches(arguments[0])", row_selector(0, 0)), "Home did not reach Wi-Fi")
    assert not window.find_element("css selector", "input.switch").is_selected()


def test_a_row_picked_up_with_the_keyboard_and_deleted_by_someone_else_hands_the_focus_on(serve, browser):
    server, window = editing(serve, browser)
    handle(window, 0).send_keys(Keys.SPACE)
    wait(window, lambda: window.find_elements("css selector", "tr.tv-lifted"), "Space did not pick the row up")
    server.edit("DELETE", "/api/tables/list/items/a1")
    wait(window, lambda: dom_texts(window) == [["B", "Not yet", "C"]] and settled(window), "the delete did not show")
    # The nearest neighbour takes the focus, never <body>, and the reader is told.
    assert window.execute_script(FOCUSED) == {"handle": True, "row": False, "text": "B"}
    toast = window.find_element("css selector", ".tv-toast")
    assert "“A” was deleted while you were moving it" in toast.text
    assert "The focus is now on “B”" in toast.text
    assert window.execute_script(MOVES) == []
