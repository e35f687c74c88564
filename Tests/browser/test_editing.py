"""Editing mode: reordering by touch and by keyboard, and an edit the server refuses."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.keys import Keys

from support import cell, dom_texts, numbering, open_table, press, row, settled, table, version_shown, wait

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
    press(window, Keys.ARROW_DOWN)
    press(window, Keys.ARROW_DOWN)
    press(window, Keys.SPACE)
    expected = [["B", "A"], ["D", "C", "E"]]
    wait(window, lambda: server.texts("list") == expected, "the keyboard move was not sent")
    wait(window, lambda: version_shown(window) == 2 and dom_texts(window) == expected)
    assert numbering(window)["problems"] == []

    # Escape puts a picked-up row back and sends nothing.
    handle(window, 1, 0).send_keys(Keys.SPACE)
    press(window, Keys.ARROW_UP)
    press(window, Keys.ESCAPE)
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


UNNAMED = table("list", [
    {"header": "First", "rows": [cell(name, canMove=True) for name in ("A", "B", "C", "D")]},
    {"header": "Second", "rows": [cell(name, canMove=True) for name in ("E", "F")]},
])


def test_a_move_of_a_row_without_id_lands_where_it_was_dropped(serve, browser):
    # Rows without ids are moved by position at a version. While A is dragged
    # below B, another window inserts a row above, deletes one below and moves
    # one in the other section: the move is rebased on those changes and A
    # still lands right after B, the row the reader saw above it.
    server, window = editing(serve, browser, [UNNAMED])
    other = browser()
    open_table(other, server, "list")
    drag_a_below_b(window)
    other.execute_script("""
        const base = `/api/tables/list`;
        const send = (method, path, body) => fetch(base + path, {method,
          headers: {"Content-Type": "application/json"}, body: body && JSON.stringify(body)});
        return send("POST", "/sections/0/rows", {at: 0, row: {text: "Z"}})
          .then(() => send("DELETE", "/sections/0/rows/3"))
          .then(() => send("POST", "/sections/1/rows/1/move", {to: [1, 0]}))
          .then((answer) => answer.status);
    """)
    wait(window, lambda: server.table("list")["version"] == 3)
    ActionChains(window).release().perform()
    expected = [["Z", "B", "A", "D"], ["F", "E"]]
    wait(window, lambda: server.texts("list") == expected, "the move did not land after B")
    wait(window, lambda: dom_texts(window) == expected and settled(window), "the page does not show the move")
    wait(other, lambda: dom_texts(other) == expected and settled(other), "the other window does not show it")
    assert numbering(window) == {"version": 4, "problems": []}
    assert window.find_element("css selector", ".tv-toast").is_displayed() is False


def test_a_move_of_a_row_without_id_follows_sections_moved_meanwhile(serve, browser):
    # During the drag a section is inserted above and the second section is
    # moved to the top: A still lands after B in its own section, wherever that went.
    server, window = editing(serve, browser, [UNNAMED])
    drag_a_below_b(window)
    server.edit("POST", "/api/tables/list/sections", {"at": 0, "section": {"header": "New", "rows": [cell("N")]}})
    server.edit("POST", "/api/tables/list/sections/2/move", {"to": 0})
    server.edit("PUT", "/api/tables/list/sections/2/rows/2", cell("C2", canMove=True))
    ActionChains(window).release().perform()
    expected = [["E", "F"], ["N"], ["B", "A", "C2", "D"]]
    wait(window, lambda: server.texts("list") == expected, "the move did not land after B")
    wait(window, lambda: dom_texts(window) == expected and settled(window), "the page does not show the move")
    assert numbering(window) == {"version": 4, "problems": []}


# Holds the page's first move request until `window.sendMove()`: an edit made
# meanwhile reaches the server first, as when it races the drop.
HOLD_MOVE = """
const send = window.fetch.bind(window);
let release;
const held = new Promise((resolve) => { release = resolve; });
window.sendMove = () => release();
window.movesSent = [];
window.fetch = (url, options) => {
  if (!String(url).endsWith('/move')) return send(url, options);
  const first = window.movesSent.length === 0;
  window.movesSent.push(options.headers['If-Match']);
  return first ? held.then(() => send(url, options)) : send(url, options);
};
"""


def test_a_move_of_a_row_without_id_refused_as_stale_is_sent_again(serve, browser):
    # The move leaves at version 0; an insert above reaches the server first, so
    # the server refuses it. The page rebases it on the insert it then receives
    # and sends it again at version 1: A lands after B, no message.
    server, window = editing(serve, browser, [UNNAMED])
    window.execute_script(HOLD_MOVE)
    drag_a_below_b(window)
    ActionChains(window).release().perform()
    wait(window, lambda: window.execute_script("return window.movesSent.length") == 1)
    server.edit("POST", "/api/tables/list/sections/0/rows", {"at": 0, "row": cell("Z")})
    wait(window, lambda: version_shown(window) == 1, "the insert did not arrive")
    window.execute_script("window.sendMove()")
    expected = [["Z", "B", "A", "C", "D"], ["E", "F"]]
    wait(window, lambda: server.texts("list") == expected, "the move was not sent again")
    wait(window, lambda: dom_texts(window) == expected and settled(window), "the page does not show the move")
    # Each in the server's life, as its ETags name versions (docs/API.md, Caching).
    life = window.execute_script("return document.querySelector('table.table-view').dataset.life")
    assert life and window.execute_script("return window.movesSent") == [f'"{life}.0"', f'"{life}.1"']
    assert numbering(window) == {"version": 2, "problems": []}
    assert window.find_element("css selector", ".tv-toast").is_displayed() is False


def test_a_move_of_a_row_without_id_deleted_meanwhile_is_refused(serve, browser):
    server, window = editing(serve, browser, [UNNAMED])
    drag_a_below_b(window)
    server.edit("DELETE", "/api/tables/list/sections/0/rows/0")
    ActionChains(window).release().perform()

    toast = window.find_element("css selector", ".tv-toast")
    wait(window, toast.is_displayed, "no message for the refused move")
    assert toast.text.startswith("That row is no longer in the table, so nothing was changed.")
    expected = [["B", "C", "D"], ["E", "F"]]
    wait(window, lambda: dom_texts(window) == expected and settled(window), "the page did not resynchronise")
    assert server.texts("list") == expected
    assert numbering(window) == {"version": 1, "problems": []}


def test_a_refused_edit_is_told_in_plain_words(serve, browser):
    # The page's change feed is held up (its stream never connects), so the page
    # still shows version 0 when another client has made version 1: an edit by
    # position from it is refused, and told without HTTP words.
    server = serve([UNNAMED])
    window = browser()
    window.execute_cdp_cmd("Fetch.enable", {"patterns": [{"urlPattern": "*/events*"}]})
    open_table(window, server, "list")
    server.edit("POST", "/api/tables/list/sections/0/rows", {"at": 4, "row": cell("Z")})
    row(window, 0, 1).click()

    toast = window.find_element("css selector", ".tv-toast")
    wait(window, toast.is_displayed, "no message for the refused edit")
    assert "Someone changed this table just before your edit arrived, so nothing was changed." in toast.text
    assert all(word not in toast.text for word in ("If-Match", "version", "412", '"')), toast.text
    assert [row["selected"] for row in server.table("list")["sections"][0]["rows"]] == [False] * 5
