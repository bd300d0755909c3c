"""Issue 32 item 8 in a real browser: a statistics page per system with navigation between its sections, /stats the
index of the systems, every column titled (no "key"), cards one row a card by its name, armies by their names."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.web.conftest import SHOTS, WAIT_MS, Server, screenshot

READY = "html[data-ready='true']"


@pytest.fixture(autouse=True)
def _settled(server: Server) -> None:
    """These tests compare a page with the API: both after the statistics have counted every finished game."""
    server.settled()


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


def default_catalogue(server: Server, system: str) -> dict[str, Any]:
    listed = server.client().get("/catalogues", params={"system": system}).json()["catalogues"]
    return next(c for c in listed if c["default"])


def test_lords_of_war_card_heat_map_is_titled_by_the_cards_name(server: Server, page: Any) -> None:
    """Issue 32: the heat map of one card's placements names the card as its statistics do (the ``cards`` rows'
    ``name``: Orc Warhog), never by its id (orcs/orc-warhog-1)."""
    page.goto(f"{server.url}/stats/lords-of-war?card=orcs%2Forc-warhog-1#stat-heatmap")
    page.wait_for_selector(READY, timeout=WAIT_MS)
    chart = page.locator("[data-statistic='heatmap'] svg.mat-heat")
    title = chart.locator("title").first.text_content() or ""
    words = page.locator("[data-statistic='heatmap'] .system-chart + p.visually-hidden").text_content() or ""
    assert "Orc Warhog" in title and "orc-warhog" not in title, title
    assert "Orc Warhog" in words and "orc-warhog" not in words, words
    assert not page.problems


def test_a_catalogue_pages_card_link_opens_the_statistics_filtered_by_it_with_the_card_shown(server: Server,
                                                                                            page: Any) -> None:
    """Issue 32 (issue 30's catalogue links): from a catalogue page, a card's Statistics link opens the system's
    statistics with a visible "Catalogue: <name>" filter that a button clears, scrolled to the card's heat map; once
    cleared (the sample games are on no stored catalogue: the filter keeps none of them), the card stays chosen: its
    heat map titled by its name and its row of the cards table highlighted."""
    catalogue = default_catalogue(server, "lords-of-war")
    page.goto(f"{server.url}/catalogues/{catalogue['id']}")
    page.wait_for_selector(READY, timeout=WAIT_MS)
    page.get_by_role("link", name="Statistics of Orc Warhog").first.click()
    page.wait_for_url(re.compile(r"/stats/lords-of-war\?"))
    page.wait_for_selector(READY, timeout=WAIT_MS)
    chip = page.locator("[data-active-filter='catalogue']")
    assert chip.is_visible()
    assert chip.inner_text().startswith(f"Catalogue: {catalogue['name']}"), chip.inner_text()
    page.wait_for_function("(() => { const r = document.querySelector('#stat-heatmap').getBoundingClientRect();"
                           " return r.top < innerHeight && r.bottom > 0; })()")
    assert page.locator("#stat-heatmap input[name='card']").input_value() == "orcs/orc-warhog-1"
    screenshot(page, "stats-catalogue-card-link")
    chip.get_by_role("button", name=f"Clear the catalogue filter ({catalogue['name']})").click()
    page.wait_for_function("!new URLSearchParams(location.search).has('catalogue')")
    page.wait_for_selector(READY, timeout=WAIT_MS)
    assert page.locator("[data-active-filter='catalogue']").count() == 0
    assert "Orc Warhog" in (page.locator("#stat-heatmap svg.mat-heat title").first.text_content() or "")
    marked = page.locator("[data-statistic='cards'] tr[data-highlighted]")
    assert marked.count() == 1 and "Orc Warhog" in marked.inner_text()
    screenshot(page, "stats-catalogue-card-cleared")
    assert not page.problems
