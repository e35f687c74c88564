"""Live updates: edits made in one window, or posted from a script, appear in
every open window, in order, animated, and leave the page equal to the table."""

import random

from selenium.webdriver.common.action_chains import ActionChains

from support import cell, dom_texts, numbering, open_table, row, script_errors, settled, table, version_shown, wait

GROCERIES = table("groceries", [
    {"header": "Fruit", "rows": [
        cell("Apple", id="apple", canMove=True),
        cell("Banana", id="banana", deleteTitle="Remove"),
        cell("Cherry", id="cherry", canMove=True),
        cell("Date", id="date"),
    ]},
    {"header": "Vegetables", "footer": "In season", "rows": [
        cell("Carrot", id="carrot"),
        cell("Leek", id="leek", editingStyle="insert"),
    ]},
])

# Records every update the page applies, with the rows it shows right after.
RECORD_UPDATES = """
window.updates = [];
const table = document.querySelector('table.table-view');
table.addEventListener('webtableview:update', (event) => {
  const texts = Array.from(table.querySelectorAll(':scope > tbody.section[data-section]')).map(
    (tbody) => Array.from(tbody.querySelectorAll(':scope > tr.cell[data-row]')).map(
      (row) => row.querySelector('.text').textContent));
  window.updates.push({version: event.detail.version, texts});
});
"""

# Records the animation classes put on rows and sections.
RECORD_ANIMATIONS = """
window.animations = [];
new MutationObserver((records) => {
  for (const record of records) {
    const names = record.target.className;
    if (typeof names === 'string' && names.includes('tv-anim-')) window.animations.push(names);
  }
}).observe(document.querySelector('table.table-view'), {attributes: true, attributeFilter: ['class'], subtree: true});
"""


def drag(driver, handle, distance, steps=10):
    """Drags a reorder handle `distance` pixels down (up when negative) with the mouse."""
    actions = ActionChains(driver, duration=20).click_and_hold(handle)
    for _ in range(steps):
        actions.move_by_offset(0, distance // steps)
    actions.release().perform()


def test_two_windows_follow_edits_made_in_one(serve, browser):
    server = serve([GROCERIES])
    editor, viewer = browser(), browser()
    open_table(editor, server, "groceries")
    open_table(viewer, server, "groceries")
    viewer.execute_script(RECORD_UPDATES)

    editor.find_element("css selector", ".tv-edit-button").click()
    banana = editor.find_element("css selector", "tr.cell[data-id='banana']")
    banana.find_element("css selector", ".tv-delete-control").click()
    confirm = banana.find_element("css selector", ".tv-delete-confirm")
    wait(editor, confirm.is_displayed, "no delete confirmation")
    assert confirm.text == "Remove"
    confirm.click()
    after_delete = [["Apple", "Cherry", "Date"], ["Carrot", "Leek"]]
    wait(viewer, lambda: dom_texts(viewer) == after_delete, "the delete did not reach the other window")
    wait(editor, lambda: dom_texts(editor) == after_delete and version_shown(editor) == 1 and settled(editor))

    apple = row(editor, 0, 0)
    drag(editor, apple.find_element("css selector", ".tv-reorder-handle"), apple.size["height"] + 10)
    after_move = [["Cherry", "Apple", "Date"], ["Carrot", "Leek"]]
    wait(viewer, lambda: dom_texts(viewer) == after_move, "the move did not reach the other window")
    wait(editor, lambda: version_shown(editor) == 2 and dom_texts(editor) == after_move)

    row(editor, 1, 1).find_element("css selector", ".tv-insert-control").click()
    after_insert = [["Cherry", "Apple", "Date"], ["Carrot", "Leek", "New row"]]
    wait(viewer, lambda: dom_texts(viewer) == after_insert, "the insert did not reach the other window")

    assert viewer.execute_script("return window.updates") == [
        {"version": 1, "texts": after_delete},
        {"version": 2, "texts": after_move},
        {"version": 3, "texts": after_insert},
    ]
    assert server.texts("groceries") == after_insert
    wait(viewer, lambda: settled(viewer))
    assert numbering(viewer) == {"version": 3, "problems": []}
    assert dom_texts(editor) == after_insert


def test_a_posted_batch_appears_animated(serve, browser):
    server = serve([table("letters", [{"header": "Letters", "rows": [cell(c) for c in "ABCDEFG"]}])])
    window = browser()
    open_table(window, server, "letters")
    window.execute_script(RECORD_ANIMATIONS)

    # The worked example of docs/API.md, "A batch": delete 1 and 5, insert at 2 and 3, reload 4.
    server.edit("POST", "/api/tables/letters/batch", {
        "deleteRows": [[0, 1], [0, 5]],
        "insertRows": [{"at": [0, 2], "row": cell("N2")}, {"at": [0, 3], "row": cell("N3")}],
        "reloadRows": [{"at": [0, 4], "row": cell("E'")}],
        "animation": "left",
    })
    expected = [["A", "C", "N2", "N3", "D", "E'", "G"]]
    wait(window, lambda: dom_texts(window) == expected, "the batch did not appear")
    wait(window, lambda: settled(window), "the animation classes were not removed")
    animations = window.execute_script("return window.animations")
    assert any("tv-insert" in names and "tv-anim-left" in names for names in animations), animations
    assert any("tv-delete" in names and "tv-anim-left" in names for names in animations), animations
    assert any("tv-reload" in names for names in animations), animations

    server.edit("POST", "/api/tables/letters/batch", {
        "insertSections": [{"at": 0, "section": {"header": "New", "rows": [cell("X")]}}],
        "moveRows": [{"from": [0, 0], "to": [1, 6]}],
        "animation": "top",
    })
    expected = [["X"], ["C", "N2", "N3", "D", "E'", "G", "A"]]
    wait(window, lambda: dom_texts(window) == expected and settled(window))
    assert any("tv-anim-top" in names for names in window.execute_script("return window.animations"))
    assert numbering(window) == {"version": 2, "problems": []}
    assert dom_texts(window) == server.texts("letters")


def random_batch(rng, texts, serial):
    """A random batch on a table shaped like `texts`; the server refuses the invalid ones."""
    batch = {"animation": rng.choice(["none", "fade", "right", "middle"])}
    sections = len(texts)
    rows = [len(section) for section in texts]
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["deleteRows", "insertRows", "reloadRows", "moveRows",
                           "insertSections", "deleteSections", "moveSections", "reloadSections"])
        s = rng.randrange(sections) if sections else 0
        r = rng.randrange(rows[s]) if sections and rows[s] else 0
        serial += 1
        if kind == "deleteRows":
            batch.setdefault(kind, []).append([s, r])
        elif kind == "insertRows":
            batch.setdefault(kind, []).append({"at": [s, rng.randint(0, r + 1)], "row": cell(f"n{serial}")})
        elif kind == "reloadRows":
            batch.setdefault(kind, []).append({"at": [s, r], "row": cell(f"r{serial}")})
        elif kind == "moveRows":
            t = rng.randrange(sections) if sections else 0
            batch.setdefault(kind, []).append({"from": [s, r], "to": [t, rng.randint(0, max(rows[t] - 1, 0))]})
        elif kind == "insertSections":
            new_rows = [cell(f"s{serial}.{i}") for i in range(rng.randint(0, 3))]
            batch.setdefault(kind, []).append({"at": rng.randint(0, sections), "section": {"rows": new_rows}})
        elif kind == "deleteSections":
            batch.setdefault(kind, []).append(s)
        elif kind == "moveSections":
            batch.setdefault(kind, []).append({"from": s, "to": rng.randrange(sections) if sections else 0})
        else:
            batch.setdefault(kind, []).append({"at": s, "section": {"rows": [cell(f"R{serial}")]}})
    return batch, serial


def test_random_batches_leave_the_page_equal_to_the_table(serve, browser):
    sections = [{"header": f"S{s}", "rows": [cell(f"{s}.{r}") for r in range(4)]} for s in range(4)]
    server = serve([table("random", sections)])
    window = browser()
    open_table(window, server, "random")
    rng = random.Random(20240605)
    serial, applied = 0, 0
    for _ in range(500):
        if applied == 25:
            break
        texts = server.texts("random")
        batch, serial = random_batch(rng, texts, serial)
        status, answer = server.request("POST", "/api/tables/random/batch", batch)
        if status == 409 or (status == 200 and not any(key != "animation" for key in answer["batch"])):
            continue
        assert status == 200, answer
        applied += 1
        expected = server.texts("random")
        wait(window, lambda: version_shown(window) == answer["version"] and dom_texts(window) == expected,
             f"page differs from the table after {batch}")
        assert numbering(window)["problems"] == []
    assert applied == 25, "the server refused too many random batches"


def test_reduced_motion_applies_changes_without_animating(serve, browser):
    server = serve([table("calm", [{"rows": [cell("One"), cell("Two")]}])])
    window = browser(reduced_motion=True)
    open_table(window, server, "calm")
    window.execute_script(RECORD_ANIMATIONS)
    server.edit("POST", "/api/tables/calm/batch",
                {"deleteRows": [[0, 0]], "insertRows": [{"at": [0, 1], "row": cell("Three")}], "animation": "right"})
    wait(window, lambda: dom_texts(window) == [["Two", "Three"]] and settled(window))
    assert window.execute_script("return window.animations") == []


def test_a_deleted_table_shows_a_notice(serve, browser):
    server = serve([table("gone", [{"rows": [cell("One")]}])])
    window = browser()
    open_table(window, server, "gone")
    status, _ = server.request("DELETE", "/api/tables/gone")
    assert status == 204
    wait(window, lambda: "deleted" in window.execute_script(
        "return document.querySelector('.tv-banner')?.textContent ?? ''"))


def test_a_moved_section_slides_to_its_place(serve, browser):
    server = serve([GROCERIES])
    window = browser()
    open_table(window, server, "groceries")
    window.execute_script("""
      window.slid = [];
      new MutationObserver((records) => {
        for (const record of records) {
          if (record.target.matches('tbody.section.tv-move')) window.slid.push(record.target.querySelector('th').textContent);
        }
      }).observe(document.querySelector('table.table-view'), {attributes: true, attributeFilter: ['class'], subtree: true});
    """)
    server.edit("POST", "/api/tables/groceries/sections/1/move", {"to": 0})
    wait(window, lambda: version_shown(window) == 1 and settled(window))
    assert sorted(window.execute_script("return window.slid")) == ["Fruit", "Vegetables"]
    assert dom_texts(window) == server.texts("groceries")


def test_a_change_larger_than_a_stream_buffer_reaches_the_page(serve, browser):
    """The audit's 2,000-row batch makes an event over 1 MiB: the page gets it
    (it was dropped, and its reconnects too), and after it the next change."""
    server = serve([GROCERIES])
    driver = browser()
    open_table(driver, server, "groceries")
    rows = [{"at": [0, i], "row": {"text": f"r{i}"}} for i in range(2000)]
    server.edit("POST", "/api/tables/groceries/batch", {"insertRows": rows})
    server.edit("DELETE", "/api/tables/groceries/sections/1/rows/0")
    wait(driver, lambda: version_shown(driver) == 2 and settled(driver), "the page did not reach version 2")
    shown = dom_texts(driver)
    assert shown[0][:3] == ["r0", "r1", "r2"]
    assert shown[1] == ["Leek"]
    assert not [message for message in script_errors(driver) if "Content Security Policy" in message]


def test_a_page_open_across_a_restart_without_journal_reloads_in_place(serve, browser):
    """A server without a journal starts a new life, its versions counted again
    from its data file (docs/API.md, "Caching"): the page open across the
    restart must not take the new life's version 1 for its own."""
    tables = [table("cities", [{"id": "west", "header": "West", "rows": [
        {"id": "la", "text": "Los Angeles"}, {"id": "sf", "text": "San Francisco"}]}])]
    server = serve(tables)
    window = browser()
    open_table(window, server, "cities")
    window.find_element("css selector", ".tv-edit-button").click()
    server.edit("PUT", "/api/tables/cities/items/sf", {"text": "San Francisco (first life)"})
    wait(window, lambda: dom_texts(window) == [["Los Angeles", "San Francisco (first life)"]])
    window.execute_script("window.lifeMarker = 'same document'")
    port = server.port
    server.stop()
    wait(window, lambda: "Not connected" in window.find_element("css selector", ".tv-connection").text,
         "the page did not say its live connection is down")
    restarted = serve(tables, port=port)
    # Version 1 again, of other content: the page at version 1 of the first life must see it.
    restarted.edit("PUT", "/api/tables/cities/items/la", {"text": "LA (second life)"})
    wait(window, lambda: dom_texts(window) == [["LA (second life)", "San Francisco"]],
         "the page stayed on the first life's rows")
    assert window.execute_script("return window.lifeMarker") == "same document", "the page loaded again"
    assert window.find_elements("css selector", "table.table-view.editing"), "editing mode was lost"
    wait(window, lambda: window.find_element("css selector", ".tv-connection").text == "",
         "the page still says it is not connected")
