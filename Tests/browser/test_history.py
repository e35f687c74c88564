"""Coming back to the site: its icon; pages kept in the back/forward cache hold no event stream,
and a page shown again from the cache follows the table from where it was."""

import urllib.request

from support import cell, dom_texts, open_table, table, version_shown, wait

TABLES = [table(f"t{n}", [{"header": "Rows", "rows": [cell(f"Row {n}")]}]) for n in range(8)]


def streams_open(server) -> int:
    """The server's `http_event_streams_open` gauge (GET /metrics)."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=30) as response:
        metrics = response.read().decode()
    return int(next(line.split()[1] for line in metrics.splitlines()
                    if line.startswith("http_event_streams_open ")))


def test_pages_in_the_back_forward_cache_hold_no_stream_and_catch_up_when_shown(serve, browser):
    server = serve(TABLES)
    window = browser()
    # More table pages in one tab than the browser opens connections to one
    # host (six): each loads and goes live only when the pages left behind in
    # the cache closed their streams.
    for n in range(8):
        open_table(window, server, f"t{n}")
        window.execute_script("window.keptByTheCache = arguments[0]", n)
    # The server ends up holding one stream, the shown page's: the others closed
    # theirs (the server counts a closed stream once it notices the close).
    wait(window, lambda: streams_open(server) == 1, "streams of hidden pages stay open", timeout=120)

    # Back: the page comes from the back/forward cache, no reload.
    window.back()
    wait(window, lambda: window.execute_script("return window.keptByTheCache") == 6, "t6 was not kept in the cache")
    # It missed nothing yet and follows again: an edit made while it is shown…
    server.edit("POST", "/api/tables/t6/sections/0/rows", {"at": 1, "row": cell("Added while shown")})
    wait(window, lambda: version_shown(window) == 1)
    assert dom_texts(window) == server.texts("t6")

    # …and edits made while it was hidden in the cache arrive when it is shown again.
    window.forward()
    wait(window, lambda: window.execute_script("return window.keptByTheCache") == 7)
    server.edit("DELETE", "/api/tables/t6/sections/0/rows/0")
    server.edit("POST", "/api/tables/t6/sections/0/rows", {"at": 0, "row": cell("Added while hidden")})
    window.back()
    wait(window, lambda: window.execute_script("return window.keptByTheCache") == 6)
    wait(window, lambda: version_shown(window) == 3, "the page did not catch up")
    assert dom_texts(window) == server.texts("t6") == [["Added while hidden", "Added while shown"]]


def test_the_site_has_an_icon(serve, browser):
    server = serve(TABLES[:1])
    window = browser()
    open_table(window, server, "t0")
    size = window.execute_async_script("""
      const done = arguments[arguments.length - 1];
      const icon = new Image();
      icon.onload = () => done([icon.naturalWidth, icon.naturalHeight]);
      icon.onerror = () => done(null);
      icon.src = '/favicon.ico';
    """)
    assert size == [32, 32]
