"""Pull to refresh on a touch screen: the spinner shows, the table is read
afresh from the server, the stream follows again and the spinner ends."""

from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

from support import as_phone, cell, dom_texts, open_table, table, version_shown, wait

NOTES = table("notes", [{"header": "Notes", "rows": [cell("One"), cell("Two")]}])

RECORD_SPINNER = """
window.spinnerShown = false;
new MutationObserver(() => {
  if (document.querySelector('.tv-refresh-control.tv-refreshing')) window.spinnerShown = true;
}).observe(document.body, {attributes: true, subtree: true, attributeFilter: ['class']});
"""


def pull_down(driver, distance):
    finger = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"), duration=20)
    finger.pointer_action.move_to_location(200, 160).pointer_down()
    for step in range(1, 13):
        finger.pointer_action.move_to_location(200, 160 + distance * step // 12)
    finger.pointer_action.pointer_up()
    finger.perform()


def test_pull_to_refresh_resynchronises_the_table(serve, browser):
    server = serve([NOTES])
    window = browser()
    as_phone(window)
    open_table(window, server, "notes")
    # The page stops following (as if its stream had been cut) and misses an edit.
    window.execute_script("window.dispatchEvent(new PageTransitionEvent('pagehide', {persisted: true}))")
    server.edit("POST", "/api/tables/notes/sections/0/rows", {"at": 2, "row": cell("Missed")})
    window.execute_script(RECORD_SPINNER)

    # A short pull does nothing; a long one refreshes.
    pull_down(window, 60)
    assert window.execute_script("return window.spinnerShown") is False
    pull_down(window, 300)
    wait(window, lambda: window.execute_script("return window.spinnerShown"), "no spinner")
    wait(window, lambda: version_shown(window) == 1 and dom_texts(window) == [["One", "Two", "Missed"]],
         "the table was not read afresh")
    wait(window, lambda: window.execute_script(
        "return !document.querySelector('.tv-refresh-control.tv-refreshing') "
        "&& document.querySelector('.tv-refresh-control').getBoundingClientRect().height === 0"), "the spinner stayed")

    # The stream follows again: the next edit arrives live.
    server.edit("DELETE", "/api/tables/notes/sections/0/rows/0")
    wait(window, lambda: version_shown(window) == 2 and dom_texts(window) == [["Two", "Missed"]])
