"""Screenshots for the README (docs/screenshots/): the three styles, editing
mode and a phone-sized window. Each is also checked for what it must show."""

import json

from support import ROOT, SCREENSHOTS, cell, open_table, row, table, wait


def country(name, capital, flag, **fields):
    return cell(name, id=flag, style="subtitle", detail=capital, image=f"/public/flags/{flag}.svg",
                accessory="disclosureIndicator", canMove=True, **fields)


ATLAS = table("atlas", [
    {"header": "Europe", "indexTitle": "E", "footer": "Four nations of the European continent.", "rows": [
        country("England", "London", "england"),
        country("France", "Paris", "france"),
        country("Scotland", "Edinburgh", "scotland", deleteTitle="Remove"),
        country("Spain", "Madrid", "spain"),
    ]},
    {"header": "Americas", "indexTitle": "A", "rows": [
        cell("United States of America", id="usa", style="subtitle", detail="Washington, D.C.",
             image="/public/flags/usa.svg", accessory="detailDisclosureButton", detailLink="/api/tables/atlas",
             canMove=True),
        cell("Add a country", id="add", editingStyle="insert", selectionStyle="none"),
    ]},
    {"header": "Settings", "indexTitle": "S", "rows": [
        cell("Units", id="units", style="value1", detail="Metric", accessory="disclosureIndicator"),
        cell("Language", id="language", style="value1", detail="English", selected=True),
        cell("Capital", id="capital", style="value2", detail="Shown under each country"),
    ]},
], title="Atlas", header="Countries and their capitals", footer="Flags from Public/flags.")


ANIMATIONS_DONE = """
return document.getAnimations().every((animation) => animation.playState === 'finished'
  || animation.effect.getComputedTiming().iterations === Infinity);
"""


def save(driver, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000, f"{name} looks empty"


def images_loaded(driver):
    return driver.execute_script(
        "return Array.from(document.images).every((image) => image.complete && image.naturalWidth > 0)")


def test_screenshots_of_each_style_editing_and_a_phone(serve, browser):
    server = serve([ATLAS])
    window = browser(width=900, height=820)
    for style, name in (("plain", "plain.png"), ("grouped", "grouped.png"), ("insetGrouped", "inset-grouped.png")):
        open_table(window, server, "atlas", f"?style={style}")
        wait(window, lambda: images_loaded(window))
        assert window.find_elements("css selector", "nav.section-index") or style != "plain"
        save(window, name)

    window.find_element("css selector", ".tv-edit-button").click()
    scotland = row(window, 0, 2)
    scotland.find_element("css selector", ".tv-delete-control").click()
    confirm = scotland.find_element("css selector", ".tv-delete-confirm")
    wait(window, lambda: confirm.is_displayed() and window.execute_script(ANIMATIONS_DONE))
    assert confirm.text == "Remove"
    save(window, "editing.png")

    phone = browser(width=375, height=812)
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": 375, "height": 812, "deviceScaleFactor": 2, "mobile": True})
    open_table(phone, server, "atlas", "?style=insetGrouped")
    wait(phone, lambda: images_loaded(phone))
    assert phone.execute_script("return window.innerWidth") == 375
    save(phone, "phone.png")


def test_screenshots_of_the_demo_tables(serve, browser):
    demo = [json.loads((ROOT / "examples" / name).read_text()) for name in ("countries.json", "settings.json", "us-cities.json")]
    server = serve(demo)
    window = browser(width=600, height=760)
    open_table(window, server, "countries")
    wait(window, lambda: images_loaded(window))
    assert len(window.find_elements("css selector", "tr.cell")) == 5
    save(window, "demo-countries.png")
    open_table(window, server, "us-cities")
    assert window.find_elements("css selector", "nav.section-index")
    save(window, "demo-us-cities.png")
    open_table(window, server, "settings")
    assert len(window.find_elements("css selector", "input.switch[role='switch']")) == 5
    assert len(window.find_elements("css selector", "input.switch:checked")) == 3
    assert [button.text for button in window.find_elements("css selector", "button.accessory-button")] == ["Update Now"]
    save(window, "demo-settings.png")


def test_screenshot_of_search(serve, browser):
    demo = [json.loads((ROOT / "examples" / "us-cities.json").read_text())]
    server = serve(demo)
    window = browser(width=600, height=560)
    open_table(window, server, "us-cities", "?q=san")
    field = window.find_element("css selector", "form.search-bar input[name=q]")
    field.click()
    assert window.find_element("css selector", "a.search-cancel").is_displayed()
    assert not window.find_elements("css selector", "nav.section-index")
    assert len(window.find_elements("css selector", "tr.cell")) == 4
    save(window, "demo-search.png")


def test_screenshot_of_a_row_detail_page(serve, browser):
    document = {"id": "cities", "title": "Cities", "style": "insetGrouped", "sections": [{"rows": [
        {"id": "nyc", "text": "New York", "fields": {
            "state": "New York", "population": 8336817, "area_km2": 783.8, "founded": 1624,
            "boroughs": ["Manhattan", "Brooklyn", "Queens", "The Bronx", "Staten Island"],
            "nickname": "The Big Apple, the City That Never Sleeps, Gotham"}}]}]}
    server = serve([document])
    window = browser(width=600, height=520)
    window.get(f"{server.url}/tables/cities/rows/nyc")
    wait(window, lambda: window.find_elements("css selector", ".nav-trailing .tv-edit-button"))
    assert len(window.find_elements("css selector", ".record-field")) == 6
    save(window, "row-detail.png")
