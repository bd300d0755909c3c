"""Games on a second catalogue (issue 30) replay in the browser: Light Wars on Marsh Frontier's 7 x 12 map is drawn
on a board of that size (the drawing reads the game's map from its state), HeroScape on Cliffside Bay draws its own
map, both stepping without a console error."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.catalogue_given import sample_catalogue
from tests.web.conftest import WAIT_MS, Server, screenshot

CELL, MARGIN = 64, 22  # api/light_wars/web/board.js
GAMES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "light-wars": ("light_wars", "marsh-frontier", {
        "players": [{"id": "p1", "army": "vanguard"}, {"id": "p2", "army": "garrison"}],
        "variant": {"map": "pass", "deployment": "screen"}}),
    "heroscape": ("heroscape", "cliffside-bay", {
        "players": [{"id": "p1", "army": "tideguard"}, {"id": "p2", "army": "wildmoor"}]}),
}


@pytest.mark.parametrize("system", list(GAMES))
def test_a_game_on_a_second_catalogue_replays_on_its_own_map(server: Server, page: Any, system: str) -> None:
    folder, sample, setup = GAMES[system]
    client = server.client()
    stored = client.post("/catalogues", json=sample_catalogue(folder, sample))
    assert stored.status_code in (200, 201), stored.text
    created = client.post("/games", json={"system": system, **setup, "catalogue": stored.json()["id"]})
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    scorekeeper = {"Authorization": f"Bearer {tokens['scorekeeper']}"}
    for _ in range(8):  # the first legal action each time: the armies go onto the map
        legal = client.get(f"/games/{game_id}/legal", headers=scorekeeper).json()
        answer = client.post(f"/games/{game_id}/actions", json={"action": legal["actions"][0],
                                                                "expected_seq": legal["seq"]}, headers=scorekeeper)
        assert answer.status_code == 201, answer.text
    page.goto(f"{server.url}/replay/{game_id}?step=2")
    page.wait_for_selector("main[data-step]", timeout=WAIT_MS)
    svg = page.locator("#board svg").first
    if system == "light-wars":
        assert svg.get_attribute("viewBox") == f"0 0 {2 * MARGIN + 7 * CELL} {2 * MARGIN + 12 * CELL}"
        assert page.locator("#board svg text", has_text="12").count() == 1  # rows 1 to 12, columns A to G
        assert page.locator("#board svg text", has_text="G").count() == 1
    else:
        assert svg.count() == 1
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('main').dataset.step !== '2'")
    screenshot(page, f"catalogue-{system}")
    assert not page.problems
