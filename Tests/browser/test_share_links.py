"""Share links in a fresh browser (docs/ACCESS.md, "Share links"): opening one
lands on the clean page signed in with its right — read-only for `read`, live
edits for `edit` — and Sign Out forgets it."""

from support import cell, row, table, wait

EDIT_TOKEN = "edit-token-of-the-share-link-browser-test"
ADMIN = {"Authorization": f"Bearer {EDIT_TOKEN}"}
SETTINGS = table("settings", [
    {"header": "Radios", "rows": [
        cell("Airplane Mode", id="airplane", accessoryView={"type": "switch"}),
        cell("Bluetooth", id="bluetooth", editingStyle="delete"),
    ]},
], style="grouped")


def share_server(serve, tmp_path):
    """A server whose anonymous requests may do nothing, minting share links."""
    (tmp_path / "policy.json").write_text('{"anonymous": "none"}')
    (tmp_path / "secret.txt").write_text("a-secret-of-forty-bytes-for-the-browser")
    (tmp_path / "token.txt").write_text(EDIT_TOKEN)
    return serve([SETTINGS], "--access-policy", str(tmp_path / "policy.json"),
                  "--jwt-secret-file", str(tmp_path / "secret.txt"), "--token-file", str(tmp_path / "token.txt"))


def mint(server, right):
    status, link = server.request("POST", "/api/tables/settings/share", {"right": right, "expiresIn": 600},
                                  headers=ADMIN)
    assert status == 201, link
    return server.url + link["url"]


def open_link(window, link):
    window.get(link)
    wait(window, lambda: window.execute_script(
        "return document.querySelector('table.table-view')?.classList.contains('tv-live')"),
        "the shared page's script did not start")


def signed_in(window):
    return window.find_element("css selector", ".nav-signed-in").text


def test_a_read_link_opens_the_read_only_page_and_sign_out_forgets_it(serve, browser, tmp_path):
    server = share_server(serve, tmp_path)
    window = browser()
    open_link(window, mint(server, "read"))
    assert window.current_url == f"{server.url}/tables/settings", "the key stayed in the address"
    assert signed_in(window) == "shared link: read"
    assert window.execute_script("return document.body.dataset.readOnly") == "true"
    assert not window.find_element("css selector", ".tv-edit-button").is_displayed()
    assert not window.find_elements("css selector", ".tv-delete-control, .tv-reorder-handle")
    assert row(window, 0, 0).find_element("css selector", "input.switch").get_attribute("disabled") is not None
    # HttpOnly: the page's scripts never see the cookie.
    assert "webtableview-share" not in window.execute_script("return document.cookie")
    # The page follows the table live, its stream opened with the cookie.
    status, _ = server.request("POST", "/api/tables/settings/items/airplane/switch", {"on": True}, headers=ADMIN)
    assert status == 200
    wait(window, lambda: row(window, 0, 0).find_element("css selector", "input.switch").is_selected(),
         "the read-only page did not follow an edit made elsewhere")

    window.find_element("css selector", ".nav-sign-out").click()
    wait(window, lambda: window.current_url == f"{server.url}/", "Sign Out did not lead to the list of tables")
    assert not window.find_elements("css selector", ".nav-session")
    window.get(f"{server.url}/tables/settings")
    wait(window, lambda: "401" in window.title or "Unauthorized" in window.page_source,
         "the table opened after sign-out")


def test_an_edit_link_edits_live(serve, browser, tmp_path):
    server = share_server(serve, tmp_path)
    window = browser()
    open_link(window, mint(server, "edit"))
    assert signed_in(window) == "shared link: edit"
    assert window.execute_script("return document.body.dataset.readOnly") is None
    assert window.find_element("css selector", ".tv-edit-button").is_displayed()
    row(window, 0, 0).find_element("css selector", "input.switch").click()
    status, document = server.request("GET", "/api/tables/settings",
                                      headers=ADMIN)
    wait(window, lambda: server.request("GET", "/api/tables/settings", headers={
        "Authorization": f"Bearer {EDIT_TOKEN}"})[1]["sections"][0]["rows"][0]["accessoryView"]["on"] is True,
        "the flip with the link's cookie did not reach the server")
