"""Issue 30 item 6 in Chromium: the catalogue pages and the replay board's card details from the game's catalogue.

- ``/catalogues`` lists every catalogue (each system's default and the uploaded ones) with its card count;
- ``/catalogues/{id}`` shows each system's second catalogue (tests/conformance/catalogues.py and HeroScape's
  Cliffside Bay) as tables of its cards with their numbers, each card linked to the system's statistics filtered by
  the catalogue (or, for a system without statistics per card, a note linking its statistics page), and its maps
  drawn by the system's board (Light Wars, HeroScape);
- a game played on an uploaded second catalogue names its units by that catalogue on the replay board, and shows
  a unit's details from it on hover (1440x900) and on a tap (390x844, a touch screen); Escape closes them.

Screenshots: build/screenshots/catalogue-page-*.png and catalogue-replay-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.conformance.catalogues import SECOND_CATALOGUES, document
from tests.web.conftest import WAIT_MS, Server, screenshot

SIZES = {"desktop": (1440, 900), "phone": (390, 844)}
CATALOGUES = dict(SECOND_CATALOGUES) | {"heroscape": "heroscape/catalogues/cliffside-bay.json"}
CARD_LISTS = ("cards", "kings", "units")
# the statistic each card links to (None: the system has no statistics per card, the page says so)
CARD_STATISTIC = {"lords-of-war": "heatmap", "heroscape": "hs-cards", "l5r": None, "art-of-war": None,
                  "light-wars": None}


def upload(server: Server, system: str) -> tuple[str, dict[str, Any]]:
    body = document(CATALOGUES[system])
    stored = server.client().post("/catalogues", json=body)
    assert stored.status_code in (200, 201), stored.text
    return stored.json()["id"], body


@contextmanager
def opened(browser: Any, size: str) -> Iterator[Any]:
    """A page at ``size`` (a phone: a touch screen); its console errors and page errors in ``page.problems``."""
    width, height = SIZES[size]
    phone = size == "phone"
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.problems = problems
    try:
        yield page
    finally:
        context.close()


def cards_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    return next(body[name] for name in CARD_LISTS if name in body)


@pytest.mark.parametrize("system", list(CATALOGUES))
@pytest.mark.parametrize("size", list(SIZES))
def test_a_catalogue_page_lists_its_cards_linked_to_their_statistics(server: Server, browser: Any, system: str,
                                                                     size: str) -> None:
    identity, body = upload(server, system)
    width = SIZES[size][0]
    with opened(browser, size) as page:
        page.goto(f"{server.url}/catalogues/{identity}")
        page.wait_for_selector("html[data-ready='true']")
        assert page.locator("h1").inner_text() == body["name"]
        cards = cards_of(body)
        for card in cards:  # every card is a row, named and with its numbers
            row = page.locator(f"tr[data-entry='{card['id']}']").first
            assert row.locator("th [data-name]").inner_text() == card["name"]
            for field, value in card.items():
                if isinstance(value, int) and not isinstance(value, bool):
                    assert row.locator(f"td[data-field='{field}']").inner_text() == str(value), (card["id"], field)
        statistic = CARD_STATISTIC[system]
        links = page.locator("a[data-stats-link]")
        if statistic is None:
            assert links.count() == 0
            note = page.locator("[data-stats-note] a")
            assert note.get_attribute("href") == f"/stats/{system}?catalogue={identity}"
        else:
            assert links.count() == len(cards)
            href = links.first.get_attribute("href")
            assert href.startswith(f"/stats/{system}?catalogue={identity}") and href.endswith(f"#stat-{statistic}")
            # the card: Lords of War's heat map takes it; every statistics page highlights it (issue 32)
            assert f"card={cards[0]['id'].replace('/', '%2F')}" in href
        maps = body.get("maps", [])
        if maps:
            assert page.locator(".catalogue-map .board-frame > svg").count() == len(maps)
        if system == "l5r":  # cards by kind
            kinds = {card["kind"] for card in cards}
            assert page.locator("h3[data-kind]").count() == len(kinds)
        if size == "phone":
            assert page.evaluate("document.scrollingElement.scrollWidth") <= width  # nothing scrolls sideways
        screenshot(page, f"catalogue-page-{system}-{size}")
        assert not page.problems, page.problems


def test_the_catalogues_page_lists_every_catalogue_with_its_cards(server: Server, page: Any) -> None:
    identity, body = upload(server, "light-wars")
    page.goto(f"{server.url}/catalogues")
    page.wait_for_selector("html[data-ready='true']")
    row = page.locator(f"tr[data-catalogue='{identity}']")
    assert row.locator("th a").inner_text() == body["name"]
    assert row.locator("th a").get_attribute("href") == f"/catalogues/{identity}"
    assert row.locator("td[data-col='cards']").inner_text() == str(len(body["units"]) + len(body["tactics"]))
    assert "5 unit types" in row.locator("td[data-col='holds']").inner_text()
    defaults = page.locator("tr[data-system] .badge", has_text="default")
    assert defaults.count() == 5  # each system's built-in data
    assert page.locator("header.site nav a[aria-current='page']").inner_text() == "Catalogues"
    screenshot(page, "catalogue-page-list")
    assert not page.problems


# a game on the second catalogue (Art of War's KINGs, its catalogue's cards, do not reach the board in a game of
# first legal actions; its board names them the same way)
GAMES: dict[str, dict[str, Any]] = {
    "light-wars": {"players": [{"id": "p1", "army": "vanguard"}, {"id": "p2", "army": "garrison"}]},
    "lords-of-war": {"players": [{"id": "p1", "army": "fenlings"}, {"id": "p2", "army": "stonewardens"}]},
    "l5r": {"players": [{"id": "p1", "army": "phoenix"}, {"id": "p2", "army": "scorpion"}]},
    "heroscape": {"players": [{"id": "p1", "army": "tideguard"}, {"id": "p2", "army": "wildmoor"}]},
}


def played(server: Server, system: str, identity: str, actions: int = 8) -> str:
    client = server.client()
    created = client.post("/games", json={"system": system, **GAMES[system], "catalogue": identity})
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    scorekeeper = {"Authorization": f"Bearer {tokens['scorekeeper']}"}
    for _ in range(actions):  # the first legal action each time: units go onto the board
        legal = client.get(f"/games/{game_id}/legal", headers=scorekeeper).json()
        answer = client.post(f"/games/{game_id}/actions", json={"action": legal["actions"][0],
                                                                "expected_seq": legal["seq"]}, headers=scorekeeper)
        assert answer.status_code == 201, answer.text
    return str(game_id)


@pytest.mark.parametrize("system", list(GAMES))
def test_a_game_on_a_second_catalogue_names_its_cards_from_it_with_details_on_hover_and_tap(
        server: Server, browser: Any, system: str) -> None:
    identity, body = upload(server, system)
    names = {card["id"]: card["name"] for card in cards_of(body)}
    game_id = played(server, system, identity)
    for size, (width, _) in SIZES.items():
        with opened(browser, size) as page:
            page.goto(f"{server.url}/replay/{game_id}")
            page.wait_for_selector("main[data-step] #board [data-card-id]")
            on_board = page.eval_on_selector_all("#board [data-card-id]",
                                                 "(pieces) => pieces.map((p) => p.dataset.cardId)")
            card_id = next((card for card in on_board if card in names), None)
            assert card_id is not None, f"no card of the catalogue on the board: {on_board}"
            piece = page.locator(f"#board [data-card-id='{card_id}']").first
            assert names[card_id] in (piece.get_attribute("aria-label") or ""), "the board names it from the catalogue"
            popover = page.locator("#board-card")
            if size == "phone":  # a tap on a touch screen
                piece.scroll_into_view_if_needed()
                piece.tap()
            else:
                piece.hover()
            popover.wait_for(state="visible")
            assert popover.get_attribute("role") == "tooltip"
            assert piece.get_attribute("aria-describedby") == "board-card"
            text = popover.inner_text()
            assert names[card_id] in text and body["name"] in text
            card = next(c for c in cards_of(body) if c["id"] == card_id)
            number = next(k for k, v in card.items() if isinstance(v, int) and not isinstance(v, bool))
            assert f"{card[number]}" in popover.locator("dd").all_inner_texts()
            box, own = piece.bounding_box(), popover.bounding_box()
            assert box is not None and own is not None
            assert 0 <= own["x"] and own["x"] + own["width"] <= width + 1  # within the screen
            screenshot(page, f"catalogue-replay-{system}-{size}")
            page.keyboard.press("Escape")
            popover.wait_for(state="hidden")
            assert not page.problems, page.problems
