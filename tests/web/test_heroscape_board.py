"""HeroScape's drawing of the Proving Ground map (issue 28) on the replay page: every hex, the inlet left blank, the
spire's level, the walls, and a move along its path, without a console error (build/screenshots/)."""

from __future__ import annotations

from typing import Any

from tests.engine.heroscape.hs_given import markers, position_setup
from tests.web.conftest import WAIT_MS, Server, screenshot

FIGURES = ["p1 grimnak -4,-1+-5,-1", "p1 agent-carr 3,-1", "p2 izumi-samurai/1 4,-2", "p2 marro-warriors/1 -6,2"]


def proving_ground_game(server: Server) -> str:
    """A game on the Proving Ground: four figures placed (two of them squad figures), markers, initiative, and
    Grimnak's move into the river."""
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
    return str(game_id)


def test_the_proving_ground_map_is_drawn_hex_by_hex_with_its_inlet_spire_and_walls(server: Server,
                                                                                      page: Any) -> None:
    game_id = proving_ground_game(server)
    page.goto(f"{server.url}/replay/{game_id}")
    page.wait_for_selector("#board svg", timeout=WAIT_MS)
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#board desc')?.textContent.includes('Grimnak on [-4,1]')")
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


def test_hs_figures_are_named_by_their_card_name_and_squad_number_never_by_their_id(server: Server,
                                                                                     page: Any) -> None:
    """Issue 32: a figure's tooltip (title), its aria-label, the board's <desc> and the step's marks name it as a
    player does ("Izumi Samurai 1"), never by the engine's id ("izumi-samurai/1", "grimnak")."""
    game_id = proving_ground_game(server)
    page.goto(f"{server.url}/replay/{game_id}")
    page.wait_for_selector("#board svg", timeout=WAIT_MS)
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#board desc')?.textContent.includes('[-4,1]')")
    page.keyboard.press("ArrowLeft")  # the move declared: its mark's label names the figure too
    page.wait_for_function("document.querySelector('#board desc')?.textContent.includes('moves from')")
    board = page.locator("#board svg.hs-map")
    titles = board.locator("g.hs-figure > title").all_text_contents()
    labels = [board.locator("g.hs-figure").nth(i).get_attribute("aria-label") or ""
              for i in range(board.locator("g.hs-figure").count())]
    desc = board.locator("desc").text_content() or ""
    marks = board.locator("[data-layer='marks'] title").all_text_contents()
    assert "p2's Izumi Samurai 1 on [4,-2]" in titles and "p2's Marro Warriors 1 on [-6,2]" in titles, titles
    assert labels == titles
    assert "p2's Izumi Samurai 1 on [4,-2]" in desc and "Grimnak moves from [-4,-1] to [-4,1]" in desc, desc
    ids = ("izumi-samurai", "marro-warriors", "agent-carr", "(grimnak)")
    shown = [*titles, *labels, desc, *marks]
    assert not [text for text in shown if any(i in text for i in ids)], shown
    screenshot(page, "replay-heroscape-figure-names")
    assert page.problems == []
