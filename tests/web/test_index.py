"""The games page (/) in a real browser: the list, its links, its filters (kept in the URL), live rows, tournaments."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.api.helpers import SETUP
from tests.web.conftest import WAIT_MS, Server, screenshot

ROWS = "tbody[data-games] tr"


def open_list(page: Any, server: Server, query: str = "") -> None:
    page.goto(server.url + "/" + query)
    page.wait_for_selector(f"{ROWS}, [data-summary]:has-text('No games')", timeout=WAIT_MS)


def listed(page: Any) -> list[str]:
    return [str(row.get_attribute("data-game-id")) for row in page.locator(ROWS).all()]


def test_the_sample_games_are_listed_newest_first_and_link_to_their_replay(server: Server, page: Any) -> None:
    # the fixture game Ann v Bob (older than the first page of bot games): armies from its metadata
    open_list(page, server, "?player=Ann")
    # the sample game's row: other web tests of this worker may have added newer games of an Ann
    ann = next(row for row in page.locator(ROWS).all() if row.get_attribute("data-game-id") in server.sample_ids)
    assert re.search(r"Ann \(\w+\)", ann.inner_text())
    assert "finished" in ann.locator("[data-col=status]").inner_text()
    assert "wins" in ann.locator("[data-col=result]").inner_text()

    api = server.client().get("/games", params={"order": "newest", "limit": 25}).json()["games"]
    open_list(page, server)
    assert listed(page)[: len(api)] == [g["id"] for g in api]
    first = page.locator(ROWS).first
    game = api[0]
    assert first.locator("a[data-replay]").get_attribute("href") == f"/replay/{game['id']}"
    assert game["system"] in first.inner_text()
    for name in game["players"]:
        assert name in first.inner_text()
    assert not page.problems
    first.locator("a[data-replay]").focus()
    page.keyboard.press("Enter")  # the link is reachable and followed with the keyboard
    page.wait_for_url(f"**/replay/{game['id']}")  # (the replay page's own checks are in test_replay.py)


def test_each_filter_narrows_the_list_and_the_url_and_survives_a_reload(server: Server, page: Any) -> None:
    open_list(page, server)
    everything = listed(page)
    page.select_option("#f-system", "lords-of-war")
    page.click("form[data-filters] button[type=submit]")
    page.wait_for_url(re.compile(r"\?system=lords-of-war$"))
    # the list is drawn again once the filtered page arrives (other systems' games were listed before)
    page.wait_for_function(f"[...document.querySelectorAll('{ROWS}')].every(r => r.innerText.includes('lords-of-war'))")
    assert all("lords-of-war" in row.inner_text() for row in page.locator(ROWS).all())

    page.fill("#f-player", "Ann")
    page.click("form[data-filters] button[type=submit]")
    page.wait_for_url(re.compile(r"player=Ann"))
    page.wait_for_function(f"document.querySelectorAll('{ROWS}').length < {len(everything)}")
    # (the system's list is shorter than everything already when other systems have games: wait for Ann's)
    page.wait_for_function(f"[...document.querySelectorAll('{ROWS}')].every(r => r.innerText.includes('Ann'))")
    rows = page.locator(ROWS).all()
    assert rows and all("Ann" in row.inner_text() for row in rows)

    page.click("[data-clear]")
    page.wait_for_url(server.url + "/")
    page.fill("#f-army", "elves")
    page.press("#f-army", "Enter")  # the keyboard submits the form
    page.wait_for_url(re.compile(r"\?army=elves$"))
    api = [g["id"] for g in server.client().get("/games", params={"army": "elves", "order": "newest",
                                                                   "limit": 25}).json()["games"]]
    assert api
    # wait for the filtered list itself: a count below everything's was also met by the list still drawn from the
    # player filter before the clear (a race seen on a loaded machine)
    page.wait_for_function(f"JSON.stringify([...document.querySelectorAll('{ROWS}')].map(r => r.dataset.gameId))"
                           f" === {json.dumps(json.dumps(api, separators=(',', ':')))}")
    elves = listed(page)
    assert elves == api
    assert all("(Elves)" in row.inner_text() for row in page.locator(ROWS).all())

    page.reload()  # the URL is the state: a shared or reloaded link shows the same list
    page.wait_for_selector(ROWS)
    assert page.input_value("#f-army") == "elves" and listed(page) == elves

    page.fill("#f-army", "no-such-army")
    page.click("form[data-filters] button[type=submit]")
    page.wait_for_selector("[data-summary]:has-text('No games match')")
    page.go_back()
    page.wait_for_selector(ROWS)
    assert listed(page) == elves and page.input_value("#f-army") == "elves"
    assert not page.problems


def test_the_tournament_filter_and_the_tournaments_list(server: Server, page: Any) -> None:
    client = server.client()
    created = client.post("/tournaments", json={"name": "Filter Cup", "system": "lords-of-war", "rounds": 1}).json()
    organiser = {"Authorization": f"Bearer {created['token']}"}
    for player, army in (("fay", "orcs"), ("gus", "undead")):
        entrant = {"id": player, "name": player.title(), "army": army}
        registered = client.post(f"/tournaments/{created['id']}/players", json=entrant, headers=organiser)
        assert registered.status_code == 201
    game_id = client.post(f"/tournaments/{created['id']}/rounds", headers=organiser).json()["tables"][0]["game_id"]
    open_list(page, server)
    link = page.locator(f"[data-tournament-id='{created['id']}'] a")
    assert link.inner_text() == "Filter Cup" and link.get_attribute("href") == f"/tournaments/{created['id']}"
    page.select_option("#f-tournament", created["id"])
    page.click("form[data-filters] button[type=submit]")
    page.wait_for_url(re.compile(rf"\?tournament={created['id']}$"))
    page.wait_for_function(f"document.querySelectorAll('{ROWS}').length === 1")
    row = page.locator(ROWS).first
    assert listed(page) == [game_id]
    assert "Filter Cup" in row.inner_text() and "round 1, table 1" in row.inner_text()
    assert "Fay" in row.inner_text() and "(Undead)" in row.inner_text()
    assert not page.problems


def test_a_game_created_while_the_page_is_open_appears_as_live(server: Server, page: Any) -> None:
    open_list(page, server)
    client = server.client()
    body = client.post("/games", json={**SETUP, "players": [{"id": "p1", "name": "Liv", "army": "templars"},
                                                            {"id": "p2", "name": "Max", "army": "lizardmen"}]}).json()
    row = page.locator(f"tr[data-game-id='{body['id']}']")
    row.wait_for(timeout=WAIT_MS)  # the page polls every 5 s
    assert row.get_attribute("data-status") == "live"
    assert row.locator(".badge.live").inner_text() == "live"
    assert "Liv (Templars)" in row.inner_text() and "Max (Lizardmen)" in row.inner_text()
    assert re.search(r"turn \d+ · \d+ events", row.locator("[data-col=length]").inner_text())
    conceded = client.post(f"/games/{body['id']}/actions", json={"action": {"type": "concede", "player": "p1"}},
                           headers={"Authorization": f"Bearer {body['tokens']['scorekeeper']}"})
    assert conceded.status_code == 201
    page.wait_for_selector(f"tr[data-game-id='{body['id']}'][data-status=over]", timeout=WAIT_MS)
    assert "Max wins · Concession" in page.locator(f"tr[data-game-id='{body['id']}'] [data-col=result]").inner_text()
    screenshot(page, "index-desktop")
    assert not page.problems


def test_a_bad_filter_is_shown_in_words(server: Server, page: Any) -> None:
    open_list(page, server, "?player=" + "x" * 200)  # longer than the API allows: 422
    page.wait_for_selector("p.error[role=alert]")
    assert page.locator("p.error").inner_text()
    assert page.locator(ROWS).count() == 0
    assert [p for p in page.problems if "422" not in p] == []  # the browser logs the failed request itself


def test_the_list_on_a_phone(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    problems: list[str] = []
    phone.on("pageerror", lambda e: problems.append(str(e)))
    phone.goto(server.url + "/")
    phone.wait_for_selector(ROWS)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone: {width}px"
    assert phone.locator(f"{ROWS} td[data-label=Players]").first.is_visible()
    screenshot(phone, "index-phone")
    context.close()
    assert not problems
