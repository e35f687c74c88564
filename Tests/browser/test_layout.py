"""Where things are drawn: the section index strip clear of the rows' text,
and rows indented in editing mode as UIKit indents them."""

import json

import pytest

from support import ROOT, as_phone, cell, open_table, table

US_CITIES = json.loads((ROOT / "examples" / "us-cities.json").read_text())

INDEX_OVERLAP = """
const strip = document.querySelector('nav.section-index').getBoundingClientRect();
let overlap = -Infinity;
for (const label of document.querySelectorAll('tr.cell .text, tr.cell .detail')) {
  const box = label.getBoundingClientRect();
  if (box.bottom > strip.top && box.top < strip.bottom) overlap = Math.max(overlap, box.right - strip.left);
}
return overlap;
"""


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_section_index_strip_does_not_cover_the_value1_numbers(serve, browser, device):
    server = serve([US_CITIES])
    window = browser(width=1280, height=800, scrollbars=True)
    if device == "phone":
        as_phone(window)
    open_table(window, server, "us-cities")
    overlap = window.execute_script(INDEX_OVERLAP)
    assert overlap <= -2, f"the strip covers the rows' text by {overlap:.1f} px"


TEXT_LEFT = """
return Array.from(document.querySelectorAll('tr.cell .text')).map((text) => Math.round(text.getBoundingClientRect().left));
"""


def test_rows_with_editing_style_none_are_indented_in_editing_mode(serve, browser):
    rows = [cell("Deletable"), cell("Plain", editingStyle="none"), cell("Insertable", editingStyle="insert"),
            cell("Fixed", canEdit=False)]
    server = serve([table("styles", [{"header": "Rows", "rows": rows}])])
    window = browser()
    open_table(window, server, "styles")
    before = window.execute_script(TEXT_LEFT)
    assert len(set(before)) == 1
    window.find_element("css selector", ".tv-edit-button").click()
    deletable, plain, insertable, fixed = window.execute_script(TEXT_LEFT)
    # UIKit indents every editable row (shouldIndentWhileEditing), control or not;
    # a row that cannot be edited stays where it was.
    assert deletable > before[0]
    assert plain == deletable == insertable
    assert fixed == before[3]


SECTION_SHAPE = """
const first = document.querySelector('tbody.section > tr.cell');
const text = first.querySelector('.text').getBoundingClientRect();
return {radius: getComputedStyle(first).borderTopLeftRadius, width: Math.round(first.getBoundingClientRect().width),
        page: document.documentElement.clientWidth, textLeft: Math.round(text.left)};
"""


def test_grouped_and_inset_grouped_differ_at_desktop_width(serve, browser):
    server = serve([table("shapes", [{"header": "Rows", "rows": [cell("One"), cell("Two")]}])])
    window = browser(width=1280, height=800)
    open_table(window, server, "shapes", "?style=grouped")
    grouped = window.execute_script(SECTION_SHAPE)
    open_table(window, server, "shapes", "?style=insetGrouped")
    inset = window.execute_script(SECTION_SHAPE)
    # Grouped: a square band across the whole width, its text in the readable column.
    assert grouped["radius"] == "0px" and grouped["width"] == grouped["page"]
    assert grouped["textLeft"] == (grouped["page"] - 700) // 2 + 16
    # Inset grouped: a rounded card inside the column.
    assert inset["radius"] == "10px" and inset["width"] < inset["page"] - 2 * 200
