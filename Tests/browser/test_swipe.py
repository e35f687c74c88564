"""Swipe to delete outside editing mode, by touch and with a mouse: a swipe
reveals the row's delete button, a full swipe deletes at once."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

from support import cell, dom_texts, open_table, row, settled, table, wait

FRUIT = table("fruit", [{"header": "Fruit", "rows": [
    cell("Apple", deleteTitle="Remove"), cell("Banana"), cell("Cherry"), cell("Fixed", editingStyle="none"),
]}], allowsSelection=True)


def swipe_by_touch(driver, element, distance):
    """A finger put down near the right edge of `element`, moved `distance` px left, lifted."""
    box = element.rect
    x, y = int(box["x"] + box["width"] - 20), int(box["y"] + box["height"] / 2)
    finger = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"), duration=20)
    finger.pointer_action.move_to_location(x, y).pointer_down()
    for step in range(1, 11):
        finger.pointer_action.move_to_location(x - distance * step // 10, y)
    finger.pointer_action.pointer_up()
    finger.perform()


def confirm_button(driver, section, index):
    return row(driver, section, index).find_element("css selector", ".tv-delete-confirm")


def test_swipe_reveals_delete_and_a_full_swipe_deletes(serve, browser):
    server = serve([FRUIT])
    window = browser(width=600)
    open_table(window, server, "fruit")
    assert not confirm_button(window, 0, 0).is_displayed()

    # A short swipe by touch reveals the row's delete button, titled deleteTitle.
    swipe_by_touch(window, row(window, 0, 0), 120)
    button = confirm_button(window, 0, 0)
    wait(window, button.is_displayed, "the swipe revealed no delete button")
    assert button.text == "Remove"
    assert server.texts("fruit") == [["Apple", "Banana", "Cherry", "Fixed"]], "a swipe alone deleted"
    button.click()
    wait(window, lambda: server.texts("fruit") == [["Banana", "Cherry", "Fixed"]], "the delete button did nothing")
    wait(window, lambda: dom_texts(window) == [["Banana", "Cherry", "Fixed"]] and settled(window))

    # With a mouse: a drag to the left reveals too; a tap elsewhere closes it.
    banana = row(window, 0, 0)
    ActionChains(window, duration=20).move_to_element_with_offset(banana, 200, 0).click_and_hold() \
        .move_by_offset(-40, 0).move_by_offset(-40, 0).move_by_offset(-40, 0).release().perform()
    wait(window, confirm_button(window, 0, 0).is_displayed, "a mouse swipe revealed nothing")
    window.find_element("css selector", ".nav-title").click()
    wait(window, lambda: not confirm_button(window, 0, 0).is_displayed(), "the button stayed open")
    assert not any(item.get("selected") for item in server.table("fruit")["sections"][0]["rows"]), \
        "the swipe selected the row"

    # A full swipe deletes at once; a row whose editing style is none does not move.
    swipe_by_touch(window, row(window, 0, 1), 500)
    wait(window, lambda: server.texts("fruit") == [["Banana", "Fixed"]], "a full swipe did not delete")
    wait(window, lambda: dom_texts(window) == [["Banana", "Fixed"]] and settled(window))
    swipe_by_touch(window, row(window, 0, 1), 500)
    assert not row(window, 0, 1).find_elements("css selector", ".tv-delete-confirm")
    assert server.texts("fruit") == [["Banana", "Fixed"]]
