"""Issue 32 item 8 in a real browser: a statistics page per system with navigation between its sections, /stats the
index of the systems, every column titled (no "key"), cards one row a card by its name, armies by their names."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlparse

from tests.web.conftest import SHOTS, WAIT_MS, Server, screenshot

READY = "html[data-ready='true']"


def test_stats_index_links_a_page_per_system(server: Server, page: Any) -> None:
    catalogue = server.client().get("/stats").json()
    page.goto(f"{server.url}/stats")
    page.wait_for_selector(READY, timeout=WAIT_MS)
    entries = page.locator("li.system-entry")
    assert entries.count() == len(catalogue["systems"])
    for system in catalogue["systems"]:
        entry = page.locator(f"li.system-entry[data-system='{system['name']}']")
        assert entry.locator("a").get_attribute("href") == f"/stats/{system['name']}"
        games = server.client().get("/stats/end-reasons", params={"system": system["name"]}).json()["games"]
        assert entry.inner_text().count(f"{games:,} finished game") == 1
    assert page.locator("section.statistic").count() == 0  # the index draws no statistic
    screenshot(page, "stats-index")
    page.locator("li.system-entry[data-system='l5r'] a").click()
    page.wait_for_url(f"{server.url}/stats/l5r")
    page.wait_for_selector(READY, timeout=WAIT_MS)
    assert not page.problems


def test_a_systems_statistics_page_navigates_between_its_sections(server: Server, page: Any) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{server.url}/stats/lords-of-war")
    page.wait_for_selector(READY, timeout=WAIT_MS)
    assert page.locator("h1").inner_text() == "Statistics: Lords of War"
    current = page.get_by_role("navigation", name="Game systems").locator("a[aria-current='page']")
    assert current.get_attribute("href") == "/stats/lords-of-war"
    own = server.client().get("/stats/lords-of-war").json()["statistics"]
    sections = page.locator("section.statistic")
    assert sections.count() == len(own)  # the core's and this system's, no other system's
    assert {s.get_attribute("data-statistic") for s in sections.all()} == {s["name"] for s in own}
    contents = page.get_by_role("navigation", name="Statistics on this page")
    assert contents.locator(".toc-title").all_text_contents() == ["Games", "Lords of War", "Players"]
    assert contents.locator("a").count() == len(own)
    contents.get_by_role("link", name="Head-to-head records").click()
    page.wait_for_function("location.hash === '#stat-head-to-head'")
    target = page.locator("#stat-head-to-head").bounding_box()
    assert target is not None and 0 <= target["y"] < 900  # scrolled to it
    nav = contents.bounding_box()
    assert nav is not None and nav["y"] >= 0 and nav["y"] < 900  # the navigation stays in view (sticky)
    contents.get_by_role("link", name="Per-card statistics").click()
    page.wait_for_function("location.hash === '#stat-cards'")
    screenshot(page, "stats-system-desktop")
    page.screenshot(path=str(SHOTS / "stats-system-desktop-view.png"))  # what the reader sees there
    # cards: one row a card, by the catalogue's name; armies by their names
    cards = page.locator("section[data-statistic='cards'] td[data-column='card']").all_text_contents()
    assert cards and not [c for c in cards if re.search(r"-[0-9]+$", c)]
    names = page.locator("section[data-statistic='cards'] td[data-column='name']").all_text_contents()
    assert "Orc Warhog" in names or "Orc Ravager" in names
    labels = server.client().get("/static/systems/lords-of-war/labels.json").json()["armies"]
    cells = page.locator("section[data-statistic='armies'] td[data-column='army']").all()
    assert cells
    for cell in cells:  # Orcs, not orcs (the code stays in data-value and the CSV)
        code = cell.get_attribute("data-value")
        assert cell.text_content() == labels.get(code, code)
    assert any(cell.text_content() != cell.get_attribute("data-value") for cell in cells)
    assert not page.problems


def test_every_column_is_titled_on_every_systems_page(server: Server, page: Any) -> None:
    for system in [s["name"] for s in server.client().get("/stats").json()["systems"]]:
        page.goto(f"{server.url}/stats/{system}")
        page.wait_for_selector(READY, timeout=WAIT_MS)
        titles = [t.strip().rstrip("▲▼ ").strip() for t in page.locator("th button.sort").all_text_contents()]
        assert titles and all(titles), system
        assert "key" not in titles, system
    assert not page.problems


def test_an_older_link_with_a_system_query_opens_its_page(server: Server, page: Any) -> None:
    page.goto(f"{server.url}/stats?system=l5r&min_games=1")
    page.wait_for_selector(READY, timeout=WAIT_MS)
    assert urlparse(page.url).path == "/stats/l5r" and urlparse(page.url).query == "min_games=1"
    assert page.get_by_label("Min. games").input_value() == "1"
    assert not page.problems


def test_a_systems_statistics_page_on_a_phone(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    problems: list[str] = []
    phone.on("pageerror", lambda e: problems.append(str(e)))
    try:
        phone.goto(f"{server.url}/stats/lords-of-war")
        phone.wait_for_selector(READY, timeout=WAIT_MS)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        contents = phone.get_by_role("navigation", name="Statistics on this page")
        contents.get_by_role("link", name="Elo ratings (K=32, start 1500)").click()
        phone.wait_for_function("location.hash === '#stat-ratings'")
        box = contents.bounding_box()
        assert box is not None and -1 <= box["y"] <= 1  # the navigation sticks to the top of the screen
        screenshot(phone, "stats-system-phone")
        phone.screenshot(path=str(SHOTS / "stats-system-phone-view.png"))
        assert not problems
    finally:
        context.close()
