"""The section index strip with 100 sections: it fits the window below the
navigation bar at every height, its titles folding into "•" as UIKit folds
them, each a 24×24 px target (WCAG 2.5.8); its titles keep 4.5:1 over every
row state in light and dark; and a mouse or a finger scrubs along it from the
first section to the last."""

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


@pytest.mark.parametrize("height", [400, 700, 1000, 1500, 2700])
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
        if s["bottom"] > s["height"] or (height >= 2700 and "•" in s["titles"]):
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
    # Every entry, shown or folded, is a 24 px line: titles fold rather than shrink below a target's size.
    assert min(strip["lines"]) >= 24, strip["lines"]
    if height >= 2700:
        # Room for every title at 24 px a line: none folds.
        assert titles == [str(n) for n in range(100)]
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


# The contrast of the strip's titles on what is drawn behind them, and each entry's size.
CONTRAST = """
const parse = (color) => color.match(/[\\d.]+/g).map(Number);
const channel = (value) => { const v = value / 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
const strip = document.querySelector('nav.section-index');
const back = parse(getComputedStyle(strip).backgroundColor);
const links = Array.from(strip.querySelectorAll('a'));
const [light, dark] = [luminance(parse(getComputedStyle(links[0]).color)), luminance(back)].sort((a, b) => b - a);
const selected = Array.from(document.querySelectorAll('tr.cell.selected'));
return {
  opaque: back.length === 3 || back[3] === 1,
  ratio: (light + 0.05) / (dark + 0.05),
  sizes: links.map((link) => [link.getBoundingClientRect().width, link.getBoundingClientRect().height]),
  // The strip is drawn over the selected row: what is behind its titles is the strip's own background.
  over: links.some((link) => {
    const box = link.getBoundingClientRect();
    return selected.some((cell) => {
      const row = cell.getBoundingClientRect();
      return box.top < row.bottom && box.bottom > row.top && box.right > row.left && box.left < row.right;
    });
  }),
  top: links.every((link) => {
    const box = link.getBoundingClientRect();
    return strip.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
  }),
};
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_index_keeps_its_contrast_over_a_selected_row_and_its_entries_are_24_px_targets(serve, browser, scheme):
    sections = [{"header": letter, "indexTitle": letter, "rows": [cell(f"{letter} {r}") for r in range(2)]}
                for letter in "ABCDEFGHIJ"]
    # Every row is selected: the strip passes over selected rows wherever it is drawn.
    for section in sections:
        for row_ in section["rows"]:
            row_["selected"] = True
    server = serve([table("letters", sections, allowsSelection=True, allowsMultipleSelection=True)])
    window = browser(height=700)
    window.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    open_table(window, server, "letters")
    found = window.execute_script(CONTRAST)
    assert found["over"], "no selected row passes under the strip: the test proves nothing"
    assert found["opaque"] and found["top"], found
    assert found["ratio"] >= 4.5, found["ratio"]
    assert all(width >= 24 and height >= 24 for width, height in found["sizes"]), found["sizes"]
