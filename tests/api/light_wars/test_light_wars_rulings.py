"""From the user's side (HTTP through the FastAPI app): Light Wars R6 (shared rules/light-wars.md; issue 28, item 8).

Turning is part of a unit's action at any point of it: a unit may move, then turn, then attack in the same phase; a
turn is never a move and never ends the unit's action (``turn {square, facing}``: event ``unit_turned``).
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.helpers import bearer
from tests.engine.light_wars.lw_given import position_setup

KINGS = ["p1 K A1 N", "p2 K I9 S"]


def start(client: TestClient, units: list[str]) -> tuple[str, str]:
    """A table game from a position, past p1's tactics step; -> (game id, the scorekeeper's token)."""
    created = client.post("/games", json={**position_setup([*KINGS, *units]), "insecure_seed": True})
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["tokens"]["scorekeeper"]
    act(client, game_id, token, {"type": "tactics", "player": "p1", "tiles": []})
    return game_id, token


def act(client: TestClient, game_id: str, token: str, action: dict[str, Any]) -> list[dict[str, Any]]:
    answer = client.post(f"/games/{game_id}/actions", json={"action": action}, headers=bearer(token))
    assert answer.status_code == 201, (action, answer.text)
    return list(answer.json()["events"])


def unit(client: TestClient, game_id: str, owner: str, unit_id: str) -> dict[str, Any]:
    shown = client.get(f"/games/{game_id}/state", params={"view": "spectator"}).json()
    return next(u for u in shown["units"] if u["owner"] == owner and u["unit"] == unit_id)


def test_r6_a_unit_moves_then_turns_then_attacks_in_the_same_phase(client: TestClient) -> None:
    game_id, token = start(client, ["p1 I1 C2 N", "p1 I2 H2 N", "p2 I1 D4 S"])
    act(client, game_id, token, {"type": "move", "player": "p1", "square": "C2", "to": "C4", "facing": "N"})
    turned = act(client, game_id, token, {"type": "turn", "player": "p1", "square": "C4", "facing": "E"})
    assert [e["type"] for e in turned] == ["unit_turned"]
    assert (turned[0]["unit"], turned[0]["square"], turned[0]["facing"]) == ("I1", "C4", "E")
    assert unit(client, game_id, "p1", "I1")["status"] == "moved"  # still its action: it may attack
    declared = act(client, game_id, token, {"type": "attack", "player": "p1", "target": "D4", "attackers": ["C4"]})
    assert declared[0]["type"] == "attack_declared" and declared[0]["participants"][0]["side"] == "side"
    texts = [x["text"] for x in client.get(f"/games/{game_id}/explanations").json()["explanations"]]
    assert "p1's Infantry I1 on C4 turns to face E; it may still act (R6)" in texts, texts


def test_r6_a_turn_is_never_a_move_and_never_ends_the_units_action(client: TestClient) -> None:
    game_id, token = start(client, ["p1 I1 C2 N", "p2 I1 I8 S"])
    act(client, game_id, token, {"type": "turn", "player": "p1", "square": "C2", "facing": "W"})
    assert unit(client, game_id, "p1", "I1")["status"] == "ready"  # not moved: the whole move is left
    act(client, game_id, token, {"type": "turn", "player": "p1", "square": "C2", "facing": "N"})
    act(client, game_id, token, {"type": "move", "player": "p1", "square": "C2", "to": "C4", "facing": "N"})  # 2
    act(client, game_id, token, {"type": "turn", "player": "p1", "square": "C4", "facing": "E"})
    assert (unit(client, game_id, "p1", "I1")["status"], unit(client, game_id, "p1", "I1")["facing"]) == \
        ("moved", "E")
    passed = act(client, game_id, token, {"type": "wait", "player": "p1", "square": "A1"})  # the King
    assert passed == [e for e in passed if e["type"] == "unit_waited"]  # I1 has not acted: the phase goes on
    seq = client.get(f"/games/{game_id}/state").json()["seq"]
    again = client.post(f"/games/{game_id}/actions", headers=bearer(token),
                        json={"action": {"type": "move", "player": "p1", "square": "C4", "to": "C4", "facing": "S"}})
    assert again.status_code == 422 and again.json()["error"]["rule"] == "R6", again.text  # turning is no move
    assert client.get(f"/games/{game_id}/state").json()["seq"] == seq  # nothing stored
