"""Switches as accessory views: drawn as a checkbox with the role switch, readable
without JavaScript; a flip (click or Space) is an edit every window sees; a
refused flip is undone on the page."""

from selenium.webdriver.common.keys import Keys

from support import cell, chromium, focus_control, open_table, press, row, table, wait

SETTINGS = table("settings", [
    {"header": "Radios", "footer": "Airplane Mode turns the radios off.", "rows": [
        cell("Airplane Mode", id="airplane", accessoryView={"type": "switch"}),
        cell("Wi-Fi", id="wifi", style="value1", detail="Home", accessory="disclosureIndicator"),
        cell("Managed", id="managed", accessoryView={"type": "switch", "on": True, "enabled": False}),
        cell("Anonymous", accessoryView={"type": "switch"}),
    ]},
], style="grouped")


def switch(driver, index):
    return row(driver, 0, index).find_element("css selector", "input.switch")


def switch_on(server, index):
    return server.table("settings")["sections"][0]["rows"][index]["accessoryView"]["on"]


def test_a_flip_is_an_edit_every_window_sees(serve, browser):
    server = serve([SETTINGS])
    first, second = browser(), browser()
    open_table(first, server, "settings")
    open_table(second, server, "settings")
    assert switch(first, 0).get_attribute("role") == "switch"
    assert not switch(first, 0).is_selected()

    switch(first, 0).click()
    wait(first, lambda: switch_on(server, 0) is True, "the flip did not reach the server")
    wait(second, lambda: switch(second, 0).is_selected(), "the other window did not see the flip")
    assert server.table("settings")["version"] == 1

    # A row without an id is flipped by its position.
    switch(second, 3).click()
    wait(second, lambda: switch_on(server, 3) is True, "the flip by position did not reach the server")
    wait(first, lambda: switch(first, 3).is_selected())

    # An edit from elsewhere turns it back off in every window.
    server.edit("POST", "/api/tables/settings/items/airplane/switch", {"on": False})
    wait(first, lambda: not switch(first, 0).is_selected())
    wait(second, lambda: not switch(second, 0).is_selected())

    assert switch(first, 2).get_attribute("disabled") is not None
    assert row(first, 0, 0).get_attribute("aria-selected") == "false", "a flip selected the row"


def test_space_flips_the_focused_switch(serve, browser):
    server = serve([SETTINGS])
    window = browser()
    open_table(window, server, "settings")
    focus_control(window, 0, 0, "input.switch")
    press(window, Keys.SPACE)
    wait(window, lambda: switch_on(server, 0) is True, "Space did not flip the switch")


def test_a_refused_flip_is_undone(serve, browser, tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("s3cret\n")
    server = serve([SETTINGS], "--token-file", str(token_file))
    window = browser()
    open_table(window, server, "settings")
    window.execute_script("window.prompt = () => null;")
    switch(window, 0).click()
    wait(window, lambda: not switch(window, 0).is_selected(), "the refused flip stayed on the page")
    wait(window, lambda: window.execute_script(
        "return document.body.textContent.includes('nothing was changed')"), "the refusal was not explained")
    assert switch_on(server, 0) is False


def test_the_state_is_readable_without_javascript(serve):
    server = serve([SETTINGS])
    window = chromium(javascript=False)
    try:
        window.get(f"{server.url}/tables/settings")
        assert not switch(window, 0).is_selected()
        assert switch(window, 2).is_selected()
        assert switch(window, 2).get_attribute("disabled") is not None
        assert switch(window, 2).get_attribute("aria-label") == "Managed"
    finally:
        window.quit()
