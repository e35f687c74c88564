"""Group headers (docs/API.md, "Views"): us-cities grouped by section is headed
by the states' names and indexed by their index titles; grouped by population,
its headers are numbers in the reader's locale (German here: Intl.NumberFormat)
and its index names ranges (8M, 3M, …, 100K), also for a group a live update
inserts, in a strip as wide as its longest title (900K, never clipped) at
desktop and phone width; both pages have no axe-core violation, in light and in dark."""

import json

import pytest

from support import ROOT, open_table, wait
from test_accessibility import violations

CITIES = json.loads((ROOT / "examples" / "us-cities.json").read_text())

HEADERS = """
return Array.from(document.querySelectorAll('table.table-view > tbody.section > tr.section-header th'),
  (th) => th.textContent);
"""
INDEX = """
return Array.from(document.querySelectorAll('nav.section-index a'), (link) => link.textContent);
"""


def german(window):
    """The reader's locale is German: Intl formats 8804190 as 8.804.190."""
    window.execute_cdp_cmd("Emulation.setLocaleOverride", {"locale": "de-DE"})


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_groups_by_section_are_headed_by_the_sections_headers(serve, browser, scheme):
    server = serve([CITIES])
    window = browser(width=1280, height=900)
    window.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    open_table(window, server, "us-cities", "?group=section")
    states = sorted(CITIES["sections"], key=lambda section: section["id"])
    assert window.execute_script(HEADERS) == [section["header"] for section in states]
    assert window.execute_script(INDEX) == [section["indexTitle"] for section in states]
    assert violations(window) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_groups_by_number_read_in_the_readers_locale_and_index_ranges(serve, browser, scheme):
    server = serve([CITIES])
    window = browser(width=1280, height=900)
    german(window)
    window.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    open_table(window, server, "us-cities", "?group=-fields.population")
    populations = sorted((row["fields"]["population"] for section in CITIES["sections"] for row in section["rows"]),
                         reverse=True)
    german_digits = [f"{number:,}".replace(",", ".") for number in populations]
    assert window.execute_script(HEADERS) == german_digits
    index = window.execute_script(INDEX)
    assert index[:4] == ["8M", "3M", "2M", "1M"] and "#" not in index
    # The server wrote the value as the row holds it, for the page to format.
    assert window.find_element("css selector", "data.group-number").get_attribute("value") == str(populations[0])
    assert violations(window) == []

    # A live update inserts a group at the top: formatted as the page's own, the index extended.
    window.execute_script("document.body.dataset.sameDocument = 'yes'")
    server.edit("PATCH", "/api/tables/us-cities/items/al-huntsville", {"fields": {"population": 12345678}})
    wait(window, lambda: window.execute_script(HEADERS)[0] == "12.345.678", "the inserted group's header")
    assert window.execute_script(INDEX)[:2] == ["10M", "8M"]
    assert window.execute_script("return document.body.dataset.sameDocument") == "yes", "the page was reloaded"


# The strip's titles against the strip: the longest, whether any is clipped, each target's size,
# and whether the rows leave room for the strip.
FIT = """
const strip = document.querySelector('nav.section-index');
const box = strip.getBoundingClientRect();
const links = Array.from(strip.querySelectorAll('a'));
const body = document.querySelector('table.table-view tr.cell .cell-body');
return {
  longest: Math.max(...links.map((link) => link.textContent.length)),
  clipped: links.filter((link) => {
    const own = link.getBoundingClientRect();
    return own.left < box.left - 0.5 || own.right > box.right + 0.5 || link.scrollWidth > link.clientWidth;
  }).map((link) => link.textContent),
  overflow: strip.scrollWidth > strip.clientWidth,
  small: links.filter((link) => {
    const own = link.getBoundingClientRect();
    return own.width < 24 || own.height < 24;
  }).map((link) => link.textContent),
  room: parseFloat(getComputedStyle(body).paddingRight) - box.width,
};
"""


@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)])
def test_the_index_strip_fits_its_longest_range_title(serve, browser, width, height):
    """Found in a review: range titles such as "900K" were clipped on the left by a 28 px strip."""
    server = serve([CITIES])
    window = browser(width=width, height=height)
    open_table(window, server, "us-cities", "?group=-fields.population")
    found = window.execute_script(FIT)
    assert found["longest"] >= 4, f"no title as long as 900K: the test proves nothing ({found})"
    assert found["clipped"] == [] and not found["overflow"], found
    assert found["small"] == [], found
    assert found["room"] >= 8, f"the rows run under the strip: {found}"
