"""HeroScape's drawing of the Proving Ground map (issue 28) on the replay page: every hex, the inlet left blank, the
spire's level, the walls, and a move along its path, without a console error (build/screenshots/)."""

from __future__ import annotations

from typing import Any

from tests.engine.heroscape.hs_given import markers, position_setup
from tests.web.conftest import WAIT_MS, Server, screenshot

FIGURES = ["p1 grimnak -4,-1+-5,-1", "p1 agent-carr 3,-1", "p2 izumi-samurai/1 4,-2", "p2 marro-warriors/1 -6,2"]


def test_the_proving_ground_map_is_drawn_hex_by_hex_with_its_inlet_spire_and_walls(server: Server,
                                                                                      page: Any) -> None:
    client = server.client()
    created = client.post("/games", json={**position_setup(FIGURES, board="proving-ground"), "insecure_seed": True})
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["tokens"]["scorekeeper"]
    for action in (markers("p1", "grimnak"), markers("p2", "izumi-samurai"),
                   {"type": "roll", "player": "p1", "values": [20]}, {"type": "roll", "player": "p2", "values": [1]},
                   {"type": "move", "player": "p1", "figure": "grimnak", "to": [-4, 1], "tail": [-4, 0]}):
        answer = client.post(f"/games/{game_id}/actions", json={"action": action},
                             headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 201, answer.text
    page.goto(f"{server.url}/replay/{game_id}")
    page.wait_for_selector("#board svg", timeout=WAIT_MS)
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#board desc')?.textContent.includes('Grimnak (grimnak) on [-4,1]')")
    page.keyboard.press("ArrowLeft")  # the move declared: its way drawn
    page.wait_for_function("document.querySelector('#board desc')?.textContent.includes('moves from')")
    board = page.locator("#board svg.hs-map")
    assert board.locator("polygon").count() == 124  # radius 6 (127 hexes) less the inlet's 3
    titles = board.locator("g > title").all_text_contents()
    assert "[3, -1] level 16, rock" in titles and not any(t.startswith("[-5, 3]") for t in titles)
    assert board.locator("line[stroke-width='5']").count() == 2  # the walls of height 6 and 4
    assert "Proving Ground" in (board.locator("desc").text_content() or "")
    way = board.locator("[data-layer='marks'] g[data-mark='move'][data-from='-4,-1'][data-to='-4,1']")
    assert way.count() == 1 and way.locator("polyline").count() >= 1  # Grimnak's way into the river (its marks)
    screenshot(page, "replay-heroscape-proving-ground")
    assert page.problems == []
