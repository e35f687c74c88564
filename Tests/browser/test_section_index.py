"""The section index strip with 100 sections: it fits the window below the
navigation bar at every height, its titles shrinking and then folding into "•"
as UIKit folds them, and a mouse or a finger scrubs along it from the first
section to the last."""

import pytest
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

from support import as_phone, cell, open_table, table, wait

HUNDRED = table("hundred", [
    {"header": f"Part {n}", "indexTitle": str(n), "rows": [cell(f"Row {n}.{r}") for r in range(3)]}
    for n in range(100)
])

STRIP = """
const strip = document.querySelector('nav.section-index');
const box = strip.getBoundingClientRect();
const links = Array.from(strip.querySelectorAll('a'));
return {
  top: box.top, bottom: box.bottom, height: window.innerHeight,
  bar: document.querySelector('.nav-bar').getBoundingClientRect().bottom,
  scrolls: strip.scrollHeight > strip.clientHeight + 1,
  inside: links.every((link) => {
    const own = link.getBoundingClientRect();
    return own.top >= box.top - 0.5 && own.bottom <= box.bottom + 0.5 && own.height > 0;
  }),
  titles: links.map((link) => link.textContent),
  lines: links.map((link) => link.getBoundingClientRect().height),
};
"""

# Every title the page announces from now on (the section index announces each jump).
LISTEN = """
window.announced = [];
new MutationObserver(() => {
  const text = document.querySelector('.tv-announcer').textContent;
  if (text) window.announced.push(text);
}).observe(document.querySelector('.tv-announcer'), {childList: true, characterData: true, subtree: true});
"""


def resize(window, height):
    window.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1024, "height": height, "deviceScaleFactor": 1, "mobile": False})
    wait(window, lambda: window.execute_script("return window.innerHeight") == height)


@pytest.mark.parametrize("height", [400, 700, 1000, 1500, 1900])
def test_the_index_of_100_sections_fits_the_window_clear_of_the_bar(serve, browser, height):
    server = serve([HUNDRED])
    window = browser()
    open_table(window, server, "hundred")
    resize(window, height)

    def laid_out(s):
        # The strip is laid out again on the resize event: until then a taller
        # window's strip still has the folds of the smaller one, and a shorter
        # one's may already fit the window while its titles are still measured
        # for the old height (not yet inside it, or scrolling).
        if s["bottom"] > s["height"] or (height >= 1500 and "•" in s["titles"]):
            return None
        if not s["inside"] or s["scrolls"]:
            return None
        return s

    strip = wait(window, lambda: laid_out(window.execute_script(STRIP)),
                 f"the strip runs off a {height} px window, its titles overflow or scroll it, "
                 "or it keeps folds it has room for")
    assert strip["top"] >= strip["bar"], strip
    assert strip["inside"] and not strip["scrolls"], strip
    titles = strip["titles"]
    assert titles[0] == "0" and titles[-1] == "99", titles
    if height >= 1500:
        # Room for every title: they shrink as much as needed, down to 12 px a line, and none folds.
        assert titles == [str(n) for n in range(100)]
        assert 12 <= min(strip["lines"]) and max(strip["lines"]) <= 16
    else:
        # Runs of titles fold into bullets between titles, in order.
        assert "•" in titles and titles[1] == "•"
        shown = [int(title) for title in titles if title != "•"]
        assert shown == sorted(shown) and len(shown) >= 4
        assert all(a != "•" or b != "•" for a, b in zip(titles, titles[1:]))


def scrub(window, device):
    """Presses the strip's first title, slides to its last one and lifts; answers the titles announced."""
    links = window.find_elements("css selector", "nav.section-index a")
    first, last = links[0].rect, links[-1].rect
    x = int(first["x"] + first["width"] / 2)
    top, bottom = int(first["y"] + 2), int(last["y"] + last["height"] - 2)
    kind = interaction.POINTER_TOUCH if device == "phone" else interaction.POINTER_MOUSE
    pointer = ActionBuilder(window, mouse=PointerInput(kind, "scrubber"), duration=10)
    pointer.pointer_action.move_to_location(x, top).pointer_down()
    for step in range(1, 41):
        pointer.pointer_action.move_to_location(x, top + (bottom - top) * step // 40)
    pointer.pointer_action.pointer_up()
    pointer.perform()
    wait(window, lambda: window.execute_script("return window.announced.at(-1)") == "99", "the scrub did not reach 99")
    return window.execute_script("return window.announced")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_scrub_along_the_index_reaches_every_part_end_to_end(serve, browser, device):
    server = serve([HUNDRED])
    window = browser(height=700)
    if device == "phone":
        as_phone(window, 390, 664)
    open_table(window, server, "hundred")
    window.execute_script(LISTEN)
    announced = scrub(window, device)
    assert announced[0] == "0"
    numbers = [int(title) for title in announced]
    # In order, through folded runs too: far more sections than the strip shows titles for.
    assert numbers == sorted(numbers) and len(set(numbers)) >= 35, numbers
    shown = [title for title in window.execute_script(STRIP)["titles"] if title != "•"]
    assert len(set(numbers) - set(shown)) >= 10
    # The last section is in view, below the navigation bar, as the scrub ended on it.
    assert window.execute_script(
        "const box = document.getElementById('section-99').getBoundingClientRect();"
        "return box.top >= document.querySelector('.nav-bar').getBoundingClientRect().bottom - 1"
        " && box.top < window.innerHeight")
