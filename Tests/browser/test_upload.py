"""The index page's upload (docs/API.md, "CSV"): a CSV or JSON file, chosen or
dropped, becomes a table under an id made of its name (editable), and the page
opens it; a file the import refuses shows its problems by line and makes
nothing; a server with an edit token asks for it."""

import json

from selenium.common.exceptions import NoAlertPresentException

from support import dom_texts, wait

EMPTY = {"id": "empty", "sections": []}

# Drops a file made of `text` on the upload zone, as a drag from the desktop does.
DROP = """
const [name, text, type] = arguments;
const transfer = new DataTransfer();
transfer.items.add(new File([text], name, {type}));
const zone = document.querySelector('.upload-zone');
zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: transfer, bubbles: true, cancelable: true}));
zone.dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, bubbles: true, cancelable: true}));
"""


def prompt_shown(driver):
    try:
        return driver.switch_to.alert
    except NoAlertPresentException:
        return None


def open_index(driver, server):
    driver.get(server.url + "/")
    wait(driver, lambda: driver.find_element("css selector", "form[data-upload]").is_displayed(),
         "the upload form was not shown")


def test_a_chosen_csv_file_becomes_a_table_that_opens(serve, browser, tmp_path):
    server = serve([EMPTY])
    csv = tmp_path / "big cities.csv"
    csv.write_text("id,name,population\nnyc,New York,8336817\nla,Los Angeles,3979576\n")
    window = browser()
    open_index(window, server)
    window.find_element("css selector", 'input[type="file"]').send_keys(str(csv))
    assert window.find_element("css selector", 'input[name="id"]').get_attribute("value") == "big-cities"
    window.find_element("css selector", 'button[type="submit"]').click()
    wait(window, lambda: window.current_url.endswith("/tables/big-cities"), "the new table did not open")
    assert dom_texts(window) == [["New York", "Los Angeles"]]
    assert server.table("big-cities")["sections"][0]["rows"][0]["fields"] == {"population": 8336817}


def test_a_dropped_json_file_is_made_under_the_id_given(serve, browser):
    server = serve([EMPTY])
    window = browser()
    open_index(window, server)
    document = {"id": "inside", "sections": [{"rows": [{"text": "One"}, {"text": "Two"}]}]}
    window.execute_script(DROP, "numbers.json", json.dumps(document), "application/json")
    field = window.find_element("css selector", 'input[name="id"]')
    assert field.get_attribute("value") == "numbers"
    field.clear()
    field.send_keys("counted")
    window.find_element("css selector", 'button[type="submit"]').click()
    wait(window, lambda: window.current_url.endswith("/tables/counted"), "the new table did not open")
    assert dom_texts(window) == [["One", "Two"]]


def test_a_refused_file_shows_its_problems_by_line(serve, browser):
    server = serve([EMPTY])
    window = browser()
    open_index(window, server)
    window.execute_script(DROP, "bad.csv", 'name,id\nA,a\nB\n"C,c\n', "text/csv")
    window.find_element("css selector", 'button[type="submit"]').click()
    errors = wait(window, lambda: window.find_elements("css selector", ".upload-errors li"), "no problems shown")
    assert [error.text for error in errors] == [
        "Line 3: 1 field, but the header has 2", "Line 4: a quoted field opens here and is never closed"]
    assert window.find_element("css selector", ".upload-status").text.startswith("No table was made")
    assert window.current_url == server.url + "/"
    status, _ = server.request("GET", "/api/tables/bad")
    assert status == 404


def test_the_edit_token_is_asked_for(serve, browser, tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("s3cret\n")
    server = serve([EMPTY], "--token-file", str(token_file))
    window = browser()
    open_index(window, server)
    window.execute_script(DROP, "letters.csv", "text\nA\nB\n", "text/csv")
    window.find_element("css selector", 'button[type="submit"]').click()
    prompt = wait(window, lambda: prompt_shown(window), "no token was asked for")
    prompt.send_keys("s3cret")
    prompt.accept()
    wait(window, lambda: window.current_url.endswith("/tables/letters"), "the new table did not open")
    assert dom_texts(window) == [["A", "B"]]
