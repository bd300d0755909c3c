"""Issue 11 item 7: in sealed mode a `draw` naming a card gets the same answer whatever the card, so it cannot be
used to ask "is the top card X?" (docs/rulings.md, decision 14). The scorekeeper's and the player's calls alike."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.helpers import bearer, new_game


def test_sealed_draw_naming_a_card_answers_the_same_for_the_top_card_and_any_other(client: TestClient) -> None:
    game_id, tokens = new_game(client, variant={"mode": "sealed"})
    hand = client.get(f"/games/{game_id}/state", params={"view": "p1"}, headers=bearer(tokens["p1"])).json()
    card = hand["hands"]["p1"]["cards"][0]
    placed = client.post(f"/games/{game_id}/actions", headers=bearer(tokens["p1"]),
                         json={"action": {"type": "place", "player": "p1", "card": card, "square": "C3"}})
    assert placed.status_code == 201, placed.text
    seq = placed.json()["seq"]
    _, state = client.app.state.service.state(game_id)  # type: ignore[attr-defined]
    top, second = state.decks[0][0], state.decks[0][1]
    guesses = [top, second if second != top else card, card, "orcs/orc-butcher"]
    answers = set()
    for guess in guesses:
        for token in (tokens["p1"], tokens["scorekeeper"]):
            response = client.post(f"/games/{game_id}/actions", headers=bearer(token),
                                   json={"action": {"type": "draw", "player": "p1", "card": guess}})
            assert response.status_code == 422, response.text
            answers.add(response.text)
    assert len(answers) == 1, answers  # the right guess is indistinguishable from the wrong ones
    assert '"hidden_card"' in answers.pop()
    assert client.get(f"/games/{game_id}").json()["seq"] == seq  # nothing stored
    drawn = client.post(f"/games/{game_id}/actions", headers=bearer(tokens["p1"]),
                        json={"action": {"type": "draw", "player": "p1"}})
    assert drawn.status_code == 201 and drawn.json()["events"][0]["card"] == top, drawn.text
